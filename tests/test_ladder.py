"""scripts/ladder.py: pairs parsed, a tiny ladder run, rows of other pairs kept, bad input a one-line error."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
sys.path.insert(0, str(SCRIPTS))
from ladder import parse_deals, parse_pairs  # noqa: E402


def run_ladder(*args):
    return subprocess.run([sys.executable, str(SCRIPTS / "ladder.py"), *args], capture_output=True, text=True)


def test_pairs_take_strategy_parameters():
    assert parse_pairs("basic:random,heuristic:basic") == [("basic", "random"), ("heuristic", "basic")]
    assert parse_pairs("mc:samples=200,rollout=basic:heuristic,heuristic:basic") == [
        ("mc:samples=200,rollout=basic", "heuristic"), ("heuristic", "basic")]
    assert parse_pairs("mine.py:play:basic") == [("mine.py:play", "basic")]
    assert parse_deals("1000", 2) == [1000, 1000] and parse_deals("1000,20", 2) == [1000, 20]
    for bad in ("heuristic", "a:b:c", ""):
        with pytest.raises(ValueError, match=r"a pair is STRONG:WEAK \(e.g. heuristic:basic\), not '" + bad):
            parse_pairs(bad)
    with pytest.raises(ValueError, match="--deals gives 3 counts for 2 pairs"):
        parse_deals("5,6,7", 2)


def test_tiny_ladder(tmp_path):
    out = tmp_path / "ladder.json"
    r = run_ladder("--pairs", "basic:random,heuristic:basic", "--deals", "300,200", "-c", "barbu", "-c", "trumps",
                   "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert out.exists()
    rows = json.loads(out.read_text())["rows"]
    assert [(x["strong"], x["weak"], x["contract"], x["deals"]) for x in rows] == [
        ("basic", "random", "barbu", 300), ("basic", "random", "trumps", 300),
        ("heuristic", "basic", "barbu", 200), ("heuristic", "basic", "trumps", 200)]
    for x in rows:
        assert x["ci_low"] < x["difference"] < x["ci_high"] and x["plays"] == 16 * x["deals"]
        assert x["difference"] == pytest.approx(x["strong_mean"] - x["weak_mean"])
    assert all(x["ci_low"] > 0 for x in rows if x["weak"] == "random")  # +3 to +4 points, CI about +-0.3
    assert "| `heuristic` | `basic` | trumps | 200 |" in r.stdout
    # A second run of one pair and one contract, with --merge, keeps the other pair's rows and that pair's other
    # contract; without it (or --force), the file is refused before any play.
    refused = run_ladder("--pairs", "heuristic:basic", "--deals", "50", "-c", "barbu", "--out", str(out))
    assert refused.returncode == 2 and "--merge" in refused.stderr and "Traceback" not in refused.stderr
    assert run_ladder("--pairs", "heuristic:basic", "--deals", "50", "-c", "barbu", "--out", str(out),
                      "--merge").returncode == 0
    assert out.exists()
    rows = json.loads(out.read_text())["rows"]
    assert [(x["strong"], x["contract"], x["deals"]) for x in rows] == [
        ("basic", "barbu", 300), ("basic", "trumps", 300), ("heuristic", "barbu", 50), ("heuristic", "trumps", 200)]


@pytest.mark.parametrize("args", [["--pairs", "nobody:basic"], ["--pairs", "heuristic"],
                                  ["--deals", "10,20,30"], ["-c", "hearts"]])
def test_bad_input_is_a_one_line_error(tmp_path, args):
    r = run_ladder(*args, "--out", str(tmp_path / "x.json"))
    assert r.returncode == 2 and r.stderr.startswith("Error: ") and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.json").exists()
