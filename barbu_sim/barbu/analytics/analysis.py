"""Polars pipelines from per-deal records to expected scores with confidence intervals.

Every function takes a ``polars.LazyFrame`` of records (the schema of
:mod:`barbu_sim.barbu.analytics.schema`; :func:`scan_run` opens a run directory) and returns a
``polars.DataFrame``.  Seats are reported relative to the declarer:
``declarer``, ``left``, ``across``, ``right``.  Confidence intervals are normal
95% intervals, ``mean ± Z95 se`` (:mod:`barbu_sim.core.stats`); paired differences
use the per-deal differences.  This module does not import numba.
"""

from __future__ import annotations

import polars as pl

from ...core.rundir import scan_records
from ...core.seats import N_SEATS
from ...core.stats import STAT_COLUMNS, with_ci
from .schema import CONTRACT_ENUM, REL_ENUM, REL_SEATS, RUN_KIND, SCORE_COLUMNS


def scan_run(run_dir) -> pl.LazyFrame:
    """The records of a run directory as a LazyFrame.

    Every chunk is first checked against the manifest: a missing or damaged one is a
    ``RunError`` that names it and the command that repairs the run.
    """
    return scan_records(run_dir, RUN_KIND)


def relative_scores(records: pl.LazyFrame) -> pl.LazyFrame:
    """Add ``rel_declarer``, ``rel_left``, ``rel_across``, ``rel_right``: the scores seen from the declarer."""
    d = pl.col("declarer").cast(pl.Int32)
    exprs = []
    for r, name in enumerate(REL_SEATS):
        seat = (d + r) % N_SEATS
        exprs.append(
            pl.when(seat == 0).then(pl.col(SCORE_COLUMNS[0]))
            .when(seat == 1).then(pl.col(SCORE_COLUMNS[1]))
            .when(seat == 2).then(pl.col(SCORE_COLUMNS[2]))
            .otherwise(pl.col(SCORE_COLUMNS[3])).cast(pl.Int32).alias(f"rel_{name}")
        )
    return records.with_columns(exprs)


def _sums(expr: pl.Expr, name: str) -> list[pl.Expr]:
    v = expr.cast(pl.Int64)
    return [v.sum().alias(f"sum_{name}"), (v * v).sum().alias(f"sq_{name}")]


def seat_summary(frame: pl.LazyFrame, keys: list[str], value_prefix: str = "rel_") -> pl.DataFrame:
    """n, mean, std, se and the 95% CI of each integer ``rel_*`` column per group, one row per rel seat."""
    aggs = [pl.len().alias("n")]
    for name in REL_SEATS:
        aggs += _sums(pl.col(f"{value_prefix}{name}"), name)
    wide = frame.group_by(keys).agg(aggs).collect()
    rows = []
    for name in REL_SEATS:
        part = with_ci(wide, "n", f"sum_{name}", f"sq_{name}")
        rows.append(part.select(*keys, pl.lit(name).cast(REL_ENUM).alias("rel_seat"), *STAT_COLUMNS))
    return pl.concat(rows).sort([*keys, "rel_seat"], nulls_last=False)


def expected_scores(records: pl.LazyFrame) -> pl.DataFrame:
    """Expected raw score per contract (trump suit, domino rank) and seat relative to the declarer.

    Only configurations with a fixed trump suit / starting rank (and the negative
    contracts) are here; choice policies are in :func:`policy_scores`.  Columns:
    ``contract, trump, domino_rank, rel_seat, n, mean, std, se, ci_low, ci_high``.
    """
    fixed = relative_scores(records.filter(pl.col("choice") == "fixed"))
    return seat_summary(fixed, ["contract", "trump", "domino_rank"])


def contract_scores(records: pl.LazyFrame) -> pl.DataFrame:
    """Expected score per contract and relative seat, pooling trump suits / ranks / policies as played."""
    return seat_summary(relative_scores(records), ["contract"])


def by_domino_rank(records: pl.LazyFrame) -> pl.DataFrame:
    """Expected Domino score per fixed starting rank and relative seat."""
    return expected_scores(records.filter(pl.col("contract") == "domino")).drop("trump")


