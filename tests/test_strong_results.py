"""``barbu-sim study strong``, tiny, with stand-ins for the strong players: the paired tables, the confirmation,
the chart, and runs that are chunked, extended on --resume and the same on Ray."""

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from barbu_sim.barbu.analytics.analysis import relative_scores, scan_run
from barbu_sim.barbu.analytics.report import build_tables
from barbu_sim.barbu.studies import headline, strong
from cli_checks import assert_clean_error, charts_recorded, invoke

try:
    import ray
except ImportError:  # the suite without the [ray] extra
    ray = None

CONFIGS = 25  # the headline study: 5 negative contracts, 4 suits + 2 trump policies, 13 ranks + most-held


def ledger(run_dir) -> dict:
    return json.loads((Path(run_dir) / "manifest.json").read_text())["chunks"]


def declarer_scores(run_dir, contract: str) -> np.ndarray:
    """The declarer's score per deal in ``contract``, straight from a run's records."""
    rows = relative_scores(scan_run(run_dir).filter(pl.col("contract") == contract)).sort("deal").collect()
    return rows["rel_declarer"].to_numpy().astype(float)


def study_args(tmp, *extra):
    return ["study", "strong", "--out", tmp / "runs", "--results", tmp / "results", "--no-progress", *extra]


CHARTED = {}  # the tables the study's run report hands to its charts, by the charts' folder


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """One tiny study: basic as the strong player, heuristic as the baseline, random as the confirmation.

    The strong run's report charts are the headline study's (drawn by test_study.py's
    test_the_headline_study_writes_the_report_tables_and_charts): here the tables handed to them are recorded
    in CHARTED, none drawn; the study's own chart, strong_vs_heuristic, is drawn."""
    tmp = tmp_path_factory.mktemp("strong")
    with pytest.MonkeyPatch.context() as m:
        charted = charts_recorded(m, headline)
        result = invoke(*study_args(tmp, "--deals", "30", "--chunk", "7", "--strategy", "basic", "--baseline",
                                    "heuristic", "--confirm", "random", "--confirm-deals", "10"))
    CHARTED.update(charted)
    assert result.exit_code == 0, result.output
    return tmp


def test_the_paired_table_has_every_configuration_and_seat(study):
    table = pl.read_csv(study / "results" / "strong_vs_heuristic.csv")
    assert table.height == CONFIGS * 4
    assert table["n"].to_list() == [30] * table.height
    assert table.select("contract", "choice", "trump", "domino_rank").unique().height == CONFIGS
    assert set(table["choice"]) == {"fixed", "longest", "strongest", "most-held"}
    assert np.allclose(table["difference"], table["basic"] - table["heuristic"])
    assert (table["ci_includes_0"] == ((table["ci_low"] <= 0) & (table["ci_high"] >= 0))).all()
    # One row checked against the records themselves, paired per deal.
    row = table.filter((pl.col("contract") == "no-queens") & (pl.col("rel_seat") == "declarer")).row(0, named=True)
    a, b = (declarer_scores(study / "runs" / name, "no-queens") for name in ("strong", "baseline"))
    assert len(a) == len(b) == 30
    d = a - b
    assert row["basic"] == pytest.approx(a.mean()) and row["heuristic"] == pytest.approx(b.mean())
    assert row["difference"] == pytest.approx(d.mean())
    assert row["se"] == pytest.approx(d.std(ddof=1) / np.sqrt(30))


def test_the_confirmation_has_one_row_per_configuration_and_seat(study):
    table = pl.read_csv(study / "results" / "strong_vs_confirm.csv")
    assert table.height == CONFIGS * 4
    assert table["n"].to_list() == [10] * table.height  # the first 10 deals of the same seed
    assert table.select("contract", "choice", "trump", "domino_rank", "rel_seat").unique().height == table.height
    assert np.allclose(table["difference"], table["basic"] - table["random"])
    md = (study / "results" / "strong_vs_confirm.md").read_text()
    confirmed = [line.rstrip(" |").rsplit("|", 1)[-1].strip() for line in md.splitlines() if line.startswith("| ")]
    assert confirmed[0] == "confirmed" and len(confirmed) == 1 + CONFIGS * 4
    assert confirmed[1:].count("yes") == table["ci_includes_0"].sum()
    assert f"{table['ci_includes_0'].sum()} of {CONFIGS * 4}" in (study / "results" / "changes.md").read_text()


def test_the_chart_the_changes_and_the_chunks(study):
    results = study / "results"
    for ext in ("png", "svg"):
        assert (results / "charts" / f"strong_vs_heuristic.{ext}").stat().st_size > 10_000
    changes = (results / "changes.md").read_text()
    assert "**Best domino starting rank**" in changes and "**Best trump choice**" in changes
    assert "under heuristic" in changes and "under basic" in changes
    # 30 deals in chunks of 7: five files; the fast baseline and confirmation take one chunk each.
    assert sorted(ledger(study / "runs" / "strong")) == [f"{k:06d}" for k in range(5)]
    assert len(ledger(study / "runs" / "baseline")) == 1 and len(ledger(study / "runs" / "confirm")) == 1
    timing = json.loads((results / "timing.json").read_text())
    assert timing["deals"] == 30 and timing["configurations"] == CONFIGS and timing["tables_seconds"] > 0
    # the strong run's report tables are those of the headline study (the same files), handed to its charts
    assert (results / "expected_scores.json").exists()
    assert list(CHARTED) == [results / "charts"]
    tables = CHARTED[results / "charts"]
    again = build_tables(study / "runs" / "strong")
    assert len(tables) >= 5 and tables.keys() == again.keys() and all(tables[k].equals(again[k]) for k in tables)
    assert tables["domino_ranks"].height > 0 and tables["contract_scores"].height > 0


