"""The index page of a reviewed file of Clabber rounds: one page that links the review page of every round.

``review ROUNDS.txt --html PAGE`` on a file of several rounds (a game played with ``clabber play --record``)
writes a page per round (``PAGE-1.html``, ``PAGE-2.html``, ...: :mod:`.page`, each linking the previous and
next round and this index) and this index at ``PAGE``: every round with its trump, makers and dealer, the
round's scores and the running totals towards 500, and each reviewed seat's points lost in that round (the
calls' and the cards' losses beyond the noise, as the text review counts them) with its labels; the last
row, each seat's points lost over the file.  The page is the game-neutral index of
:mod:`barbu_sim.core.review_page.index`, in the frame of the round pages; this module gives it the rows.
"""

from __future__ import annotations

from pathlib import Path

from ...core.cards import SUIT_SYMBOLS
from ...core.review_page.index import IndexRow, labels_text, session_index_html as index_html
from ...core.review_page.index import write_session_index as write
from ...core.seats import SEAT_LETTERS, SEAT_NAMES
from .labels import LABELS

NAMES = [name for name, _ in reversed(LABELS)]  # inaccuracy, mistake, blunder


def _what(rnd) -> str:
    row = rnd.row
    if rnd.thrown_in:
        return "thrown in"
    maker = row["maker"]
    return (f"trump {SUIT_SYMBOLS[row['trump']]}, makers {SEAT_NAMES[maker]} and {SEAT_NAMES[(maker + 2) % 4]}"
            + (" (unfinished)" if rnd.scores() is None else ""))


def rounds_index_html(done: list, pages: list, name: str) -> str:
    """The index page (a string) of ``done`` (per round, in file order: ``(round, decisions, forced, bids)``, what
    :func:`.review.review_round` and :func:`.bidding.review_calls` return) whose pages are ``pages``; ``name``:
    the file reviewed, for the title."""
    seats = sorted({s for _, _, forced, _ in done for s in forced})
    rows, lost_all = [], {s: [] for s in seats}
    for k, ((rnd, decisions, _, bids), page) in enumerate(zip(done, pages)):
        calls = bids.calls if bids is not None else []
        cells = []
        for s in seats:
            mine = [d for d in decisions if d.seat == s] + [c for c in calls if c.seat == s]
            lost_all[s] += mine
            cells.append((f"{sum(d.loss for d in mine if d.counts):.1f}", labels_text((d.label for d in mine), NAMES)))
        scores = rnd.scores() or (0, 0)
        rows.append(IndexRow(page=page, label=f"Round {k + 1}", cells=[_what(rnd), SEAT_NAMES[rnd.dealer]],
                             scores=list(scores), seats=cells))
    foot = [(f"{sum(d.loss for d in lost_all[s] if d.counts):.1f}", f"{len(lost_all[s])} decisions") for s in seats]
    note = ("Each round's page steps through it, the calls and the cards. Totals: the rounds' scores, as a game "
            "counts them towards 500. Points lost: the losses beyond the noise, the calls' and the cards'.")
    return index_html(f"Clabber review: {name}, {len(done)} rounds", note, "round", ["contract", "dealer"],
                      ["N+S", "E+W"], "the round", [(SEAT_LETTERS[s], SEAT_NAMES[s]) for s in seats],
                      "points lost", rows, foot, signed=False)


def write_rounds_index(done: list, pages: list, path, name: str) -> Path:
    """Write :func:`rounds_index_html` to ``path`` (UTF-8, atomically); return the path."""
    return write(rounds_index_html(done, pages, name), path)


__all__ = ["rounds_index_html", "write_rounds_index"]
