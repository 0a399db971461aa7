"""``barbu-sim review --step``: walk a played deal decision by decision, and ask what any card was worth.

At each decision of a reviewed seat the position is shown (the hand, the trick so far or the
Domino columns, the cards out, what the other seats have shown), with the card played, the best
card, the loss and its label, and every legal card's value.  Then a line is read:

- Enter: the next decision (after the last one, the deal's summary, then the next deal);
- a card (``QS``, ``♠Q``, ``10h``): what that card was worth from there, against the card
  played and the best card, with the standard errors of the paired differences;
- ``q`` (or ``quit``, or the end of the input): stop.

It reads from any line source (``read(prompt)``), so it works with a pipe or a file as well as
a terminal; Ctrl-C is left to the caller (the command says so and stops with exit code 130).
"""

from __future__ import annotations

import sys

from ...core.cards import format_card, parse_card
from ...core.seats import SEAT_NAMES
from .estimate import Settings
from .line import step_lines
from ..position import IllegalCard
from .review import Review, forced_plays, label_thresholds, positions
from .text import format_decision, format_summary, thresholds_line

HELP = "Enter: next decision · a card (QS, ♠Q, 10h): its value from here · q: quit"
PROMPT = "[Enter: next, a card: its value, q: quit] >"


class Stop(Exception):
    """The person asked to stop (q, quit, or the end of the input)."""


def read_line(prompt: str, write) -> str:
    """One line from stdin: at a terminal with the prompt (Ctrl-C at once); piped, the prompt and the line are
    shown as a terminal would.  The end of the input is :class:`Stop`."""
    from ...core.interrupt import interruptible_input
    try:
        if sys.stdin.isatty():
            return interruptible_input(prompt + " ").strip()
        line = sys.stdin.readline()
    except EOFError:
        line = ""
    if not line:
        write(f"{prompt} (end of input)")
        raise Stop()
    write(f"{prompt} {line.strip()}")
    return line.strip()


def card_answer(pos, d, text: str, symbols: bool = False) -> str:
    """What the card ``text`` was worth at decision ``d`` (its position ``pos``), against the card played and the
    best; or why it could not be played."""
    try:
        card = parse_card(text)
    except ValueError as e:
        return f"Not understood: {e}. {HELP}"
    try:
        pos.check(card)
    except IllegalCard as e:
        return f"{format_card(card, symbols)} could not be played here: {e}"
    est = d.estimate
    name = lambda c: format_card(c, symbols)  # noqa: E731
    lines = [f"{name(card)}: {est.mean(card):+.2f}±{est.se(card):.2f} "
             f"over {est.card_layouts(card)} layouts"]
    if card == d.card:
        lines.append("  it is the card played")
    elif est.rep_of[card] == est.rep_of[d.card]:
        lines.append(f"  equivalent to the card played, {name(d.card)}: either leads to the same deal")
    else:
        diff, se = est.difference(card, d.card)
        lines.append(f"  against the card played, {name(d.card)} {est.mean(d.card):+.2f}: "
                     f"{'better' if diff > 0 else 'worse'} by {abs(diff):.2f}±{se:.2f}")
    loss, se = est.loss(card)
    label = est.label(card)
    if est.rep_of[card] == est.rep_of[est.best]:
        lines.append("  it is the best card" if card == est.best
                     else f"  equivalent to the best card, {name(est.best)}")
    else:
        lines.append(f"  against the best, {name(est.best)} {est.mean(est.best):+.2f}: loses {loss:.2f}±{se:.2f}"
                     + (f": {label.upper()}" if label else " (no label)"))
    return "\n".join(lines)


def step_review(deals: list, seats, settings: Settings, seed: int, read, write, symbols: bool = False) -> bool:
    """Walk ``deals`` decision by decision (see the module's text); True when the end was reached, False when the
    person stopped."""
    try:
        for n, deal in enumerate(deals):
            pos0 = deal.replay()
            head = f"Deal {n + 1} of {len(deals)}: " if len(deals) > 1 else ""
            write(f"{head}{pos0.describe_contract()}, declarer {SEAT_NAMES[deal.declarer]}")
            review = Review(deal, [], tuple(sorted(set(range(4) if seats is None else seats))), settings.samples,
                            seed, forced_plays(deal, seats), settings, label_thresholds(deal.rules, deal.contract))
            write(thresholds_line(review))
            write(HELP)
            for pos, d in positions(deal, seats, settings, seed):
                review.decisions.append(d)
                write("")
                for line in format_decision(d, symbols, position=True):
                    write(line)
                for line in step_lines(deal, d, settings, symbols):
                    write(line)
                while True:
                    text = read(PROMPT)
                    low = text.lower()
                    if low in ("q", "quit"):
                        raise Stop()
                    if not text:
                        break
                    if low in ("?", "help", "h"):
                        write(HELP)
                        continue
                    write(card_answer(pos, d, text, symbols))
            if not review.decisions:
                write("No decision to review: every play reviewed had one legal card, or only equivalent ones.")
            write("")
            for line in format_summary(review, symbols):
                write(line)
            write("")
    except Stop:
        write("Stopped.")
        return False
    write("End of the review.")
    return True
