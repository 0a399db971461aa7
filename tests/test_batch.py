"""Reproducibility: deal i depends only on (seed, i), whatever the chunk or thread count."""

import numba
import numpy as np
import pytest

from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.api import evaluate_hands, play_batch, play_deal

CONFIGS = [(0, 0, 0), (3, 0, 2), (5, 1, 1), (6, 7, 3)]


def one_and_two_threads():
    """(1, 2): the thread counts to compare; skips where numba has a single thread (one core), where
    comparing 1 thread with "all of them" would compare a run with itself."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has one thread here (one core): no second thread count to compare with")
    return (1, 2)


def test_same_result_for_any_chunk_and_thread_count():
    ref, ref_tricks = play_batch(12, 100, 900, CONFIGS, "random", chunk=512)
    runs = 0
    try:
        for chunk in (1, 7, 64):
            for threads in one_and_two_threads():
                numba.set_num_threads(threads)
                assert numba.get_num_threads() == threads
                s, t = play_batch(12, 100, 900, CONFIGS, "random", chunk=chunk)
                assert s.shape == ref.shape and (s == ref).all() and (t == ref_tricks).all()
                runs += 1
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert runs == 6


def test_hand_estimates_same_for_any_thread_count():
    hands = [random_deal(3, i)[0] for i in range(9)]
    estimates = []
    try:
        for threads in one_and_two_threads():
            numba.set_num_threads(threads)
            assert numba.get_num_threads() == threads
            estimates.append(evaluate_hands(hands, CONFIGS, "random", n_samples=20, seed=5))
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    assert len(estimates) == 2 and estimates[0].mean.shape == estimates[1].mean.shape == (9, len(CONFIGS), 4)
    assert (estimates[0].mean == estimates[1].mean).all() and (estimates[0].se == estimates[1].se).all()
    # every hand was played: no row left at zero by a skipped claim
    assert (np.abs(estimates[0].mean).sum(axis=(1, 2)) > 0).all()


def test_a_batch_is_the_concatenation_of_its_parts():
    whole, _ = play_batch(4, 0, 600, CONFIGS, "heuristic")
    a, _ = play_batch(4, 0, 250, CONFIGS, "heuristic")
    b, _ = play_batch(4, 250, 350, CONFIGS, "heuristic")
    assert (np.concatenate([a, b]) == whole).all()


def test_batch_rows_match_single_deals():
    scores, tricks = play_batch(8, 40, 30, CONFIGS, "random")
    for i in range(30):
        for k, (c, p, d) in enumerate(CONFIGS):
            r = play_deal(random_deal(8, 40 + i), c, "random", param=p, declarer=d, seed=8, index=40 + i)
            assert scores[i, k].tolist() == r.scores.tolist()
            assert tricks[i, k].tolist() == r.tricks.tolist()


def test_seeds_differ():
    a, _ = play_batch(1, 0, 200, CONFIGS, "random")
    b, _ = play_batch(2, 0, 200, CONFIGS, "random")
    assert not (a == b).all()


def test_bad_batch_arguments():
    with pytest.raises(ValueError, match="non-negative"):
        play_batch(1, 0, -5, CONFIGS)
    with pytest.raises(ValueError, match="trump suit"):
        play_batch(1, 0, 5, [(5, 7, 0)])
    with pytest.raises(ValueError, match="starting rank"):
        play_batch(1, 0, 5, [(6, 13, 0)])
    with pytest.raises(ValueError, match="declarer"):
        play_batch(1, 0, 5, [(0, 0, 4)])


def test_a_hands_estimate_does_not_depend_on_its_batch():
    hands = [random_deal(6, i)[1] for i in range(5)]
    batch = evaluate_hands(hands, CONFIGS, "random", seat=1, n_samples=12, seed=3)
    for j in (0, 3):
        alone = evaluate_hands([hands[j]], CONFIGS, "random", seat=1, n_samples=12, seed=3)
        assert (alone.mean[0] == batch.mean[j]).all() and (alone.se[0] == batch.se[j]).all()
    reordered = evaluate_hands(hands[::-1], CONFIGS, "random", seat=1, n_samples=12, seed=3)
    assert (reordered.mean[::-1] == batch.mean).all()


def test_evaluation_checks_configurations_like_batch_play():
    hand = [random_deal(1, 0)[0]]
    with pytest.raises(ValueError, match="contract ids"):
        evaluate_hands(hand, [(9, 0, 0)], n_samples=4)
    with pytest.raises(ValueError, match="declarer"):
        evaluate_hands(hand, [(0, 0, 7)], n_samples=4)
