"""Decisions that know about doubling: the settled block DP, the spending rule, the bayes sampler."""

import numpy as np
import pytest

from barbu_sim.barbu.game.doubling import Always, Bayes, CompulsoryOnly, Situation, Threshold
from barbu_sim.barbu.game.evaluation import EvalGrid, Evaluator, value_table
from barbu_sim.barbu.game.game import play_game
from barbu_sim.barbu.game.policies import Optimal, RawOptimal, make_contract_policy, make_players
from barbu_sim.barbu.game.proxy import advantage_r2, grid_to_contracts
from barbu_sim.barbu.game.settled import (
    OWED_STATES, best_order_total, brute_force_block, hand_outcome, owed_index, settled_block_values,
    spend_threshold, spending_values,
)
from barbu_sim.barbu.rules import BARBU, DOMINO, N_CONTRACTS, TRUMPS, Rules

SMALL = dict(n_hands=120, n_samples=40)
ALL = (1 << N_CONTRACTS) - 1


pytestmark = pytest.mark.usefixtures("private_cache")


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


# ---------------------------------------------------------------- settlement worked out by hand
# The numbers below are worked out from the rules (pair by pair: one double settles |a - b| to the
# higher scorer, double and redouble 2 |a - b|), not by calling the model.
NT_RAW = [-4, -12, -6, -4]  # No Tricks, declarer, left, across, right: 2 + 6 + 3 + 2 tricks, -26 in all


def test_worked_example_one_double():
    # Left always doubles, across and right only when forced (they owe 2 with 7 hands left: not forced).
    # Declarer -4 vs left -12: the declarer is 8 better and wins 8.  Value -4 + 8 = 4.
    # Owed after the hand: left 2 - 1 = 1, the others 2: index 9 * 1 + 3 * 2 + 2 = 17, certain.
    value, nexts = hand_outcome(np.array([NT_RAW], float), 0, ALL, (2, 2, 2),
                                [Always(), CompulsoryOnly(), CompulsoryOnly()], CompulsoryOnly())
    assert value.tolist() == [4.0]
    assert nexts == [(1.0, 17)]


def test_worked_example_redoubles():
    # Left and across always double; the declarer redoubles when it expects to gain more than 5.
    # Left: declarer -4 vs -12, gain 8 > 5: redoubled, 2 * 8 = 16.  Across: -4 vs -6, gain 2: only
    # doubled, 2.  Right never doubles.  Value -4 + 16 + 2 = 14.  Owed after: (1, 1, 2), index 9 + 3 + 2 = 14.
    value, nexts = hand_outcome(np.array([NT_RAW], float), 0, ALL, (2, 2, 2),
                                [Always(), Always(), CompulsoryOnly()], Threshold(None, 5.0))
    assert value.tolist() == [14.0]
    assert nexts == [(1.0, 14)]
    # Barbu, the declarer took the king of hearts (-20, the others 0); everyone doubles and the declarer
    # redoubles everyone: it loses 2 * 20 to each of the three.  Value -20 - 3 * 40 = -140.
    value, _ = hand_outcome(np.array([[-20, 0, 0, 0]], float), BARBU, ALL, (2, 2, 2), [Always()] * 3, Always())
    assert value.tolist() == [-140.0]
    # Two sample hands at once, each settled on its own: the same Barbu hand, and one where left took
    # the king (declarer 0 vs left -20: +40 redoubled; vs across and right 0 - 0: nothing).
    value, _ = hand_outcome(np.array([[-20, 0, 0, 0], [0, -20, 0, 0]], float), BARBU, ALL, (2, 2, 2),
                            [Always()] * 3, Always())
    assert value.tolist() == [-140.0, 40.0]


def test_worked_example_a_double_at_a_rate():
    # A threshold:3 defender doubles No Tricks one time in four (its gain samples 0, 0, 0, 10).
    # Expected value -4 + 0.25 * 8 = -2; owed after: (1, 2, 2) = index 17 with 0.25, unchanged
    # (2, 2, 2) = index 26 with 0.75.
    value, nexts = hand_outcome(np.array([NT_RAW], float), 0, ALL, (2, 2, 2),
                                [Threshold(None, 3.0, RATES), CompulsoryOnly(), CompulsoryOnly()], CompulsoryOnly())
    assert value.tolist() == [-2.0]
    assert sorted(nexts) == [(0.25, 17), (0.75, 26)]


