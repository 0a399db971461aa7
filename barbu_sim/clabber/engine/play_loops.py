"""The six tricks of a Clabber round and its score: the play loop the round, game and Monte Carlo
kernels share (cards as ``suit * 13 + rank``, hands as ``uint64`` masks)."""

from __future__ import annotations

import numpy as np
from numba import types
from ...core.jit import njit
from numba.extending import overload

from ...core.bits import pick
from ...core.strategies import RAISED, random_strategy
from ..players.heuristic import heuristic_strategy
from ..players.mc import MC_WORK_SIZE, begin, is_mc, mc_choose, observe, show_all_melds
from ..rules.melds import team_meld_points, team_melds
from ..rules.play_rules import OVERTRUMPS, card_points, follow_mask, power_by_trump, suit_bits
from ..rules.config import (
    C_BELL, C_CARD, C_MELD, C_MISPLAY, C_SCORE, KING, QUEEN, R_MELD_SHOW, R_MISPLAY, R_PARTNER_EXCUSE,
    ROUND_POINTS,
)
from ..state import (
    S_DEALER, S_SNAP_HAND, S_TURNED, S_SNAP_LEGAL, S_SNAP_RNG, S_LEADER, S_MAKER, S_N_IN_TRICK, S_PLAYED, S_SEAT,
    S_TEAM_POINTS, S_TOP_TRUMP, S_TRICK, S_TRICK_CARDS, S_TRICK_POINTS, S_TRUMP, S_WIN_CARD, S_WIN_SEAT,
)
from ..players.features import N_FEATURES
from ..players.learned import MAX_HIDDEN, MAX_LEGAL, learned_choose
from ..players.registry import HEURISTIC, LEARNED, RANDOM

NOT_A_CARD = 52  # in an error code: the strategy returned a value that is not a card
STRATEGY_RAISED = 53  # in an error code: the strategy raised an exception

U0 = np.uint64(0)
U1 = np.uint64(1)


# Two engines from one source: ``mcw`` (the mc player's knowledge and scratch space, see
# :mod:`barbu_sim.clabber.players.mc`) is None in the engine without the mc player and an array in
# the engine with it.  The functions below are resolved by that type when a kernel compiles, so
# the engine without mc (every command that plays no mc seat) never compiles the mc player.

# A third engine holds the learned player (and mc): its kernels' last argument is the learned player's model
# array (float32), and its ``mcw`` a tuple: the mc array (the table's knowledge, which the learned player's
# features read, and mc's scratch space), the model, and the learned player's scratch space.

def mc_work(proto):
    """A fresh mc knowledge array when ``proto`` is a uint64 array (the engine with mc); the tuple of the
    engine with the learned player when it is the model array (float32); else None."""


@overload(mc_work)
def _mc_work_impl(proto):
    if isinstance(proto, types.NoneType):
        return lambda proto: None
    if isinstance(proto, types.Array) and proto.dtype == types.float32:
        return lambda proto: (np.zeros(MC_WORK_SIZE, np.uint64), proto, np.zeros((MAX_LEGAL, N_FEATURES), np.float32),
                              np.zeros(MAX_HIDDEN, np.float32))
    return lambda proto: np.zeros(MC_WORK_SIZE, np.uint64)


def _learned_card(mcw, legal, hand, state, rng):
    """The learned player's card; in an engine without it (mc bidding's sample plays) a learned seat plays
    heuristic."""


@overload(_learned_card)
def _learned_card_impl(mcw, legal, hand, state, rng):
    if isinstance(mcw, types.BaseTuple):
        return lambda mcw, legal, hand, state, rng: learned_choose(legal, hand, state, mcw[0], mcw[1], mcw[2], mcw[3])
    return lambda mcw, legal, hand, state, rng: heuristic_strategy(legal, hand, state, rng)


def _mc_card(mcw, sid, legal, hand, state, rng):
    """mc's card; without the mc player (mc bidding's sample plays) an mc seat plays heuristic."""


@overload(_mc_card)
def _mc_card_impl(mcw, sid, legal, hand, state, rng):
    if isinstance(mcw, types.NoneType):
        return lambda mcw, sid, legal, hand, state, rng: heuristic_strategy(legal, hand, state, rng)
    if isinstance(mcw, types.BaseTuple):
        return lambda mcw, sid, legal, hand, state, rng: mc_choose(sid, legal, hand, state, mcw[0])
    return lambda mcw, sid, legal, hand, state, rng: mc_choose(sid, legal, hand, state, mcw)


def _mc_begin(mcw, dealer, turned, root):
    """A new round for the mc player's knowledge; nothing without the mc player."""


