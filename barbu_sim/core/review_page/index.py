"""The index page of a reviewed session, for both games: one page that links the review page of every deal
or round of a file.

``review --html PAGE`` on a file of several deals (a block, a game, a ``table`` session) or Clabber rounds
writes a page each (``PAGE-1.html``, ``PAGE-2.html``, ...: each linking the previous, the next and this
index, :func:`session_links`) and this index at ``PAGE``: a row each, with the game's own words on it (the
contract and the declarer; the trump and the makers), the hand's scores and the running totals, and each
reviewed seat's figure in it (Barbu: its accuracy; Clabber: the points it lost) with its labels; the last
row, each seat's figure over the session.  A wing gives the rows (:class:`IndexRow`) and the words; this
module draws them in the pages' own :func:`~barbu_sim.core.review_page.frame`.  No script: nothing is loaded
from elsewhere, every text is escaped.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from . import STYLE, frame

PLURAL = {"inaccuracy": "inaccuracies"}


def href(path) -> str:
    """A link from one page to another beside it: its file name, escaped for a URL."""
    return quote(Path(path).name)


def session_links(pages: list, index, k: int) -> dict:
    """The ``session`` data of page ``k`` (0-based) among ``pages``: the links to the index (None: no index) and
    to the previous and next page, its number and the count."""
    return {"index": href(index) if index else None, "number": k + 1, "count": len(pages),
            "prev": href(pages[k - 1]) if k > 0 else None, "next": href(pages[k + 1]) if k + 1 < len(pages) else None}


def labels_text(labels, names) -> str:
    """The labels of some decisions in words, ``1 mistake, 2 inaccuracies``, in the order of ``names``."""
    labels = list(labels)
    counts = [(labels.count(name), name) for name in names]
    return ", ".join(f"{n} {PLURAL.get(name, name + 's') if n > 1 else name}" for n, name in counts if n)


@dataclass
class IndexRow:
    """One deal or round of the index: ``page`` (its review page), ``label`` (``Deal 1``), ``cells`` (the game's
    own words, plain text, one a column), ``scores`` (one a side: the seats, or the teams) and ``seats`` (one a
    reviewed seat: its figure and its labels in words)."""

    page: str
    label: str
    cells: list
    scores: list
    seats: list


def session_index_html(title: str, note: str, noun: str, columns: list, sides: list, scores_head: str, seats: list,
                       seats_head: str, rows: list, foot: list, signed: bool = True) -> str:
    """The index page (a string).

    ``title``, ``note``: the heading and the words under it; ``noun``: what a row is (``deal``);
    ``columns``: the heads of the rows' ``cells``; ``sides``: the heads of the scores (``N``, ``E``...;
    ``N+S``, ``E+W``) under ``scores_head`` (``the hand``), then their running totals; ``seats``: the
    reviewed seats, ``(letter, name)``, under ``seats_head`` (``accuracy``); ``rows``: :class:`IndexRow` in
    file order; ``foot``: each reviewed seat's figure over the session and a word under it; ``signed``:
    scores with their sign (Barbu's), else plain (Clabber's, never below 0).
    """
    esc = html.escape

    def score(v) -> str:
        return f"{int(v):+d}" if signed else str(int(v))

    def seat_cell(seat: str, figure: str, words: str) -> str:
        return (f'<td class="num" data-seat="{esc(seat)}">{esc(figure)}'
                + (f'<div class="labels">{esc(words)}</div>' if words else "") + "</td>")

    body, total = [], [0] * len(sides)
    for k, row in enumerate(rows):
        total = [t + int(v) for t, v in zip(total, row.scores)]
        cells = [f'<td><a href="{esc(href(row.page))}">{esc(row.label)}</a></td>']
        cells += [f"<td>{esc(str(c))}</td>" for c in row.cells]
        cells += [f'<td class="num">{score(v)}</td>' for v in row.scores]
        cells += [f'<td class="num total">{score(t)}</td>' for t in total]
        cells += [seat_cell(s, figure, words) for (s, _), (figure, words) in zip(seats, row.seats)]
        body.append(f'<tr data-deal="{k + 1}">' + "".join(cells) + "</tr>")
    n = len(sides)
    foot_row = (f'<tr class="foot"><td colspan="{1 + len(columns)}">The session</td><td colspan="{n}"></td>'
                + "".join(f'<td class="num total">{score(t)}</td>' for t in total)
                + "".join(seat_cell(s, figure, words) for (s, _), (figure, words) in zip(seats, foot)) + "</tr>")
    side_heads = "".join(f"<th>{esc(s)}</th>" for s in sides)
    head = (f"<tr><th rowspan=2>{esc(noun)}</th>"
            + "".join(f"<th rowspan=2>{esc(c)}</th>" for c in columns)
            + f"<th colspan={n}>{esc(scores_head)}</th><th colspan={n}>running totals</th>"
            + f"<th colspan={len(seats)}>{esc(seats_head)}</th></tr>"
            + f"<tr>{side_heads}{side_heads}" + "".join(f"<th>{esc(name)}</th>" for _, name in seats) + "</tr>")
    table = "\n".join([head, *body, foot_row])
    return frame(title, STYLE + INDEX_STYLE, INDEX.format(title=esc(title), note=esc(note), table=table))


def write_session_index(html_text: str, path) -> Path:
    """Write an index page (:func:`session_index_html`) to ``path`` (UTF-8, atomically); return the path."""
    from ..files import write_text
    return write_text(Path(path), html_text, what="the session's index page")


INDEX_STYLE = """
table.index { border-collapse: collapse; background: #fff; font-variant-numeric: tabular-nums; margin-top: 10px; }
table.index td, table.index th { padding: 3px 9px; border-bottom: 1px solid #eef0f2; text-align: left; }
table.index th { color: var(--muted); font-weight: normal; font-size: 13px; text-align: center; }
table.index td.num { text-align: right; } table.index td.total { font-weight: 600; }
table.index .labels { font-size: 12px; color: var(--muted); font-weight: normal; }
table.index tr.foot td { border-top: 2px solid #c5cad0; font-weight: 600; }
"""

# The body of the index, in the frame: {title}, {note} and {table} (the rows) mark where it goes.
INDEX = """<header><h1>{title}</h1><p class="sub">{note}</p></header>
<table class="index" id="deals">
{table}
</table>
<footer>Written by barbu-sim; this page loads nothing from elsewhere.</footer>"""


__all__ = ["INDEX_STYLE", "IndexRow", "href", "labels_text", "session_index_html", "session_links",
           "write_session_index"]
