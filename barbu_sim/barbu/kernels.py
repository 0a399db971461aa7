"""The numba kernels: the state array, the play loops of one deal, and one parallel batch driver.

Kernel/wrapper pairs: :mod:`barbu_sim.barbu.api` validates and preallocates; the
kernels here take and return only arrays and scalars.  The entry points
(:func:`play_one_kernel`, :func:`play_batch_kernel`) carry explicit signatures with a
first-class function type for user strategies, so they are compiled once and
cached on disk (``cache=True``) whatever strategies a run uses.

One driver serves both kinds of batch: playing deals ``start ..`` of a run, and
evaluating hands (Monte Carlo deals of the unseen cards around each fixed hand).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from numba.extending import overload

from ..core.atomic import claim
from ..core.compiling import ensure_compiled
from ..core.bits import highest_bit, lowest_bit
from ..core.rng import STREAM_EVAL, STREAM_PLAY, stream_key
from ..core.strategies import RAISED, USER_FNS, lowest_strategy, random_strategy
from .deals import deal_around_into, deal_into
from .basic import basic_domino, basic_tricks
from .heuristic import heuristic_domino, heuristic_tricks
from .mc import MC, MC_WORK_SIZE, infer_not_held, mc_choose
from .naming import resolve_param
from .play_rules import (
    beats, domino_openers, domino_playable, forced_discard, hand_over, lane, lead_restriction, legal_mask,
    trick_points,
)
from .rules import DOMINO, R_DOMINO_PAYOUT, RULES_ARRAY_SIZE, TRUMPS
from .state import (
    S_CARDS_LEFT, S_CONTRACT, S_DECLARER, S_DOMINO_HIGH, S_DOMINO_LOW, S_LEADER, S_N_IN_TRICK, S_PARAM,
    S_NOT_HELD, S_PLAYED, S_RULES, S_SEAT, S_TRICK, S_TRICK_CARDS, S_TRICKS_WON, S_VOIDS, S_WIN_CARD, S_WIN_SEAT,
    S_WON, STATE_SIZE,
)
from .strategies import BASIC, HEURISTIC, LOWEST, RANDOM

U0 = np.uint64(0)
U1 = np.uint64(1)

assert S_RULES + RULES_ARRAY_SIZE <= STATE_SIZE, "the rules must fit at the end of the state array"

MAX_ACTIONS = 256  # Domino: at most 52 plays and, per play, 3 passes
PASS = -1  # the card recorded for a Domino pass
NOT_A_CARD = 52  # in an error code: the strategy returned a value that is not a card
STRATEGY_RAISED = 53  # in an error code: the strategy raised an exception
# What a failed play leaves for the error message: the state array, then legal, hand and the rng state.
SNAP_LEGAL = STATE_SIZE
SNAP_HAND = STATE_SIZE + 1
SNAP_RNG = STATE_SIZE + 2
SNAP_SIZE = STATE_SIZE + 3


@njit(inline="always", cache=True)
def _choose(sid, seat, legal, hand, state, rng, user_fns, domino, explain):
    # Each loop inlines only its own half of the rule-based players: smaller loops run faster.
    if sid == HEURISTIC:
        if domino:
            return heuristic_domino(legal, hand, state, rng)
        return heuristic_tricks(legal, hand, state, rng)
    if sid == BASIC:
        return basic_domino(legal, hand, state, rng) if domino else basic_tricks(legal, hand, state, rng)
    if sid == RANDOM:
        return random_strategy(legal, hand, state, rng)
    if sid == LOWEST:
        return lowest_strategy(legal, hand, state, rng)
    if (sid & 15) == MC:  # parameters in the higher bits (see mc.mc_id); a call, not inlined: it is big
        return _mc_if_compiled_in(sid, legal, hand, state, rng, explain)
    return user_fns[seat](legal, hand, state, rng)


# Two engines from one source: ``explain`` is None in the engine without the mc player
# (what built-in and plugin players need: it compiles in a fraction of the time) and an
# array in the engine with it.  These two functions are resolved by that type when a
# kernel compiles, so the engine without mc never compiles the mc player.

def _mc_if_compiled_in(sid, legal, hand, state, rng, explain):
    """mc's card (see :func:`barbu_sim.barbu.mc.mc_choose`); -1 in the engine compiled without mc."""


