"""``barbu-sim clabber report``: a run's tables in the terminal and as Markdown, CSV and JSON (no numba).

``report/clabber_scores.json`` holds records with exactly the fields ``team``, ``metric``, ``n``,
``mean``, ``std``, ``se``, ``ci_low``, ``ci_high``; ``report/meld_frequencies.json`` records
``meld``, ``p``, ``se``, ``n``; ``by_<grouping>.json`` tabulate makers' success and round scores
by bidding round, maker's seat relative to the dealer, maker's trump count and turned-up rank.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from ...core.rundir import Snapshot, incomplete_note as run_note, snapshot_run
from ...core.seats import SEAT_LETTERS
from ...core.tables import report_head, shown_small_n, terminal_table, write_report_set
from .analysis import GROUPINGS, by_group, clabber_scores, meld_frequencies
from .schema import RUN_KIND

SCORE_FIELDS = ["team", "metric", "n", "mean", "std", "se", "ci_low", "ci_high"]
MELD_FIELDS = ["meld", "p", "se", "n"]


def snapshot(run_dir) -> Snapshot:
    """One reading of a Clabber run: its manifest, read once, and exactly the chunks it lists."""
    if isinstance(run_dir, Snapshot):
        return run_dir
    return snapshot_run(run_dir, RUN_KIND)


def build_tables(run) -> dict[str, pl.DataFrame]:
    """Every report table of a run (a directory or a :func:`snapshot`), by name."""
    lf = snapshot(run).records
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


def write_report(run, tables: dict[str, pl.DataFrame] | None = None) -> list[Path]:
    """The Clabber run's report in ``run_dir/report`` (:func:`~barbu_sim.core.tables.write_report_set`: the
    tables as CSV and JSON, and ``report.md`` headed by the rounds, dealer, bidding, strategies and rules);
    returns the paths.  ``run``: a run directory or the :func:`snapshot` the ``tables`` come from.
    """
    snap = snapshot(run)
    tables = tables if tables is not None else build_tables(snap)
    manifest, cfg = snap.manifest, snap.manifest["config"]
    facts = (f"{manifest['rounds_done']:,} rounds, seed {cfg['seed']}, dealer seat {SEAT_LETTERS[cfg['dealer']]}, "
             f"bidding {', '.join(cfg['bidding'])}, strategies {', '.join(cfg['strategies'])}, "
             f"rules {cfg['rules']}, barbu-sim {manifest['package_version']}.")
    head = report_head(f"barbu-sim Clabber report: {snap.run_dir.name}", facts, incomplete_note(snap),
                       "CIs are 95% normal intervals (mean ± 1.96 se).")
    return write_report_set(snap.run_dir / "report", head, tables, TITLES)


def incomplete_note(run) -> str | None:
    """For a run not yet complete: how far it got and the command that finishes it (or that it is still
    being written); else ``None``.  ``run``: a run directory or a :func:`snapshot`."""
    return run_note(snapshot(run), RUN_KIND)


def terminal_summary(tables: dict[str, pl.DataFrame]) -> str:
    """The headline tables, compact, for the terminal."""
    parts = []
    for name in ("clabber_scores", "meld_frequencies", "by_maker_trumps", "thrown_in"):
        t = shown_small_n(tables[name].drop("std", strict=False).with_columns(pl.col(pl.Float64).round(4)), 4)
        parts.append(f"{TITLES[name]}\n{terminal_table(t)}")
    return "\n\n".join(parts)
