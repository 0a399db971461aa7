"""The Clabber scripts run with a tiny N (runnable examples stay runnable).

The studies are commands now: tests/test_clabber_studies.py."""

import json
import subprocess
import sys
from pathlib import Path


SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def run_script(name, *args):
    subprocess.run([sys.executable, str(SCRIPTS / name), *args], check=True, capture_output=True, text=True)


def test_clabber_bid_review_time_runs_tiny(tmp_path):
    out = tmp_path / "time.json"
    run_script("clabber_bid_review_time.py", "--rounds", "2", "--repeats", "2", "--samples", "4", "--play-samples", "2",
               "--out", str(out))
    data = json.loads(out.read_text())
    assert len(data["rounds"]) == 2 and all(len(r["times_s"]) == 2 for r in data["rounds"])
    assert all(r["options"] >= 2 * r["reviewed_calls"] > 0 for r in data["rounds"])
    assert data["median_round_s"] > 0 and data["samples"] == 4 and data["play_samples"] == 2
