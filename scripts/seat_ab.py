"""Paired A/B of two players in one seat: which plays a contract better against the same opponents.

For each deal and contract, player A sits at one seat among three opponents, and so does
player B on the same deal; with A (and B) at each seat in turn and the declarer at each
seat (16 plays per deal), the per-deal mean of A - B gets a 95% CI over deals.  This is
how each refinement of the ``mc`` player was measured against ``pimc`` (docs/strategies.md):

    python scripts/seat_ab.py "mc:endgame=0,tail=0,halving=off,infer=70" pimc -n 150 -c no-tricks -c barbu -c no-queens
    python scripts/seat_ab.py mc mc:endgame=0 -n 400 -c domino
    python scripts/seat_ab.py heuristic basic -n 2000 --opponents random

The measurement is ``barbu-sim compare``'s (:mod:`barbu_sim.barbu.studies.compare`), one contract at a time,
with this script's own fixed choices, kept so that its published figures replay: Trumps is played with diamonds
as trumps (``compare`` plays the declarer's longest suit), Domino from the 7; seed 4242 by default.  Under a rules
preset (``--rules``, repeatable) where the lowest total wins, "A better by" is B - A.  How the
learned player was checked under every preset (docs/learned-player.md):

    python scripts/seat_ab.py learned heuristic -n 4000 --seed 11 --rules all --out results/learned_presets.json --force
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from barbu_sim.barbu.rules import CONTRACTS, DOMINO, PRESETS, TRUMPS, parse_contract
from barbu_sim.barbu.players.registry import resolve_strategy
from barbu_sim.barbu.studies.compare import compare, seat_scores

sys.path.insert(0, str(Path(__file__).resolve().parent))
from barbu_sim.core.outputs import add_force, check_out, write_json

PARAMS = {TRUMPS: 1, DOMINO: 5}  # diamonds as trumps, Domino from the 7 (rank index 5)


def seat_means(player: str, opponents: str, contract: int, seed: int, deals: int, rules=None) -> np.ndarray:
    """Per deal, ``player``'s mean score over its four seats and the four declarers, among ``opponents``."""
    return seat_scores(player, opponents, [contract], seed, 0, deals, rules=rules, params=PARAMS)[:, 0]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="player A (a strategy name, with parameters)")
    ap.add_argument("b", help="player B, in the same seats on the same deals")
    ap.add_argument("--opponents", default="heuristic", help="the other three seats (default heuristic)")
    ap.add_argument("-n", "--deals", type=int, default=150, help="deals per contract (default 150)")
    ap.add_argument("-c", "--contract", action="append", help="a contract (repeatable; default all seven)")
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--rules", action="append", help="a rules preset, or 'all' for every preset (repeatable; default: "
                    "the rules as written); where the lowest total wins, 'A better by' is B - A")
    ap.add_argument("--out", help="also write the rows to this JSON file")
    add_force(ap)
    args = ap.parse_args(argv)
    try:
        if args.out is not None:
            check_out(args.out, args.force)
        for spec in (args.a, args.b, args.opponents):
            resolve_strategy(spec)
        contracts = [int(parse_contract(c)) for c in args.contract] if args.contract else list(range(len(CONTRACTS)))
        if args.deals < 2:
            raise ValueError("--deals must be at least 2")
        presets = args.rules or ["default"]
        if "all" in presets:  # every preset once, in the package's order
            presets = list(PRESETS)
        for name in presets:
            if name not in PRESETS:
                raise ValueError(f"unknown rules preset {name!r} (one of: {', '.join(PRESETS)})")
    except ValueError as e:
        print(f"Error: {e}", file=sys.stderr)
        sys.exit(2)
    rows = []
    for preset, c in ((p, c) for p in presets for c in contracts):
        rules = PRESETS[preset]
        t0 = time.perf_counter()
        # barbu-sim compare's library, with this script's fixed trump suit and domino rank
        row = compare(args.a, args.b, opponents=args.opponents, contracts=[c], deals=args.deals, seed=args.seed,
                      rules=rules, params=PARAMS).table.row(0, named=True)  # positive a_better_by: A is better
        rows.append({"contract": CONTRACTS[c], "a": args.a, "b": args.b, "opponents": args.opponents,
                     "rules": preset, "deals": args.deals, "a_mean": row["a_mean"], "b_mean": row["b_mean"],
                     "a_better_by": row["a_better_by"], "ci_low": row["ci_low"], "ci_high": row["ci_high"],
                     "seconds": round(time.perf_counter() - t0, 1)})
        print(f"{preset:<20} {CONTRACTS[c]:<12} A {row['a_mean']:+7.3f}  B {row['b_mean']:+7.3f}  A better by "
              f"{row['a_better_by']:+.3f} ({row['ci_low']:+.3f} .. {row['ci_high']:+.3f})", flush=True)
    if args.out is not None:
        write_json(args.out, {"seed": args.seed, "rows": rows})
    return rows


if __name__ == "__main__":
    main()
