"""The declaring guide: its cards, the policy that plays them, the study that fits them and its page."""

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from barbu_sim.barbu.game.evaluation import Evaluator
from barbu_sim.barbu.game.guide import GUIDE_FILE, hand_features, load_guide, make_guide
from barbu_sim.barbu.rules.config import CONTRACTS, DOMINO, Rules, TRUMPS, parse_contract
from barbu_sim.barbu.studies.guide_page import card_markdown, guide_page, marginal_edges, declare_rule
from barbu_sim.core.cards import parse_hand
from cli_checks import assert_one_line_error, invoke

ROOT = Path(__file__).resolve().parents[1]
ALL = list(range(len(CONTRACTS)))
LONG_SPADES = parse_hand("AKQJT987.A2.32.2")  # eight spades: a Trumps hand if there is one
NO_HONOURS = parse_hand("5432.A.5432.5432")  # nothing above the 5 but the A♥


@pytest.fixture(scope="module")
def guide():
    return make_guide("guide", Evaluator("heuristic"))


def test_the_packaged_guide_has_a_card_per_contract_fitted_on_a_million_deals():
    data = load_guide(GUIDE_FILE)
    assert list(data["cards"]) == list(CONTRACTS)
    assert data["source"]["deals"] == 1_000_000
    for card in data["cards"].values():
        assert 1 <= len(card["features"]) <= 2
        assert sum(c["n"] for c in card["cells"]) == card["n"]  # every hand in exactly one cell
        assert 0 < card["share"] < 1


def test_the_reserve_is_trumps_and_domino_under_the_default_rules(guide):
    assert guide.reserve == {TRUMPS, DOMINO}


def test_trumps_waits_for_the_doubled_hands_however_long_the_suit(guide):
    contract, _ = guide.choose(LONG_SPADES, ALL, 0, Rules(), (2, 2, 2))
    assert contract not in (TRUMPS, DOMINO)
    without = make_guide("guide:no-reserve", Evaluator("heuristic"))
    assert without.choose(LONG_SPADES, ALL, 0, Rules(), (2, 2, 2)) == (TRUMPS, 3)  # spades


def test_before_the_doubles_the_largest_edge_is_declared(guide):
    row = hand_features([NO_HONOURS]).row(0, named=True)
    ranked = guide.rank(row, ALL, (2, 2, 2))
    assert set(ranked) == set(ALL) - {TRUMPS, DOMINO}
    for c in ranked:  # the edge is the card's cell less the contract's average
        card = guide.cards[c]
        assert ranked[c] == pytest.approx(card.score(row) - card.average)
    assert guide.choose(NO_HONOURS, ALL, 0, Rules(), (2, 2, 2))[0] == max(ranked, key=ranked.get)
    # a hand with nothing above the 5 but one ace is a No Tricks hand before anything else
    assert guide.choose(NO_HONOURS, ALL, 0, Rules(), (2, 2, 2))[0] == parse_contract("no-tricks")


def test_in_a_doubled_hand_the_doubled_value_decides(guide):
    row = hand_features([LONG_SPADES]).row(0, named=True)
    left = [TRUMPS, DOMINO]
    ranked = guide.rank(row, left, (2, 2, 2))  # two hands left, two doubles owed by each: all three double
    totals = Rules()
    scores = guide.hand_scores(row)
    assert scores[TRUMPS] == guide.cards[TRUMPS].score(row)
    assert scores[DOMINO] == max(guide.rank_scores(LONG_SPADES))  # Domino: the rank card at the rank named
    for c in left:
        assert ranked[c] == pytest.approx(5 * scores[c] - totals.contract_total(c))
    assert guide.choose(LONG_SPADES, left, 0, Rules(), (2, 2, 2))[0] == TRUMPS
    # without the doubled rule, the edge decides there too
    plain = make_guide("guide:no-doubled", Evaluator("heuristic"))
    assert set(plain.rank(row, left, (2, 2, 2))) == set(left)


def test_the_domino_rank_is_the_one_its_card_scores_highest(guide):
    hand = parse_hand("AK.AK.AK.AK76543")
    rank = guide.param_for(DOMINO, hand)
    scores = []
    from barbu_sim.barbu.game.guide import rank_features
    for row in rank_features(hand).iter_rows(named=True):
        scores.append(guide.rank_card.score(row))
    assert len(scores) == 13 and rank == int(np.argmax(scores))


