"""Monte Carlo evaluation of a hand before bidding: what playing, passing or naming a suit is worth.

The unseen cards are dealt at random around the fixed hand (the turned card always in the
dealer's hand), and every option is played on the same sample deals (common random numbers), so
the differences between options are paired.  ``advise`` (Python) builds the options; the kernel
plays them.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ...core.compiling import lazy_kernel
from ...core.rng import STREAM_CLABBER_EVAL as STREAM_EVAL, stream_key
from ..players.bidding import THRESHOLD
from .deals import deal_around_into
from .round_kernels import reset_state, round_from, sample_scratch
from .mc_bidding import bid_workspace
from .play_loops import mc_work
from ..rules.config import C_SCORE
from ...core.strategies import USER_FNS

NEVER = 1 << 30  # a threshold nobody reaches: the seat passes throughout


@lazy_kernel(
    types.int64(types.uint64, types.uint64, types.int64, types.int64, types.int64, types.int64, types.int64[:, ::1],
                types.int64[::1], types.int64[::1], types.int64[::1], types.int64[::1], USER_FNS,
                types.int64[:, ::1], types.int64[:, ::1], types.uint64[::1], types.none, types.none),
    "the Clabber hand evaluator", "clabber-eval",
    cache=True,
    nogil=True,
)
def evaluate_kernel(seed, hand, seat, turned, dealer, n_samples, options, rules, bid_ids, bid_params, strat_ids,
                    user_fns, sums, squares, state, mc_bids, mc_proto):
    """Play ``n_samples`` sample deals under every option; sum the seat's team score, the opponents', the net.

    Parameters
    ----------
    options : (k, 4) int64 rows ``(bid round, maker, trump, pass)``: a bid round of -1 bids by the
        policies, with ``pass`` = 1 making ``seat`` pass throughout; else the contract is imposed.
    sums, squares : (k, 3) int64, zeroed: own team, opponents, own minus opponents.
    state : (STATE_ARRAY_SIZE,) uint64, the strategies' state array (for the message of a failed play).
    mc_bids : None, or any uint64 array for the kernel with mc bidding (another seat bids ``mc``).
    mc_proto : None, or any uint64 array for the engine with the mc card player.

    Returns 0, or the error code of the first failed play (the sums are then incomplete).
    """
    key = stream_key(seed, (hand << np.uint64(5)) | np.uint64(turned % 32), STREAM_EVAL)
    key = stream_key(key, np.uint64(4 * seat + dealer), STREAM_EVAL)
    ws = bid_workspace(rules, mc_bids)
    reset_state(state, rules)
    rng, pack, dealt, hands, row, forced, d2, d1 = sample_scratch()
    ids = bid_ids.copy()
    params = bid_params.copy()
    mcw = mc_work(mc_proto)
    team = seat & 1
    for k in range(n_samples):
        deal_around_into(key, k, hand, seat, turned, dealer, pack, dealt, rng)
        for o in range(options.shape[0]):
            for j in range(3):
                forced[j] = options[o, j]
            ids[seat] = THRESHOLD if options[o, 3] else bid_ids[seat]
            params[seat] = NEVER if options[o, 3] else bid_params[seat]
            code = round_from(dealt, turned, key, np.uint64(k), dealer, rules, ids, params, strat_ids, user_fns,
                              forced, ws, state, rng, hands, row, np.bool_(False), d2, d2, d1, mcw)
            if code < 0:
                return code
            own = row[C_SCORE + team]
            opp = row[C_SCORE + 1 - team]
            for j, v in enumerate((own, opp, own - opp)):
                sums[o, j] += v
                squares[o, j] += v * v
    return 0
