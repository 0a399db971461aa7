"""Melds: the engine's lane tables against the reference's brute-force partitions, and the meld
frequencies of a run against exact counts over all C(24,6) hands."""

import functools
import math
import random
from itertools import combinations

import numpy as np
import pytest

import clabber_reference as ref
from barbu_sim.clabber.rules.melds import hand_melds, meld_flags, team_meld_points, team_melds
from barbu_sim.clabber.rules import DECK_CARDS, Rules, parse_clabber_deal
from barbu_sim.core.cards import cards_of

ALL_HANDS = math.comb(24, 6)


def mask(cards):
    return np.uint64(sum(1 << c for c in cards))


def engine_key_order(hands, trump):
    return [hand_melds(mask(h), trump)[1] for h in hands]


def test_hand_melds_match_reference_partitions():
    rng = random.Random(5)
    # Every hand holding a four of a kind or a run of five or six, and a random sample of the rest.
    special = [set(h) for h, run, four in every_hand() if four or run >= 5]
    assert len(special) == 6 * math.comb(20, 2) + 4 * 37  # fours, runs of five or six: no six cards hold both
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
def every_hand() -> list[tuple[tuple[int, ...], int, bool]]:
    """Each of the C(24,6) hands with its longest run and whether it holds a four of a kind, by the reference's
    own helpers (one pass over the hands serves the counts and the special hands)."""
    return [(h, ref.longest_run(set(h)), ref.has_four(set(h))) for h in combinations(DECK_CARDS, 6)]


@functools.lru_cache(maxsize=1)
def exact_counts():
    """Hands of C(24,6) holding each meld kind (counted with the reference's own helpers)."""
    counts = {"seq3plus": 0, "seq4plus": 0, "seq5": 0, "four_of_a_kind": 0}
    hands = every_hand()
    assert len(hands) == ALL_HANDS
    for _, run, four in hands:
        counts["seq3plus"] += run >= 3
        counts["seq4plus"] += run >= 4
        counts["seq5"] += run >= 5
        counts["four_of_a_kind"] += four
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
    from barbu_sim.clabber.analytics.analysis import meld_frequencies, scan_run
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


# ---- the meld rankings the rule text leaves open (meld-fours, meld-ranking)
RANKINGS = [Rules(), Rules(meld_fours="card-rank"), Rules(meld_ranking="points-first"),
            Rules(meld_fours="card-rank", meld_ranking="points-first")]


def hands_of(text):
    return np.array([mask(h) for h in ref_deal(text)], np.uint64)


def ref_deal(text):
    return [set(cards_of(int(h))) for h in parse_clabber_deal(text)]


@pytest.mark.parametrize("rules", RANKINGS, ids=["text", "card-rank", "points-first", "card-rank+points-first"])
def test_team_comparison_under_each_meld_ranking_matches_reference(rules):
    arr = rules.to_array()
    decided = 0
    for index in range(300):
        hands, _ = ref.deal(29, index, 0)
        for trump in range(4):
            m0, m1, _ = ref.team_melds(hands, trump, rules)
            got = team_melds(np.array([mask(h) for h in hands], np.uint64), trump, arr)
            assert got[:2] == (m0, m1)
            decided += (m0 > 0) + (m1 > 0)
    assert decided > 100  # the comparison decides often enough to be tested


def test_four_nines_against_four_aces():
    # N holds four 9s, E four aces, nobody else a meld: the table's order gives the melds to N+S, the
    # card rank to E+W; points first, 100 each and the top card decides: the ace.
    hands = hands_of("N:9.9.KJ9.9 AT.A.A.AQ J.KJ.T.KJ KQ.QT.Q.T")
    assert team_melds(hands, 0, Rules().to_array())[:2] == (100, 0)
    assert team_melds(hands, 0, Rules(meld_fours="card-rank").to_array())[:2] == (0, 100)
    assert team_melds(hands, 0, Rules(meld_ranking="points-first").to_array())[:2] == (0, 100)


