"""The headline study: every contract's value per seat, with `heuristic` at every seat (``results/``).

On the same deals of one seed, North declaring and ``heuristic`` at every seat, the study plays
every contract, the four trump suits and both trump-choice policies (``longest``, ``strongest``),
the 13 domino starting ranks and the ``most-held`` policy: 25 configurations a deal.  The
records go to a run folder (chunked and resumable, as any ``barbu-sim run``); the report tables,
the charts, the run's manifest and ``timing.json`` go to a results folder (``results/``).

The study plays every choice of Trumps and Domino, so the one standard configuration of the
other studies (:data:`~.compare.STUDY_PARAMS`) is among its rows rather than a setting of it.
"""

from __future__ import annotations

import time
from dataclasses import asdict
from pathlib import Path

import polars as pl

from ...core import outputs
from ...core.rundir import RunError, read_manifest
from ..analytics.analysis import scan_run
from ..analytics.plots import write_plots
from ..analytics.report import build_tables, write_report
from ..runs import RunConfig, run

TRUMP, DOMINO_RANK = "each,longest,strongest", "each,most-held"  # every suit and rank, and the policies
DEFAULT_DEALS = 1_000_000
DEFAULT_SEED = 2026
# The study's files in the results folder that are always written: one of them there means an earlier
# study would be replaced.
MARKERS = ("manifest.json", "timing.json", "report.md")


def headline_config(deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED, strategy: str = "heuristic",
                    chunk: int = 0) -> RunConfig:
    """The study's run: its 25 configurations with ``strategy`` at every seat (``chunk`` 0: the run's default)."""
    extra = {"chunk_deals": chunk} if chunk else {}
    return RunConfig(deals=deals, seed=seed, strategies=[strategy] * 4, trump=TRUMP, domino_rank=DOMINO_RANK,
                     **extra)


def stored_config(run_dir) -> RunConfig | None:
    """The configuration of the run in ``run_dir``, or ``None`` when there is none (or it cannot be read)."""
    try:
        return RunConfig(**read_manifest(Path(run_dir), "deals")["config"])
    except (RunError, TypeError, ValueError, KeyError):
        return None


def check_headline(out, results, *, deals: int, seed: int, force: bool, resume: bool) -> None:
    """The study's checks, before any deal is played (ValueError, one line): the results folder holds no
    earlier study unless ``force``; the run folder holds no run unless ``force`` (it is started afresh) or
    ``resume`` (then it must be this study's run of ``deals`` deals and ``seed``, which is finished)."""
    outputs.check_folder_files(results, MARKERS, force, "--results")
    if not resume:
        outputs.check_folder_files(out, ("manifest.json",), force, "--out")  # a run there is started afresh
        return
    stored = stored_config(out)
    if stored is None:
        raise ValueError(f"--resume: no run to finish in {out}: leave --resume out to start the study")
    if asdict(stored) != asdict(headline_config(deals, seed, chunk=stored.chunk_deals)):
        raise ValueError(f"--resume: the run in {out} is not the study's run of {deals:,} deals of seed {seed} "
                         f"(it plans {stored.deals:,} deals of seed {stored.seed}, trump {stored.trump}, domino rank "
                         f"{stored.domino_rank}): give its --deals and --seed, or --force to start afresh")
    outputs.check_folder_files(out, (), True, "--out")  # files can be written there


def publish_report(run_dir, results, tables: dict[str, pl.DataFrame]) -> None:
    """The run's report (``tables``, written into ``run_dir/report``) copied into ``results`` with its charts
    (``results/charts``) and its ``manifest.json``."""
    run_dir, results = Path(run_dir), Path(results)
    write_report(run_dir, tables)
    for f in (run_dir / "report").iterdir():
        if f.suffix in (".md", ".json", ".csv"):
            outputs.copy_file(f, results / f.name)
    write_plots(tables, results / "charts")
    outputs.copy_file(run_dir / "manifest.json", results / "manifest.json")


def headline_study(out, results, *, deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED, resume: bool = False,
                   progress: bool = True, backend=None) -> dict:
    """Play the study into the run folder ``out`` (afresh, or with ``resume`` finishing the run there),
    then write its tables, charts, manifest and ``timing.json`` into ``results``; returns the timing.

    Call :func:`check_headline` first: this function replaces what is there.  On Ctrl-C
    (``KeyboardInterrupt``) the finished chunks stay in ``out``, for ``resume`` to go on from,
    and nothing is written to ``results``.
    """
    config = headline_config(deals, seed)
    t0 = time.perf_counter()
    if resume:
        summary = run(out, resume=True, progress=progress, backend=backend)
    else:
        summary = run(out, config, force=True, progress=progress, backend=backend)
    run_seconds = time.perf_counter() - t0
    t1 = time.perf_counter()
    n_records = scan_run(out).select(pl.len()).collect().item()
    tables = build_tables(out)
    aggregate_seconds = time.perf_counter() - t1
    publish_report(out, results, tables)
    timing = {"deals": summary.done, "configurations": len(config.configs()), "records": n_records,
              "run_seconds": run_seconds, "deals_per_second": summary.per_second,
              "plays_per_second": summary.per_second * len(config.configs()),
              "aggregate_seconds": aggregate_seconds}
    outputs.write_json(Path(results) / "timing.json", timing)
    return timing
