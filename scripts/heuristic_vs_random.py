"""One `heuristic` seat against three `random` seats, per contract: does the heuristic score better?

For each contract the heuristic player sits at each seat in turn, with the
declarer at each seat in turn (16 combinations, the same deals for all); its
mean raw score is compared with the mean score of a `random` player at the same
seats on the same deals (all four seats random), with a paired 95% CI.
Writes results/heuristic_vs_random.json and prints a Markdown table.

    python scripts/heuristic_vs_random.py --force      # 100,000 deals per combination
    python scripts/heuristic_vs_random.py --deals 2000 --out /tmp/hvr.json
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from barbu_sim.barbu.api import play_batch
from barbu_sim.barbu.rules.choices import standard_param
from barbu_sim.barbu.rules import CONTRACTS
from barbu_sim.core.seats import N_SEATS
from barbu_sim.core.stats import summarize

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from barbu_sim.core.outputs import add_force, refuse_existing, write_json  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default=str(ROOT / "results" / "heuristic_vs_random.json"))
    add_force(ap)
    args = ap.parse_args(argv)
    refuse_existing(args.out, args.force)
    rows = []
    for c in range(7):
        cfg = [(c, standard_param(c), d) for d in range(N_SEATS)]
        base, _ = play_batch(args.seed, 0, args.deals, cfg, "random")
        diffs, heur, rand = [], [], []
        for seat in range(N_SEATS):
            mix = ["random"] * N_SEATS
            mix[seat] = "heuristic"
            s, _ = play_batch(args.seed, 0, args.deals, cfg, mix)
            heur.append(s[:, :, seat].astype(np.float64))
            rand.append(base[:, :, seat].astype(np.float64))
            diffs.append((s[:, :, seat] - base[:, :, seat]).astype(np.float64))
        h, r, d = np.concatenate(heur, None), np.concatenate(rand, None), np.concatenate(diffs, None)
        diff = summarize(d)
        rows.append({"contract": CONTRACTS[c], "plays": diff["n"], "heuristic_mean": h.mean(),
                     "random_mean": r.mean(), "difference": diff["mean"], "ci_low": diff["ci_low"],
                     "ci_high": diff["ci_high"]})
    write_json(args.out, {"deals": args.deals, "seed": args.seed, "rows": rows})
    print("| contract | heuristic seat | random seat | difference (95% CI) |")
    print("|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r['contract']} | {r['heuristic_mean']:+.2f} | {r['random_mean']:+.2f} | "
              f"{r['difference']:+.2f} ({r['ci_low']:+.2f} .. {r['ci_high']:+.2f}) |")


if __name__ == "__main__":
    main()
