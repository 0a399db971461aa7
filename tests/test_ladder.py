"""``barbu-sim ladder``: pairs parsed, a tiny ladder, its rows those of the paired comparison, rows of other pairs
kept with --merge, an existing file refused before any play, bad input a one-line error.

Small sizes and cheap players (heuristic, basic, random)."""

import json
from functools import partial

import pytest
from typer.testing import CliRunner

from barbu_sim.barbu.studies import compare as compare_study
from barbu_sim.barbu.studies import ladder as study
from barbu_sim.cli import app
from barbu_sim.cli import studies as cli_studies
from barbu_sim.core.backends import LocalBackend
from cli_checks import assert_clean_error, assert_merge_refuses_damaged_and_dangling

runner = CliRunner()


def ladder(*args):
    return runner.invoke(app, ["ladder", *map(str, args), "--no-progress"])


def test_pairs_take_strategy_parameters():
    assert study.parse_pairs("basic:random,heuristic:basic") == [("basic", "random"), ("heuristic", "basic")]
    assert study.parse_pairs("mc:samples=200,rollout=basic:heuristic,heuristic:basic") == [
        ("mc:samples=200,rollout=basic", "heuristic"), ("heuristic", "basic")]
    assert study.parse_pairs("mine.py:play:basic") == [("mine.py:play", "basic")]
    assert study.deal_counts([1000], 2) == [1000, 1000] and study.deal_counts([1000, 20], 2) == [1000, 20]
    for bad in ("heuristic", "a:b:c", ""):
        with pytest.raises(ValueError, match=r"a pair is STRONG:WEAK \(e.g. heuristic:basic\), not '" + bad):
            study.parse_pairs(bad)
    with pytest.raises(ValueError, match="--deals gives 3 counts for 2 pairs"):
        study.deal_counts([5, 6, 7], 2)


def test_the_cli_defaults_are_the_librarys():
    assert cli_studies.LADDER_DEALS == study.DEFAULT_DEALS and cli_studies.LADDER_SEED == study.DEFAULT_SEED
    assert cli_studies.LADDER_BLOCK == study.DEFAULT_BLOCK and cli_studies.LADDER_OUT == study.DEFAULT_OUT
    assert study.parse_pairs(cli_studies.LADDER_PAIRS) == list(study.DEFAULT_PAIRS)


def test_a_rung_is_the_paired_comparison_with_the_weaker_as_opponents():
    rows = study.measure("heuristic", "basic", [4, 5], 120, 3)
    result = compare_study.compare("heuristic", "basic", opponents="basic", contracts=["barbu", "trumps"], deals=120,
                                   seed=3)
    assert [r["contract"] for r in rows] == ["barbu", "trumps"]
    for row, r in zip(rows, result.table.to_dicts()):
        assert (row["strong_mean"], row["weak_mean"], row["difference"], row["se"], row["ci_low"], row["ci_high"]) == (
            r["a_mean"], r["b_mean"], r["a_better_by"], r["se"], r["ci_low"], r["ci_high"])
        assert row["plays"] == 16 * 120 and row["deals"] == 120
    # played in blocks by a backend: the same rows (seconds aside)
    again = study.measure("heuristic", "basic", [4, 5], 120, 3, block=50, backend=LocalBackend())
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in again] == [
        {k: v for k, v in r.items() if k != "seconds"} for r in rows]


def test_tiny_ladder_and_merge(tmp_path, monkeypatch):
    out = tmp_path / "ladder.json"
    r = ladder("--pair", "heuristic:basic", "--pairs", "basic:random", "-n", 300, "-n", 200, "-c", "barbu", "-c",
               "trumps", "--out", out)
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert (data["seed"], data["trumps"], data["domino_rank"]) == (11, "longest", "7")
    rows = data["rows"]
    assert [(x["strong"], x["weak"], x["contract"], x["deals"]) for x in rows] == [  # the ladder's order
        ("basic", "random", "barbu", 200), ("basic", "random", "trumps", 200),
        ("heuristic", "basic", "barbu", 300), ("heuristic", "basic", "trumps", 300)]
    for x in rows:
        assert x["ci_low"] < x["difference"] < x["ci_high"] and x["plays"] == 16 * x["deals"]
        assert x["difference"] == pytest.approx(x["strong_mean"] - x["weak_mean"])
    assert all(x["ci_low"] > 0 for x in rows if x["weak"] == "random")  # +3 to +4 points, CI about +-0.3
    assert "| `heuristic` | `basic` | trumps | 300 |" in r.stdout and f"Wrote {out}" in r.stdout

    # Without --merge (or --force) the file is refused before any play; with it, the other pair's rows and this
    # pair's other contract are kept.
    def no_play(*a, **k):
        raise AssertionError("the file is checked before any deal is played")
    monkeypatch.setattr(study, "compare_each", no_play)
    refused = ladder("--pair", "heuristic:basic", "-n", 50, "-c", "barbu", "--out", out)
    assert_clean_error(refused, "exists", "--merge", "--force")
    for args, needles in ((["--seed", 12, "--merge"], ("seed 11", "not 12")), (["--merge", "--force"], ("one",))):
        assert_clean_error(ladder("--pair", "heuristic:basic", "-n", 50, "-c", "barbu", "--out", out, *args),
                           *needles)
    monkeypatch.undo()
    assert ladder("--pair", "heuristic:basic", "-n", 50, "-c", "barbu", "--out", out, "--merge").exit_code == 0
    rows = json.loads(out.read_text())["rows"]
    assert [(x["strong"], x["contract"], x["deals"]) for x in rows] == [
        ("basic", "barbu", 200), ("basic", "trumps", 200), ("heuristic", "barbu", 50), ("heuristic", "trumps", 300)]
    forced = ladder("--pair", "heuristic:basic", "-n", 40, "-c", "barbu", "--out", out, "--force")
    assert forced.exit_code == 0 and len(json.loads(out.read_text())["rows"]) == 1


def test_merge_refuses_a_damaged_file_and_a_dangling_link(tmp_path):
    assert_merge_refuses_damaged_and_dangling(partial(ladder, "--pair", "heuristic:basic", "-n", 2, "-c", "barbu"),
                                              tmp_path, seed=11)


@pytest.mark.parametrize("args,message", [
    (["--pair", "nobody:basic"], "unknown strategy 'nobody'"), (["--pair", "heuristic"], "STRONG:WEAK"),
    (["-n", "10", "-n", "20", "-n", "30"], "3 counts for 2 pairs"), (["-n", "1"], "at least 2"),
    (["-c", "hearts"], "hearts"), (["--seed", "-1"], "--seed"), (["--block", "0"], "--block"),
    (["--backend", "nope"], "nope"),
])
def test_bad_input_is_a_one_line_error(tmp_path, args, message):
    result = ladder(*args, "--out", tmp_path / "x.json")
    assert_clean_error(result, message)
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "x.json").exists()


def test_ctrl_c_keeps_the_pairs_done(tmp_path, monkeypatch):
    out = tmp_path / "ladder.json"
    real = study.measure

    def second_pair_interrupted(strong, *args, **kwargs):
        if strong == "heuristic":
            raise KeyboardInterrupt
        return real(strong, *args, **kwargs)
    monkeypatch.setattr(study, "measure", second_pair_interrupted)
    result = ladder("-n", 30, "-c", "barbu", "--out", out)  # basic:random, then heuristic:basic
    assert result.exit_code == 130 and f"the pairs done are in {out}" in result.output
    assert [(x["strong"], x["weak"]) for x in json.loads(out.read_text())["rows"]] == [("basic", "random")]
