"""Two Clabber runs of the same rounds paired round by round (analytics.paired_by_group)."""

import polars as pl

from barbu_sim.clabber.analytics.analysis import paired_by_group, scan_run, team_values
from barbu_sim.clabber.runs import RunConfig, run


def _run(path, strategy, rounds=400, bidding="accept-first"):
    run(path, RunConfig(rounds=rounds, seed=5, bidding=[bidding] * 4, strategies=[strategy] * 4), progress=False)
    return scan_run(path)


def test_a_run_paired_with_itself_moves_nowhere(tmp_path):
    a = _run(tmp_path / "a", "heuristic", bidding="threshold:55")
    played = team_values(a).collect().height
    table = paired_by_group(a, a)
    assert table["metric"].to_list() == ["made", "makers_score", "defenders_score"]
    assert table["n"].to_list() == [played] * 3 and 0 < played <= 400
    assert table["difference"].to_list() == [0.0] * 3 and not table["moves"].any()


def test_pairs_the_same_rounds_and_groups_in_order(tmp_path):
    a, b = _run(tmp_path / "a", "random"), _run(tmp_path / "b", "heuristic", rounds=300)
    whole = paired_by_group(a, b)
    assert whole["n"].to_list() == [300] * 3  # accept-first plays every round; the shorter run bounds the pairs
    va, vb = (team_values(x).filter(pl.col("round") < 300).collect() for x in (a, b))
    made = whole.filter(pl.col("metric") == "made").row(0, named=True)
    assert abs(made["difference"] - (va["makers_made"].mean() - vb["makers_made"].mean())) < 1e-12
    ranks = paired_by_group(a, b, "turned_rank").filter(pl.col("metric") == "made")
    assert ranks["turned_rank"].to_list() == ["9", "10", "J", "Q", "K", "A"]
    assert ranks["n"].sum() == 300
