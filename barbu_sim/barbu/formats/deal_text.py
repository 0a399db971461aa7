"""A played deal as a readable text record (what ``barbu-sim play`` prints)."""

from __future__ import annotations

import numpy as np

from ...core.cards import RANK_NAMES, SUIT_LETTERS, SUIT_SYMBOLS, Suit, format_card, format_hand, format_pbn
from ...core.seats import SEAT_LETTERS, SEAT_NAMES
from ..api import DealResult
from ..state import PASS
from ..rules.play_rules import trick_value
from ..rules.config import CONTRACT_TITLES, DOMINO, TRUMPS, Rules


def _card(card: int, symbols: bool) -> str:
    return format_card(card, symbols=symbols)


def format_record(result: DealResult, rules: Rules | None = None, symbols: bool = False,
                  title: str = "") -> str:
    """The four hands, each trick (or each Domino turn), and the scores, as text."""
    rules = rules or Rules()
    lines = []
    head = f"{CONTRACT_TITLES[result.contract]} ({result.contract_name})"
    if result.contract == TRUMPS:
        head += f", trumps {SUIT_SYMBOLS[result.param] if symbols else SUIT_LETTERS[result.param]}"
    if result.contract == DOMINO:
        head += f", dominoes from {RANK_NAMES[result.param]}"
    head += f"; declarer {SEAT_NAMES[result.declarer]}"
    if title:
        lines.append(title)
    lines += [head, f"Deal: {format_pbn(result.hands)}", ""]
    for seat in range(4):
        lines.append(f"  {SEAT_NAMES[seat]:<6} {format_hand(result.hands[seat], symbols=True)}")
    lines.append("")
    if result.contract == DOMINO:
        lines += _domino_lines(result, rules, symbols)
    else:
        lines += _trick_lines(result, rules, symbols)
    lines.append("")
    lines.append("Scores:  " + "  ".join(f"{SEAT_NAMES[s]} {int(result.scores[s]):+d}" for s in range(4))
                 + f"   (total {int(result.scores.sum()):+d})")
    if result.contract != DOMINO:
        lines.append("Tricks:  " + "  ".join(f"{SEAT_NAMES[s]} {int(result.tricks[s])}" for s in range(4)))
    return "\n".join(lines)


def _trick_lines(result: DealResult, rules: Rules, symbols: bool) -> list[str]:
    lines = []
    n_tricks = len(result.trick_winners)
    for t in range(n_tricks):
        seats = result.seats[4 * t:4 * t + 4]
        cards = result.cards[4 * t:4 * t + 4]
        mask = 0
        for c in cards:
            mask |= 1 << int(c)
        pts = int(trick_value(result.contract, t, np.uint64(mask), rules.to_array()))
        winner = int(result.trick_winners[t])
        plays = "  ".join(f"{SEAT_LETTERS[int(s)]} {_card(int(c), symbols):>3}" for s, c in zip(seats, cards))
        lines.append(f"  Trick {t + 1:>2}: {plays}   won by {SEAT_NAMES[winner]:<5} {pts:+d}")
    if n_tricks < 13:
        lines.append(f"  (hand over after trick {n_tricks}: no penalty card left to win)")
    return lines


def _domino_lines(result: DealResult, rules: Rules, symbols: bool) -> list[str]:
    lines = []
    row = []
    finished = []
    left = [13, 13, 13, 13]
    for seat, card in zip(result.seats.tolist(), result.cards.tolist()):
        row.append(f"{SEAT_LETTERS[seat]} {'pass' if card == PASS else _card(card, symbols)}")
        if card != PASS:
            left[seat] -= 1
            if left[seat] == 0:
                finished.append(seat)
        if len(row) == 8:
            lines.append("  " + ", ".join(row))
            row = []
    if row:
        lines.append("  " + ", ".join(row))
    played = {c for c in result.cards.tolist() if c != PASS}
    lines.append("")
    lines.append("  Layout at the end:")
    # a column runs 2 .. A, or with domino-ace=low A .. K (the ace below the 2)
    place = (lambda r: (r + 1) % 13) if rules.domino_ace == "low" else (lambda r: r)
    for suit in reversed(Suit):
        ranks = [r for r in range(13) if suit * 13 + r in played]
        span = (f"{RANK_NAMES[min(ranks, key=place)]}..{RANK_NAMES[max(ranks, key=place)]}" if ranks
                else "not opened")
        lines.append(f"    {SUIT_SYMBOLS[suit] if symbols else SUIT_LETTERS[suit]}: {span}")
    passes = sum(1 for c in result.cards.tolist() if c == PASS)
    order = finished + [s for s in range(4) if s not in finished]
    places = ("first", "second", "third", "last")
    lines.append(f"  Passes: {passes}")
    lines.append("  Finishing order: " + ", ".join(
        f"{SEAT_NAMES[s]} {places[i]} ({rules.domino_payout[i]:+d})" for i, s in enumerate(order)))
    return lines
