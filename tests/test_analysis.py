"""Aggregations checked against values computed by hand on small frames."""

import math

import polars as pl
import pytest

from barbu_sim.barbu.analytics.analysis import (
    by_domino_rank, expected_scores, paired_difference, relative_scores, score_distribution, select_config,
)
from barbu_sim.barbu.analytics.schema import CHOICE_ENUM, CONTRACT_ENUM, RANK_ENUM, SUIT_ENUM
from barbu_sim.core.stats import Z95


def frame(rows):
    """rows: (deal, contract, trump, rank, declarer, scores[4])"""
    return pl.DataFrame({
        "deal": [r[0] for r in rows],
        "contract": pl.Series([r[1] for r in rows], dtype=CONTRACT_ENUM),
        "trump": pl.Series([r[2] for r in rows], dtype=SUIT_ENUM),
        "domino_rank": pl.Series([r[3] for r in rows], dtype=RANK_ENUM),
        "choice": pl.Series(["fixed"] * len(rows), dtype=CHOICE_ENUM),
        "declarer": pl.Series([r[4] for r in rows], dtype=pl.UInt8),
        **{f"score_{s}": pl.Series([r[5][i] for r in rows], dtype=pl.Int16) for i, s in enumerate("nesw")},
    }).lazy()


def test_relative_seats_follow_the_declarer():
    lf = frame([(0, "no-tricks", None, None, 2, [-2, -4, -6, -14])])
    r = relative_scores(lf).collect().row(0, named=True)
    # declarer South (-6), left West (-14), across North (-2), right East (-4)
    assert (r["rel_declarer"], r["rel_left"], r["rel_across"], r["rel_right"]) == (-6, -14, -2, -4)


def test_expected_scores_by_hand():
    rows = [(0, "no-queens", None, None, 0, [-6, -6, -12, 0]),
            (1, "no-queens", None, None, 0, [0, -12, -6, -6]),
            (2, "no-queens", None, None, 0, [-12, 0, 0, -12])]
    e = expected_scores(frame(rows))
    d = e.filter(pl.col("rel_seat") == "declarer").row(0, named=True)
    assert d["n"] == 3 and d["mean"] == pytest.approx(-6.0)
    std = math.sqrt(((0) ** 2 + 6 ** 2 + 6 ** 2) / 2)  # sample std of -6, 0, -12
    assert d["std"] == pytest.approx(std)
    assert d["se"] == pytest.approx(std / math.sqrt(3))
    assert d["ci_low"] == pytest.approx(-6 - Z95 * std / math.sqrt(3))
    assert d["ci_high"] == pytest.approx(-6 + Z95 * std / math.sqrt(3))
    right = e.filter(pl.col("rel_seat") == "right").row(0, named=True)
    assert right["mean"] == pytest.approx(-6.0)
    assert list(e.columns[:4]) == ["contract", "trump", "domino_rank", "rel_seat"]


def test_groups_per_rank_and_suit():
    rows = [(0, "domino", None, "7", 0, [45, 20, 5, -5]), (1, "domino", None, "7", 0, [-5, 45, 20, 5]),
            (0, "domino", None, "8", 0, [20, 45, 5, -5]), (0, "trumps", "S", None, 0, [30, 20, 10, 5])]
    d = by_domino_rank(frame(rows)).filter(pl.col("rel_seat") == "declarer")
    assert d["domino_rank"].cast(pl.String).to_list() == ["7", "8"]
    assert d["mean"].to_list() == [20.0, 20.0] and d["n"].to_list() == [2, 1]
    e = expected_scores(frame(rows)).filter(pl.col("contract") == "trumps", pl.col("rel_seat") == "left")
    assert e["trump"].cast(pl.String).to_list() == ["S"] and e["mean"].to_list() == [20.0]


def test_paired_difference_by_hand():
    rows = [(0, "domino", None, "7", 0, [45, 20, 5, -5]), (1, "domino", None, "7", 0, [-5, 45, 20, 5]),
            (2, "domino", None, "7", 0, [20, -5, 45, 5]),
            (0, "domino", None, "8", 0, [20, 45, 5, -5]), (1, "domino", None, "8", 0, [5, 45, 20, -5]),
            (2, "domino", None, "8", 0, [20, -5, 45, 5])]
    lf = frame(rows)
    d = paired_difference(select_config(lf, "domino", domino_rank="7"), select_config(lf, "domino", domino_rank="8"))
    dec = d.filter(pl.col("rel_seat") == "declarer").row(0, named=True)
    diffs = [25, -10, 0]
    mean = sum(diffs) / 3
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / 2)
    assert dec["n"] == 3 and dec["mean"] == pytest.approx(mean) and dec["std"] == pytest.approx(sd)
    assert dec["ci_high"] - dec["ci_low"] == pytest.approx(2 * Z95 * sd / math.sqrt(3))
    with pytest.raises(ValueError, match="share no deals"):
        paired_difference(select_config(lf, "domino", domino_rank="7"), select_config(lf, "domino", domino_rank="9"))


def test_distribution_shares():
    rows = [(i, "barbu", None, None, 0, [-20 if i < 1 else 0, 0, -20 if i >= 1 else 0, 0]) for i in range(4)]
    dist = score_distribution(frame(rows)).filter(pl.col("rel_seat") == "declarer")
    assert dict(zip(dist["score"].to_list(), dist["share"].to_list())) == {-20: 0.25, 0: 0.75}


def test_one_value_has_no_confidence_interval_n_too_small(tmp_path):
    from barbu_sim.core.stats import with_ci
    from barbu_sim.core.tables import to_markdown, write_table
    sums = pl.DataFrame({"group": ["one", "two"], "n": [1, 2], "total": [-20, -20], "squares": [400, 400]})
    table = with_ci(sums, "n", "total", "squares")
    # two values -20 and 0: mean -10, std sqrt(200), se 10, CI -10 +- 19.6; one value: no interval
    two = table.row(1, named=True)
    assert two["mean"] == -10 and two["se"] == pytest.approx(10) and two["ci_low"] == pytest.approx(-10 - Z95 * 10)
    md = to_markdown(table)
    one_line = next(line for line in md.splitlines() if "| one" in line)
    assert one_line.count("n too small") == 4 and "-20.0" in one_line  # std, se, ci_low, ci_high; the mean stays
    assert "n too small" not in next(line for line in md.splitlines() if "| two" in line)
    csv, js = write_table(table, tmp_path, "t")
    import json
    rows = json.loads(js.read_text())
    assert [rows[0][c] for c in ("std", "se", "ci_low", "ci_high")] == [None] * 4 and rows[0]["mean"] == -20
    assert rows[1]["ci_high"] == pytest.approx(-10 + Z95 * 10)
    assert "n too small" not in to_markdown(table.filter(pl.col("n") > 1))  # other tables print as before


def test_a_one_deal_run_reports_n_too_small(tmp_path):
    from cli_checks import invoke
    out = tmp_path / "r"
    assert invoke("run", "-c", "barbu", "-n", 1, "--out", out).exit_code == 0
    result = invoke("report", out)
    assert result.exit_code == 0, result.output
    assert "n too small" in result.output and "n too small" in (out / "report" / "report.md").read_text()
    assert "-20.0  ┆ -20.0" not in result.output


def test_a_one_round_clabber_run_reports_n_too_small(tmp_path):
    from cli_checks import invoke
    out = tmp_path / "c"
    assert invoke("clabber", "run", "-n", 1, "--out", out).exit_code == 0
    result = invoke("clabber", "report", out)
    assert result.exit_code == 0, result.output
    assert "n too small" in result.output and "n too small" in (out / "report" / "report.md").read_text()