@overload(_mc_if_compiled_in)
def _mc_if_compiled_in_impl(sid, legal, hand, state, rng, explain):
    if isinstance(explain, types.NoneType):
        return lambda sid, legal, hand, state, rng, explain: -1  # never reached: the API picks the mc engine
    return lambda sid, legal, hand, state, rng, explain: mc_choose(sid, legal, hand, state, rng, explain)


def _infer_if_compiled_in(explain, state, seat, card, k, led, restricted_lead, forced, contract, trump, top_trump,
                          rules):
    """Record what a play shows about the seat's hand (for mc); nothing in the engine without mc."""


@overload(_infer_if_compiled_in)
def _infer_if_compiled_in_impl(explain, state, seat, card, k, led, restricted_lead, forced, contract, trump,
                               top_trump, rules):
    if isinstance(explain, types.NoneType):
        return lambda explain, state, seat, card, k, led, restricted_lead, forced, contract, trump, top_trump, \
            rules: None

    def infer(explain, state, seat, card, k, led, restricted_lead, forced, contract, trump, top_trump, rules):
        infer_not_held(state, seat, card, k, led, restricted_lead, forced, contract, trump, top_trump, rules)
    return infer


@njit(inline="always", cache=True)
def _any_mc(strat_ids):
    """True when a seat plays mc: the play loops then record what each play shows (for mc).

    A function returning a plain bool, so that ``_play_tricks`` is compiled once: a flag
    built up from a literal ``False`` makes numba compile the callee for both types.
    """
    for s in range(4):
        if (strat_ids[s] & 15) == MC:
            return True
    return False


@njit(inline="always", cache=True)
def _error_code(seat, card):
    """The error code of a failed play: ``-(1 + seat + 4 * c)``, ``c`` the card, :data:`NOT_A_CARD`
    or :data:`STRATEGY_RAISED`."""
    c = card if 0 <= card < 52 else (STRATEGY_RAISED if card == RAISED else NOT_A_CARD)
    return -(1 + seat + 4 * c)


@njit(cache=True, _nrt=False)  # not inlined: the cold path of the play loops
def _keep_failed_play(legal, hand, rng_before, state, snap):
    """Copy what an error message needs into ``snap``: the state array, legal, hand, the rng state."""
    for i in range(STATE_SIZE):
        snap[i] = state[i]
    snap[SNAP_LEGAL] = legal
    snap[SNAP_HAND] = hand
    snap[SNAP_RNG] = rng_before


@njit(cache=True)
def _new_state(rules):
    """A zeroed strategy state array holding ``rules``.

    A batch has one rule set, so the rules are copied once per state array here,
    and :func:`_reset_state` leaves them in place between deals.  The array goes on
    past ``STATE_SIZE`` with the scratch space of the ``mc`` player (``mc.MC_WORK_SIZE``).
    """
    state = np.zeros(STATE_SIZE + MC_WORK_SIZE, np.uint64)
    for i in range(RULES_ARRAY_SIZE):
        state[S_RULES + i] = np.uint64(rules[i])
    return state


@njit(cache=True, _nrt=False)
def _reset_state(state, contract, param, declarer):
    """Clear what a deal changes (every field before ``S_RULES``) and set the deal's own fields."""
    for i in range(S_RULES):
        state[i] = U0
    state[S_CONTRACT] = contract
    state[S_PARAM] = param
    state[S_DECLARER] = declarer
    for s in range(4):
        state[S_CARDS_LEFT + s] = 13
        state[S_DOMINO_LOW + s] = 13
        state[S_DOMINO_HIGH + s] = 13


