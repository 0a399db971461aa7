"""Clabber benchmark: rounds per second, `random` and `heuristic` play, one thread and all threads.

Each rate is the median of several timed calls after a warm-up; the calls alternate one thread
and all threads, so the scaling is the median of paired ratios (the machines are shared and a
core's speed drifts).  Bidding is `accept-first` (every round is played); `threshold` is timed
too.  Writes a JSON file and prints a Markdown table.

    python scripts/clabber_bench.py                       # about a minute
    python scripts/clabber_bench.py --rounds 20000 --repeats 1 --out /tmp/cb.json
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from barbu_sim import __version__  # noqa: E402
from barbu_sim.clabber.api import play_rounds  # noqa: E402
from barbu_sim.clabber.rules import N_ROUND_COLUMNS  # noqa: E402

CASES = (("random", "accept-first"), ("heuristic", "accept-first"), ("heuristic", "threshold"))


def rates(strategy: str, bidding: str, n: int, repeats: int, threads: int) -> tuple[float, float, float]:
    """Median rounds/s on 1 thread and on ``threads``, and the median paired ratio."""
    for t in (1, threads):
        numba.set_num_threads(t)
        play_rounds(1, 0, 5000, bidding=bidding, strategies=strategy)
    one, many = [], []
    out = np.empty((n, N_ROUND_COLUMNS), np.int16)  # reused: fresh memory would time the OS's page faults
    out.fill(0)
    for r in range(repeats):
        for t in ((1, threads) if r % 2 == 0 else (threads, 1)):
            numba.set_num_threads(t)
            start = time.perf_counter()
            play_rounds(1 + r, 0, n, bidding=bidding, strategies=strategy, chunk=4096, out=out)
            (one if t == 1 else many).append(n / (time.perf_counter() - start))
    return statistics.median(one), statistics.median(many), statistics.median(b / a for a, b in zip(one, many))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2_000_000, help="rounds per timed call")
    parser.add_argument("--repeats", type=int, default=5, help="timed calls per thread count")
    parser.add_argument("--out", default=str(ROOT / "results" / "clabber" / "bench.json"))
    args = parser.parse_args(argv)
    threads = numba.config.NUMBA_NUM_THREADS
    rows = []
    for strategy, bidding in CASES:
        one, many, scaling = rates(strategy, bidding, args.rounds, args.repeats, threads)
        rows.append({"strategy": strategy, "bidding": bidding, "one_thread": one, "all_threads": many,
                     "threads": threads, "scaling": scaling})
    data = {"package_version": __version__, "numba": numba.__version__, "machine": platform.processor() or
            platform.machine(), "cpu_count": threads, "rounds_per_call": args.rounds, "repeats": args.repeats,
            "rows": rows}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(data, indent=2) + "\n")
    print(f"| strategy | bidding | rounds/s, 1 thread | rounds/s, {threads} threads | scaling |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['strategy']} | {r['bidding']} | {r['one_thread']:,.0f} | {r['all_threads']:,.0f} | "
              f"{r['scaling']:.2f}x |")


if __name__ == "__main__":
    main()
