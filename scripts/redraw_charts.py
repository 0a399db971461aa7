"""Redraw the committed charts in results/ from the committed tables, without rerunning any study.

Every chart is drawn from a table already in results/ (the same frames the studies plot):

- results/charts/ and results/strong/charts/: the Barbu report tables (contract_scores,
  domino_ranks, heatmap, distribution JSON; the contract chart's Trumps and Domino by how the suit or
  rank was named, the fixed ones pooled exactly from trumps, domino_ranks and policies);
- results/clabber/<run>/charts/: the Clabber report tables of each run;
- results/orders/ and results/orders/by-doubling/: the compare-orders tables; their win-rate
  95% intervals are recomputed as Wilson intervals from the committed shares and game counts
  (what ``compare_orders`` now writes), so orders.md, the CSV / JSON tables and orders.png agree.

    python scripts/redraw_charts.py                   # rewrite the charts in results/
    python scripts/redraw_charts.py --results /tmp/r  # another copy of results/
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import polars as pl

from barbu_sim.barbu.analytics import plots as barbu_plots
from barbu_sim.barbu.game.game_runs import write_comparison
from barbu_sim.barbu.game.orders import OrderComparison
from barbu_sim.clabber.analytics import plots as clabber_plots
from barbu_sim.clabber.analytics.analysis import GROUPINGS
from barbu_sim.core.stats import wilson_interval, with_ci

ROOT = Path(__file__).resolve().parent.parent  # the repository: its results/ is the default

BARBU_TABLES = ("contract_scores", "domino_ranks", "heatmap", "distribution")
STATS = ("n", "mean", "std", "se", "ci_low", "ci_high")


def read_json_table(path: Path) -> pl.DataFrame:
    rows = json.loads(path.read_text())
    return pl.DataFrame(rows) if rows else pl.DataFrame()


def choice_scores(folder: Path) -> pl.DataFrame | None:
    """The contract chart's table (``choice_scores``, which the report does not write) from the committed
    ones: each choice policy's rows as they are (``policies``), the fixed trump suits (``trumps``) and domino
    ranks (``domino_ranks``) pooled exactly from their counts, means and standard deviations, and the other
    contracts from ``contract_scores``.  None when a table is missing."""
    names = ("contract_scores", "trumps", "domino_ranks", "policies")
    if not all((folder / f"{name}.json").exists() for name in names):
        return None
    contract_scores, trumps, ranks, policies = (read_json_table(folder / f"{name}.json") for name in names)

    def pooled(fixed: pl.DataFrame, contract: str, named: list[str]) -> pl.DataFrame:
        sums = (fixed.with_columns((pl.col("n") * pl.col("mean")).alias("total"),
                                   ((pl.col("n") - 1) * pl.col("std") ** 2 + pl.col("n") * pl.col("mean") ** 2)
                                   .alias("squares"))
                .group_by("rel_seat", maintain_order=True).agg(pl.col("n").sum(), pl.col("total").sum(),
                                                               pl.col("squares").sum()))
        stats = with_ci(sums, "n", "total", "squares")
        return stats.select(pl.lit(contract).alias("contract"), pl.lit("fixed").alias("choice"),
                            pl.lit(",".join(named)).alias("named"), "rel_seat", *STATS)

    fixed_trumps = trumps.filter(pl.col("choice") == "fixed")
    suits = [s for s in ("C", "D", "H", "S") if s in set(fixed_trumps["trump"].to_list())]
    order = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    rank_names = sorted(set(ranks["domino_rank"].to_list()), key=order.index)
    others = (contract_scores.filter(~pl.col("contract").is_in(["trumps", "domino"]))
              .select("contract", pl.lit("fixed").alias("choice"),
                      pl.lit(None, dtype=pl.String).alias("named"), "rel_seat", *STATS))
    parts = [others]
    if suits:
        parts.append(pooled(fixed_trumps, "trumps", suits))
    if rank_names:
        parts.append(pooled(ranks, "domino", rank_names))
    parts.append(policies.select("contract", "choice", pl.lit(None, dtype=pl.String).alias("named"), "rel_seat",
                                 *STATS))
    return pl.concat(parts, how="vertical_relaxed")


def redraw_barbu(folder: Path) -> list[Path]:
    tables = {name: read_json_table(folder / f"{name}.json") for name in BARBU_TABLES
              if (folder / f"{name}.json").exists()}
    choices = choice_scores(folder)
    if choices is not None:
        tables["choice_scores"] = choices
    return barbu_plots.write_plots(tables, folder / "charts")


def redraw_clabber(folder: Path) -> list[Path]:
    tables = {name: read_json_table(folder / f"{name}.json")
              for name in ["clabber_scores", *[f"by_{key}" for key in GROUPINGS]]}
    return clabber_plots.write_plots(tables, folder / "charts")


def with_wilson(win_rates: pl.DataFrame) -> pl.DataFrame:
    """The win-rate table with its 95% CIs as Wilson intervals of (``mean``, ``seat_games``)."""
    low, high = wilson_interval(win_rates["mean"].to_numpy(), win_rates["seat_games"].to_numpy())
    return win_rates.with_columns(pl.Series("ci_low", low), pl.Series("ci_high", high))


def redraw_orders(folder: Path) -> list[Path]:
    tables = {name: read_json_table(folder / f"orders_{name}.json") for name in ("blocks", "differences", "win_rates")}
    if not tables["win_rates"].is_empty():
        tables["win_rates"] = with_wilson(tables["win_rates"])
    write_comparison(OrderComparison(tables["blocks"], tables["differences"], tables["win_rates"], {}), folder)
    return [folder / "orders.png", folder / "orders.svg"]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=str(ROOT / "results"), help="the results folder to redraw")
    args = ap.parse_args(argv)
    results = Path(args.results)
    paths = []
    for folder in (results, results / "strong"):
        if (folder / "heatmap.json").exists():
            paths += redraw_barbu(folder)
    for folder in sorted((results / "clabber").glob("*/clabber_scores.json")):
        paths += redraw_clabber(folder.parent)
    for folder in (results / "orders", results / "orders" / "by-doubling"):
        if (folder / "orders_blocks.json").exists():
            paths += redraw_orders(folder)
    for p in paths:
        print(p.relative_to(results.parent) if p.is_relative_to(results.parent) else p)


if __name__ == "__main__":
    main()
