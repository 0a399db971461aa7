"""Early drops in the mc player (``mc:early=Z``): the paired bound drops only cards shown worse,
``early=off`` is today's player, and with drops on a deal is still a pure function of (seed, deal)."""

import numpy as np
import pytest
from numba import njit

from barbu_sim.barbu.api import play_batch, play_deal, play_random_deal
from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.review.explain import decisions
from barbu_sim.barbu.players.mc.params import MC_ID, MCParams, mc_id, parse_mc
from barbu_sim.barbu.players.mc.values import SLOTS, race_drop
from barbu_sim.barbu.players.registry import resolve_strategy
from shared_threads import on_one_thread_and_all

U1 = np.uint64(1)


@njit
def _drop(values, weights, sign, z):
    """race_drop over candidate cards 0..n-1 valued ``values[k, card]`` on layout k with weight ``weights[k]``."""
    n = values.shape[1]
    sums = np.zeros(52)
    cross = np.zeros(SLOTS * SLOTS)
    total, total_sq = 0.0, 0.0
    for k in range(values.shape[0]):
        w = weights[k]
        total += w
        total_sq += w * w
        for i in range(n):
            sums[i] += w * values[k, i]
            for j in range(i, n):
                cross[i * SLOTS + j] += w * values[k, i] * values[k, j]
    reps = (U1 << np.uint64(n)) - U1
    return race_drop(reps, reps, sums, cross, total, total_sq, sign, z)


def _cards(mask):
    return [c for c in range(52) if int(mask) >> c & 1]


def test_a_card_shown_worse_drops_and_close_or_equal_cards_stay():
    rng = np.random.default_rng(3)
    base = rng.normal(0.0, 4.0, 32)  # the layouts' common part: paired, it cancels out
    noise = rng.normal(0.0, 0.5, (32, 4))
    values = np.column_stack([base, base - 3.0, base - 0.05, base]) + noise * np.array([1, 1, 1, 0])
    values[:, 3] = values[:, 0]  # card 3 equals card 0 in every layout: never parted from it
    w = np.ones(32)
    assert _cards(_drop(values, w, 1.0, 2.0)) == [0, 2, 3]  # only card 1 (3 points worse) is shown worse
    # where the lowest total is best the sign turns: card 1 is then the best and every other one is worse
    assert _cards(_drop(values, w, -1.0, 2.0)) == [1]
    # a 1-point gap in differences of +17 / -15 points (standard error about 3) is within the noise: nothing drops
    indep = np.column_stack([np.tile([8.0, -8.0], 16), np.tile([-9.0, 7.0], 16)])
    assert _cards(_drop(indep, w, 1.0, 2.0)) == [0, 1]


def test_a_difference_not_yet_seen_is_not_taken_for_no_difference():
    """Two cards equal on the layouts so far stay in play however many layouts agree; a gap the same in
    every layout so far is taken for real only once the layouts outweigh the prior."""
    values = np.zeros((64, 2))
    assert _cards(_drop(values, np.ones(64), 1.0, 2.0)) == [0, 1]
    values[:, 0] = np.tile([0.0, 20.0], 32)
    values[:, 1] = values[:, 0] - 1.0
    assert _cards(_drop(values[:8], np.ones(8), 1.0, 2.0)) == [0, 1]  # 8 layouts: bound 4.8 points, gap 1
    assert _cards(_drop(values, np.ones(64), 1.0, 2.0)) == [0]  # 64 layouts: bound 0.6 points
    # weights count: 64 layouts of which 56 weigh almost nothing are worth little more than 8
    w = np.where(np.arange(64) < 8, 1.0, 1e-6)
    assert _cards(_drop(values, w, 1.0, 2.0)) == [0, 1]


def test_early_parameter_names_and_ids():
    assert parse_mc("early=2.5") == MCParams(early=25)
    assert parse_mc("early=off") == MCParams()
    assert resolve_strategy("mc:early=3").name.endswith("infer=70,early=3")
    assert resolve_strategy("mc").name.endswith("infer=70,early=off")
    sid = resolve_strategy("mc:early=2.5").builtin_id
    assert MC_ID.unpack(sid) == {**MC_ID.unpack(resolve_strategy("mc").builtin_id), "early": 25}
    assert mc_id(early=0) == mc_id()  # early=off is today's id: the same play, bit for bit
    for bad in ("mc:early=0.5", "mc:early=13", "mc:early=2.55", "mc:early=yes"):
        with pytest.raises(ValueError, match="early must be off or a number of standard errors"):
            resolve_strategy(bad)
    with pytest.raises(ValueError, match="unknown pimc parameter 'early'"):
        resolve_strategy("pimc:early=2")


def test_early_drops_keep_the_explain_rows_true_and_the_deal_reproducible():
    seats = ["mc:samples=16,early=1.5", "heuristic", "mc:samples=16,early=1.5", "heuristic"]
    configs = [(c, 5 if c == 6 else 0, d) for c in (0, 4, 6) for d in (0, 1)]
    (one, _), (many, _) = on_one_thread_and_all(lambda: play_batch(8, 0, 4, configs, seats))
    assert np.array_equal(one, many)
    c, p, d = configs[5]
    alone = play_deal(random_deal(8, 3), c, seats, param=p, declarer=d, seed=8, index=3, explain=True)
    assert alone.scores.tolist() == one[3, 5].tolist()
    # explain: the card played is the best of the cards valued on the most layouts; drops came early
    result = play_random_deal(8, 1, "no-queens", ["heuristic", "mc:samples=16,early=1.5", "heuristic", "heuristic"],
                              explain=True)
    rows = decisions(result)
    assert len(rows) >= 5
    for r in rows:
        assert r["estimates"][0][0] == r["card"]
