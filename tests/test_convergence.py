"""The convergence table reads the published studies of each level of play and says which answers hold."""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import convergence  # noqa: E402


def test_every_level_answers_every_question(tmp_path, capsys):
    out = tmp_path / "c.json"
    convergence.main(["--out", str(out)])
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
    table = capsys.readouterr().out.splitlines()
    assert len([line for line in table if line.startswith("| ")]) == 1 + 2 + 2 + 7  # the header, then the answers


def test_an_answer_that_moves_is_not_stable(tmp_path, monkeypatch):
    # the heuristic tables as the last level: the domino rank (2 -> 8) and No Hearts' value move
    levels = (convergence.LEVELS[0], convergence.LEVELS[1], ("learned", ROOT / "results"))  # learned1, then heuristic
    monkeypatch.setattr(convergence, "LEVELS", levels)
    monkeypatch.setitem(convergence.ORDERS, "learned", ROOT / "results" / "orders")
    out = tmp_path / "c.json"
    convergence.main(["--out", str(out)])
    data = json.loads(out.read_text())
    assert data["stable_last_two"]["domino_rank"] is False and data["stable_last_two"]["trump_policy"] is True
    moved = data["declarer_last_two"]["no-hearts"]
    assert moved["value_stable"] is False and abs(moved["value_change"] - (-8.09 + 7.28)) < 0.01


def test_two_ranks_tied_at_both_levels_are_a_stable_answer():
    two, ace = {"answer": "2", "within_ci": ["A"]}, {"answer": "A", "within_ci": ["2"]}
    assert convergence._choice_moves(two, two) == "same"
    assert convergence._choice_moves(two, ace) == "tied"
    assert convergence._choice_moves(two, {"answer": "A", "within_ci": []}) == "moved"  # 2 is now clearly worse
    assert convergence._choice_moves({"answer": "8", "within_ci": ["9"]}, ace) == "moved"
