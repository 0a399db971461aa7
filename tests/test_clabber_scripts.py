"""The Clabber scripts run with a tiny N (runnable examples stay runnable)."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path


SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def run_script(name, *args):
    subprocess.run([sys.executable, str(SCRIPTS / name), *args], check=True, capture_output=True, text=True)


def test_clabber_bench_runs_tiny(tmp_path):
    out = tmp_path / "bench.json"
    run_script("clabber_bench.py", "--rounds", "5000", "--repeats", "1", "--out", str(out))
    rows = json.loads(out.read_text())["rows"]
    assert len(rows) == 3 and all(r["one_thread"] > 0 for r in rows)
    # the machine's ceiling is timed between the same calls, and the relative figure is their ratio
    assert all(r["reference_scaling"] > 0 and r["relative_scaling"] > 0 for r in rows)


def test_clabber_results_runs_tiny(tmp_path):
    run_script("clabber_results.py", "--rounds", "3000", "--games", "60", "--sweep-rounds", "300",
               "--sweep-games", "40", "--out", str(tmp_path / "runs"), "--results", str(tmp_path / "results"))
    findings = json.loads((tmp_path / "results" / "findings.json").read_text())
    assert findings["exact_meld_counts"]["seq5"]["count"] == 148
    assert (tmp_path / "results" / "accept-first-random" / "clabber_scores.json").exists()
    assert (tmp_path / "results" / "findings.md").exists()


def test_clabber_bid_review_time_runs_tiny(tmp_path):
    out = tmp_path / "time.json"
    run_script("clabber_bid_review_time.py", "--rounds", "2", "--repeats", "2", "--samples", "4", "--play-samples", "2",
               "--out", str(out))
    data = json.loads(out.read_text())
    assert len(data["rounds"]) == 2 and all(len(r["times_s"]) == 2 for r in data["rounds"])
    assert all(r["options"] >= 2 * r["reviewed_calls"] > 0 for r in data["rounds"])
    assert data["median_round_s"] > 0 and data["samples"] == 4 and data["play_samples"] == 2


STRONG_TINY = ("--rounds", "3000", "--games", "40", "--sweep-rounds", "200", "--sweep-games", "20",
               "--thresholds", "50,55,60", "--mc-bid-rounds", "40", "--confirm-rounds", "60")


def strong_files(results: Path) -> dict[str, bytes]:
    """Every file the strong study wrote, but its timing."""
    return {str(p.relative_to(results)): p.read_bytes() for p in sorted(results.rglob("*"))
            if p.is_file() and p.name != "timing.json"}


def test_clabber_strong_results_runs_tiny_and_ray_writes_the_same_files(tmp_path):
    results = tmp_path / "local" / "results"
    run_script("clabber_strong_results.py", *STRONG_TINY, "--backend", "local", "--out", str(tmp_path / "local"),
               "--results", str(results))
    table = json.loads((results / "strong_vs_heuristic.json").read_text())
    # two studies; accept-first: 1 + 5..6 trump counts + 6 ranks; threshold:55 adds bid rounds and 4 seats
    rows = {s: [r for r in table if r["study"] == s] for s in ("accept-first", "threshold55")}
    assert all(len(v) % 3 == 0 for v in rows.values())  # three metrics per value
    assert {r["group"] for r in rows["threshold55"]} == {"all", "maker_trumps", "turned_rank", "bid_round",
                                                         "maker_rel"}
    ranks = [r["value"] for r in rows["accept-first"] if r["group"] == "turned_rank" and r["metric"] == "made"]
    assert ranks == ["9", "10", "J", "Q", "K", "A"]
    whole = next(r for r in rows["accept-first"] if r["group"] == "all" and r["metric"] == "made")
    # accept-first: the same rounds are played under both players, so they pair one to one
    played = json.loads((results / "accept-first-learned" / "thrown_in.json").read_text())
    assert whole["n"] == 3000 and played[0]["rounds"] == 3000
    assert abs(whole["difference"] - (whole["a"] - whole["b"])) < 1e-12
    sweep = json.loads((results / "sweep.json").read_text())
    assert set(sweep) == {"learned", "heuristic"}
    assert [r["policy"] for r in sweep["learned"]["rows"]] == ["threshold:50", "threshold:55", "threshold:60", "mc:32"]
    assert (results / "charts" / "strong_vs_heuristic.png").stat().st_size > 10_000
    changes = (results / "changes.md").read_text()
    assert "Best by game win rate" in changes and "On the first 60 rounds" in changes
    confirm = json.loads((results / "strong_vs_confirm.json").read_text())
    assert next(r for r in confirm if r["group"] == "all" and r["metric"] == "made")["n"] == 60
    if importlib.util.find_spec("ray") is None:  # the Ray half needs the ray extra
        return
    # the same study as Ray tasks writes the same files (one study run serves both checks: it is slow)
    run_script("clabber_strong_results.py", *STRONG_TINY, "--backend", "ray", "--out", str(tmp_path / "ray"),
               "--results", str(tmp_path / "ray" / "results"))
    local, remote = (strong_files(tmp_path / b / "results") for b in ("local", "ray"))
    assert len(local) > 40 and local.keys() == remote.keys()
    assert [k for k in local if local[k] != remote[k]] == []


def test_clabber_strong_results_refuses_unknown_player(tmp_path):
    done = subprocess.run([sys.executable, str(SCRIPTS / "clabber_strong_results.py"), "--strategy", "nobody",
                           "--out", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.startswith("Error:") and "Traceback" not in done.stderr
