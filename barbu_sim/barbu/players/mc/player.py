"""``mc``: a determinized Monte-Carlo player.

At each decision with more than one legal card it samples layouts of the cards it
cannot see, consistent with everything the table has shown (its own hand, every
card played and by whom, every card a seat is known not to hold: a suit not
followed, a trump not played or not overtrumped when the rules demanded it, a
Domino pass), plays each legal card in each layout, finishes the deal with a
rollout player at all four seats (:mod:`barbu_sim.barbu.players.rollout`), or once few
tricks are left by exact search (:mod:`barbu_sim.barbu.players.endgame`), and plays the
card with the best mean own score.  The cards compared are valued on the same
layouts with the same random numbers (common random numbers), so the comparison
between cards carries little sampling noise.  Two refinements: sequential halving
spends more layouts on the close cards (:func:`mc_choose`), and each layout is
weighted by how likely the other seats' plays so far were in it under the rollout
player (:func:`barbu_sim.barbu.players.mc.layouts.layout_weight`).

Its randomness is one draw from the deal's play stream per decision, so a deal
with ``mc`` seats is a pure function of ``(seed, deal)`` like any other.

Names and parameters (:mod:`barbu_sim.barbu.players.mc.params`): ``mc``, ``mc:samples=200,rollout=basic``,
``mc:endgame=3,tail=2,halving=off,infer=100``; ``pimc`` is the player without the
exact search, the halving and the inference.  The kernels receive them packed into
the seat's strategy id (:func:`mc_id`).
"""

from __future__ import annotations

import numpy as np
from ....core.jit import njit

from ....core.bits import highest_bit, lowest_bit, popcount
from ....core.fields import ArrayFields
from ....core.rng import next_u64
from .layouts import (  # noqa: F401  (the work-space layout and inference, re-exported for the engine)
    MC_WORK_SIZE, W_COUNTS, W_SQUARES, W_SUMS, W_VALUES, W_WEIGHTS, infer_not_held, layout_weight, record_play,
    sample_layout,
)
from .params import (  # noqa: F401  (the names the engine and the registry read, re-exported)
    DEFAULT_EARLY, DEFAULT_ENDGAME, DEFAULT_HALVING, DEFAULT_INFER, DEFAULT_SAMPLES, DEFAULT_TAIL, LOOK, MAX_SAMPLES,
    MC, MC_EARLY_MASK, MC_EARLY_SHIFT, MC_ENDGAME_MASK, MC_ENDGAME_SHIFT, MC_HALVING_MASK, MC_HALVING_SHIFT,
    MC_INFER_MASK, MC_INFER_SHIFT, MC_ROLLOUT_MASK, MC_ROLLOUT_SHIFT, MC_SAMPLES_MASK, MC_SAMPLES_SHIFT,
    MC_POLICY_MASK, MC_POLICY_SHIFT, MC_TAIL_MASK, MC_TAIL_SHIFT, ROLLOUTS, MCParams, mc_id, parse_mc,
)
from .values import STREAM_MC, add_layout, copy_rules, exact_from, layout_values, race  # noqa: F401  (STREAM_MC: re-exported)
from ...rules.play_rules import above, below, suit_bits, trick_value
from ...rules.config import DOMINO, R_BEST_TOTAL, RULES_ARRAY_SIZE
from ...state import S_CONTRACT, S_N_IN_TRICK, S_PLAYED, S_RULES, S_SEAT, S_TRICK_CARDS, STATE_SIZE

U0 = np.uint64(0)
U1 = np.uint64(1)


# The explain buffer (``barbu-sim play --explain``): row 0 holds the number of rows
# used; each later row is one decision, in these columns.
EXPLAIN = ArrayFields([
    ("seat", 1),
    ("card", 1),  # the card played
    ("played", 1),  # cards played before it
    ("mean", 52),  # each card's mean score from here (NaN: not a candidate)
    ("se", 52),  # its standard error
    ("layouts", 52),  # the layouts it was valued on (sequential halving gives the finalists more)
])
EX_SEAT, EX_CARD, EX_PLAYED = EXPLAIN.offset("seat"), EXPLAIN.offset("card"), EXPLAIN.offset("played")
EX_MEAN, EX_SE, EX_LAYOUTS = EXPLAIN.offset("mean"), EXPLAIN.offset("se"), EXPLAIN.offset("layouts")
EXPLAIN_WIDTH = EXPLAIN.size
EXPLAIN_ROWS = 1 + 52


