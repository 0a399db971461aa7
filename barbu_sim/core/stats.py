"""The one place where means, standard errors and 95% confidence intervals are computed.

CIs are normal intervals, ``mean ± Z95 * se``, except for proportions such as win rates,
whose CIs are Wilson score intervals (:func:`wilson_interval`, always inside [0, 1]).
Two forms of the normal formulas:
:func:`summarize` for a numpy sample, :func:`with_ci` for a polars frame of exact
integer sums (``n``, total, sum of squares), so that a table's statistics do not
depend on the order in which polars adds its rows.

>>> s = summarize(np.array([1.0, 2.0, 3.0]))
>>> s["n"], s["mean"], s["std"]
(3, 2.0, 1.0)
"""

from __future__ import annotations

import numpy as np
import polars as pl

Z95 = 1.959963984540054  # the two-sided 95% normal quantile

STAT_COLUMNS = ["n", "mean", "std", "se", "ci_low", "ci_high"]


def summarize(x: np.ndarray) -> dict:
    """``n``, ``mean``, ``std`` (ddof 1), ``se`` and the 95% CI of a 1-d sample, as plain floats."""
    x = np.asarray(x, dtype=np.float64)
    n = len(x)
    mean = float(x.mean())
    std = float(x.std(ddof=1)) if n > 1 else 0.0
    se = std / np.sqrt(n)
    return {"n": n, "mean": mean, "std": std, "se": se, "ci_low": mean - Z95 * se, "ci_high": mean + Z95 * se}


def wilson_interval(share, n, z: float = Z95):
    """The Wilson score interval of a proportion: ``(low, high)``, always inside [0, 1].

    ``share``: the observed proportion (successes / ``n``; a fractional number of
    successes, such as a shared win counted as 1/2, is allowed); ``n``: the number of
    trials.  Unlike ``share ± z * se`` it never leaves [0, 1] and stays meaningful at
    0 or ``n`` successes.  Numpy arrays are taken elementwise.

    >>> low, high = wilson_interval(0.0, 6)
    >>> float(low), round(float(high), 4)
    (0.0, 0.3903)
    """
    share, n = np.asarray(share, dtype=np.float64), np.asarray(n, dtype=np.float64)
    z2 = z * z
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * np.sqrt(np.maximum(share * (1 - share), 0.0) / n + z2 / (4 * n * n))
    low, high = np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def mean_and_se(sums: np.ndarray, squares: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Elementwise mean and standard error of the mean from sums and sums of squares of ``n`` values."""
    mean = sums / n
    var = np.maximum(squares / n - mean ** 2, 0.0) * n / (n - 1)
    return mean, np.sqrt(var / n)


def with_ci(frame: pl.DataFrame, n: str, total: str, squares: str, scale: float = 1.0) -> pl.DataFrame:
    """Add ``mean``, ``std``, ``se``, ``ci_low``, ``ci_high`` from exact integer sums.

    ``n``, ``total`` and ``squares`` name the columns holding the count, the sum and
    the sum of squares.  Scores are integers, so their sums are exact whatever order
    polars adds them in: the statistics are bit-for-bit reproducible (a resumed run
    equals an uninterrupted one).  ``scale`` divides the underlying values (e.g. 3
    when the sums are of three times the quantity).
    """
    nn = pl.col(n).cast(pl.Float64)
    mean = pl.col(total).cast(pl.Float64) / nn
    var = ((pl.col(squares).cast(pl.Float64) - pl.col(total).cast(pl.Float64) * mean) / (nn - 1)).clip(lower_bound=0)
    out = frame.with_columns((mean / scale).alias("mean"),
                             pl.when(pl.col(n) > 1).then(var.sqrt() / scale).otherwise(0.0).alias("std"))
    out = out.with_columns((pl.col("std") / nn.sqrt()).alias("se"))
    return out.with_columns((pl.col("mean") - Z95 * pl.col("se")).alias("ci_low"),
                            (pl.col("mean") + Z95 * pl.col("se")).alias("ci_high"))
