"""Every script in scripts/ runs with a tiny N (runnable examples stay runnable)."""

import json
import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def run_script(name, *args):
    subprocess.run([sys.executable, str(SCRIPTS / name), *args], check=True, capture_output=True, text=True)


def test_bench_runs_tiny(tmp_path):
    out = tmp_path / "bench.json"
    run_script("bench.py", "--deals", "2000", "--repeats", "1", "--reference-deals", "2", "--skip-compile",
               "--out", str(out))
    data = json.loads(out.read_text())
    assert len(data["rows"]) == 14 and all(r["one_thread"] > 0 for r in data["rows"])


def test_make_results_runs_tiny(tmp_path):
    run_script("make_results.py", "--deals", "300", "--out", str(tmp_path / "run"),
               "--results", str(tmp_path / "results"), "--no-progress")
    assert (tmp_path / "results" / "expected_scores.json").exists()
    assert (tmp_path / "results" / "charts" / "domino_by_rank.png").exists()


def test_heuristic_vs_random_runs_tiny(tmp_path):
    out = tmp_path / "hvr.json"
    run_script("heuristic_vs_random.py", "--deals", "300", "--out", str(out))
    assert len(json.loads(out.read_text())["rows"]) == 7
