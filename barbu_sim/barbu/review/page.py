"""The review of a played deal as one self-contained web page, to share.

:func:`review_html` turns a :class:`~barbu_sim.barbu.review.review.Review` into one HTML
file: the table at every play (or, in Domino, every turn and the layout of the table) seen
from one seat (its own hand, the cards played, the voids shown; a switch shows the four
hands), at each reviewed decision every legal card with its value, its difference from the
best and the label of the loss (a click on a card shows it), the hand's graph of the seat's
expected score, and each seat's accuracy and labels.  It is stepped through card by card with
the arrow keys or buttons.  The page needs no server and no network: its style, its script
and its data are inside it, so it opens from ``file://`` and can be mailed or attached as it is.
A session's pages link to one another and to their index (:mod:`.index`).

The page's data is :func:`review_page_data`; the hands and the plays come from the deal itself
(``review.deal``), replayed through :class:`~barbu_sim.barbu.position.Position`, the values from
each decision's :class:`~barbu_sim.barbu.review.estimate.Estimate`.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from ...core.cards import SUIT_SYMBOLS, cards_of
from ...core.review_page import page_code, review_page_html, script_json  # noqa: F401  (script_json: for callers)
from ...core.seats import SEAT_LETTERS, SEAT_NAMES
from ..rules.config import CONTRACT_TITLES, DOMINO, TRUMPS
from ..state import PASS
from .page_style import STYLE
from .review import LABELS, Decision, Review, review_json

# The ranks in words, for the Domino heading: "Domino, starting at the queens".
RANK_WORDS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens",
              "kings", "aces")


_code = page_code  # the page's spelling of a card, ``TH``


def _r(x: float) -> float:
    return round(float(x), 3)


def _decision(d: Decision, lines: dict | None = None) -> dict:
    """One decision as the page reads it: the card played, the best, the loss and its label, the layouts, the
    seat's scores before it, and every legal card (best first) with its value, its loss against the best and
    its difference from the card played, each a paired difference with its standard error."""
    est = d.estimate
    estimates = []
    for c, mean, se in d.estimates:
        row = {"card": _code(c), "mean": _r(mean), "se": _r(se)}
        if est is not None:
            loss, loss_se = est.loss(c)
            vs, vs_se = est.difference(c, d.card) if est.rep_of[c] != est.rep_of[d.card] else (0.0, 0.0)
            row.update(layouts=est.card_layouts(c), loss=_r(loss), loss_se=_r(loss_se), label=est.label(c) or None,
                       vs_played=_r(vs), vs_played_se=_r(vs_se))
        if lines and _code(c) in lines:
            row["line"] = lines[_code(c)]
        estimates.append(row)
    return {"play": d.play_no + 1, "seat": SEAT_LETTERS[d.seat], "trick": d.trick, "turn": d.turn,
            "card": _code(d.card), "best": _code(d.best), "loss": _r(d.loss), "loss_se": _r(d.loss_se),
            "counts": d.counts, "label": d.label or None, "settled": d.settled, "accuracy": round(d.accuracy, 1),
            "layouts": d.layouts, "exact": d.exact, "scores_before": [int(v) for v in d.view.get("scores", [0] * 4)],
            "estimates": estimates}


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


def heading(deal) -> str:
    """The contract as the page's title says it: ``Trumps, trumps ♠``, ``Domino, starting at the queens``."""
    text = CONTRACT_TITLES[deal.contract]
    if deal.contract == TRUMPS:
        text += f", trumps {SUIT_SYMBOLS[deal.param]}"
    elif deal.contract == DOMINO:
        text += f", starting at the {RANK_WORDS[deal.position().start]}"
    return text


def view_of(review: Review, view: int | None) -> tuple[str, bool]:
    """(the seat whose view the page opens on, whether it opens with every hand shown).

    ``view`` given: that seat's view; else the one seat reviewed; else every hand, the graph on South's
    decisions (or the first seat reviewed)."""
    if view is not None:
        return SEAT_LETTERS[view], False
    if len(review.seats) == 1:
        return SEAT_LETTERS[review.seats[0]], False
    return SEAT_LETTERS[2 if 2 in review.seats or not review.seats else review.seats[0]], True


