"""Paired speed comparison of the engine at a git revision against the working tree.

On a shared machine a core's speed drifts by tens of percent between runs, so two
benchmark runs a minute apart cannot tell a 5% change from noise.  This script
loads both versions into one process (the revision's package is extracted under
another name; the package imports itself relatively, so it runs unchanged) and
alternates timed calls of the two, so each pair sees the same machine state.
It prints, per contract, the best rate of each and the median of the paired
ratios (work / base): above 1 means the working tree is faster.

    python scripts/ab_compare.py                         # HEAD against the working tree, random play
    python scripts/ab_compare.py --rev HEAD~3 --strategy heuristic --contracts 0,6 --repeats 9

The revision's kernels compile once into a temporary numba cache (about a minute).
"""

from __future__ import annotations

import argparse
import importlib
import io
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def extract_revision(rev: str, into: Path) -> None:
    """Write ``barbu_sim/`` as of ``rev`` to ``into/barbu_base``."""
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev, "barbu_sim"],
                                 capture_output=True, check=True).stdout
    except subprocess.CalledProcessError as e:
        sys.exit(f"cannot read revision {rev!r}: {e.stderr.decode().strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # our own archive either way
        tar.extractall(into, **safe)
    (into / "barbu_sim").rename(into / "barbu_base")


ENGINE_MODULES = ("barbu.api", "engine")  # where play_batch lives: today's layout, then the flat one before it


def engine_module(root: Path, package: str) -> str:
    """The name of the module holding ``play_batch`` in ``root/package``, in the layout of any revision."""
    for name in ENGINE_MODULES:
        if (root / package / (name.replace(".", "/") + ".py")).is_file():
            return f"{package}.{name}"
    sys.exit(f"no engine module ({', '.join(ENGINE_MODULES)}) found in {root / package}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", default="HEAD", help="git revision to compare against (default HEAD)")
    ap.add_argument("--strategy", default="random", help="strategy at every seat (default random)")
    ap.add_argument("--contracts", default="0,1,2,3,4,5,6", help="contract ids, comma-separated")
    ap.add_argument("--threads", type=int, default=1, help="threads per call (default 1)")
    ap.add_argument("--deals", type=int, default=200_000, help="deals per timed call (default 200,000)")
    ap.add_argument("--repeats", type=int, default=7, help="timed pairs per contract (default 7)")
    args = ap.parse_args(argv)
    contracts = [int(c) for c in args.contracts.split(",")]

    with tempfile.TemporaryDirectory() as tmp:
        extract_revision(args.rev, Path(tmp))
        sys.path.insert(0, tmp)
        import numba

        from barbu_sim.barbu import api as work
        from barbu_sim.barbu.rules.choices import standard_param
        base = importlib.import_module(engine_module(Path(tmp), "barbu_base"))

        numba.set_num_threads(args.threads)
        print(f"{args.strategy}, {args.threads} thread(s), {args.deals:,} deals per call, "
              f"base = {args.rev}, work = working tree")
        ratios_all = []
        for c in contracts:
            cfg = [(c, standard_param(c), 0)]
            for m in (base, work):
                m.play_batch(1, 0, 2000, cfg, args.strategy)  # compile or load, outside the timing
            times = {base: [], work: []}
            for r in range(args.repeats):
                for m in ((base, work) if r % 2 == 0 else (work, base)):
                    start = time.perf_counter()
                    m.play_batch(7 + r, 0, args.deals, cfg, args.strategy)
                    times[m].append(time.perf_counter() - start)
            ratios = [b / w for b, w in zip(times[base], times[work])]
            ratios_all.append(statistics.median(ratios))
            print(f"contract {c}: base {args.deals / min(times[base]):>12,.0f}/s  "
                  f"work {args.deals / min(times[work]):>12,.0f}/s  "
                  f"work/base {statistics.median(ratios):.3f} (median of {len(ratios)} pairs)")
        print(f"geometric mean of the ratios: {statistics.geometric_mean(ratios_all):.3f}")


if __name__ == "__main__":
    main()
