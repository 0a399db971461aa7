"""The ``mc[:samples]`` bidding policy: bid by Monte Carlo, playing the round out on sample deals.

A player deciding whether to say "play" in round one deals the unseen cards at random around
their own hand (the turned card with the dealer) ``samples`` times and plays each sample twice:
once as makers with the turned suit, once passing, the bidding then going on by the other
players' policies (an ``mc`` player in these inner deals bids ``threshold``) with this player
passing throughout.  They accept when the mean of (own team's round score - opponents') is
higher playing.  In round two they name the suit with the highest such mean if it beats passing.
The samples are not conditioned on the earlier players' passes (a simplification), and in these
sample plays a seat with ``mc`` card play plays ``heuristic`` (an mc decision inside every sample
deal would cost samples times more).  The draws
come from the round's own evaluation stream, so results stay reproducible per ``(seed, round)``.

Two sets of kernels from one source: a kernel's ``mc_bids`` argument is None unless a seat bids
``mc`` (the API decides from the seats), and :func:`bid_workspace` and :func:`mc_bid_if_compiled_in`
are resolved by that type when the kernel compiles, so a command whose seats bid otherwise never
compiles :func:`mc_bid` (half of the default Clabber engine's compile time).
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from ...core.by_seat import add_at, value_at
from ...core.jit import njit

from ...core.rng import (
    STREAM_CLABBER_BID as STREAM_BID, STREAM_CLABBER_EVAL as STREAM_EVAL, STREAM_CLABBER_PLAY as STREAM_PLAY,
    stream_key,
)
from ..players.bidding import DEFAULT_THRESHOLD, MC, THRESHOLD, accepts, names
from .deals import deal_around_into
from .play_loops import play_into
from ..rules.play_rules import suit_bits
from ..rules.config import C_SCORE, N_ROUND_COLUMNS
from ..state import S_RULES, STATE_ARRAY_SIZE

U0 = np.uint64(0)
FAILED = -1000  # mc_bid returns FAILED + the error code when a strategy failed in a sample play


@njit(cache=True, _nrt=False)
def bid_rest(hands, turned, dealer, bid_ids, bid_params, rng, first_round, first_k, silent):
    """The bidding from speaker ``first_k`` of round ``first_round`` on, ``silent`` always passing.

    ``mc`` players bid ``threshold`` here.  Returns ``16 * round + 4 * maker + trump``, or 0.
    """
    ts = turned // 13
    for rnd in range(first_round, 3):
        for k in range(first_k if rnd == first_round else 0, 4):
            seat = (dealer + 1 + k) & 3
            if seat == silent:
                continue
            pid = bid_ids[seat]
            param = bid_params[seat]
            if pid == MC:
                pid, param = THRESHOLD, DEFAULT_THRESHOLD
            if rnd == 1:
                if accepts(pid, param, hands[seat], ts, rng):
                    return 16 + 4 * seat + ts
            else:
                s = names(pid, param, hands[seat], ts, rng)
                if s >= 0:
                    return 32 + 4 * seat + s
    return 0


@njit(cache=True)
def new_workspace(rules):
    """Scratch arrays for :func:`mc_bid` (state, rng, pack, dealt, hands, row), allocated once per chunk."""
    state = np.zeros(STATE_ARRAY_SIZE, np.uint64)
    for i in range(rules.shape[0]):
        state[S_RULES + i] = np.uint64(rules[i])
    return (state, np.empty(1, np.uint64), np.empty(24, np.int64), np.empty(4, np.uint64), np.empty(4, np.uint64),
            np.zeros(N_ROUND_COLUMNS, np.int64))


def bid_workspace(rules, mc_bids):
    """The workspace of :func:`mc_bid` (a :func:`new_workspace`) when ``mc_bids`` is an array (a kernel
    compiled with mc bidding); None when ``mc_bids`` is None (a kernel without it)."""


@overload(bid_workspace)
def _bid_workspace_impl(rules, mc_bids):
    if isinstance(mc_bids, types.NoneType):
        return lambda rules, mc_bids: None
    return lambda rules, mc_bids: new_workspace(rules)


@njit(cache=True, _nrt=False)
def _net(row, team):
    return row[C_SCORE + team] - row[C_SCORE + 1 - team]


@njit(cache=True, _nrt=False)
def mc_bid(hand, seat, turned, dealer, round_two, samples, key, index, rules, bid_ids, bid_params, strat_ids,
           user_fns, ws, d2, d1):
    """Round one: 1 to play, -1 to pass.  Round two: the suit to name, or -1 to pass.

    ``ws``: a :func:`new_workspace`; ``d2``, ``d1``: unused record arrays of play_into.  When a
    strategy fails in a sample play, returns ``FAILED`` plus the play's error code (the workspace's
    state then holds what the strategy was called with).
    """
    state, rng, pack, dealt, hands, row = ws
    ekey = stream_key(key, np.uint64(index) * np.uint64(8) + np.uint64(seat + 4 * round_two), STREAM_EVAL)
    ts = turned // 13
    team = seat & 1
    k_me = (seat - dealer - 1) & 3
    net0 = net1 = net2 = net3 = net_pass = 0  # by trump suit named (round one: the turned suit), and passing
    for k in range(samples):
        deal_around_into(ekey, k, hand, seat, turned, dealer, pack, dealt, rng)
        for s in range(4):
            if (round_two == 0 and s != ts) or (round_two == 1 and (s == ts or hand & suit_bits(s) == U0)):
                continue
            for i in range(S_RULES):
                state[i] = U0
            rng[0] = stream_key(ekey, np.uint64(k), STREAM_PLAY)
            code = play_into(dealt, hands, s, seat, dealer, rules, strat_ids, user_fns, state, rng, row,
                             np.bool_(False), d2, d1, None)
            if code < 0:
                return FAILED + code
            net0, net1, net2, net3 = add_at(net0, net1, net2, net3, s, _net(row, team))
        rng[0] = stream_key(ekey, np.uint64(k), STREAM_BID)
        code = bid_rest(dealt, turned, dealer, bid_ids, bid_params, rng, 1 + round_two, k_me + 1, seat)
        if code:
            for i in range(S_RULES):
                state[i] = U0
            rng[0] = stream_key(ekey, np.uint64(k), STREAM_PLAY)
            code = play_into(dealt, hands, code & 3, (code >> 2) & 3, dealer, rules, strat_ids, user_fns, state, rng,
                             row, np.bool_(False), d2, d1, None)
            if code < 0:
                return FAILED + code
            net_pass += _net(row, team)
    best, best_net = -1, net_pass
    for s in range(4):
        if (round_two == 0 and s == ts) or (round_two == 1 and s != ts and hand & suit_bits(s) != U0):
            v = value_at(net0, net1, net2, net3, s)
            if v > best_net:
                best, best_net = s, v
    if round_two == 0:
        return 1 if best >= 0 else -1
    return best


def mc_bid_if_compiled_in(hand, seat, turned, dealer, round_two, samples, key, index, rules, bid_ids, bid_params,
                          strat_ids, user_fns, ws, state, d2, d1):
    """:func:`mc_bid`'s call, and on a failed sample play the workspace's state copied into ``state`` (what the
    strategy was called with, for the caller's message).  With ``ws`` None (a kernel compiled without mc
    bidding) -1, a pass: never reached, the API gives a kernel with mc bidding whenever a seat bids ``mc``."""


@overload(mc_bid_if_compiled_in)
def _mc_bid_if_compiled_in_impl(hand, seat, turned, dealer, round_two, samples, key, index, rules, bid_ids,
                                bid_params, strat_ids, user_fns, ws, state, d2, d1):
    if isinstance(ws, types.NoneType):
        def without(hand, seat, turned, dealer, round_two, samples, key, index, rules, bid_ids, bid_params, strat_ids,
                    user_fns, ws, state, d2, d1):
            return -1
        return without

    def with_mc(hand, seat, turned, dealer, round_two, samples, key, index, rules, bid_ids, bid_params, strat_ids,
                user_fns, ws, state, d2, d1):
        v = mc_bid(hand, seat, turned, dealer, round_two, samples, key, index, rules, bid_ids, bid_params, strat_ids,
                   user_fns, ws, d2, d1)
        if v <= FAILED:
            for i in range(STATE_ARRAY_SIZE):
                state[i] = ws[0][i]
        return v
    return with_mc
