"""The headline study: writes the report tables, charts and manifest into results/.

Default: 1,000,000 deals, default rules, `heuristic` at every seat, North
declaring; on the same deals every contract, every trump suit and both trump
choice policies, every domino starting rank and the `most-held` policy.  The
records go to runs/headline (not committed); results/ gets what the README cites.

    python scripts/make_results.py --force             # the full study (a few minutes on 2 cores), replacing results/
    python scripts/make_results.py --deals 2000 --out /tmp/x --results /tmp/x/results   # a smoke run
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import polars as pl

from barbu_sim.barbu.analytics.analysis import scan_run
from barbu_sim.barbu.analytics.plots import write_plots
from barbu_sim.barbu.analytics.report import build_tables, write_report
from barbu_sim.barbu.runs import RunConfig, run

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from barbu_sim.core.outputs import add_force, check_folder_files, copy_file, fail, write_json  # noqa: E402

# The files of the study in --results that are always written (the report's tables and the charts besides):
# one of them there means an earlier study would be replaced.
MARKERS = ("manifest.json", "timing.json", "report.md")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=str(ROOT / "runs" / "headline"), help="run directory for the records")
    ap.add_argument("--results", default=str(ROOT / "results"), help="where the tables and charts go")
    ap.add_argument("--no-progress", action="store_true")
    add_force(ap, "replace the study's files in --results (and the records in --out) if they exist (without it, "
                  "they are refused before any work)")
    args = ap.parse_args(argv)
    try:
        check_folder_files(args.results, MARKERS, args.force, "--results")
        check_folder_files(args.out, ("manifest.json",), args.force, "--out")  # a run there would be started afresh
    except ValueError as e:
        fail(str(e))

    config = RunConfig(deals=args.deals, seed=args.seed, trump="each,longest,strongest",
                       domino_rank="each,most-held")
    t0 = time.perf_counter()
    summary = run(args.out, config, force=True, progress=not args.no_progress)
    run_seconds = time.perf_counter() - t0
    t1 = time.perf_counter()
    n_records = scan_run(args.out).select(pl.len()).collect().item()
    tables = build_tables(args.out)
    aggregate_seconds = time.perf_counter() - t1
    write_report(args.out, tables)
    results = Path(args.results)
    for f in (Path(args.out) / "report").iterdir():
        if f.suffix in (".md", ".json") or f.name.endswith(".csv"):
            copy_file(f, results / f.name)
    write_plots(tables, results / "charts")
    copy_file(Path(args.out) / "manifest.json", results / "manifest.json")
    timing = {"deals": summary.done, "configurations": len(config.configs()), "records": n_records,
              "run_seconds": run_seconds, "deals_per_second": summary.per_second,
              "plays_per_second": summary.per_second * len(config.configs()),
              "aggregate_seconds": aggregate_seconds}
    write_json(results / "timing.json", timing)
    print(json.dumps(timing, indent=2))


if __name__ == "__main__":
    main()