def test_an_existing_study_is_refused_before_any_play_unless_force(study):
    before = {p: p.read_bytes() for p in (study / "results").iterdir() if p.is_file()}
    result = invoke(*study_args(study, "--strategy", "basic", "--tables-only"))
    assert_clean_error(result, "--force", "holds")
    assert {p: p.read_bytes() for p in before} == before
    assert json.loads((study / "runs" / "strong" / "manifest.json").read_text())["config"]["deals"] == 30


def test_chunks_follow_the_player():
    assert strong.default_chunk("mc") == strong.default_chunk("pimc") == strong.default_chunk("mc:samples=4") == 25
    assert strong.default_chunk("basic") == strong.default_chunk("heuristic") == 20_000


def test_a_longer_run_extends_the_one_on_disk(tmp_path):
    """--resume with more deals keeps the whole chunks and replays the short last one: the files of a fresh run."""
    config = strong.study_config(12, 3, "heuristic", chunk=5)  # chunks 0-4, 5-9, 10-11
    strong.play(tmp_path / "grown", config, reuse=False, backend=None, progress=False, what="test")
    before = ledger(tmp_path / "grown")
    grown = strong.study_config(23, 3, "heuristic", chunk=5)
    strong.play(tmp_path / "grown", grown, reuse=True, backend=None, progress=False, what="test")
    strong.play(tmp_path / "fresh", grown, reuse=False, backend=None, progress=False, what="test")
    after = ledger(tmp_path / "grown")
    assert after == ledger(tmp_path / "fresh") and len(after) == 5
    assert {k: after[k] for k in ("000000", "000001")} == {k: before[k] for k in ("000000", "000001")}
    assert after["000002"] != before["000002"]  # 10-11 became 10-14


def test_pairing_by_blocks_equals_one_block(tmp_path, monkeypatch):
    # Chunks of 5 and 20,000 deals, joined in blocks of 7 or all at once: the same table.
    strong.play(tmp_path / "a", strong.study_config(23, 3, "basic", chunk=5), reuse=False, backend=None,
                progress=False, what="a")
    strong.play(tmp_path / "b", strong.study_config(23, 3, "heuristic"), reuse=False, backend=None,
                progress=False, what="b")
    whole = strong.compare_runs(tmp_path / "a", tmp_path / "b")
    monkeypatch.setattr(strong, "COMPARE_BLOCK", 7)
    assert strong.compare_runs(tmp_path / "a", tmp_path / "b").equals(whole)
    assert whole.height == CONFIGS * 4 and whole["n"].min() == whole["n"].max() == 23


@pytest.mark.parametrize("args, message", [
    (["--strategy", "basic", "--confirm", "basic"], "--confirm needs a player other than the strong one"),
    (["--tables-only"], "no run to make tables from"),
    (["--strategy", "nonesuch"], "nonesuch"),
    (["--strategy", "basic", "--chunk", "0"], "--chunk"),
    (["--strategy", "basic", "--chunk", "-5"], "--chunk"),
    (["--strategy", "basic", "--minutes", "-1"], "--minutes"),
    (["--strategy", "basic", "--minutes", "nan"], "--minutes"),
    (["--strategy", "basic", "--deals", "0"], "--deals"),
    (["--strategy", "basic", "--confirm", "heuristic", "--confirm-deals", "-2"], "--confirm-deals"),
    (["--strategy", "basic", "--seed", "-1"], "--seed"),
    (["--tables-only", "--deals", "40"], "--tables-only plays no deal: --deals would do nothing"),
    (["--tables-only", "--minutes", "2", "--chunk", "5"], "--chunk, --minutes would do nothing"),
    (["--strategy", "basic", "--confirm-deals", "20"], "give --confirm NAME too"),
])
def test_bad_input_is_one_line(args, message, tmp_path):
    assert_clean_error(invoke(*study_args(tmp_path, *args)), message)
    assert not (tmp_path / "runs").exists()  # refused before any run is started


@pytest.mark.skipif(ray is None, reason='Ray is not installed (pip install -e ".[ray]")')
def test_ray_plays_the_same_records(tmp_path, ray_instance):
    from barbu_sim.core.backends import RayBackend
    backend = RayBackend()  # joins the worker's instance (conftest's ray_instance), as the CLI does
    assert ray_instance.is_initialized()
    for name, run_backend in (("local", None), ("ray", backend)):
        strong.play(tmp_path / name, strong.study_config(9, 5, "heuristic", chunk=4), reuse=False,
                    backend=run_backend, progress=False, what=name)
    assert len(ledger(tmp_path / "local")) == 3
    assert ledger(tmp_path / "ray") == ledger(tmp_path / "local")  # byte-identical chunk files


def test_resume_without_a_run_to_finish_is_refused_before_any_deal(tmp_path):
    result = invoke(*study_args(tmp_path, "--resume", "--strategy", "basic"))
    assert_clean_error(result, "--resume: no run to finish", "leave --resume out")
    assert not (tmp_path / "runs").exists()


def test_a_second_study_into_the_same_runs_is_refused_unless_asked(study, tmp_path):
    """The runs of a study are hours of mc play: a new study into its --out needs --resume or --force."""
    before = {p: p.read_bytes() for p in sorted((study / "runs").rglob("*")) if p.is_file()}
    result = invoke("study", "strong", "--out", study / "runs", "--results", tmp_path / "other", "--no-progress",
                    "--deals", "20", "--strategy", "basic")
    assert_clean_error(result, "holds the study's runs (strong, baseline, confirm)", "--resume", "--force")
    assert {p: p.read_bytes() for p in sorted((study / "runs").rglob("*")) if p.is_file()} == before
    assert not (tmp_path / "other").exists()