def by_trump(records: pl.LazyFrame) -> pl.DataFrame:
    """Expected Trumps score per fixed trump suit and per choice policy (``choice`` column).

    ``trump`` is the suit (``C`` .. ``S``) of a fixed suit's rows and, in a policy's rows, where the
    suit changes from deal to deal, the policy's name (``longest``): each row says how its suit was named.
    """
    rel = relative_scores(records.filter(pl.col("contract") == "trumps"))
    fixed = seat_summary(rel.filter(pl.col("choice") == "fixed"), ["trump"]).with_columns(
        pl.lit("fixed").alias("choice"), pl.col("trump").cast(pl.String))
    policies = seat_summary(rel.filter(pl.col("choice") != "fixed").with_columns(pl.col("choice").cast(pl.String)),
                        ["choice"]).with_columns(pl.col("choice").alias("trump"))
    cols = ["choice", "trump", "rel_seat", "n", "mean", "std", "se", "ci_low", "ci_high"]
    return pl.concat([fixed.select(cols), policies.select(cols)])


def choice_scores(records: pl.LazyFrame) -> pl.DataFrame:
    """Expected score per contract, per way its trump suit / domino rank was named, and relative seat.

    Each choice policy (``longest``...) is a group of its own; the fixed suits (ranks) of a contract
    are pooled in one group, ``choice`` = ``fixed``, whose ``named`` lists them (``C,D,H,S``): a suit
    set for every deal, whichever the declarer holds, is not one the declarer chose, and pooling it with
    a policy would hide what naming the suit is worth.  ``named`` is null for the contracts that name
    nothing.  Columns: ``contract, choice, named, rel_seat, n, mean, std, se, ci_low, ci_high``.
    """
    rel = relative_scores(records.with_columns(pl.col("choice").cast(pl.String)))
    out = seat_summary(rel, ["contract", "choice"])
    value = pl.coalesce(pl.col("trump").cast(pl.String), pl.col("domino_rank").cast(pl.String))
    named = (records.filter(pl.col("choice") == "fixed")
             .group_by("contract", "trump", "domino_rank").agg(value.first().alias("value"))
             .sort("trump", "domino_rank").group_by("contract")
             .agg(pl.lit("fixed").alias("choice"), pl.col("value").drop_nulls().str.join(",").alias("named"))
             .with_columns(pl.when(pl.col("named") != "").then(pl.col("named")).alias("named"))
             .collect())
    out = out.join(named, on=["contract", "choice"], how="left")
    return out.select("contract", "choice", "named", "rel_seat", *STAT_COLUMNS).sort("contract", "choice", "rel_seat")


def policy_scores(records: pl.LazyFrame) -> pl.DataFrame:
    """Expected score per contract and trump / domino choice policy (``choice`` other than fixed)."""
    rel = relative_scores(records.filter(pl.col("choice") != "fixed"))
    return seat_summary(rel, ["contract", "choice"])


def score_distribution(records: pl.LazyFrame) -> pl.DataFrame:
    """How often each raw score occurs, per contract and relative seat (fixed configurations pooled)."""
    rel = relative_scores(records).select(
        "contract", *[pl.col(f"rel_{n}") for n in REL_SEATS])
    long = rel.unpivot(index="contract", on=[f"rel_{n}" for n in REL_SEATS],
                       variable_name="rel_seat", value_name="score")
    long = long.with_columns(pl.col("rel_seat").str.strip_prefix("rel_").cast(REL_ENUM))
    out = long.group_by("contract", "rel_seat", "score").agg(pl.len().alias("count")).collect()
    totals = out.group_by("contract", "rel_seat").agg(pl.col("count").sum().alias("total"))
    return (out.join(totals, on=["contract", "rel_seat"])
            .with_columns((pl.col("count") / pl.col("total")).alias("share")).drop("total")
            .sort("contract", "rel_seat", "score"))


def select_config(records: pl.LazyFrame, contract: str, trump: str | None = None,
                  domino_rank: str | None = None, choice: str = "fixed") -> pl.LazyFrame:
    """The records of one configuration."""
    cond = (pl.col("contract") == contract) & (pl.col("choice") == choice)
    cond &= pl.col("trump").is_null() if trump is None else (pl.col("trump") == trump)
    cond &= pl.col("domino_rank").is_null() if domino_rank is None else (pl.col("domino_rank") == domino_rank)
    return records.filter(cond)


