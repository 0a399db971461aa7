"""The numba play loops: the state array, one deal of a trick contract or of Domino, the players' switch.

The entry kernels that call these loops, one deal with its record and the batch driver (run on
several threads), are in :mod:`barbu_sim.barbu.engine.deal_kernels`.  The loops are compiled in three engines from
this one source: without the strong players, with mc (and learned), and with learned alone, told apart
by the type of their ``explain`` argument (None, a float64 array, a float32 array): see
:func:`_mc_if_compiled_in`.

Compile time: numba's own inliner (``inline="always"``) re-types and re-inlines a function's
body at every call site, which cost about 30 s per play loop when every small helper used
it.  Only the players' switch (``_choose_trick``, ``_choose_domino``, ``_choose_calling``) and the heuristic's
body in the engine without the strong players are inlined that way, for speed (see :func:`_heuristic_inlined`),
and the two one-call overloads that reach the strong players, for compile time (see :func:`_mc_if_compiled_in`);
the small helpers (bits, random numbers, play rules, dealing) are plain calls that LLVM
inlines at a fraction of the compile time, with no measured loss of speed.
"""

from __future__ import annotations

import numpy as np
from numba import types
from ...core.jit import njit
from numba.extending import overload

from ...core.strategies import RAISED, lowest_strategy, random_strategy
from ..players.basic import basic_domino, basic_tricks
from ..players.heuristic import heuristic_domino, heuristic_domino_card, heuristic_trick_card, heuristic_tricks
from ..players.mc.player import infer_not_held, mc_choose, record_play
from ..rules.play_rules import (
    domino_ace_low, domino_position, domino_start, forced_discard, hand_over, lead_restriction, legal_mask, trick_value,
)
from ..rules.config import DOMINO, RULES_ARRAY_SIZE
from ..state import (
    PASS, S_CARDS_LEFT, S_CONTRACT, S_DECLARER, S_DOMINO_HIGH, S_DOMINO_LOW, S_LEADER, S_N_IN_TRICK, S_PARAM,
    S_NOT_HELD, S_RULES, S_SEAT, S_TRICK, S_TRICK_CARDS, S_TRICKS_WON, S_WON, STATE_SIZE,
)
from ..players.full_state import FULL_STATE_SIZE, LEARNED_AT
from ..players.learned import learned_choose
from ..players.ids import BASIC, HEURISTIC, LOWEST, RANDOM, is_learned, is_mc, learned_slot
from ..players.trick_step import pay_domino_out, play_domino_card, play_into_trick

U0 = np.uint64(0)
U1 = np.uint64(1)

assert S_RULES + RULES_ARRAY_SIZE <= STATE_SIZE, "the rules must fit at the end of the state array"

MAX_ACTIONS = 256  # Domino: at most 52 plays and, per play, 3 passes
NOT_A_CARD = 52  # in an error code: the strategy returned a value that is not a card
STRATEGY_RAISED = 53  # in an error code: the strategy raised an exception
# What a failed play leaves for the error message: the state array, then legal, hand and the rng state.
SNAP_LEGAL = STATE_SIZE
SNAP_HAND = STATE_SIZE + 1
SNAP_RNG = STATE_SIZE + 2
SNAP_SIZE = STATE_SIZE + 3


@njit(inline="always", cache=True)
def _choose_trick(sid, seat, legal, hand, state, rng, user_fns, model, explain):
    """A trick card, the heuristic's body inlined (the trick loop of the engine without the strong players)."""
    if sid == HEURISTIC:
        return heuristic_tricks(legal, hand, state, rng)
    return _choose_other(sid, seat, legal, hand, state, rng, user_fns, False, model, explain)


@njit(inline="always", cache=True)
def _choose_domino(sid, seat, legal, hand, state, rng, user_fns, model, explain):
    """A Domino card, the heuristic's body inlined (the Domino loop of the engine without the strong players)."""
    if sid == HEURISTIC:
        return heuristic_domino(legal, hand, state, rng)
    return _choose_other(sid, seat, legal, hand, state, rng, user_fns, True, model, explain)


@njit(inline="always", cache=True)
def _choose_calling(sid, seat, legal, hand, state, rng, user_fns, domino, model, explain):
    """A card in the engines with learned or mc: the heuristic's halves called (see :func:`_heuristic_inlined`)."""
    if sid == HEURISTIC:
        if domino:
            return heuristic_domino_card(legal, hand, state, rng)
        return heuristic_trick_card(legal, hand, state, rng)
    return _choose_other(sid, seat, legal, hand, state, rng, user_fns, domino, model, explain)


