"""Paired speed comparison of the Clabber engine at a git revision against the working tree.

As ``scripts/ab_compare.py`` does for Barbu: both versions are loaded into one process (the
revision's package under another name) and their timed calls alternate, so each pair sees the
same machine state; a shared machine's speed drifts too much for two benchmark runs to tell a
10% change from noise.  Prints per case the median rate of each, the median paired ratio
(work / base, above 1: the working tree is faster) and whether both wrote the same records;
writes the figures as JSON.

    python scripts/clabber_ab.py --rev 66c0911 --force          # random and heuristic, one thread
    python scripts/clabber_ab.py --rev HEAD --rounds 100000 --repeats 5 --out /tmp/ab.json
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from ab_compare import extract_revision  # noqa: E402
from barbu_sim.core.outputs import add_force, refuse_existing, write_json  # noqa: E402

CASES = (("random", "accept-first"), ("heuristic", "accept-first"), ("heuristic", "threshold"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", default="HEAD", help="git revision to compare against (default HEAD)")
    ap.add_argument("--rounds", type=int, default=300_000, help="rounds per timed call (default 300,000)")
    ap.add_argument("--repeats", type=int, default=9, help="timed pairs per case (default 9)")
    ap.add_argument("--out", default=str(ROOT / "results" / "clabber" / "ab.json"))
    add_force(ap)
    args = ap.parse_args(argv)
    refuse_existing(args.out, args.force)
    with tempfile.TemporaryDirectory() as tmp:
        extract_revision(args.rev, Path(tmp))
        sys.path.insert(0, tmp)
        import importlib

        import numba

        from barbu_sim.clabber import api as work
        base = importlib.import_module("barbu_base.clabber.api")
        numba.set_num_threads(1)
        print(f"one thread, {args.rounds:,} rounds per call, base = {args.rev}, work = working tree")
        rows = []
        for strategy, bidding in CASES:
            out = {m: np.zeros((args.rounds, len(m.ROUND_COLUMNS)), np.int16) for m in (base, work)}
            for m in (base, work):
                m.play_rounds(1, 0, 2000, bidding=bidding, strategies=strategy)  # compile or load, untimed
            rates = {base: [], work: []}
            for r in range(args.repeats):
                for m in ((base, work) if r % 2 == 0 else (work, base)):
                    start = time.perf_counter()
                    m.play_rounds(1 + r, 0, args.rounds, bidding=bidding, strategies=strategy, chunk=4096,
                                  out=out[m], threads=1)
                    rates[m].append(args.rounds / (time.perf_counter() - start))
            ratio = statistics.median(w / b for b, w in zip(rates[base], rates[work]))
            same = bool(np.array_equal(out[base], out[work]))  # the last pair played the same seed
            rows.append({"strategy": strategy, "bidding": bidding, "base": statistics.median(rates[base]),
                         "work": statistics.median(rates[work]), "ratio": ratio, "same_records": same})
            print(f"{strategy:>9} / {bidding:<12}  base {rows[-1]['base']:>10,.0f}/s  work {rows[-1]['work']:>10,.0f}/s"
                  f"  work/base {ratio:.3f} (median of {args.repeats} pairs)  same records: {same}")
    data = {"rev": args.rev, "rounds_per_call": args.rounds, "repeats": args.repeats, "threads": 1, "rows": rows}
    write_json(args.out, data)


if __name__ == "__main__":
    main()
