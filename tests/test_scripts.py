"""Every script in scripts/ runs with a tiny N (runnable examples stay runnable)."""

import ast
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
               "--strategies", "random,heuristic", "--out", str(out))
    data = json.loads(out.read_text())
    assert len(data["rows"]) == 14 and all(r["one_thread"] > 0 for r in data["rows"])


def test_bench_times_clabber_too(tmp_path):
    out = tmp_path / "clabber.json"
    run_script("bench.py", "--game", "clabber", "--rounds", "3000", "--repeats", "1", "--out", str(out))
    data = json.loads(out.read_text())
    rows = data["rows"]
    assert [(r["strategy"], r["bidding"]) for r in rows] == [("random", "accept-first"), ("heuristic", "accept-first"),
                                                             ("heuristic", "threshold")]
    assert all(r["one_thread"] > 0 for r in rows) and data["rounds_per_call"] == 3000
    # the machine's ceiling is timed between the same calls, and the relative figure is their ratio
    assert all(r["reference_scaling"] > 0 and r["relative_scaling"] > 0 for r in rows)
    # named players at all four seats, accept-first bidding
    run_script("bench.py", "--game", "clabber", "--strategies", "random", "--rounds", "2000", "--repeats", "1",
               "--out", str(tmp_path / "random.json"))
    rows = json.loads((tmp_path / "random.json").read_text())["rows"]
    assert [(r["strategy"], r["bidding"]) for r in rows] == [("random", "accept-first")]


def test_ab_compare_loads_a_revision_beside_the_working_tree():
    # The full comparison compiles a second engine (about a minute), too slow for the suite; what it relies on is
    # checked here: the package imports itself only relatively, so a revision's copy extracted under another name
    # runs its own code (the script refuses a revision whose copy does not), and the script's child process loads
    # that copy from PYTHONPATH beside the installed working tree (--dry-run: loaded, nothing timed).
    package = SCRIPTS.parent / "barbu_sim"
    for source in package.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            assert not [n for n in names if n.split(".")[0] == "barbu_sim"], source
    for game in ("barbu", "clabber"):
        done = subprocess.run([sys.executable, str(SCRIPTS / "ab_compare.py"), "--game", game, "--rev", "HEAD",
                               "--dry-run"], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        base, work = done.stdout.splitlines()
        assert base.startswith(f"base: barbu_base.{game}.api of HEAD from ") and \
            base.endswith(f"/barbu_base/{game}/api.py")
        assert work == f"work: barbu_sim.{game}.api from {package / game / 'api.py'}"
    # --seats names one player per seat: anything but four is refused in one line, before a revision is extracted
    done = subprocess.run([sys.executable, str(SCRIPTS / "ab_compare.py"), "--seats", "learned/heuristic"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--seats takes four strategies" in done.stderr and "Traceback" not in done.stderr


def test_compile_profile_runs_a_case_and_refuses_an_existing_output(tmp_path):
    out = tmp_path / "profile.json"
    run_script("compile_profile.py", "--only", "rules", "--out", str(out))
    (case,) = json.loads(out.read_text())["cases"]
    assert case["case"] == "rules" and case["functions"] == 0 and case["rows"] == []
    done = subprocess.run([sys.executable, str(SCRIPTS / "compile_profile.py"), "--only", "rules", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode != 0 and "exists" in done.stderr and "Traceback" not in done.stderr
