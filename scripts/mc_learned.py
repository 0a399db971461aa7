"""mc on the learned player: each variant against today's ``mc`` in one seat, on the same deals, paired.

For each table type (the three other seats: ``learned``, ``learned1``, ``heuristic`` or ``basic``),
contract and variant, the variant sits at one seat among three opponents, and so does today's ``mc``
(the player ``mc1`` keeps, card for card) on the same deals; with each at every seat in turn and the
declarer at every seat (16 plays per deal), the per-deal mean of variant − ``mc`` gets a 95% CI over
deals (as ``scripts/seat_ab.py``; ``mc`` is played once per table and contract and shared by the
variants).  A variant's ``{table}`` stands for the
table type, so that policy inference uses the temperatures fitted on that table's plays:

    python scripts/mc_learned.py --opponents learned -c barbu -n 300 --merge    # -> results/mc_learned.json
    python scripts/mc_learned.py --opponents heuristic --opponents basic -c domino -n 200 --merge
    python scripts/mc_learned.py --variant "mc:infer=policy:heuristic" --opponents learned -c barbu -n 100 --merge
    # the new mc against mc1:
    python scripts/mc_learned.py --variant mc:rollout=learned --opponents learned1 -n 150 --merge

Default variants: ``mc:rollout=learned`` (learned rollouts; the learned player is also the model of
``infer=70``), ``mc:infer=policy:{table}`` (policy inference), and both.  An existing ``--out``
is refused unless ``--merge`` (its rows of other variants, tables or contracts, of the same seed,
are kept) or ``--force`` (it is replaced) is given.  Trumps with diamonds as trumps, Domino from
the 7, seed 4242 (as seat_ab.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from barbu_sim.barbu.players.registry import resolve_strategy
from barbu_sim.barbu.rules import CONTRACTS, parse_contract
from barbu_sim.core.stats import summarize

sys.path.insert(0, str(Path(__file__).resolve().parent))
from barbu_sim.core.outputs import add_force, check_out, read_rows, write_json
from seat_ab import seat_means  # the paired measurement of scripts/seat_ab.py

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "mc"
VARIANTS = ("mc:rollout=learned", "mc:infer=policy:{table}", "mc:rollout=learned,infer=policy:{table}")
TABLES = ("learned", "learned1", "heuristic", "basic")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", action="append", help="a variant (repeatable; {table}: the table type)")
    ap.add_argument("--opponents", action="append", choices=TABLES, help="a table type (repeatable; default all)")
    ap.add_argument("-n", "--deals", type=int, default=200, help="deals per contract (default 200)")
    ap.add_argument("-c", "--contract", action="append", help="a contract (repeatable; default all seven)")
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--out", default=str(ROOT / "results" / "mc_learned.json"))
    ap.add_argument("--merge", action="store_true", help="add the rows to an existing --out of the same seed, "
                    "keeping its rows of other variants, tables or contracts")
    add_force(ap, "replace --out if it exists (without it or --merge, an existing file is refused before any work)")
    args = ap.parse_args(argv)
    tables = args.opponents or list(TABLES)
    variants = args.variant or list(VARIANTS)
    try:
        contracts = [int(parse_contract(c)) for c in args.contract] if args.contract else list(range(len(CONTRACTS)))
        for v in variants:
            for t in tables:
                resolve_strategy(v.format(table=t))
        if args.deals < 2:
            raise ValueError("--deals must be at least 2")
        out = check_out(args.out, args.force or args.merge, merge="--merge")
        if args.merge and not args.force and out.is_symlink() and not out.exists():
            raise ValueError(f"--out {out} is a link that points nowhere: --merge has no rows to add to; give "
                             "--force to replace it, or name another file")
        kept, commands = [], []
        if args.merge and out.exists():
            old = read_rows(out, ("variant", "opponents", "contract"))
            if old.get("seed") == args.seed:
                commands = old.get("commands", [])  # the runs behind the rows, as the docs list them
                done = {(v.format(table=t), t, CONTRACTS[c]) for v in variants for t in tables for c in contracts}
                kept = [r for r in old["rows"] if (r["variant"], r["opponents"], r["contract"]) not in done]
    except (ValueError, KeyError) as e:
        print(f"Error: {e}", file=sys.stderr)
        sys.exit(2)
    rows = []
    for t in tables:
        for c in contracts:
            t0 = time.perf_counter()
            base = seat_means(BASELINE, t, c, args.seed, args.deals)
            base_s = time.perf_counter() - t0
            for v in variants:
                spec = v.format(table=t)
                t1 = time.perf_counter()
                a = seat_means(spec, t, c, args.seed, args.deals)
                d = summarize(a - base)
                rows.append({"variant": spec, "baseline": BASELINE, "opponents": t, "contract": CONTRACTS[c],
                             "deals": args.deals, "variant_mean": float(a.mean()), "baseline_mean": float(base.mean()),
                             "difference": d["mean"], "ci_low": d["ci_low"], "ci_high": d["ci_high"],
                             "seconds": round(time.perf_counter() - t1, 1), "baseline_seconds": round(base_s, 1)})
                print(f"{t:<10} {CONTRACTS[c]:<12} {spec:<45} {d['mean']:+.3f} ({d['ci_low']:+.3f} .. "
                      f"{d['ci_high']:+.3f})  {time.perf_counter() - t1:.0f} s", flush=True)
                write_json(out, {"seed": args.seed, "method": "variant - mc in one seat among three of the table, "
                                 "same deals; every seat and declarer; per-deal mean of 16 plays; 95% normal CI over "
                                 "deals (scripts/mc_learned.py)", "commands": commands, "rows": kept + rows})
    return rows


if __name__ == "__main__":
    main()
