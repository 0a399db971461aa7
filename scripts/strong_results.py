"""What strong play changes: the headline tables with `mc` at every seat, next to `heuristic` on the same deals.

The study of scripts/make_results.py (every contract, every trump suit and both
trump-choice policies, every domino starting rank and `most-held`, North
declaring, seed 2026), played with the Monte-Carlo player at all four seats on
the first N deals of the same seed, and again with `heuristic` at all four seats
on those same deals.  Writes into results/strong/: the mc run's report tables
(the same files as results/), its charts, its manifest and timing, and
`strong_vs_heuristic.{json,csv,md}`: per configuration and seat relative to the
declarer, the mc table's mean, the heuristic table's mean and their paired
difference with a 95% CI.

The mc run is chunked and resumable: Ctrl-C (or the end of `--minutes`) keeps
every finished chunk and the tables are made from the deals done so far;
`--resume` goes on with the stored run, `--tables-only` remakes the tables from it.

    python scripts/strong_results.py --minutes 60             # as many of 20,000 deals as an hour allows
    python scripts/strong_results.py --resume                  # go on with the run in runs/strong
    python scripts/strong_results.py --deals 4 --strategy mc:samples=4 --out /tmp/s --results /tmp/s/results
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import sys
from pathlib import Path

import polars as pl

from barbu_sim.barbu.analysis import paired_difference, relative_scores, scan_run, select_config
from barbu_sim.barbu.plots import write_plots
from barbu_sim.barbu.report import build_tables, write_report
from barbu_sim.barbu.runs import RunConfig, run
from barbu_sim.barbu.schema import REL_SEATS
from barbu_sim.core.backends import make_backend
from barbu_sim.core.rundir import read_manifest
from barbu_sim.core.tables import to_markdown, write_table

ROOT = Path(__file__).resolve().parent.parent
TRUMP, DOMINO_RANK = "each,longest,strongest", "each,most-held"


def _out_of_time(signum, frame):
    raise KeyboardInterrupt


def compare(strong_dir: Path, base_dir: Path, names: tuple[str, str]) -> pl.DataFrame:
    """Per configuration and relative seat: both tables' means and their paired difference (strong - base)."""
    strong, base = scan_run(strong_dir), scan_run(base_dir)
    keys = (strong.select("contract", "choice", "trump", "domino_rank").unique().collect()
            .sort("contract", "choice", "trump", "domino_rank", nulls_last=False))
    parts = []
    for contract, choice, trump, rank in keys.iter_rows():
        a = select_config(strong, str(contract), trump, rank, choice)
        b = select_config(base, str(contract), trump, rank, choice)
        means = [relative_scores(x).select([pl.col(f"rel_{seat}").mean() for seat in REL_SEATS]).collect().row(0)
                 for x in (a, b)]
        diff = paired_difference(a, b)
        parts.append(diff.select(
            pl.lit(str(contract)).alias("contract"), pl.lit(choice).alias("choice"),
            pl.lit(trump, pl.String).alias("trump"), pl.lit(rank, pl.String).alias("domino_rank"),
            pl.col("rel_seat").cast(pl.String), "n",
            pl.Series(names[0], list(means[0])), pl.Series(names[1], list(means[1])),
            pl.col("mean").alias("difference"), "se", "ci_low", "ci_high"))
    return pl.concat(parts)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=20_000, help="deals (the first N of the seed; default 20,000)")
    ap.add_argument("--minutes", type=float, default=0, help="stop playing after this long (0: play every deal)")
    ap.add_argument("--tables-only", action="store_true", help="play nothing: make the tables from the run on disk")
    ap.add_argument("--seed", type=int, default=2026, help="the headline study's seed (default 2026)")
    ap.add_argument("--strategy", default="mc", help="the strong player, at every seat (default mc)")
    ap.add_argument("--baseline", default="heuristic", help="the player it is compared with (default heuristic)")
    ap.add_argument("--chunk", type=int, default=25, help="deals per chunk of the strong run (resume granularity)")
    ap.add_argument("--out", default=str(ROOT / "runs" / "strong"), help="run directories go here (not committed)")
    ap.add_argument("--results", default=str(ROOT / "results" / "strong"), help="where the tables and charts go")
    ap.add_argument("--resume", action="store_true", help="go on with the strong run already in --out")
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument("--backend", default="local", help="local, or ray: the strong run's chunks as Ray tasks (same records)")
    ap.add_argument("--ray-address", default=None, help="with --backend ray: auto or HOST:PORT (default: a local instance)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    strong_dir, base_dir = out / "strong", out / "baseline"
    try:
        strong_cfg = RunConfig(deals=args.deals, seed=args.seed, strategies=[args.strategy] * 4, trump=TRUMP,
                               domino_rank=DOMINO_RANK, chunk_deals=args.chunk)
        backend = make_backend(args.backend, args.ray_address)
    except ValueError as e:
        print(f"Error: {e}", file=sys.stderr)
        sys.exit(2)

    if not args.tables_only:
        if args.minutes > 0:  # the budget ends the run like Ctrl-C: at the end of the chunk in play
            signal.signal(signal.SIGALRM, _out_of_time)
            signal.alarm(max(1, int(args.minutes * 60)))
        try:
            if args.resume and (strong_dir / "manifest.json").exists():
                run(strong_dir, resume=True, progress=not args.no_progress, backend=backend)
            else:
                run(strong_dir, strong_cfg, force=True, progress=not args.no_progress, backend=backend)
        except KeyboardInterrupt:
            print("Stopped: the tables are made from the deals done; go on later with --resume", file=sys.stderr)
        finally:
            signal.alarm(0)
    manifest = read_manifest(strong_dir, "deals")
    done = int(manifest["deals_done"])
    if done == 0:
        print("Error: no deal finished yet", file=sys.stderr)
        sys.exit(1)
    strong_cfg = RunConfig(**manifest["config"])
    base_cfg = RunConfig(deals=done, seed=strong_cfg.seed, strategies=[args.baseline] * 4, trump=TRUMP,
                         domino_rank=DOMINO_RANK)
    run(base_dir, base_cfg, force=True, progress=False)

    tables = build_tables(strong_dir)
    write_report(strong_dir, tables)
    results = Path(args.results)
    results.mkdir(parents=True, exist_ok=True)
    for f in (strong_dir / "report").iterdir():
        if f.suffix in (".md", ".json", ".csv"):
            shutil.copy(f, results / f.name)
    write_plots(tables, results / "charts")
    shutil.copy(strong_dir / "manifest.json", results / "manifest.json")
    names = (strong_cfg.strategies[0].split(":")[0], args.baseline.split(":")[0])
    comparison = compare(strong_dir, base_dir, names)
    write_table(comparison, results, "strong_vs_heuristic")
    md = to_markdown(comparison.filter(pl.col("choice") == "fixed").drop("choice"), decimals=2)
    (results / "strong_vs_heuristic.md").write_text(
        f"# {strong_cfg.strategies[0]} at every seat against {args.baseline} at every seat, on the same {done:,} "
        f"deals of seed {args.seed}\n\nMeans relative to the declarer; difference = {names[0]} - {names[1]}, "
        "paired per deal, with a 95% CI.\n\n" + md + "\n")
    timing = {"deals": done, "deals_planned": strong_cfg.deals, "configurations": len(strong_cfg.configs()),
              "strategy": strong_cfg.strategies[0], "wall_seconds": manifest["wall_seconds"],
              "deals_per_second": done / manifest["wall_seconds"] if manifest["wall_seconds"] else None}
    (results / "timing.json").write_text(json.dumps(timing, indent=2) + "\n")
    print(json.dumps(timing, indent=2))


if __name__ == "__main__":
    main()
