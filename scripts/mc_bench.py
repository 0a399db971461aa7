r"""Benchmark of the Monte-Carlo player: deals per second per contract, one thread, next to a baseline.

Two settings, each over the seven contracts (declarer North; Trumps with the
longest suit, Domino from 7): one ``mc`` seat (East) among three ``heuristic``
players, as in the strength ladder, and ``mc`` at all four seats, as in the
strong-play tables.  The same is timed for ``--vs`` (default ``pimc``, the player
without exact endgames, halving or inference), its calls alternating with the
player's so that both see the same machine.  Each rate is the median of
``--repeats`` timed calls after a warm-up.  Writes results/mc_bench.json and
prints a Markdown table.

    python scripts/mc_bench.py --force                  # mc against pimc, 64 layouts each, a few minutes
    python scripts/mc_bench.py --strategy mc:samples=200,rollout=basic --vs pimc:samples=200 --deals 10 \
        --repeats 1 --out /tmp/m.json
    python scripts/mc_bench.py --strategy mc:early=2 --vs mc --deals 400 --repeats 5 \
        --out results/mc_bench_early.json --force
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from pathlib import Path

import numba
import numpy as np

from barbu_sim import __version__
from barbu_sim.barbu.api import play_batch
from barbu_sim.barbu.rules import CONTRACTS
from barbu_sim.barbu.rules.choices import standard_param
from barbu_sim.core.outputs import add_force, refuse_existing, write_json

ROOT = Path(__file__).resolve().parent.parent


def rates(contract: int, line_ups: list[list[str]], n: int, repeats: int, seed: int) -> list[float]:
    """Median deals/s of ``play_batch`` on one thread for each line-up, their calls alternating
    (new deals for every call, the same deals for every line-up)."""
    config = [(contract, standard_param(contract), 0)]
    for seats in line_ups:
        play_batch(seed, 0, 1, config, seats)  # warm-up: loads the kernels
    times = [[] for _ in line_ups]
    for r in range(repeats):
        for i, seats in enumerate(line_ups):
            t = time.perf_counter()
            play_batch(seed, 1 + r * n, n, config, seats)
            times[i].append(time.perf_counter() - t)
    return [n / statistics.median(ts) for ts in times]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--strategy", default="mc", help="the mc strategy to time (default mc: 64 layouts)")
    ap.add_argument("--vs", default="pimc", help="the baseline timed beside it (default pimc: 64 layouts)")
    ap.add_argument("--deals", type=int, default=40, help="deals per timed call with one mc seat (default 40)")
    ap.add_argument("--repeats", type=int, default=3, help="timed calls per cell; the median is kept (default 3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(ROOT / "results" / "mc_bench.json"))
    add_force(ap)
    args = ap.parse_args(argv)
    refuse_existing(args.out, args.force)
    numba.set_num_threads(1)
    def one_seat(name):
        return ["heuristic", name, "heuristic", "heuristic"]

    rows = []
    for c in range(7):
        row = {"contract": CONTRACTS[c]}
        row["one_seat"], row["vs_one_seat"] = rates(c, [one_seat(args.strategy), one_seat(args.vs)], args.deals,
                                                    args.repeats, args.seed)
        row["all_seats"], row["vs_all_seats"] = rates(c, [[args.strategy] * 4, [args.vs] * 4],
                                                      max(1, args.deals // 4), args.repeats, args.seed)
        rows.append(row)
        print(f"{CONTRACTS[c]:<12} one seat {row['one_seat']:>8.1f} deals/s ({args.vs} {row['vs_one_seat']:.1f})   "
              f"four seats {row['all_seats']:>8.1f} deals/s ({args.vs} {row['vs_all_seats']:.1f})", flush=True)
    result = {
        "package_version": __version__, "numba": numba.__version__, "python": platform.python_version(),
        "machine": platform.machine(), "strategy": args.strategy, "vs": args.vs, "threads": 1,
        "deals_per_call": args.deals, "repeats": args.repeats, "rows": rows,
        "mean_one_seat": float(np.mean([r["one_seat"] for r in rows])),
        "mean_all_seats": float(np.mean([r["all_seats"] for r in rows])),
        "vs_mean_one_seat": float(np.mean([r["vs_one_seat"] for r in rows])),
        "vs_mean_all_seats": float(np.mean([r["vs_all_seats"] for r in rows])),
    }
    write_json(args.out, result)
    print()
    print(markdown_table(result))
    return result


def markdown_table(result: dict) -> str:
    """The figures as a Markdown table (deals/s on one thread), the baseline beside them."""
    a, b = result["strategy"], result["vs"]
    lines = [f"| contract | one `{a}` seat | one `{b}` seat | ratio | four `{a}` seats | four `{b}` seats | ratio |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in result["rows"]:
        lines.append(f"| {r['contract']} | {r['one_seat']:,.1f} | {r['vs_one_seat']:,.1f} | "
                     f"{r['one_seat'] / r['vs_one_seat']:.2f} | {r['all_seats']:,.1f} | {r['vs_all_seats']:,.1f} | "
                     f"{r['all_seats'] / r['vs_all_seats']:.2f} |")
    lines.append(f"| **mean** | **{result['mean_one_seat']:,.1f}** | **{result['vs_mean_one_seat']:,.1f}** | "
                 f"**{result['mean_one_seat'] / result['vs_mean_one_seat']:.2f}** | "
                 f"**{result['mean_all_seats']:,.1f}** | **{result['vs_mean_all_seats']:,.1f}** | "
                 f"**{result['mean_all_seats'] / result['vs_mean_all_seats']:.2f}** |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