def test_worked_example_forced_doubles_in_the_last_hands():
    # Trumps with two hands left (Trumps and No Tricks); left owes 2 (= hands left: forced), across 1,
    # right 0 (not forced; they double only when forced).  Trumps pays 5 a trick: declarer 5 tricks = 25,
    # left 3 = 15, across 2 = 10, right 3 = 15.  Only left doubles: 25 - 15 = 10.  Value 25 + 10 = 35.
    # Owed after: (1, 1, 0), index 9 + 3 = 12.
    two_left = 1 << TRUMPS | 1 << 0
    value, nexts = hand_outcome(np.array([[25, 15, 10, 15]], float), TRUMPS, two_left, (2, 1, 0),
                                [CompulsoryOnly()] * 3, CompulsoryOnly())
    assert value.tolist() == [35.0]
    assert nexts == [(1.0, 12)]
    # The last hand, one double owed by each: all three forced.  25 + (25-15) + (25-10) + (25-15) = 60.
    value, nexts = hand_outcome(np.array([[25, 15, 10, 15]], float), TRUMPS, 1 << TRUMPS, (1, 1, 1),
                                [CompulsoryOnly()] * 3, CompulsoryOnly())
    assert value.tolist() == [60.0]
    assert nexts == [(1.0, 0)]


def test_worked_example_forced_doubles_choose_the_order():
    # Two contracts left, one double owed by each opponent, who double only when forced: the last hand
    # is tripled.  No Tricks: declarer -2 (1 trick), each other -8 (4 tricks): -26.  Trumps: declarer 20,
    # each other 15: 65.  The raw total is 18 in either order.
    #   No Tricks first: -2 + (20 + 3 * (20 - 15)) = -2 + 35 = 33
    #   Trumps first:    20 + (-2 + 3 * (-2 + 8)) = 20 + 16 = 36   <- best: keep No Tricks for last
    # With a declarer that redoubles every doubler the last hand counts 1 + 3 * 2 times the difference:
    #   No Tricks first: -2 + (20 + 6 * 5) = 48;  Trumps first: 20 + (-2 + 6 * 6) = 54
    values = np.zeros((1, N_CONTRACTS, 4))
    values[0, 0] = [-2, -8, -8, -8]
    values[0, TRUMPS] = [20, 15, 15, 15]
    two_left = 1 << TRUMPS | 1 << 0
    V = settled_block_values(values, [CompulsoryOnly()] * 3, CompulsoryOnly())
    assert V[two_left, owed_index((1, 1, 1))] == pytest.approx(36.0)
    V = settled_block_values(values, [CompulsoryOnly()] * 3, Always())
    assert V[two_left, owed_index((1, 1, 1))] == pytest.approx(54.0)
    # Nothing owed: no doubles at all, the raw total either way.
    assert V[two_left, owed_index((0, 0, 0))] == pytest.approx(18.0)


def _policy_pool():
    rates_b = [np.array([-1.0, 6, 6])] * N_CONTRACTS  # doubles every contract 2 times in 3
    opponents = [CompulsoryOnly(), Always(), Threshold(None, 3.0, RATES), Threshold(None, 0.0, rates_b)]
    owns = [CompulsoryOnly(), Always(), Threshold(None, 2.0), Threshold(None, -3.0)]
    return opponents, owns


