"""One layout's values of the mc player's candidate cards, and early stopping between them.

- :func:`layout_values`: sample layout ``k`` of a decision and value every candidate card
  in it (a rollout, or exact search near the end): the unit of work of
  :func:`barbu_sim.barbu.players.mc.player.mc_estimates` and of the race;
- :func:`race`: the same layouts, one at a time, with paired confidence bounds between
  the cards still in play, so that a card shown worse than the best drops out at once and
  the decision ends when one card is left (``mc:early=Z``).

Layout ``k`` of a decision and its rollouts draw from the counter-based stream
``(key, k)``: whichever function values it, and for every card, it is the same layout.
"""

import numpy as np
from ....core.jit import njit

from ....core.bits import lowest_bit, popcount
from ....core.rng import STREAM_MC, next_u64, stream_key
from ..endgame import TT_WORDS, new_search, solve_cards, solve_domino_cards, solve_from_trick
from .layouts import (
    W_ALLOWED, W_CAP, W_CROSS, W_HANDS, W_LAYOUT, W_LAYOUT_SUMS, W_RNG, W_RULES, W_SCORES, W_STATE, W_TT,
    W_VALUES, W_WEIGHTS, ROLLOUT_STATE_SIZE, layout_weight, policy_weight, sample_layout,
)
from ..rollout import rollout_domino, rollout_tricks
from ...rules.config import DOMINO, RULES_ARRAY_SIZE
from ...state import S_CONTRACT, S_LEADER, S_PARAM, S_PLAYED, S_RULES, S_SEAT, S_TRICK, STATE_SIZE
from ..ids import RANDOM

U1 = np.uint64(1)
PRIOR = 2.0  # layouts' worth of the unpaired variance in each paired one (see race_drop)
SLOTS = 13  # candidate cards at most: the rows of the W_CROSS matrix


@njit(cache=True, _nrt=False)
def exact_from(state, contract, endgame, tail):
    """(every card searched exactly, the trick the rollouts stop at for the tail search; 13: none)."""
    left = 13 - np.int64(state[S_TRICK])
    exact = left <= max(endgame, tail)  # a tail that covers the hand searches it all
    if contract == DOMINO:  # Domino has no tricks: as many cards as that many tricks hold
        exact = 52 - popcount(state[S_PLAYED]) <= 4 * max(endgame, tail)
    stop = 13 - tail if contract != DOMINO and 0 < tail < left else 13
    return exact, stop


@njit(cache=True, _nrt=False)
def copy_rules(state, work):
    """The point values in force, from the state array to the scratch space (as int64)."""
    rules = work[W_RULES:W_RULES + RULES_ARRAY_SIZE].view(np.int64)
    for i in range(RULES_ARRAY_SIZE):
        rules[i] = np.int64(state[S_RULES + i])


@njit(cache=True, _nrt=False)
def layout_values(cards, hand, state, work, key, k, rollout, exact, stop, miss, net, policy):
    """Sample layout ``k`` and value every card of ``cards`` in it (into ``W_VALUES``); returns the layout's weight.

    The work of one layout of :func:`mc_estimates` (see there); ``exact`` and ``stop`` as
    :func:`exact_from` gives them; ``net``: the learned player's model array (learned rollouts, policy
    inference); ``policy``: 0, or policy inference with the temperatures of that table
    (:func:`barbu_sim.barbu.players.mc.layouts.policy_weight`), which then replaces ``miss``.
    """
    me = np.int64(state[S_SEAT]) & 3
    contract = np.int64(state[S_CONTRACT])
    param = np.int64(state[S_PARAM])
    rules = work[W_RULES:W_RULES + RULES_ARRAY_SIZE].view(np.int64)
    layout = work[W_LAYOUT:W_LAYOUT + 4]
    hands = work[W_HANDS:W_HANDS + 4]
    allowed = work[W_ALLOWED:W_ALLOWED + 4]
    cap = work[W_CAP:W_CAP + 4].view(np.int64)
    scores = work[W_SCORES:W_SCORES + 4].view(np.int64)
    rng = work[W_RNG:W_RNG + 1]
    scratch = work[W_STATE:W_STATE + ROLLOUT_STATE_SIZE]  # the fields, then the learned player's room
    values = work[W_VALUES:W_VALUES + 52].view(np.float64)
    tt = work[W_TT:W_TT + TT_WORDS]
    rng[0] = stream_key(key, np.uint64(k), STREAM_MC)
    sample_layout(rng, me, hand, state, layout, allowed, cap)
    roll = next_u64(rng)
    w = 1.0
    if policy > 0 and contract != DOMINO:
        w = policy_weight(layout, state, work, me, net, policy, rules, contract, param, allowed, rng)
    elif miss > 0.0 and contract != DOMINO and rollout != RANDOM:
        w = layout_weight(layout, state, work, me, rollout, miss, rules, contract, param, allowed, rng, net)
    if exact or stop < 13:
        new_search(tt)
    if exact:
        for j in range(4):
            hands[j] = layout[j]
        if contract == DOMINO:
            solve_domino_cards(hands, state, param, rules, cards, tt, values)
        else:
            solve_cards(hands, state, contract, param, rules, cards, tt, values)
        return w
    cands = cards
    while cands:
        card = lowest_bit(cands)
        cands &= cands - U1
        for j in range(4):
            hands[j] = layout[j]
            scores[j] = 0
        for i in range(STATE_SIZE):
            scratch[i] = state[i]
        rng[0] = roll
        if contract == DOMINO:
            rollout_domino(hands, param, rules, rollout, scratch, rng, card, scores, net)
        elif rollout_tricks(hands, contract, param, rules, rollout, scratch, rng, card, scores, net, stop) < 13:
            t0, t1, t2, t3 = solve_from_trick(hands, stop, np.int64(scratch[S_LEADER]) & 3, contract, param,
                                              rules, me, tt, values)
            scores[me] += t0 if me == 0 else (t1 if me == 1 else (t2 if me == 2 else t3))
        values[card] = np.float64(scores[me])
    return w


