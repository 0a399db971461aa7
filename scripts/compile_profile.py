"""Where first-use compile time goes: seconds per compiled function and specialisation -> results/compile_profile.json.

Each case runs one barbu-sim command in a fresh process with an empty numba cache directory
(``NUMBA_CACHE_DIR``), with a listener on numba's ``numba:compile`` events: every dispatcher that
compiles (an entry kernel, and each ``@njit`` function it calls, compiled as its own dispatcher)
is timed from its start to its end event.  A function's *self* time is its own time less that
of the compiles nested in it (its callees compiled for it), so the self times of a case add up
to its compile time, and the top rows are where cutting pays.

    python scripts/compile_profile.py --only run,play --out /tmp/profile.json
    python scripts/compile_profile.py --force        # every case -> results/compile_profile.json

The figures depend on the machine and its load; the ranking is what matters.  ``--top N`` rows
of each case are printed and kept (all rows with ``--top 0``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from barbu_sim.core.outputs import add_force, refuse_existing, write_json

ROOT = Path(__file__).resolve().parent.parent

HAND = "AKQ.JT9.876.5432"

# (name, arguments after barbu-sim); {tmp}: a scratch folder of the case's own.
CASES = [
    ("rules", ["rules"]),  # compiles nothing: the floor
    ("run", ["run", "--deals", "2000", "--out", "{tmp}/quick", "--no-progress"]),
    ("play", ["play", "--contract", "barbu", "--seed", "7"]),
    ("play learned", ["play", "--contract", "barbu", "--seed", "7", "--seat-strategy", "E=learned"]),
    ("play mc", ["play", "-c", "barbu", "--seed", "1", "--seat-strategy", "E=mc:samples=20"]),
    ("run mc", ["run", "--deals", "20", "--seat-strategy", "E=mc:samples=2", "--out", "{tmp}/mc", "--no-progress"]),
    ("advise", ["advise", HAND, "--remaining", "trumps,domino,barbu", "--hand-in-block", "5", "--samples", "50"]),
    ("clabber run", ["clabber", "run", "-n", "2000", "--out", "{tmp}/crun", "--no-progress"]),
]

# Run in the child: the command, its compiles timed (barbu_sim.core.compiling.CompileTimes); the rows go to stdout.
CHILD = r'''
import json, time
from barbu_sim.core.compiling import CompileTimes
from barbu_sim.cli import app
start = time.perf_counter()
with CompileTimes() as times:
    try:
        app(ARGS, prog_name="barbu-sim")
    except SystemExit as e:
        if e.code not in (0, None):
            raise
print("PROFILE " + json.dumps({"wall_seconds": time.perf_counter() - start, "rows": times.rows()}))
'''


def profile(name: str, args: list[str]) -> dict:
    """Run one case from an empty numba cache and return its rows, most self time first."""
    with tempfile.TemporaryDirectory() as tmp:
        argv = [a.replace("{tmp}", tmp) for a in args]
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "numba-cache"))
        # the child imports this checkout's package, not whichever one is installed (it runs in tmp)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", CHILD.replace("ARGS", repr(argv))], env=env,
                              capture_output=True, text=True, cwd=tmp)
        elapsed = time.perf_counter() - start
    lines = [line for line in done.stdout.splitlines() if line.startswith("PROFILE ")]
    if done.returncode != 0 or not lines:
        raise SystemExit(f"Error: case {name!r} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    data = json.loads(lines[-1].removeprefix("PROFILE "))
    rows = sorted(data["rows"], key=lambda r: -r["self_seconds"])
    return {"case": name, "command": "barbu-sim " + " ".join(args), "process_seconds": round(elapsed, 1),
            "compile_seconds": round(sum(r["self_seconds"] for r in rows), 1),
            "functions": len(rows), "specialisations": sum(r["specialisations"] for r in rows),
            "rows": [{**r, "seconds": round(r["seconds"], 2), "self_seconds": round(r["self_seconds"], 2)}
                     for r in rows]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated case names (default: every case): "
                                   + ", ".join(name for name, _ in CASES))
    ap.add_argument("--top", type=int, default=15, help="rows kept and printed per case (0: all; default 15)")
    ap.add_argument("--out", default=str(ROOT / "results" / "compile_profile.json"))
    add_force(ap)
    args = ap.parse_args(argv)
    refuse_existing(args.out, args.force)
    names = [name for name, _ in CASES]
    wanted = names if not args.only else [s.strip() for s in args.only.split(",")]
    unknown = [w for w in wanted if w not in names]
    if unknown:
        raise SystemExit(f"Error: unknown case {', '.join(unknown)} (one of: {', '.join(names)})")
    cases = []
    for name, case_args in CASES:
        if name not in wanted:
            continue
        case = profile(name, case_args)
        if args.top:
            case["rows"] = case["rows"][:args.top]
        cases.append(case)
        print(f"{name}: {case['compile_seconds']:.1f} s compiling ({case['functions']} functions, "
              f"{case['specialisations']} specialisations) in {case['process_seconds']:.1f} s", flush=True)
        for r in case["rows"]:
            print(f"  {r['self_seconds']:7.2f} s self  {r['seconds']:7.2f} s in all  x{r['specialisations']}  "
                  f"{r['function']}", flush=True)
    write_json(args.out, {"machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                                      "load_average": list(os.getloadavg())},
                          "cases": cases})


if __name__ == "__main__":
    main()
