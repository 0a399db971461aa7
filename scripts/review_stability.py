"""Do review's labels depend on the seed of its layouts?  Blocks reviewed under three seeds, compared.

Each block is one seat's seven hands (deal ``i`` of a block seed under contract ``i``, the seat
declaring, Trumps in its longest suit, Domino from the 7), the seat playing ``--player``
(default ``basic``, a player that makes mistakes of every size) among three ``--opponents``
(``heuristic``).  The seat's decisions are reviewed under each of ``--seeds`` (0 1 2) with
review's default settings, and compared (``barbu_sim/barbu/review/stability.py``):

    a decision is flagged under a seed when it is labelled there; the agreement is, of the
    decisions flagged under at least one seed, the share labelled the same under every seed.

The target is 80% (docs/review-and-table.md).  Writes results/review_stability.json and
prints one line per block and the total; with ``--old`` it also measures the review as it
was (100 layouts per decision, rollouts to the end, no exact search before the last two
tricks, labels at 1 / 3 / 8 points), for the comparison.

    # results/review_stability.json: about 6 minutes on one core
    python scripts/review_stability.py --blocks 8 --old --force
    python scripts/review_stability.py --blocks 1 --contracts barbu --samples 8 --max-samples 16 --out /tmp/s.json
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

from barbu_sim import __version__
from barbu_sim.barbu.review.estimate import DEFAULT_SAMPLES, Settings
from barbu_sim.barbu.review.stability import agreement, block, measure, summary_line
from barbu_sim.barbu.rules import CONTRACTS, parse_contract
from barbu_sim.core.seats import parse_seat
from barbu_sim.core.outputs import add_force, refuse_existing, write_json

ROOT = Path(__file__).resolve().parent.parent

TARGET = 0.8


def merge(results: list) -> dict:
    """The blocks' results together: the flagged decisions of every block, and the agreement over all of them."""
    labels = {}
    for b, r in enumerate(results):
        for k, ls in r["labels"].items():
            labels[(b, k)] = ls
    out = agreement(labels)
    out["decisions"] = sum(r["decisions"] for r in results)
    seconds = sum(p["seconds"] for r in results for p in r["per_seed"])
    out["seconds_per_decision"] = round(seconds / max(out["decisions"] * len(results[0]["per_seed"]), 1), 4)
    out["layouts_per_decision"] = round(sum(r["layouts_per_decision"] * r["decisions"] for r in results)
                                        / max(out["decisions"], 1), 1)
    return out


def old_measure(deals, seat, seeds):
    """The review as it was before adaptive layouts and scaled thresholds (for the comparison)."""
    from barbu_sim.barbu.review.review import review_deal
    labels = {}
    old = Settings(samples=100, max_samples=100, endgame=2, tail=0, infer=100, rollout="heuristic")
    fixed = (("blunder", 8.0), ("mistake", 3.0), ("inaccuracy", 1.0))
    for i, seed in enumerate(seeds):
        for k, deal in enumerate(deals):
            for d in review_deal(deal, [seat], settings=old, seed=seed).decisions:
                label = next((name for name, low in fixed if d.counts and d.loss >= low), "")
                labels.setdefault(f"{k}:{d.play_no}", [""] * len(seeds))[i] = label
    return agreement(labels)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--blocks", type=int, default=8, help="blocks (block seeds 1..N; default 8)")
    ap.add_argument("--seat", default="S", help="the seat reviewed, declaring (default S)")
    ap.add_argument("--player", default="basic", help="the seat's player (default basic)")
    ap.add_argument("--opponents", default="heuristic", help="the other three (default heuristic)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2], help="the review seeds (default 0 1 2)")
    ap.add_argument("-c", "--contracts", action="append",
                    help="a contract of the block (repeatable; default all seven)")
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="review --samples (default 64)")
    ap.add_argument("--max-samples", type=int, default=None, help="review --max-samples (default 128 x samples)")
    ap.add_argument("--old", action="store_true", help="also measure the review as it was, for the comparison")
    ap.add_argument("--out", default=str(ROOT / "results" / "review_stability.json"))
    add_force(ap)
    args = ap.parse_args(argv)
    refuse_existing(args.out, args.force)
    seat = parse_seat(args.seat)
    contracts = [int(parse_contract(c)) for c in args.contracts] if args.contracts else list(range(len(CONTRACTS)))
    settings = Settings(samples=args.samples, max_samples=args.max_samples)
    results, started = [], time.time()
    for b in range(1, args.blocks + 1):
        deals = block(b, seat, args.player, args.opponents, contracts)
        r = measure(deals, seat, args.seeds, settings)
        r["block_seed"] = b
        if args.old:
            r["old"] = old_measure(deals, seat, args.seeds)
        r["labels"] = {f"{k}:{p}": ls for (k, p), ls in r.pop("labels").items()}
        results.append(r)
        print(f"block {b}: " + summary_line(r) + (f"; before: {r['old']['same']} of {r['old']['flagged']}"
                                                   if args.old else ""), flush=True)
    total = merge(results)
    print("all: " + summary_line(total))
    data = {"what": "review labels under several seeds: of the decisions flagged under any seed, the share "
                    "labelled the same under every seed", "target": TARGET,
            "version": __version__, "machine": platform.platform(), "minutes": round((time.time() - started) / 60, 1),
            "settings": {**settings.as_dict(), "seat": args.seat, "player": args.player, "opponents": args.opponents,
                         "seeds": args.seeds, "contracts": [CONTRACTS[c] for c in contracts]},
            "total": total, "blocks": results}
    if args.old:
        flagged, same = sum(r["old"]["flagged"] for r in results), sum(r["old"]["same"] for r in results)
        data["total_old"] = {"flagged": flagged, "same": same, "agreement": same / flagged if flagged else 1.0}
        print(f"before: {same} of {flagged} flagged decisions labelled alike under every seed")
    write_json(args.out, data, indent=1)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