@njit(cache=True, _nrt=False)
def _slot(reps, card):
    """A candidate's place among the distinct cards (its row of the ``W_CROSS`` matrix)."""
    return popcount(reps & ((U1 << np.uint64(card)) - U1))


@njit(cache=True, _nrt=False)
def race_drop(alive, reps, sums, cross, total, total_sq, sign, z):
    """``alive`` less the cards shown worse than the best: by more than ``z`` standard errors.

    The best card has the best sum (ties: the lowest).  Every card of ``alive`` was valued on
    every layout so far, so each other card's difference from the best is paired, layout by
    layout: its weighted mean and variance come from the sums and the ``W_CROSS`` sums of
    products, with ``n_eff`` = (total weight)² / total squared weight layouts.  The paired
    variance is shrunk towards the unpaired one (``PRIOR`` layouts' worth): a difference that
    shows in few layouts may not have shown yet, and two cards equal so far never part.
    """
    best, best_sum = -1, -np.inf
    m = alive
    while m:
        c = lowest_bit(m)
        m &= m - U1
        if sign * sums[c] > best_sum:
            best, best_sum = c, sign * sums[c]
    n_eff = total * total / total_sq
    b = _slot(reps, best)
    mean_b = sums[best] / total
    m = alive & ~(U1 << np.uint64(best))
    while m:
        c = lowest_bit(m)
        m &= m - U1
        i = _slot(reps, c)
        lo, hi = min(i, b), max(i, b)
        gap = sign * (sums[best] - sums[c]) / total  # >= 0: how much worse c is
        mean_c = sums[c] / total
        paired = (cross[b * SLOTS + b] + cross[i * SLOTS + i] - 2.0 * cross[lo * SLOTS + hi]) / total - gap * gap
        unpaired = cross[b * SLOTS + b] / total - mean_b * mean_b + cross[i * SLOTS + i] / total - mean_c * mean_c
        var = (n_eff * max(paired, 0.0) + PRIOR * max(unpaired, 0.0)) / (n_eff + PRIOR)
        if gap > z * np.sqrt(var / max(n_eff - 1.0, 1.0)):
            alive &= ~(U1 << np.uint64(c))
    return alive


@njit(cache=True, _nrt=False)
def add_layout(cards, w, values, sums, squares, weights):
    """Add one layout's ``values`` of ``cards``, weighted ``w``, to each card's weighted sum, sum of squares and
    total weight (all (52,) float64)."""
    m = cards
    while m:
        c = lowest_bit(m)
        m &= m - U1
        v = values[c]
        sums[c] += w * v
        squares[c] += w * v * v
        weights[c] += w


@njit(cache=True, _nrt=False)
def race(alive, reps, hand, state, work, key, first, upto, rollout, endgame, tail, miss, sign, z, look,
         sums, squares, counts, net, policy):
    """Value the cards of ``alive`` on layouts ``first .. upto - 1``, dropping those shown worse; the cards left.

    After every ``look`` layouts of the decision (from 16 on) :func:`race_drop` drops the
    cards shown worse than the best; the race ends as soon as one card is left.  ``reps``:
    the decision's distinct cards.  ``sums`` / ``squares`` / ``counts`` and ``W_WEIGHTS``:
    per card, as :func:`barbu_sim.barbu.players.mc.player.mc_choose` keeps them; the sums of products between
    the cards (``W_CROSS``) and the layouts' total weights are kept in the scratch space from
    ``first`` = 0 on, so that a race can go on over later layouts (sequential halving's rounds).  ``net``,
    ``policy``: as for :func:`layout_values`.
    """
    copy_rules(state, work)
    values = work[W_VALUES:W_VALUES + 52].view(np.float64)
    weights = work[W_WEIGHTS:W_WEIGHTS + 52].view(np.float64)
    cross = work[W_CROSS:W_CROSS + SLOTS * SLOTS].view(np.float64)
    totals = work[W_LAYOUT_SUMS:W_LAYOUT_SUMS + 2].view(np.float64)
    if first == 0:
        for i in range(SLOTS * SLOTS):
            cross[i] = 0.0
        totals[0] = 0.0
        totals[1] = 0.0
    exact, stop = exact_from(state, np.int64(state[S_CONTRACT]), endgame, tail)
    for k in range(first, upto):
        w = layout_values(alive, hand, state, work, key, k, rollout, exact, stop, miss, net, policy)
        totals[0] += w
        totals[1] += w * w
        add_layout(alive, w, values, sums, squares, weights)
        m = alive
        while m:
            c = lowest_bit(m)
            m &= m - U1
            v = values[c]
            counts[c] += 1.0
            i = _slot(reps, c)
            cross[i * SLOTS + i] += w * v * v
            rest = m
            while rest:
                d = lowest_bit(rest)
                rest &= rest - U1
                cross[i * SLOTS + _slot(reps, d)] += w * v * values[d]
        if k + 1 >= 16 and (k + 1) % look == 0:
            alive = race_drop(alive, reps, sums, cross, totals[0], totals[1], sign, z)
            if popcount(alive) == 1:
                break
    return alive