@njit(inline="always", cache=True)
def _choose_other(sid, seat, legal, hand, state, rng, user_fns, domino, model, explain):
    """A card of any player but the heuristic."""
    if sid == BASIC:
        return basic_domino(legal, hand, state, rng) if domino else basic_tricks(legal, hand, state, rng)
    if sid == RANDOM:
        return random_strategy(legal, hand, state, rng)
    if sid == LOWEST:
        return lowest_strategy(legal, hand, state, rng)
    if is_mc(sid):  # parameters in the higher bits (see mc.params.MC_ID); a call, not inlined: it is big
        return _mc_if_compiled_in(sid, legal, hand, state, rng, explain, model)
    if is_learned(sid):  # the slot of its model in the higher bits (learned or learned1)
        return _learned_if_compiled_in(legal, hand, state, rng, model, explain, learned_slot(sid))
    return user_fns[seat](legal, hand, state, rng)


# Three engines from one source: ``explain`` is None in the engine without the strong players
# (what built-in and plugin players need: it compiles in a fraction of the time), a float64
# array in the engine with mc (and learned, for tables that mix them), and a float32 array in
# the engine with learned alone.  These functions are resolved by that type when a kernel
# compiles, so an engine never compiles a player it cannot meet.


def _heuristic_inlined(explain):
    """0 in the engine without the strong players, None in the others: the play loops' ``inlined`` argument.

    Which player switch a loop compiles is chosen by argument types, as numba prunes a branch ``if x is None``
    by the type of the argument ``x`` before it types the loop, and prunes nothing else there (not a literal
    passed to an inlined function, not an array tested against None).  ``explain is None`` keeps, in the engine
    without the strong players, only the switch with the heuristic's body inlined (the headline speed: called,
    the heuristic plays 8% slower); ``inlined is None`` keeps, in the other engines, only the switch that calls
    the heuristic's halves compiled once for the learned player's features (inlined again there, they cost each
    engine about 15 s of compile, for no speed measured at their tables).
    """


@overload(_heuristic_inlined)
def _heuristic_inlined_impl(explain):
    if isinstance(explain, types.NoneType):
        return lambda explain: 0
    return lambda explain: None


def _has_mc(explain):
    """True (at compile time) for the engine with the mc player: ``explain`` a float64 array."""
    return not isinstance(explain, types.NoneType) and explain.dtype == types.float64

def _mc_if_compiled_in(sid, legal, hand, state, rng, explain, model):
    """mc's card (see :func:`barbu_sim.barbu.players.mc.player.mc_choose`); -1 in the engine compiled without mc."""


# Inlined (inline="always"), these two overloads' bodies are one call each: compiled as functions of their own,
# each was one more level that numba optimises with everything below it linked in (1.2 s of mc's compile).
@overload(_mc_if_compiled_in, inline="always")
def _mc_if_compiled_in_impl(sid, legal, hand, state, rng, explain, model):
    if not _has_mc(explain):
        return lambda sid, legal, hand, state, rng, explain, model: -1  # never reached: the API picks the mc engine
    return lambda sid, legal, hand, state, rng, explain, model: mc_choose(sid, legal, hand, state, rng, explain,
                                                                          model)


def _learned_if_compiled_in(legal, hand, state, rng, model, explain, slot):
    """The learned player's card by the model in ``slot`` (see :mod:`barbu_sim.barbu.players.learned`); -1 in the
    engine compiled without it."""


@overload(_learned_if_compiled_in, inline="always")
def _learned_if_compiled_in_impl(legal, hand, state, rng, model, explain, slot):
    if isinstance(explain, types.NoneType):
        # never reached: the API picks the strong engine
        return lambda legal, hand, state, rng, model, explain, slot: -1
    return lambda legal, hand, state, rng, model, explain, slot: learned_choose(legal, hand, state, rng, model,
                                                                                np.int64(LEARNED_AT), np.int64(slot))


def _infer_if_compiled_in(explain, state, seat, card, k, led, restricted_lead, forced, contract, trump, top_trump,
                          rules):
    """Record what a play shows about the seat's hand (for mc); nothing in the engine without mc."""


@overload(_infer_if_compiled_in)
def _infer_if_compiled_in_impl(explain, state, seat, card, k, led, restricted_lead, forced, contract, trump,
                               top_trump, rules):
    if not _has_mc(explain):
        return lambda explain, state, seat, card, k, led, restricted_lead, forced, contract, trump, top_trump, \
            rules: None

    def infer(explain, state, seat, card, k, led, restricted_lead, forced, contract, trump, top_trump, rules):
        record_play(state, card)
        infer_not_held(state, seat, card, k, led, restricted_lead, forced, contract, trump, top_trump, rules)
    return infer


