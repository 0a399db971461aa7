"""Melds by table look-up: each suit's six cards are a 6-bit lane, read off the hand with one shift.

A player's melds are the partition of their six dealt cards worth most points (ties: the one whose
highest meld ranks highest).  Six cards leave little room: four of a kind (4 cards) can share a
card only with one sequence of three, and is always worth more, so a hand's melds are its four of
a kind if it has one, else the best sequences of each suit, which depend on that suit's lane
alone: a run of 3 / 4 / 5 is worth 20 / 50 / 100, a run of six is one sequence of five (the top
five), two runs in a lane score separately.

A meld's rank is one int (higher wins).  By the rule text (``meld-ranking=fours-first``): four
jacks 1000; four 9s / aces / 10s / kings / queens 905..901 (the rules table's order; with
``meld-fours=card-rank`` aces / kings / queens / 10s / 9s); a sequence ``100 * length + 2 * top rank
+ (1 if trumps)``.  With ``meld-ranking=points-first``: ``100 * points + 4 * top rank``, plus 2 for a
four and 1 for a trump sequence (points, then the top card, then a four, then trumps).
"""

import numpy as np
from ...core.jit import njit

from ...core.bits import lowest_bit
from .config import ACE, JACK, KING, LOW_RANK, NINE, QUEEN, R_MELD_FOURS, R_MELD_RANKING, TEN, Rules

U1 = np.uint64(1)
LANE6 = np.uint64(63)
DEFAULT_RULES = Rules().to_array()  # the rule text's options, a constant for the kernels
_SEQ_POINTS = {3: 20, 4: 50, 5: 100}
# The rank int of four of a kind of each card rank, by ranking (meld-fours + 2 * meld-ranking).
FOUR_KEYS = np.zeros((4, 13), np.int64)
for _order, _ranks in enumerate(((QUEEN, KING, TEN, ACE, NINE), (NINE, TEN, QUEEN, KING, ACE))):  # lowest first
    for _i, _r in enumerate(_ranks):
        FOUR_KEYS[_order, _r] = 901 + _i
    FOUR_KEYS[_order, JACK] = 1000
    for _r in (NINE, TEN, JACK, QUEEN, KING, ACE):  # points first: the fours' own order never decides
        FOUR_KEYS[2 + _order, _r] = 100 * (200 if _r == JACK else 100) + 4 * _r + 2


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
# The rank int of each lane's best sequence (trump bit not included), by meld-ranking: fours-first, points-first.
LANE_KEYS = np.zeros((2, 64), np.int64)
LANE_KEYS[0] = LANE_TOP
for _lane in range(64):
    if LANE_TOP[_lane]:
        _length, _rest = divmod(int(LANE_TOP[_lane]), 100)
        LANE_KEYS[1, _lane] = 100 * _SEQ_POINTS[_length] + 4 * (_rest // 2)


@njit(inline="always", cache=True)
def lane6(hand, suit):
    """The six Clabber cards of ``suit`` in ``hand`` as bits 0 (the 9) .. 5 (the ace)."""
    return (hand >> np.uint64(13 * suit + LOW_RANK)) & LANE6


@njit(inline="always", cache=True)
def meld_ranking(rules):
    """The meld ranking of a Clabber rules array (int64, or the state array's uint64 copy of it):
    ``meld-fours + 2 * meld-ranking`` (0: the rule text's)."""
    return np.int64(rules[R_MELD_FOURS]) + 2 * np.int64(rules[R_MELD_RANKING])


@njit(inline="always", cache=True)
def hand_melds_ranked(hand, trump, ranking):
    """(meld points, rank int of the highest meld under ``ranking``; 0 when none) of one player's dealt cards.

    ``ranking``: see :func:`meld_ranking`.  The partition does not depend on it: a four of a kind
    is always the hand's meld (worth more than the one sequence of three it could leave room for).
    """
    four = lane6(hand, 0) & lane6(hand, 1) & lane6(hand, 2) & lane6(hand, 3)
    if four:  # six cards hold at most one four of a kind
        r = NINE + lowest_bit(four)
        return 200 if r == JACK else 100, FOUR_KEYS[ranking, r]
    points = 0
    best = 0
    for s in range(4):
        lane = lane6(hand, s)
        points += LANE_POINTS[lane]
        k = LANE_KEYS[ranking >> 1, lane]
        if k > 0:
            k += 1 if s == trump else 0
            if k > best:
                best = k
    return points, best


@njit(inline="always", cache=True)
def hand_melds(hand, trump):
    """(meld points, rank int of the highest meld; 0 when none) under the rule text's ranking."""
    return hand_melds_ranked(hand, trump, 0)


@njit(inline="always", cache=True)
def team_melds(hands, trump, rules):
    """``(scored N+S, scored E+W, raw N+S, raw E+W)``: each team's melds after the comparison, and before.

    Only the team with the single highest meld (under the ranking of ``rules``, a Clabber rules
    array) scores, and then all its melds; an exact tie of the two teams' highest melds (or no
    meld at all) scores nobody.  The raw totals serve the misplay penalty.
    """
    ranking = meld_ranking(rules)
    p0, k0 = hand_melds_ranked(hands[0], trump, ranking)
    p1, k1 = hand_melds_ranked(hands[1], trump, ranking)
    p2, k2 = hand_melds_ranked(hands[2], trump, ranking)
    p3, k3 = hand_melds_ranked(hands[3], trump, ranking)
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


@njit(inline="always", cache=True)
def team_meld_points(hands, trump):
    """:func:`team_melds` under the rule text's ranking (for callers without a rules array)."""
    return team_melds(hands, trump, DEFAULT_RULES)
