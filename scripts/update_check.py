"""The update check: after a change to the code, nothing compiled or cached before it is read back.

A user who updates an editable install (``git pull``) changes modules under numba's disk
cache and barbu-sim's value-table cache.  This script does that to a scratch copy of the
package, the way a user would meet it, and fails unless every command shows the new
behaviour (or compiles again) and none shows the old result or crashes:

1. with the caches filled, double No Tricks' points per trick in ``play_rules.trick_value``
   without touching the play loops that inline it: ``play`` must print the new totals,
   ``run`` must record them, and ``advise`` must build a new value table instead of reading
   the old one;
2. shrink the exact-endgame search's work space (``endgame.TT_BITS``): ``play`` with the
   mc player must compile its engine again and finish the hand.

It compiles the engines twice (about five minutes on 2 cores), so it is not part of the
test suite: CI (``.ci/run``) runs it after the suite.  Run from the project root::

    python scripts/update_check.py
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HAND = "AKQ.JT9.876.5432"


class Scratch:
    """A copy of the package in a temporary directory, run as ``python -m barbu_sim``."""

    def __init__(self, where: Path):
        self.where = where
        shutil.copytree(ROOT / "barbu_sim", where / "barbu_sim", ignore=shutil.ignore_patterns("__pycache__"))
        self.env = {**os.environ, "PYTHONPATH": str(where), "BARBU_SIM_CACHE": str(where / "cache"),
                    "NO_COLOR": "1", "COLUMNS": "200"}
        self.env.pop("NUMBA_CACHE_DIR", None)

    def cli(self, *args: str, timeout: int = 900) -> subprocess.CompletedProcess:
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "barbu_sim", *args], cwd=self.where, env=self.env,
                              capture_output=True, text=True, timeout=timeout)
        compiled = "compiled" if "compiling" in done.stderr else "cached"
        print(f"  barbu-sim {' '.join(args)}: exit {done.returncode}, {compiled}, "
              f"{time.perf_counter() - start:.0f} s", flush=True)
        if done.returncode != 0:
            raise SystemExit(f"update check failed: barbu-sim {' '.join(args)} exited {done.returncode}:\n"
                             f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        return done

    def edit(self, module: str, old: str, new: str) -> None:
        path = self.where / "barbu_sim" / module
        text = path.read_text()
        if text.count(old) != 1:
            raise SystemExit(f"update check: {module} no longer holds {old!r} exactly once; update this script")
        path.write_text(text.replace(old, new))
        print(f"edited {module}: {old.strip()!r} -> {new.strip()!r}", flush=True)

    def python(self, code: str) -> str:
        return subprocess.run([sys.executable, "-c", code], cwd=self.where, env=self.env, capture_output=True,
                              text=True, check=True).stdout


def play_total(scratch: Scratch, *extra: str) -> int:
    """The total of the hand's scores as ``play`` prints it."""
    out = scratch.cli("play", "--contract", "no-tricks", "--seed", "3", *extra).stdout
    found = re.search(r"\(total ([+-]\d+)\)", out)
    if not found:
        raise SystemExit(f"update check: no total in play's output:\n{out}")
    return int(found.group(1))


def run_total(scratch: Scratch, out: str) -> float:
    """The mean over the run's deals of the four seats' scores together."""
    scratch.cli("run", "--deals", "200", "--contract", "no-tricks", "--out", out, "--no-progress")
    return float(scratch.python(
        "import polars as pl; from barbu_sim.barbu.analytics.schema import SCORE_COLUMNS; "
        f"f = pl.read_parquet('{out}/records/*.parquet'); "
        "print(f.select(pl.sum_horizontal(SCORE_COLUMNS)).to_series().mean())"))


def advise(scratch: Scratch) -> str:
    # basic: the package ships the default tables (learned, heuristic) and would read those instead of the cache
    return scratch.cli("advise", HAND, "--strategy", "basic", "--samples", "20", "--remaining",
                       "no-tricks,trumps").stdout


def main() -> int:
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="barbu-update-") as tmp:
        scratch = Scratch(Path(tmp))
        print("filling the caches with today's code", flush=True)
        before = {"play": play_total(scratch), "run": run_total(scratch, "r1"), "advise": advise(scratch)}
        play_total(scratch, "--strategy", "mc:samples=4")
        tables = sorted((scratch.where / "cache").glob("value-table-*.json"))
        if before["play"] != -26 or before["run"] != -26 or len(tables) != 1:
            raise SystemExit(f"update check: unexpected starting point {before}, {len(tables)} value tables")

        scratch.edit("barbu/rules/play_rules.py", "        return np.int64(rules[R_NO_TRICKS_TRICK])\n",
                     "        return 2 * np.int64(rules[R_NO_TRICKS_TRICK])\n")
        after = {"play": play_total(scratch), "run": run_total(scratch, "r2"), "advise": advise(scratch)}
        tables = sorted((scratch.where / "cache").glob("value-table-*.json"))
        problems = []
        if after["play"] != -52:
            problems.append(f"play printed a total of {after['play']}, not -52 (the old total was -26)")
        if after["run"] != -52:
            problems.append(f"run recorded a mean total of {after['run']}, not -52")
        if len(tables) != 2:
            problems.append(f"advise read a cached value table: {len(tables)} tables on disk, not 2")
        if after["advise"] == before["advise"]:
            problems.append("advise printed the same advice with No Tricks worth twice as much")

        scratch.edit("barbu/players/endgame.py", "TT_BITS = 12\n", "TT_BITS = 10\n")
        mc = scratch.cli("play", "--contract", "no-tricks", "--seed", "3", "--strategy", "mc:samples=4")
        if "compiling" not in mc.stderr:
            problems.append("play --strategy mc ran without compiling after the endgame work space shrank")
        if "(total -52)" not in mc.stdout:
            problems.append("play --strategy mc did not finish the hand with the new points")
    print(f"update check: {'FAILED' if problems else 'passed'} in {time.perf_counter() - start:.0f} s")
    for problem in problems:
        print(f"  - {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
