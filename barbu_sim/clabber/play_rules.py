"""Clabber's rules of play as small ``@njit`` functions: legal cards, trick order, points.

Inlined into the play loop (:mod:`barbu_sim.clabber.kernels`) and shared with the
strategies.  Masks are ``uint64``; a suit's cards are bits 7..12 of its 13-bit lane.
"""

import numpy as np
from numba import njit

from ..core.cards import SUIT_LANE
from .rules import PLAIN_POINTS, PLAIN_POWER, TRUMP_POINTS, TRUMP_POWER

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


@njit(inline="always", cache=True)
def suit_bits(suit):
    """The mask of a suit's lane."""
    return SUIT_LANE << np.uint64(13 * suit)


@njit(inline="always", cache=True)
def power(card, trump, led):
    """How strongly a card plays in a trick led in ``led``: trumps 17..22, the led suit 1..6, others 0."""
    s = card // 13
    r = card - 13 * s
    if s == trump:
        return 16 + TRUMP_POWER[r]
    if s == led:
        return PLAIN_POWER[r]
    return 0


@njit(inline="always", cache=True)
def card_points(card, trump):
    s = card // 13
    r = card - 13 * s
    if s == trump:
        return TRUMP_POINTS[r]
    return PLAIN_POINTS[r]


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
    follow = hand & suit_bits(led)
    if led == trump:
        if follow == U0:
            return hand
        if excused:
            return follow
        beat = follow & beaters(top_trump, trump)
        return beat if beat != U0 else follow
    if follow != U0:
        return follow
    trumps = hand & suit_bits(trump)
    if trumps == U0 or excused:
        return hand
    if top_trump < 0:
        return trumps
    beat = trumps & beaters(top_trump, trump)
    return beat if beat != U0 else trumps
