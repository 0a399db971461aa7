"""``barbu-sim clabber`` through typer's CliRunner: golden playthroughs, runs, reports, games, bad input."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from barbu_sim.cli import app
from cli_checks import assert_golden

runner = CliRunner()
STRATEGIES = Path(__file__).parent / "test_clabber_strategies.py"

PLAYTHROUGHS = [
    ("clabber-heuristic", ["clabber", "play", "--seed", "7"]),
    ("clabber-random", ["clabber", "play", "--seed", "2", "--index", "5", "--bidding", "random", "--strategy", "random",
                        "--dealer", "E"]),
    ("clabber-round-two", ["clabber", "play", "--seed", "1", "--index", "1", "--bidding", "threshold:70",
                           "-o", "partner-excuse=on", "--symbols"]),
    ("clabber-thrown-in", ["clabber", "play", "--seed", "1", "--index", "0", "--bidding", "threshold:70"]),
    ("clabber-melds-and-bell", ["clabber", "play", "--seed", "3", "--index", "3", "--bidding", "threshold:55"]),
]


@pytest.mark.parametrize("name,args", PLAYTHROUGHS, ids=[p[0] for p in PLAYTHROUGHS])
def test_golden_playthroughs(name, args):
    assert_golden(name, args)


@pytest.mark.parametrize("args,message", [
    (["clabber", "advise", "JS 8S AS KH 10D AC", "--turned", "QS", "--position", "1"], "8S is not a Clabber card"),
    (["clabber", "advise", "JS 9S AS KH 10D AC QC", "--turned", "QS", "--position", "1"], "has 7"),
    (["clabber", "advise", "JS 9S AS KH 10D AC", "--turned", "7S", "--position", "1"], "7S is not a Clabber card"),
    (["clabber", "advise", "JS 9S AS KH 10D AC", "--turned", "QS", "--position", "5"], "--position"),
    (["clabber", "advise", "JS 9S AS KH 10D AC", "--turned", "AS", "--position", "2"], "dealer's"),
    (["clabber", "play", "--bidding", "bold"], "unknown bidding policy"),
    (["clabber", "play", "--deal", "N:AKQJT98... .AKQJT9.. ..AKQJT9. ...AKQJT", "--turned", "9C"], "8S is not"),
    (["clabber", "play", "--deal", "N:AKQJT9... .AKQJT9.. ..AKQJT9.", "--turned", "9C"], "4 hands"),
    (["clabber", "play", "--strategy", "sneaky"], "unknown strategy"),
    (["clabber", "play", "--seat-bidding", "X=random"], "unknown seat"),
    (["clabber", "play", "-o", "partner-excuse=maybe"], "partner-excuse"),
    (["clabber", "play", "-o", "trumps-overtrump=on"], "unknown Clabber option"),
    (["clabber", "run", "-n", "0", "--out", "unused"], "rounds"),
    (["clabber", "run", "--bidding", "mc:0", "--out", "unused"], "samples must be"),
    (["clabber", "game", "-n", "2", "--show", "5"], "--show"),
    (["clabber", "report", "/nonexistent/run"], "not a directory"),
])
def test_bad_input_is_one_line_error(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_a_barbu_run_is_not_a_clabber_run(tmp_path):
    out = tmp_path / "barbu"
    (out / "records").mkdir(parents=True)
    # A Barbu run's manifest (its own keys; no "game" key).
    (out / "manifest.json").write_text(json.dumps({"schema_version": 1, "config": {"deals": 100}, "deals_done": 100,
                                                   "chunks_done": 1, "complete": True}))
    for args in (["clabber", "report", str(out)], ["clabber", "run", "--resume", "--out", str(out)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and "not a Clabber one" in result.output


def test_rules_command():
    result = runner.invoke(app, ["clabber", "rules", "-o", "partner-excuse=on"])
    assert result.exit_code == 0, result.output
    assert "J (20)  9 (14)  A (11)  10 (10)  K (4)  Q (3)" in result.output
    assert "A (11)  10 (10)  K (4)  Q (3)  J (2)  9 (0)" in result.output
    assert "partner-excuse = on" in result.output and "162" in result.output


def test_play_a_given_deal():
    result = runner.invoke(app, ["clabber", "play", "--deal", "N:AKQJT9... .AKQJT9.. ..AKQJT9. ...AKQJT9",
                                 "--turned", "9C", "--dealer", "W"])
    assert result.exit_code == 0, result.output
    # Four sequences of five: West's, in trumps, is the highest; West also holds the bell.
    assert "E+W: cards 162  melds 200  bell 20  -> scores 382" in result.output
    bad = runner.invoke(app, ["clabber", "play", "--deal", "N:AKQJT9... .AKQJT9.. ..AKQJT9. ...AKQJT9"])
    assert bad.exit_code == 2 and "--turned" in bad.output


def test_illegal_plugin_card_is_an_error(tmp_path):
    result = runner.invoke(app, ["clabber", "play", "--seat-strategy", f"S={STRATEGIES}:renege",
                                 "--bidding", "accept-first", "--index", "1"])
    assert result.exit_code == 2 and "renege" in result.output and "seat S" in result.output


def test_run_resume_report_plot(tmp_path):
    out = tmp_path / "run"
    base = ["clabber", "run", "-n", "5000", "--bidding", "accept-first", "--strategy", "random", "--seed", "1",
            "--out", str(out), "--no-progress"]
    assert runner.invoke(app, base).exit_code == 0
    assert runner.invoke(app, base).exit_code == 2  # the directory holds a run
    result = runner.invoke(app, ["clabber", "report", str(out)])
    assert result.exit_code == 0, result.output
    scores = json.loads((out / "report" / "clabber_scores.json").read_text())
    assert all(list(r) == ["team", "metric", "n", "mean", "std", "se", "ci_low", "ci_high"] for r in scores)
    assert {(r["team"], r["metric"]) for r in scores} == {
        *(("makers", m) for m in ("card_points", "meld_points", "bell_points", "round_score", "made")),
        *(("defenders", m) for m in ("card_points", "meld_points", "bell_points", "round_score"))}
    by = {(r["team"], r["metric"]): r["mean"] for r in scores}
    assert by[("makers", "card_points")] + by[("defenders", "card_points")] == pytest.approx(162)
    melds = json.loads((out / "report" / "meld_frequencies.json").read_text())
    assert [r["meld"] for r in melds] == ["seq3plus", "seq4plus", "seq5", "four_of_a_kind"]
    assert all(list(r) == ["meld", "p", "se", "n"] for r in melds)
    for name in ("by_bid_round", "by_maker_rel", "by_maker_trumps", "by_turned_rank"):
        assert (out / "report" / f"{name}.json").exists()
    result = runner.invoke(app, ["clabber", "plot", str(out)])
    assert result.exit_code == 0 and (out / "plots" / "by_maker_trumps.png").exists()
    # --resume with the run's own flags is fine; with others it is refused, naming them
    assert runner.invoke(app, base[:-1] + ["--resume", "--no-progress"]).exit_code == 0
    result = runner.invoke(app, ["clabber", "run", "--resume", "--out", str(out), "--seed", "2", "--strategy",
                                 "heuristic", "-n", "5000", "--no-progress"])
    assert result.exit_code == 2 and "--seed 2" in result.output and "--strategy" in result.output, result.output
    assert "--rounds" not in result.output


def test_resume_finishes_an_interrupted_run_identically(tmp_path):
    from barbu_sim.clabber.runs import RunConfig, run
    from barbu_sim.core.rundir import part_path
    import polars as pl
    config = RunConfig(rounds=3000, seed=4, bidding=["threshold:55"] * 4, strategies=["heuristic"] * 4,
                       chunk_rounds=1000)
    whole, broken = tmp_path / "whole", tmp_path / "broken"
    run(whole, config, progress=False)
    run(broken, config, progress=False)
    manifest = json.loads((broken / "manifest.json").read_text())
    part_path(broken, 2).unlink()
    manifest.get("chunks", {}).pop("000002", None)
    manifest["chunks_done"] = 2
    (broken / "manifest.json").write_text(json.dumps(manifest))
    result = runner.invoke(app, ["clabber", "run", "--resume", "--out", str(broken), "--no-progress"])
    assert result.exit_code == 0, result.output
    a = pl.read_parquet(sorted((whole / "records").glob("*.parquet")))
    b = pl.read_parquet(sorted((broken / "records").glob("*.parquet")))
    assert a.equals(b)


def test_game_summary_and_score_sheet(tmp_path):
    out = tmp_path / "games"
    result = runner.invoke(app, ["clabber", "game", "-n", "300", "--bidding", "threshold:50", "--strategy", "random",
                                 "--seed", "1", "--out", str(out), "--show", "2"])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    for key in ("first_dealer_team_wins", "draw", "rounds_per_game"):
        assert set(summary[key]) == {"mean", "se", "n"} and summary[key]["n"] == 300
    assert summary["rounds_per_game"]["mean"] > 3
    assert "Game 2 of seed 1" in result.output and "Final: N+S" in result.output


def test_advise_prefers_playing_a_strong_hand():
    result = runner.invoke(app, ["clabber", "advise", "JS 9S AS 10S AH AD", "--turned", "KS", "--position", "1",
                                 "--samples", "200"])
    assert result.exit_code == 0, result.output
    assert "Round one: play" in result.output
