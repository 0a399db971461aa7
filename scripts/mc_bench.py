"""Benchmark of the Monte-Carlo player: deals per second per contract, one thread.

Two settings, each over the seven contracts (declarer North; Trumps with the
longest suit, Domino from 7): one ``mc`` seat (East) among three ``heuristic``
players, as in the strength ladder, and ``mc`` at all four seats, as in the
strong-play tables.  Each rate is the median of ``--repeats`` timed calls after
a warm-up.  Writes results/mc_bench.json and prints a Markdown table.

    python scripts/mc_bench.py                          # mc:samples=64, a few minutes
    python scripts/mc_bench.py --strategy mc:samples=200,rollout=basic --deals 10 --repeats 1 --out /tmp/m.json
    python scripts/bench.py --mc                        # the same, from the main benchmark command
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path

import numba
import numpy as np

from barbu_sim import __version__
from barbu_sim.barbu.api import play_batch
from barbu_sim.barbu.choices import standard_param
from barbu_sim.barbu.rules import CONTRACTS

ROOT = Path(__file__).resolve().parent.parent


def rate(contract: int, seats: list[str], n: int, repeats: int, seed: int) -> float:
    """Median deals/s of ``play_batch`` on one thread (new deals for every call)."""
    config = [(contract, standard_param(contract), 0)]
    play_batch(seed, 0, 1, config, seats)  # warm-up: loads the kernels
    times = []
    for r in range(repeats):
        t = time.perf_counter()
        play_batch(seed, 1 + r * n, n, config, seats)
        times.append(time.perf_counter() - t)
    return n / statistics.median(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--strategy", default="mc:samples=64", help="the mc strategy to time (default mc:samples=64)")
    ap.add_argument("--deals", type=int, default=40, help="deals per timed call with one mc seat (default 40)")
    ap.add_argument("--repeats", type=int, default=3, help="timed calls per cell; the median is kept (default 3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(ROOT / "results" / "mc_bench.json"))
    args = ap.parse_args(argv)
    numba.set_num_threads(1)
    settings = {"one_seat": ["heuristic", args.strategy, "heuristic", "heuristic"], "all_seats": [args.strategy] * 4}
    rows = []
    for c in range(7):
        row = {"contract": CONTRACTS[c]}
        for name, seats in settings.items():
            n = args.deals if name == "one_seat" else max(1, args.deals // 4)
            row[name] = rate(c, seats, n, args.repeats, args.seed)
        rows.append(row)
        print(f"{CONTRACTS[c]:<12} one mc seat {row['one_seat']:>8.1f} deals/s   four mc seats "
              f"{row['all_seats']:>8.1f} deals/s", flush=True)
    result = {
        "package_version": __version__, "numba": numba.__version__, "python": platform.python_version(),
        "machine": platform.machine(), "strategy": args.strategy, "threads": 1, "deals_per_call": args.deals,
        "repeats": args.repeats, "rows": rows,
        "mean_one_seat": float(np.mean([r["one_seat"] for r in rows])),
        "mean_all_seats": float(np.mean([r["all_seats"] for r in rows])),
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print()
    print(markdown_table(result))
    return result


def markdown_table(result: dict) -> str:
    """The figures as a Markdown table (deals/s on one thread)."""
    lines = [f"| contract | one `{result['strategy']}` seat, deals/s | four `{result['strategy']}` seats, deals/s |",
             "|---|---:|---:|"]
    for r in result["rows"]:
        lines.append(f"| {r['contract']} | {r['one_seat']:,.1f} | {r['all_seats']:,.1f} |")
    lines.append(f"| **mean** | **{result['mean_one_seat']:,.1f}** | **{result['mean_all_seats']:,.1f}** |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