@njit(inline="always", cache=True)
def _any_mc(strat_ids):
    """True when a seat plays mc: the play loops then record what each play shows (for mc).

    A function returning a plain bool, so that ``_play_tricks`` is compiled once: a flag
    built up from a literal ``False`` makes numba compile the callee for both types.
    """
    for s in range(4):
        if is_mc(strat_ids[s]):
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
def new_state(rules):
    """A zeroed strategy state array holding ``rules``.

    A batch has one rule set, so the rules are copied once per state array here,
    and :func:`_reset_state` leaves them in place between deals.  The array goes on
    past ``STATE_SIZE`` with the scratch space of the ``mc`` player, then the ``learned`` player's
    (:mod:`barbu_sim.barbu.players.full_state`).
    """
    state = np.zeros(FULL_STATE_SIZE, np.uint64)
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
                 scores, tricks, record, rec_seat, rec_card, rec_winner, snap, model, explain, track, inlined):
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
            if explain is None:  # the engine without the strong players (see _heuristic_inlined)
                if inlined is None:  # never true here: it keeps _choose_trick out of the engines with learned or mc
                    card = -1
                else:
                    card = _choose_trick(strat_ids[seat], seat, legal, hand, state, rng, user_fns, model, explain)
            else:
                card = _choose_calling(strat_ids[seat], seat, legal, hand, state, rng, user_fns, False, model, explain)
            if card < 0 or card >= 52 or not ((legal >> np.uint64(card)) & U1):
                if record:
                    _keep_failed_play(legal, hand, rng_before, state, snap)
                return _error_code(seat, card)
            if track:  # what this play shows about the seat's hand, for the players that read it (mc)
                _infer_if_compiled_in(explain, state, seat, card, k, led, restricted_lead, forced, contract, trump,
                                      top_trump, rules)
            played, trick, led, win_card, win_seat, win_suit, top_trump = play_into_trick(
                hands, state, seat, k, card, played, trick, led, win_card, win_seat, win_suit, top_trump,
                contract, trump)
            if record:
                rec_seat[n_act] = seat
                rec_card[n_act] = card
            n_act += 1
            seat = (seat + 1) & 3
        scores[win_seat] += trick_value(contract, t, trick, rules)
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
                 scores, record, rec_seat, rec_card, snap, model, explain, inlined):
    """Play a Domino hand; returns actions recorded (passes included), or a negative error code."""
    ace_low = domino_ace_low(rules)
    playable, grows_down, grows_up, wrap_down, wrap_up = domino_position(start, U0, ace_low)  # nothing played yet
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
                if explain is None:  # as in _play_tricks
                    if inlined is None:
                        card = -1
                    else:
                        card = _choose_domino(strat_ids[seat], seat, legal, hand, state, rng, user_fns, model, explain)
                else:
                    card = _choose_calling(strat_ids[seat], seat, legal, hand, state, rng, user_fns, True, model,
                                           explain)
                if card < 0 or card >= 52 or not ((legal >> np.uint64(card)) & U1):
                    if record:
                        _keep_failed_play(legal, hand, rng_before, state, snap)
                    return _error_code(seat, card)
                played, playable = play_domino_card(hands, state, seat, card, played, playable, grows_down, grows_up,
                                                    wrap_down, wrap_up, ace_low)
                if record:
                    rec_seat[n_act] = seat
                    rec_card[n_act] = card
                n_act += 1
                place = pay_domino_out(hands, seat, place, scores, rules)
                if place == 3:
                    return n_act
        seat = (seat + 1) & 3


@njit(cache=True, _nrt=False)
def play_into(hands_in, contract, param, declarer, rules, strat_ids, user_fns, state, rng, hands,
               scores, tricks, record, rec_seat, rec_card, rec_winner, snap, model, explain):
    """Play one deal of ``contract`` from ``hands_in`` (left untouched); scores and tricks by seat."""
    for s in range(4):
        hands[s] = hands_in[s]
        scores[s] = 0
        tricks[s] = 0
    if contract == DOMINO:
        param = domino_start(param, rules)  # under domino-start=fixed:R every hand starts from R
    _reset_state(state, contract, param, declarer)
    if contract == DOMINO:
        return _play_domino(hands, param, declarer, rules, strat_ids, user_fns, state, rng,
                            scores, record, rec_seat, rec_card, snap, model, explain, _heuristic_inlined(explain))
    return _play_tricks(hands, contract, param, declarer, rules, strat_ids, user_fns, state, rng,
                        scores, tricks, record, rec_seat, rec_card, rec_winner, snap, model, explain,
                        _any_mc(strat_ids), _heuristic_inlined(explain))
