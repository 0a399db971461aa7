"""``barbu-sim clabber report``: a run's tables in the terminal and as Markdown, CSV and JSON (no numba).

``report/clabber_scores.json`` holds records with exactly the fields ``team``, ``metric``, ``n``,
``mean``, ``std``, ``se``, ``ci_low``, ``ci_high``; ``report/meld_frequencies.json`` records
``meld``, ``p``, ``se``, ``n``; ``by_<grouping>.json`` tabulate makers' success and round scores
by bidding round, maker's seat relative to the dealer, maker's trump count and turned-up rank.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from ..core.runs import read_manifest
from ..core.seats import SEAT_LETTERS
from ..core.tables import to_markdown, write_table
from .analysis import GROUPINGS, by_group, clabber_scores, meld_frequencies, scan_run

SCORE_FIELDS = ["team", "metric", "n", "mean", "std", "se", "ci_low", "ci_high"]
MELD_FIELDS = ["meld", "p", "se", "n"]


def build_tables(run_dir) -> dict[str, pl.DataFrame]:
    """Every report table of a run, by name."""
    lf = scan_run(run_dir)
    tables = {"clabber_scores": clabber_scores(lf).select(SCORE_FIELDS),
              "meld_frequencies": meld_frequencies(lf).select(MELD_FIELDS)}
    for key in GROUPINGS:
        tables[f"by_{key}"] = by_group(lf, key)
    thrown = lf.select((pl.col("bid_round") == 0).mean().alias("thrown_in"), pl.len().alias("rounds")).collect()
    tables["thrown_in"] = thrown
    return tables


TITLES = {
    "clabber_scores": "Each team's score, part by part (played rounds; round_score after the makers' rule)",
    "meld_frequencies": "How often a player is dealt each meld (all rounds; se clustered by round)",
    **{f"by_{k}": f"Makers' success and round scores by {v}" for k, v in GROUPINGS.items()},
    "thrown_in": "Rounds thrown in (all four passed twice)",
}


def write_report(run_dir, tables: dict[str, pl.DataFrame] | None = None) -> list[Path]:
    """Write ``report.md`` and each table as CSV and JSON into ``run_dir/report``; returns the paths."""
    run_dir = Path(run_dir)
    tables = tables if tables is not None else build_tables(run_dir)
    manifest = read_manifest(run_dir)
    cfg = manifest["config"]
    out = run_dir / "report"
    out.mkdir(exist_ok=True)
    paths = []
    md = [f"# barbu-sim Clabber report: {run_dir.name}", "",
          f"{manifest['rounds_done']:,} rounds, seed {cfg['seed']}, dealer seat {SEAT_LETTERS[cfg['dealer']]}, "
          f"bidding {', '.join(cfg['bidding'])}, strategies {', '.join(cfg['strategies'])}, "
          f"rules {cfg['rules']}, barbu-sim {manifest['package_version']}."
          + ("" if manifest.get("complete") else " **Run incomplete.**"),
          "", "CIs are 95% normal intervals (mean ± 1.96 se).", ""]
    for name, table in tables.items():
        paths += write_table(table, out, name)
        md += [f"## {TITLES[name]}", "", to_markdown(table), ""]
    (out / "report.md").write_text("\n".join(md))
    paths.append(out / "report.md")
    return paths


def terminal_summary(tables: dict[str, pl.DataFrame]) -> str:
    """The headline tables, compact, for the terminal."""
    parts = []
    for name in ("clabber_scores", "meld_frequencies", "by_maker_trumps", "thrown_in"):
        t = tables[name].drop("std", strict=False).with_columns(pl.col(pl.Float64).round(4))
        with pl.Config(tbl_hide_column_data_types=True, tbl_hide_dataframe_shape=True, tbl_rows=-1, tbl_cols=-1,
                       tbl_width_chars=200):
            parts.append(f"{TITLES[name]}\n{t}")
    return "\n\n".join(parts)
