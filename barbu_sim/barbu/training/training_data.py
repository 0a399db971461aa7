"""Training data for the ``learned`` player: positions of played deals, each legal card's features and ``mc`` value.

A chunk of deals (:func:`generate_chunk`) is a pure function of its arguments, so the
chunks can be made here or as Ray tasks (:mod:`barbu_sim.core.backends`) with the same
bytes.  Deal ``i`` of ``seed`` is played under contract ``i % 7`` (North declaring; a
trump suit or domino starting rank drawn for the deal) one card at a time on a
:class:`~barbu_sim.barbu.position.Position`.  At every decision with more than one
distinct card, ``mc``'s estimator values each distinct card on ``samples`` layouts of the
unseen cards (:func:`barbu_sim.barbu.players.mc.player.mc_estimates`, exact endgames and inference from
the play as ``mc`` has them by default) and every legal card becomes a row: its features
(:mod:`barbu_sim.barbu.players.features`) and that value.

Which card is then played decides what positions the data holds: each seat of a deal
plays, by a draw, like ``heuristic``, like ``mc`` (the best estimated card) or, given a
model, like the ``learned`` player of that model (its own play, as DAgger takes it), and now
and then a random legal card, so that the positions cover both the ladder's tables (one
strong seat among ``heuristic`` ones) and the strong tables (strong play at every seat).

The teacher is ``mc`` with ``heuristic`` rollouts, or, given a model, with rollouts by the
``learned`` player of that model (``mc:rollout=learned``): expert iteration trains the next
model on the estimates of an ``mc`` that plays out the deals with the previous one.
"""

from __future__ import annotations

import numpy as np
from ...core.jit import njit

from ...core.bits import highest_bit, lowest_bit, popcount
from ...core.rng import STREAM_LEARN, stream_key
from ..engine.deals import random_deal
from ..players.features import N_FEATURES, domino_card_features, trick_card_features
from ..players.learned import MODEL_WIDTH
from ..players.heuristic import heuristic_strategy
from ..players.mc.player import distinct_cards, mc_estimates
from ..players.mc.layouts import W_WEIGHTS
from ..players.mc.params import DEFAULT_ENDGAME, DEFAULT_INFER, DEFAULT_TAIL
from ..rules.play_rules import below
from ..position import Position
from ..rules.config import DOMINO, N_CONTRACTS, TRUMPS
from ..state import S_CONTRACT, STATE_SIZE
from ..players.full_state import LEARNED_AT
from ..players.ids import HEURISTIC, LEARNED
from ..players.learned import learned_choose

MC_SHARE = 0.5  # the chance that a seat plays like mc in a training deal (else like heuristic, or learned)
EXPLORE = 0.05  # the chance of a random legal card at any decision
NO_NET = np.zeros((0, MODEL_WIDTH), np.float32)  # the learned player's model: the rollouts here are heuristic's


@njit(cache=True)
def decision_rows(legal, reps, hand, state, heur, sums, weights, x, y):
    """Fill ``x`` / ``y`` with one row per legal card (features; mean value of its run's lowest card); returns rows."""
    n = 0
    m = legal
    domino = np.int64(state[S_CONTRACT]) == DOMINO
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        if domino:
            domino_card_features(c, legal, hand, state, heur, x[n])
        else:
            trick_card_features(c, legal, hand, state, heur, x[n])
        # the lowest card of its run of equivalent cards holds the estimate (as mc_choose reads it)
        r = c if (reps >> np.uint64(c)) & np.uint64(1) else highest_bit(reps & below(c))
        y[n] = sums[r] / weights[r]
        n += 1
    return n


def _param(contract: int, draw: np.random.Generator) -> int:
    if contract == TRUMPS:
        return int(draw.integers(4))
    if contract == DOMINO:
        return int(draw.integers(13))
    return 0


