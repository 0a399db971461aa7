"""The index page of a reviewed session: one page that links the review page of every deal of a file.

A block, a game or a ``table`` session reviewed with ``review --html PAGE`` gives a page per deal
(``PAGE-1.html``, ``PAGE-2.html``, ...: :mod:`.page`, each linking the previous and next deal and this
index) and this index at ``PAGE``: every deal with its contract, declarer, the hand's scores and the
running totals, and each reviewed seat's accuracy and labels in that deal; the last row, each seat's
accuracy over the session.  The page itself is the game-neutral index of
:mod:`barbu_sim.core.review_page.index`, in the frame of the deal pages; this module gives it Barbu's rows.
"""

from __future__ import annotations

from pathlib import Path

from ...core.review_page.index import IndexRow, href, labels_text, session_index_html as index_html, session_links
from ...core.seats import SEAT_LETTERS, SEAT_NAMES
from .page import heading
from .review import LABELS, accuracy_of

__all__ = ["href", "session_index_html", "session_links", "write_session_index"]


def _acc(x) -> str:
    return "\u2013" if x is None else f"{x:.1f}%"


def session_index_html(reviews: list, pages: list, name: str, finals: list | None = None) -> str:
    """The index page (a string) of ``reviews`` (one per deal, in file order) whose pages are ``pages``.

    ``name``: the file reviewed, for the title; ``finals``: each deal's scores as the session counts them
    (the doubles settled), per seat; default the hands' own scores.
    """
    finals = finals or [[int(v) for v in r.deal.replay().scores] for r in reviews]
    doubled = any(r.deal.doubles for r in reviews)
    seats = sorted({s for r in reviews for s in r.seats})
    rows = []
    for k, (review, page, final) in enumerate(zip(reviews, pages, finals)):
        deal = review.deal
        rows.append(IndexRow(
            page=page, label=f"Deal {k + 1}", scores=[int(v) for v in final],
            cells=[heading(deal) + (" (unfinished)" if deal.unfinished else ""), SEAT_NAMES[deal.declarer]],
            seats=[(_acc(review.accuracy(s)), labels_text((d.label for d in review.decisions if d.seat == s), LABELS))
                   for s in seats]))
    foot = [(_acc(accuracy_of(d for r in reviews for d in r.decisions if d.seat == s)),
             f"{sum(1 for r in reviews for d in r.decisions if d.seat == s)} decisions") for s in seats]
    note = ("Each deal's page steps through it; a seat's accuracy over the session is the mean over all its "
            f"decisions. Totals: the hands' scores{' with the doubles settled' if doubled else ''}.")
    return index_html(f"Barbu review: {name}, {len(reviews)} deals", note, "deal", ["contract", "declarer"],
                      [n[0] for n in SEAT_NAMES], "the hand, doubles settled" if doubled else "the hand",
                      [(SEAT_LETTERS[s], SEAT_NAMES[s]) for s in seats], "accuracy", rows, foot)


def write_session_index(reviews: list, pages: list, path, name: str, finals: list | None = None) -> Path:
    """Write :func:`session_index_html` to ``path`` (UTF-8, atomically); return the path."""
    from ...core.review_page.index import write_session_index as write
    return write(session_index_html(reviews, pages, name, finals), path)
