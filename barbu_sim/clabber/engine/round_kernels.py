"""The Clabber round kernels: bidding, a whole round (deal, bids, the play of :mod:`engine.play_loops`, score),
and the parallel batch driver.

Kernel/wrapper pairs: :mod:`barbu_sim.clabber.api` validates and preallocates; the kernels take
and return only arrays and scalars.  Round ``index`` of key ``key`` draws its deal, its bidding
and its play from three streams keyed by ``(key, index)`` alone, so a run is the same on any
thread count and every bidding policy and strategy is played on the same deals.  A run's key is
its seed; a game's rounds use the key of the game, ``stream_key(seed, game, STREAM_GAME)``.
"""

from __future__ import annotations

import numpy as np
from numba import types
from ...core.jit import njit

from ...core.compiling import lazy_kernel
from ...core.atomic import claim
from ...core.bits import popcount
from ...core.rng import STREAM_CLABBER_BID as STREAM_BID, STREAM_CLABBER_PLAY as STREAM_PLAY, stream_key
from ..players.bidding import MC, accepts, names
from .deals import deal_into
from .mc_bidding import FAILED, bid_workspace, mc_bid_if_compiled_in
from ..rules.melds import meld_flags
from .play_loops import mc_work, play_into
from ..rules.play_rules import suit_bits
from ..rules.config import (
    C_BID_ROUND, C_DEALER, C_FLAGS, C_MAKER, C_MAKER_TRUMPS, C_MISPLAY, C_TRUMP, C_TURNED, N_ROUND_COLUMNS,
    RULES_ARRAY_SIZE,
)
from ..state import S_BID_ROUND, S_RULES, S_TURNED, STATE_ARRAY_SIZE
from ...core.strategies import USER_FNS

U0 = np.uint64(0)
BID_PLAY = 4  # a recorded round-one "play"; -1 is a pass, 0..3 a suit named in round two


@njit(cache=True, _nrt=False)
def bid_into(hands, turned, dealer, bid_ids, bid_params, rng, record, rec_bids, key, index, rules, strat_ids,
             user_fns, ws, state, d2, d1):
    """Both bidding rounds.  Returns ``16 * round + 4 * maker + trump``, 0 when thrown in, or the
    (negative) error code of a strategy that failed in an ``mc`` player's sample plays (``state`` then
    holds what the strategy was called with).

    With ``record``, ``rec_bids`` (8, 2) gets ``(seat, bid)`` rows (bid -1 pass, 4 play, 0..3 a
    suit) and unused rows stay as given.  ``mc`` players evaluate on sample deals keyed by
    ``(key, index)`` (see :mod:`barbu_sim.clabber.engine.mc_bidding`); the others draw from ``rng``.
    ``ws``: the mc bidder's workspace, None in the kernels compiled without mc bidding.
    """
    ts = turned // 13
    n = 0
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        if bid_ids[seat] == MC:
            # the bidding round as a typed int64, not a literal: one compiled mc_bid for both rounds
            v = mc_bid_if_compiled_in(hands[seat], seat, turned, dealer, np.int64(0), bid_params[seat], key, index,
                                      rules, bid_ids, bid_params, strat_ids, user_fns, ws, state, d2, d1)
            if v <= FAILED:
                return v - FAILED
            ok = v > 0
        else:
            ok = accepts(bid_ids[seat], bid_params[seat], hands[seat], ts, rng)
        if record:
            rec_bids[n, 0] = seat
            rec_bids[n, 1] = BID_PLAY if ok else -1
        n += 1
        if ok:
            return 16 + 4 * seat + ts
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        if bid_ids[seat] == MC:
            s = mc_bid_if_compiled_in(hands[seat], seat, turned, dealer, np.int64(1), bid_params[seat], key, index,
                                      rules, bid_ids, bid_params, strat_ids, user_fns, ws, state, d2, d1)
            if s <= FAILED:
                return s - FAILED
        else:
            s = names(bid_ids[seat], bid_params[seat], hands[seat], ts, rng)
        if record:
            rec_bids[n, 0] = seat
            rec_bids[n, 1] = s
        n += 1
        if s >= 0:
            return 32 + 4 * seat + s
    return 0


@njit(cache=True, _nrt=False)
def round_into(key, index, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced, ws, state, rng, pack,
               dealt, hands, out, record, rec_bids, rec_plays, rec_winners, mcw):
    """Deal, bid, play and score round ``index`` of ``key`` into ``out``; returns 0 or an error code.

    ``forced`` (3,) int64: ``(-1, ...)`` to bid, else ``(bid round, maker, trump)`` imposed.  ``mcw``:
    None (the engine without the mc card player) or its array (see :mod:`barbu_sim.clabber.engine.play_loops`).
    """
    turned = deal_into(key, index, dealer, pack, dealt, rng)
    return round_from(dealt, turned, key, index, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced,
                      ws, state, rng, hands, out, record, rec_bids, rec_plays, rec_winners, mcw)


