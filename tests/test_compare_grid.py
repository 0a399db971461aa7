"""``barbu-sim compare`` with several comparisons: several players A against one B, several opponents, several rules
(``--rules all``), another trump choice (``--trump``), rows merged into a results file (``--merge``).

What the former scripts ``seat_ab.py``, ``mc_learned.py`` and ``heuristic_vs_random.py`` did, checked against the
library's single comparison.  Small sizes and cheap players (heuristic, basic, random)."""

import json
from functools import partial

import pytest
from typer.testing import CliRunner

from barbu_sim.barbu.rules import PRESETS, TRUMPS
from barbu_sim.barbu.studies import compare as study
from barbu_sim.cli import app
from cli_checks import assert_clean_error, assert_merge_refuses_damaged_and_dangling, invoke

runner = CliRunner()
VALUES = ("a_mean", "b_mean", "a_better_by", "se", "ci_low", "ci_high")


def compare(*args):
    return runner.invoke(app, ["compare", *map(str, args), "--no-progress"])


def rows_of(path) -> dict:
    return {(r["a"], r["opponents"], r["rules"], r["contract"]): r for r in json.loads(path.read_text())["rows"]}


def same_values(row: dict, table_row: dict) -> bool:
    return all(row[k] == table_row[k] for k in VALUES)


def test_several_players_a_each_against_b(tmp_path):
    out = tmp_path / "c.json"
    result = compare("heuristic", "basic", "random", "--opponents", "random", "-c", "barbu", "-c", "no-tricks",
                     "-n", 40, "--seed", 4, "--out", out)
    assert result.exit_code == 0, result.output
    rows = rows_of(out)
    assert len(rows) == 6 and {r["b"] for r in rows.values()} == {"random"}
    for a in ("heuristic", "basic"):
        alone = study.compare(a, "random", opponents="random", contracts=["barbu", "no-tricks"], deals=40, seed=4)
        for r in alone.table.to_dicts():
            assert same_values(rows[(a, "random", "default", r["contract"])], r)
    # heuristic plays No Tricks as basic does, deal for deal; B's numbers are shared
    assert rows[("heuristic", "random", "default", "no-tricks")]["a_mean"] == \
        rows[("basic", "random", "default", "no-tricks")]["a_mean"]
    assert rows[("heuristic", "random", "default", "total")]["contracts"] == ["barbu", "no-tricks"]
    assert "A = heuristic | basic, B = random" in result.stdout
    assert "A = basic among three random, rules default (A better by = A - B):" in result.stdout