@njit(cache=True, _nrt=False)
def _play_tricks(hands, contract, trump, declarer, rules, strat_ids, user_fns, state, rng,
                 scores, tricks, record, rec_seat, rec_card, rec_winner, snap, explain, track):
    """Play the tricks of a trick contract; returns actions recorded, or a negative error code."""
    played = U0
    # Seats are masked with & 3 so that the compiler knows them non-negative and
    # drops the negative-index wraparound on every array access.
    leader = declarer & 3
    n_act = 0
    restricted_lead = lead_restriction(contract, rules)
    forced = forced_discard(contract, rules)
    rng_before = U0
    for t in range(13):
        state[S_TRICK] = t
        state[S_LEADER] = leader
        for k in range(4):
            state[S_TRICK_CARDS + k] = U0
        seat = leader
        trick = U0
        led = -1
        win_card = -1
        win_seat = leader
        win_suit = -1
        top_trump = -1
        for k in range(4):
            hand = hands[seat]
            legal = legal_mask(hand, k, led, restricted_lead, forced, contract, trump, top_trump, rules)
            state[S_N_IN_TRICK] = k
            state[S_SEAT] = seat
            if record:  # only a recorded deal keeps what an error message needs: batches replay it
                rng_before = rng[0]
            card = _choose(strat_ids[seat], seat, legal, hand, state, rng, user_fns, False, explain)
            if card < 0 or card >= 52 or not ((legal >> np.uint64(card)) & U1):
                if record:
                    _keep_failed_play(legal, hand, rng_before, state, snap)
                return _error_code(seat, card)
            if track:  # what this play shows about the seat's hand, for the players that read it (mc)
                _infer_if_compiled_in(explain, state, seat, card, k, led, restricted_lead, forced, contract, trump,
                                      top_trump, rules)
            b = U1 << np.uint64(card)
            hands[seat] = hand ^ b
            trick |= b
            played |= b
            suit = card // 13
            if k == 0:
                led = suit
                win_card, win_seat, win_suit = card, seat, suit
            elif beats(card, suit, win_card, win_suit, contract, trump):
                win_card, win_seat, win_suit = card, seat, suit
            if contract == TRUMPS and suit == trump and card > top_trump:
                top_trump = card
            if suit != led:
                state[S_VOIDS + seat] |= U1 << np.uint64(led)
            state[S_TRICK_CARDS + k] = card
            state[S_PLAYED] = played
            state[S_CARDS_LEFT + seat] -= U1
            state[S_WIN_CARD] = win_card
            state[S_WIN_SEAT] = win_seat
            if record:
                rec_seat[n_act] = seat
                rec_card[n_act] = card
            n_act += 1
            seat = (seat + 1) & 3
        scores[win_seat] += trick_points(contract, t, trick)
        tricks[win_seat] += 1
        state[S_WON + win_seat] |= trick
        state[S_TRICKS_WON + win_seat] += U1
        if record:
            rec_winner[t] = win_seat
        leader = win_seat
        if hand_over(contract, played):
            break
    return n_act


@njit(cache=True, _nrt=False)
def _play_domino(hands, start, declarer, rules, strat_ids, user_fns, state, rng,
                 scores, record, rec_seat, rec_card, snap, explain):
    """Play a Domino hand; returns actions recorded (passes included), or a negative error code."""
    playable, grows_down, grows_up = domino_openers(start)
    rng_before = U0
    played = U0
    place = 0
    seat = declarer & 3  # known non-negative: no wraparound on array accesses
    n_act = 0
    while True:
        hand = hands[seat]
        if hand:
            legal = hand & playable
            if legal == U0:
                state[S_NOT_HELD + seat] |= playable  # a pass shows that no playable card is held
                if record:
                    rec_seat[n_act] = seat
                    rec_card[n_act] = PASS
                n_act += 1
            else:
                state[S_SEAT] = seat
                if record:
                    rng_before = rng[0]
                card = _choose(strat_ids[seat], seat, legal, hand, state, rng, user_fns, True, explain)
                if card < 0 or card >= 52 or not ((legal >> np.uint64(card)) & U1):
                    if record:
                        _keep_failed_play(legal, hand, rng_before, state, snap)
                    return _error_code(seat, card)
                b = U1 << np.uint64(card)
                hands[seat] = hand ^ b
                played |= b
                playable = domino_playable(playable, b, grows_down, grows_up)
                # A column is the run of its suit's played cards: its ends are the lowest and
                # highest played rank of the suit (a count of zeros each, no branch).
                suit = card // 13
                column = lane(played, suit)
                state[S_DOMINO_LOW + suit] = lowest_bit(column)
                state[S_DOMINO_HIGH + suit] = highest_bit(column)
                state[S_PLAYED] = played
                state[S_CARDS_LEFT + seat] -= U1
                if record:
                    rec_seat[n_act] = seat
                    rec_card[n_act] = card
                n_act += 1
                if hands[seat] == U0:
                    scores[seat] = rules[R_DOMINO_PAYOUT + place]
                    place += 1
                    if place == 3:
                        for s in range(4):
                            if hands[s] != U0:
                                scores[s] = rules[R_DOMINO_PAYOUT + 3]
                        return n_act
        seat = (seat + 1) & 3