@overload(_mc_begin)
def _mc_begin_impl(mcw, dealer, turned, root):
    if isinstance(mcw, types.NoneType):
        return lambda mcw, dealer, turned, root: None
    if isinstance(mcw, types.BaseTuple):
        return lambda mcw, dealer, turned, root: begin(mcw[0], dealer, turned, root)
    return lambda mcw, dealer, turned, root: begin(mcw, dealer, turned, root)


def _mc_show_all_melds(mcw, dealt):
    """Every seat's melds shown before the lead, for mc's knowledge (meld-show=at-once); nothing without mc."""


@overload(_mc_show_all_melds)
def _mc_show_all_melds_impl(mcw, dealt):
    if isinstance(mcw, types.NoneType):
        return lambda mcw, dealt: None
    if isinstance(mcw, types.BaseTuple):
        return lambda mcw, dealt: show_all_melds(mcw[0], dealt)
    return lambda mcw, dealt: show_all_melds(mcw, dealt)


def _mc_observe(mcw, seat, card, hand, k, led, trump, top_trump, excused, played, trick):
    """Record what a play shows (for mc); nothing without the mc player."""


@overload(_mc_observe)
def _mc_observe_impl(mcw, seat, card, hand, k, led, trump, top_trump, excused, played, trick):
    if isinstance(mcw, types.NoneType):
        return lambda mcw, seat, card, hand, k, led, trump, top_trump, excused, played, trick: None

    if isinstance(mcw, types.BaseTuple):
        def impl_tuple(mcw, seat, card, hand, k, led, trump, top_trump, excused, played, trick):
            observe(mcw[0], seat, card, hand, k, led, trump, top_trump, excused, played, trick)
        return impl_tuple

    def impl(mcw, seat, card, hand, k, led, trump, top_trump, excused, played, trick):
        observe(mcw, seat, card, hand, k, led, trump, top_trump, excused, played, trick)
    return impl


@njit(inline="always", cache=True)
def _choose(sid, seat, legal, hand, state, rng, user_fns, mcw):
    if sid == HEURISTIC:
        return heuristic_strategy(legal, hand, state, rng)
    if sid == RANDOM:
        return random_strategy(legal, hand, state, rng)
    if is_mc(sid):  # the samples in the higher bits (players.mc.MC_ID)
        return _mc_card(mcw, sid, legal, hand, state, rng)
    if sid == LEARNED:
        return _learned_card(mcw, legal, hand, state, rng)
    return user_fns[seat](legal, hand, state, rng)


