"""Melds: the engine's lane tables against the reference's brute-force partitions, and the meld
frequencies of a run against exact counts over all C(24,6) hands."""

import functools
import math
import random
from itertools import combinations

import numpy as np
import pytest

import clabber_reference as ref
from barbu_sim.clabber.melds import hand_melds, meld_flags, team_meld_points
from barbu_sim.clabber.rules import DECK_CARDS

ALL_HANDS = math.comb(24, 6)


def mask(cards):
    return np.uint64(sum(1 << c for c in cards))


def engine_key_order(hands, trump):
    return [hand_melds(mask(h), trump)[1] for h in hands]


def test_hand_melds_match_reference_partitions():
    rng = random.Random(5)
    # Every hand holding a four of a kind or a run of five or six, and a random sample of the rest.
    special = [set(h) for h in combinations(DECK_CARDS, 6)
               if ref.has_four(set(h)) or ref.longest_run(set(h)) >= 5]
    sample = special + [set(rng.sample(DECK_CARDS, 6)) for _ in range(3000)]
    for hand in sample:
        trump = rng.randrange(4)
        melds = ref.best_melds(hand, trump)
        points, key = hand_melds(mask(hand), trump)
        assert points == sum(ref.meld_points(m) for m in melds)
        assert (key > 0) == bool(melds)


def test_meld_rank_order_matches_reference():
    rng = random.Random(8)
    hands = [set(rng.sample(DECK_CARDS, 6)) for _ in range(4000)]
    hands = [h for h in hands if ref.best_melds(h, 2)]
    for a, b in zip(hands, hands[1:]):
        ka = max(ref.meld_key(m, 2) for m in ref.best_melds(a, 2))
        kb = max(ref.meld_key(m, 2) for m in ref.best_melds(b, 2))
        ea, eb = engine_key_order([a, b], 2)
        assert (ka > kb) == (ea > eb) and (ka == kb) == (ea == eb)


def test_team_comparison_matches_reference_on_random_deals():
    for index in range(400):
        hands, _ = ref.deal(17, index, 0)
        for trump in range(4):
            m0, m1, _ = ref.team_melds(hands, trump)
            got = team_meld_points(np.array([mask(h) for h in hands], np.uint64), trump)
            assert got[:2] == (m0, m1)


@functools.lru_cache(maxsize=1)
def exact_counts():
    """Hands of C(24,6) holding each meld kind (counted with the reference's own helpers)."""
    counts = {"seq3plus": 0, "seq4plus": 0, "seq5": 0, "four_of_a_kind": 0}
    for h in combinations(DECK_CARDS, 6):
        hand = set(h)
        run = ref.longest_run(hand)
        counts["seq3plus"] += run >= 3
        counts["seq4plus"] += run >= 4
        counts["seq5"] += run >= 5
        counts["four_of_a_kind"] += ref.has_four(hand)
    return counts


def test_exact_counts_by_formula():
    counts = exact_counts()
    # Four of a kind: 6 ranks x C(20, 2) other pairs (two fours need 8 cards).
    assert counts["four_of_a_kind"] == 6 * math.comb(20, 2)
    # A run of five or six: per suit, the two 5-runs (A-high, K-high) with a card off the run, or the whole suit.
    assert counts["seq5"] == 4 * (2 * 18 + 1)


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    from barbu_sim.clabber.runs import RunConfig, run
    out = tmp_path_factory.mktemp("clabber") / "run"
    run(out, RunConfig(rounds=30_000, seed=3, strategies=["random"] * 4, chunk_rounds=10_000), progress=False)
    return out


def test_meld_frequencies_agree_with_exact_counts(small_run):
    from barbu_sim.clabber.analysis import meld_frequencies, scan_run
    freq = {r["meld"]: r for r in meld_frequencies(scan_run(small_run)).to_dicts()}
    for name, count in exact_counts().items():
        p = count / ALL_HANDS
        assert freq[name]["n"] == 120_000
        assert abs(freq[name]["p"] - p) < 4.5 * freq[name]["se"] + 1e-9, (name, freq[name], p)


def test_meld_flags_on_every_hand_agree_with_reference():
    for h in list(combinations(DECK_CARDS, 6))[::37]:
        hand = set(h)
        f = meld_flags(mask(hand))
        assert f % 8 == ref.longest_run(hand) and (f >= 8) == ref.has_four(hand)
