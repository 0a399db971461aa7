"""Every script in scripts/ runs with a tiny N (runnable examples stay runnable)."""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

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
    run_script("bench.py", "--game", "clabber", "--deals", "3000", "--repeats", "1", "--out", str(out))
    rows = json.loads(out.read_text())["rows"]
    assert {r["strategy"] for r in rows} == {"random", "heuristic"} and all(r["one_thread"] > 0 for r in rows)


def test_make_results_runs_tiny(tmp_path):
    run_script("make_results.py", "--deals", "300", "--out", str(tmp_path / "run"),
               "--results", str(tmp_path / "results"), "--no-progress")
    assert (tmp_path / "results" / "expected_scores.json").exists()
    assert (tmp_path / "results" / "charts" / "domino_by_rank.png").exists()
    # redraw_charts.py draws the contract chart from the committed tables exactly as the run's records do
    chart = tmp_path / "results" / "charts" / "contract_scores.png"
    made = chart.read_bytes()
    chart.unlink()
    run_script("redraw_charts.py", "--results", str(tmp_path / "results"))
    assert chart.read_bytes() == made


def test_heuristic_vs_random_runs_tiny(tmp_path):
    out = tmp_path / "hvr.json"
    run_script("heuristic_vs_random.py", "--deals", "300", "--out", str(out))
    assert len(json.loads(out.read_text())["rows"]) == 7


def test_ab_compare_extracts_a_runnable_copy(tmp_path):
    # The full comparison compiles a second engine (about a minute), too slow for the suite;
    # what it relies on is checked here: a revision's package extracts under another name,
    # and the package imports itself only relatively, so that copy runs unchanged.
    import importlib.util
    spec = importlib.util.spec_from_file_location("ab_compare", SCRIPTS / "ab_compare.py")
    ab_compare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ab_compare)
    ab_compare.extract_revision("HEAD", tmp_path)
    package = tmp_path / "barbu_base"
    assert (package / "__init__.py").is_file()
    engine = ab_compare.engine_module(tmp_path, "barbu_base")
    assert "def play_batch(" in (tmp_path / (engine.replace(".", "/") + ".py")).read_text()
    for source in package.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
            assert not [n for n in names if n.split(".")[0] == "barbu_sim"], source


def test_fit_policy_temperature_runs_tiny(tmp_path):
    out = tmp_path / "t.json"
    run_script("fit_policy_temperature.py", "--deals", "14", "--table", "heuristic", "--out", str(out))
    rows = json.loads(out.read_text())["rows"]
    assert [r["table"] for r in rows] == ["heuristic"] * 7 and all(r["held_out_plays"] > 0 for r in rows)
    assert all(0.01 <= r["temperature"] <= 50.0 and 0.0 < r["epsilon"] < 1.0 for r in rows)
    assert all(r["train_log_likelihood"] <= 0.0 for r in rows)


def test_mc_learned_runs_tiny(tmp_path):
    out = tmp_path / "mcl.json"
    run_script("mc_learned.py", "--opponents", "basic", "-c", "barbu", "-n", "2", "--variant", "mc:samples=4",
               "--variant", "mc:samples=4,infer=policy:{table}", "--out", str(out))
    rows = json.loads(out.read_text())["rows"]
    assert [r["variant"] for r in rows] == ["mc:samples=4", "mc:samples=4,infer=policy:basic"]
    assert all(r["opponents"] == "basic" and r["deals"] == 2 for r in rows)
    assert rows[0]["difference"] == pytest.approx(rows[0]["variant_mean"] - rows[0]["baseline_mean"])


def test_seat_ab_runs_tiny(tmp_path):
    out = tmp_path / "ab.json"
    run_script("seat_ab.py", "heuristic", "basic", "--opponents", "random", "-n", "40", "-c", "barbu", "-c",
               "no-tricks", "--out", str(out))
    rows = json.loads(out.read_text())["rows"]
    assert [r["contract"] for r in rows] == ["barbu", "no-tricks"]  # in the order asked
    assert rows[1]["a_better_by"] == 0.0  # heuristic plays No Tricks as basic does, deal for deal
    assert rows[0]["ci_low"] < rows[0]["a_better_by"] < rows[0]["ci_high"]
    assert rows[0]["a_better_by"] == pytest.approx(rows[0]["a_mean"] - rows[0]["b_mean"])
    assert {r["rules"] for r in rows} == {"default"}


def test_seat_ab_counts_lower_as_better_where_the_lowest_total_wins(tmp_path):
    out = tmp_path / "ab.json"
    run_script("seat_ab.py", "heuristic", "random", "-n", "30", "-c", "no-queens", "--rules", "positive-penalties",
               "--rules", "default", "--out", str(out))
    rows = json.loads(out.read_text())["rows"]
    assert [r["rules"] for r in rows] == ["positive-penalties", "default"]
    lowest, default = rows
    assert lowest["a_better_by"] == pytest.approx(lowest["b_mean"] - lowest["a_mean"]) and lowest["a_better_by"] > 0
    assert default["a_better_by"] == pytest.approx(lowest["a_better_by"])  # the same game, its signs turned over


def test_seat_ab_refuses_an_unknown_preset_in_one_line():
    done = subprocess.run([sys.executable, str(SCRIPTS / "seat_ab.py"), "heuristic", "basic", "--rules", "nope"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.strip().startswith("Error: unknown rules preset 'nope'")
    assert len(done.stderr.strip().splitlines()) == 1


def test_seat_ab_rules_all_plays_every_preset_once(tmp_path):
    from barbu_sim.barbu.rules import PRESETS

    out = tmp_path / "ab.json"
    run_script("seat_ab.py", "heuristic", "basic", "-n", "4", "-c", "barbu", "--rules", "all", "--out", str(out))
    rows = json.loads(out.read_text())["rows"]
    assert [r["rules"] for r in rows] == list(PRESETS) and len(rows) == len(PRESETS) > 10
    by_rules = {r["rules"]: r for r in rows}
    # the same game with every sign turned over: the same gain, the means with their signs turned over
    assert by_rules["positive-penalties"]["a_better_by"] == pytest.approx(by_rules["default"]["a_better_by"])
    assert by_rules["positive-penalties"]["a_mean"] == pytest.approx(-by_rules["default"]["a_mean"]) != 0


def test_compile_profile_runs_a_case_and_refuses_an_existing_output(tmp_path):
    out = tmp_path / "profile.json"
    run_script("compile_profile.py", "--only", "rules", "--out", str(out))
    (case,) = json.loads(out.read_text())["cases"]
    assert case["case"] == "rules" and case["functions"] == 0 and case["rows"] == []
    done = subprocess.run([sys.executable, str(SCRIPTS / "compile_profile.py"), "--only", "rules", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode != 0 and "exists" in done.stderr and "Traceback" not in done.stderr
