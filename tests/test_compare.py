"""The paired comparison of two players (``barbu-sim compare``, ``barbu-sim clabber compare``) and its library.

Small sizes and cheap players (heuristic, basic, random), so that nothing expensive compiles.
"""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from barbu_sim.barbu.api import play_batch
from barbu_sim.barbu.rules import PRESETS, TRUMPS
from barbu_sim.barbu.rules.choices import TRUMP_LONGEST
from barbu_sim.barbu.studies import compare as barbu_study
from barbu_sim.cli import app
from barbu_sim.cli import studies as cli_studies
from barbu_sim.clabber.api import play_rounds
from barbu_sim.clabber.rules.config import C_MAKER, C_SCORE
from barbu_sim.clabber.studies import compare as clabber_study
from barbu_sim.core.stats import summarize
from cli_checks import assert_one_line_error

runner = CliRunner()
DEALS = 200
ROUNDS = 300


@pytest.fixture(scope="module")
def heuristic_basic():
    return barbu_study.compare("heuristic", "basic", contracts=["barbu", "trumps", "no-queens"], deals=DEALS, seed=5)


@pytest.fixture(scope="module")
def clabber_heuristic_random():
    return clabber_study.compare("heuristic", "random", rounds=ROUNDS, seed=3)


# ---- Barbu: the library -------------------------------------------------------------------------------------------

def test_the_table_has_a_row_per_contract_and_the_total(heuristic_basic):
    table = heuristic_basic.table
    assert table.columns == list(barbu_study.TABLE_COLUMNS)
    assert table["contract"].to_list() == ["barbu", "trumps", "no-queens", "total"]
    assert table["deals"].to_list() == [DEALS] * 4
    assert heuristic_basic.a_scores.shape == heuristic_basic.b_scores.shape == (DEALS, 3)
    rows = table.to_dicts()
    # the total is the per-deal sum over the contracts: its means are the sums of the contracts' means
    assert rows[-1]["a_mean"] == pytest.approx(sum(r["a_mean"] for r in rows[:-1]))
    assert rows[-1]["a_better_by"] == pytest.approx(sum(r["a_better_by"] for r in rows[:-1]))
    total = summarize(heuristic_basic.a_scores.sum(axis=1) - heuristic_basic.b_scores.sum(axis=1))
    assert (rows[-1]["ci_low"], rows[-1]["ci_high"]) == pytest.approx((total["ci_low"], total["ci_high"]))
    for r in rows:
        assert r["ci_low"] <= r["a_better_by"] <= r["ci_high"]
        assert r["a_better_by"] == pytest.approx(r["a_mean"] - r["b_mean"])
    assert heuristic_basic.better_by == "A - B" and not heuristic_basic.lower_is_better


def test_heuristic_among_heuristics_scores_a_quarter_of_each_contract(heuristic_basic):
    # all four seats heuristic: the seat's mean over its four seats is the contract's total / 4, deal by deal
    assert np.all(heuristic_basic.a_scores[:, 0] == -20 / 4)  # Barbu: the king of hearts, -20
    assert np.all(heuristic_basic.a_scores[:, 1] == 65 / 4)  # Trumps: 13 tricks of +5


def test_a_against_itself_differs_by_exactly_zero():
    result = barbu_study.compare("basic", "basic", opponents="random", contracts=["no-hearts", "domino"], deals=60)
    for r in result.table.to_dicts():
        assert r["a_better_by"] == 0.0 and r["ci_low"] == 0.0 and r["ci_high"] == 0.0
        assert r["a_mean"] == r["b_mean"]


def test_swapping_a_and_b_flips_the_sign(heuristic_basic):
    swapped = barbu_study.compare("basic", "heuristic", contracts=["barbu", "trumps", "no-queens"], deals=DEALS,
                                  seed=5)
    for r, s in zip(heuristic_basic.table.to_dicts(), swapped.table.to_dicts()):
        assert s["a_better_by"] == pytest.approx(-r["a_better_by"])
        assert (s["ci_low"], s["ci_high"]) == pytest.approx((-r["ci_high"], -r["ci_low"]))
        assert (s["a_mean"], s["b_mean"]) == (r["b_mean"], r["a_mean"])


