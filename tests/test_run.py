"""Batch runs end to end: run -> report -> plot, resume after a kill, refusals, bad arguments."""

import json
import signal
import subprocess
import sys
import time

import polars as pl
import pytest
from typer.testing import CliRunner

from barbu_sim.barbu import runs
from barbu_sim.barbu.analytics.analysis import scan_run
from barbu_sim.cli import app
from barbu_sim.barbu.analytics.report import EXPECTED_FIELDS, build_tables
from barbu_sim.barbu.runs import RunConfig, RunError, run

runner = CliRunner()


def records(run_dir) -> pl.DataFrame:
    return scan_run(run_dir).collect().sort("deal", "contract", "trump", "domino_rank", "choice")


def test_run_report_plot_end_to_end(tmp_path):
    out = tmp_path / "study"
    r = runner.invoke(app, ["run", "-n", "3000", "--trump", "each", "--domino-rank", "each", "--seed", "3",
                            "--out", str(out), "--no-progress"])
    assert r.exit_code == 0, r.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] and manifest["deals_done"] == 3000 and manifest["config"]["seed"] == 3
    assert manifest["deals_per_second"] > 0 and "package_version" in manifest
    df = records(out)
    assert df.height == 3000 * (5 + 4 + 13)
    assert df.filter(pl.col("contract") == "domino")["domino_rank"].n_unique() == 13
    r = runner.invoke(app, ["report", str(out)])
    assert r.exit_code == 0, r.output
    expected = json.loads((out / "report" / "expected_scores.json").read_text())
    assert all(list(rec) == EXPECTED_FIELDS for rec in expected)
    assert {rec["trump"] for rec in expected} == {None, "S", "H", "D", "C"}
    assert {rec["rel_seat"] for rec in expected} == {"declarer", "left", "across", "right"}
    assert (out / "report" / "report.md").read_text().startswith("# barbu-sim report")
    assert (out / "report" / "expected_scores.csv").exists()
    r = runner.invoke(app, ["plot", str(out)])
    assert r.exit_code == 0, r.output
    for name in ("contract_scores", "domino_by_rank", "contract_seat_heatmap", "score_distributions"):
        for ext in ("png", "svg"):
            assert (out / "plots" / f"{name}.{ext}").stat().st_size > 1000


def test_charts_are_byte_identical_across_processes(tmp_path):
    run(tmp_path / "run", RunConfig(deals=400, seed=2, contracts=["domino", "barbu"]), progress=False)
    # two processes, this one and a fresh one: matplotlib salts SVG ids per process unless told otherwise
    r = runner.invoke(app, ["plot", str(tmp_path / "run"), "--out", str(tmp_path / "0")])
    assert r.exit_code == 0, r.output
    code = f"from barbu_sim.cli import app; app(['plot', {str(tmp_path / 'run')!r}, '--out', {str(tmp_path / '1')!r}])"
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    charts = [{p.name: p.read_bytes() for p in sorted((tmp_path / str(k)).iterdir())} for k in range(2)]
    assert len(charts[0]) == 8 and charts[0] == charts[1]


def test_same_seed_same_records_and_paired_deals(tmp_path):
    cfg = dict(deals=2500, seed=9, contracts=["barbu", "domino"], domino_rank="each", chunk_deals=700)
    run(tmp_path / "a", RunConfig(**cfg), progress=False)
    run(tmp_path / "b", RunConfig(**cfg), progress=False, threads=1)
    assert records(tmp_path / "a").equals(records(tmp_path / "b"))


def test_interrupted_run_resumes_to_identical_tables(tmp_path, monkeypatch):
    cfg = dict(deals=5000, seed=4, trump="each", chunk_deals=600)
    run(tmp_path / "whole", RunConfig(**cfg), progress=False)
    calls = {"n": 0}
    real = runs.play_batch

    def flaky(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 5:  # the first call plays one deal before the clock (it compiles the kernels)
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(runs, "play_batch", flaky)
    with pytest.raises(KeyboardInterrupt):
        run(tmp_path / "cut", RunConfig(**cfg), progress=False)
    manifest = json.loads((tmp_path / "cut" / "manifest.json").read_text())
    assert manifest["deals_done"] == 1800 and not manifest["complete"]
    monkeypatch.setattr(runs, "play_batch", real)
    summary = run(tmp_path / "cut", resume=True, progress=False)
    assert summary.complete and summary.done == 5000
    assert records(tmp_path / "cut").equals(records(tmp_path / "whole"))
    a, b = build_tables(tmp_path / "cut"), build_tables(tmp_path / "whole")
    for name in a:
        assert a[name].equals(b[name]), name


def test_killed_process_resumes_without_duplicates(tmp_path):
    out = tmp_path / "killed"
    code = (f"from barbu_sim.barbu.runs import RunConfig, run\n"
            f"run({str(out)!r}, RunConfig(deals=120000, seed=2, chunk_deals=1200), progress=False)\n")
    proc = subprocess.Popen([sys.executable, "-c", code])
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / "records").glob("part-*.parquet"))) < 3:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = len(list((out / "records").glob("part-*.parquet")))
    assert 3 <= done < 100, "the run should have been killed part-way"
    run(out, resume=True, progress=False)
    df = scan_run(out).select("deal", "contract").collect()
    assert df.height == 120000 * 7 and df.unique().height == df.height
    whole = tmp_path / "whole"
    run(whole, RunConfig(deals=120000, seed=2, chunk_deals=1200), progress=False)
    assert build_tables(out)["expected_scores"].equals(build_tables(whole)["expected_scores"])


def test_refuses_to_overwrite_another_run(tmp_path):
    run(tmp_path / "r", RunConfig(deals=100), progress=False)
    with pytest.raises(RunError, match="already holds a run"):
        run(tmp_path / "r", RunConfig(deals=100, seed=1), progress=False)
    run(tmp_path / "r", RunConfig(deals=200, seed=1), progress=False, force=True)
    assert json.loads((tmp_path / "r" / "manifest.json").read_text())["deals_done"] == 200
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(RunError, match="not empty"):
        run(tmp_path / "other", RunConfig(deals=100), progress=False)


def test_report_on_a_directory_that_is_not_a_run(tmp_path):
    result = runner.invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 2 and "no manifest.json" in result.output
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "manifest.json").write_text("{not json")
    result = runner.invoke(app, ["report", str(bad)])
    assert result.exit_code == 2 and "manifest.json is not valid JSON" in result.output