@njit(cache=True, _nrt=False)
def play_into(dealt, hands, trump, maker, dealer, rules, strat_ids, user_fns, state, rng, out,
              record, rec_plays, rec_winners, mcw):
    """Play the six tricks and score the round into ``out`` (a ``ROUND_COLUMNS`` row).

    Returns 0, or the negative code ``-(1 + seat + 4 * card)`` of an illegal card (card
    ``NOT_A_CARD``: not a card; ``STRATEGY_RAISED``: the strategy raised an exception) when the
    rules say ``misplay=error``; then ``state`` (``STATE_ARRAY_SIZE`` entries) holds what the
    strategy was called with (``S_SNAP_*``).  The caller clears the state's per-round fields
    (those before ``S_RULES``) and sets the turned card and bidding round first.  ``mcw``: None,
    or the mc player's array (see the two engines above).
    """
    for s in range(4):
        hands[s] = dealt[s]
    state[S_TRUMP] = trump
    state[S_MAKER] = maker
    state[S_DEALER] = dealer
    king = 13 * trump + KING
    queen = 13 * trump + QUEEN
    bell_pair = (U1 << np.uint64(king)) | (U1 << np.uint64(queen))
    bell_seat = -1
    for s in range(4):
        if dealt[s] & bell_pair == bell_pair:
            bell_seat = s
    pts0 = 0
    pts1 = 0
    played = U0
    partner_excuse = rules[R_PARTNER_EXCUSE] != 0
    trump_bits = suit_bits(trump)
    track = False  # whether a strategy reads the state: random players do not (stores cost 10-15%)
    for s in range(4):
        track |= strat_ids[s] != RANDOM
    leader = (dealer + 1) & 3
    _mc_begin(mcw, dealer, np.int64(state[S_TURNED]), rng[0])
    if rules[R_MELD_SHOW] == 1:
        _mc_show_all_melds(mcw, dealt)
    n_act = 0
    for t in range(6):
        state[S_TRICK] = t
        state[S_LEADER] = leader
        seat = leader
        led_bits = U0
        contenders = U0  # the cards that can win the trick: the led suit's and the trumps
        over = trump_bits  # the trumps that beat the trick's highest trump (all of them while it has none)
        win_card = -1
        win_seat = leader
        win_power = -1
        top_trump = -1
        led = -1
        tp = 0
        for k in range(4):
            hand = hands[seat]
            if k == 0:
                legal = hand
                excused = False
            else:
                excused = partner_excuse & (win_seat == (seat ^ 2))
                legal = follow_mask(hand, led_bits, trump_bits, over, excused)
            if track:
                state[S_SEAT] = seat
                state[S_N_IN_TRICK] = k
            rng_before = rng[0]
            card = _choose(strat_ids[seat], seat, legal, hand, state, rng, user_fns, mcw)
            if card < 0 or card >= 52 or not ((legal >> np.uint64(card)) & U1):
                state[S_SNAP_LEGAL] = legal  # what the strategy was called with, for the error message
                state[S_SNAP_HAND] = hand
                state[S_SNAP_RNG] = rng_before
                if card == RAISED:  # the strategy raised: an error under any misplay rule
                    return -(1 + seat + 4 * STRATEGY_RAISED)
                if rules[R_MISPLAY] == 0:
                    return -(1 + seat + 4 * (card if 0 <= card < 52 else NOT_A_CARD))
                _misplay(dealt, trump, seat, out)
                return 0
            _mc_observe(mcw, seat, card, hand, k, led, trump, top_trump, excused, played, t)
            b = U1 << np.uint64(card)
            hands[seat] = hand ^ b
            played |= b
            if k == 0:
                led = card // 13
                led_bits = suit_bits(led)
                contenders = led_bits | trump_bits
            # The trick so far, without branches (random cards would mispredict them).
            p = pick((contenders & b) != U0, power_by_trump(card, trump), 0)
            better = p > win_power
            trumped = better & ((trump_bits & b) != U0)
            top_trump = pick(trumped, card, top_trump)
            over = pick(trumped, OVERTRUMPS[card], over)
            win_card = pick(better, card, win_card)
            win_seat = pick(better, seat, win_seat)
            win_power = pick(better, p, win_power)
            tp += card_points(card, trump)
            if track:
                state[S_TRICK_CARDS + k] = card
                state[S_PLAYED] = played
                state[S_WIN_CARD] = win_card
                state[S_WIN_SEAT] = win_seat
                state[S_TOP_TRUMP] = top_trump % 13 + 1 if top_trump >= 0 else 0
                state[S_TRICK_POINTS] = tp
            if record:
                rec_plays[n_act, 0] = seat
                rec_plays[n_act, 1] = card
            n_act += 1
            seat = (seat + 1) & 3
        if t == 5:
            tp += 10
        odd = win_seat & 1
        pts1 += tp * odd
        pts0 += tp * (1 - odd)
        state[S_TEAM_POINTS] = pts0
        state[S_TEAM_POINTS + 1] = pts1
        if record:
            rec_winners[t] = win_seat
        leader = win_seat
    # The bell: a round that ends normally has seen every card, so its holder has played both.
    bell0 = 20 if bell_seat >= 0 and bell_seat & 1 == 0 else 0
    bell1 = 20 if bell_seat >= 0 and bell_seat & 1 == 1 else 0
    m0, m1, _, _ = team_melds(dealt, trump, rules)
    out[C_MELD] = m0
    out[C_MELD + 1] = m1
    out[C_CARD] = pts0
    out[C_CARD + 1] = pts1
    out[C_BELL] = bell0
    out[C_BELL + 1] = bell1
    total0 = pts0 + out[C_MELD] + bell0
    total1 = pts1 + out[C_MELD + 1] + bell1
    makers = maker & 1
    out[C_SCORE] = total0 if (makers == 1 or total0 > total1) else 0
    out[C_SCORE + 1] = total1 if (makers == 0 or total1 > total0) else 0
    return 0


@njit(cache=True, _nrt=False)
def _misplay(dealt, trump, seat, out):
    """The penalty of an illegal card: the round ends, the opponents score 162 plus all their melds."""
    _, _, raw0, raw1 = team_meld_points(dealt, trump)
    other = 1 - (seat & 1)
    raw_other = raw0 if other == 0 else raw1
    for j in range(2):
        out[C_CARD + j] = ROUND_POINTS if j == other else 0
        out[C_MELD + j] = raw_other if j == other else 0
        out[C_BELL + j] = 0
        out[C_SCORE + j] = ROUND_POINTS + raw_other if j == other else 0
    out[C_MISPLAY] = seat
