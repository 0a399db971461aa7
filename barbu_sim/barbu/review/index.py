"""The index page of a reviewed session: one page that links the review page of every deal of a file.

A block, a game or a ``table`` session reviewed with ``review --html PAGE`` gives a page per deal
(``PAGE-1.html``, ``PAGE-2.html``, ...: :mod:`.page`, each linking the previous and next deal and this
index) and this index at ``PAGE``: every deal with its contract, declarer, the hand's scores and the
running totals, and each reviewed seat's accuracy and labels in that deal; the last row, each seat's
accuracy over the session.  Like the deal pages it is one self-contained file with no script: nothing is
loaded from elsewhere, every text is escaped.
"""

from __future__ import annotations

import html
from pathlib import Path
from urllib.parse import quote

from ...core.seats import SEAT_LETTERS, SEAT_NAMES
from .page import heading
from .page_style import STYLE
from .review import LABELS, accuracy_of

PLURAL = {"inaccuracy": "inaccuracies"}


def href(path) -> str:
    """A link from the index to a page beside it: its file name, escaped for a URL."""
    return quote(Path(path).name)


def session_links(pages: list, index, k: int) -> dict:
    """The ``session`` data of deal ``k``'s page (0-based) among ``pages``: the links to the index and to the
    previous and next deal (:func:`page.review_page_data`)."""
    return {"index": href(index), "number": k + 1, "count": len(pages),
            "prev": href(pages[k - 1]) if k > 0 else None, "next": href(pages[k + 1]) if k + 1 < len(pages) else None}


def _labels_text(decisions) -> str:
    counts = [(sum(1 for d in decisions if d.label == name), name) for name in LABELS]
    return ", ".join(f"{n} {PLURAL.get(name, name + 's') if n > 1 else name}" for n, name in counts if n)


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
    esc = html.escape
    rows, total = [], [0, 0, 0, 0]
    for k, (review, page, final) in enumerate(zip(reviews, pages, finals)):
        deal = review.deal
        total = [t + int(f) for t, f in zip(total, final)]
        cells = [f'<td><a href="{esc(href(page))}">Deal {k + 1}</a></td>',
                 f"<td>{esc(heading(deal))}{' (unfinished)' if deal.unfinished else ''}</td>",
                 f"<td>{SEAT_NAMES[deal.declarer]}</td>"]
        cells += [f'<td class="num">{int(v):+d}</td>' for v in final]
        cells += [f'<td class="num total">{t:+d}</td>' for t in total]
        for s in seats:
            mine = [d for d in review.decisions if d.seat == s]
            said = _labels_text(mine)
            cells.append(f'<td class="num" data-seat="{SEAT_LETTERS[s]}">{_acc(review.accuracy(s))}'
                         + (f'<div class="labels">{esc(said)}</div>' if said else "") + "</td>")
        rows.append(f'<tr data-deal="{k + 1}">' + "".join(cells) + "</tr>")
    over = [accuracy_of(d for r in reviews for d in r.decisions if d.seat == s) for s in seats]
    decisions = [sum(1 for r in reviews for d in r.decisions if d.seat == s) for s in seats]
    foot = ('<tr class="foot"><td colspan="3">The session</td>' + '<td colspan="4"></td>'
            + "".join(f'<td class="num total">{t:+d}</td>' for t in total)
            + "".join(f'<td class="num" data-seat="{SEAT_LETTERS[s]}">{_acc(a)}<div class="labels">{n} decisions'
                      "</div></td>" for s, a, n in zip(seats, over, decisions)) + "</tr>")
    seat_heads = "".join(f"<th>{SEAT_NAMES[s][0]}</th>" for s in range(4))
    head = ("<tr><th rowspan=2>deal</th><th rowspan=2>contract</th><th rowspan=2>declarer</th>"
            f"<th colspan=4>{'the hand, doubles settled' if doubled else 'the hand'}</th>"
            f"<th colspan=4>running totals</th><th colspan={len(seats)}>accuracy</th></tr>"
            f"<tr>{seat_heads}{seat_heads}" + "".join(f"<th>{SEAT_NAMES[s]}</th>" for s in seats) + "</tr>")
    title = f"Barbu review: {name}, {len(reviews)} deals"
    note = ("Each deal's page steps through it; a seat's accuracy over the session is the mean over all its "
            f"decisions. Totals: the hands' scores{' with the doubles settled' if doubled else ''}.")
    return INDEX.format(title=esc(title), style=STYLE + INDEX_STYLE, head=head, rows="\n".join(rows), foot=foot,
                        note=esc(note))


def write_session_index(reviews: list, pages: list, path, name: str, finals: list | None = None) -> Path:
    """Write :func:`session_index_html` to ``path`` (UTF-8, atomically); return the path."""
    from ...core.files import write_text
    return write_text(Path(path), session_index_html(reviews, pages, name, finals), what="the session's index page")


INDEX_STYLE = """
table.index { border-collapse: collapse; background: #fff; font-variant-numeric: tabular-nums; margin-top: 10px; }
table.index td, table.index th { padding: 3px 9px; border-bottom: 1px solid #eef0f2; text-align: left; }
table.index th { color: var(--muted); font-weight: normal; font-size: 13px; text-align: center; }
table.index td.num { text-align: right; } table.index td.total { font-weight: 600; }
table.index .labels { font-size: 12px; color: var(--muted); font-weight: normal; }
table.index tr.foot td { border-top: 2px solid #c5cad0; font-weight: 600; }
"""

INDEX = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="barbu-sim">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<header><h1>{title}</h1><p class="sub">{note}</p></header>
<table class="index" id="deals">
{head}
{rows}
{foot}
</table>
<footer>Written by barbu-sim; this page loads nothing from elsewhere.</footer>
</body>
</html>
"""
