"""Polars pipelines from Clabber round records to expected scores with confidence intervals.

Every function takes a ``polars.LazyFrame`` of records (:mod:`barbu_sim.clabber.analytics.schema`;
:func:`scan_run` opens a run directory) and returns a ``polars.DataFrame``.  Teams are spoken of
as ``makers`` (the team that chose trumps) and ``defenders``; thrown-in rounds are left out of
the scores.  CIs are 95% normal intervals (:mod:`barbu_sim.core.stats`).  No numba here.
"""

from __future__ import annotations

import polars as pl

from ...core.rundir import scan_records
from ...core.stats import STAT_COLUMNS, with_ci
from .schema import RUN_KIND

METRICS = ("card_points", "meld_points", "bell_points", "round_score", "made")
_PARTS = {"card_points": "card", "meld_points": "meld", "bell_points": "bell", "round_score": "score"}
GROUPINGS = {"bid_round": "bidding round", "maker_rel": "maker's seat relative to the dealer",
             "maker_trumps": "trumps dealt to the maker", "turned_rank": "rank of the turned-up card"}
# A player "holds" a meld kind when it is among their dealt cards: a run of at least 3 / 4 / 5, a four.
MELDS = {"seq3plus": 3, "seq4plus": 4, "seq5": 5, "four_of_a_kind": 0}


def scan_run(run_dir) -> pl.LazyFrame:
    """The records of a run directory, every chunk checked against the manifest."""
    return scan_records(run_dir, RUN_KIND)


def team_values(records: pl.LazyFrame) -> pl.LazyFrame:
    """The played rounds with each part of the score seen from the makers and the defenders."""
    ns = pl.col("makers") == "NS"
    cols = []
    for metric, part in _PARTS.items():
        cols.append(pl.when(ns).then(pl.col(f"{part}_ns")).otherwise(pl.col(f"{part}_ew")).cast(pl.Int64)
                    .alias(f"makers_{metric}"))
        cols.append(pl.when(ns).then(pl.col(f"{part}_ew")).otherwise(pl.col(f"{part}_ns")).cast(pl.Int64)
                    .alias(f"defenders_{metric}"))
    out = records.filter(pl.col("bid_round") > 0).with_columns(cols)
    return out.with_columns((pl.col("makers_round_score") > 0).cast(pl.Int64).alias("makers_made"))


def _stats(frame: pl.LazyFrame, keys: list[str], columns: dict[str, str]) -> pl.DataFrame:
    """Stats of each integer column (name -> label) per group, one row per group and label."""
    aggs = [pl.len().alias("n")]
    for col in columns:
        v = pl.col(col).cast(pl.Int64)
        aggs += [v.sum().alias(f"sum_{col}"), (v * v).sum().alias(f"sq_{col}")]
    wide = frame.group_by(keys).agg(aggs).collect() if keys else frame.select(aggs).collect()
    parts = []
    for col, label in columns.items():
        part = with_ci(wide, "n", f"sum_{col}", f"sq_{col}")
        parts.append(part.select(*keys, pl.lit(label).alias("metric"), *STAT_COLUMNS))
    out = pl.concat(parts)
    return out.sort(keys, nulls_last=True) if keys else out


def clabber_scores(records: pl.LazyFrame) -> pl.DataFrame:
    """Per team (makers, defenders) and metric: ``n``, ``mean``, ``std``, ``se``, ``ci_low``, ``ci_high``.

    Metrics: ``card_points`` (the last trick's 10 included), ``meld_points`` (scored only by the
    team winning the meld comparison), ``bell_points``, ``round_score`` (after the makers' rule),
    and for the makers ``made`` (1 when they scored).
    """
    tv = team_values(records)
    rows = []
    for team in ("makers", "defenders"):
        cols = {f"{team}_{m}": m for m in METRICS if not (team == "defenders" and m == "made")}
        part = _stats(tv, [], cols)
        rows.append(part.select(pl.lit(team).alias("team"), "metric", *STAT_COLUMNS))
    return pl.concat(rows)