@njit(cache=True, _nrt=False)
def round_from(dealt, turned, key, index, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced, ws,
               state, rng, hands, out, record, rec_bids, rec_plays, rec_winners, mcw):
    """Bid, play and score a dealt round (bidding and play draws from the streams of ``(key, index)``)."""
    for j in range(out.shape[0]):
        out[j] = 0
    out[C_DEALER] = dealer
    out[C_TURNED] = turned
    out[C_MISPLAY] = -1
    for s in range(4):
        out[C_FLAGS + s] = meld_flags(dealt[s])
    if forced[0] >= 0:
        code = 16 * forced[0] + 4 * forced[1] + forced[2]
    else:
        rng[0] = stream_key(key, index, STREAM_BID)
        code = bid_into(dealt, turned, dealer, bid_ids, bid_params, rng, record, rec_bids, key, index, rules,
                        strat_ids, user_fns, ws, state, rec_plays, rec_winners)
        if code < 0:  # failed in a sample play (bid_into put what the strategy was called with in state)
            return code
    if code == 0:
        out[C_MAKER] = -1
        out[C_TRUMP] = -1
        out[C_MAKER_TRUMPS] = -1
        return 0
    maker = (code >> 2) & 3
    trump = code & 3
    out[C_BID_ROUND] = code >> 4
    out[C_MAKER] = maker
    out[C_TRUMP] = trump
    out[C_MAKER_TRUMPS] = popcount(dealt[maker] & suit_bits(trump))
    for i in range(S_RULES):
        state[i] = U0
    state[S_TURNED] = turned
    state[S_BID_ROUND] = code >> 4
    rng[0] = stream_key(key, index, STREAM_PLAY)
    return play_into(dealt, hands, trump, maker, dealer, rules, strat_ids, user_fns, state, rng, out,
                     record, rec_plays, rec_winners, mcw)


@njit(cache=True)
def new_state(rules):
    """A zeroed strategy state array holding ``rules`` (kept between rounds)."""
    return reset_state(np.empty(STATE_ARRAY_SIZE, np.uint64), rules)


@njit(cache=True)
def reset_state(state, rules):
    """Zero ``state`` (``STATE_ARRAY_SIZE`` entries) and put ``rules`` in it; returns it."""
    for i in range(state.shape[0]):
        state[i] = U0
    for i in range(RULES_ARRAY_SIZE):
        state[S_RULES + i] = np.uint64(rules[i])
    return state


@njit(cache=True)
def sample_scratch():
    """The arrays a kernel that plays sample rounds reuses from round to round: ``(rng, pack, dealt, hands, row,
    forced, d2, d1)`` (``d2``, ``d1``: the record arrays of an unrecorded :func:`round_from`)."""
    return (np.empty(1, np.uint64), np.empty(24, np.int64), np.empty(4, np.uint64), np.empty(4, np.uint64),
            np.empty(N_ROUND_COLUMNS, np.int64), np.empty(3, np.int64), np.empty((1, 2), np.int64),
            np.empty(1, np.int64))


@lazy_kernel(
    types.int64(types.uint64, types.uint64, types.int64, types.int64[::1], types.int64[::1], types.int64[::1],
                types.int64[::1], USER_FNS, types.int64[::1], types.uint64[::1], types.int64[::1],
                types.int64[:, ::1], types.int64[:, ::1], types.int64[::1], types.uint64[::1], types.none, types.none),
    "the Clabber engine", "clabber-one",
    cache=True,
    nogil=True,
)
def play_one_kernel(key, index, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced, dealt, out,
                    rec_bids, rec_plays, rec_winners, state, mc_bids, mc_proto):
    """One round with its full record (bids, plays, trick winners); returns 0 or an error code.

    ``state`` (``STATE_ARRAY_SIZE``): the strategies' state array, for the error message of a failed play.
    ``mc_bids``: None, or any uint64 array for the kernel with mc bidding (see
    :mod:`barbu_sim.clabber.engine.mc_bidding`; so for every kernel here).
    ``mc_proto``: None, or any uint64 array for the engine with the mc card player (so for every kernel here).
    """
    # ``record`` as a typed flag (np.bool_), not a literal: the one-round and batch kernels share one
    # compiled round and play loop instead of compiling each twice (a literal is its own specialisation)
    return round_into(key, np.uint64(index), dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced,
                      bid_workspace(rules, mc_bids), reset_state(state, rules), np.empty(1, np.uint64),
                      np.empty(24, np.int64), dealt, np.empty(4, np.uint64), out, np.bool_(True), rec_bids, rec_plays,
                      rec_winners, mc_work(mc_proto))