@njit(cache=True, _nrt=False)
def _play_into(hands_in, contract, param, declarer, rules, strat_ids, user_fns, state, rng, hands,
               scores, tricks, record, rec_seat, rec_card, rec_winner, snap, explain):
    """Play one deal of ``contract`` from ``hands_in`` (left untouched); scores and tricks by seat."""
    for s in range(4):
        hands[s] = hands_in[s]
        scores[s] = 0
        tricks[s] = 0
    _reset_state(state, contract, param, declarer)
    if contract == DOMINO:
        return _play_domino(hands, param, declarer, rules, strat_ids, user_fns, state, rng,
                            scores, record, rec_seat, rec_card, snap, explain)
    return _play_tricks(hands, contract, param, declarer, rules, strat_ids, user_fns, state, rng,
                        scores, tricks, record, rec_seat, rec_card, rec_winner, snap, explain, _any_mc(strat_ids))


@njit(cache=True, nogil=True)
def play_one_kernel(hands_in, contract, param, declarer, rules, strat_ids, user_fns, seed, index,
                    scores, tricks, rec_seat, rec_card, rec_winner, snap, explain):
    """Play one deal with its full record; returns the number of actions, or a negative error code.

    Releases the GIL, so that a caller can run it in a thread and stay responsive to Ctrl-C.
    ``snap`` ((SNAP_SIZE,) uint64) receives what an error message needs when a play fails;
    ``explain`` ((rows, EXPLAIN_WIDTH) float64, zeroed; (0, 0) for none) the estimates of the
    decisions of ``mc`` seats (see :mod:`barbu_sim.barbu.mc`); None compiles the engine without
    the mc player (get the kernel from :func:`one_kernel`).
    """
    state = _new_state(rules)
    rng = np.empty(1, np.uint64)
    rng[0] = stream_key(seed, index, STREAM_PLAY)
    hands = np.empty(4, np.uint64)
    return _play_into(hands_in, contract, param, declarer, rules, strat_ids, user_fns, state, rng,
                      hands, scores, tricks, True, rec_seat, rec_card, rec_winner, snap, explain)


@njit(cache=True, _nrt=False)
def _play_range(seed, start, lo, hi, fixed_hands, fixed_seat, n_samples, configs, rules, strat_ids, user_fns,
                scores, tricks, params, sums, squares, errors, deck, dealt, hands, state, rng, sc, tr, dummy, no_snap,
                explain):
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
                code = _play_into(dealt, contract, param, declarer, rules, strat_ids,
                                  user_fns, state, rng, hands, sc, tr, False, dummy, dummy, dummy, no_snap,
                                  explain)
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


@njit(cache=True)
def _play_chunk(seed, start, lo, hi, fixed_hands, fixed_seat, n_samples, configs, rules, strat_ids, user_fns,
                scores, tricks, params, sums, squares, errors, explain):
    """Allocate one chunk's scratch arrays, then play its items."""
    _play_range(seed, start, lo, hi, fixed_hands, fixed_seat, n_samples, configs, rules, strat_ids, user_fns,
                scores, tricks, params, sums, squares, errors,
                np.empty(52, np.int64), np.empty(4, np.uint64), np.empty(4, np.uint64),
                _new_state(rules), np.empty(1, np.uint64), np.empty(4, np.int64),
                np.empty(4, np.int64), np.empty(1, np.int8), np.empty(1, np.uint64), explain)


