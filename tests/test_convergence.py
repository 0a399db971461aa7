"""``barbu-sim study convergence`` reads the published studies of each level of play and says which answers hold."""

import json
from pathlib import Path

import pytest

from barbu_sim.barbu.studies import convergence
from cli_checks import assert_clean_error, invoke

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"


def test_every_level_answers_every_question(tmp_path):
    out = tmp_path / "c.json"
    result = invoke("study", "convergence", "--results", RESULTS, "--out", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert [lv["level"] for lv in data["levels"]] == ["heuristic", "learned1", "round 1", "learned"]
    for lv in data["levels"]:
        assert lv["domino_rank"]["answer"] in {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}
        assert lv["trump_policy"]["answer"] in {"longest", "strongest", "fixed C", "fixed D", "fixed H", "fixed S"}
        assert list(lv["declarer"]) == list(convergence.CONTRACTS)
        assert {lv["orders"][s]["answer"] for s in ("settled", "raw")} <= {"raw-optimal", "fixed", "myopic", "relative",
                                                                           "optimal"}
    # the published answers: under heuristic the best fixed domino rank is 8, under the first learned model 2
    assert data["levels"][0]["domino_rank"]["answer"] == "8" and data["levels"][1]["domino_rank"]["answer"] == "2"
    assert data["method"] == json.loads((RESULTS / "convergence.json").read_text())["method"]
    table = result.stdout.splitlines()
    assert len([line for line in table if line.startswith("| ")]) == 1 + 2 + 2 + 7  # the header, then the answers
    assert table[0].count("|") == 4 + 3  # a column per level, the answer's and the verdict's


def test_the_published_file_is_what_the_command_writes(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the folders are recorded as given: results, results/strong-learned1, ...
    out = tmp_path / "c.json"
    assert invoke("study", "convergence", "--out", out).exit_code == 0
    assert out.read_text() == (RESULTS / "convergence.json").read_text()


def test_an_answer_that_moves_is_not_stable(tmp_path):
    # the heuristic tables as the last level: the domino rank (2 -> 8) and No Hearts' value move
    out = tmp_path / "c.json"
    result = invoke("study", "convergence", "--level", f"heuristic={RESULTS}",
                    "--level", f"learned1={RESULTS / 'strong-learned1'}",
                    "--level", f"learned={RESULTS},{RESULTS / 'orders'}", "--out", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert [lv["level"] for lv in data["levels"]] == ["heuristic", "learned1", "learned"]
    assert data["stable_last_two"]["domino_rank"] is False and data["stable_last_two"]["trump_policy"] is True
    moved = data["declarer_last_two"]["no-hearts"]
    assert moved["value_stable"] is False and abs(moved["value_change"] - (-8.09 + 7.28)) < 0.01


def test_two_ranks_tied_at_both_levels_are_a_stable_answer():
    two, ace = {"answer": "2", "within_ci": ["A"]}, {"answer": "A", "within_ci": ["2"]}
    assert convergence.choice_moves(two, two) == "same"
    assert convergence.choice_moves(two, ace) == "tied"
    assert convergence.choice_moves(two, {"answer": "A", "within_ci": []}) == "moved"  # 2 is now clearly worse
    assert convergence.choice_moves({"answer": "8", "within_ci": ["9"]}, ace) == "moved"


@pytest.mark.parametrize("args, message", [
    (["--level", f"a={RESULTS}"], "at least two levels"),
    (["--level", f"a={RESULTS}", "--level", f"a={RESULTS}"], "named twice"),
    (["--level", "nofolder", "--level", f"a={RESULTS}"], "NAME=FOLDER"),
    (["--level", "a=nowhere", "--level", f"b={RESULTS}"], "cannot read nowhere/manifest.json"),
    (["--results", "nowhere"], "make that study first"),
])
def test_bad_levels_are_one_line(args, message, tmp_path):
    assert_clean_error(invoke("study", "convergence", *args, "--out", tmp_path / "c.json"), message)
    assert not (tmp_path / "c.json").exists()


def test_an_existing_file_is_refused_unless_force(tmp_path):
    out = tmp_path / "c.json"
    out.write_text("{}\n")
    assert_clean_error(invoke("study", "convergence", "--results", RESULTS, "--out", out), "exists", "--force")
    assert out.read_text() == "{}\n"
    assert invoke("study", "convergence", "--results", RESULTS, "--out", out, "--force").exit_code == 0
    assert json.loads(out.read_text())["levels"]
