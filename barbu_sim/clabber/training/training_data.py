"""Training data for Clabber's ``learned`` player: each legal card's features and ``mc``'s value of it.

A chunk of rounds (:func:`generate_chunk`) is a pure function of its arguments (the same bytes on any
machine, here or as Ray tasks).  Round ``i`` of ``seed`` is dealt as the engine deals it with dealer
``i % 4``; the dealer's left makes with the turned suit (the ``accept-first`` bidding of the ladder),
and the round is played one card at a time.  At every decision with more than one legal card,
``mc``'s own estimator (:func:`barbu_sim.clabber.players.mc.mc_estimates`) values each legal card on
``samples`` layouts of the unseen cards, consistent with what the table has shown, and every legal
card becomes a row: its features from the seat's view (:mod:`barbu_sim.clabber.players.features`)
and its mean own-team round score.

Which card is then played decides what positions the data holds: each seat of a round plays, by a
draw, like ``mc`` (the best estimated card) or like ``heuristic``, and now and then a random legal
card, so that the positions cover the ladder's (one or two strong seats among ``heuristic`` ones) and
strong play at every seat.  The draws and the layouts come from the stream ``STREAM_CLABBER_LEARN``
keyed by ``(seed, i)``.
"""

from __future__ import annotations

import numpy as np

from ...core.bits import lowest_bit, popcount
from ...core.jit import njit
from ...core.rng import STREAM_CLABBER_LEARN as STREAM_LEARN, rand_below, stream_key
from ..engine.deals import deal_into
from ..players.features import N_FEATURES, fill_features
from ..players.heuristic import heuristic_strategy
from ..players.learned import MAX_LEGAL
from ..players.mc import MC_WORK_SIZE, W_SUMS, mc_estimates, observe, replay_into
from ..players.rollout import legal_now, step, trick_view
from ..rules.config import Rules
from ..state import S_MAKER, S_N_IN_TRICK, S_PLAYED, S_SEAT, S_TRICK, S_TRUMP, STATE_ARRAY_SIZE

MC_SHARE_PER_MILLE = 500  # the chance that a seat plays like mc in a training round (else like heuristic)
EXPLORE_PER_MILLE = 50  # the chance of a random legal card at any decision
ROWS_PER_ROUND = 20 * MAX_LEGAL  # at most 20 decisions of more than one card (the last trick is forced)


@njit(cache=True)
def _chunk(seed, lo, n, samples, rules, x, y, decision, makers):
    """Rows of rounds ``lo .. lo + n - 1`` into ``x`` / ``y`` / ``decision`` / ``makers``; returns the row count."""
    state = np.zeros(STATE_ARRAY_SIZE, np.uint64)
    hands = np.zeros(4, np.uint64)
    dealt = np.zeros(4, np.uint64)
    mcw = np.zeros(MC_WORK_SIZE, np.uint64)
    pack = np.empty(24, np.int64)
    rng = np.zeros(1, np.uint64)
    plays = np.zeros((1, 2), np.int64)
    xs = np.zeros((MAX_LEGAL, N_FEATURES), np.float32)
    sums = mcw[W_SUMS:W_SUMS + 52].view(np.float64)
    rows = 0
    for i in range(lo, lo + n):
        dealer = i % 4
        turned = deal_into(np.uint64(seed), np.uint64(i), dealer, pack, dealt, rng)
        trump = turned // 13
        maker = (dealer + 1) % 4
        key = stream_key(np.uint64(seed), np.uint64(i), STREAM_LEARN)
        replay_into(dealt, dealer, turned, trump, maker, rules, plays, 0, state, hands, mcw, key)
        draw = np.zeros(1, np.uint64)
        draw[0] = key
        like_mc = np.zeros(4, np.bool_)
        for s in range(4):
            like_mc[s] = rand_below(draw, 1000) < MC_SHARE_PER_MILLE
        for play_no in range(24):
            seat = np.int64(state[S_SEAT])
            hand = hands[seat]
            legal = legal_now(hand, state)
            heur = heuristic_strategy(legal, hand, state, rng[:0])
            card = heur
            if popcount(legal) > 1:
                mc_estimates(legal, hand, state, mcw, stream_key(key, np.uint64(play_no), STREAM_LEARN), samples)
                k = fill_features(legal, hand, state, mcw, heur, xs)
                m = legal
                best, best_v = -1, -np.inf
                mine = (np.int64(state[S_MAKER]) & 1) == (seat & 1)
                for r in range(k):
                    c = lowest_bit(m)
                    m &= m - np.uint64(1)
                    for f in range(N_FEATURES):
                        x[rows, f] = xs[r, f]
                    y[rows] = np.float32(sums[c] / samples)
                    decision[rows] = i * 32 + play_no
                    makers[rows] = mine
                    rows += 1
                    if sums[c] > best_v:
                        best, best_v = c, sums[c]
                if like_mc[seat]:
                    card = best
                if rand_below(draw, 1000) < EXPLORE_PER_MILLE:
                    m = legal
                    for _ in range(rand_below(draw, popcount(legal))):
                        m &= m - np.uint64(1)
                    card = lowest_bit(m)
            led, top, excused = trick_view(state)
            observe(mcw, seat, card, hand, np.int64(state[S_N_IN_TRICK]), led, np.int64(state[S_TRUMP]), top, excused,
                    state[S_PLAYED], np.int64(state[S_TRICK]))
            step(state, hands, card)
    return rows


def generate_chunk(seed: int, lo: int, n: int, samples: int) -> dict:
    """Rows of rounds ``lo .. lo + n - 1`` of ``seed`` (see the module doc), as numpy arrays.

    ``x`` (rows, N_FEATURES) float32 features, ``y`` (rows,) float32 mc values (the seat's team's
    round score), ``decision`` (rows,) int64 a decision's number (``round * 32 + play``), ``makers``
    (rows,) bool: the seat's team made the trump.  Feature 0 marks the card ``heuristic`` plays.
    """
    cap = max(1, n) * ROWS_PER_ROUND
    x = np.zeros((cap, N_FEATURES), np.float32)
    y = np.zeros(cap, np.float32)
    decision = np.zeros(cap, np.int64)
    makers = np.zeros(cap, np.bool_)
    rows = _chunk(np.uint64(seed), lo, n, samples, Rules().to_array(), x, y, decision, makers)
    return {"x": x[:rows].copy(), "y": y[:rows].copy(), "decision": decision[:rows].copy(),
            "makers": makers[:rows].copy()}