@njit(cache=True, _nrt=False)
def distinct_cards(legal, hand, state, contract):
    """The legal cards worth rolling out: the lowest of each run of equivalent cards.

    In a trick contract two cards of a suit are equivalent when every card ranked
    between them is the player's own or was played in an earlier trick (none is on the
    table now) and both cost the same to win (a queen is not a jack in No Queens): every
    other card beats both or neither, so either leads to the same deal.  Domino has no
    such runs: every card opens a different way.
    """
    if contract == DOMINO:
        return legal
    rules = state[S_RULES:S_RULES + RULES_ARRAY_SIZE]  # the point values in force (read back as signed)
    trick = U0
    for k in range(np.int64(state[S_N_IN_TRICK])):
        trick |= U1 << state[S_TRICK_CARDS + k]
    settled = hand | (state[S_PLAYED] & ~trick)
    reps = U0
    for s in range(4):
        m = legal & suit_bits(s)
        prev = -1
        while m:
            c = lowest_bit(m)
            m &= m - U1
            if not (prev >= 0 and (above(prev) & below(c) & ~settled) == U0
                    and trick_value(contract, 0, U1 << np.uint64(prev), rules)
                    == trick_value(contract, 0, U1 << np.uint64(c), rules)):
                reps |= U1 << np.uint64(c)
            prev = c
    return reps


@njit(cache=True, nogil=True, _nrt=False)  # nogil: the review values decisions in threads
def mc_estimates(cards, hand, state, work, key, samples, rollout, endgame, tail, miss, sums, squares, net, policy,
                 first=0):
    """Value every card of ``cards`` on ``samples`` layouts; per-card sums and sums of squares of own score.

    A card's value in a layout is the seat's points from here on: by exact search when at
    most ``endgame`` tricks are left, else by a rollout, handed to the exact search when
    ``tail`` tricks are left (0: never).  ``work``: the scratch space (``MC_WORK_SIZE``
    uint64).  ``sums`` / ``squares``: (52,) float64, zeroed by the caller, added to, each
    layout weighted by :func:`layout_weight` with ``miss`` the weight per unexpected play (0.0:
    no inference; it needs the deal's history, which the engine's loops keep) and its weights
    added to the ``W_WEIGHTS`` entries.  The model of the other seats is the rollout player; a
    random one says nothing about a layout, so with ``rollout`` random there is no inference.  ``net``: the
    learned player's model array (learned rollouts, policy inference; else it may be empty); ``policy``: 0, or
    policy inference instead of ``miss`` (see :func:`barbu_sim.barbu.players.mc.values.layout_values`).  The
    layouts are ``first .. samples - 1``: layout ``k`` and its rollouts draw from the
    counter-based stream ``(key, k)``, the same for every card.
    """
    copy_rules(state, work)
    values = work[W_VALUES:W_VALUES + 52].view(np.float64)
    weights = work[W_WEIGHTS:W_WEIGHTS + 52].view(np.float64)
    exact, stop = exact_from(state, np.int64(state[S_CONTRACT]), endgame, tail)
    for k in range(first, samples):
        w = layout_values(cards, hand, state, work, key, k, rollout, exact, stop, miss, net, policy)
        add_layout(cards, w, values, sums, squares, weights)


@njit(cache=True, _nrt=False)
def _drop_worst(cards, n_drop, sums, sign):
    """``cards`` less the ``n_drop`` with the worst sums (ties: the highest card goes first)."""
    for _ in range(n_drop):
        worst, worst_sum = -1, np.inf
        m = cards
        while m:
            c = lowest_bit(m)
            m &= m - U1
            if sign * sums[c] <= worst_sum:
                worst, worst_sum = c, sign * sums[c]
        cards &= ~(U1 << np.uint64(worst))
    return cards


@njit(cache=True, _nrt=False)
def _set_counts(cards, n, counts):
    m = cards
    while m:
        c = lowest_bit(m)
        m &= m - U1
        counts[c] = n