def review_page_data(review: Review, view: int | None = None, session: dict | None = None,
                     lines: dict | None = None) -> dict:
    """The data the page renders, as plain JSON-able values (what :func:`review_html` embeds).

    Keys: ``title``, ``heading``, ``contract``, ``declarer``, ``samples``, ``max_samples``, ``seed``,
    ``scores``, ``unfinished``, ``domino``, ``ace_low``; ``hands`` (as dealt, by seat letter, cards spelt
    ``AS``, ``TH``); ``plays`` (every play, ``card`` None for a Domino pass); ``decisions`` (each with
    ``layouts``, ``scores_before`` and every legal card's ``mean``, ``se``, ``layouts``, ``loss``,
    ``loss_se``, ``label``, ``vs_played``, ``vs_played_se``); ``seats`` (per seat reviewed, as
    ``review --json``'s); ``reviewed``; ``labels`` (the thresholds); ``view`` and ``show_all``
    (:func:`view_of`); ``session`` (None, or the links of a session's page: ``index``, ``number``,
    ``count``, ``prev``, ``next``).  ``lines``: play number (1-based) -> card (``KH``) -> its line
    (:mod:`.line`), shown under the card; default those of the card played and the best card at each decision
    whose loss counts (:func:`line.review_lines`).
    """
    data = review_json(review)
    deal = review.deal
    pos = deal.position()
    seat, show_all = view_of(review, view)
    if lines is None:
        from .line import review_lines
        lines = review_lines(review)
    return {
        "title": deal.title, "heading": heading(deal), "contract": data["contract"], "declarer": data["declarer"],
        "samples": data["samples"], "max_samples": data["max_samples"], "seed": data["seed"],
        "scores": data["scores"], "unfinished": bool(data["unfinished"]), "domino": deal.contract == DOMINO,
        "ace_low": bool(getattr(pos, "ace_low", False)),
        "hands": {SEAT_LETTERS[s]: [_code(c) for c in cards_of(deal.hands[s])] for s in range(4)},
        "plays": _plays(deal),
        "decisions": [_decision(d, lines.get(d.play_no + 1)) for d in review.decisions],
        # points lost as the text review prints them (two decimals, rounded once)
        "seats": {k: {**v, "points_lost": round(review.lost(SEAT_LETTERS.index(k)), 2)}
                  for k, v in data["seats"].items()},
        "reviewed": [SEAT_LETTERS[s] for s in review.seats],
        "labels": [[name, low] for name, low in review.thresholds], "label_names": list(LABELS),
        "view": seat, "show_all": show_all, "session": session,
    }


def page_title(data: dict) -> str:
    names = dict(zip(SEAT_LETTERS, SEAT_NAMES))
    title = f"Barbu review: {data['heading']}, declarer {names[data['declarer']]}"
    return f"{data['title']} ({title})" if data["title"] else title


def review_html(review: Review, view: int | None = None, session: dict | None = None,
                lines: dict | None = None) -> str:
    """The review of one played deal as one self-contained HTML page (a string).

    ``review``: what :func:`~barbu_sim.barbu.review.review.review_deal` returns; ``view``: the seat whose
    view the page opens on (default: the one seat reviewed, else every hand: :func:`view_of`);
    ``session``: the links of a session's page (:func:`review_page_data`); ``lines``: the punishing lines
    (:func:`review_page_data`).  The page shows a header (the deal's title, the contract, the declarer, the
    scores, the layouts the decisions were valued on), the table at every play seen from the seat (a switch
    shows every hand), and at each reviewed decision every legal card's value (mean ± standard error), the
    played and best cards and the label of the loss; a click on any card shows its value against the best
    and the card played.  Beside it the hand's graph and each seat's accuracy.  Arrow keys, Home/End,
    PageUp/PageDown (previous/next decision) and buttons step through it; ``#play-N`` at the end of its
    address opens it at play N, and the address follows the page (the browser's Back included).  Nothing
    is loaded from elsewhere: no server, no network.  The data is embedded as JSON in ``<script
    type="application/json" id="review-data">``, escaped so that no text of the deal can end that element.
    """
    data = review_page_data(review, view, session, lines)
    return review_page_html(page_title(data), STYLE, SCRIPT, data, "deal", FOOTER)


def write_review_html(review: Review, path, view: int | None = None, session: dict | None = None,
                      lines: dict | None = None) -> Path:
    """Write :func:`review_html` of ``review`` to ``path`` (UTF-8, replaced whole, atomically); return the path.

    A folder that cannot be written is an :class:`~barbu_sim.core.files.OutputError` naming the path.
    """
    from ...core.files import write_text
    return write_text(Path(path), review_html(review, view, session, lines), what="the review page")


# The page's script: page.js, a package data file beside this module (it runs after the shared kit).
SCRIPT = files(__package__).joinpath("page.js").read_text(encoding="utf-8")

FOOTER = """Keys: &#x2190; &#x2192; one play, Home / End the start and the end, Page Up / Page Down the
previous and next decision; a click on a card of the values shows its value. Written by barbu-sim; this page
loads nothing from elsewhere."""