def test_the_numbers_equal_an_independent_computation_with_play_batch(heuristic_basic):
    # Trumps, with the declarer's longest suit as trumps: basic at each seat among heuristics, every declarer
    configs = [(TRUMPS, TRUMP_LONGEST, d) for d in range(4)]
    plays = {}
    for player in ("heuristic", "basic"):
        total = np.zeros(DEALS)
        for seat in range(4):
            line_up = ["heuristic"] * 4
            line_up[seat] = player
            scores, _ = play_batch(5, 0, DEALS, configs, line_up)
            assert scores.shape == (DEALS, 4, 4)
            total += scores[:, :, seat].sum(axis=1)
        plays[player] = total / 16
    assert len(plays["basic"]) == len(heuristic_basic.b_scores) == DEALS
    np.testing.assert_array_equal(heuristic_basic.a_scores[:, 1], plays["heuristic"])
    np.testing.assert_array_equal(heuristic_basic.b_scores[:, 1], plays["basic"])
    row = heuristic_basic.table.row(1, named=True)
    d = summarize(plays["heuristic"] - plays["basic"])
    assert row["contract"] == "trumps"
    assert (row["a_better_by"], row["ci_low"], row["ci_high"]) == (d["mean"], d["ci_low"], d["ci_high"])
    assert row["b_mean"] == plays["basic"].mean()
    assert not np.all(plays["basic"] == plays["heuristic"])  # the two players do play differently


def test_where_the_lowest_total_wins_better_by_is_b_minus_a():
    default = barbu_study.compare("heuristic", "random", contracts=["no-queens"], deals=80)
    lowest = barbu_study.compare("heuristic", "random", contracts=["no-queens"], deals=80,
                                 rules=PRESETS["positive-penalties"])
    assert lowest.lower_is_better and lowest.better_by == "B - A" and lowest.to_dict()["a_better_by"] == "B - A"
    for r, s in zip(default.table.to_dicts(), lowest.table.to_dicts()):
        assert s["a_mean"] == -r["a_mean"] and s["b_mean"] == -r["b_mean"]  # the penalties counted as positive
        assert s["a_better_by"] == pytest.approx(s["b_mean"] - s["a_mean"])
        assert s["a_better_by"] == pytest.approx(r["a_better_by"]) and s["a_better_by"] > 0  # heuristic is better


def test_the_standard_choices_and_the_json(heuristic_basic):
    data = json.loads(json.dumps(heuristic_basic.to_dict()))
    assert data["choices"] == {"trumps": "longest"}  # the contracts compared that have a choice
    assert barbu_study.describe_params(barbu_study.STUDY_PARAMS) == {"trumps": "longest", "domino": "7"}
    assert [r["contract"] for r in data["rows"]] == ["barbu", "trumps", "no-queens", "total"]
    assert data["deals"] == DEALS and data["seed"] == 5 and data["players"]["b"] == "basic"


def test_the_blocks_do_not_change_the_numbers(heuristic_basic, monkeypatch):
    monkeypatch.setattr(barbu_study, "timed_blocks", lambda total: iter([(0, 7), (7, total - 7)]))
    again = barbu_study.compare("heuristic", "basic", contracts=["barbu", "trumps", "no-queens"], deals=DEALS, seed=5)
    assert again.table.equals(heuristic_basic.table)


@pytest.mark.parametrize("kwargs,message", [
    ({"a": "nosuch"}, "player A: unknown strategy 'nosuch'"),
    ({"b": "nosuch"}, "player B: unknown strategy"),
    ({"opponents": "nosuch"}, "the opponents: unknown strategy"),
    ({"deals": 1}, "at least 2"),
    ({"contracts": ["barbu", "Barbu"]}, "given twice"),
    ({"contracts": ["nope"]}, "unknown contract 'nope'"),
    ({"contracts": []}, "at least one contract"),
])
def test_bad_input_is_a_value_error(kwargs, message):
    args = {"a": "heuristic", "b": "basic", "deals": 10, "contracts": ["barbu"], **kwargs}
    with pytest.raises(ValueError, match=message):
        barbu_study.compare(args.pop("a"), args.pop("b"), **args)


# ---- Barbu: the command -------------------------------------------------------------------------------------------

def test_the_command_prints_the_table():
    result = runner.invoke(app, ["compare", "heuristic", "basic", "-c", "barbu", "-c", "trumps", "-n", "100",
                                 "--no-progress"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("contract")))
    assert "A mean" in lines[header] and "A better by (95% CI)" in lines[header]
    assert [line.split()[0] for line in lines[header + 1:]] == ["barbu", "trumps", "total"]
    assert "declarer's longest suit as trumps" in result.stdout and "A better by = A - B" in result.stdout
    assert "100 deals of seed 0" in result.stdout


