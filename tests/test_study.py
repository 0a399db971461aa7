"""``barbu-sim study headline``, ``presets`` and ``doubling`` at tiny sizes; every study's refusal of an existing
output before any work; the help's defaults against the studies' own.  (``study strong``, ``convergence`` and
``domino-rank`` have test files of their own.)"""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from barbu_sim.barbu.rules import TRUMPS
from barbu_sim.barbu.rules.choices import TRUMP_LONGEST
from barbu_sim.barbu.studies import domino_rank, doubling, headline, presets, strong
from barbu_sim.barbu.studies.compare import STUDY_PARAMS
from barbu_sim.cli import study as cli_study
from cli_checks import assert_clean_error, charts_recorded, invoke

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def small_headline(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("headline")
    result = invoke("study", "headline", "-n", 300, "--out", tmp / "run", "--results", tmp / "results",
                    "--no-progress")
    assert result.exit_code == 0, result.output
    return tmp, result


def test_the_headline_study_writes_the_report_tables_and_charts(small_headline):
    tmp, result = small_headline
    results = tmp / "results"
    timing = json.loads((results / "timing.json").read_text())
    assert json.loads(result.stdout) == timing
    assert timing["deals"] == 300 and timing["configurations"] == 25 and timing["records"] == 300 * 25
    manifest = json.loads((results / "manifest.json").read_text())
    assert manifest == json.loads((tmp / "run" / "manifest.json").read_text())
    assert manifest["config"]["trump"] == headline.TRUMP and manifest["config"]["domino_rank"] == headline.DOMINO_RANK
    assert manifest["config"]["seed"] == 2026 and manifest["config"]["strategies"] == ["heuristic"] * 4
    for name in ("report.md", "expected_scores.json", "expected_scores.csv", "domino_ranks.json", "trumps.json"):
        assert (results / name).read_bytes() == (tmp / "run" / "report" / name).read_bytes()
    assert (results / "charts" / "domino_by_rank.png").exists()
    # the run's tables are what `barbu-sim report` makes of the same run
    scores = pl.read_json(results / "contract_scores.json")
    assert set(scores["contract"]) == {"no-tricks", "no-queens", "no-last-two", "no-hearts", "barbu", "trumps",
                                       "domino"}


def test_redraw_charts_draws_the_contract_chart_from_the_tables_as_the_study_does(small_headline, tmp_path):
    # scripts/redraw_charts.py (a developer script: run, not imported) redraws from the committed tables
    import shutil
    results = tmp_path / "results"
    shutil.copytree(small_headline[0] / "results", results)
    chart = results / "charts" / "contract_scores.png"
    made = chart.read_bytes()
    chart.unlink()
    subprocess.run([sys.executable, str(ROOT / "scripts" / "redraw_charts.py"), "--results", str(results)],
                   check=True, capture_output=True, text=True)
    assert chart.read_bytes() == made


def test_the_headline_study_resumes_its_own_run_only(small_headline, tmp_path, monkeypatch):
    import shutil
    tmp, _ = small_headline
    # the resumed study's tables handed to its charts are recorded, none drawn: the drawing is the fixture's study
    # (test_the_headline_study_writes_the_report_tables_and_charts) and test_redraw_charts_draws_...'s
    charted = charts_recorded(monkeypatch, headline)
    run = tmp_path / "run"
    shutil.copytree(tmp / "run", run)
    # as after Ctrl-C before the chunk was recorded: --resume plays it (the run folder's own resume), and the
    # tables are those of the study played at once
    manifest = json.loads((run / "manifest.json").read_text())
    for key in list(manifest["chunks"]):
        del manifest["chunks"][key]
    manifest.update(complete=False, deals_done=0, chunks_done=0)
    (run / "manifest.json").write_text(json.dumps(manifest))
    shutil.rmtree(run / "records")
    again = invoke("study", "headline", "-n", 300, "--out", run, "--results", tmp_path / "r", "--resume",
                   "--no-progress")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["deals"] == 300
    for name in ("expected_scores.json", "domino_ranks.json", "policies.json", "distribution.json"):
        assert (tmp_path / "r" / name).read_bytes() == (tmp / "results" / name).read_bytes()
    assert list(charted) == [tmp_path / "r" / "charts"] and len(charted[tmp_path / "r" / "charts"]) >= 5
    assert not charted[tmp_path / "r" / "charts"]["contract_scores"].is_empty()
    assert_clean_error(invoke("study", "headline", "-n", 400, "--out", run, "--results", tmp_path / "x",
                              "--resume"), "not the study's run of 400 deals")
    assert_clean_error(invoke("study", "headline", "--out", tmp_path / "none", "--results", tmp_path / "x",
                              "--resume"), "no run to finish")
    assert not (tmp_path / "x").exists()


def test_ctrl_c_keeps_the_chunks_and_says_how_to_go_on(monkeypatch, tmp_path):
    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(headline, "headline_study", interrupted)
    result = invoke("study", "headline", "-n", 10, "--out", tmp_path / "run", "--results", tmp_path / "r")
    assert result.exit_code == 130
    kept = tmp_path / "run"
    assert result.output.strip() == f"Interrupted: the finished chunks are kept in {kept}; go on with --resume"


def test_the_preset_study_is_paired_on_the_same_deals(tmp_path):
    out = tmp_path / "ps.json"
    result = invoke("study", "presets", "-n", 300, "--out", out, "--no-progress")
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    rows = {(r["preset"], r["contract"]): r for r in data["rows"]}
    assert len(rows) == 7 * len(data["presets"]) and "default" in data["presets"]
    assert "every-dealer" not in data["presets"] and "positive-penalties" not in data["presets"]
    assert all(rows[("default", c)]["difference"] == 0 for c in ("no-tricks", "domino"))
    # point values alone do not change the play: high-hearts-4 moves No Hearts only, and the declarer
    # pays more there
    for c in ("no-tricks", "no-queens", "no-last-two", "barbu", "trumps", "domino"):
        assert rows[("high-hearts-4", c)]["difference"] == 0
    assert rows[("high-hearts-4", "no-hearts")]["difference"] < 0
    assert rows[("domino-from-7", "domino")]["domino_best_rank"] == "7"
    assert np.isfinite([r["declarer_mean"] for r in data["rows"]]).all()
    # Trumps in the studies' one standard configuration: the declarer's longest suit
    assert data["trumps"] == "longest" and presets.CONFIGS[5] == (TRUMPS, STUDY_PARAMS[int(TRUMPS)], 0)
    assert STUDY_PARAMS[int(TRUMPS)] == TRUMP_LONGEST
    table = [line for line in result.stdout.splitlines() if line.startswith("| ")]
    assert len(table) == 1 + len(data["presets"])


def test_the_doubling_study_runs_tiny(tmp_path, monkeypatch):
    monkeypatch.setenv("BARBU_SIM_CACHE", str(tmp_path / "cache"))
    out, rows = tmp_path / "d", tmp_path / "rows.parquet"
    result = invoke("study", "doubling", "--blocks", 3, "--samples", 10, "--table-hands", 60,
                    "--policies", "compulsory-only,bayes", "--out", out, "--rows", rows, "--no-progress")
    assert result.exit_code == 0, result.output
    assert {p.name for p in out.iterdir()} == set(doubling.FILES)
    policies = json.loads((out / "policies.json").read_text())
    assert [r["policy"] for r in policies] == ["compulsory-only", "bayes:5"]
    assert policies[0]["doubles_per_block"] == 2.0  # East makes exactly the compulsory doubles
    gains = json.loads((out / "gain_by_contract_hand.json").read_text())
    assert len(gains) > 0 and all(r["n"] > 0 for r in gains)
    assert sum(r["n"] for r in gains) <= 3 * 7 * 3 and {r["hand"] for r in gains} <= set(range(1, 8))
    hands = pl.read_parquet(rows)
    assert hands.height == 2 * 3 * 7 * 3 and set(hands["seed"]) == {0}  # policies x blocks x hands x defenders
    assert (out / "doubling.md").read_text() in result.stdout + "\n"


# Every study with an output that exists, named so that the command is refused before any work (a run
# folder, a work folder, a value table would be made first otherwise).
REFUSED = [
    (["headline", "--results", "DIR", "--out", "DIR/run"], "holds"),
    (["strong", "--strategy", "basic", "--results", "DIR", "--out", "DIR/runs"], "holds"),
    (["presets", "--out", "OUT"], "exists"),
    (["convergence", "--results", "DIR", "--out", "OUT"], "exists"),
    (["domino-rank", "--strategy", "heuristic", "--work", "DIR/work", "--out", "OUT"], "exists"),
    (["doubling", "--out", "DIR"], "holds"),
    (["doubling", "--out", "DIR/new", "--rows", "OUT"], "exists"),
]
FOLDER_FILES = ("manifest.json", "timing.json", "report.md", "changes.md", "policies.csv", "doubling.md")


@pytest.mark.parametrize("args, message", REFUSED, ids=[f"{a[0]}-{i}" for i, (a, _) in enumerate(REFUSED)])
def test_an_existing_output_is_refused_before_any_work_unless_force(args, message, tmp_path):
    out = tmp_path / "old.json"
    out.write_text('{"rows": []}\n')
    for f in FOLDER_FILES:
        (tmp_path / f).write_text("{}\n")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    argv = [a.replace("OUT", str(out)).replace("DIR", str(tmp_path)) for a in args]
    assert_clean_error(invoke("study", *argv), "--force", message)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # nothing written, nothing made


def test_the_help_defaults_are_the_studies():
    assert (cli_study.HEADLINE_DEALS, cli_study.HEADLINE_SEED) == (headline.DEFAULT_DEALS, headline.DEFAULT_SEED)
    assert (cli_study.STRONG_DEALS, cli_study.STRONG_CONFIRM_DEALS) == (strong.DEFAULT_DEALS,
                                                                          strong.DEFAULT_CONFIRM_DEALS)
    assert (cli_study.SLOW_CHUNK, cli_study.FAST_CHUNK) == (strong.SLOW_CHUNK, strong.FAST_CHUNK)
    assert (cli_study.PRESET_DEALS, cli_study.PRESET_SEED) == (presets.DEFAULT_DEALS, presets.DEFAULT_SEED)
    assert (cli_study.RANK_DEALS, cli_study.RANK_SEED, cli_study.RANK_BLOCK) == (
        domino_rank.DEFAULT_DEALS, domino_rank.DEFAULT_SEED, domino_rank.DEFAULT_BLOCK)
    assert (cli_study.DOUBLING_POLICIES, cli_study.DOUBLING_BLOCKS, cli_study.DOUBLING_SAMPLES,
            cli_study.DOUBLING_TABLE_HANDS) == (doubling.DEFAULT_POLICIES, doubling.DEFAULT_BLOCKS,
                                                doubling.DEFAULT_SAMPLES, doubling.DEFAULT_TABLE_HANDS)
    from barbu_sim.barbu.runs import MAX_DEALS
    assert cli_study.MAX_DEALS == MAX_DEALS


def test_the_help_lists_the_studies():
    result = invoke("study", "--help")
    assert result.exit_code == 0
    for name in ("headline", "strong", "presets", "convergence", "domino-rank", "doubling"):
        assert name in result.output
    assert "study" in invoke("--help").output


@pytest.mark.parametrize("policies, message", [("compulsory-only,always,threshold:abc", "threshold margin"),
                                               ("bayes,bayes", "names a policy twice"), ("always,foo", "'foo'")])
def test_every_doubling_policy_is_checked_before_any_block(tmp_path, policies, message):
    result = invoke("study", "doubling", "--blocks", "2", "--samples", "4", "--table-hands", "10", "--policies",
                    policies, "--out", tmp_path / "d", "--no-progress")
    assert_clean_error(result, message)
    assert "compulsory-only:" not in result.output and not (tmp_path / "d").exists()
