"""The Barbu entry kernels: one deal with its record, and the one batch driver (run on several threads).

Kernel/wrapper pairs: :mod:`barbu_sim.barbu.api` validates and preallocates, then calls a
kernel through :func:`one_kernel` or :func:`batch_kernel`, which compile it on first use (see
:mod:`barbu_sim.core.compiling`) for one of three engines built from the same source: without the
strong players ``mc`` and ``learned`` (``explain`` is None: built-in and plugin players), with
``mc`` (and ``learned``, for tables that mix them; ``explain`` float64), or with ``learned`` alone
(``explain`` float32).  The play loops themselves are in :mod:`barbu_sim.barbu.engine.play_loops`.

One driver serves both kinds of batch: playing deals ``start ..`` of a run, and
evaluating hands (Monte Carlo deals of the unseen cards around each fixed hand).
"""

from __future__ import annotations

import numpy as np
from numba import types
from ...core.jit import njit

from ...core.atomic import claim
from ...core.compiling import ensure_compiled
from ...core.rng import STREAM_EVAL, STREAM_PLAY, stream_key
from ...core.strategies import USER_FNS
from .deals import deal_around_into, deal_into
from .play_loops import new_state, play_into
from ..rules.choice_from_hand import resolve_param
from ..rules.play_rules import domino_start
from ..rules.config import DOMINO

U0 = np.uint64(0)


@njit(cache=True, nogil=True)
def play_one_kernel(hands_in, contract, param, declarer, rules, strat_ids, user_fns, seed, index,
                    scores, tricks, rec_seat, rec_card, rec_winner, snap, model, explain):
    """Play one deal with its full record; returns the number of actions, or a negative error code.

    Releases the GIL, so that a caller can run it in a thread and stay responsive to Ctrl-C.
    ``snap`` ((SNAP_SIZE,) uint64) receives what an error message needs when a play fails;
    ``explain`` ((rows, EXPLAIN_WIDTH) float64, zeroed; (0, 0) for none) the estimates of the
    decisions of ``mc`` seats (see :mod:`barbu_sim.barbu.players.mc.player`); None compiles the engine without
    the mc player (get the kernel from :func:`one_kernel`).
    """
    state = new_state(rules)
    rng = np.empty(1, np.uint64)
    rng[0] = stream_key(seed, index, STREAM_PLAY)
    hands = np.empty(4, np.uint64)
    # ``record`` as a typed flag (np.bool_), not a literal: this kernel and the batch's share one
    # compiled play loop per engine instead of compiling it twice (a literal is its own specialisation)
    return play_into(hands_in, contract, param, declarer, rules, strat_ids, user_fns, state, rng,
                      hands, scores, tricks, np.bool_(True), rec_seat, rec_card, rec_winner, snap, model, explain)


@njit(cache=True, _nrt=False)
def _play_range(seed, start, lo, hi, fixed_hands, fixed_seat, n_samples, configs, rules, strat_ids, user_fns,
                scores, tricks, params, sums, squares, errors, deck, dealt, hands, state, rng, sc, tr, dummy, no_snap,
                model, explain):
    """Play work items ``lo..hi`` under every configuration, serially.

    Without fixed hands, item ``i`` is deal ``start + i`` of run ``seed``, and its
    scores, tricks and named params are stored.  With fixed hands, item ``j`` is
    ``n_samples`` deals of the unseen cards around ``fixed_hands[j]`` at
    ``fixed_seat``, keyed by the hand and seat themselves (so a hand's estimate does
    not depend on the batch it is in); the sums and sums of squares of its scores
    are stored.  A failed play stores its error code for the item and stops (the
    caller replays that item with :func:`play_one_kernel` for the details).

    Compiled without reference counting (``_nrt=False``): it only touches the
    scratch arrays it is given, and the per-call reference-count traffic of
    array arguments otherwise costs more than the play itself.
    """
    evaluate = fixed_hands.shape[0] > 0
    for i in range(lo, hi):
        key, n_deals, fixed = seed, 1, U0
        if evaluate:
            fixed = fixed_hands[i]
            key = stream_key(seed, (fixed << np.uint64(2)) | np.uint64(fixed_seat), STREAM_EVAL)
            n_deals = n_samples
        for k in range(n_deals):
            if evaluate:
                index = np.uint64(k)
                deal_around_into(key, index, fixed, fixed_seat, deck, dealt)
            else:
                index = np.uint64(start + i)
                deal_into(key, index, deck, dealt)
            for c in range(configs.shape[0]):
                rng[0] = stream_key(key, index, STREAM_PLAY)
                contract, declarer = configs[c, 0], configs[c, 2]
                param = resolve_param(contract, configs[c, 1], dealt[declarer])
                if contract == DOMINO:  # the rank played, under domino-start=fixed:R too
                    param = domino_start(param, rules)
                code = play_into(dealt, contract, param, declarer, rules, strat_ids,
                                  user_fns, state, rng, hands, sc, tr, np.bool_(False), dummy, dummy, dummy, no_snap,
                                  model, explain)
                if code < 0:
                    errors[i] = code
                    return
                if evaluate:
                    for s in range(4):
                        sums[i, c, s] += sc[s]
                        squares[i, c, s] += sc[s] * sc[s]
                else:
                    params[i, c] = param
                    for s in range(4):
                        scores[i, c, s] = sc[s]
                        tricks[i, c, s] = tr[s]


