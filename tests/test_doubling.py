"""Decisions that know about doubling: the settled block DP, the spending rule, the bayes sampler."""

import numpy as np
import pytest

from barbu_sim.barbu.game.doubling import Always, Bayes, CompulsoryOnly, Situation, Threshold
from barbu_sim.barbu.game.evaluation import EvalGrid, Evaluator, value_table
from barbu_sim.barbu.game.game import play_game
from barbu_sim.barbu.game.policies import Optimal, RawOptimal, make_contract_policy, make_players
from barbu_sim.barbu.game.proxy import advantage_r2, grid_to_contracts
from barbu_sim.barbu.game.settled import (
    OWED_STATES, best_order_total, brute_force_block, owed_index, settled_block_values, spend_threshold,
    spending_values,
)
from barbu_sim.barbu.rules import DOMINO, N_CONTRACTS, TRUMPS, Rules

SMALL = dict(n_hands=120, n_samples=40)
ALL = (1 << N_CONTRACTS) - 1


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BARBU_SIM_CACHE", str(tmp_path / "cache"))


def hand_made(n_hands: int, seed: int) -> np.ndarray:
    """(n, 7, 4) seat values: small integers, the declarer's spread wide."""
    rng = np.random.default_rng(seed)
    return rng.integers(-12, 13, size=(n_hands, N_CONTRACTS, 4)).astype(float)


DETERMINISTIC = [
    ([CompulsoryOnly()] * 3, CompulsoryOnly()),
    ([Always(), CompulsoryOnly(), Always()], Threshold(None, 2.0)),
]
# A threshold defender doubles No Tricks 1 time in 4, Trumps 3 times in 4, nothing else.
RATES = [np.array([0, 0, 0, 10.0])] + [np.zeros(4)] * 4 + [np.array([0, 10.0, 10, 10])] + [np.zeros(4)]
POLICY_MIXES = DETERMINISTIC + [([Threshold(None, 3.0, RATES), Always(), CompulsoryOnly()], Threshold(None, 2.0))]


@pytest.mark.parametrize("opponents,own", DETERMINISTIC)
def test_settled_dp_equals_the_best_order_for_one_known_hand(opponents, own):
    # With a single sample hand the future is known: the DP must find the best of all 5040 orders.
    values = hand_made(1, 3)
    V = settled_block_values(values, opponents, own)
    for owed in [(2, 2, 2), (1, 2, 0)]:
        assert V[ALL, owed_index(owed)] == pytest.approx(best_order_total(values[0], owed, opponents, own))


@pytest.mark.parametrize("opponents,own", POLICY_MIXES)
def test_settled_dp_equals_brute_force_over_every_hand_sequence(opponents, own):
    values = hand_made(2, 8)
    V = settled_block_values(values, opponents, own)
    assert opponents[0].double_rate(TRUMPS, ALL, 1) in (0.0, 0.75, 1.0)
    subset = 0b1100101  # four contracts left (Trumps and Domino among them)
    for owed in [(2, 2, 2), (2, 1, 0), (0, 0, 0)]:
        assert V[subset, owed_index(owed)] == pytest.approx(brute_force_block(values, subset, owed, opponents, own))


def test_compulsory_doubles_make_the_last_two_hands_count_more():
    # Only Trumps is good for the declarer (+20, each defender -5): a raw planner is indifferent to
    # when it comes, the settled one keeps it for the last two hands, when all three must double.
    values = np.zeros((1, N_CONTRACTS, 4))
    values[0, TRUMPS] = [20, -5, -5, -5]
    opponents, own = [CompulsoryOnly()] * 3, CompulsoryOnly()
    V = settled_block_values(values, opponents, own)
    assert V[ALL, owed_index((2, 2, 2))] == pytest.approx(20 + 3 * 25)
    assert V[1 << TRUMPS, owed_index((1, 1, 1))] == pytest.approx(20 + 3 * 25)
    assert V[(1 << TRUMPS) | 1, owed_index((0, 0, 0))] == pytest.approx(20)


