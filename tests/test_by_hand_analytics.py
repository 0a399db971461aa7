"""The published tables' statistics (``barbu/analytics/analysis.py``, ``clabber/analytics/analysis.py``) on frames small
enough to work out by hand: every seat's term, the pairing of deals, the teams' parts."""

import math

import polars as pl
import pytest

from barbu_sim.barbu.analytics.analysis import declarer_edge, paired_difference, select_config
from barbu_sim.clabber.analytics.analysis import clabber_scores, meld_frequencies
from barbu_sim.clabber.analytics.schema import TEAM_ENUM
from test_analysis import frame


def test_declarer_edge_counts_every_other_seat():
    # Deal 0, North declares: N -6; E -2, S -4, W -8 -> -6 - (-14 / 3) = -4/3.
    # Deal 1, South declares: S -10; N -2, E 0, W -1 -> -10 - (-3 / 3) = -9.
    rows = [(0, "no-tricks", None, None, 0, [-6, -2, -4, -8]), (1, "no-tricks", None, None, 2, [-2, 0, -10, -1])]
    e = declarer_edge(frame(rows)).row(0, named=True)
    assert e["n"] == 2
    assert e["mean"] == pytest.approx(-31 / 6)  # (-4/3 - 9) / 2 = -5.1667
    assert e["std"] == pytest.approx((23 / 3) / math.sqrt(2))  # |-4/3 + 9| / sqrt(2) = 5.4212
    assert e["se"] == pytest.approx(23 / 6)  # 3.8333


def test_paired_difference_uses_only_the_deals_both_hold():
    # rank 7 holds deals 0, 1, 2; rank 8 only 0 and 1: the declarer's differences 45 - 20 = 25 and -5 - 5 = -10
    rows = [(0, "domino", None, "7", 0, [45, 20, 5, -5]), (1, "domino", None, "7", 0, [-5, 45, 20, 5]),
            (2, "domino", None, "7", 0, [20, -5, 45, 5]),
            (0, "domino", None, "8", 0, [20, 45, 5, -5]), (1, "domino", None, "8", 0, [5, 45, 20, -5])]
    lf = frame(rows)
    d = paired_difference(select_config(lf, "domino", domino_rank="7"), select_config(lf, "domino", domino_rank="8"))
    dec = d.filter(pl.col("rel_seat") == "declarer").row(0, named=True)
    assert dec["n"] == 2 and dec["mean"] == pytest.approx(7.5)
    assert dec["std"] == pytest.approx(35 / math.sqrt(2))  # |25 - -10| / sqrt(2)


def _clabber_rounds(rows):
    """rows: (bid_round, makers, (card_ns, card_ew), (meld_ns, meld_ew), (bell_ns, bell_ew), (score_ns, score_ew))"""
    data = {"bid_round": pl.Series([r[0] for r in rows], dtype=pl.UInt8),
            "makers": pl.Series([r[1] for r in rows], dtype=TEAM_ENUM)}
    for i, part in enumerate(("card", "meld", "bell", "score")):
        data[f"{part}_ns"] = pl.Series([r[2 + i][0] for r in rows], dtype=pl.Int16)
        data[f"{part}_ew"] = pl.Series([r[2 + i][1] for r in rows], dtype=pl.Int16)
    return pl.DataFrame(data).lazy()


def test_clabber_scores_read_each_team_from_its_own_columns():
    # Round 1: N+S make, 100 + 20 meld against 62: scores 120 and 62.  Round 2: E+W make and fail:
    # E+W 70 + 0 (not strictly above) against N+S 92 + 20 bell = 112.  Round 3 is thrown in: left out.
    rounds = _clabber_rounds([(1, "NS", (100, 62), (20, 0), (0, 0), (120, 62)),
                              (2, "EW", (92, 70), (0, 0), (20, 0), (112, 0)),
                              (0, "NS", (0, 0), (0, 0), (0, 0), (0, 0))])
    t = {(r["team"], r["metric"]): r for r in clabber_scores(rounds).to_dicts()}
    assert t["makers", "card_points"]["n"] == 2
    assert t["makers", "card_points"]["mean"] == 85.0  # (100 + 70) / 2
    assert t["defenders", "card_points"]["mean"] == 77.0  # (62 + 92) / 2
    assert t["defenders", "bell_points"]["mean"] == 10.0  # (0 + 20) / 2
    assert t["defenders", "round_score"]["mean"] == 87.0  # (62 + 112) / 2
    assert t["makers", "round_score"]["mean"] == 60.0  # (120 + 0) / 2
    assert t["makers", "made"]["mean"] == 0.5


def test_meld_frequencies_count_all_four_players():
    # Two rounds.  Round 1: runs N 3, E 0, S 4, W 5; round 2: no run, W holds a four.
    # Runs of 3+: 3 players, then 0: p = 3 / 8; per round k = 3, 0: sample variance 4.5, the mean of k/4 has
    # se sqrt(4.5) / 4 / sqrt(2) = 0.375.  Fours: 0, then 1: p = 1 / 8.  Runs of 5: W only, p = 1 / 8.
    rounds = pl.DataFrame({
        **{f"run_{s}": pl.Series(v, dtype=pl.Int8) for s, v in zip("nesw", ([3, 0], [0, 0], [4, 0], [5, 0]))},
        **{f"four_{s}": [False, s == "w"] for s in "nesw"}}).lazy()
    f = {r["meld"]: r for r in meld_frequencies(rounds).to_dicts()}
    assert f["seq3plus"]["n"] == 8 and f["seq3plus"]["p"] == pytest.approx(3 / 8)
    assert f["seq3plus"]["se"] == pytest.approx(0.375)
    assert f["seq4plus"]["p"] == pytest.approx(2 / 8)
    assert f["seq5"]["p"] == pytest.approx(1 / 8)
    assert f["four_of_a_kind"]["p"] == pytest.approx(1 / 8)
