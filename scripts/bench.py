"""Benchmark: deals per second per contract, for `random`, `heuristic` and `learned`, 1 thread and all cores;
with `--game clabber`, Clabber's rounds per second.

Barbu: rates are measured after compilation (compile and cache-load times are reported
separately, from fresh processes), as the median of several repeats that
alternate one thread and all threads, so the scaling is a paired ratio.  The
pure-Python reference engine (barbu_sim/barbu/engine/reference.py) is timed on a few deals per
contract for the ratio.  The learned player, about 13 times slower than `heuristic`, is timed
on a twentieth of `--deals` per call.  Writes results/bench.json and prints a Markdown table.

Clabber (`--game clabber`): rounds per second, `random` and `heuristic` play with `accept-first`
bidding (every round is played) and `heuristic` with `threshold`, one thread and all threads, the
calls alternating, so the scaling is the median of paired ratios.  Each pair of calls is followed
by a pair of calls of a pure integer loop (`integer_work` below), so every row also gives the
machine's own two-thread ceiling at the same moments and the kernel's scaling relative to it.
Writes results/clabber/bench.json and prints a Markdown table.

The Monte-Carlo player has its own benchmark, scripts/mc_bench.py.

    python scripts/bench.py --force         # the full benchmark (a few minutes)
    python scripts/bench.py --deals 20000 --repeats 1 --reference-deals 5 --out /tmp/b.json
    python scripts/bench.py --game clabber --force                # about two minutes
    python scripts/bench.py --game clabber --rounds 20000 --repeats 1 --out /tmp/cb.json
    python scripts/bench.py --game clabber --strategies learned --rounds 200000 --repeats 5 \
        --out results/clabber/bench-learned.json --force
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
from numba import njit, prange

from barbu_sim import __version__
from barbu_sim.barbu.api import play_batch
from barbu_sim.barbu.engine import reference
from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.players.registry import BUILTINS
from barbu_sim.barbu.rules import CONTRACTS, Rules
from barbu_sim.barbu.rules.choices import standard_param
from barbu_sim.core.cards import cards_of
from barbu_sim.core.outputs import add_force, refuse_existing, write_json

ROOT = Path(__file__).resolve().parent.parent
STRATEGIES = ("random", "heuristic", "learned")
SLOWER = {"learned": 20}  # timed on --deals / this many deals per call
CLABBER_CASES = (("random", "accept-first"), ("heuristic", "accept-first"), ("heuristic", "threshold"))


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
    """Deals/s of the pure-Python reference engine on ``n`` deals of ``contract``."""
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
    ap.add_argument("--deals", "--rounds", dest="deals", type=int, default=1_000_000,
                    help="deals (Clabber: rounds) per timed call (default 1,000,000)")
    ap.add_argument("--repeats", type=int, default=None,
                    help="timed calls per cell and thread count, alternating; medians are kept (default 5; "
                         "Clabber 11)")
    ap.add_argument("--reference-deals", type=int, default=200,
                    help="deals per contract for the Python reference (Barbu only)")
    ap.add_argument("--out", default=None,
                    help="where the figures go (default results/bench.json; results/clabber/bench.json for Clabber)")
    ap.add_argument("--game", choices=("barbu", "clabber"), default="barbu",
                    help="the game to time: barbu (deals/s per contract) or clabber (rounds/s)")
    ap.add_argument("--skip-compile", action="store_true",
                    help="do not time compilation in fresh processes (Barbu only)")
    ap.add_argument("--strategies", default=None,
                    help=f"the players to time, comma-separated (default {','.join(STRATEGIES)}; Clabber: the "
                         "given strategies at all four seats with accept-first bidding, default random and heuristic "
                         "with accept-first and heuristic with threshold)")
    add_force(ap)
    args = ap.parse_args(argv)
    if args.repeats is not None and args.repeats < 1:
        ap.error("--repeats must be at least 1")
    if args.game == "clabber":
        return clabber_main(args, sys.argv[1:] if argv is None else argv)
    args.out = args.out or str(ROOT / "results" / "bench.json")
    refuse_existing(args.out, args.force)
    args.repeats = args.repeats or 5

    all_threads = numba.config.NUMBA_NUM_THREADS
    compile_s = cached_s = None
    if not args.skip_compile:
        with tempfile.TemporaryDirectory() as d:
            compile_s = first_call_seconds(d)  # empty cache: everything compiles
            cached_s = first_call_seconds(d)  # the same cache again: kernels load from disk
    strategies = [s.strip() for s in (args.strategies or ",".join(STRATEGIES)).split(",") if s.strip()]
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


# --- Clabber ---------------------------------------------------------------------------------------------------------

@njit(inline="always")
def _xorshift(x):
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    return x ^ (x << np.uint64(17))


@njit(parallel=True, cache=True)
def integer_work(steps: int, out: np.ndarray) -> None:
    """The machine's own two-thread ceiling: four independent xorshift chains per item of ``out`` (many
    instructions per cycle, no memory traffic, nothing shared), like a card kernel's bit operations without
    its loads.  A kernel that shares nothing between threads should scale like this loop; on a virtual
    machine it often does not reach 2x (the host may slow a core when both are busy, or place the two
    virtual cores on one physical core), and timing the loop in the same alternation as a kernel tells the
    two apart: a kernel that scales like the loop has no shared bottleneck of its own."""
    for t in prange(out.size):
        a, b, c, d = np.uint64(t + 1), np.uint64(t + 7), np.uint64(t + 13), np.uint64(t + 99)
        s = np.uint64(0)
        for _ in range(steps):
            a, b, c, d = _xorshift(a), _xorshift(b), _xorshift(c), _xorshift(d)
            s += (a ^ b ^ c ^ d) & np.uint64(255)
        out[t] = s


def ceiling_call(seconds: float = 0.3):
    """A no-argument callable that runs about ``seconds`` of :func:`integer_work` on one thread (64 items, so
    any thread count up to 64 splits it evenly)."""
    out = np.zeros(64, np.uint64)
    integer_work(10, out)  # compile
    steps = 200_000
    start = time.perf_counter()
    integer_work(steps, out)
    per_step = (time.perf_counter() - start) / steps
    steps = max(1000, int(seconds / per_step))
    return lambda: integer_work(steps, out)


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def clabber_rates(strategy: str, bidding: str, n: int, repeats: int, threads: int, ceiling) -> dict:
    """Median rounds/s on 1 thread and on ``threads``, the median paired ratio, and the integer loop's
    (``ceiling``) median paired ratio taken between the same calls."""
    from barbu_sim.clabber.api import play_rounds
    from barbu_sim.clabber.rules import N_ROUND_COLUMNS
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
            (ref_one if t == 1 else ref_many).append(1 / timed(ceiling))
    scaling = [b / a for a, b in zip(one, many)]
    loop = [b / a for a, b in zip(ref_one, ref_many)]
    return {"one_thread": statistics.median(one), "all_threads": statistics.median(many), "threads": threads,
            "scaling": statistics.median(scaling), "reference_scaling": statistics.median(loop),
            "relative_scaling": statistics.median(s / c for s, c in zip(scaling, loop))}


def clabber_main(args, argv: list[str]) -> dict:
    """The Clabber benchmark of ``args`` (``argv``: the arguments given, recorded in the file)."""
    args.out = args.out or str(ROOT / "results" / "clabber" / "bench.json")
    refuse_existing(args.out, args.force)
    repeats = args.repeats or 11
    cases = CLABBER_CASES if args.strategies is None else \
        tuple((s.strip(), "accept-first") for s in args.strategies.split(",") if s.strip())
    threads = numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(1)
    ceiling = ceiling_call()
    rows = [{"strategy": strategy, "bidding": bidding, **clabber_rates(strategy, bidding, args.deals, repeats,
                                                                       threads, ceiling)}
            for strategy, bidding in cases]
    data = {"package_version": __version__, "numba": numba.__version__, "machine": platform.processor() or
            platform.machine(), "cpu_count": threads, "rounds_per_call": args.deals, "repeats": repeats,
            "rows": rows, "command": " ".join(["python scripts/bench.py", *argv])}
    write_json(args.out, data)
    print(f"| strategy | bidding | rounds/s, 1 thread | rounds/s, {threads} threads | scaling | "
          "integer loop's scaling | relative |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['strategy']} | {r['bidding']} | {r['one_thread']:,.0f} | {r['all_threads']:,.0f} | "
              f"{r['scaling']:.2f}x | {r['reference_scaling']:.2f}x | {r['relative_scaling']:.2f} |")
    return data


if __name__ == "__main__":
    main()
