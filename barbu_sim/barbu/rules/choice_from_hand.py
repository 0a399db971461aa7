"""What a declarer names: the trump suit or the domino starting rank a choice policy picks from a hand.

A small ``@njit`` function shared by the batch kernels (:mod:`barbu_sim.barbu.engine.play_loops`)
and the Python side (``api.resolve_choice``).
"""

import numpy as np
from ...core.jit import njit

from ...core.bits import popcount
from ...core.cards import ACE_RANK, JACK_RANK, KING_RANK, QUEEN_RANK
from .choices import DEFAULT_DOMINO_RANK, TRUMP_STRONGEST
from .play_rules import lane
from .config import DOMINO, TRUMPS

U1 = np.uint64(1)


@njit(cache=True)
def resolve_param(contract, param, hand):
    """The trump suit / starting rank a declarer holding ``hand`` names under ``param``.

    ``param >= 0`` is a fixed choice.  Trumps: ``TRUMP_LONGEST`` (-1) the longest
    suit; ``TRUMP_STRONGEST`` (-2) the suit with the most ``2 * length + honour
    points`` (A 4, K 3, Q 2, J 1).  Domino: ``DOMINO_MOST_HELD`` (-1) the rank the
    declarer holds most of, ties to the rank nearest 7.  Ties between suits go to
    the higher suit.
    """
    if param >= 0 or (contract != TRUMPS and contract != DOMINO):
        return param if param >= 0 else 0
    if contract == TRUMPS:
        best, best_value = 3, -1
        for s in range(3, -1, -1):
            ln = lane(hand, s)
            value = popcount(ln)
            if param == TRUMP_STRONGEST:
                value = 2 * value + 4 * np.int64((ln >> np.uint64(ACE_RANK)) & U1) \
                    + 3 * np.int64((ln >> np.uint64(KING_RANK)) & U1) \
                    + 2 * np.int64((ln >> np.uint64(QUEEN_RANK)) & U1) \
                    + np.int64((ln >> np.uint64(JACK_RANK)) & U1)
            if value > best_value:
                best, best_value = s, value
        return best
    best, best_count, best_dist = DEFAULT_DOMINO_RANK, -1, 99
    for r in range(13):
        count = 0
        for s in range(4):
            count += np.int64((hand >> np.uint64(13 * s + r)) & U1)
        dist = abs(r - DEFAULT_DOMINO_RANK)
        if count > best_count or (count == best_count and dist < best_dist):
            best, best_count, best_dist = r, count, dist
    return best
