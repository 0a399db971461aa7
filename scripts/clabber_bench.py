"""Clabber benchmark: rounds per second, `random` and `heuristic` play, one thread and all threads.

Each rate is the median of several timed calls after a warm-up; the calls alternate one thread
and all threads, so the scaling is the median of paired ratios (the machines are shared and a
core's speed drifts).  Bidding is `accept-first` (every round is played); `threshold` is timed
too.  Each pair of calls is followed by a pair of calls of a pure integer loop
(`scripts/scaling_reference.py`), so every row also gives the machine's own two-thread ceiling at
the same moments and the kernel's scaling relative to it.  Writes a JSON file and prints a
Markdown table.

    python scripts/clabber_bench.py --force               # about two minutes
    python scripts/clabber_bench.py --rounds 20000 --repeats 1 --out /tmp/cb.json
    python scripts/clabber_bench.py --strategies learned --rounds 200000 --repeats 5 \
        --out results/clabber/bench-learned.json --force
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from barbu_sim import __version__  # noqa: E402
from barbu_sim.clabber.api import play_rounds  # noqa: E402
from barbu_sim.clabber.rules import N_ROUND_COLUMNS  # noqa: E402
from scaling_reference import reference_call  # noqa: E402
from barbu_sim.core.outputs import add_force, refuse_existing, write_json  # noqa: E402

CASES = (("random", "accept-first"), ("heuristic", "accept-first"), ("heuristic", "threshold"))


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def rates(strategy: str, bidding: str, n: int, repeats: int, threads: int, reference) -> dict:
    """Median rounds/s on 1 thread and on ``threads``, the median paired ratio, and the reference
    loop's median paired ratio taken between the same calls."""
    for t in (1, threads):
        numba.set_num_threads(t)
        play_rounds(1, 0, 5000, bidding=bidding, strategies=strategy)
    one, many, ref_one, ref_many = [], [], [], []
    out = np.empty((n, N_ROUND_COLUMNS), np.int16)  # reused: fresh memory would time the OS's page faults
    out.fill(0)
    for r in range(repeats):
        for t in ((1, threads) if r % 2 == 0 else (threads, 1)):
            numba.set_num_threads(t)
            seconds = timed(lambda: play_rounds(1 + r, 0, n, bidding=bidding, strategies=strategy, chunk=4096,
                                                out=out))
            (one if t == 1 else many).append(n / seconds)
            (ref_one if t == 1 else ref_many).append(1 / timed(reference))
    scaling = [b / a for a, b in zip(one, many)]
    ceiling = [b / a for a, b in zip(ref_one, ref_many)]
    return {"one_thread": statistics.median(one), "all_threads": statistics.median(many), "threads": threads,
            "scaling": statistics.median(scaling), "reference_scaling": statistics.median(ceiling),
            "relative_scaling": statistics.median(s / c for s, c in zip(scaling, ceiling))}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1_000_000, help="rounds per timed call")
    parser.add_argument("--repeats", type=int, default=11, help="timed calls per thread count")
    parser.add_argument("--strategies", default=None,
                        help="comma-separated strategies to time at all four seats, with accept-first bidding "
                             "(default: random and heuristic with accept-first, heuristic with threshold)")
    parser.add_argument("--out", default=str(ROOT / "results" / "clabber" / "bench.json"))
    add_force(parser)
    args = parser.parse_args(argv)
    refuse_existing(args.out, args.force)
    cases = CASES if args.strategies is None else \
        tuple((s.strip(), "accept-first") for s in args.strategies.split(",") if s.strip())
    threads = numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(1)
    reference = reference_call()
    rows = [{"strategy": strategy, "bidding": bidding, **rates(strategy, bidding, args.rounds, args.repeats, threads,
                                                               reference)} for strategy, bidding in cases]
    data = {"package_version": __version__, "numba": numba.__version__, "machine": platform.processor() or
            platform.machine(), "cpu_count": threads, "rounds_per_call": args.rounds, "repeats": args.repeats,
            "rows": rows, "command": " ".join(["python scripts/clabber_bench.py",
                                                *(sys.argv[1:] if argv is None else argv)])}
    write_json(args.out, data)
    print(f"| strategy | bidding | rounds/s, 1 thread | rounds/s, {threads} threads | scaling | "
          "integer loop's scaling | relative |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['strategy']} | {r['bidding']} | {r['one_thread']:,.0f} | {r['all_threads']:,.0f} | "
              f"{r['scaling']:.2f}x | {r['reference_scaling']:.2f}x | {r['relative_scaling']:.2f} |")


if __name__ == "__main__":
    main()