@njit(cache=True, nogil=True)
def play_batch_kernel(next_chunk, seed, start, n, chunk, fixed_hands, fixed_seat, n_samples, configs, rules,
                      strat_ids, user_fns, scores, tricks, params, sums, squares, errors, model, explain):
    """Play ``n`` work items (see :func:`_play_range`) in chunks of ``chunk``, claiming chunks until none are left.

    Run on several threads at once by :func:`barbu_sim.core.atomic.on_threads`, which gives them one
    ``next_chunk`` counter to claim from.

    Parameters
    ----------
    next_chunk : (1,) int64, zeroed: the counter the threads claim chunk numbers from.
    seed : uint64 run seed.  start : index of the first deal (deal batches).
    fixed_hands : (n,) uint64 hands to evaluate, or empty for a deal batch.
    fixed_seat, n_samples : the evaluated hands' seat and deals per hand.
    configs : (k, 3) int64 rows ``(contract, param, declarer)``.
    rules : the ``Rules.to_array()`` int64 array.  strat_ids, user_fns : see ``players.registry.seat_strategies``.
    scores, tricks : (n, k, 4) int16 / int8, params : (n, k) int8 (deal batches; else (0, 0, 0) / (0, 0)).
    sums, squares : (n, k, 4) int64, zeroed (hand evaluation; else (0, 0, 0)).
    errors : (n,) int64, zeroed: a negative error code for an item that stopped on a failed play.
    model : the learned players' float32 weights, 7 rows of MODEL_WIDTH per model (the packaged model, then
        ``learned1``: :func:`barbu_sim.barbu.players.learned.model_array`), or a (0, MODEL_WIDTH) array when no
        seat plays it.
    explain : None for the engine without the strong players (mc, learned), an empty (0, 0)
        float64 array for the engine with them (get the kernel from :func:`batch_kernel`).

    Releases the GIL, so that several threads play at once, and a caller can run it in a thread and stay
    responsive to Ctrl-C.
    """
    # The scratch arrays of this thread, for every chunk it plays (each deal starts afresh from its key).
    deck, dealt, hands = np.empty(52, np.int64), np.empty(4, np.uint64), np.empty(4, np.uint64)
    state, rng = new_state(rules), np.empty(1, np.uint64)
    sc, tr, dummy, no_snap = np.empty(4, np.int64), np.empty(4, np.int64), np.empty(1, np.int8), np.empty(1, np.uint64)
    n_chunks = (n + chunk - 1) // chunk
    # The claim loop of core.atomic, written out in each batch kernel: numba cannot cache a kernel that
    # is handed its chunk function. tests/test_claim_loop.py keeps the three copies alike.
    while True:
        k = claim(next_chunk)
        if k >= n_chunks:
            break
        lo = k * chunk
        hi = min(n, lo + chunk)
        _play_range(seed, start, lo, hi, fixed_hands, fixed_seat, n_samples, configs, rules, strat_ids, user_fns,
                    scores, tricks, params, sums, squares, errors, deck, dealt, hands, state, rng, sc, tr, dummy,
                    no_snap, model, explain)


# The argument types of the two entry kernels, by engine: the explain argument is what differs.
_ONE_ARGS = (
    types.uint64[::1], types.int64, types.int64, types.int64, types.int64[::1], types.int64[::1],
    USER_FNS, types.uint64, types.uint64, types.int64[::1], types.int64[::1],
    types.int8[::1], types.int8[::1], types.int8[::1], types.uint64[::1], types.float32[:, ::1],
)
_BATCH_ARGS = (
    types.int64[::1], types.uint64, types.int64, types.int64, types.int64, types.uint64[::1], types.int64, types.int64,
    types.int64[:, ::1], types.int64[::1], types.int64[::1], USER_FNS,
    types.int16[:, :, ::1], types.int8[:, :, ::1], types.int8[:, ::1],
    types.int64[:, :, ::1], types.int64[:, :, ::1], types.int64[::1], types.float32[:, ::1],
)
_EXPLAIN = types.float64[:, ::1]  # the engine with mc (and learned)
_EXPLAIN_LEARNED = types.float32[:, ::1]  # the engine with learned alone


def _engine(with_mc: bool, learned: bool):
    """The ``explain`` type, the words and the estimate key of the engine for these players."""
    if with_mc:
        return _EXPLAIN, " with the mc and learned players", "-mc"
    if learned:
        return _EXPLAIN_LEARNED, " with the learned player", "-learned"
    return types.none, "", ""


def one_kernel(with_mc: bool, learned: bool = False):
    """:func:`play_one_kernel`, compiled (or loaded from numba's cache) for the engine of these players.

    Its ``explain`` argument must then be a (rows, EXPLAIN_WIDTH) float64 array with mc, a float32
    array with learned alone, None without either.
    """
    kind, words, key = _engine(with_mc, learned)
    return ensure_compiled(play_one_kernel, _ONE_ARGS + (kind,), f"the Barbu engine{words}", f"barbu-one{key}")


def batch_kernel(with_mc: bool, learned: bool = False):
    """:func:`play_batch_kernel`, compiled (or loaded from numba's cache) for the engine of these players.

    Its ``explain`` argument must then be an empty (0, 0) float64 array with mc, float32 with
    learned alone, None without either.  Call it through :func:`barbu_sim.core.atomic.on_threads`.
    """
    kind, words, key = _engine(with_mc, learned)
    return ensure_compiled(play_batch_kernel, _BATCH_ARGS + (kind,), f"the Barbu batch engine{words}",
                           f"barbu-batch{key}")