def test_rules_all_plays_every_preset_once_and_lowest_total_is_b_minus_a(tmp_path):
    out = tmp_path / "ab.json"
    result = compare("heuristic", "random", "-n", 30, "-c", "no-queens", "--rules", "all", "--out", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    rows = [r for r in data["rows"] if r["contract"] == "no-queens"]
    assert [r["rules"] for r in rows] == list(PRESETS) and len(rows) == len(PRESETS) > 10
    assert set(data["rules"]) == set(PRESETS) and data["rules"]["overtrump"] == PRESETS["overtrump"].to_dict()
    by_rules = {r["rules"]: r for r in rows}
    lowest, default = by_rules["positive-penalties"], by_rules["default"]
    # the same game with every sign turned over: the same gain, the means with their signs turned over
    assert lowest["better_by"] == "B - A" and default["better_by"] == "A - B"
    assert lowest["a_better_by"] == pytest.approx(lowest["b_mean"] - lowest["a_mean"]) and lowest["a_better_by"] > 0
    assert lowest["a_better_by"] == pytest.approx(default["a_better_by"])
    assert lowest["a_mean"] == pytest.approx(-default["a_mean"]) and lowest["a_mean"] != 0
    assert "or B - A under rules where the lowest total wins" in result.stdout
    for args, message in ((["--rules", "nope"], "nope"), (["--rules", "default", "--rules", "all"], "twice")):
        assert_clean_error(compare("heuristic", "basic", "-n", 10, *args), message)


def test_trump_d_plays_diamonds_and_says_so(tmp_path):
    out = tmp_path / "d.json"
    result = compare("heuristic", "basic", "-c", "trumps", "-n", 60, "--trump", "D", "--out", out)
    assert result.exit_code == 0, result.output
    assert "Trumps with diamonds as trumps." in result.stdout
    data = json.loads(out.read_text())
    assert data["choices"] == {"trumps": "D", "domino": "7"}
    diamonds = study.compare("heuristic", "basic", contracts=["trumps"], deals=60,
                             params={**study.STUDY_PARAMS, int(TRUMPS): 1})
    longest = study.compare("heuristic", "basic", contracts=["trumps"], deals=60)
    row = data["rows"][0]
    assert same_values(row, diamonds.table.row(0, named=True))
    assert row["b_mean"] != longest.table.row(0, named=True)["b_mean"]  # basic plays diamonds otherwise
    assert_clean_error(compare("heuristic", "basic", "-n", 10, "--trump", "X"), "unknown trump choice 'X'")


def test_opponents_stand_in_a_players_name(tmp_path):
    out = tmp_path / "o.json"
    result = compare("{OPPONENTS}", "basic", "--opponents", "heuristic", "--opponents", "random", "-c", "barbu",
                     "-n", 30, "--out", out)
    assert result.exit_code == 0, result.output
    rows = rows_of(out)
    assert set(rows) == {("heuristic", "heuristic", "default", "barbu"), ("heuristic", "heuristic", "default", "total"),
                         ("random", "random", "default", "barbu"), ("random", "random", "default", "total")}
    among_random = study.compare("random", "basic", opponents="random", contracts=["barbu"], deals=30)
    assert same_values(rows[("random", "random", "default", "barbu")], among_random.table.row(0, named=True))
    assert_clean_error(compare("x{OPPONENTS}", "basic", "--opponents", "random", "-n", 10),
                       "unknown strategy 'xrandom'")
    assert_clean_error(compare("heuristic", "basic", "--opponents", "random", "--opponents", "random", "-n", 10),
                       "twice")


def test_merge_replaces_rows_of_the_same_key_and_keeps_the_others(tmp_path, monkeypatch):
    out = tmp_path / "m.json"
    first = ["heuristic", "basic", "-c", "barbu", "-c", "no-hearts", "-n", 40, "--seed", 4242, "--out", out]
    assert compare(*first).exit_code == 0
    data = json.loads(out.read_text())
    data["commands"] = ["how the rows were made"]  # a results file's other entries are kept by --merge
    out.write_text(json.dumps(data))

    def no_play(*a, **k):
        raise AssertionError("the file is checked before any deal is played")
    monkeypatch.setattr(study, "compare_each", no_play)
    assert_clean_error(compare(*first), "exists", "--merge", "--force")
    for args, needles in ((["--seed", 1], ("seed 4242, not 1",)),
                          (["--seed", 4242, "--trump", "D"], ("trumps longest", "trumps D")), (["--force"], ("one",))):
        assert_clean_error(compare("heuristic", "basic", "-n", 10, "--out", out, "--merge", *args), *needles)
    assert_clean_error(compare("heuristic", "basic", "-n", 10, "--merge"), "--merge", "--out")
    monkeypatch.undo()
    assert compare("heuristic", "basic", "-c", "barbu", "-n", 20, "--seed", 4242, "--out", out,
                   "--merge").exit_code == 0
    merged = json.loads(out.read_text())
    assert merged["commands"] == ["how the rows were made"]
    assert [(r["contract"], r["deals"]) for r in merged["rows"]] == [("barbu", 20), ("no-hearts", 40), ("total", 20)]
    assert merged["rows"][2]["contracts"] == ["barbu"]  # the total of the run that wrote it last


def test_merge_refuses_a_damaged_file_and_a_dangling_link(tmp_path):
    assert_merge_refuses_damaged_and_dangling(partial(compare, "heuristic", "basic", "-n", 2, "-c", "barbu"),
                                              tmp_path, seed=0)


def test_ctrl_c_keeps_the_rows_of_the_contracts_done(tmp_path, monkeypatch):
    out = tmp_path / "c.json"
    real = study.block_scores

    def second_contract_interrupted(players, b, opponents, contracts, *args, **kwargs):
        if contracts == (int(TRUMPS),):
            raise KeyboardInterrupt
        return real(players, b, opponents, contracts, *args, **kwargs)
    monkeypatch.setattr(study, "block_scores", second_contract_interrupted)
    result = compare("heuristic", "basic", "-c", "barbu", "-c", "trumps", "-n", 30, "--out", out)
    assert result.exit_code == 130 and f"the rows of the contracts done are in {out}" in result.output
    assert [r["contract"] for r in json.loads(out.read_text())["rows"]] == ["barbu"]
    result = compare("heuristic", "basic", "-c", "trumps", "-n", 30, "--out", tmp_path / "none.json")
    assert result.exit_code == 130 and "nothing was written" in result.output
    assert not (tmp_path / "none.json").exists()


def test_a_single_a_needs_b():
    result = compare("heuristic", "-n", 10)
    assert result.exit_code == 2 and "Missing argument" in result.output


@pytest.mark.parametrize("args, message", [
    (["compare", "heuristic", "heuristic", "basic", "-n", "10", "-c", "barbu"], "'heuristic' is given twice as A"),
    (["ladder", "--pair", "heuristic:basic", "--pair", "heuristic:basic", "-n", "10", "-c", "barbu"],
     "heuristic:basic is given twice"),
])
def test_a_player_or_pair_given_twice_is_refused_before_any_deal(tmp_path, args, message):
    assert_clean_error(invoke(*args, "--out", tmp_path / "x.json"), message, "give each once")
    assert not (tmp_path / "x.json").exists()


def test_an_out_file_under_a_file_is_said_as_such(tmp_path):
    (tmp_path / "afile").write_text("")
    result = invoke("compare", "heuristic", "basic", "-n", "10", "-c", "barbu", "--out", tmp_path / "afile" / "x.json")
    assert_clean_error(result, "afile is a file, not a folder")
