"""The numba Clabber engine against the pure-Python reference, card by card, and its invariants."""

import numpy as np
import pytest

import clabber_reference as ref
from barbu_sim.clabber.api import IllegalPlayError, deal_round, play_round, play_rounds
from barbu_sim.clabber.rules import DECK_CARDS, ROUND_COLUMNS, Rules

BIDDING = {"accept-first": ("accept-first",), "random": ("random",), "threshold:45": ("threshold", 45),
           "threshold:70": ("threshold", 70)}


def hands_of(mask_array):
    return [{c for c in range(52) if int(m) >> c & 1} for m in mask_array]


@pytest.mark.parametrize("index", range(4))
@pytest.mark.parametrize("dealer", range(4))
def test_deal_matches_reference(index, dealer):
    hands, turned = deal_round(11, index, dealer)
    r_hands, r_turned = ref.deal(11, index, dealer)
    assert hands_of(hands) == r_hands and turned == r_turned


def reference_round(seed, index, dealer, policy, partner_excuse=False, replay=None, forced=None):
    hands, turned = ref.deal(seed, index, dealer)
    return ref.play_round(hands, turned, dealer, [BIDDING[policy]] * 4, [ref.random_strategy] * 4, seed=seed,
                          round_index=index, partner_excuse=partner_excuse, replay=replay, forced_bidding=forced)


def assert_same(engine, reference):
    row = engine.row
    assert row["bid_round"] == reference["bid_round"]
    bid_text = {-1: "pass", 4: "play", 0: "C", 1: "D", 2: "H", 3: "S"}
    assert [(s, bid_text[b]) for s, b in engine.bids] == reference["bids"] or not reference["bids"]
    if reference["bid_round"] == 0:
        assert row["maker"] == -1 and row["score_ns"] == row["score_ew"] == 0
        return
    assert (row["maker"], row["trump"]) == (reference["maker"], reference["trump"])
    assert engine.plays == reference["plays"]
    assert engine.winners == reference["winners"]
    assert [row["card_ns"], row["card_ew"]] == reference["card_points"]
    assert [row["meld_ns"], row["meld_ew"]] == reference["meld_points"]
    assert [row["bell_ns"], row["bell_ew"]] == reference["bell"]
    assert [row["score_ns"], row["score_ew"]] == reference["scores"]


@pytest.mark.parametrize("policy", list(BIDDING))
@pytest.mark.parametrize("partner_excuse", [False, True])
def test_random_rounds_match_reference_card_by_card(policy, partner_excuse):
    rules = Rules(partner_excuse=partner_excuse)
    for index in range(40):
        dealer = index % 4
        engine = play_round(3, index, dealer, policy, "random", rules)
        assert_same(engine, reference_round(3, index, dealer, policy, partner_excuse))


def test_every_trump_and_maker_matches_reference():
    for index in range(12):
        for trump in range(4):
            forced = (1 + index % 2, index % 4, trump)
            engine = play_round(5, index, 1, "accept-first", "random", forced=forced)
            assert_same(engine, reference_round(5, index, 1, "accept-first", forced=forced))


@pytest.mark.parametrize("partner_excuse", [False, True])
def test_heuristic_plays_are_legal_and_score_as_the_reference(partner_excuse):
    rules = Rules(partner_excuse=partner_excuse)
    for index in range(60):
        engine = play_round(9, index, index % 4, "threshold:45", "heuristic", rules)
        cards = [c for _, c in engine.plays]
        forced = (engine.row["bid_round"], engine.row["maker"], engine.row["trump"])
        if forced[0] == 0:
            continue
        reference = reference_round(9, index, index % 4, "threshold:45", partner_excuse, replay=cards, forced=forced)
        assert_same(engine, reference)


def test_batch_equals_single_rounds_and_invariants():
    rows = play_rounds(21, 100, 300, dealer=2, bidding="random", strategies="random", threads=2, chunk=64)
    col = {c: i for i, c in enumerate(ROUND_COLUMNS)}
    for i in (0, 17, 299):
        one = play_round(21, 100 + i, 2, "random", "random").row
        assert [one[c] for c in ROUND_COLUMNS] == rows[i].tolist()
    played = rows[:, col["bid_round"]] > 0
    assert played.mean() > 0.8
    assert (rows[played, col["card_ns"]] + rows[played, col["card_ew"]] == 162).all()
    assert (rows[~played, col["score_ns"]] == 0).all()


@pytest.mark.parametrize("strategy", ["random", "heuristic"])
def test_same_on_one_and_two_threads(strategy):
    a = play_rounds(4, 0, 3000, bidding="threshold:50", strategies=strategy, threads=1, chunk=100)
    b = play_rounds(4, 0, 3000, bidding="threshold:50", strategies=strategy, threads=2, chunk=37)
    assert np.array_equal(a, b)


def test_each_card_once_in_a_round():
    for index in range(20):
        result = play_round(6, index, 0, "accept-first", "heuristic")
        assert sorted(c for _, c in result.plays) == list(DECK_CARDS)
        assert [s for s, _ in result.plays[:4]] == [1, 2, 3, 0]
