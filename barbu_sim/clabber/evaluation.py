"""Monte Carlo evaluation of a hand before bidding: what playing, passing or naming a suit is worth.

The unseen cards are dealt at random around the fixed hand (the turned card always in the
dealer's hand), and every option is played on the same sample deals (common random numbers), so
the differences between options are paired.  ``advise`` (Python) builds the options; the kernel
plays them.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ..core.bits import lowest_bit, popcount
from ..core.rng import rand_below, stream_key
from .bidding import THRESHOLD
from .kernels import new_state, round_from
from .rules import C_SCORE, DECK, N_ROUND_COLUMNS, STREAM_EVAL
from .strategies import USER_FNS

U0 = np.uint64(0)
U1 = np.uint64(1)
NEVER = 1 << 30  # a threshold nobody reaches: the seat passes throughout


@njit(cache=True, _nrt=False)
def deal_around_into(key, k, hand, seat, turned, dealer, pack, dealt, rng):
    """Sample deal ``k``: ``hand`` at ``seat``, the turned card with the dealer, the rest at random."""
    rng[0] = stream_key(key, np.uint64(k), STREAM_EVAL)
    turned_bit = U1 << np.uint64(turned)
    unseen = DECK & ~hand
    if dealer != seat:
        unseen &= ~turned_bit
    n = 0
    m = unseen
    while m:
        pack[n] = lowest_bit(m)
        m &= m - U1
        n += 1
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        c = pack[i]
        pack[i] = pack[j]
        pack[j] = c
    for s in range(4):
        dealt[s] = U0
    dealt[seat] = hand
    if dealer != seat:
        dealt[dealer] = turned_bit
    idx = 0
    for s in range(4):
        if s != seat:
            while popcount(dealt[s]) < 6:
                dealt[s] |= U1 << np.uint64(pack[idx])
                idx += 1


@njit(
    types.void(types.uint64, types.uint64, types.int64, types.int64, types.int64, types.int64, types.int64[:, ::1],
               types.int64[::1], types.int64[::1], types.int64[::1], types.int64[::1], USER_FNS,
               types.int64[:, ::1], types.int64[:, ::1]),
    cache=True,
)
def evaluate_kernel(seed, hand, seat, turned, dealer, n_samples, options, rules, bid_ids, bid_params, strat_ids,
                    user_fns, sums, squares):
    """Play ``n_samples`` sample deals under every option; sum the seat's team score, the opponents', the net.

    Parameters
    ----------
    options : (k, 4) int64 rows ``(bid round, maker, trump, pass)``: a bid round of -1 bids by the
        policies, with ``pass`` = 1 making ``seat`` pass throughout; else the contract is imposed.
    sums, squares : (k, 3) int64, zeroed: own team, opponents, own minus opponents.
    """
    key = stream_key(seed, (hand << np.uint64(5)) | np.uint64(turned % 32), STREAM_EVAL)
    key = stream_key(key, np.uint64(4 * seat + dealer), STREAM_EVAL)
    state = new_state(rules)
    rng = np.empty(1, np.uint64)
    pack = np.empty(24, np.int64)
    dealt = np.empty(4, np.uint64)
    hands = np.empty(4, np.uint64)
    row = np.empty(N_ROUND_COLUMNS, np.int64)
    forced = np.empty(3, np.int64)
    ids = bid_ids.copy()
    params = bid_params.copy()
    d2 = np.empty((1, 2), np.int64)
    d1 = np.empty(1, np.int64)
    team = seat & 1
    for k in range(n_samples):
        deal_around_into(key, k, hand, seat, turned, dealer, pack, dealt, rng)
        for o in range(options.shape[0]):
            for j in range(3):
                forced[j] = options[o, j]
            ids[seat] = THRESHOLD if options[o, 3] else bid_ids[seat]
            params[seat] = NEVER if options[o, 3] else bid_params[seat]
            round_from(dealt, turned, key, np.uint64(k), dealer, rules, ids, params, strat_ids, user_fns, forced,
                       state, rng, hands, row, False, d2, d2, d1)
            own = row[C_SCORE + team]
            opp = row[C_SCORE + 1 - team]
            for j, v in enumerate((own, opp, own - opp)):
                sums[o, j] += v
                squares[o, j] += v * v
