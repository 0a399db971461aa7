"""The review of a played deal as one self-contained web page, to share.

:func:`review_html` turns a :class:`~barbu_sim.barbu.played.review.Review` into one HTML
file: the four hands as dealt, every trick (or, in Domino, every turn and the layout of the
table), and at each reviewed decision every legal card with its value and the label of the
loss.  It is stepped through card by card with the arrow keys or buttons.  The page needs no
server and no network: its style, its script and its data are inside it, so it opens from
``file://`` and can be mailed or attached as it is.

The page reads only these keys of :func:`~barbu_sim.barbu.played.review.review_json`:
``contract``, ``declarer``, ``samples``, ``seed``, ``scores``, ``unfinished`` and, per
decision, ``play`` (1-based over the deal, Domino passes included), ``seat``, ``trick``,
``card``, ``best``, ``loss``, ``loss_se``, ``counts``, ``label`` and ``estimates`` (``card``,
``mean``, ``se``); any other key is ignored.  The hands and the plays come from the deal
itself (``review.deal``), replayed through :class:`~barbu_sim.barbu.played.position.Position`.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from ...core.cards import RANK_LETTERS, SUIT_LETTERS, SUIT_SYMBOLS, cards_of, parse_card
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
        heading += f", dominoes from {RANK_LETTERS[pos.start].replace('T', '10')}"
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

    ``review``: what :func:`~barbu_sim.barbu.played.review.review_deal` returns.  The page
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
    return (PAGE.replace("%TITLE%", html.escape(title))
            .replace("%STYLE%", STYLE).replace("%SCRIPT%", SCRIPT)
            .replace("%DATA%", _script_json(data)))


def write_review_html(review: Review, path) -> Path:
    """Write :func:`review_html` of ``review`` to ``path`` (UTF-8, replaced whole, atomically); return the path.

    A folder that cannot be written is an :class:`~barbu_sim.core.files.OutputError` naming the path.
    """
    from ...core.files import write_text
    return write_text(Path(path), review_html(review), what="the review page")


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
.chip.blunder { background: #fbd9d6; border-color: #b3261e; } .chip.mistake { background: #fde3cc; border-color: #e0701b; }
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

SCRIPT = r"""
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("review-data").textContent);
  const SEATS = "NESW", NAMES = ["North", "East", "South", "West"];
  const SYM = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const RANKS = "23456789TJQKA";
  const P = D.plays.length;
  const decisionAt = {};
  D.decisions.forEach(function (d) { decisionAt[d.play] = d; });
  let step = 0;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function name(letter) { return NAMES[SEATS.indexOf(letter)]; }
  function rank(code) { return code[0] === "T" ? "10" : code[0]; }
  function isRed(code) { return code[1] === "H" || code[1] === "D"; }
  function cardText(code) { return SYM[code[1]] + rank(code); }
  function cardSpan(code, cls) {
    const e = el("span", (cls || "") + (isRed(code) ? " red" : ""), cardText(code));
    e.dataset.card = code;
    return e;
  }
  function signed(v) { return (v >= 0 ? "+" : "") + v; }
  function num(v) { return (v >= 0 ? "+" : "") + Number(v).toFixed(2); }
  function order(code) { return "SHDC".indexOf(code[1]) * 13 + (12 - RANKS.indexOf(code[0])); }

  function header() {
    const h = document.getElementById("head");
    const what = "Barbu review: " + D.heading + ", declarer " + name(D.declarer);
    h.appendChild(el("h1", "", D.title ? D.title : what));
    h.appendChild(el("p", "sub", (D.title ? what + ". " : "") + "Values: mc's estimate of the seat's own score " +
      "from that point to the end of the hand, mean \u00b1 standard error over " + D.samples +
      " layouts of the unseen cards (seed " + D.seed + ")."));
    const s = el("div", "scores");
    s.id = "final-scores";
    s.appendChild(el("span", "", D.unfinished ? "Scores so far (unfinished):" : "Scores:"));
    SEATS.split("").forEach(function (letter) {
      const x = el("span", "", name(letter) + " ");
      x.appendChild(el("b", "", signed(D.scores[letter])));
      s.appendChild(x);
    });
    h.appendChild(s);
  }

  function handsAt(k) {
    const held = {};
    SEATS.split("").forEach(function (s) { held[s] = D.hands[s].slice(); });
    for (let i = 0; i < k; i++) {
      const p = D.plays[i];
      if (p.card) held[p.seat].splice(held[p.seat].indexOf(p.card), 1);
    }
    return held;
  }

  function seatBox(letter, cards, k) {
    const box = el("div", "seat " + letter);
    box.dataset.seat = letter;
    const p = k > 0 ? D.plays[k - 1] : null;
    if (p && p.seat === letter) box.classList.add("turn");
    const h2 = el("h2", "", name(letter));
    const score = k > 0 ? D.plays[k - 1].scores[SEATS.indexOf(letter)] : 0;
    let out = "";
    for (let i = 0, n = 0; i < k; i++) {
      if (D.plays[i].out) n++;
      if (D.plays[i].out === letter) out = "out " + ["1st", "2nd", "3rd"][n - 1] + " \u00b7 ";
    }
    h2.appendChild(el("span", "tag", (letter === D.declarer ? "declarer \u00b7 " : "") + out + signed(score)));
    box.appendChild(h2);
    "SHDC".split("").forEach(function (suit) {
      const line = el("div", "suit");
      line.appendChild(el("span", "sym" + (suit === "H" || suit === "D" ? " red" : ""), SYM[suit]));
      const mine = cards.filter(function (c) { return c[1] === suit; }).sort(function (a, b) { return order(a) - order(b); });
      line.appendChild(el("span", "", mine.length ? mine.map(rank).join(" ") : "\u2014"));
      box.appendChild(line);
    });
    return box;
  }

  function trickCenter(k) {
    const c = el("div", "center");
    c.id = "center";
    if (k === 0) {
      c.appendChild(el("div", "caption", "The hands as dealt. " + name(D.declarer) + " leads."));
      return c;
    }
    const p = D.plays[k - 1], t = p.trick;
    let first = k - 1;
    while (first > 0 && D.plays[first - 1].trick === t) first--;
    const grid = el("div", "trick");
    for (let i = first; i < k; i++) {
      const q = D.plays[i];
      let cls = "card " + q.seat + (i === first ? " led" : "") + (i === k - 1 ? " new" : "");
      if (p.winner && q.seat === p.winner) cls += " won";
      grid.appendChild(cardSpan(q.card, cls));
    }
    const cap = el("div", "caption");
    cap.id = "trick-caption";
    cap.textContent = "Trick " + t + ": " + name(D.plays[first].seat) + " led" +
      (p.winner ? "; won by " + name(p.winner) + " (" + signed(p.points) + ")" : "");
    c.appendChild(cap);
    c.appendChild(grid);
    return c;
  }

  function dominoCenter(k) {
    const c = el("div", "center");
    c.id = "center";
    const cap = el("div", "caption");
    cap.id = "trick-caption";
    const p = k > 0 ? D.plays[k - 1] : null;
    cap.textContent = !p ? "The hands as dealt. " + name(D.declarer) + " plays first." :
      "Play " + k + ": " + name(p.seat) + (p.card ? " plays " + cardText(p.card) : " passes") +
      (p.out ? ", and is out" : "");
    c.appendChild(cap);
    const on = {};
    for (let i = 0; i < k; i++) if (D.plays[i].card) on[D.plays[i].card] = true;
    const ranks = D.ace_low ? "A23456789TJQK" : RANKS;
    const grid = el("div", "layout");
    "SHDC".split("").forEach(function (suit) {
      grid.appendChild(el("span", "sym" + (suit === "H" || suit === "D" ? " red" : ""), SYM[suit]));
      ranks.split("").forEach(function (r) {
        const code = r + suit;
        let cls = "cell" + (on[code] ? " on" + (isRed(code) ? " red" : "") : "");
        if (p && p.card === code) cls += " new";
        grid.appendChild(el("span", cls, on[code] ? rank(code) : ""));
      });
    });
    c.appendChild(grid);
    const out = [];
    for (let i = 0; i < k; i++) if (D.plays[i].out) out.push(name(D.plays[i].out));
    if (out.length) c.appendChild(el("div", "caption", "Out: " + out.join(", ")));
    return c;
  }

  function resultBox() {
    const r = el("div", "result");
    r.id = "result";
    r.appendChild(el("b", "", D.unfinished ? "The play stopped here; scores so far" : "Final scores"));
    const grid = el("div");
    SEATS.split("").forEach(function (s) { grid.appendChild(el("span", "", name(s) + " " + signed(D.scores[s]))); });
    r.appendChild(grid);
    return r;
  }

  function drawTable(k) {
    const t = document.getElementById("table");
    t.textContent = "";
    const held = handsAt(k);
    SEATS.split("").forEach(function (s) { t.appendChild(seatBox(s, held[s], k)); });
    const c = D.domino ? dominoCenter(k) : trickCenter(k);
    if (k === P) c.appendChild(resultBox());
    t.appendChild(c);
  }

  function where(d) { return d.trick ? "trick " + d.trick : "play " + d.play; }

  function drawDecision(k) {
    const box = document.getElementById("decision");
    box.textContent = "";
    const d = decisionAt[k];
    if (!d) {
      const next = D.decisions.find(function (x) { return x.play > k; });
      box.appendChild(el("p", "", k === 0 ? "Step through the deal with the arrow keys or the buttons." :
        "No decision reviewed at this play."));
      if (next) box.appendChild(el("p", "", "Next decision: " + name(next.seat) + ", " + where(next) +
        " (play " + next.play + "), Page Down."));
      else if (!D.decisions.length) box.appendChild(el("p", "", "No decision to review in this deal."));
      return;
    }
    const h = el("h3", "", name(d.seat) + ", " + where(d) + ", plays ");
    h.appendChild(cardSpan(d.card));
    box.appendChild(h);
    const v = el("p", "verdict");
    if (d.counts) {
      v.appendChild(document.createTextNode("Best "));
      v.appendChild(cardSpan(d.best));
      v.appendChild(document.createTextNode(": loses " + Number(d.loss).toFixed(2) + " \u00b1 " +
        Number(d.loss_se).toFixed(2) + " points "));
      if (d.label) v.appendChild(el("span", "badge " + d.label, d.label));
      else v.appendChild(document.createTextNode("(under every label)"));
    } else if (d.loss > 0) {
      v.appendChild(cardSpan(d.best));
      v.appendChild(document.createTextNode(" looks " + Number(d.loss).toFixed(2) + " better: within the noise."));
    } else {
      v.appendChild(el("span", "badge best", "best"));
      v.appendChild(document.createTextNode(" the best card (or as good as the best)."));
    }
    box.appendChild(v);
    const table = el("table", "values");
    const head = el("tr");
    ["card", "value", "\u00b1 se", "behind the best"].forEach(function (x) { head.appendChild(el("th", "", x)); });
    table.appendChild(head);
    const top = d.estimates.length ? d.estimates[0].mean : 0;
    const gaps = d.estimates.map(function (e) { return Math.abs(top - e.mean); });
    const widest = Math.max.apply(null, gaps.concat([1e-9]));
    d.estimates.forEach(function (e, i) {
      const row = el("tr", e.card === d.card ? "played" : "");
      row.dataset.card = e.card;
      const first = el("td");
      first.appendChild(cardSpan(e.card));
      if (e.card === d.card) first.appendChild(document.createTextNode(" played"));
      if (i === 0) first.appendChild(document.createTextNode(" best"));
      row.appendChild(first);
      row.appendChild(el("td", "", num(e.mean)));
      row.appendChild(el("td", "", Number(e.se).toFixed(2)));
      const gap = el("td", "", gaps[i] ? Number(gaps[i]).toFixed(2) + " " : "");
      const bar = el("span", "bar");
      bar.style.width = Math.round(90 * gaps[i] / widest) + "px";
      gap.appendChild(bar);
      row.appendChild(gap);
      table.appendChild(row);
    });
    box.appendChild(table);
  }

  function drawChips(k) {
    const box = document.getElementById("decisions");
    box.textContent = "";
    if (!D.decisions.length) return;
    box.appendChild(el("span", "", "Decisions:"));
    D.decisions.forEach(function (d) {
      const chip = el("span", "chip " + (d.label || "") + (d.play === k ? " now" : ""));
      chip.textContent = d.seat + " " + (d.trick ? "T" + d.trick : "#" + d.play) + " ";
      chip.appendChild(cardSpan(d.card));
      chip.title = name(d.seat) + ", " + where(d) + (d.label ? ": " + d.label : "");
      chip.addEventListener("click", function () { go(d.play); });
      box.appendChild(chip);
    });
  }

  function buildRecord() {
    const r = document.getElementById("record");
    if (D.domino) {
      r.appendChild(el("h2", "", "Turns"));
      const turns = el("div", "turns");
      D.plays.forEach(function (p, i) {
        const s = el("span", "", p.seat + " ");
        s.dataset.step = i + 1;
        if (p.card) s.appendChild(cardSpan(p.card)); else s.appendChild(document.createTextNode("pass"));
        s.addEventListener("click", function () { go(i + 1); });
        turns.appendChild(s);
      });
      r.appendChild(turns);
      return;
    }
    r.appendChild(el("h2", "", "Tricks"));
    r.appendChild(el("p", "legend", "Underlined: the card led; bold: the card that won the trick. " +
      "Click a trick to see it."));
    const table = el("table", "tricks");
    const head = el("tr");
    ["trick"].concat(NAMES, ["won by", "points"]).forEach(function (x) { head.appendChild(el("th", "", x)); });
    table.appendChild(head);
    let row = null;
    D.plays.forEach(function (p, i) {
      if (!row || row.dataset.trick !== String(p.trick)) {
        row = el("tr");
        row.dataset.trick = p.trick;
        row.appendChild(el("td", "", String(p.trick)));
        for (let s = 0; s < 4; s++) row.appendChild(el("td", "", ""));
        row.appendChild(el("td", "win-name", ""));
        row.appendChild(el("td", "", ""));
        const last = i + 1;
        row.addEventListener("click", function () {
          let end = last;
          while (end < P && D.plays[end].trick === p.trick) end++;
          go(end);
        });
        table.appendChild(row);
      }
      const cell = row.children[1 + SEATS.indexOf(p.seat)];
      cell.appendChild(cardSpan(p.card));
      cell.dataset.step = i + 1;
      if (!row.dataset.lead) { row.dataset.lead = p.seat; cell.classList.add("lead"); }
      if (p.winner) {
        row.children[5].textContent = name(p.winner);
        row.children[6].textContent = signed(p.points);
        row.children[1 + SEATS.indexOf(p.winner)].classList.add("win");
        row.dataset.end = i + 1;
      }
    });
    r.appendChild(table);
  }

  function markRecord(k) {
    document.querySelectorAll("#record [data-step]").forEach(function (e) {
      e.classList.toggle("future", Number(e.dataset.step) > k);
      e.classList.toggle("now", Number(e.dataset.step) === k);
    });
    const t = k > 0 ? D.plays[k - 1].trick : null;
    document.querySelectorAll("table.tricks tr[data-trick]").forEach(function (e) {
      e.classList.toggle("now", t !== null && e.dataset.trick === String(t));
    });
  }

  function status(k) {
    const s = document.getElementById("status");
    if (k === 0) { s.textContent = "Start: the hands as dealt (" + P + " plays to come)"; return; }
    const p = D.plays[k - 1];
    s.textContent = "Play " + k + " of " + P + ": " + name(p.seat) + " " +
      (p.card ? "plays " + cardText(p.card) : "passes") + (p.trick ? " (trick " + p.trick + ")" : "");
  }

  function go(k) {
    step = Math.max(0, Math.min(P, k));
    drawTable(step);
    drawDecision(step);
    drawChips(step);
    markRecord(step);
    status(step);
    document.querySelectorAll("#controls button").forEach(function (b) {
      const g = b.dataset.go;
      b.disabled = ((g === "start" || g === "back") && step === 0) || ((g === "next" || g === "end") && step === P) ||
        (g === "prev-decision" && !D.decisions.some(function (d) { return d.play < step; })) ||
        (g === "next-decision" && !D.decisions.some(function (d) { return d.play > step; }));
    });
    try { history.replaceState(null, "", "#play-" + step); } catch (e) { /* some file:// settings refuse it */ }
  }

  function move(what) {
    if (what === "start") go(0);
    else if (what === "end") go(P);
    else if (what === "back") go(step - 1);
    else if (what === "next") go(step + 1);
    else if (what === "next-decision") {
      const d = D.decisions.find(function (x) { return x.play > step; });
      if (d) go(d.play);
    } else if (what === "prev-decision") {
      const before = D.decisions.filter(function (x) { return x.play < step; });
      if (before.length) go(before[before.length - 1].play);
    }
  }

  const KEYS = { ArrowRight: "next", ArrowLeft: "back", Home: "start", End: "end",
    PageDown: "next-decision", PageUp: "prev-decision" };
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || !KEYS[e.key]) return;
    e.preventDefault();
    move(KEYS[e.key]);
  });
  document.querySelectorAll("#controls button").forEach(function (b) {
    b.addEventListener("click", function () { move(b.dataset.go); });
  });

  header();
  buildRecord();
  const m = /^#play-(\d+)$/.exec(location.hash);
  go(m ? Number(m[1]) : 0);
})();
"""
