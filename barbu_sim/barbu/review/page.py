"""The review of a played deal as one self-contained web page, to share.

:func:`review_html` turns a :class:`~barbu_sim.barbu.review.review.Review` into one HTML
file: the four hands as dealt, every trick (or, in Domino, every turn and the layout of the
table), and at each reviewed decision every legal card with its value and the label of the
loss.  It is stepped through card by card with the arrow keys or buttons.  The page needs no
server and no network: its style, its script and its data are inside it, so it opens from
``file://`` and can be mailed or attached as it is.

The page reads only these keys of :func:`~barbu_sim.barbu.review.review.review_json`:
``contract``, ``declarer``, ``samples``, ``seed``, ``scores``, ``unfinished`` and, per
decision, ``play`` (1-based over the deal, Domino passes included), ``seat``, ``trick``,
``card``, ``best``, ``loss``, ``loss_se``, ``counts``, ``label`` and ``estimates`` (``card``,
``mean``, ``se``); any other key is ignored.  The hands and the plays come from the deal
itself (``review.deal``), replayed through :class:`~barbu_sim.barbu.position.Position`.
"""

from __future__ import annotations

import html
import json
import re
from importlib.resources import files
from pathlib import Path

from ...core.cards import RANK_LETTERS, RANK_NAMES, SUIT_LETTERS, SUIT_SYMBOLS, cards_of, parse_card
from ...core.seats import SEAT_LETTERS, SEAT_NAMES
from ..rules.config import CONTRACT_TITLES, DOMINO, TRUMPS
from ..state import PASS
from .review import Review, review_json

DECISION_KEYS = ("play", "seat", "trick", "card", "best", "loss", "loss_se", "counts", "label", "estimates")


def _code(card: int) -> str:
    """The page's spelling of a card: rank letter (T for the ten) and suit letter, ``TH``."""
    return RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13]


def _same_card(text: str) -> str:
    """A card of the review's data in the page's spelling, whatever spelling the data uses."""
    return _code(parse_card(str(text)))


def _decision(d: dict) -> dict:
    out = {key: d.get(key) for key in DECISION_KEYS}
    for key in ("card", "best"):
        out[key] = _same_card(out[key])
    out["estimates"] = [{"card": _same_card(e["card"]), "mean": e["mean"], "se": e["se"]}
                        for e in d.get("estimates") or []]
    return out


def _plays(deal) -> list[dict]:
    """Every play of the deal with what it did: its trick and the trick's winner, the scores after it,
    and in Domino the seat that went out with it."""
    pos = deal.position()
    out = []
    for seat, card in deal.plays:
        before, tricks, finished = pos.scores.copy(), len(pos.trick_winners), len(getattr(pos, "finished", []))
        row = {"seat": SEAT_LETTERS[seat], "card": None if card == PASS else _code(card), "trick": None,
               "winner": None, "points": None, "out": None}
        if card == PASS:
            pos.pass_turn()
        else:
            if not pos.domino:
                row["trick"] = tricks + 1
            pos.play(card)
        if not pos.domino and len(pos.trick_winners) > tricks:
            w = pos.trick_winners[-1]
            row["winner"], row["points"] = SEAT_LETTERS[w], int(pos.scores[w] - before[w])
        if pos.domino and len(pos.finished) > finished:
            row["out"] = SEAT_LETTERS[pos.finished[-1]]
        row["scores"] = [int(v) for v in pos.scores]
        out.append(row)
    return out


def review_page_data(review: Review) -> dict:
    """The data the page renders, as plain JSON-able values (what :func:`review_html` embeds).

    ``review``: the fields of ``review_json(review)`` the page reads (see the module's
    docstring), the deal's title and contract heading, the hands as dealt (by seat letter,
    cards spelt ``AS``, ``TH``) and every play (``card`` None for a Domino pass).
    """
    data = review_json(review)
    deal = review.deal
    pos = deal.position()
    heading = CONTRACT_TITLES[deal.contract]
    if deal.contract == TRUMPS:
        heading += f", trumps {SUIT_SYMBOLS[deal.param]}"
    elif deal.contract == DOMINO:
        heading += f", dominoes from {RANK_NAMES[pos.start]}"
    return {
        "title": deal.title, "heading": heading, "contract": data["contract"], "declarer": data["declarer"],
        "samples": data["samples"], "seed": data["seed"], "scores": data["scores"],
        "unfinished": bool(data["unfinished"]), "domino": deal.contract == DOMINO,
        "ace_low": bool(getattr(pos, "ace_low", False)),
        "hands": {SEAT_LETTERS[s]: [_code(c) for c in cards_of(deal.hands[s])] for s in range(4)},
        "plays": _plays(deal),
        "decisions": [_decision(d) for d in data["decisions"]],
    }


