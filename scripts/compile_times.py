"""First-use and warm times of each barbu-sim command -> results/compile_times.json.

Each command runs in a fresh process twice: first with an empty numba cache
directory (``NUMBA_CACHE_DIR``, so every kernel it needs compiles: the wait a
new user sees once) and an empty value-table cache (``BARBU_SIM_CACHE``: a table the
package does not ship is built), then again with both caches filled (the wait of every
later call).  The difference is, to within process start-up noise, the compile time
and the tables built.

    python scripts/compile_times.py --force           # every command -> results/compile_times.json
    python scripts/compile_times.py --only run,play --out /tmp/times.json   # some of them
    python scripts/compile_times.py --out /tmp/ct.json
    python scripts/compile_times.py --check           # does the page show results/compile_times.json? (times nothing)

It also writes the table into docs/performance.md (between the compile-times markers), so
the page always shows the committed figures (tests/test_compiling.py checks that it does, with --check).

A command's first use depends on the kernels it needs, not on the order in which
the commands run: each command gets its own empty cache.  ``barbu-sim compile`` is
timed the same way: its first use compiles every everyday engine in one process (less
than the sum of the commands' first uses: the engines share functions, compiled once),
its cached use is the second call, which finds them all cached.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from barbu_sim.core.outputs import add_force, refuse_existing, write_json, write_text

ROOT = Path(__file__).resolve().parent.parent

HAND = "AKQ.JT9.876.5432"

# (name, arguments after barbu-sim, what a run directory it needs: "barbu" / "clabber" / None).
# {run}: a small run made beforehand with a warm cache (report and plot compile nothing of it).
COMMANDS = [
    ("run", ["run", "--deals", "200000", "--out", "{tmp}/quick"], None),
    ("report", ["report", "{run}"], "barbu"),
    ("plot", ["plot", "{run}", "--out", "{tmp}/charts"], "barbu"),
    ("rules", ["rules"], None),
    ("play", ["play", "--contract", "barbu", "--seed", "7"], None),
    ("play mc", ["play", "-c", "barbu", "--seed", "1", "--seat-strategy", "E=mc:samples=20"], None),
    ("run plugin", ["run", "--deals", "2000", "--strategy", "{plugin}", "--out", "{tmp}/plugin"], None),
    ("game", ["game", "-n", "1", "--show", "0"], None),
    ("advise", ["advise", HAND, "--remaining", "trumps,domino,barbu", "--hand-in-block", "5", "--samples", "50"], None),
    ("compare-orders", ["compare-orders", "--policies", "fixed,myopic", "--blocks", "4", "--samples", "20"], None),
    ("clabber run", ["clabber", "run", "-n", "20000", "--out", "{tmp}/crun"], None),
    ("clabber play", ["clabber", "play", "--seed", "7"], None),
    ("clabber game", ["clabber", "game", "-n", "1", "--show", "0"], None),
    # every everyday engine of both games in one process, up front; cached: the second call, which lists them
    ("compile", ["compile"], None),
]

PLUGIN = '''from numba import njit
from barbu_sim.core.bits import highest_bit


@njit
def play_high(legal, hand, state, rng):
    return highest_bit(legal)
'''


DOC = ROOT / "docs" / "performance.md"
BEGIN, END = "<!-- compile-times: written by scripts/compile_times.py -->", "<!-- /compile-times -->"


def markdown_table(result: dict) -> str:
    """The Markdown table of a compile_times.json: one row per command, with the first use
    before compile-on-first-use where it was measured."""
    before = {row["command"]: row for row in result.get("before", {}).get("rows", [])}
    lines = ["| command | first use, empty cache (s) | cached (s) | first use − cached (s) | first use before (s) |",
             "|---|---:|---:|---:|---:|"]
    for row in result["rows"]:
        old = before.get(row["command"])
        shown = f"{old['first_use_s']:.1f}" if old else ""
        lines.append(f"| `{row['argv']}` | {row['first_use_s']:.1f} | {row['cached_s']:.1f} | {row['compile_s']:.1f} "
                     f"| {shown} |")
    return "\n".join(lines)


def write_doc_table(result: dict, doc: Path = DOC) -> None:
    """Replace the table between the markers of ``doc`` with the one of ``result``."""
    text = doc.read_text()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    write_text(doc, f"{head}{BEGIN}\n{markdown_table(result)}\n{END}{tail}")


def check_doc_table(results: Path = ROOT / "results" / "compile_times.json", doc: Path = DOC) -> int:
    """0 if ``doc`` shows the table of ``results``; else 1, saying so on stderr."""
    page = doc.read_text()
    shown = page.split(BEGIN)[1].split(END)[0].strip() if BEGIN in page else None
    if shown != markdown_table(json.loads(results.read_text())):
        print(f"{doc} does not show the table of {results}: run python scripts/compile_times.py", file=sys.stderr)
        return 1
    return 0


def timed(argv: list[str], cache: str) -> tuple[float, int, str]:
    """Seconds, exit code and stderr of ``barbu-sim argv`` with numba's cache in ``cache`` and the value-table
    cache beside it (``cache``-tables: empty at first use too, as a newcomer's)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, BARBU_SIM_CACHE=f"{cache}-tables")
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "barbu_sim", *argv], env=env, capture_output=True, text=True,
                          cwd=ROOT)
    return time.perf_counter() - t0, proc.returncode, proc.stderr


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma list of command names to time (default: all)")
    parser.add_argument("--out", default=str(ROOT / "results" / "compile_times.json"))
    parser.add_argument("--check", action="store_true",
                        help="time nothing: exit 1 unless docs/performance.md shows the table of "
                             "results/compile_times.json")
    add_force(parser, "replace the output file if it exists, keeping its \"before\" figures (without it, an "
                      "existing file is refused before any work)")
    args = parser.parse_args(argv)
    if args.check:
        return check_doc_table()
    refuse_existing(args.out, args.force)
    wanted = None if args.only is None else {w.strip() for w in args.only.split(",")}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        plugin = Path(tmp) / "play_high.py"
        plugin.write_text(PLUGIN)
        warm_cache = str(Path(tmp) / "warm-cache")
        run_dir = str(Path(tmp) / "small-run")
        seconds, code, err = timed(["run", "--deals", "20000", "--out", run_dir], warm_cache)
        if code != 0:
            sys.exit(f"could not make the small run: {err}")
        for name, argv, needs in COMMANDS:
            if wanted is not None and name not in wanted:
                continue
            cache = str(Path(tmp) / f"cache-{len(rows)}")
            filled = [a.format(tmp=tmp, run=run_dir, plugin=f"{plugin}:play_high") for a in argv]
            for d in ("quick", "plugin", "crun", "charts"):
                shutil.rmtree(Path(tmp) / d, ignore_errors=True)
            cold, code, err = timed(filled, cache)
            if code != 0:
                sys.exit(f"barbu-sim {' '.join(filled)} failed ({code}): {err}")
            for d in ("quick", "plugin", "crun", "charts"):
                shutil.rmtree(Path(tmp) / d, ignore_errors=True)
            warm, code, err = timed(filled, cache)
            row = {"command": name,
                   "argv": "barbu-sim " + " ".join(argv).replace("{tmp}/", "runs/").replace("{run}", "runs/small")
                   .replace("{plugin}", "play_high.py:play_high"),
                   "first_use_s": round(cold, 1), "cached_s": round(warm, 1), "compile_s": round(cold - warm, 1)}
            rows.append(row)
            print(f"{name:16} first use {cold:6.1f} s   cached {warm:5.1f} s", flush=True)
    out = {
        "what": "seconds of each command in a fresh process: with empty numba and value-table caches (first use) "
                "and with them filled",
        "command": "python scripts/compile_times.py",
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_average_at_end": [round(x, 2) for x in os.getloadavg()]},
        "rows": rows,
    }
    previous = Path(args.out)
    if previous.is_file():  # keep the figures of the code before compile-on-first-use, measured once
        before = json.loads(previous.read_text()).get("before")
        if before is not None:
            out["before"] = before
    write_json(args.out, out)
    print(f"wrote {args.out}")
    if wanted is None and Path(args.out).resolve() == (ROOT / "results" / "compile_times.json").resolve():
        write_doc_table(out)
        print(f"wrote the table in {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
