"""The value of every option of one bidding call, from the caller's view: what the review of Clabber
bidding rests on.

The caller's hand is fixed, the turned card stays with the dealer, and the other cards are dealt at
random around them (layout ``k`` from the stream ``(key, k)``, as ``advise`` and ``mc`` bidding deal
them).  On each layout every option of the call is played out: a take ends the bidding with the
caller as maker; a pass lets the bidding go on from the next speaker by the policies given (an
``mc`` policy bids ``threshold`` there, as in ``mc`` bidding's own sample plays), the caller's own
later calls included; then the round is played by the seats' strategies (the review plays ``mc`` at
every seat) on the play stream of ``(key, k)``.  The value is the caller's team's round score minus
the opponents' (0 when the cards are thrown in), the figure ``mc`` bidding and ``advise`` compare.
Every option is played on the same layouts and the same play stream, so differences between options
are paired.  The layouts are not conditioned on the calls before (a simplification ``mc`` bidding
makes too): the passes say a hand is likely weak, not which cards it holds.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ...core.compiling import lazy_kernel
from ...core.rng import STREAM_CLABBER_BID as STREAM_BID, stream_key
from ...core.strategies import USER_FNS
from .deals import deal_around_into
from .mc_bidding import bid_rest, bid_workspace
from .play_loops import mc_work
from .round_kernels import BID_PLAY, reset_state, round_from, sample_scratch
from ..rules.config import C_SCORE

NOBODY = -1  # bid_rest's silent seat when every seat bids by its policy


@lazy_kernel(
    types.int64(types.uint64, types.uint64, types.int64, types.int64, types.int64, types.int64, types.int64,
                types.int64[::1], types.int64[::1], types.int64[::1], types.int64[::1], types.int64[::1], USER_FNS,
                types.float64[:, ::1], types.uint64[::1], types.none),
    "the Clabber bidding evaluator", "clabber-bids",
    cache=True,
    nogil=True,
)
def bid_values_kernel(key, hand, seat, turned, dealer, bid_round, samples, options, rules, bid_ids, bid_params,
                      strat_ids, user_fns, values, state, mc_proto):
    """Every option of ``seat``'s call in bidding round ``bid_round``, played out on ``samples`` layouts.

    Parameters
    ----------
    key : the layouts' key; layout ``k`` is dealt from ``(key, k)`` and played on its play stream.
    hand : uint64, the caller's six cards (the dealer's include ``turned``).
    options : (m,) int64 calls: -1 pass, 4 play (round one), 0..3 a suit named (round two).
    bid_ids, bid_params : (4,) int64, the policies of the calls after this one.
    strat_ids, user_fns : the seats' card play.
    values : (samples, m) float64, written: the caller's team's round score minus the opponents'.
    state : (STATE_ARRAY_SIZE,) uint64, the strategies' state array (for the message of a failed play).
    mc_proto : None, or any uint64 array for the engine with the mc card player.

    Returns 0, or the error code of the first failed play (``values`` is then incomplete).
    """
    # every round here is played with its contract imposed (the bidding after a pass is bid_rest's, where mc
    # bids threshold): no mc bidding to compile
    ws = bid_workspace(rules, None)
    reset_state(state, rules)
    rng, pack, dealt, hands, row, forced, d2, d1 = sample_scratch()
    mcw = mc_work(mc_proto)
    team = seat & 1
    after_me = ((seat - dealer - 1) & 3) + 1  # the next speaker's place in the round (4: the next round)
    for k in range(samples):
        deal_around_into(key, k, hand, seat, turned, dealer, pack, dealt, rng)
        for o in range(options.shape[0]):
            call = options[o]
            if call < 0:
                rng[0] = stream_key(key, np.uint64(k), STREAM_BID)
                code = bid_rest(dealt, turned, dealer, bid_ids, bid_params, rng, bid_round, after_me, NOBODY)
            elif call == BID_PLAY:
                code = 16 + 4 * seat + turned // 13
            else:
                code = 32 + 4 * seat + call
            if code == 0:  # eight passes: the cards are thrown in, nobody scores
                values[k, o] = 0.0
                continue
            forced[0] = code >> 4
            forced[1] = (code >> 2) & 3
            forced[2] = code & 3
            failed = round_from(dealt, turned, key, np.uint64(k), dealer, rules, bid_ids, bid_params, strat_ids,
                                user_fns, forced, ws, state, rng, hands, row, np.bool_(False), d2, d2, d1, mcw)
            if failed < 0:
                return failed
            values[k, o] = np.float64(row[C_SCORE + team] - row[C_SCORE + 1 - team])
    return 0
