"""The numba Clabber engine against the pure-Python reference, card by card, and its invariants."""

import numpy as np
import pytest

import clabber_reference as ref
from barbu_sim.clabber.api import deal_round, play_round, play_rounds
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


def test_rare_rounds_match_reference_card_by_card():
    """Rounds picked from a batch for what they exercise, each replayed against the reference."""
    policy = "threshold:55"
    rows = play_rounds(14, 0, 20_000, dealer=1, bidding=policy, strategies="random").astype(np.int64)
    col = {c: i for i, c in enumerate(ROUND_COLUMNS)}
    played = rows[:, col["bid_round"]] > 0
    tot_ns = rows[:, col["card_ns"]] + rows[:, col["meld_ns"]] + rows[:, col["bell_ns"]]
    tot_ew = rows[:, col["card_ew"]] + rows[:, col["meld_ew"]] + rows[:, col["bell_ew"]]
    flags = rows[:, col["flags_n"]:col["flags_w"] + 1]
    has_meld = (flags % 8 >= 3) | (flags >= 8)
    both_meld = (has_meld[:, 0] | has_meld[:, 2]) & (has_meld[:, 1] | has_meld[:, 3])
    kinds = {
        "equal totals": played & (tot_ns == tot_ew),
        "meld tie": played & both_meld & (rows[:, col["meld_ns"]] + rows[:, col["meld_ew"]] == 0),
        "melds against melds": played & both_meld & (rows[:, col["meld_ns"]] + rows[:, col["meld_ew"]] > 0),
        "bell": played & (rows[:, col["bell_ns"]] + rows[:, col["bell_ew"]] > 0),
        "four of a kind": played & (flags >= 8).any(axis=1),
        "sequence of five": played & (flags % 8 >= 5).any(axis=1),
        "round two": rows[:, col["bid_round"]] == 2,
        "thrown in": ~played,
        "makers failed": played & ((rows[:, col["maker"]] % 2 == 0) & (rows[:, col["score_ns"]] == 0)
                                   | (rows[:, col["maker"]] % 2 == 1) & (rows[:, col["score_ew"]] == 0)),
    }
    for name, mask in kinds.items():
        picked = np.flatnonzero(mask)[:4]
        assert len(picked) > 0, name
        for i in picked:
            engine = play_round(14, int(i), 1, policy, "random")
            hands, turned = ref.deal(14, int(i), 1)
            reference = ref.play_round(hands, turned, 1, [("threshold", 55)] * 4, [ref.random_strategy] * 4,
                                       seed=14, round_index=int(i))
            assert_same(engine, reference)


def test_partner_excuse_changes_play_and_still_matches_reference():
    differ = 0
    for index in range(60):
        off = play_round(15, index, 0, "accept-first", "random")
        on = play_round(15, index, 0, "accept-first", "random", Rules(partner_excuse=True))
        differ += off.plays != on.plays
        assert_same(on, reference_round(15, index, 0, "accept-first", partner_excuse=True))
    assert differ > 5
