"""A played round as text: the deal, the bidding, the melds, the tricks and the score (no numba)."""

from __future__ import annotations

from ...core.cards import format_card
from ...core.seats import SEAT_NAMES
from ..rules.config import format_cards

SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


FOUR_NAMES = {901: "queens", 902: "kings", 903: "10s", 904: "aces", 905: "9s", 1000: "jacks"}
RANK_WORDS = {7: "9", 8: "10", 9: "jack", 10: "queen", 11: "king", 12: "ace"}


def describe_meld(key: int) -> str:
    """A meld's rank int (see :mod:`barbu_sim.clabber.rules.melds`) in words.

    >>> describe_meld(1000), describe_meld(525), describe_meld(318)
    ('four jacks', 'sequence of 5 to the ace in trumps', 'sequence of 3 to the jack')
    """
    if key in FOUR_NAMES:
        return f"four {FOUR_NAMES[key]}"
    length, rest = divmod(key, 100)
    return f"sequence of {length} to the {RANK_WORDS[rest // 2]}" + (" in trumps" if rest % 2 else "")


def bid_text(bid: int) -> str:
    return {-1: "pass", 4: "play"}.get(bid, f"names {SUIT_NAMES[bid]}" if 0 <= bid < 4 else "?")


def format_round(result, melds_by_seat=None, symbols: bool = False, title: str = "") -> str:
    """The text of a :class:`~barbu_sim.clabber.api.RoundResult` (``melds_by_seat``: (points, rank) per seat)."""
    row = result.row
    lines = [f"Clabber round{': ' + title if title else ''}",
             f"Dealer {SEAT_NAMES[result.dealer]}; turned up {format_card(result.turned, symbols)}", ""]
    for s in range(4):
        lines.append(f"  {SEAT_NAMES[s]:<6} {format_cards(result.hands[s], symbols)}")
    lines += ["", "Bidding: " + ", ".join(f"{SEAT_NAMES[s]} {bid_text(b)}" for s, b in result.bids)]
    if row["bid_round"] == 0:
        lines.append("All passed twice: the cards are thrown in and the deal passes left.")
        return "\n".join(lines)
    trump = row["trump"]
    maker = row["maker"]
    lines.append(f"Trumps: {SUIT_NAMES[trump]}, chosen by {SEAT_NAMES[maker]} in round {row['bid_round']}; "
                 f"makers {'N+S' if maker % 2 == 0 else 'E+W'}")
    if melds_by_seat is not None:
        shown = [f"{SEAT_NAMES[s]} {p} (best: {describe_meld(k)})" for s, (p, k) in enumerate(melds_by_seat) if p]
        lines.append("Melds declared: " + (", ".join(shown) if shown else "none"))
    lines.append("")
    def shown(card) -> str:  # a misplaying strategy may have returned a value that is not a card
        try:
            return format_card(int(card), symbols)
        except (ValueError, IndexError, KeyError):
            return f"{card} (not a card)"

    for t in range(-(-len(result.plays) // 4)):  # a misplay ends the round part-way through a trick
        trick = result.plays[4 * t:4 * t + 4]
        cards = "  ".join(f"{SEAT_NAMES[s][0]}:{shown(c):>3}" for s, c in trick)
        won = SEAT_NAMES[result.winners[t]] if t < len(result.winners) else "misplay"
        lines.append(f"  trick {t + 1}: {cards}   -> {won}")
    lines.append("")
    if row["misplay"] >= 0:
        lines.append(f"Misplay by {SEAT_NAMES[row['misplay']]}: "
                     "the round ends, the opponents score 162 and their melds.")
    for team, key in (("N+S", "ns"), ("E+W", "ew")):
        lines.append(f"{team}: cards {row['card_' + key]:>3}  melds {row['meld_' + key]:>3}  "
                     f"bell {row['bell_' + key]:>2}  -> scores {row['score_' + key]}")
    makers_key = "ns" if maker % 2 == 0 else "ew"
    lines.append("Makers " + ("made it (strictly more than the defenders)." if row["score_" + makers_key] > 0
                              else "failed: they score nothing this round."))
    return "\n".join(lines)
