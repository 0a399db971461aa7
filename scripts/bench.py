"""Benchmark: deals per second per contract, for `random`, `heuristic` and `learned`, 1 thread and all cores.

Rates are measured after compilation (compile and cache-load times are reported
separately, from fresh processes), as the median of several repeats that
alternate one thread and all threads, so the scaling is a paired ratio.  The
pure-Python reference engine (tests/reference.py) is timed on a few deals per
contract for the ratio.  The learned player, about 13 times slower than `heuristic`, is timed
on a twentieth of `--deals` per call.  Writes results/bench.json and prints a Markdown table.

    python scripts/bench.py --force         # the full benchmark (a few minutes)
    python scripts/bench.py --deals 20000 --repeats 1 --reference-deals 5 --out /tmp/b.json
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))

from barbu_sim import __version__  # noqa: E402
from barbu_sim.barbu.api import play_batch  # noqa: E402
from barbu_sim.barbu.rules.choices import standard_param  # noqa: E402
from barbu_sim.barbu.engine.deals import random_deal  # noqa: E402
from barbu_sim.barbu.rules import CONTRACTS, Rules  # noqa: E402
from barbu_sim.barbu.players.registry import BUILTINS  # noqa: E402
from barbu_sim.core.cards import cards_of  # noqa: E402
from barbu_sim.core.outputs import add_force, refuse_existing, write_json  # noqa: E402

STRATEGIES = ("random", "heuristic", "learned")
SLOWER = {"learned": 20}  # timed on --deals / this many deals per call


def rates(contract: int, strategy: str, n: int, repeats: int, threads: int) -> tuple[float, float, float]:
    """Deals/s of ``play_batch`` on 1 thread and on ``threads``, and the scaling, after a warm-up.

    The timed calls alternate between the two thread counts, so that both rates
    and each paired ratio come from the same spells of machine load (the
    benchmark machines are shared, and a core's speed drifts by tens of percent).
    Returns the median 1-thread rate, the median all-thread rate and the median
    of the paired ratios.
    """
    cfg = [(contract, standard_param(contract), 0)]
    for t in (1, threads):
        numba.set_num_threads(t)
        play_batch(1, 0, 2000, cfg, strategy)
    one, many = [], []
    for r in range(repeats):
        for t in ((1, threads) if r % 2 == 0 else (threads, 1)):
            numba.set_num_threads(t)
            start = time.perf_counter()
            play_batch(1 + r, 0, n, cfg, strategy)
            (one if t == 1 else many).append(n / (time.perf_counter() - start))
    scaling = statistics.median(b / a for a, b in zip(one, many))
    return statistics.median(one), statistics.median(many), scaling


def reference_rate(contract: int, strategy: str, n: int) -> float:
    import reference
    func = BUILTINS[strategy].func
    rules = Rules()
    hands = [cards_of(h) for h in random_deal(1, 0)]
    reference.play(hands, contract, standard_param(contract), 0, rules, [func] * 4, 1, 0)  # compile outside the timing
    t = time.perf_counter()
    for i in range(n):
        hands = [cards_of(h) for h in random_deal(1, i)]
        reference.play(hands, contract, standard_param(contract), 0, rules, [func] * 4, 1, i)
    return n / (time.perf_counter() - t)


FIRST_CALL = (
    "import time; t = time.perf_counter(); "
    "from barbu_sim.barbu.api import play_batch; "
    "play_batch(1, 0, 10, [(c, 3, 0) for c in range(7)], 'heuristic'); "
    "print(time.perf_counter() - t)"
)


def first_call_seconds(cache_dir: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1_000_000, help="deals per timed call (default 1,000,000)")
    ap.add_argument("--repeats", type=int, default=None,
                    help="timed calls per cell and thread count, alternating; medians are kept (default 5; "
                         "Clabber 11, the Monte-Carlo player 3)")
    ap.add_argument("--reference-deals", type=int, default=200, help="deals per contract for the Python reference")
    ap.add_argument("--out", default=None,
                    help="where the figures go (default results/bench.json; results/clabber/bench.json for Clabber)")
    ap.add_argument("--game", choices=("barbu", "clabber"), default="barbu",
                    help="the game to time: barbu (deals/s per contract) or clabber "
                         "(rounds/s, scripts/clabber_bench.py)")
    ap.add_argument("--skip-compile", action="store_true", help="do not time compilation in fresh processes")
    ap.add_argument("--strategies", default=",".join(STRATEGIES),
                    help=f"the players to time, comma-separated (default {','.join(STRATEGIES)})")
    ap.add_argument("--mc", action="store_true",
                    help="time the Monte-Carlo player instead (scripts/mc_bench.py, results/mc_bench.json)")
    add_force(ap)
    args = ap.parse_args(argv)
    if args.repeats is not None and args.repeats < 1:
        ap.error("--repeats must be at least 1")
    passed = (["--out", args.out] if args.out else []) + (["--force"] if args.force else [])
    if args.mc:
        import mc_bench
        return mc_bench.main(["--repeats", str(min(args.repeats or 3, 3))] + passed)
    if args.game == "clabber":  # one benchmark command for both games; Clabber's lives in its own script
        import clabber_bench
        repeats = ["--repeats", str(args.repeats)] if args.repeats else []
        return clabber_bench.main(["--rounds", str(args.deals)] + repeats + passed)
    args.out = args.out or str(ROOT / "results" / "bench.json")
    refuse_existing(args.out, args.force)
    args.repeats = args.repeats or 5

    all_threads = numba.config.NUMBA_NUM_THREADS
    compile_s = cached_s = None
    if not args.skip_compile:
        with tempfile.TemporaryDirectory() as d:
            compile_s = first_call_seconds(d)  # empty cache: everything compiles
            cached_s = first_call_seconds(d)  # the same cache again: kernels load from disk
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    unknown = [s for s in strategies if s not in BUILTINS]
    if unknown or not strategies:
        ap.error(f"--strategies takes built-in players ({', '.join(BUILTINS)}), not {', '.join(unknown) or 'nothing'}")
    rows = []
    for strategy in strategies:
        for c in range(7):
            one, many, scaling = rates(c, strategy, max(1, args.deals // SLOWER.get(strategy, 1)), args.repeats,
                                       all_threads)
            ref = reference_rate(c, strategy, args.reference_deals)
            rows.append({"strategy": strategy, "contract": CONTRACTS[c], "one_thread": one,
                         "all_threads": many, "scaling": scaling, "reference": ref, "speedup": one / ref})
            print(f"{strategy:<9} {CONTRACTS[c]:<12} 1 thread {one:>12,.0f}/s  {all_threads} threads "
                  f"{many:>12,.0f}/s  reference {ref:>8,.0f}/s", flush=True)
    numba.set_num_threads(all_threads)
    summary = {}
    for strategy in strategies:
        sel = [r for r in rows if r["strategy"] == strategy]
        summary[strategy] = {
            "mean_one_thread": float(np.mean([r["one_thread"] for r in sel])),
            "mean_all_threads": float(np.mean([r["all_threads"] for r in sel])),
            "mean_scaling": float(np.mean([r["scaling"] for r in sel])),
            "mean_reference": float(np.mean([r["reference"] for r in sel])),
        }
    result = {
        "package_version": __version__, "numba": numba.__version__, "python": platform.python_version(),
        "machine": platform.machine(), "processor": platform.processor(), "threads": all_threads,
        "deals_per_call": args.deals, "repeats": args.repeats, "reference_deals": args.reference_deals,
        "first_call_seconds_compiling": compile_s, "first_call_seconds_cached": cached_s,
        "rows": rows, "summary": summary,
    }
    write_json(args.out, result)
    print()
    print(markdown_table(result))
    return result


def markdown_table(result: dict) -> str:
    """The README table of a bench.json."""
    t = result["threads"]
    lines = [f"| strategy | contract | 1 thread (deals/s) | {t} threads (deals/s) | scaling | pure Python (deals/s) "
             "| speed-up |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for r in result["rows"]:
        lines.append(f"| {r['strategy']} | {r['contract']} | {r['one_thread']:,.0f} | {r['all_threads']:,.0f} | "
                     f"{r['scaling']:.2f}x | {r['reference']:,.0f} | {r['speedup']:,.0f}x |")
    for s, v in result["summary"].items():
        lines.append(f"| **{s}** | **mean of 7** | **{v['mean_one_thread']:,.0f}** | "
                     f"**{v['mean_all_threads']:,.0f}** | **{v['mean_scaling']:.2f}x** | "
                     f"{v['mean_reference']:,.0f} | |")
    if result.get("first_call_seconds_compiling") is not None:
        lines.append("")
        lines.append(f"First call in a fresh process: {result['first_call_seconds_compiling']:.1f} s compiling "
                     f"(empty cache), {result['first_call_seconds_cached']:.1f} s with the on-disk cache.")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