def _script_json(data) -> str:
    """JSON that cannot end the ``<script>`` element holding it: ``<``, ``>`` and ``&`` are escaped
    (``</script>`` in a title stays text), as are the two line separators JavaScript once refused."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


def review_html(review: Review) -> str:
    """The review of one played deal as one self-contained HTML page (a string).

    ``review``: what :func:`~barbu_sim.barbu.review.review.review_deal` returns.  The page
    shows a header (the deal's title, the contract, the declarer, the scores), the four hands
    as dealt, the table at every play (the trick and who led and won it; in Domino the
    layout of the table and who went out), and at each reviewed decision every legal card's
    value (mean ± standard error) with the played and best cards and the label of the loss.
    Arrow keys, Home/End, PageUp/PageDown (previous/next decision) and buttons step through it;
    ``#play-N`` at the end of its address opens it at play N.  Nothing is loaded from elsewhere:
    no server, no network.  The data is embedded as JSON in ``<script type="application/json"
    id="review-data">`` (:func:`review_page_data`), escaped so that no text of the deal can
    end that element.
    """
    data = review_page_data(review)
    names = dict(zip(SEAT_LETTERS, SEAT_NAMES))
    title = f"Barbu review: {data['heading']}, declarer {names[data['declarer']]}"
    if data["title"]:
        title = f"{data['title']} ({title})"
    parts = {"TITLE": html.escape(title), "STYLE": STYLE, "SCRIPT": SCRIPT, "DATA": _script_json(data)}
    # one pass, so that a title holding "%DATA%" stays text
    return re.sub(r"%(TITLE|STYLE|SCRIPT|DATA)%", lambda m: parts[m.group(1)], PAGE)


def write_review_html(review: Review, path) -> Path:
    """Write :func:`review_html` of ``review`` to ``path`` (UTF-8, replaced whole, atomically); return the path.

    A folder that cannot be written is an :class:`~barbu_sim.core.files.OutputError` naming the path.
    """
    from ...core.files import write_text
    return write_text(Path(path), review_html(review), what="the review page")


# The page: %TITLE%, %STYLE%, %SCRIPT% and %DATA% mark where review_html puts the escaped title,
# the style, the script and the data.
# The page's script: page.js, a package data file beside this module.
SCRIPT = files(__package__).joinpath("page.js").read_text(encoding="utf-8")

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="barbu-sim">
<title>%TITLE%</title>
<style>%STYLE%</style>
</head>
<body>
<header id="head"></header>
<main>
  <section id="table" aria-label="the table"></section>
  <section id="side">
    <nav id="controls" aria-label="step through the deal">
      <button type="button" data-go="start" title="Home">&#xAB; Start</button>
      <button type="button" data-go="back" title="Left arrow">&#x25C0; Back</button>
      <button type="button" data-go="next" title="Right arrow">Next &#x25B6;</button>
      <button type="button" data-go="end" title="End">End &#xBB;</button>
      <button type="button" data-go="prev-decision" title="Page Up">&#x25C0; Decision</button>
      <button type="button" data-go="next-decision" title="Page Down">Decision &#x25B6;</button>
    </nav>
    <div id="status" aria-live="polite"></div>
    <div id="decision"></div>
    <div id="decisions"></div>
  </section>
</main>
<section id="record"></section>
<footer>Keys: &#x2190; &#x2192; one play, Home / End the start and the end, Page Up / Page Down the
previous and next decision. Written by barbu-sim; this page loads nothing from elsewhere.</footer>
<script type="application/json" id="review-data">%DATA%</script>
<script>%SCRIPT%</script>
</body>
</html>
"""

STYLE = """
:root { --felt: #1f6b45; --ink: #1d232a; --red: #c8102e; --muted: #66707a; --line: #d5dadf; }
* { box-sizing: border-box; }
body { margin: 0; padding: 14px 18px; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); background: #f4f5f2; }
header h1 { margin: 0; font-size: 21px; } header .sub { color: var(--muted); margin: 2px 0 0; }
.scores { margin-top: 6px; display: flex; gap: 14px; flex-wrap: wrap; }
.scores span b { font-variant-numeric: tabular-nums; }
main { display: flex; gap: 18px; flex-wrap: wrap; margin-top: 12px; align-items: flex-start; }
#table { flex: 1 1 560px; max-width: 720px; display: grid; grid-template-columns: 1fr 1.25fr 1fr;
  grid-template-areas: ". n ." "w c e" ". s ."; gap: 8px; background: var(--felt); border-radius: 14px;
  padding: 12px; color: #fff; min-height: 430px; }
.seat { background: rgba(0,0,0,.22); border-radius: 9px; padding: 6px 9px; align-self: center; }
.seat.N { grid-area: n; } .seat.E { grid-area: e; } .seat.S { grid-area: s; } .seat.W { grid-area: w; }
.seat.turn { outline: 3px solid #ffd54a; }
.seat h2 { margin: 0 0 3px; font-size: 14px; display: flex; justify-content: space-between; gap: 6px; }
.seat h2 .tag { font-weight: normal; opacity: .8; }
.suit { white-space: nowrap; font-size: 15px; letter-spacing: .5px; }
.suit .sym { display: inline-block; width: 1.2em; }
.seat .red, #table .seat .red { color: #ffb3b3; }
.center { grid-area: c; background: rgba(255,255,255,.08); border-radius: 10px; padding: 8px; display: flex;
  flex-direction: column; align-items: center; justify-content: center; gap: 6px; min-height: 200px; }
.caption { text-align: center; font-size: 14px; }
.trick { display: grid; grid-template-columns: repeat(3, 46px); grid-template-rows: repeat(3, 50px);
  grid-template-areas: ". n ." "w . e" ". s ."; gap: 2px; }
.trick .N { grid-area: n; } .trick .E { grid-area: e; } .trick .S { grid-area: s; } .trick .W { grid-area: w; }
.card { display: inline-flex; align-items: center; justify-content: center; background: #fff; color: var(--ink);
  border: 1px solid #bbb; border-radius: 5px; font-weight: 600; font-size: 15px; min-width: 40px; height: 48px; }
.card.red { color: var(--red); } .card.won { outline: 3px solid #ffd54a; }
.card.new { box-shadow: 0 0 0 3px #4fc3f7; }
.layout { display: grid; grid-template-columns: 20px repeat(13, 22px); gap: 2px; font-size: 12px; }
.layout .cell { height: 24px; border-radius: 3px; background: rgba(255,255,255,.12); display: flex;
  align-items: center; justify-content: center; }
.layout .cell.on { background: #fff; color: var(--ink); font-weight: 600; }
.layout .cell.on.red, .layout .sym.red { color: var(--red); } .layout .sym.red { color: #ffb3b3; }
.layout .cell.new { box-shadow: 0 0 0 2px #4fc3f7; }
.result { background: #fff; color: var(--ink); border-radius: 8px; padding: 5px 12px; text-align: center; }
.result div { display: grid; grid-template-columns: auto auto; gap: 0 14px; font-variant-numeric: tabular-nums; }
#side { flex: 1 1 380px; max-width: 560px; }
#controls { display: flex; flex-wrap: wrap; gap: 5px; }
button { font: inherit; font-size: 13px; padding: 4px 9px; border: 1px solid #9aa4ad; border-radius: 6px;
  background: #fff; cursor: pointer; } button:hover { background: #e9eef2; }
button:disabled { opacity: .4; cursor: default; }
#status { margin: 8px 0; font-weight: 600; }
#decision { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 9px 11px; min-height: 80px; }
#decision h3 { margin: 0 0 4px; font-size: 16px; } #decision .verdict { margin: 0 0 6px; }
table.values { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
table.values td, table.values th { padding: 2px 6px; text-align: right; border-bottom: 1px solid #eef0f2; }
table.values th { color: var(--muted); font-weight: normal; font-size: 13px; }
table.values td:first-child, table.values th:first-child { text-align: left; }
table.values tr.played td { background: #fff4d6; font-weight: 600; }
.bar { display: inline-block; height: 9px; background: #e0787a; border-radius: 2px; vertical-align: middle; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 700;
  text-transform: uppercase; color: #fff; background: #7a8591; }
.badge.blunder { background: #b3261e; } .badge.mistake { background: #e0701b; }
.badge.inaccuracy { background: #c9a100; } .badge.best { background: #2e7d32; }
.red { color: var(--red); }
#decisions { margin-top: 10px; display: flex; flex-wrap: wrap; gap: 4px; }
.chip { border: 1px solid var(--line); border-radius: 12px; padding: 1px 8px; font-size: 12px; background: #fff;
  cursor: pointer; } .chip.now { border-color: #1565c0; box-shadow: 0 0 0 2px #90caf9; }
.chip.blunder { background: #fbd9d6; border-color: #b3261e; }
.chip.mistake { background: #fde3cc; border-color: #e0701b; }
.chip.inaccuracy { background: #fbf0c2; border-color: #c9a100; }
#record { margin-top: 14px; max-width: 1300px; }
#record h2 { font-size: 16px; margin: 0 0 4px; }
table.tricks { border-collapse: collapse; font-variant-numeric: tabular-nums; background: #fff; }
table.tricks td, table.tricks th { padding: 2px 10px; border-bottom: 1px solid #eef0f2; text-align: center; }
table.tricks tr { cursor: pointer; } table.tricks tr.now { background: #e3f2fd; }
table.tricks td.future, .turns .future { opacity: .35; } table.tricks td.lead { text-decoration: underline; }
table.tricks td.win { font-weight: 700; } table.tricks td.now { box-shadow: inset 0 0 0 2px #4fc3f7; }
#record .legend { color: var(--muted); font-size: 13px; margin: 0 0 4px; }
.turns { display: flex; flex-wrap: wrap; gap: 3px; } .turns span { background: #fff; border: 1px solid var(--line);
  border-radius: 4px; padding: 0 5px; font-size: 13px; cursor: pointer; } .turns span.now { border-color: #1565c0; }
footer { margin-top: 14px; color: var(--muted); font-size: 12px; }
"""
