"""Card encoding, masks, parsing and printing, PBN deal strings.

A card is an int ``suit * 13 + rank``: rank 0 is the 2 and 12 the ace; suits
clubs, diamonds, hearts, spades are 0..3.  A hand is a ``uint64`` with bit
``card`` set, so each suit is one 13-bit lane.

>>> parse_card("10H") == parse_card("TH") == parse_card("♥10")
True
>>> format_card(parse_card("qs"))
'QS'
>>> format_hand(parse_hand("AKQ.JT9.876.5432"))
'AKQ.JT9.876.5432'
"""

import re
from enum import IntEnum

import numpy as np

from .seats import N_SEATS, SEAT_LETTERS, SEAT_NAMES, parse_seat

N_CARDS = 52
HAND_SIZE = 13


class Suit(IntEnum):
    """The four suits; the values are the kernels' suit ints (a card's ``card // 13``)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3


CLUBS, DIAMONDS, HEARTS, SPADES = (int(s) for s in Suit)  # plain ints: numba folds them as constants
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_LETTERS = "23456789TJQKA"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

SUIT_LANE = np.uint64((1 << 13) - 1)
FULL_DECK = np.uint64((1 << 52) - 1)
JACK_RANK = 9
QUEEN_RANK = 10
KING_RANK = 11
ACE_RANK = 12


def card_of(suit: int, rank: int) -> int:
    """The card int of a suit (0..3) and a rank (0 = 2 .. 12 = A)."""
    return suit * 13 + rank


def suit_of(card: int) -> int:
    """The suit (0..3) of a card int."""
    return card // 13


def rank_of(card: int) -> int:
    """The rank (0 = 2 .. 12 = A) of a card int."""
    return card % 13


def suit_mask(suit: int) -> np.uint64:
    """The mask of the 13 cards of a suit."""
    return SUIT_LANE << np.uint64(13 * suit)



_SUIT_ALIASES = {
    "C": 0, "D": 1, "H": 2, "S": 3,
    "♣": 0, "♦": 1, "♥": 2, "♠": 3,
    "♧": 0, "♢": 1, "♡": 2, "♤": 3,
}
_RANK_ALIASES = {name: r for r, name in enumerate(RANK_NAMES)} | {"T": 8}


def parse_suit(text: str) -> int:
    """Parse a suit letter or symbol (``S``, ``h``, ``♦``...) to 0..3."""
    key = text.strip().upper()
    if key not in _SUIT_ALIASES:
        raise ValueError(f"unknown suit {text!r}: use one of C, D, H, S (or ♣ ♦ ♥ ♠)")
    return _SUIT_ALIASES[key]


def parse_rank(text: str) -> int:
    """Parse a rank (``2``..``10``, ``T``, ``J``, ``Q``, ``K``, ``A``) to 0..12."""
    key = text.strip().upper()
    if key not in _RANK_ALIASES:
        raise ValueError(f"unknown rank {text!r}: use one of 2-10, T, J, Q, K, A")
    return _RANK_ALIASES[key]


def parse_card(text: str) -> int:
    """Parse one card: rank then suit (``AS``, ``10H``, ``TH``) or suit then rank (``♥K``)."""
    t = text.strip().upper()
    if len(t) < 2:
        raise ValueError(f"not a card: {text!r} (write a rank and a suit, e.g. AS, 10H, ♥K)")
    if t[-1] in _SUIT_ALIASES:
        rank_text, suit_text = t[:-1], t[-1]
    elif t[0] in _SUIT_ALIASES:
        suit_text, rank_text = t[0], t[1:]
    else:
        raise ValueError(f"unknown suit in card {text!r}: use C, D, H, S (or ♣ ♦ ♥ ♠)")
    if rank_text not in _RANK_ALIASES:
        raise ValueError(f"unknown rank in card {text!r}: use 2-10, T, J, Q, K, A")
    return card_of(_SUIT_ALIASES[suit_text], _RANK_ALIASES[rank_text])


def format_card(card: int, symbols: bool = False) -> str:
    """Print a card as ``AS``/``10H`` (or ``♠A``/``♥10`` with ``symbols``)."""
    if not 0 <= card < N_CARDS:
        raise ValueError(f"not a card index: {card} (cards are 0..51)")
    rank, suit = RANK_NAMES[rank_of(card)], suit_of(card)
    return f"{SUIT_SYMBOLS[suit]}{rank}" if symbols else f"{rank}{SUIT_LETTERS[suit]}"


def cards_of(mask) -> list[int]:
    """The card ints of a mask, ascending."""
    m = int(mask)
    return [c for c in range(N_CARDS) if m >> c & 1]


def mask_of(cards) -> np.uint64:
    """The mask of an iterable of card ints; a repeated card is an error."""
    m = 0
    for c in cards:
        if m >> c & 1:
            raise ValueError(f"duplicate card {format_card(c)}")
        m |= 1 << c
    return np.uint64(m)


def _parse_pbn_hand(text: str) -> int:
    parts = text.split(".")
    if len(parts) != 4:
        raise ValueError(f"PBN hand {text!r} must have 4 suits separated by dots (spades first)")
    m = 0
    for suit, part in zip((SPADES, HEARTS, DIAMONDS, CLUBS), parts):
        part = part.upper().replace("10", "T")
        for ch in part:
            if ch not in RANK_LETTERS:
                raise ValueError(f"unknown rank {ch!r} in PBN hand {text!r}")
            c = card_of(suit, RANK_LETTERS.index(ch))
            if m >> c & 1:
                raise ValueError(f"duplicate card {format_card(c)} in hand {text!r}")
            m |= 1 << c
    return m


def parse_cards(text: str) -> np.uint64:
    """Parse a set of cards of any size: ``AS KH 10D``, ``AS,KH``, or PBN ``AKQ.JT9.876.5432``."""
    text = text.strip()
    if "." in text:
        return np.uint64(_parse_pbn_hand(text))
    tokens = [t for t in re.split(r"[\s,]+", text) if t]
    return mask_of(parse_card(t) for t in tokens)


def sized_hand(mask: np.uint64, text: str, size: int, what: str = "a hand") -> np.uint64:
    """``mask``, the cards read from ``text``, when it holds ``size`` cards; else a ValueError that says so
    (``what``: the hand's name in the message, ``a Clabber hand``)."""
    n = bin(int(mask)).count("1")
    if n != size:
        raise ValueError(f"{what} has {size} cards; {text!r} has {n}")
    return mask


def parse_hand(text: str) -> np.uint64:
    """Parse a 13-card hand (card list or PBN hand); another size is an error."""
    return sized_hand(parse_cards(text), text, HAND_SIZE)


def suit_ranks(mask, suit: int, sep: str = " ") -> str:
    """The ranks ``mask`` holds in ``suit``, high first, as the table writes them: ``A Q 10 2``
    (``sep=""``: ``AQ102``); ``-`` for a void.  PBN alone writes the ten ``T`` (:func:`format_hand`)."""
    m = int(mask)
    return sep.join(RANK_NAMES[r] for r in range(12, -1, -1) if m >> card_of(suit, r) & 1) or "-"


def format_hand(mask, symbols: bool = False) -> str:
    """Print a hand as a PBN hand ``AKQ.JT9.876.5432`` (spades first).

    With ``symbols``, as the table writes a hand: ``♠ A K Q  ♥ J 10 9  ♦ 8 7 6  ♣ 5 4 3 2``
    (void suits shown as ``-``).
    """
    if symbols:
        return "  ".join(f"{SUIT_SYMBOLS[suit]} {suit_ranks(mask, suit)}" for suit in (SPADES, HEARTS, DIAMONDS, CLUBS))
    m = int(mask)
    return ".".join("".join(RANK_LETTERS[r] for r in range(12, -1, -1) if m >> card_of(suit, r) & 1)
                    for suit in (SPADES, HEARTS, DIAMONDS, CLUBS))


def verify_deal(hands) -> None:
    """Raise ``ValueError`` unless ``hands`` are four disjoint 13-card hands (52 distinct cards)."""
    if len(hands) != N_SEATS:
        raise ValueError(f"a deal has 4 hands, not {len(hands)}")
    seen = 0
    for seat, h in enumerate(hands):
        h = int(h)
        n = bin(h).count("1")
        if n != HAND_SIZE:
            raise ValueError(f"{SEAT_NAMES[seat]}'s hand has {n} cards, not 13")
        if h >> N_CARDS:
            raise ValueError(f"{SEAT_NAMES[seat]}'s hand holds a bit that is not a card")
        dup = seen & h
        if dup:
            raise ValueError(f"card {format_card(cards_of(dup)[0])} is dealt twice")
        seen |= h


def parse_pbn(text: str) -> np.ndarray:
    """Parse a PBN deal ``N:AKQ.JT9.876.5432 ...`` into a (4,) uint64 array indexed by seat.

    The hands are listed clockwise from the named seat; the deal must hold 52 distinct cards.
    """
    text = text.strip().strip('"')
    if len(text) < 2 or text[1] != ":":
        raise ValueError(f"a PBN deal starts with a seat and a colon, e.g. 'N:AKQ...'; got {text[:12]!r}")
    first = parse_seat(text[0])
    parts = text[2:].split()
    if len(parts) != N_SEATS:
        raise ValueError(f"a PBN deal has 4 hands, not {len(parts)}")
    hands = np.zeros(N_SEATS, np.uint64)
    for i, part in enumerate(parts):
        hands[(first + i) % N_SEATS] = np.uint64(_parse_pbn_hand(part))
    verify_deal(hands)
    return hands


def format_pbn(hands, first: int = 0) -> str:
    """Print a deal as a PBN deal string, hands clockwise from seat ``first``."""
    order = [(first + i) % N_SEATS for i in range(N_SEATS)]
    return f"{SEAT_LETTERS[first]}:" + " ".join(format_hand(hands[s]) for s in order)
