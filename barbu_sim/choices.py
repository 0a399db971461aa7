"""How a declarer names the trump suit or the domino starting rank when none is given."""

from __future__ import annotations

from .cards import SPADES, parse_rank, parse_suit

DEFAULT_DOMINO_RANK = 5  # dominoes from seven, the classic Fan Tan start


def longest_suit(hand) -> int:
    """The suit with the most cards in ``hand`` (ties: the higher suit, spades first)."""
    h = int(hand)
    lengths = [bin((h >> (13 * s)) & 0x1FFF).count("1") for s in range(4)]
    return max(range(SPADES, -1, -1), key=lambda s: lengths[s])


def resolve_trump(text: str | None, declarer_hand) -> int:
    """A trump suit from ``S``/``H``/``D``/``C`` (or a symbol); ``None``: the declarer's longest suit."""
    return longest_suit(declarer_hand) if text is None else parse_suit(text)


def resolve_domino_rank(text: str | None) -> int:
    """A starting rank from ``2``..``10``, ``J``, ``Q``, ``K``, ``A``; ``None``: seven."""
    return DEFAULT_DOMINO_RANK if text is None else parse_rank(text)