def test_a_guide_for_other_rules_or_rules_it_has_not_are_refused():
    with pytest.raises(ValueError, match="fitted under other rules"):
        make_guide("guide", Evaluator("heuristic", Rules().with_options(**{"no-tricks-per-trick": -3})),
                   Rules().with_options(**{"no-tricks-per-trick": -3}))
    with pytest.raises(ValueError, match="the guide's rules are cards, reserve, doubled"):
        make_guide("guide:no-luck", Evaluator("heuristic"))
    with pytest.raises(ValueError, match="write guide:no-RULE"):
        make_guide("guide:reserve", Evaluator("heuristic"))


def test_the_page_says_each_cards_test_in_words():
    data = load_guide(GUIDE_FILE)
    card = data["cards"]["no-tricks"]
    edges = marginal_edges(card)
    assert edges[min(edges)] > 0 > edges[max(edges)]  # few high cards: a No Tricks hand
    assert declare_rule("no-tricks", card).startswith("**Declare No Tricks early when you hold at most ")
    assert declare_rule("barbu", data["cards"]["barbu"]).startswith(
        "**Declare Barbu (No King of Hearts) early when you do not hold the K♥**")
    table = card_markdown(card)
    assert table.count("\n") == len({c["high"] for c in card["cells"]}) + 1


def test_the_published_page_is_the_one_the_guide_and_its_measurement_make():
    data = load_guide(GUIDE_FILE)
    from barbu_sim.barbu.studies.guide import load_orders
    orders = load_orders(ROOT / "results" / "guide" / "orders")
    command = ("barbu-sim study guide --guide barbu_sim/barbu/game/guide.json --page docs/guide.md "
               "--orders results/guide/orders --force")
    made = guide_page(data, {**orders, "folder": "results/guide/orders"}, "guide-cards.png", command)
    assert (ROOT / "docs" / "guide.md").read_text() == made
    assert json.loads((ROOT / "results" / "guide" / "guide.json").read_text()) == data


def test_the_study_fits_a_guide_that_the_policy_plays(tmp_path):
    out = tmp_path / "g"
    result = invoke("study", "guide", "-n", 1500, "--strategy", "heuristic", "--runs", tmp_path / "runs",
                    "--results", out, "--page", tmp_path / "page" / "guide.md", "--guide", tmp_path / "mine.json",
                    "--no-progress")
    assert result.exit_code == 0, result.output
    assert "Wrote the guide" in result.output
    assert (tmp_path / "page" / "images" / "guide-cards.png").stat().st_size > 10_000
    cards = pl.read_csv(out / "card_no-tricks.csv")
    assert cards["n"].sum() == 1500
    played = make_guide(f"guide:{tmp_path / 'mine.json'}", Evaluator("heuristic"))
    assert played.choose(NO_HONOURS, ALL, 0, Rules(), (2, 2, 2))[0] in set(ALL) - {TRUMPS, DOMINO}
    again = invoke("study", "guide", "-n", 1500, "--strategy", "heuristic", "--runs", tmp_path / "runs",
                   "--results", out, "--no-progress")
    assert_one_line_error(again, "--results", "guide.json", "--force")
    other = invoke("study", "guide", "-n", 1600, "--strategy", "heuristic", "--runs", tmp_path / "runs",
                   "--results", tmp_path / "g2", "--no-progress")
    assert_one_line_error(other, "holds another run than this study's")
    assert_one_line_error(invoke("study", "guide", "--orders", tmp_path / "nowhere", "--results", tmp_path / "g3"),
                          "no orders_blocks.json")


def test_compare_orders_measures_the_guide(tmp_path):
    result = invoke("compare-orders", "--policies", "fixed,guide,guide:no-reserve", "--blocks", 2, "--games", 0,
                    "--samples", 4, "--out", tmp_path / "o")
    assert result.exit_code == 0, result.output
    rows = json.loads((tmp_path / "o" / "orders_blocks.json").read_text())
    assert {r["policy"] for r in rows} == {"fixed", "guide", "guide:no-reserve"}
    assert all(r["n"] == 2 for r in rows)