@njit(cache=True, _nrt=False)
def mc_choose(sid, legal, hand, state, rng, explain, net):
    """The card an mc seat (strategy id ``sid``, see :func:`mc_id`) plays.

    With one legal card, or only equivalent ones (:func:`distinct_cards`), the lowest
    (no sampling).  Otherwise the card with the best mean own score over the rollouts
    of the distinct cards; ties go to the lowest card.  With sequential halving (the ``halving``
    bit of ``sid``) the budget of ``samples`` layouts per card is spent in rounds: after each, the
    worse half of the cards still in play drops out and the rest are valued on new layouts,
    so the close cards are compared on more layouts; the best of the last round is played.  ``state`` must be
    followed by ``MC_WORK_SIZE`` entries of scratch space.  When ``explain`` has rows,
    the decision is written to it (see ``EX_*``).  ``net``: the learned player's model array, read by
    learned rollouts and policy inference (``params.needs_model``; else it may be empty).
    """
    if popcount(legal) == 1:
        return lowest_bit(legal)
    reps = distinct_cards(legal, hand, state, np.int64(state[S_CONTRACT]))
    if popcount(reps) == 1:  # every legal card leads to the same deal
        return lowest_bit(legal)
    samples = (sid >> MC_SAMPLES_SHIFT) & MC_SAMPLES_MASK  # the fields of params.MC_ID
    rollout = (sid >> MC_ROLLOUT_SHIFT) & MC_ROLLOUT_MASK
    endgame = (sid >> MC_ENDGAME_SHIFT) & MC_ENDGAME_MASK
    tail = (sid >> MC_TAIL_SHIFT) & MC_TAIL_MASK
    key = next_u64(rng)
    work = state[STATE_SIZE:STATE_SIZE + MC_WORK_SIZE]
    sums = work[W_SUMS:W_SUMS + 52].view(np.float64)
    squares = work[W_SQUARES:W_SQUARES + 52].view(np.float64)
    counts = work[W_COUNTS:W_COUNTS + 52].view(np.float64)
    for c in range(52):
        sums[c] = 0.0
        squares[c] = 0.0
        counts[c] = 0.0
    weights = work[W_WEIGHTS:W_WEIGHTS + 52].view(np.float64)
    for c in range(52):
        weights[c] = 0.0
    infer = (sid >> MC_INFER_SHIFT) & MC_INFER_MASK
    miss = 0.0 if infer >= 100 else infer / 100.0
    policy = (sid >> MC_POLICY_SHIFT) & MC_POLICY_MASK
    sign = -1.0 if state[S_RULES + R_BEST_TOTAL] == U1 else 1.0  # best-total=lowest: the lowest mean is best
    n = popcount(reps)
    rounds = 1
    # sequential halving: the same budget, more layouts for the close cards
    if (sid >> MC_HALVING_SHIFT) & MC_HALVING_MASK:
        while (n + (1 << rounds) - 1) >> rounds > 1:
            rounds += 1
    finalists = reps
    done = np.int64(0)  # typed int64 from the start: a literal 0 would compile race and mc_estimates for it too
    early = (sid >> MC_EARLY_SHIFT) & MC_EARLY_MASK  # z of the early drops, in tenths (0: none)
    for rnd in range(rounds):
        m = popcount(finalists)
        upto = done + (samples if rounds == 1 else max(1, samples * n // (rounds * m)))
        if early:
            finalists = race(finalists, reps, hand, state, work, key, done, upto, rollout, endgame, tail, miss, sign,
                             early / 10.0, LOOK, sums, squares, counts, net, policy)
        else:
            mc_estimates(finalists, hand, state, work, key, upto, rollout, endgame, tail, miss, sums, squares, net,
                         policy, done)
        done = upto
        if popcount(finalists) == 1:
            break
        if rnd < rounds - 1:  # the worse half drops out (fewer if the race dropped some already)
            kept = _drop_worst(finalists, max(0, popcount(finalists) - (m - m // 2)), sums, sign)
            if not early:
                _set_counts(finalists & ~kept, done, counts)
            finalists = kept
    if not early:
        _set_counts(finalists, done, counts)
    best, best_sum = -1, -np.inf
    cands = finalists
    while cands:
        card = lowest_bit(cands)
        cands &= cands - U1
        if sign * sums[card] > best_sum:
            best, best_sum = card, sign * sums[card]
    others = legal & ~reps  # each takes the estimate of the lowest card of its run
    while others:
        card = lowest_bit(others)
        others &= others - U1
        r = highest_bit(reps & below(card))
        sums[card] = sums[r]
        squares[card] = squares[r]
        counts[card] = counts[r]
        weights[card] = weights[r]
    if explain.shape[0] > 0:
        row = np.int64(explain[0, 0]) + 1
        if row < explain.shape[0]:
            explain[0, 0] = row
            explain[row, EX_SEAT] = np.float64(state[S_SEAT])
            explain[row, EX_CARD] = best
            explain[row, EX_PLAYED] = popcount(state[S_PLAYED])
            for c in range(52):
                explain[row, EX_MEAN + c] = np.nan
                explain[row, EX_SE + c] = np.nan
                if (legal >> np.uint64(c)) & U1:
                    seen = counts[c]
                    mean = sums[c] / weights[c]
                    var = squares[c] / weights[c] - mean * mean
                    explain[row, EX_MEAN + c] = mean
                    explain[row, EX_LAYOUTS + c] = seen
                    explain[row, EX_SE + c] = np.sqrt(max(var, 0.0) / max(seen - 1.0, 1.0))
    return best