def by_group(records: pl.LazyFrame, key: str) -> pl.DataFrame:
    """Makers' success and both teams' round scores per value of ``key`` (a column of the records)."""
    tv = team_values(records)
    cols = {"makers_made": "made", "makers_round_score": "makers_score", "defenders_round_score": "defenders_score"}
    out = _stats(tv, [key], cols)
    return out.with_columns(pl.col(key).cast(pl.String))


def meld_frequencies(records: pl.LazyFrame) -> pl.DataFrame:
    """How often a player is dealt each kind of meld: ``meld``, ``p``, ``se``, ``n`` (player-hands).

    Every round counts, thrown-in ones too.  The four hands of a round are not independent, so
    ``se`` is computed over rounds from the per-round count of the four players (a cluster se).
    """
    rows = []
    for name, length in MELDS.items():
        count = sum((pl.col(f"run_{s}") >= length if length else pl.col(f"four_{s}")).cast(pl.Int64)
                    for s in "nesw")
        frame = records.select(count.alias("k"))
        wide = frame.select(pl.len().alias("rounds"), pl.col("k").sum().alias("sum"),
                            (pl.col("k") * pl.col("k")).sum().alias("sq")).collect()
        stats = with_ci(wide, "rounds", "sum", "sq", scale=4)
        rows.append(stats.select(pl.lit(name).alias("meld"), pl.col("mean").alias("p"), "se",
                                 (pl.col("rounds") * 4).alias("n")))
    return pl.concat(rows)


PAIRED_METRICS = {"makers_made": "made", "makers_round_score": "makers_score",
                  "defenders_round_score": "defenders_score"}


def paired_by_group(a: pl.LazyFrame, b: pl.LazyFrame, key: str | None = None) -> pl.DataFrame:
    """Two runs' records of the same rounds (same seed and bidding, other players), paired by ``round``.

    Per value of ``key`` (``None``: every played round together) and metric (``made``,
    ``makers_score``, ``defenders_score``): ``n``, each run's mean (``a``, ``b``) and the paired
    difference a - b with its 95% CI (``difference``, ``se``, ``ci_low``, ``ci_high``) and
    ``moves`` (the CI excludes 0).  Rounds played in one run only (the same deal bid otherwise)
    are left out, as are those that only one run holds.
    """
    keys = [key] if key else []
    cols = ["round", "bid_round", "makers", *[k for k in keys if k != "bid_round"], *PAIRED_METRICS]
    joined = team_values(a).select(cols).join(team_values(b).select(cols), on="round", suffix="_b", how="inner")
    same = (pl.col("makers") == pl.col("makers_b")) & (pl.col("bid_round") == pl.col("bid_round_b"))
    if key:
        same &= pl.col(key) == pl.col(f"{key}_b")
    diffs = [(pl.col(c) - pl.col(f"{c}_b")).alias(f"d_{c}") for c in PAIRED_METRICS]
    frame = joined.filter(same).with_columns(diffs)
    aggs = [pl.len().alias("n")]
    for c in PAIRED_METRICS:
        aggs += [pl.col(c).sum().alias(f"a_{c}"), pl.col(f"{c}_b").sum().alias(f"b_{c}"),
                 pl.col(f"d_{c}").sum().alias(f"sum_{c}"), (pl.col(f"d_{c}") ** 2).sum().alias(f"sq_{c}")]
    wide = frame.group_by(keys).agg(aggs).collect().sort(keys) if keys else frame.select(aggs).collect()
    parts = []
    for c, label in PAIRED_METRICS.items():
        part = with_ci(wide, "n", f"sum_{c}", f"sq_{c}").rename({"mean": "difference"})
        parts.append(part.select(
            *[pl.col(k).cast(pl.String) for k in keys], pl.lit(label).alias("metric"), "n",
            (pl.col(f"a_{c}") / pl.col("n")).alias("a"), (pl.col(f"b_{c}") / pl.col("n")).alias("b"),
            "difference", "se", "ci_low", "ci_high", ((pl.col("ci_low") > 0) | (pl.col("ci_high") < 0)).alias("moves")))
    return pl.concat(parts)  # per metric, the values in their own order (ranks 9 .. A)