def test_hand_outcome_equals_the_reference_on_many_cases():
    import settlement_reference as sref
    rng = np.random.default_rng(24)
    opponents, owns = _policy_pool()
    compared = rows = 0
    for _ in range(400):
        subset = int(rng.integers(1, ALL + 1))
        k = bin(subset).count("1")
        contract = int(rng.choice([c for c in range(N_CONTRACTS) if subset >> c & 1]))
        owed = tuple(int(rng.integers(0, min(k, 2) + 1)) for _ in range(3))
        opp = [opponents[i] for i in rng.integers(0, len(opponents), 3)]
        own = owns[int(rng.integers(0, len(owns)))]
        e = rng.integers(-30, 31, size=(int(rng.integers(1, 5)), 4)).astype(float)
        value, nexts = hand_outcome(e, contract, subset, owed, opp, own)
        ref_value, ref_nexts = sref.hand_outcome(e, contract, subset, owed, opp, own)
        assert value.tolist() == pytest.approx(ref_value)
        merged = {}
        for w, i in nexts:
            merged[OWED_STATES[i]] = merged.get(OWED_STATES[i], 0.0) + w
        assert merged == pytest.approx(ref_nexts)
        compared += 1
        rows += len(e)
    assert compared == 400 and rows > 800


@pytest.mark.parametrize("opponents,own", POLICY_MIXES + [([Always()] * 3, Always())])
def test_settled_dp_equals_the_reference_block_value(opponents, own):
    import settlement_reference as sref
    values = hand_made(3, 11)
    V = settled_block_values(values, opponents, own)
    checked = 0
    for subset in (0b1100101, 0b0110010, 0b1000000, ALL):
        k = bin(subset).count("1")
        for owed in [(2, 2, 2), (2, 1, 0), (1, 1, 1), (0, 0, 0)]:
            if max(owed) > k:
                assert np.isnan(V[subset, owed_index(owed)])
                continue
            assert V[subset, owed_index(owed)] == pytest.approx(sref.block_value(values, subset, owed, opponents, own))
            checked += 1
    assert checked == 14  # 4 subsets x 4 owed states, less the two impossible ones with one hand left


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
    import settlement_reference as sref
    checked = 0
    for d in deals:
        assert d[player] == hand
        assert np.bitwise_or.reduce(d) == (1 << 52) - 1
        assert sum(bin(int(h)).count("1") for h in d) == 52
        # Checked one hand at a time, the choice worked out here from the proxy's estimates (not through the
        # policy's score_matrix, which the sampler uses): the fixed order; the value above the contract's
        # average; the settled value of this hand (the reference settlement) plus the block DP of the rest.
        values, params, seat_values = grid_to_contracts(bayes.proxy.predict(d[declarer:declarer + 1]))
        if declarer_policy == "fixed":
            c = next(c for c in policy.order if c in remaining)
            p = policy.param_for(c, d[declarer])
            assert c == contract
        else:
            if declarer_policy == "relative":
                scores = {k: float(values[0, k] - table.average[k]) for k in remaining}
            else:
                S = sum(1 << k for k in remaining)
                scores = {}
                for k in remaining:
                    v, nexts = sref.hand_outcome(seat_values[0:1, k, :], k, S, situation.owed, policy.opponents,
                                                 policy.own)
                    scores[k] = v[0] + sum(q * policy.V[S & ~(1 << k), owed_index(o)] for o, q in nexts.items())
            assert scores[contract] == pytest.approx(max(scores.values()), abs=1e-9), (scores, contract)
            p = int(params[0, contract])
        if contract in (TRUMPS, DOMINO):
            assert p == param
        checked += 1
    assert checked == len(deals)


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


