"""The statistics behind every table (``core/stats.py``), each checked against a figure worked out by hand."""

import math

import numpy as np
import polars as pl
import pytest

from barbu_sim.core.stats import Z95, mean_and_se, summarize, wilson_interval, with_ci


def test_summarize_of_2_4_9():
    # mean 5; deviations -3, -1, 4: squares 9 + 1 + 16 = 26, over n - 1 = 2: variance 13
    s = summarize(np.array([2, 4, 9]))
    assert s["n"] == 3 and s["mean"] == 5.0
    assert s["std"] == pytest.approx(math.sqrt(13))  # 3.6056
    assert s["se"] == pytest.approx(math.sqrt(13 / 3))  # 2.0817
    assert s["ci_low"] == pytest.approx(5 - 1.959964 * 2.081666, abs=1e-5)  # 0.9200
    assert s["ci_high"] == pytest.approx(5 + 1.959964 * 2.081666, abs=1e-5)  # 9.0800


def test_wilson_interval_of_2_in_8():
    # z² = 3.8415; centre (0.25 + 3.8415 / 16) / (1 + 3.8415 / 8) = 0.49010 / 1.48018 = 0.33110;
    # half 1.95996 / 1.48018 * sqrt(0.1875 / 8 + 3.8415 / 256) = 1.32414 * 0.196069 = 0.25962
    low, high = wilson_interval(0.25, 8)
    assert low == pytest.approx(0.33110 - 0.25962, abs=1e-4)  # 0.0715
    assert high == pytest.approx(0.33110 + 0.25962, abs=1e-4)  # 0.5907


def test_mean_and_se_from_sums_of_1_3_3_5():
    # sum 12, squares 1 + 9 + 9 + 25 = 44; mean 3; sample variance (44 / 4 - 9) * 4 / 3 = 8 / 3; se sqrt(8/3 / 4)
    mean, se = mean_and_se(np.array([12.0]), np.array([44.0]), 4)
    assert mean[0] == 3.0
    assert se[0] == pytest.approx(math.sqrt(2 / 3))  # 0.8165


def test_with_ci_from_exact_sums_and_a_scale():
    # the values 1, 3, 3, 5 as sums: mean 3, std sqrt(8/3) = 1.63299, se 0.81650; with scale 2 everything halves
    frame = pl.DataFrame({"n": [4, 4, 1], "total": [12, 12, 7], "squares": [44, 44, 49]})
    plain = with_ci(frame[:1], "n", "total", "squares").row(0, named=True)
    assert plain["mean"] == 3.0
    assert plain["std"] == pytest.approx(math.sqrt(8 / 3))
    assert plain["se"] == pytest.approx(math.sqrt(2 / 3))
    assert plain["ci_low"] == pytest.approx(3 - Z95 * math.sqrt(2 / 3))
    halved = with_ci(frame[1:2], "n", "total", "squares", scale=2.0).row(0, named=True)
    assert halved["mean"] == 1.5
    assert halved["std"] == pytest.approx(math.sqrt(8 / 3) / 2)
    assert halved["ci_high"] == pytest.approx(1.5 + Z95 * math.sqrt(2 / 3) / 2)
    one = with_ci(frame[2:], "n", "total", "squares").row(0, named=True)
    assert (one["mean"], one["std"], one["se"]) == (7.0, 0.0, 0.0)