def test_four_of_a_kind_against_a_sequence_of_five():
    # N holds four 9s, E the hearts A K Q J 10 (100 each): fours first, N+S; points first, the top card,
    # the ace, beats the 9: E+W.  The reference agrees.
    deal = "N:9.9.Q9.Q9 J.AKQJT.. Q..AT.AKJ AKT..KJ.T"
    hands = hands_of(deal)
    assert team_melds(hands, 0, Rules().to_array())[:2] == (100, 0)
    assert team_melds(hands, 0, Rules(meld_ranking="points-first").to_array())[:2] == (0, 100)
    hs = ref_deal(deal)
    assert ref.team_melds(hs, 0, Rules())[:2] == (100, 0)
    assert ref.team_melds(hs, 0, Rules(meld_ranking="points-first"))[:2] == (0, 100)


def test_a_round_scores_its_melds_under_the_ranking_in_force():
    # The deal above, played out (W deals, the turned card the 10♣): the round's meld columns follow
    # the ranking in force, and a random round under each ranking scores as the reference compares.
    from barbu_sim.clabber.api import play_dealt, play_round
    from barbu_sim.core.cards import parse_card
    hands = hands_of("N:9.9.Q9.Q9 J.AKQJT.. Q..AT.AKJ AKT..KJ.T")
    melds = {}
    for rules in (Rules(), Rules(meld_ranking="points-first")):
        row = play_dealt(hands, parse_card("TC"), 3, "accept-first", "random", rules).row
        assert row["bid_round"] == 1
        melds[rules.meld_ranking] = (row["meld_ns"], row["meld_ew"])
    assert melds == {"fours-first": (100, 0), "points-first": (0, 100)}
    for rules in RANKINGS[1:]:
        for index in range(20):
            row = play_round(31, index, index % 4, "accept-first", "random", rules).row
            hands_, _ = ref.deal(31, index, index % 4)
            assert (row["meld_ns"], row["meld_ew"]) == ref.team_melds(hands_, row["trump"], rules)[:2]


def test_meld_show_at_once_shows_every_meld_before_the_lead():
    # What the mc player knows before the first lead: the turned card, and under meld-show=at-once every
    # seat's melds (by default each seat's are shown when it plays to the first trick).
    from barbu_sim.clabber.players.mc import K_SHOWN, MC_WORK_SIZE, begin, meld_cards, show_all_melds
    from barbu_sim.clabber.rules import parse_rule_options
    from barbu_sim.core.cards import parse_card
    hands = hands_of("N:9.9.Q9.Q9 J.AKQJT.. Q..AT.AKJ AKT..KJ.T")
    mcw = np.zeros(MC_WORK_SIZE, np.uint64)
    begin(mcw, 3, parse_card("TC"), np.uint64(1))
    assert mcw[K_SHOWN:K_SHOWN + 3].tolist() == [0, 0, 0] and mcw[K_SHOWN + 3] == mask([parse_card("TC")])
    show_all_melds(mcw, hands)
    nines = [parse_card(c) for c in ("9S", "9H", "9D", "9C")]
    hearts = [parse_card(c) for c in ("AH", "KH", "QH", "JH", "TH")]
    assert mcw[K_SHOWN] == mask(nines) and mcw[K_SHOWN + 1] == mask(hearts)
    assert mcw[K_SHOWN + 2] == 0 and mcw[K_SHOWN + 3] == mask([parse_card("TC")])  # no melds: nothing more
    assert meld_cards(hands[0]) == mask(nines)
    rules = parse_rule_options(["meld-show=at-once", "meld-ranking=points-first"])
    assert (rules.meld_show, rules.to_array()[4]) == ("at-once", 1)
    with pytest.raises(ValueError, match="meld-show: 'never' is not one of in-turn, at-once"):
        parse_rule_options(["meld-show=never"])