@njit(cache=True, _nrt=False)
def _rounds_range(seed, start, lo, hi, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced, rows,
                  errors, ws, state, rng, pack, dealt, hands, row, dummy2, dummy1, mcw):
    """Rounds ``start + lo .. start + hi - 1`` of run ``seed`` into ``rows[lo:hi]``, serially.

    An illegal card stops the chunk: ``errors`` (2,) gets its code and the round's offset ``i``.
    """
    for i in range(lo, hi):
        code = round_into(seed, np.uint64(start + i), dealer, rules, bid_ids, bid_params, strat_ids, user_fns,
                          forced, ws, state, rng, pack, dealt, hands, row, np.bool_(False), dummy2, dummy2, dummy1, mcw)
        if code < 0:
            errors[0] = code
            errors[1] = i
            return
        for j in range(N_ROUND_COLUMNS):
            rows[i, j] = row[j]


@njit(cache=True)
def _rounds_chunk(seed, start, lo, hi, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced, rows,
                  errors, mc_bids, mc_proto):
    """Allocate one chunk's scratch arrays, then play its rounds."""
    _rounds_range(seed, start, lo, hi, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced, rows,
                  errors, bid_workspace(rules, mc_bids), new_state(rules), np.empty(1, np.uint64),
                  np.empty(24, np.int64), np.empty(4, np.uint64), np.empty(4, np.uint64),
                  np.empty(N_ROUND_COLUMNS, np.int64), np.empty((1, 2), np.int64), np.empty(1, np.int64),
                  mc_work(mc_proto))


@lazy_kernel(
    types.void(types.int64[::1], types.uint64, types.int64, types.int64, types.int64, types.int64, types.int64[::1],
               types.int64[::1], types.int64[::1], types.int64[::1], USER_FNS, types.int64[::1],
               types.int16[:, ::1], types.int64[:, ::1], types.none, types.none),
    "the Clabber batch engine", "clabber-batch",
    cache=True,
    nogil=True,
)
def rounds_batch_kernel(next_chunk, seed, start, n, chunk, dealer, rules, bid_ids, bid_params, strat_ids, user_fns,
                        forced, rows, errors, mc_bids, mc_proto):
    """Play rounds ``start .. start + n - 1`` of run ``seed`` in chunks of ``chunk``, claiming chunks until none
    are left (run on several threads at once by :func:`barbu_sim.core.atomic.on_threads`).

    Parameters
    ----------
    next_chunk : (1,) int64, zeroed: the counter the threads claim chunk numbers from.
    dealer : the dealer seat of every round.  rules : ``Rules.to_array()``.
    bid_ids, bid_params : (4,) int64 bidding policy per seat.  strat_ids, user_fns : see ``strategies``.
    forced : (3,) int64, ``(-1, 0, 0)`` to bid, else ``(bid round, maker, trump)`` for every round.
    rows : (n, N_ROUND_COLUMNS) int16 output.  errors : (number of chunks, 2) int64, zeroed: for a chunk
        stopped by an illegal card, its code and the round's offset in the batch.
    mc_bids, mc_proto : as for :func:`play_one_kernel`.
    """
    n_chunks = (n + chunk - 1) // chunk
    # The claim loop of core.atomic, written out in each batch kernel: numba cannot cache a kernel that
    # is handed its chunk function. tests/test_claim_loop.py keeps the three copies alike.
    while True:
        k = claim(next_chunk)
        if k >= n_chunks:
            break
        lo = k * chunk
        _rounds_chunk(seed, start, lo, min(n, lo + chunk), dealer, rules, bid_ids, bid_params, strat_ids,
                      user_fns, forced, rows, errors[k], mc_bids, mc_proto)


@lazy_kernel(
    types.int64(types.uint64[::1], types.int64, types.uint64, types.int64, types.int64, types.int64[::1],
                types.int64[::1], types.int64[::1], types.int64[::1], USER_FNS, types.int64[::1], types.int64[::1],
                types.int64[:, ::1], types.int64[:, ::1], types.int64[::1], types.uint64[::1], types.none, types.none),
    "the Clabber engine for a given deal", "clabber-dealt",
    cache=True,
    nogil=True,
)
def play_dealt_kernel(dealt, turned, key, index, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced,
                      out, rec_bids, rec_plays, rec_winners, state, mc_bids, mc_proto):
    """One round from given hands and turned card, with its full record; 0 or an error code (``state``,
    ``mc_bids``, ``mc_proto``: as for :func:`play_one_kernel`)."""
    return round_from(dealt, turned, key, np.uint64(index), dealer, rules, bid_ids, bid_params, strat_ids, user_fns,
                      forced, bid_workspace(rules, mc_bids), reset_state(state, rules), np.empty(1, np.uint64),
                      np.empty(4, np.uint64), out, np.bool_(True), rec_bids, rec_plays, rec_winners, mc_work(mc_proto))
