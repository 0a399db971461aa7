"""Win-rate confidence intervals: Wilson score intervals, inside [0, 1], checked against values computed by hand."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from barbu_sim.barbu.game.orders import win_rate_row
from barbu_sim.core.stats import Z95, wilson_interval

ROOT = Path(__file__).resolve().parent.parent

# By hand, z = 1.959964, z^2 = 3.841459, n = 6:
#   0 of 6: low 0, high z^2 / (n + z^2) = 3.841459 / 9.841459 = 0.390334
#   6 of 6: low n / (n + z^2) = 6 / 9.841459 = 0.609666, high 1
#   1 of 6: centre (1/6 + z^2/12) / (1 + z^2/6) = 0.486788 / 1.640243 = 0.296778,
#           half z / (1 + z^2/6) * sqrt((1/6)(5/6)/6 + z^2/144) = 1.194923 * 0.223215 = 0.266725
HAND = [(0, 6, 0.0, 0.390334), (6, 6, 0.609666, 1.0), (1, 6, 0.030053, 0.563503)]


@pytest.mark.parametrize("wins, n, low, high", HAND)
def test_wilson_interval_by_hand(wins, n, low, high):
    lo, hi = wilson_interval(wins / n, n)
    assert (lo, hi) == pytest.approx((low, high), abs=2e-6)
    assert 0.0 <= lo <= wins / n <= hi <= 1.0


def test_wilson_interval_is_elementwise_and_matches_the_scalar_form():
    lo, hi = wilson_interval(np.array([r[0] for r in HAND]) / 6, np.array([r[1] for r in HAND]))
    assert list(lo) == pytest.approx([r[2] for r in HAND], abs=2e-6)
    assert list(hi) == pytest.approx([r[3] for r in HAND], abs=2e-6)


def test_win_rate_row_uses_wilson_where_the_normal_interval_leaves_zero_to_one():
    shares = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]  # 1 win of 6
    mean, se = 1 / 6, np.std(shares, ddof=1) / math.sqrt(6)
    assert mean - Z95 * se < -0.15  # the old interval: 0.167 .. -0.16 below zero
    row = win_rate_row("compulsory-only", "fixed", shares)
    assert row["seat_games"] == 6 and row["mean"] == pytest.approx(mean) and row["se"] == pytest.approx(se)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((0.030053, 0.563503), abs=2e-6)
    row = win_rate_row("compulsory-only", "optimal", [1.0] * 5 + [0.5])  # 5 wins and a shared one of 6
    assert row["mean"] == pytest.approx(5.5 / 6) and 0.0 < row["ci_low"] < row["mean"] < row["ci_high"] <= 1.0
    row = win_rate_row("compulsory-only", "optimal", [1.0] * 6)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((0.609666, 1.0), abs=2e-6)


@pytest.mark.parametrize("folder", ["results/orders", "results/orders/by-doubling"])
def test_committed_win_rate_tables_carry_wilson_intervals(folder):
    rows = json.loads((ROOT / folder / "orders_win_rates.json").read_text())
    assert rows
    for r in rows:
        assert (r["ci_low"], r["ci_high"]) == pytest.approx(wilson_interval(r["mean"], r["seat_games"]))
        assert 0.0 <= r["ci_low"] <= r["mean"] <= r["ci_high"] <= 1.0
