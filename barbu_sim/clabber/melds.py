"""Melds by table look-up: each suit's six cards are a 6-bit lane, read off the hand with one shift.

A player's melds are the partition of their six dealt cards worth most points (ties: the one whose
highest meld ranks highest).  Six cards leave little room: four of a kind (4 cards) can share a
card only with one sequence of three, and is always worth more, so a hand's melds are its four of
a kind if it has one, else the best sequences of each suit, which depend on that suit's lane
alone: a run of 3 / 4 / 5 is worth 20 / 50 / 100, a run of six is one sequence of five (the top
five), two runs in a lane score separately.

A meld's rank is one int (higher wins): four jacks 1000; four 9s / aces / 10s / kings / queens
905..901 (the rules table's order); a sequence ``100 * length + 2 * top rank + (1 if trumps)``.
"""

import numpy as np
from numba import njit

from ..core.bits import lowest_bit
from .rules import JACK, LOW_RANK, NINE, QUEEN

U1 = np.uint64(1)
LANE6 = np.uint64(63)
_SEQ_POINTS = {3: 20, 4: 50, 5: 100}
FOUR_RANK = np.zeros(13, np.int64)  # the rank int of four of a kind of each card rank
for _i, _r in enumerate((QUEEN, 11, 8, 12, NINE, JACK)):  # queens .. 9s, then jacks
    FOUR_RANK[_r] = 901 + _i if _r != JACK else 1000


def _lane_tables():
    points = np.zeros(64, np.int64)
    top = np.zeros(64, np.int64)  # rank int of the lane's best sequence without the trump bit, 0 for none
    run = np.zeros(64, np.int64)  # longest run in the lane (0..6)
    for lane in range(64):
        length = 0
        for b in range(7):
            if b < 6 and lane >> b & 1:
                length += 1
                run[lane] = max(run[lane], length)
                continue
            if length >= 3:
                points[lane] += _SEQ_POINTS[min(length, 5)]
                top[lane] = max(top[lane], 100 * min(length, 5) + 2 * (LOW_RANK + b - 1))
            length = 0
    return points, top, run


LANE_POINTS, LANE_TOP, LANE_RUN = _lane_tables()


@njit(inline="always", cache=True)
def lane6(hand, suit):
    """The six Clabber cards of ``suit`` in ``hand`` as bits 0 (the 9) .. 5 (the ace)."""
    return (hand >> np.uint64(13 * suit + LOW_RANK)) & LANE6


@njit(inline="always", cache=True)
def hand_melds(hand, trump):
    """(meld points, rank int of the highest meld; 0 when none) of one player's dealt cards."""
    four = lane6(hand, 0) & lane6(hand, 1) & lane6(hand, 2) & lane6(hand, 3)
    if four:  # six cards hold at most one four of a kind
        r = NINE + lowest_bit(four)
        return 200 if r == JACK else 100, FOUR_RANK[r]
    points = 0
    best = 0
    for s in range(4):
        lane = lane6(hand, s)
        points += LANE_POINTS[lane]
        k = LANE_TOP[lane]
        if k > 0:
            k += 1 if s == trump else 0
            if k > best:
                best = k
    return points, best


@njit(inline="always", cache=True)
def team_meld_points(hands, trump):
    """``(scored N+S, scored E+W, raw N+S, raw E+W)``: each team's melds after the comparison, and before.

    Only the team with the single highest meld scores, and then all its melds; an exact tie of
    the two teams' highest melds (or no meld at all) scores nobody.  The raw totals serve the
    misplay penalty.
    """
    p0, k0 = hand_melds(hands[0], trump)
    p1, k1 = hand_melds(hands[1], trump)
    p2, k2 = hand_melds(hands[2], trump)
    p3, k3 = hand_melds(hands[3], trump)
    top_ns = max(k0, k2)
    top_ew = max(k1, k3)
    return (p0 + p2 if top_ns > top_ew else 0), (p1 + p3 if top_ew > top_ns else 0), p0 + p2, p1 + p3


@njit(inline="always", cache=True)
def meld_flags(hand):
    """Longest one-suit run among the cards (0..6) plus 8 when they hold a four of a kind."""
    run = max(max(LANE_RUN[lane6(hand, 0)], LANE_RUN[lane6(hand, 1)]),
              max(LANE_RUN[lane6(hand, 2)], LANE_RUN[lane6(hand, 3)]))
    four = lane6(hand, 0) & lane6(hand, 1) & lane6(hand, 2) & lane6(hand, 3)
    return run + (8 if four else 0)
