"""Finishing a Clabber round from any position, one card at a time, with ``heuristic`` at every seat.

The Monte-Carlo card player (:mod:`barbu_sim.clabber.players.mc`) asks, for each candidate card and
each sampled layout of the unseen cards, "what does my team score if I play this card now and
everybody then plays ``heuristic``?".  :func:`step` plays one card into a state array exactly as
the engine's play loop (:mod:`barbu_sim.clabber.engine.play_loops`) keeps it, so that the heuristic sees what
it would see in a real round; :func:`rollout` finishes the round and :func:`round_scores` scores
it as the rules do.  ``tests/test_clabber_mc.py`` checks, card by card, that a replay of a recorded
round and a rollout from its first card play the engine's round.
"""

import numpy as np
from ...core.jit import njit

from .heuristic import heuristic_strategy
from ..rules.melds import team_melds
from ..rules.play_rules import card_points, legal_mask, power_by_trump
from ..rules.config import KING, QUEEN, R_PARTNER_EXCUSE, RULES_ARRAY_SIZE
from ..state import (
    S_LEADER, S_MAKER, S_N_IN_TRICK, S_PLAYED, S_RULES, S_SEAT, S_TEAM_POINTS, S_TOP_TRUMP, S_TRICK, S_TRICK_CARDS,
    S_TRICK_POINTS, S_TRUMP, S_WIN_CARD, S_WIN_SEAT,
)

U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(inline="always", cache=True)
def trick_view(state):
    """``(led suit, top trump card or -1, excused)`` of the trick in ``state`` for the seat to play."""
    trump = np.int64(state[S_TRUMP])
    top = np.int64(state[S_TOP_TRUMP])
    seat = np.int64(state[S_SEAT])
    excused = state[S_RULES + R_PARTNER_EXCUSE] != U0 and np.int64(state[S_WIN_SEAT]) == (seat ^ 2)
    return np.int64(state[S_TRICK_CARDS]) // 13, (13 * trump + top - 1) if top > 0 else -1, excused


@njit(cache=True, _nrt=False)
def legal_now(hand, state):
    """The legal cards of ``hand`` for the seat to play in ``state``."""
    k = np.int64(state[S_N_IN_TRICK])
    if k == 0:
        return hand
    led, top, excused = trick_view(state)
    return legal_mask(hand, k, led, np.int64(state[S_TRUMP]), top, excused)


@njit(cache=True, _nrt=False)
def step(state, hands, card):
    """Play ``card`` for the seat to play: update ``hands`` and ``state`` as the engine's play loop does."""
    seat = np.int64(state[S_SEAT])
    k = np.int64(state[S_N_IN_TRICK])
    trump = np.int64(state[S_TRUMP])
    b = U1 << np.uint64(card)
    hands[seat] ^= b
    state[S_PLAYED] |= b
    state[S_TRICK_CARDS + k] = card
    tp = card_points(card, trump)
    if k == 0:
        win = True
    else:
        tp += np.int64(state[S_TRICK_POINTS])
        led = np.int64(state[S_TRICK_CARDS]) // 13
        win_card = np.int64(state[S_WIN_CARD])
        s = card // 13
        win = (s == trump or s == led) and power_by_trump(card, trump) > power_by_trump(win_card, trump)
    if win:
        state[S_WIN_CARD] = card
        state[S_WIN_SEAT] = seat
        if card // 13 == trump:
            state[S_TOP_TRUMP] = card % 13 + 1
        elif k == 0:
            state[S_TOP_TRUMP] = 0
    state[S_TRICK_POINTS] = tp
    if k < 3:
        state[S_N_IN_TRICK] = k + 1
        state[S_SEAT] = (seat + 1) & 3
        return
    t = np.int64(state[S_TRICK])
    if t == 5:
        tp += 10
    winner = np.int64(state[S_WIN_SEAT])
    state[S_TEAM_POINTS + (winner & 1)] += np.uint64(tp)
    state[S_TRICK] = t + 1
    state[S_LEADER] = winner
    state[S_SEAT] = winner
    state[S_N_IN_TRICK] = 0


@njit(cache=True, _nrt=False)
def round_scores(state, dealt):
    """``(N+S, E+W)`` round scores once the six tricks in ``state`` are played, ``dealt`` the hands as dealt."""
    trump = np.int64(state[S_TRUMP])
    pair = (U1 << np.uint64(13 * trump + KING)) | (U1 << np.uint64(13 * trump + QUEEN))
    m0, m1, _, _ = team_melds(dealt, trump, state[S_RULES:S_RULES + RULES_ARRAY_SIZE])  # the meld ranking in force
    total0 = np.int64(state[S_TEAM_POINTS]) + m0
    total1 = np.int64(state[S_TEAM_POINTS + 1]) + m1
    for s in range(4):
        if dealt[s] & pair == pair:
            if s & 1:
                total1 += 20
            else:
                total0 += 20
    makers = np.int64(state[S_MAKER]) & 1
    return (total0 if (makers == 1 or total0 > total1) else 0), (total1 if (makers == 0 or total1 > total0) else 0)


@njit(cache=True, _nrt=False)
def rollout(state, hands, first_card):
    """Finish the round from ``state``: the seat to play plays ``first_card`` (-1: heuristic's
    choice), then ``heuristic`` plays every card.  ``state`` and ``hands`` are scratch copies."""
    card = first_card
    while np.int64(state[S_TRICK]) < 6:
        if card < 0:
            hand = hands[np.int64(state[S_SEAT])]
            card = heuristic_strategy(legal_now(hand, state), hand, state, hands[:0])
        step(state, hands, card)
        card = -1