def paired_difference(a: pl.LazyFrame, b: pl.LazyFrame) -> pl.DataFrame:
    """Mean of (a - b) per relative seat over the deals both hold, with paired 95% CIs.

    ``a`` and ``b`` are the records of one configuration each (e.g. two domino
    ranks of one run, or one configuration in two runs with the same seed and
    different strategies): they are matched on the deal index.
    """
    ra = relative_scores(a).select("deal", *[pl.col(f"rel_{n}").alias(f"a_{n}") for n in REL_SEATS])
    rb = relative_scores(b).select("deal", *[pl.col(f"rel_{n}").alias(f"b_{n}") for n in REL_SEATS])
    joined = ra.join(rb, on="deal", how="inner").select(
        pl.lit("a - b").alias("comparison"),
        *[(pl.col(f"a_{n}") - pl.col(f"b_{n}")).alias(f"rel_{n}") for n in REL_SEATS])
    out = seat_summary(joined, ["comparison"])
    if out.is_empty() or out["n"][0] == 0:
        raise ValueError("the two configurations share no deals: were they run with the same seed?")
    return out.drop("comparison")


def domino_rank_differences(records: pl.LazyFrame, baseline: str | None = None,
                            lower_is_better: bool = False) -> pl.DataFrame:
    """Declarer's paired difference of each fixed domino rank against ``baseline`` (default: the best rank,
    the highest mean, or the lowest under rules where the lowest total wins: ``lower_is_better``).

    One scan: the declarer's Domino scores are pivoted to one column per rank
    (deals as rows), then each column is differenced against the baseline's.
    """
    dom = (relative_scores(records.filter((pl.col("contract") == "domino") & (pl.col("choice") == "fixed")))
           .select("deal", pl.col("domino_rank").cast(pl.String), "rel_declarer").collect())
    if dom.is_empty():
        return pl.DataFrame()
    wide = dom.pivot(on="domino_rank", index="deal", values="rel_declarer")
    ranks = [c for c in wide.columns if c != "deal"]
    if baseline is None:  # integer sums: the same best rank on every machine
        sums = wide.select(pl.col(ranks).cast(pl.Int64).sum()).row(0)
        counts = wide.select(pl.col(ranks).count()).row(0)
        best = min if lower_is_better else max
        baseline = ranks[best(range(len(ranks)), key=lambda i: sums[i] / counts[i])]
    if baseline not in ranks:
        raise ValueError(f"domino rank {baseline!r} was not played in this run")
    rows = []
    for rank in ranks:
        diff = (wide[rank] - wide[baseline]).drop_nulls().cast(pl.Int64)
        rows.append({"domino_rank": rank, "baseline": baseline, "n": diff.len(),
                     "total": int(diff.sum()), "squares": int((diff * diff).sum())})
    return with_ci(pl.DataFrame(rows), "n", "total", "squares").drop("total", "squares")


def declarer_edge(records: pl.LazyFrame) -> pl.DataFrame:
    """Per contract: the declarer's score minus the mean of the other three, per deal, with a paired CI.

    In a negative contract this is what leading first (and declaring) costs or earns.
    """
    # Three times the edge is an integer: exact sums, reproducible statistics.
    edge3 = 3 * pl.col("rel_declarer") - pl.col("rel_left") - pl.col("rel_across") - pl.col("rel_right")
    sums = relative_scores(records).group_by("contract").agg(pl.len().alias("n"), *_sums(edge3, "e")).collect()
    return with_ci(sums, "n", "sum_e", "sq_e", scale=3.0).select(
        "contract", "n", "mean", "std", "se", "ci_low", "ci_high").sort("contract")


def heatmap_table(expected: pl.DataFrame) -> pl.DataFrame:
    """Contract x relative seat matrix of mean scores (trump suits / ranks pooled by their mean)."""
    return (expected.group_by("contract", "rel_seat").agg(pl.col("mean").mean())
            .pivot(on="rel_seat", index="contract", values="mean")
            .sort("contract").select("contract", *[s for s in REL_SEATS]))


__all__ = [
    "CONTRACT_ENUM", "REL_SEATS", "by_domino_rank", "by_trump", "choice_scores", "contract_scores", "declarer_edge",
    "domino_rank_differences",
    "expected_scores", "heatmap_table", "paired_difference", "policy_scores", "relative_scores", "scan_run",
    "score_distribution", "select_config",
]