def test_spending_rule_waits_for_the_best_contract():
    # Gains of doubling: Trumps +10 always, everything else -10.  With one double owed, a defender
    # spends it on Trumps whenever Trumps is still ahead, and is forced on the last hand.
    gains = np.full((4, N_CONTRACTS), -10.0)
    gains[:, TRUMPS] = 10.0
    W = spending_values(gains)
    S = (1 << TRUMPS) | 0b11
    assert W[S, 1] == pytest.approx(10.0)
    assert spend_threshold(W, S, 0, 1) == pytest.approx(10.0)  # No Tricks now (gain -10): wait for Trumps
    assert spend_threshold(W, S, TRUMPS, 1) == pytest.approx(-10.0)  # Trumps now: spend
    assert spend_threshold(W, 1 << TRUMPS, TRUMPS, 1) == -np.inf  # forced
    assert spend_threshold(W, S, 0, 0) == np.inf  # nothing owed


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    import os
    old = os.environ.get("BARBU_SIM_CACHE")
    os.environ["BARBU_SIM_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    try:
        yield value_table(["heuristic"] * 4, Rules(), **SMALL)
    finally:
        if old is None:
            os.environ.pop("BARBU_SIM_CACHE")
        else:
            os.environ["BARBU_SIM_CACHE"] = old


@pytest.mark.parametrize("declarer_policy", ["optimal", "relative", "fixed"])
def test_bayes_sampler_keeps_only_deals_consistent_with_the_choice(table, declarer_policy):
    evaluator = Evaluator(["heuristic"] * 4, Rules(), 20, 0)
    bayes = Bayes(evaluator, table, 5.0, n_candidates=600, max_kept=1000)
    policy = make_contract_policy(declarer_policy, evaluator, lambda: table)
    declarer, player = 0, 2
    remaining = [1, 3, TRUMPS, DOMINO]
    situation = Situation(index=17, remaining=tuple(remaining), owed=(1, 2, 0), declarer_policy=policy)
    hand = table.hands[5]
    # Announce the choice the policy makes most often with the hands the player cannot rule out.
    rng = np.random.default_rng(1)
    unseen = np.array([c for c in range(52) if not int(hand) >> c & 1])
    others = np.array([sum(1 << int(c) for c in rng.permutation(unseen)[:13]) for _ in range(300)], np.uint64)
    cs, ps = bayes.assumed_choices(others, situation)
    pairs, counts = np.unique(np.stack([cs, ps]), axis=1, return_counts=True)
    contract, param = (int(x) for x in pairs[:, np.argmax(counts)])
    deals, level = bayes.consistent_deals(hand, player, declarer, contract, param, situation, seed=3)
    assert level == 0 and len(deals) >= Bayes.MIN_KEPT
    for d in deals:
        assert d[player] == hand
        assert np.bitwise_or.reduce(d) == (1 << 52) - 1
        assert sum(bin(int(h)).count("1") for h in d) == 52
        # Checked one hand at a time through the policy's own scalar ranking of the proxy's estimates.
        values, params, seat_values = grid_to_contracts(bayes.proxy.predict(d[declarer:declarer + 1]))
        if declarer_policy == "fixed":
            c = next(c for c in policy.order if c in remaining)
            p = policy.param_for(c, d[declarer])
        else:
            scores = policy.scores(values[0], remaining, situation.owed, seat_values[0])
            c = max(remaining, key=lambda k: (scores[k], -k))
            p = int(params[0, c])
        assert c == contract
        if contract in (TRUMPS, DOMINO):
            assert p == param


def test_advantage_r2_tells_a_readable_contract_from_an_unreadable_one():
    # Negative contracts: the advantage is a linear function of the cards (the proxy's own form);
    # Trumps and Domino: noise the cards say nothing about.
    rng = np.random.default_rng(4)
    hands = np.array([sum(1 << int(c) for c in rng.permutation(52)[:13]) for _ in range(300)], np.uint64)
    bits = ((hands.reshape(-1, 1) >> np.arange(52, dtype=np.uint64)) & np.uint64(1)).astype(float)
    grid = rng.normal(0, 5, size=(300, EvalGrid.SIZE, 4))
    grid[:, :EvalGrid.TRUMPS_FROM, 0] = bits @ rng.normal(0, 3, size=(52, EvalGrid.TRUMPS_FROM))
    r2 = advantage_r2(hands, grid)
    assert (r2[:TRUMPS] > 0.8).all() and r2[TRUMPS] < 0.1 and r2[DOMINO] < 0.1
    # Nothing to judge: an advantage that never varies, or too few hands.
    flat = grid.copy()
    flat[:, :, :] = 3.0
    assert (advantage_r2(hands, flat) == 0).all()
    assert (advantage_r2(hands[:3], grid[:3]) == 0).all()


def test_spending_keeps_doubles_for_later_where_it_may_not_spend_them():
    # Two contracts left, one double owed; Domino gains 10, No Tricks nothing.
    gains = np.zeros((4, N_CONTRACTS))
    gains[:, DOMINO] = 10.0
    S = 1 | 1 << DOMINO
    assert spending_values(gains)[S, 1] == pytest.approx(10.0)  # spend it on Domino, whichever comes first
    # Domino blocked: if it comes first the double waits for No Tricks (gain 0); if No Tricks comes
    # first the double waits and is forced on Domino (gain 10).
    assert spending_values(gains, blocked=[DOMINO])[S, 1] == pytest.approx(5.0)


def test_bayes_acts_only_where_it_reads_the_declarers_choice(table):
    evaluator = Evaluator(["heuristic"] * 4, Rules(), 20, 0)
    bayes = Bayes(evaluator, table, 0.0, n_candidates=300)
    bayes.reliability = np.where(np.arange(N_CONTRACTS) == DOMINO, 0.1, 0.9)  # Domino unreadable
    assert bayes.trusts(TRUMPS) and not bayes.trusts(DOMINO)
    assert bayes.double_rate(DOMINO, ALL, 1) == 0.0 and bayes.double_rate(TRUMPS, ALL, 2) > 0.0
    huge = {0: 100.0, 2: 100.0}
    assert bayes.decide(huge, 0, False, 1, ALL, DOMINO) == {}  # no margin, no planned double
    assert bayes.decide(huge, 0, True, 1, ALL, DOMINO) == {0: "forced"}
    assert bayes.decide(huge, 0, False, 1, ALL, TRUMPS) == {0: "margin", 2: "margin"}
    assert bayes.decide(huge, 0, False, 1, ALL, TRUMPS, level=1) == {0: "margin", 2: "margin"}
    # No deal matched the declarer's choice: the gains of random deals are not acted on.
    assert bayes.decide(huge, 0, False, 1, ALL, TRUMPS, level=2) == {}
    assert bayes.decide(huge, 0, True, 1, ALL, TRUMPS, level=2) == {0: "forced"}
    winning = np.array([[0.0, 50, 0, 0]] * 8)  # East (1) outscores the declarer by 50 in every deal
    bayes.estimate = lambda *a, **k: (winning, 2)
    assert bayes.choose(1, 0, TRUMPS, 2, table.hands[3], {0}, False, Rules(), Situation(index=2)) == set()
    bayes.estimate = lambda *a, **k: (winning, 0)
    assert bayes.choose(1, 0, TRUMPS, 2, table.hands[3], {0}, False, Rules(), Situation(index=3)) == {0}
    situation = Situation(index=1, remaining=(TRUMPS, DOMINO), owed=(1, 1, 1))
    hand = table.hands[3]
    assert bayes.choose(1, 0, DOMINO, 4, hand, {0}, False, Rules(), situation) == set()
    assert situation.notes[1]["trusted"] is False
    assert bayes.choose(1, 0, DOMINO, 4, hand, {0}, True, Rules(), situation) == {0}
    assert situation.notes[1]["reasons"] == {0: "forced"}
    # The declarer's settled DP plans with these double rates: its cache must tell the two policies apart.
    from barbu_sim.barbu.game.settled import block_values_path
    readable = Bayes(evaluator, table, 0.0, n_candidates=300)
    readable.reliability = np.ones(N_CONTRACTS)
    own = CompulsoryOnly()
    assert block_values_path(table, [bayes] * 3, own) != block_values_path(table, [readable] * 3, own)


def test_optimal_is_settled_and_raw_optimal_is_not(table):
    evaluator = Evaluator(["heuristic"] * 4, Rules(), 20, 0)
    opt = make_contract_policy("optimal", evaluator, lambda: table)
    raw = make_contract_policy("raw-optimal", evaluator, lambda: table)
    assert isinstance(opt, Optimal) and isinstance(raw, RawOptimal)
    # The settled DP of the whole block exceeds the raw one: the forced doubles pay the declarer.
    assert opt.V[ALL, owed_index((2, 2, 2))] > table.subset_value[ALL]
    assert np.isnan(opt.V[1, owed_index((2, 0, 0))])  # one hand left, two doubles owed: impossible
    assert all(not np.isnan(opt.V[ALL, owed_index(o)]) for o in OWED_STATES)


def test_games_with_bayes_doubling_are_legal_and_zero_sum(table, monkeypatch):
    from test_game import check_game
    rules = Rules()
    monkeypatch.setattr("barbu_sim.barbu.game.policies.value_table", lambda *a, **k: table)
    players = make_players(["heuristic"] * 4, ["optimal", "raw-optimal", "fixed", "optimal"],
                           ["bayes", "bayes:0", "compulsory-only", "threshold"], rules=rules, n_samples=20)
    for p in players:
        if isinstance(p.doubling_policy, Bayes):
            p.doubling_policy.n_candidates = 300
    result = play_game(4, 0, players, rules=rules)
    check_game(result, rules)  # every double allowed, every compulsory one made, zero-sum


def test_doubling_study_runs_tiny(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path
    script = Path(__file__).resolve().parent.parent / "scripts" / "doubling_study.py"
    subprocess.run([sys.executable, str(script), "--blocks", "3", "--samples", "10", "--table-hands", "60",
                    "--policies", "compulsory-only,bayes", "--out", str(tmp_path / "d")], check=True,
                   capture_output=True, text=True, env={**__import__("os").environ,
                                                        "BARBU_SIM_CACHE": str(tmp_path / "cache")})
    policies = json.loads((tmp_path / "d" / "policies.json").read_text())
    assert [r["policy"] for r in policies] == ["compulsory-only", "bayes:5"]
    assert policies[0]["doubles_per_block"] == 2.0  # East makes exactly the compulsory doubles
    gains = json.loads((tmp_path / "d" / "gain_by_contract_hand.json").read_text())
    assert sum(r["n"] for r in gains) <= 3 * 7 * 3 and {r["hand"] for r in gains} <= set(range(1, 8))


def test_advise_in_context_and_the_defenders_question(table, monkeypatch):
    from typer.testing import CliRunner
    from barbu_sim.cli import app
    monkeypatch.setattr("barbu_sim.barbu.game.advice.value_table", lambda *a, **k: table)
    runner = CliRunner()
    r = runner.invoke(app, ["advise", "AKQ.JT9.876.5432", "--remaining", "trumps,domino,barbu", "--hand-in-block", "5",
                            "--doubles-owed", "E=1,S=2,W=0", "--samples", "40"])
    assert r.exit_code == 0, r.output
    assert "optimal_value" in r.output and "(1, 2, 0)" in r.output and "settled score" in r.output
    r = runner.invoke(app, ["advise", "T98.765.AK32.QJ2", "--double", "barbu", "--declarer", "N", "--seat", "E",
                            "--remaining", "barbu,no-queens", "--hand-in-block", "6", "--samples", "30"])
    assert r.exit_code == 0, r.output
    assert "N (declarer)" in r.output and "| S " in r.output and "Double:" in r.output
    monkeypatch.setattr(Bayes, "MIN_R2", 2.0)  # no contract readable: the advice says so and only forced doubles
    r = runner.invoke(app, ["advise", "T98.765.AK32.QJ2", "--double", "domino:8", "--declarer", "N", "--seat", "E",
                            "--remaining", "trumps,domino", "--hand-in-block", "6", "--doubles-owed", "E=1",
                            "--samples", "20"])
    assert r.exit_code == 0, r.output
    assert "explains only" in r.output and "Double: nobody" in r.output
    monkeypatch.setattr(Bayes, "MIN_R2", -1.0)  # every contract readable, but no deal matches the choice
    monkeypatch.setattr(Bayes, "estimate", lambda self, *a, **k: (np.array([[0.0, 40, 0, 0]] * 4), 2))
    r = runner.invoke(app, ["advise", "T98.765.AK32.QJ2", "--double", "barbu", "--declarer", "N", "--seat", "E",
                            "--remaining", "barbu,no-queens", "--hand-in-block", "6", "--doubles-owed", "E=1",
                            "--samples", "20"])
    assert r.exit_code == 0, r.output
    assert "over random deals" in r.output and "explains only" not in r.output and "Double: nobody" in r.output


@pytest.mark.parametrize("args,needle", [
    (["--hand-in-block", "3"], "give the 5 contracts"),
    (["--hand-in-block", "9"], "1..7"),
    (["--remaining", "barbu,trumps", "--hand-in-block", "5"], "leaves 3 contracts"),
    (["--doubles-owed", "N=1"], "is the declarer"),
    (["--remaining", "barbu", "--doubles-owed", "E=2"], "impossible"),
    (["--doubles-owed", "E=x"], "not a number"),
    (["--double", "trumps"], "trump suit"),
    (["--double", "barbu", "--seat", "N"], "must not be the declarer"),
    (["--double", "barbu", "--remaining", "trumps,domino"], "not one of the declarer's remaining"),
])
def test_bad_advise_arguments(args, needle):
    from typer.testing import CliRunner
    from barbu_sim.cli import app
    r = CliRunner().invoke(app, ["advise", "AKQ.JT9.876.5432", "--samples", "10"] + args)
    assert r.exit_code == 2, r.output
    assert needle in r.output and "Traceback" not in r.output


def test_compare_orders_scores_raw_and_settled(tmp_path, monkeypatch, table):
    import json
    from barbu_sim.barbu.game.io import write_comparison
    from barbu_sim.barbu.game.orders import compare_orders
    monkeypatch.setattr("barbu_sim.barbu.game.orders.value_table", lambda *a, **k: table)
    cmp = compare_orders(["raw-optimal", "optimal"], doublings=["compulsory-only", "always"], blocks=60, games=0,
                         seed=5, n_samples=20)
    write_comparison(cmp, tmp_path / "o")
    diffs = json.loads((tmp_path / "o" / "orders_differences.json").read_text())
    assert {(d["doubling"], d["score"]) for d in diffs} == {(a, b) for a in ("compulsory-only", "always")
                                                            for b in ("raw", "settled")}
    assert all(d["policy"] == "optimal" and d["baseline"] == "raw-optimal" for d in diffs)
    settled = next(d for d in diffs if d["doubling"] == "compulsory-only" and d["score"] == "settled")
    assert settled["ci_low"] > 0  # planning for the forced doubles pays
    # Settled minus raw is the settlement: zero for raw-optimal only if nobody doubled, which never happens.
    for (dbl, pol, score), t in cmp.totals.items():
        if score == "settled":
            assert not np.array_equal(t, cmp.totals[(dbl, pol, "raw")])
