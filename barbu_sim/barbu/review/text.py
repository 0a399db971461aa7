"""What ``barbu-sim review`` prints: every decision with each legal card's value, the position at each flagged one,
then a summary per seat with its accuracy.

Lines fit 100 columns.
"""

from __future__ import annotations

from ...core.cards import RANK_NAMES, SUIT_LETTERS, SUIT_SYMBOLS, format_card, suit_ranks
from ...core.seats import SEAT_NAMES
from .estimate import LABEL_SHARES, NOISE
from .review import LABELS, Review, accuracy_of

WIDTH = 100
PLURAL = {"inaccuracy": "inaccuracies"}


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


def where(d) -> str:
    """``trick  7``, or in Domino the seat's own card number: ``card  5`` (its 5th card)."""
    return f"trick {d.trick:>2}" if d.trick is not None else f"card {d.turn:>2}"


def points(x: float) -> str:
    return f"{x:g}" if x == round(x, 2) else f"{x:.2f}"


def suit_text(mask: int, symbols: bool, compact: bool = False) -> str:
    """Cards by suit, spades first, high cards first: ``S A Q 10  H -  D K 2  C 9`` (``♠`` with symbols;
    ``compact``: ``S AQ10  H -  D K2  C 9``), the ten written 10 as the table writes it."""
    parts = []
    for suit in (3, 2, 1, 0):
        mark = SUIT_SYMBOLS[suit] if symbols else SUIT_LETTERS[suit]
        parts.append(f"{mark} {suit_ranks(mask, suit, '' if compact else ' ')}")
    return "  ".join(parts)


def position_lines(d, symbols: bool = False, indent: int = 7) -> list[str]:
    """What the seat saw at decision ``d``: its hand, the trick so far (the Domino columns), the cards out, what the
    other seats have shown, the scores so far, and what the values rest on."""
    v, pad = d.view, " " * indent
    suits = SUIT_SYMBOLS if symbols else SUIT_LETTERS
    lines = [f"{pad}hand   {suit_text(v['hand'], symbols)}"]
    if "trick" in v:
        trick = ", ".join(f"{SEAT_NAMES[s]} {format_card(c, symbols)}" for s, c in v["trick"])
        lines.append(f"{pad}trick  {trick}" if trick else f"{pad}trick  {SEAT_NAMES[d.seat]} leads")
        lines.append(f"{pad}out    {suit_text(v['out'], symbols, compact=True)}" if v["out"]
                     else f"{pad}out    nothing yet")
        shown = [f"{SEAT_NAMES[s]} {''.join(suits[x] for x in sorted(v['voids'][s], reverse=True))}"
                 for s in range(4) if s != d.seat and v["voids"][s]]
        lines.append(f"{pad}voids  " + (", ".join(shown) if shown else "none shown"))
    else:
        cols = []
        for suit in (3, 2, 1, 0):
            low, high = v["columns"][suit]
            span = "-" if low == 13 else RANK_NAMES[low] if low == high else f"{RANK_NAMES[low]}..{RANK_NAMES[high]}"
            cols.append(f"{suits[suit]} {span}")
        lines.append(f"{pad}columns  " + "  ".join(cols))
        left = "  ".join(f"{SEAT_NAMES[s][0]} {n}" for s, n in enumerate(v["cards_left"]))
        passed = ", ".join(f"{SEAT_NAMES[s]} {n}" for s, n in enumerate(v["passes"]) if n)
        lines.append(f"{pad}cards left  {left}" + (f"; passes: {passed}" if passed else ""))
    scores = "  ".join(f"{SEAT_NAMES[s][0]} {x:+d}" for s, x in enumerate(v["scores"]))
    how = "searched exactly in each" if d.exact else "rollouts, the last tricks searched exactly"
    lines.append(f"{pad}scores {scores}   ({d.layouts} layouts, {how})"[:WIDTH])
    return lines


def verdict(d, symbols: bool = False) -> str:
    """The loss and its label, or why there is none: ``best 8S, loses 3.10±0.40  MISTAKE``."""
    best = format_card(d.best, symbols=symbols)
    if d.counts:
        text = f"best {best:>3}, loses {d.loss:.2f}±{d.loss_se:.2f}"
        if d.label:
            text += f"  {d.label.upper()}"
            above = LABELS[LABELS.index(d.label) - 1] if d.label != LABELS[0] else None
            if above and not d.settled:
                text += f" (or a {above}: within the noise)"
        elif not d.settled:
            text += f" ({LABELS[-1]} or not: within the noise)"
        return text
    if d.loss > 0:
        return f"({best} looks {d.loss:.2f} better: within the noise)"
    return ""


def format_decision(d, symbols: bool = False, position: bool | None = None) -> list[str]:
    """One decision: who, where, the card played and the best card, the loss if it counts, every card's value;
    the position first when ``position`` (default: when the decision is labelled)."""
    card = format_card(d.card, symbols=symbols)
    head = f"{SEAT_NAMES[d.seat]:<5}  {where(d)}  plays {card:>3}"
    said = verdict(d, symbols)
    if said:
        head += "   " + said
    lines = [head[:WIDTH]]
    if position if position is not None else bool(d.label):
        lines += position_lines(d, symbols)
    return lines + _wrap(_cells(d.estimates, symbols), 7)


