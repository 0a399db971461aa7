"""The Ray backend against the local one: run throughput, cluster start, worker warm-up, per-task overhead.

Runs the same Barbu run (every contract, seed 1) with ``--backend local`` and
``--backend ray`` (a local Ray instance with every core of this machine),
alternating local and ray runs so that both see the same machine state, and
reports medians.  The records of the two backends are checked to be identical.
Measured:

* ``heuristic``: throughput of runs of ``--deals`` deals (default 1,000,000);
* ``mc`` (``--mc-strategy``, default ``mc``): the same for ``--mc-deals`` deals;
* the cluster's start (``ray.init``) and a cold run (workers importing the package
  and loading the compiled kernels), reported apart from the warm runs;
* the per-task overhead: ``--tasks`` empty tasks one at a time (round trip) and
  pipelined (throughput of the scheduler).

    python scripts/ray_bench.py --force                          # -> results/ray_bench.json
    python scripts/ray_bench.py --deals 2000 --mc-deals 7 --repeats 1 --tasks 20 --out /tmp/rb.json
    python scripts/ray_bench.py --ray-address 10.0.0.5:6379 --out /tmp/rb.json   # a running cluster instead
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from barbu_sim.core.outputs import add_force, refuse_existing, write_json

ROOT = Path(__file__).resolve().parent.parent


def ledger(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())["chunks"]


def timed_run(run_dir: Path, config, backend) -> float:
    """Deals per second of one run, timed around the whole call (chunk writing and checksums included)."""
    from barbu_sim.barbu.runs import run
    shutil.rmtree(run_dir, ignore_errors=True)
    started = time.perf_counter()
    summary = run(run_dir, config, progress=False, backend=backend)
    elapsed = time.perf_counter() - started
    assert summary.complete
    return config.deals / elapsed


def compare(name: str, config, ray_backend, repeats: int, work: Path) -> dict:
    """Alternate local and ray runs ``repeats`` times each; medians, all samples, and the identity check."""
    from barbu_sim.core.backends import LocalBackend
    samples = {"local": [], "ray": []}
    for r in range(repeats):
        order = (("local", LocalBackend()), ("ray", ray_backend))
        for label, backend in order if r % 2 == 0 else order[::-1]:
            rate = timed_run(work / f"{name}-{label}", config, backend)
            samples[label].append(rate)
            print(f"  {name} {label:<5} {rate:>12,.0f} deals/s", flush=True)
    identical = ledger(work / f"{name}-local") == ledger(work / f"{name}-ray")
    local, ray = statistics.median(samples["local"]), statistics.median(samples["ray"])
    return {"deals": config.deals, "chunks": config.n_chunks(), "configurations": len(config.configs()),
            "strategies": config.strategies, "local_deals_per_second": local, "ray_deals_per_second": ray,
            "ray_over_local": ray / local, "samples": samples, "records_identical": identical}


def _nothing(i: int) -> int:
    return i


def task_overhead(backend, tasks: int) -> dict:
    """Seconds per empty task: one at a time (a round trip) and pipelined (the default in-flight bound)."""
    from barbu_sim.core.backends import RayBackend
    one = RayBackend(max_in_flight=1)
    list(one.imap(_nothing, [(i,) for i in range(4)]))  # warm
    started = time.perf_counter()
    assert list(one.imap(_nothing, [(i,) for i in range(tasks)])) == list(range(tasks))
    round_trip = (time.perf_counter() - started) / tasks
    started = time.perf_counter()
    assert list(backend.imap(_nothing, [(i,) for i in range(tasks)])) == list(range(tasks))
    pipelined = (time.perf_counter() - started) / tasks
    return {"tasks": tasks, "round_trip_seconds": round_trip, "pipelined_seconds_per_task": pipelined,
            "in_flight": backend.in_flight()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1_000_000, help="deals per heuristic run")
    ap.add_argument("--mc-deals", type=int, default=570, help="deals per mc run: 2 chunks (0: skip mc)")
    ap.add_argument("--mc-strategy", default="mc", help="the strong strategy measured")
    ap.add_argument("--repeats", type=int, default=3, help="runs per backend (alternated)")
    ap.add_argument("--tasks", type=int, default=300, help="empty tasks for the overhead figures")
    ap.add_argument("--ray-address", default=None, metavar="HOST:PORT",
                    help="join this running Ray cluster (or auto) instead of starting a local instance")
    ap.add_argument("--out", default=str(ROOT / "results" / "ray_bench.json"))
    add_force(ap)
    args = ap.parse_args(argv)
    refuse_existing(args.out, args.force)

    try:
        import ray
    except ImportError:
        print('Error: the Ray benchmark needs Ray: pip install -e ".[ray]"', file=sys.stderr)
        return 2
    import numba

    from barbu_sim.barbu.runs import RunConfig
    from barbu_sim.core.backends import BackendError, RayBackend

    load_before = os.getloadavg()
    started = time.perf_counter()
    backend = RayBackend(args.ray_address)
    try:
        backend.connect()
    except BackendError as e:
        print(f"Error: {e}", file=sys.stderr)
        return 2
    cluster_start = time.perf_counter() - started
    print(f"Ray instance with {backend.cluster_cpus()} CPUs started in {cluster_start:.1f} s", flush=True)
    result = {"machine": platform.machine(), "cores": os.cpu_count(), "numba_threads_local": numba.get_num_threads(),
              "python": platform.python_version(), "ray": ray.__version__, "repeats": args.repeats,
              "cluster_start_seconds": cluster_start}
    with tempfile.TemporaryDirectory(prefix="ray-bench-") as tmp:
        work = Path(tmp)
        small = RunConfig(deals=20_000, seed=1, chunk_deals=5_000)
        timed_run(work / "warm-local", small, None)  # the driver's kernels, loaded before any timing
        started = time.perf_counter()
        timed_run(work / "cold-ray", small, backend)
        result["cold_ray_run_seconds"] = time.perf_counter() - started  # workers import and load kernels
        result["task_overhead"] = task_overhead(backend, args.tasks)
        print(f"per task: {result['task_overhead']['round_trip_seconds'] * 1e3:.2f} ms round trip, "
              f"{result['task_overhead']['pipelined_seconds_per_task'] * 1e3:.2f} ms pipelined", flush=True)
        result["heuristic"] = compare("heuristic", RunConfig(deals=args.deals, seed=1), backend, args.repeats, work)
        if args.mc_deals:
            mc = RunConfig(deals=args.mc_deals, seed=1, strategies=[args.mc_strategy] * 4)
            timed_run(work / "warm-mc-local", RunConfig(deals=7, seed=1, strategies=[args.mc_strategy] * 4), None)
            timed_run(work / "warm-mc-ray", RunConfig(deals=14, seed=1, chunk_deals=7,
                                                      strategies=[args.mc_strategy] * 4), backend)
            result["mc"] = compare("mc", mc, backend, args.repeats, work)
    result["load_average_before_after"] = [load_before[0], os.getloadavg()[0]]
    out = write_json(args.out, result)
    for name in ("heuristic", "mc"):
        if name in result:
            r = result[name]
            print(f"{name}: local {r['local_deals_per_second']:,.0f} deals/s, ray {r['ray_deals_per_second']:,.0f} "
                  f"deals/s ({r['ray_over_local']:.0%}), records identical: {r['records_identical']}")
    print(f"Wrote {out}")
    differ = [name for name in ("heuristic", "mc") if name in result and not result[name]["records_identical"]]
    if differ:
        print(f"Error: the Ray backend's records differ from the local backend's ({', '.join(differ)})",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
