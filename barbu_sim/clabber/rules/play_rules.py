"""Clabber's rules of play as small ``@njit`` functions: legal cards, trick order, points.

Inlined into the play loop (:mod:`barbu_sim.clabber.engine.round_kernels`) and shared with the
strategies.  Masks are ``uint64``; a suit's cards are bits 7..12 of its 13-bit lane.
"""

import numpy as np
from ...core.jit import njit

from ...core.bits import pick
from ...core.cards import SUIT_LANE
from .config import PLAIN_POINTS, PLAIN_POWER, TRUMP_POINTS, TRUMP_POWER

U0 = np.uint64(0)
U1 = np.uint64(1)


def _beaters(power) -> np.ndarray:
    """For each rank, the lane mask of the ranks that beat it in the order ``power``."""
    out = np.zeros(13, np.uint64)
    for r in range(13):
        out[r] = np.uint64(sum(1 << q for q in range(13) if power[q] > power[r] > 0))
    return out


TRUMP_BEATERS = _beaters(TRUMP_POWER)  # ranks above rank r among trumps
PLAIN_BEATERS = _beaters(PLAIN_POWER)  # ranks above rank r in a plain suit


def _card_tables():
    """Per card, the tables that spare the play loop a division and a branch: ``[trump, card]`` its
    power (as a card of the led suit or of trumps) and its points; ``[card]`` the cards of its suit
    that beat it in trump order (what overtrumps it when its suit is trumps)."""
    pw = np.zeros((4, 64), np.int64)
    pts = np.zeros((4, 64), np.int64)
    over = np.zeros(64, np.uint64)
    for c in range(52):
        s, r = divmod(c, 13)
        over[c] = TRUMP_BEATERS[r] << np.uint64(13 * s)
        for t in range(4):
            pw[t, c] = 16 + TRUMP_POWER[r] if s == t else PLAIN_POWER[r]
            pts[t, c] = TRUMP_POINTS[r] if s == t else PLAIN_POINTS[r]
    return pw, pts, over


POWER_BY_TRUMP, POINTS_BY_TRUMP, OVERTRUMPS = _card_tables()


@njit(inline="always", cache=True)
def suit_bits(suit):
    """The mask of a suit's lane."""
    return SUIT_LANE << np.uint64(13 * suit)


@njit(inline="always", cache=True)
def power(card, trump, led):
    """How strongly a card plays in a trick led in ``led``: trumps 17..22, the led suit 1..6, others 0."""
    s = card // 13
    return pick((s == trump) | (s == led), POWER_BY_TRUMP[trump, card], 0)


@njit(inline="always", cache=True)
def power_by_trump(card, trump):
    """:func:`power` of a card of the led suit or of trumps."""
    return POWER_BY_TRUMP[trump, card]


@njit(inline="always", cache=True)
def card_points(card, trump):
    return POINTS_BY_TRUMP[trump, card]


@njit(inline="always", cache=True)
def beaters(card, trump):
    """Mask of the cards of ``card``'s own suit that beat it (trump order in the trump suit)."""
    s = card // 13
    r = card - 13 * s
    if s == trump:
        return TRUMP_BEATERS[r] << np.uint64(13 * s)
    return PLAIN_BEATERS[r] << np.uint64(13 * s)


@njit(inline="always", cache=True)
def legal_mask(hand, n_in_trick, led, trump, top_trump, excused):
    """The cards of ``hand`` that may be played.

    Follow suit if you can.  Unable to follow, or when trumps are led, play a trump and beat
    ``top_trump`` (the highest trump in the trick, -1 for none) if you can; with no trump, any
    card.  ``excused`` (option ``partner-excuse`` with one's partner winning) lifts the duty to
    trump and to overtrump, never the duty to follow suit.
    """
    if n_in_trick == 0:
        return hand
    over = OVERTRUMPS[top_trump] if top_trump >= 0 else suit_bits(trump)
    return follow_mask(hand, suit_bits(led), suit_bits(trump), over, excused)


@njit(inline="always", cache=True)
def follow_mask(hand, led_bits, trump_bits, over, excused):
    """:func:`legal_mask` after the lead, from masks: the led suit's, the trump suit's, and ``over``,
    the trumps that beat the trick's highest trump (all trumps when it has none).

    Without a branch on the cards (random play would mispredict them): the suit one must play
    (the led suit, else trumps unless excused), else the whole hand; then, unless excused, its
    cards in ``over`` if there are any (only trumps can be).
    """
    follow = hand & led_bits
    trumps = pick(excused, U0, hand & trump_bits)
    must = pick(follow != U0, follow, trumps)
    base = pick(must != U0, must, hand)
    beat = pick(excused, U0, base & over)
    return pick(beat != U0, beat, base)