def generate_chunk(seed: int, lo: int, n: int, samples: int, model: np.ndarray | None = None,
                   mc_share: float = MC_SHARE, learned_share: float = 0.0) -> dict:
    """Rows of deals ``lo .. lo + n - 1`` of ``seed`` (see the module doc), as numpy arrays.

    ``x`` (rows, N_FEATURES) float32 features, ``y`` (rows,) float32 mc values, ``decision``
    (rows,) int64 a decision's number (unique within the chunk: ``deal * 64 + play``),
    ``contract`` (rows,) int8.  Feature 0 marks the card ``heuristic`` plays.

    ``model``: None (the teacher's rollouts are ``heuristic``'s), or a learned player's model
    array: the teacher's rollouts are that player's, and a seat plays like it with the chance
    ``learned_share`` (like ``mc`` with ``mc_share``, like ``heuristic`` otherwise).  The
    defaults give the data of the first model.
    """
    if model is None and learned_share:
        raise ValueError("learned seats need the learned player's model")
    rollout = HEURISTIC if model is None else LEARNED
    net = NO_NET if model is None else np.ascontiguousarray(model, np.float32)
    xs, ys, ds, cs = [], [], [], []
    x = np.zeros((13, N_FEATURES), np.float32)  # as the player computes them
    y = np.zeros(13, np.float64)
    sums = np.zeros(52, np.float64)
    squares = np.zeros(52, np.float64)
    miss = DEFAULT_INFER / 100.0
    for i in range(lo, lo + n):
        draw = np.random.default_rng([seed, i, 1])
        contract = i % N_CONTRACTS
        pos = Position(random_deal(seed, i), contract, _param(contract, draw), 0, seed=seed, index=i)
        kind = draw.random(4)  # a seat plays like mc below mc_share, like learned up to + learned_share
        like_mc = kind < mc_share
        like_learned = ~like_mc & (kind < mc_share + learned_share)
        play_no = 0
        for legal, hand in pos.turns():
            state = pos.state
            heur = int(heuristic_strategy(legal, hand, state, pos.rng))
            card = heur
            if like_learned[pos.seat]:
                card = int(learned_choose(legal, hand, state, pos.rng, net, np.int64(LEARNED_AT), np.int64(0)))
            reps = np.uint64(distinct_cards(legal, hand, state, np.int64(contract)))
            if popcount(reps) > 1:
                work = state[STATE_SIZE:]
                sums[:] = 0.0
                squares[:] = 0.0
                weights = work[W_WEIGHTS:W_WEIGHTS + 52].view(np.float64)
                weights[:] = 0.0
                key = np.uint64(stream_key(np.uint64(seed), np.uint64(i * 64 + play_no), STREAM_LEARN))
                mc_estimates(reps, hand, state, work, key, np.int64(samples), np.int64(rollout),
                             np.int64(DEFAULT_ENDGAME), np.int64(DEFAULT_TAIL), miss, sums, squares, net, np.int64(0),
                             np.int64(0))
                k = decision_rows(legal, reps, hand, state, np.int64(heur), sums, weights, x, y)
                xs.append(x[:k].astype(np.float32))
                ys.append(y[:k].astype(np.float32))
                ds.append(np.full(k, i * 64 + play_no, np.int64))
                cs.append(np.full(k, contract, np.int8))
                if like_mc[pos.seat]:
                    best = int(np.argmax(y[:k]))
                    card = [c for c in range(52) if int(legal) >> c & 1][best]
            if draw.random() < EXPLORE:
                cards = [c for c in range(52) if int(legal) >> c & 1]
                card = cards[int(draw.integers(len(cards)))]
            pos.play(card)
            play_no += 1
    if not xs:
        return {"x": np.zeros((0, N_FEATURES), np.float32), "y": np.zeros(0, np.float32),
                "decision": np.zeros(0, np.int64), "contract": np.zeros(0, np.int8)}
    return {"x": np.concatenate(xs), "y": np.concatenate(ys), "decision": np.concatenate(ds),
            "contract": np.concatenate(cs)}