def test_advise_in_context_and_the_defenders_question(table, monkeypatch):
    from typer.testing import CliRunner
    from barbu_sim.cli import app
    monkeypatch.setattr("barbu_sim.barbu.game.advice.value_table", lambda *a, **k: table)
    runner = CliRunner()
    args = ["advise", "AKQ.JT9.876.5432", "--remaining", "trumps,domino,barbu", "--hand-in-block", "5",
            "--doubles-owed", "E=1,S=2,W=0", "--samples", "40", "--strategy", "heuristic"]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == ("Hand 5 of N's block: 3 contracts left, doubles owed to N: E 1, S 2, W 0; "
                        "doubling compulsory-only.")
    assert lines[2].startswith("Play ") and "optimal_value" not in r.output
    assert sum(line.startswith("| ") for line in lines) == 4  # the header and one row per contract left
    assert "Trumps, by trump suit" in r.output and "Domino, by starting rank" in r.output
    verbose = runner.invoke(app, args + ["--verbose"])
    assert verbose.exit_code == 0, verbose.output
    assert "optimal_value" in verbose.output and "(1, 2, 0)" in verbose.output and "settled score" in verbose.output
    from barbu_sim.barbu.game.advice import contract_words  # the sentence names the recommended call
    from barbu_sim.barbu.rules.config import parse_contract
    from barbu_sim.core.cards import parse_rank, parse_suit
    words = verbose.output.split("Recommended (optimal policy, settled score): ")[1].splitlines()[0].split()
    c = parse_contract(words[0])
    param = parse_suit(words[1]) if c == TRUMPS else parse_rank(words[2]) if c == DOMINO else 0
    assert lines[2].startswith(f"Play {contract_words(c, param)} now")
    r = runner.invoke(app, ["advise", "T98.765.AK32.QJ2", "--double", "barbu", "--declarer", "N", "--seat", "E",
                            "--remaining", "barbu,no-queens", "--hand-in-block", "6", "--samples", "30"])
    assert r.exit_code == 0, r.output
    assert "N (declarer)" in r.output and "| S " in r.output and r.stdout.startswith("E, after N declared Barbu: ")
    monkeypatch.setattr(Bayes, "MIN_R2", 2.0)  # no contract readable: the advice says so and only forced doubles
    r = runner.invoke(app, ["advise", "T98.765.AK32.QJ2", "--double", "domino:8", "--declarer", "N", "--seat", "E",
                            "--remaining", "trumps,domino", "--hand-in-block", "6", "--doubles-owed", "E=1",
                            "--samples", "20"])
    assert r.exit_code == 0, r.output
    assert "explains only" in r.output and r.stdout.startswith("E, after N declared Domino from 8: do not double.")
    monkeypatch.setattr(Bayes, "MIN_R2", -1.0)  # every contract readable, but no deal matches the choice
    monkeypatch.setattr(Bayes, "estimate", lambda self, *a, **k: (np.array([[0.0, 40, 0, 0]] * 4), 2))
    r = runner.invoke(app, ["advise", "T98.765.AK32.QJ2", "--double", "barbu", "--declarer", "N", "--seat", "E",
                            "--remaining", "barbu,no-queens", "--hand-in-block", "6", "--doubles-owed", "E=1",
                            "--samples", "20"])
    assert r.exit_code == 0, r.output
    assert "random deals of the unseen cards" in r.output and "explains only" not in r.output
    assert r.stdout.startswith("E, after N declared Barbu: do not double.")


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
    from barbu_sim.barbu.game.game_runs import write_comparison
    from barbu_sim.barbu.game.orders import compare_orders
    monkeypatch.setattr("barbu_sim.barbu.game.orders.value_table", lambda *a, **k: table)
    cmp = compare_orders(["raw-optimal", "optimal"], doublings=["compulsory-only", "always"], blocks=60, games=0,
                         seed=5, n_samples=20)
    write_comparison(cmp, tmp_path / "o")
    assert (tmp_path / "o" / "orders_differences.json").exists()
    diffs = json.loads((tmp_path / "o" / "orders_differences.json").read_text())
    assert len(diffs) == 4  # one row per doubling policy and score
    assert {(d["doubling"], d["score"]) for d in diffs} == {(a, b) for a in ("compulsory-only", "always")
                                                            for b in ("raw", "settled")}
    assert all(d["policy"] == "optimal" and d["baseline"] == "raw-optimal" for d in diffs)
    settled = next(d for d in diffs if d["doubling"] == "compulsory-only" and d["score"] == "settled")
    assert settled["ci_low"] > 0  # planning for the forced doubles pays
    # Settled minus raw is the settlement: zero for raw-optimal only if nobody doubled, which never happens.
    settled_rows = [(dbl, pol) for dbl, pol, score in cmp.totals if score == "settled"]
    assert len(settled_rows) == 4  # 2 doubling policies x 2 contract policies
    for dbl, pol in settled_rows:
        assert not np.array_equal(cmp.totals[(dbl, pol, "settled")], cmp.totals[(dbl, pol, "raw")])
