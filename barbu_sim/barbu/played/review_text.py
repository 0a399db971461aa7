"""What ``barbu-sim review`` prints: every decision with each legal card's value, then a summary per seat.

Lines fit 100 columns.
"""

from __future__ import annotations

from ...core.cards import format_card
from ...core.seats import SEAT_NAMES
from .review import LABELS, NOISE, Review

WIDTH = 100


def _cells(estimates, symbols: bool) -> list[str]:
    return [f"{format_card(c, symbols=symbols):>3} {m:+6.2f}±{s:.2f}" for c, m, s in estimates]


def _wrap(cells: list[str], indent: int) -> list[str]:
    lines, line = [], ""
    for cell in cells:
        if line and indent + len(line) + 2 + len(cell) > WIDTH:
            lines.append(" " * indent + line)
            line = ""
        line = f"{line}  {cell}" if line else cell
    if line:
        lines.append(" " * indent + line)
    return lines


def _where(d) -> str:
    return f"trick {d.trick:>2}" if d.trick is not None else f"play {d.play_no + 1:>3}"


def format_decision(d, symbols: bool = False) -> list[str]:
    """One decision: who, where, the card played and the best card, the loss if it counts, every card's value."""
    card = format_card(d.card, symbols=symbols)
    head = f"{SEAT_NAMES[d.seat]:<5}  {_where(d)}  plays {card:>3}"
    if d.counts:
        head += f"   best {format_card(d.best, symbols=symbols):>3}, loses {d.loss:.2f}±{d.loss_se:.2f}"
        if d.label:
            head += f"  {d.label.upper()}"
    elif d.loss > 0:
        head += f"   ({format_card(d.best, symbols=symbols)} looks {d.loss:.2f} better: within the noise)"
    return [head] + _wrap(_cells(d.estimates, symbols), 7)


def format_summary(review: Review, symbols: bool = False) -> list[str]:
    """Per seat: decisions, forced plays, points lost, the count of each label, and the costliest decisions."""
    names = [name for name, _ in reversed(LABELS)]
    plural = {"inaccuracy": "inaccuracies"}
    lines = [f"{'seat':<6}{'decisions':>10}{'forced':>8}{'points lost':>13}"
             + "".join(f"{plural.get(n, n + 's'):>14}" for n in names)]
    for s in review.seats:
        mine = [d for d in review.decisions if d.seat == s]
        counts = [sum(1 for d in mine if d.label == n) for n in names]
        lines.append(f"{SEAT_NAMES[s]:<6}{len(mine):>10}{review.forced[s]:>8}{review.lost(s):>13.2f}"
                     + "".join(f"{c:>14}" for c in counts))
    worst = [(s, d) for s in review.seats for d in review.worst(s)]
    if worst:
        lines += ["", "Costliest decisions:"]
        for s, d in sorted(worst, key=lambda x: -x[1].loss):
            lines.append(f"  {SEAT_NAMES[s]:<5} {_where(d)}: {format_card(d.card, symbols=symbols)} instead of "
                         f"{format_card(d.best, symbols=symbols)}, {d.loss:.2f}±{d.loss_se:.2f} points"
                         + (f" ({d.label})" if d.label else ""))
    else:
        lines += ["", "No decision lost more than the noise."]
    return lines


def intro(samples: int, seed: int) -> list[str]:
    """What the numbers of a review are (printed once above one or more reviews)."""
    return ["mc's estimate of each legal card: own score from that point to the end of the hand, ± standard",
            f"error, over {samples} layouts of the unseen cards (seed {seed}); a loss counts above "
            f"{NOISE:g} standard errors.",
            "Labels by loss: " + ", ".join(f"{name} {low:g}+" for name, low in reversed(LABELS)) + " points."]


def format_review(review: Review, symbols: bool = False, brief: bool = False) -> str:
    """The whole review as text; ``brief``: only the decisions whose loss counts, then the summary,
    without the lines of :func:`intro`."""
    deal = review.deal
    pos = deal.replay()
    head = f"Review: {pos.describe_contract()}, declarer {SEAT_NAMES[deal.declarer]}"
    if deal.hand_no is not None:
        head += f", hand {deal.hand_no + 1}"
    if deal.title:
        head += f" ({deal.title})"
    if deal.rules.lower_is_better:
        head += "; the lowest total wins: the best card is the lowest"
    lines = [head[:WIDTH], *([] if brief else intro(review.samples, review.seed)),
             "Scores: " + "  ".join(f"{SEAT_NAMES[s]} {int(v):+d}" for s, v in enumerate(pos.scores))
             + ("   (unfinished: the play stopped before the end)" if deal.unfinished else ""), ""]
    if not review.decisions:
        lines.append("No decision to review: every play reviewed had one legal card, or only equivalent ones.")
    for d in review.decisions:
        if d.counts or not brief:
            lines += format_decision(d, symbols)
    if lines[-1]:
        lines.append("")
    lines += format_summary(review, symbols)
    return "\n".join(lines)