@njit(cache=True, parallel=True, nogil=True)
def play_batch_kernel(seed, start, n, chunk, fixed_hands, fixed_seat, n_samples, configs, rules, strat_ids,
                      user_fns, scores, tricks, params, sums, squares, errors, workers, explain):
    """Play ``n`` work items (see :func:`_play_range`) in chunks of ``chunk``, on ``workers`` threads.

    Parameters
    ----------
    seed : uint64 run seed.  start : index of the first deal (deal batches).
    fixed_hands : (n,) uint64 hands to evaluate, or empty for a deal batch.
    fixed_seat, n_samples : the evaluated hands' seat and deals per hand.
    configs : (k, 3) int64 rows ``(contract, param, declarer)``.
    rules : the ``Rules.to_array()`` int64 array.  strat_ids, user_fns : see ``strategies.seat_strategies``.
    scores, tricks : (n, k, 4) int16 / int8, params : (n, k) int8 (deal batches; else (0, 0, 0) / (0, 0)).
    sums, squares : (n, k, 4) int64, zeroed (hand evaluation; else (0, 0, 0)).
    errors : (n,) int64, zeroed: a negative error code for an item that stopped on a failed play.
    explain : None for the engine without the mc player, an empty (0, 0) float64 array for the
        engine with it (get the kernel from :func:`batch_kernel`).

    Releases the GIL, so that a caller can run it in a thread and stay responsive to Ctrl-C.
    """
    n_chunks = (n + chunk - 1) // chunk
    next_chunk = np.zeros(1, np.int64)
    # One worker per thread, each claiming chunks until none are left (see core.atomic).
    for _ in prange(max(1, min(workers, n_chunks))):
        while True:
            k = claim(next_chunk)
            if k >= n_chunks:
                break
            lo = k * chunk
            hi = min(n, lo + chunk)
            _play_chunk(seed, start, lo, hi, fixed_hands, fixed_seat, n_samples, configs, rules, strat_ids,
                        user_fns, scores, tricks, params, sums, squares, errors, explain)


# The argument types of the two entry kernels, by engine: the explain argument is what differs.
_ONE_ARGS = (
    types.uint64[::1], types.int64, types.int64, types.int64, types.int64[::1], types.int64[::1],
    USER_FNS, types.uint64, types.uint64, types.int64[::1], types.int64[::1],
    types.int8[::1], types.int8[::1], types.int8[::1], types.uint64[::1],
)
_BATCH_ARGS = (
    types.uint64, types.int64, types.int64, types.int64, types.uint64[::1], types.int64, types.int64,
    types.int64[:, ::1], types.int64[::1], types.int64[::1], USER_FNS,
    types.int16[:, :, ::1], types.int8[:, :, ::1], types.int8[:, ::1],
    types.int64[:, :, ::1], types.int64[:, :, ::1], types.int64[::1], types.int64,
)
_EXPLAIN = types.float64[:, ::1]


def one_kernel(with_mc: bool):
    """:func:`play_one_kernel`, compiled (or loaded from numba's cache) for the engine with or without mc.

    Its ``explain`` argument must then be a (rows, EXPLAIN_WIDTH) float64 array with mc, None without.
    """
    args = _ONE_ARGS + ((_EXPLAIN if with_mc else types.none),)
    return ensure_compiled(play_one_kernel, args, "the Barbu engine with the mc player" if with_mc
                           else "the Barbu engine", "barbu-one-mc" if with_mc else "barbu-one")


def batch_kernel(with_mc: bool):
    """:func:`play_batch_kernel`, compiled (or loaded from numba's cache) for the engine with or without mc.

    Its ``explain`` argument must then be an empty (0, 0) float64 array with mc, None without.
    """
    args = _BATCH_ARGS + ((_EXPLAIN if with_mc else types.none),)
    return ensure_compiled(play_batch_kernel, args, "the Barbu batch engine with the mc player" if with_mc
                           else "the Barbu batch engine", "barbu-batch-mc" if with_mc else "barbu-batch")