def why_lines(review: Review, d, symbols: bool = False) -> list[str]:
    """One short line on why decision ``d`` loses: from the punishing line (:mod:`.line`) on a representative
    layout, the reason in words, else the first plays after the card played and after the best; [] without."""
    from .line import text_line
    said = text_line(review.deal, d, review.settings, symbols)
    return [(" " * 7 + said)[:WIDTH]] if said else []


def _acc(x) -> str:
    return "-" if x is None else f"{x:.1f}%"


def format_summary(review: Review, symbols: bool = False) -> list[str]:
    """Per seat: decisions, forced plays, points lost, accuracy, the count of each label, and the costliest
    decisions."""
    names = list(reversed(LABELS))
    lines = [f"{'seat':<6}{'decisions':>10}{'forced':>8}{'points lost':>13}{'accuracy':>10}"
             + "".join(f"{PLURAL.get(n, n + 's'):>14}" for n in names)]
    for s in review.seats:
        mine = [d for d in review.decisions if d.seat == s]
        counts = [sum(1 for d in mine if d.label == n) for n in names]
        lines.append(f"{SEAT_NAMES[s]:<6}{len(mine):>10}{review.forced[s]:>8}{review.lost(s):>13.2f}"
                     f"{_acc(review.accuracy(s)):>10}" + "".join(f"{c:>14}" for c in counts))
    worst = [(s, d) for s in review.seats for d in review.worst(s)]
    if worst:
        lines += ["", "Costliest decisions:"]
        for s, d in sorted(worst, key=lambda x: -x[1].loss):
            lines.append(f"  {SEAT_NAMES[s]:<5} {where(d)}: {format_card(d.card, symbols=symbols)} instead of "
                         f"{format_card(d.best, symbols=symbols)}, {d.loss:.2f}±{d.loss_se:.2f} points"
                         + (f" ({d.label})" if d.label else ""))
    else:
        lines += ["", "No decision lost more than the noise."]
    return lines


def intro(samples: int, seed: int, max_samples: int | None = None) -> list[str]:
    """What the numbers of a review are (printed once above one or more reviews)."""
    import textwrap

    from .estimate import Settings
    settings = Settings(samples=samples, max_samples=max_samples)
    shares = ", ".join(f"{name} {share:.0%}" for name, share in reversed(LABEL_SHARES))
    text = ("Each legal card's value: the seat's own score from that point to the end of the hand, ± standard "
            f"error, from its information only, over {settings.samples} to {settings.cap} layouts of the unseen "
            f"cards (seed {seed}; more where a label is in doubt), the last {settings.endgame} tricks "
            f"({4 * settings.endgame} cards in Domino) searched exactly. A loss counts above {NOISE:g} standard "
            f"errors; it is labelled when it clears a threshold by {NOISE:g} standard errors: {shares} of the "
            "points the contract deals out.")
    return textwrap.wrap(text, WIDTH)


def thresholds_line(review: Review) -> str:
    return ("Labels here: " + ", ".join(f"{name} {points(low)}+" for name, low in reversed(review.thresholds))
            + f" points (of {points(abs(review.deal.rules.contract_total(review.deal.contract)))}).")


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
    lines = [head[:WIDTH], *([] if brief else intro(review.samples, review.seed, review.settings.cap)),
             thresholds_line(review),
             "Scores: " + "  ".join(f"{SEAT_NAMES[s]} {int(v):+d}" for s, v in enumerate(pos.scores))
             + ("   (unfinished: the play stopped before the end)" if deal.unfinished else ""), ""]
    if not review.decisions:
        lines.append("No decision to review: every play reviewed had one legal card, or only equivalent ones.")
    for d in review.decisions:
        if d.counts or not brief:
            lines += format_decision(d, symbols)
        if d.label:  # a flagged decision: why, in one line (review --html shows the lines whole)
            lines += why_lines(review, d, symbols)
    if lines[-1]:
        lines.append("")
    lines += format_summary(review, symbols)
    return "\n".join(lines)


def format_file_accuracy(reviews: list) -> str:
    """Each seat's accuracy over the deals of a file (several deals: a table session, a block)."""
    seats = sorted({s for r in reviews for s in r.seats})
    cells = []
    for s in seats:
        mine = [d for r in reviews for d in r.decisions if d.seat == s]
        cells.append(f"{SEAT_NAMES[s]} {_acc(accuracy_of(mine))} ({len(mine)} decisions)")
    return f"Accuracy over the {len(reviews)} deals: " + ", ".join(cells)


def hint_lines(est, symbols: bool = False) -> list[str]:
    """The table's hint: each legal card's value from here ± standard error, best first (an :class:`Estimate`)."""
    lines = ["Hint (mc, from your information only): each card's score from here, best first",
             f" ± standard error, over {est.layouts} layouts{', searched exactly' if est.exact else ''}"]
    cells = []
    for c, m, s in est.estimates:
        cell = f"{format_card(c, symbols=symbols):>3} {m:+6.2f}±{s:.2f}"
        label = est.label(c)
        cells.append(cell + (f" {label}" if label else ""))
    return lines + _wrap(cells, 1)