def test_players_are_shown_and_recorded_as_named_without_stray_spaces(tmp_path):
    out = tmp_path / "c.json"
    result = runner.invoke(app, ["compare", "heuristic ", " basic", "--opponents", "heuristic ", "-c", "barbu",
                                 "-n", "20", "--no-progress", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("A = heuristic, B = basic: each at one seat among three heuristic, on")
    data = json.loads(out.read_text())
    assert {(r["a"], r["b"], r["opponents"]) for r in data["rows"]} == {("heuristic", "basic", "heuristic")}
    assert data["players"] == {"heuristic": "heuristic", "basic": "basic"}


def test_the_command_says_b_minus_a_where_the_lowest_total_wins():
    result = runner.invoke(app, ["compare", "heuristic", "random", "-c", "no-queens", "-n", "20", "--no-progress",
                                 "--rules", "positive-penalties"])
    assert result.exit_code == 0, result.output
    assert "A better by = B - A" in result.stdout and "Rules: positive-penalties." in result.stdout


def test_out_is_refused_when_it_exists_unless_force(tmp_path, monkeypatch):
    out = tmp_path / "cmp.json"
    args = ["compare", "heuristic", "basic", "-c", "barbu", "-n", "30", "--no-progress", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert [r["contract"] for r in data["rows"]] == ["barbu", "total"] and data["rows"][0]["deals"] == 30
    out.write_text("keep me")

    def no_work(*a, **k):
        raise AssertionError("the file is checked before any deal is played")
    monkeypatch.setattr(barbu_study, "compare_each", no_work)
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2 and "exists" in refused.output and "--force" in refused.output
    assert len(refused.output.strip().splitlines()) == 1 and out.read_text() == "keep me"
    monkeypatch.undo()
    forced = runner.invoke(app, args + ["--force"])
    assert forced.exit_code == 0, forced.output
    assert json.loads(out.read_text())["rows"][0]["contract"] == "barbu"


@pytest.mark.parametrize("args,message", [
    (["nosuch", "basic"], "player A: unknown strategy 'nosuch'"),
    (["heuristic", "basic", "--opponents", "nope"], "the opponents: unknown strategy"),
    (["heuristic", "basic", "-n", "1"], "--deals must be at least 2"),
    (["heuristic", "basic", "-c", "nope"], "unknown contract 'nope'"),
    (["heuristic", "basic", "--rules", "nope"], "nope"),
    (["heuristic", "basic", "--seed", "-1"], "--seed"),
    (["heuristic", "basic", "--threads", "0"], "--threads"),
])
def test_bad_input_is_a_one_line_error(args, message):
    result = runner.invoke(app, ["compare", *args, "-n", "10", "--no-progress"] if "-n" not in args
                           else ["compare", *args, "--no-progress"])
    assert_one_line_error(result, message)


def interrupted(*a, **k):
    raise KeyboardInterrupt


@pytest.mark.parametrize("study,name,args", [
    (barbu_study, "compare_each", ["compare", "heuristic", "basic", "-n", "10"]),
    (clabber_study, "compare", ["clabber", "compare", "heuristic", "random"]),
], ids=["barbu", "clabber"])
def test_ctrl_c_is_one_line(monkeypatch, study, name, args):
    monkeypatch.setattr(study, name, interrupted)
    result = runner.invoke(app, args)
    assert result.exit_code == 130
    assert result.output.strip() == "Interrupted: nothing was written"


def test_the_help_screens_list_compare():
    main = runner.invoke(app, ["--help"], env={"COLUMNS": "100"})
    clabber = runner.invoke(app, ["clabber", "--help"], env={"COLUMNS": "100"})
    assert main.exit_code == clabber.exit_code == 0
    assert any(line.strip("│ ").startswith("compare ") for line in main.output.splitlines())
    assert any(line.strip("│ ").startswith("compare ") for line in clabber.output.splitlines())


def test_the_cli_defaults_are_the_librarys():
    assert cli_studies.DEFAULT_DEALS == barbu_study.DEFAULT_DEALS
    assert cli_studies.DEFAULT_ROUNDS == clabber_study.DEFAULT_ROUNDS
    assert cli_studies.MAX_UNITS == barbu_study.MAX_DEALS == clabber_study.MAX_ROUNDS


# ---- Clabber: the library -----------------------------------------------------------------------------------------

def test_clabber_table_has_makers_defenders_and_total(clabber_heuristic_random):
    table = clabber_heuristic_random.table
    assert table.columns == list(clabber_study.TABLE_COLUMNS)
    assert table["role"].to_list() == ["makers", "defenders", "total"]
    assert table["rounds"].to_list() == [ROUNDS] * 3
    roles = clabber_heuristic_random.roles
    assert roles.shape == (ROUNDS, 4, 4)
    # accept-first: the dealer's left makes, so every round has 8 plays as makers and 8 as defenders
    assert np.all((roles == clabber_study.MAKER).sum(axis=(1, 2)) == 8)
    assert np.all((roles == clabber_study.DEFENDER).sum(axis=(1, 2)) == 8)
    rows = {r["role"]: r for r in table.to_dicts()}
    assert rows["total"]["a_better_by"] == pytest.approx(
        (rows["makers"]["a_better_by"] + rows["defenders"]["a_better_by"]) / 2)
    assert rows["total"]["a_mean"] == pytest.approx(0.0, abs=1e-12)  # all heuristic: the four seats' nets cancel
    assert rows["total"]["ci_low"] > 0  # heuristic plays better than random


def test_clabber_numbers_equal_an_independent_computation_with_play_rounds(clabber_heuristic_random):
    net = {"heuristic": np.zeros((ROUNDS, 4, 4)), "random": np.zeros((ROUNDS, 4, 4))}
    maker = np.zeros((ROUNDS, 4, 4), bool)
    for dealer in range(4):
        for player in net:
            for seat in range(4):
                line_up = ["heuristic"] * 4
                line_up[seat] = player
                rows = play_rounds(3, 0, ROUNDS, dealer, "accept-first", line_up)
                assert rows.shape[0] == ROUNDS
                ns = rows[:, C_SCORE].astype(np.int64) - rows[:, C_SCORE + 1]
                net[player][:, dealer, seat] = ns if seat % 2 == 0 else -ns
                maker[:, dealer, seat] = rows[:, C_MAKER] % 2 == seat % 2
    assert np.all(maker[:, 0, 1]) and not np.any(maker[:, 0, 0])  # dealer N: East-West make
    a = np.where(maker, net["heuristic"], 0).sum(axis=(1, 2)) / 8
    b = np.where(maker, net["random"], 0).sum(axis=(1, 2)) / 8
    d = summarize(a - b)
    row = clabber_heuristic_random.table.row(0, named=True)
    assert row["role"] == "makers" and row["rounds"] == len(a) == ROUNDS
    assert row["a_better_by"] == pytest.approx(d["mean"]) and row["ci_low"] == pytest.approx(d["ci_low"])
    assert row["b_mean"] == pytest.approx(b.mean())
    np.testing.assert_array_equal(clabber_heuristic_random.b_net, net["random"])


def test_clabber_a_against_itself_and_swapped(clabber_heuristic_random):
    same = clabber_study.compare("random", "random", rounds=50)
    assert all(r["a_better_by"] == 0.0 and r["ci_high"] == 0.0 for r in same.table.to_dicts())
    swapped = clabber_study.compare("random", "heuristic", rounds=ROUNDS, seed=3)
    for r, s in zip(clabber_heuristic_random.table.to_dicts(), swapped.table.to_dicts()):
        assert s["a_better_by"] == pytest.approx(-r["a_better_by"])
        assert (s["ci_low"], s["ci_high"]) == pytest.approx((-r["ci_high"], -r["ci_low"]))


def test_clabber_thrown_in_rounds_count_in_the_total_only():
    result = clabber_study.compare("heuristic", "random", rounds=200, bidding="threshold")
    rows = {r["role"]: r for r in result.table.to_dicts()}
    thrown = (result.roles == clabber_study.THROWN_IN).all(axis=(1, 2)).sum()
    assert thrown > 0  # threshold bidding passes some hands out
    assert rows["makers"]["rounds"] == rows["defenders"]["rounds"] == 200 - thrown
    assert rows["total"]["rounds"] == 200


@pytest.mark.parametrize("kwargs,message", [
    ({"a": "basic"}, "player A: unknown strategy 'basic'"),
    ({"rounds": 1}, "at least 2"),
    ({"bidding": "nope"}, "unknown bidding policy"),
    ({"bidding": "mc:4"}, "would not be paired"),  # refused before any round: the contracts would differ
])
def test_clabber_bad_input_is_a_value_error(kwargs, message):
    args = {"a": "heuristic", "b": "random", "rounds": 10, **kwargs}
    with pytest.raises(ValueError, match=message):
        clabber_study.compare(args.pop("a"), args.pop("b"), **args)


# ---- Clabber: the command -----------------------------------------------------------------------------------------

def test_clabber_command_prints_the_table_and_writes_json(tmp_path):
    out = tmp_path / "c.json"
    args = ["clabber", "compare", "heuristic", "random", "-n", "100", "--no-progress", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("role")))
    assert [line.split()[0] for line in lines[header + 1:header + 4]] == ["makers", "defenders", "total"]
    assert "bidding accept-first" in result.stdout and "net score" in result.stdout
    data = json.loads(out.read_text())
    assert data["rounds"] == 100 and [r["role"] for r in data["rows"]] == ["makers", "defenders", "total"]
    refused = runner.invoke(app, args)
    assert refused.exit_code == 2 and "exists" in refused.output
    assert runner.invoke(app, args + ["--force"]).exit_code == 0


@pytest.mark.parametrize("args,message", [
    (["basic", "random"], "player A: unknown strategy 'basic'"),
    (["heuristic", "random", "-n", "1"], "--rounds must be at least 2"),
    (["heuristic", "random", "--bidding", "nope"], "unknown bidding policy"),
    (["heuristic", "random", "-o", "nope=1"], "nope"),
])
def test_clabber_bad_input_is_a_one_line_error(args, message):
    assert_one_line_error(runner.invoke(app, ["clabber", "compare", *args, "--no-progress"]), message)
