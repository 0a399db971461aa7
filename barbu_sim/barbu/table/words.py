"""What a person may type at the table's prompts besides a card: the words people use, in any spelling.

A contract by its number in the list shown or by its name, with or without spaces and hyphens
(``no tricks``, ``no-tricks``, ``notricks``), the trump suit or the starting rank after it if
one likes (``trumps spades``, ``domino from 7``); a suit as a word, a letter or a symbol
(``spades``, ``s``, ``♠``); a rank as a digit, a letter or a word (``10``, ``T``, ``ten``);
doubles as seats (``N E``, ``north, east``, ``NE``), ``all`` or ``no``.  Each function raises
``ValueError`` with one line that says what is accepted.

>>> parse_suit_word("Spades"), parse_suit_word("♥"), parse_rank_word("ten"), parse_rank_word("J")
(3, 2, 8, 9)
>>> parse_contract_words("no tricks", [0, 1, 5]), parse_contract_words("3 hearts", [0, 1, 5])
((0, ''), (5, 'hearts'))
>>> sorted(parse_doubles("all", {0, 1, 3})), sorted(parse_doubles("north, W", {0, 1, 3}))
([0, 1, 3], [0, 3])
"""

from __future__ import annotations

from ...core.cards import parse_rank, parse_suit
from ...core.seats import SEAT_LETTERS, parse_seat
from ..rules.config import BARBU, CONTRACTS, DOMINO, NO_LAST_TWO, TRUMPS

SUITS = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}
RANKS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
# other names players give a contract (the keys without spaces, hyphens or underscores)
CONTRACT_ALIASES = {"trump": TRUMPS, "fantan": DOMINO, "dominoes": DOMINO, "dominos": DOMINO,
                    "nolast2": NO_LAST_TWO, "nokingofhearts": BARBU, "kingofhearts": BARBU}
NO_DOUBLES = ("no", "none", "nobody", "-", "")
ALL_DOUBLES = ("all", "everyone", "everybody")


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch not in " -_")


def parse_suit_word(text: str) -> int:
    """A suit: ``spades`` (or ``spade``), ``S``, ``♠``... to 0..3 (clubs, diamonds, hearts, spades)."""
    key = text.strip().lower()
    for word, suit in SUITS.items():
        if key in (word, word[:-1]):
            return suit
    try:
        return parse_suit(key)
    except ValueError:
        raise ValueError(f"unknown suit {text.strip()!r}: type spades, hearts, diamonds or clubs "
                         "(or S, H, D, C, ♠ ♥ ♦ ♣)") from None


def parse_rank_word(text: str) -> int:
    """A rank: ``7``, ``10``, ``T``, ``J``, or a word (``seven``, ``sevens``, ``jack``) to 0 (the 2) .. 12 (the ace)."""
    key = text.strip().lower()
    for rank, word in enumerate(RANKS):
        if key in (word, word + "s", word + "es"):
            return rank
    try:
        return parse_rank(key)
    except ValueError:
        raise ValueError(f"unknown rank {text.strip()!r}: type 2 to 10, J, Q, K or A (or a word: seven, jack...)") \
            from None


def parse_contract_words(text: str, remaining: list[int]) -> tuple[int, str]:
    """The contract typed, by its number in ``remaining`` (from 1) or its name, and what follows it
    (the trump suit or the starting rank, ``''`` if none; a leading ``from`` or ``in`` dropped)."""
    words = text.split()
    names = {_key(name): c for c, name in enumerate(CONTRACTS)} | CONTRACT_ALIASES
    for n in range(1 if words and words[0].isdigit() else len(words), 0, -1):  # the longest run naming a contract
        head, rest = _key("".join(words[:n])), words[n:]
        if head.isdigit():
            if not 1 <= int(head) <= len(remaining):
                raise ValueError(f"the contracts are numbered 1 to {len(remaining)}, not {head}")
            contract = remaining[int(head) - 1]
        elif head in names:
            contract = names[head]
        else:
            continue
        if rest and rest[0].lower() in ("from", "in", "of"):
            rest = rest[1:]
        return contract, " ".join(rest)
    raise ValueError(f"unknown contract {text.strip()!r}: type its number in the list or its name "
                     f"({', '.join(CONTRACTS[c] for c in remaining)})")


def parse_doubles(text: str, allowed: set[int]) -> set[int]:
    """The seats a player doubles: ``N E``, ``north, east``, ``NE``, ``all`` (every seat in ``allowed``)
    or ``no``; whether each may be doubled is the referee's to check."""
    key = text.strip().lower()
    if key in NO_DOUBLES:
        return set()
    if key in ALL_DOUBLES:
        return set(allowed)
    seats = set()
    for word in key.replace(",", " ").replace(" and ", " ").split():
        try:
            seats.add(parse_seat(word))
        except ValueError:
            if not all(ch.upper() in SEAT_LETTERS for ch in word):
                listed = " ".join(SEAT_LETTERS[s] for s in sorted(allowed))
                raise ValueError(f"unknown seat {word!r}: type seats ({listed}), all or no") from None
            seats.update(SEAT_LETTERS.index(ch.upper()) for ch in word)
    return seats
