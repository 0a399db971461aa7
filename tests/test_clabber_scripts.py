"""The Clabber scripts run with a tiny N (runnable examples stay runnable)."""

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
