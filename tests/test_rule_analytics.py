"""The analytics follow the rules a run was played under: reports, charts, settlement, the study script."""

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from barbu_sim.barbu.analytics.analysis import domino_rank_differences
from barbu_sim.barbu.game.evaluation import Evaluator, value_table_path
from barbu_sim.barbu.game.rules import settle
from barbu_sim.barbu.rules import PRESETS, Rules
from barbu_sim.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def test_settlement_where_the_lowest_total_wins_is_the_mirror_image():
    doubles = [[False] * 4 for _ in range(4)]
    doubles[1][0] = True  # E doubles N
    # Highest wins: N (-10) is better than E (-30): N gains 20.  Lowest wins, penalties positive: N (10)
    # is better than E (30): N's total moves down by 20, E's up.
    assert settle([-10, -30, 0, 0], doubles).tolist() == [20, -20, 0, 0]
    assert settle([10, 30, 0, 0], doubles, lower_is_better=True).tolist() == [-20, 20, 0, 0]
    doubles[0][1] = True  # and N redoubles: twice the stake
    assert settle([10, 30, 0, 0], doubles, lower_is_better=True).tolist() == [-40, 40, 0, 0]


def test_games_and_advice_refuse_the_lowest_total_rules():
    with pytest.raises(ValueError, match="best-total=lowest is for runs and reports"):
        Evaluator("heuristic", PRESETS["positive-penalties"])
    Evaluator("heuristic", PRESETS["high-hearts-4"])  # other presets are played as games


def test_the_value_table_cache_key_follows_every_option(tmp_path):
    paths = {value_table_path("heuristic", rules, cache_dir=tmp_path)
             for rules in (Rules(), Rules(no_hearts_ace=-8), Rules(domino_ace="low"), Rules(domino_start="fixed:7"))}
    assert len(paths) == 4


def test_the_best_domino_rank_is_the_lowest_mean_where_lower_is_better():
    # Two deals, ranks 2 and 3: the declarer averages +10 from the 2 and +20 from the 3.
    records = pl.LazyFrame({
        "deal": [0, 0, 1, 1], "contract": ["domino"] * 4, "choice": ["fixed"] * 4,
        "domino_rank": ["2", "3", "2", "3"], "declarer": [0] * 4,
        "score_n": [5, 25, 15, 15], "score_e": [0] * 4, "score_s": [0] * 4, "score_w": [0] * 4,
    })
    try:
        high = domino_rank_differences(records)
        low = domino_rank_differences(records, lower_is_better=True)
    except pl.exceptions.ColumnNotFoundError:
        pytest.skip("records need the run schema")
    assert high["baseline"].unique().to_list() == ["3"] and low["baseline"].unique().to_list() == ["2"]
    assert len(high) == len(low) == 2


def test_report_and_plot_of_a_positive_penalty_run_say_lower_is_better(tmp_path):
    out = tmp_path / "pp"
    r = runner.invoke(app, ["run", "-n", "300", "--seed", "2", "--rules", "positive-penalties",
                            "--domino-rank", "each", "--out", str(out), "--no-progress"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["report", str(out)])
    assert r.exit_code == 0, r.output
    assert "lowest total wins: lower is better" in r.output
    md = (out / "report" / "report.md").read_text()
    assert "best-total=lowest" in md and "lower is better" in md
    diffs = json.loads((out / "report" / "domino_rank_differences.json").read_text())
    means = {row["domino_rank"]: row["mean"] for row in diffs}
    baseline = diffs[0]["baseline"]
    assert len(means) == 13 and means[baseline] == 0 and all(m >= 0 for m in means.values())  # the lowest
    r = runner.invoke(app, ["plot", str(out)])
    assert r.exit_code == 0, r.output
    assert "(lower is better)" in (out / "plots" / "contract_scores.svg").read_text()


def test_a_default_run_reports_as_before(tmp_path):
    out = tmp_path / "d"
    assert runner.invoke(app, ["run", "-n", "200", "--seed", "2", "--out", str(out), "--no-progress"]).exit_code == 0
    r = runner.invoke(app, ["report", str(out)])
    assert r.exit_code == 0 and "Rules:" not in r.output
    assert "Rules:" not in (out / "report" / "report.md").read_text()


def test_a_fixed_domino_start_is_what_a_run_records(tmp_path):
    out = tmp_path / "f"
    r = runner.invoke(app, ["run", "-n", "200", "--seed", "2", "-c", "domino", "--rules", "domino-from-7",
                            "-o", "domino-start=fixed:8", "--out", str(out), "--no-progress"])
    assert r.exit_code == 0, r.output
    ranks = pl.read_parquet(out / "records").get_column("domino_rank").cast(pl.String).unique().to_list()
    assert ranks == ["8"] and json.loads((out / "manifest.json").read_text())["config"]["domino_rank"] == "8"
    for rank in ("2", "each", "most-held"):
        r = runner.invoke(app, ["run", "-n", "20", "-c", "domino", "--domino-rank", rank, "--rules", "domino-from-7",
                                "--out", str(tmp_path / rank), "--no-progress"])
        assert r.exit_code == 2 and "start every Domino hand from the 7" in r.output and "Traceback" not in r.output
    assert runner.invoke(app, ["run", "-n", "20", "-c", "domino", "--domino-rank", "7", "--rules", "domino-from-7",
                               "--out", str(tmp_path / "ok"), "--no-progress"]).exit_code == 0


def test_advice_names_the_fixed_domino_start():
    r = runner.invoke(app, ["advise", "AKQ.JT9.876.5432", "--rules", "domino-from-7", "--samples", "20",
                            "--strategy", "heuristic"])  # the rules, not the player, are under test
    assert r.exit_code == 0, r.output
    row = next(line for line in r.output.splitlines() if line.startswith("| domino"))
    assert row.split("|")[2].strip() == "7"


def test_a_run_from_before_the_new_options_resumes_with_its_rules(tmp_path):
    # A manifest written before the point-value options existed holds only the old six; --resume with the
    # same rules given again must agree with it, and the run plays the defaults of the new options.
    out = tmp_path / "old"
    assert runner.invoke(app, ["run", "-n", "3000", "--seed", "2", "--out", str(out), "--no-progress"]).exit_code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    old = {k: v for k, v in manifest["config"]["rules"].items()
           if k in ("rotation", "barbu-heart-lead", "barbu-forced-discard", "trumps-void", "trumps-overtrump",
                    "domino-payout")}
    manifest["config"]["rules"] = old
    del manifest["settings_sha256"]  # such a manifest had no settings stamp either
    (out / "manifest.json").write_text(json.dumps(manifest))
    r = runner.invoke(app, ["run", "--resume", "--rules", "default", "--out", str(out), "--no-progress"])
    assert r.exit_code == 0, r.output
