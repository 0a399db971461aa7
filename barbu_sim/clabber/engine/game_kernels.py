"""The game kernels: full games to 500 on the round kernel, in parallel, and one game's score sheet.

Game ``g`` of run ``seed`` is a pure function of ``(seed, g)``: its key is
``stream_key(seed, g, STREAM_GAME)``, its first dealer the first draw of that key, and its round
``r`` is round ``r`` of that key (see :mod:`barbu_sim.clabber.engine.round_kernels`).
"""

from __future__ import annotations

import numpy as np
from numba import types
from ...core.jit import njit

from ...core.compiling import lazy_kernel
from ...core.atomic import claim
from ...core.rng import STREAM_CLABBER_GAME as STREAM_GAME, rand_below, stream_key
from .round_kernels import new_state, reset_state, round_into
from .mc_bidding import bid_workspace
from .play_loops import mc_work
from ..rules.config import (
    C_BID_ROUND, C_SCORE, G_FIRST_DEALER, G_RESULT, G_ROUNDS, G_SCORE, G_THROWN_IN, GAME_TARGET, MAX_GAME_ROUNDS,
    N_ROUND_COLUMNS,
)
from ...core.strategies import USER_FNS


@njit(cache=True, _nrt=False)
def _game_into(seed, g, rules, bid_ids, bid_params, strat_ids, user_fns, forced, ws, state, rng, pack, dealt, hands,
               row, sheet, dummy2, dummy1, result, mcw):
    """Play game ``g`` of run ``seed`` to 500 into ``result`` (a ``GAME_COLUMNS`` row); 0 or an error code.

    The first dealer is drawn from the game's own stream; the deal passes left after every round,
    thrown-in rounds included.  With ``sheet`` rows, each round's row is stored there.
    """
    key = stream_key(seed, np.uint64(g), STREAM_GAME)
    rng[0] = key
    dealer = rand_below(rng, 4)
    result[G_FIRST_DEALER] = dealer
    total0 = 0
    total1 = 0
    thrown = 0
    r = 0
    while r < MAX_GAME_ROUNDS and total0 < GAME_TARGET and total1 < GAME_TARGET:
        code = round_into(key, np.uint64(r), dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced, ws,
                          state, rng, pack, dealt, hands, row, np.bool_(False), dummy2, dummy2, dummy1, mcw)
        if code < 0:
            return code
        if row[C_BID_ROUND] == 0:
            thrown += 1
        total0 += row[C_SCORE]
        total1 += row[C_SCORE + 1]
        if r < sheet.shape[0]:
            for j in range(N_ROUND_COLUMNS):
                sheet[r, j] = row[j]
        dealer = (dealer + 1) & 3
        r += 1
    result[G_ROUNDS] = r
    result[G_THROWN_IN] = thrown
    result[G_SCORE] = total0
    result[G_SCORE + 1] = total1
    if total0 < GAME_TARGET and total1 < GAME_TARGET:
        result[G_RESULT] = 3
    elif total0 == total1:
        result[G_RESULT] = 2
    else:
        result[G_RESULT] = 0 if total0 > total1 else 1
    return 0


@njit(cache=True)
def _games_chunk(seed, start, lo, hi, rules, bid_ids, bid_params, strat_ids, user_fns, forced, games, errors,
                 mc_bids, mc_proto):
    ws = bid_workspace(rules, mc_bids)
    mcw = mc_work(mc_proto)
    state = new_state(rules)
    rng = np.empty(1, np.uint64)
    pack = np.empty(24, np.int64)
    dealt = np.empty(4, np.uint64)
    hands = np.empty(4, np.uint64)
    row = np.empty(N_ROUND_COLUMNS, np.int64)
    sheet = np.empty((0, N_ROUND_COLUMNS), np.int64)
    dummy2 = np.empty((1, 2), np.int64)
    dummy1 = np.empty(1, np.int64)
    result = np.empty(6, np.int64)
    for i in range(lo, hi):
        code = _game_into(seed, start + i, rules, bid_ids, bid_params, strat_ids, user_fns, forced, ws, state, rng,
                          pack, dealt, hands, row, sheet, dummy2, dummy1, result, mcw)
        if code < 0:
            errors[i] = code
            return
        for j in range(6):
            games[i, j] = result[j]


@lazy_kernel(
    types.void(types.int64[::1], types.uint64, types.int64, types.int64, types.int64, types.int64[::1],
               types.int64[::1], types.int64[::1], types.int64[::1], USER_FNS, types.int64[::1], types.int64[:, ::1],
               types.int64[::1], types.none, types.none),
    "the Clabber game engine", "clabber-games",
    cache=True,
    nogil=True,
)
def games_batch_kernel(next_chunk, seed, start, n, chunk, rules, bid_ids, bid_params, strat_ids, user_fns, forced,
                       games, errors, mc_bids, mc_proto):
    """Play games ``start .. start + n - 1`` of run ``seed`` to 500; ``games`` (n, 6) gets ``GAME_COLUMNS``.

    Claims chunks of ``chunk`` games from ``next_chunk`` (a zeroed (1,) int64 counter) until none are left: run
    on several threads at once by :func:`barbu_sim.core.atomic.on_threads`.
    ``mc_bids``: None, or any uint64 array for the kernel with mc bidding (so for the sheet kernel).
    ``mc_proto``: None, or any uint64 array for the engine with the mc card player (so for the sheet kernel).
    """
    n_chunks = (n + chunk - 1) // chunk
    # The claim loop of core.atomic, written out in each batch kernel: numba cannot cache a kernel that
    # is handed its chunk function. tests/test_claim_loop.py keeps the three copies alike.
    while True:
        k = claim(next_chunk)
        if k >= n_chunks:
            break
        lo = k * chunk
        _games_chunk(seed, start, lo, min(n, lo + chunk), rules, bid_ids, bid_params, strat_ids, user_fns,
                     forced, games, errors, mc_bids, mc_proto)


@lazy_kernel(
    types.int64(types.uint64, types.int64, types.int64[::1], types.int64[::1], types.int64[::1], types.int64[::1],
                USER_FNS, types.int64[:, ::1], types.int64[::1], types.uint64[::1], types.none, types.none),
    "the Clabber score-sheet engine", "clabber-sheet",
    cache=True,
    nogil=True,
)
def game_sheet_kernel(seed, g, rules, bid_ids, bid_params, strat_ids, user_fns, sheet, result, state, mc_bids,
                      mc_proto):
    """Game ``g`` with every round's row in ``sheet`` (MAX_GAME_ROUNDS, N_ROUND_COLUMNS); 0 or an error code.

    ``state`` (``STATE_ARRAY_SIZE``): the strategies' state array, for the error message of a failed play.
    """
    return _game_into(seed, g, rules, bid_ids, bid_params, strat_ids, user_fns, np.full(3, -1, np.int64),
                      bid_workspace(rules, mc_bids), reset_state(state, rules), np.empty(1, np.uint64),
                      np.empty(24, np.int64), np.empty(4, np.uint64),
                      np.empty(4, np.uint64), np.empty(N_ROUND_COLUMNS, np.int64), sheet,
                      np.empty((1, 2), np.int64), np.empty(1, np.int64), result, mc_work(mc_proto))
