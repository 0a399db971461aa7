"""Paired speed comparison of the engine at a git revision against the working tree (Barbu's, or Clabber's).

On a shared machine a core's speed drifts by tens of percent between runs, so two
benchmark runs a minute apart cannot tell a 5% change from noise.  This script
loads both versions into one process and alternates timed calls of the two, so each
pair sees the same machine state.  The revision's package is extracted under another
name, ``barbu_base`` (the package imports itself relatively, so it runs unchanged; a
revision whose package imports itself by name is refused), and the timing runs in a
child process that finds it on ``PYTHONPATH``, beside the installed working tree.

Barbu prints, per contract, the best rate of each and the median of the paired
ratios (work / base): above 1 means the working tree is faster.  Clabber
(``--game clabber``) times random and heuristic play with accept-first bidding and
heuristic with threshold, and prints per case the median rate of each, the median
paired ratio and whether both wrote the same records; it writes the figures as JSON
(``results/clabber/ab.json`` unless ``--out``; Barbu writes a file only with ``--out``).

    python scripts/ab_compare.py                         # HEAD against the working tree, random play
    python scripts/ab_compare.py --rev HEAD~3 --strategy heuristic --contracts 0,6 --repeats 9
    python scripts/ab_compare.py --seats learned/heuristic/heuristic/heuristic --contracts 0,6 --deals 50000
    python scripts/ab_compare.py --game clabber --rev 66c0911 --force     # -> results/clabber/ab.json
    python scripts/ab_compare.py --game clabber --rounds 100000 --repeats 5 --out /tmp/ab.json
    python scripts/ab_compare.py --rev HEAD~3 --dry-run   # extract and load both versions, time nothing

The revision's kernels compile once into a temporary numba cache (about a minute).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from barbu_sim.core.outputs import add_force, refuse_existing, write_json

ROOT = Path(__file__).resolve().parent.parent
BASE = "barbu_base"  # the name the revision's package is extracted under
ENGINE_MODULES = ("barbu.api", "engine")  # where play_batch lives: today's layout, then the flat one before it
CLABBER_CASES = (("random", "accept-first"), ("heuristic", "accept-first"), ("heuristic", "threshold"))
DEFAULTS = {"barbu": {"deals": 200_000, "repeats": 7, "out": None},
            "clabber": {"deals": 300_000, "repeats": 9, "out": str(ROOT / "results" / "clabber" / "ab.json")}}


def extract_revision(rev: str, into: Path) -> None:
    """Write ``barbu_sim/`` as of ``rev`` to ``into/barbu_base``; stop if that copy imports the package by name
    (it would run the working tree's modules, not its own)."""
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "barbu_sim"],
                                 capture_output=True, check=True).stdout
    except subprocess.CalledProcessError as e:
        sys.exit(f"cannot read revision {rev!r}: {e.stderr.decode().strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # our own archive either way
        tar.extractall(into, **safe)
    (into / "barbu_sim").rename(into / BASE)
    named = [source for source in sorted((into / BASE).rglob("*.py")) if imports_by_name(source)]
    if named:
        sys.exit(f"revision {rev}'s package imports itself by name (barbu_sim) in "
                 f"{named[0].relative_to(into / BASE)}: its copy would run the working tree's code")


def imports_by_name(source: Path) -> bool:
    """True when ``source`` imports ``barbu_sim`` absolutely."""
    for node in ast.walk(ast.parse(source.read_text())):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
        if any(n.split(".")[0] == "barbu_sim" for n in names):
            return True
    return False


def engine_module(root: Path, package: str, game: str = "barbu") -> str:
    """The name of the module holding the game's entry (``play_batch``, ``play_rounds``) in ``root/package``,
    in the layout of any revision."""
    for name in (ENGINE_MODULES if game == "barbu" else ("clabber.api",)):
        if (root / package / (name.replace(".", "/") + ".py")).is_file():
            return f"{package}.{name}"
    sys.exit(f"no engine module of {game} found in {root / package}")


def time_barbu(base, work, args) -> dict:
    """Alternate timed ``play_batch`` calls of the two versions per contract; print and return the rates."""
    from barbu_sim.barbu.rules.choices import standard_param
    contracts = [int(c) for c in args.contracts.split(",")]
    strategies = args.seats.split("/") if args.seats else args.strategy
    print(f"{args.seats or args.strategy}, {args.threads} thread(s), {args.deals:,} deals per call, "
          f"base = {args.rev}, work = working tree", flush=True)
    rows = []
    for c in contracts:
        cfg = [(c, standard_param(c), 0)]
        for m in (base, work):
            m.play_batch(1, 0, 2000, cfg, strategies)  # compile or load, outside the timing
        times = {base: [], work: []}
        for r in range(args.repeats):
            for m in ((base, work) if r % 2 == 0 else (work, base)):
                start = time.perf_counter()
                m.play_batch(7 + r, 0, args.deals, cfg, strategies)
                times[m].append(time.perf_counter() - start)
        ratios = [b / w for b, w in zip(times[base], times[work])]
        rows.append({"contract": c, "base": args.deals / min(times[base]), "work": args.deals / min(times[work]),
                     "ratio": statistics.median(ratios)})
        print(f"contract {c}: base {rows[-1]['base']:>12,.0f}/s  work {rows[-1]['work']:>12,.0f}/s  "
              f"work/base {rows[-1]['ratio']:.3f} (median of {len(ratios)} pairs)", flush=True)
    mean = statistics.geometric_mean(r["ratio"] for r in rows)
    print(f"geometric mean of the ratios: {mean:.3f}")
    return {"rev": args.rev, "strategy": args.seats or args.strategy, "deals_per_call": args.deals,
            "repeats": args.repeats, "threads": args.threads, "rows": rows, "geometric_mean": mean}


def time_clabber(base, work, args) -> dict:
    """Alternate timed ``play_rounds`` calls of the two versions per case; print and return the rates."""
    import numpy as np
    print(f"{'one thread' if args.threads == 1 else f'{args.threads} threads'}, {args.deals:,} rounds per call, "
          f"base = {args.rev}, work = working tree", flush=True)
    rows = []
    for strategy, bidding in CLABBER_CASES:
        out = {m: np.zeros((args.deals, len(m.ROUND_COLUMNS)), np.int16) for m in (base, work)}
        for m in (base, work):
            m.play_rounds(1, 0, 2000, bidding=bidding, strategies=strategy)  # compile or load, untimed
        rates = {base: [], work: []}
        for r in range(args.repeats):
            for m in ((base, work) if r % 2 == 0 else (work, base)):
                start = time.perf_counter()
                m.play_rounds(1 + r, 0, args.deals, bidding=bidding, strategies=strategy, chunk=4096,
                              out=out[m], threads=args.threads)
                rates[m].append(args.deals / (time.perf_counter() - start))
        ratio = statistics.median(w / b for b, w in zip(rates[base], rates[work]))
        same = bool(np.array_equal(out[base], out[work]))  # the last pair played the same seed
        rows.append({"strategy": strategy, "bidding": bidding, "base": statistics.median(rates[base]),
                     "work": statistics.median(rates[work]), "ratio": ratio, "same_records": same})
        print(f"{strategy:>9} / {bidding:<12}  base {rows[-1]['base']:>10,.0f}/s  work {rows[-1]['work']:>10,.0f}/s"
              f"  work/base {ratio:.3f} (median of {args.repeats} pairs)  same records: {same}", flush=True)
    return {"rev": args.rev, "rounds_per_call": args.deals, "repeats": args.repeats, "threads": args.threads,
            "rows": rows}


def compare(args) -> int:
    """The child's work: both versions loaded (the revision's from ``args.base_dir``, on PYTHONPATH), timed."""
    import numba
    base_name = engine_module(Path(args.base_dir), BASE, args.game)
    work_name = "barbu_sim.barbu.api" if args.game == "barbu" else "barbu_sim.clabber.api"
    base, work = importlib.import_module(base_name), importlib.import_module(work_name)
    if not Path(base.__file__).resolve().is_relative_to(Path(args.base_dir).resolve()):
        sys.exit(f"{base_name} was not loaded from the extracted revision ({base.__file__})")
    if args.dry_run:
        print(f"base: {base_name} of {args.rev} from {base.__file__}\nwork: {work_name} from {work.__file__}")
        return 0
    numba.set_num_threads(args.threads)
    data = (time_barbu if args.game == "barbu" else time_clabber)(base, work, args)
    if args.out:
        write_json(args.out, data)
    return 0


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", choices=("barbu", "clabber"), default="barbu",
                    help="the engine to compare (default barbu)")
    ap.add_argument("--rev", default="HEAD", help="git revision to compare against (default HEAD)")
    ap.add_argument("--strategy", default="random", help="strategy at every seat (Barbu; default random)")
    ap.add_argument("--seats", default=None, metavar="A/B/C/D",
                    help="one strategy per seat N/E/S/W, instead of --strategy at every seat (Barbu)")
    ap.add_argument("--contracts", default="0,1,2,3,4,5,6", help="contract ids, comma-separated (Barbu)")
    ap.add_argument("--threads", type=int, default=1, help="threads per call (default 1)")
    ap.add_argument("--deals", "--rounds", dest="deals", type=int, default=None,
                    help="deals (Clabber: rounds) per timed call (default 200,000; Clabber 300,000)")
    ap.add_argument("--repeats", type=int, default=None, help="timed pairs per contract or case (default 7; Clabber 9)")
    ap.add_argument("--out", default=None,
                    help="the figures as JSON (default: none for Barbu, results/clabber/ab.json for Clabber)")
    ap.add_argument("--dry-run", action="store_true",
                    help="extract the revision and load both versions in the child, time nothing")
    ap.add_argument("--base-dir", help=argparse.SUPPRESS)  # the child's: where the revision was extracted
    add_force(ap)
    args = ap.parse_args(argv)
    for key, value in DEFAULTS[args.game].items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.seats and len(args.seats.split("/")) != 4:
        ap.error(f"--seats takes four strategies, N/E/S/W, not {args.seats!r}")
    if args.base_dir:
        return compare(args)
    if args.out and not args.dry_run:
        refuse_existing(args.out, args.force)
    with tempfile.TemporaryDirectory() as tmp:
        extract_revision(args.rev, Path(tmp))
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (tmp, os.environ.get("PYTHONPATH")) if p)}
        try:
            return subprocess.run([sys.executable, __file__, *argv, "--base-dir", tmp], env=env).returncode
        except KeyboardInterrupt:
            return 130


if __name__ == "__main__":
    sys.exit(main())
