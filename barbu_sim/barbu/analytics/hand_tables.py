"""Expected scores by what the declarer's hand holds, and which counts explain the most.

The records joined to their hands (:func:`barbu_sim.barbu.analytics.hands.with_hands`) are grouped by
one or more features of the declarer's hand.  Every table keeps the configuration a record was played
under (contract, and for Trumps and Domino the suit or rank named and by which choice), so a cell
never pools two contracts.  This module does not import numba.
"""

from __future__ import annotations

import polars as pl

from .analysis import relative_scores, seat_summary
from .hands import feature_expr

CONFIG_KEYS = ["contract", "choice", "trump", "domino_rank"]


def _with_named(frame: pl.LazyFrame, features: list[str]) -> tuple[pl.LazyFrame, list[str]]:
    parsed = [feature_expr(f) for f in features]
    names = [name for name, _ in parsed]
    if len(set(names)) != len(names):
        raise ValueError(f"a feature is named twice: {', '.join(features)}")
    return frame.with_columns([expr for _, expr in parsed]), names


def by_features(records: pl.LazyFrame, features: list[str]) -> pl.DataFrame:
    """Expected score of every seat relative to the declarer, per configuration and value of ``features``.

    ``records``: records with the declarer's features (:func:`with_hands`); ``features``: names of
    :data:`FEATURES` or SQL expressions over them (:func:`feature_expr`).  Columns: the configuration keys,
    the features, ``rel_seat``, ``n``, ``mean``, ``std``, ``se``, ``ci_low``, ``ci_high``.
    """
    frame, names = _with_named(records, features)
    frame = frame.filter(pl.all_horizontal([pl.col(n).is_not_null() for n in names]))
    return seat_summary(relative_scores(frame), [*CONFIG_KEYS, *names])


def declarer_by_features(records: pl.LazyFrame, features: list[str]) -> pl.DataFrame:
    """:func:`by_features` for the declarer's own score only (the table a declarer reads)."""
    table = by_features(records, features)
    return table.filter(pl.col("rel_seat") == "declarer").drop("rel_seat")


def explained_share(records: pl.LazyFrame, groupings: list, keys: list[str] = CONFIG_KEYS) -> pl.DataFrame:
    """How much of the spread of the declarer's score each grouping explains, per configuration.

    ``groupings``: features (a name or expression, see :func:`feature_expr`) or lists of features grouped
    together.  For each, the share of the variance of the declarer's score between its groups (eta
    squared: 1 - within-group sum of squares / total).  Columns: the configuration keys, ``feature`` (the
    features joined by `` & ``), ``groups``, ``n``, ``share``.  ``keys``: what a configuration is (default
    :data:`CONFIG_KEYS`; ``["contract"]`` pools a contract's suits, ranks and choices).
    """
    rel = relative_scores(records)
    v = pl.col("rel_declarer").cast(pl.Int64)
    rows = []
    for grouping in groupings:
        features = [grouping] if isinstance(grouping, str) else list(grouping)
        frame, names = _with_named(rel, features)
        cells = (frame.filter(pl.all_horizontal([pl.col(n).is_not_null() for n in names]))
                 .group_by([*keys, *names])
                 .agg(pl.len().alias("n"), v.sum().alias("s"), (v * v).sum().alias("q")).collect())
        totals = cells.group_by(keys).agg(
            pl.col("n").sum(), pl.col("s").sum(), pl.col("q").sum(),
            # within-group sum of squares: sum over cells of q - s^2/n
            (pl.col("q").cast(pl.Float64) - pl.col("s").cast(pl.Float64) ** 2 / pl.col("n")).sum().alias("within"),
            pl.len().alias("groups"))
        total_ss = pl.col("q").cast(pl.Float64) - pl.col("s").cast(pl.Float64) ** 2 / pl.col("n")
        rows.append(totals.select(
            *keys, pl.lit(" & ".join(features)).alias("feature"), "groups", "n",
            pl.when(total_ss > 0).then(1 - pl.col("within") / total_ss).otherwise(0.0).alias("share")))
    return pl.concat(rows).sort([*keys, "share"], descending=[False] * len(keys) + [True],
                                nulls_last=False)

