"""Held-out check of the value estimates `advise` rests on: `learned` and `heuristic` against `mc`.

For `--hands` random hands (seed `--seed`, none of them seen in training), each hand is
declared from North and its expected score is estimated under every configuration of the
advice grid (each negative contract, Trumps in each suit, Domino from each rank) with the
same player at all four seats: `mc` on `--mc-samples` deals of the unseen cards (the
reference), and `learned` and `heuristic` on the same deals.  Per player: the mean absolute
difference from mc's estimate over every hand and configuration, how often the contract it
would rank first for the hand (best trump suit and domino rank) is mc's, what choosing it costs
in mc's values, and how often its best trump suit and best domino rank are mc's.  Writes results/advise_check.json.

    python scripts/advise_check.py --force                   # 100 hands, 32 mc deals each (about 5 minutes)
    python scripts/advise_check.py --hands 4 --mc-samples 4 --out /tmp/a.json
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from barbu_sim.barbu.api import evaluate_hands
from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.game.evaluation import EvalGrid
from barbu_sim.barbu.players.registry import canonical_strategy
from barbu_sim.core.outputs import add_force, refuse_existing, write_json

ROOT = Path(__file__).resolve().parent.parent

PLAYERS = ("learned", "heuristic")


def estimates(hands, strategy: str, n_samples: int, seed: int) -> np.ndarray:
    """(hands, grid, 4) mean scores; the same sample deals for every player (keyed by seed, hand and seat)."""
    return evaluate_hands(hands, EvalGrid.configs(0), strategy, seat=0, n_samples=n_samples, seed=seed).mean


def agreement(ref: np.ndarray, est: np.ndarray) -> dict:
    """How close ``est`` is to ``ref`` (both (hands, grid, 4)) for the declarer's decisions."""
    n = len(ref)
    best = [[EvalGrid.contract_values(m[h], np.zeros_like(m[h]), 0) for h in range(n)] for m in (ref, est)]
    same_contract = np.mean([np.argmax(a[0]) == np.argmax(b[0]) for a, b in zip(*best)])
    # What following this player's ranking costs, in mc's own values: mc's best contract against the
    # contract (with trump suit and rank) this player ranks first, both valued by mc.
    lost = [a[0].max() - a[0][np.argmax(b[0])] for a, b in zip(*best)]
    same_trump = np.mean([a[1][5] == b[1][5] for a, b in zip(*best)])
    same_rank = np.mean([a[1][6] == b[1][6] for a, b in zip(*best)])
    return {"mean_abs_difference": float(np.mean(np.abs(ref[:, :, 0] - est[:, :, 0]))),
            "declarer_bias": float(np.mean(est[:, :, 0] - ref[:, :, 0])),
            "points_lost_by_its_choice": float(np.mean(lost)),
            "same_best_contract": float(same_contract), "same_best_trump": float(same_trump),
            "same_best_domino_rank": float(same_rank)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--mc-samples", type=int, default=32, help="deals of the unseen cards per hand (default 32)")
    ap.add_argument("--seed", type=int, default=909, help="the hands' and deals' seed (default 909)")
    ap.add_argument("--out", default=str(ROOT / "results" / "advise_check.json"))
    add_force(ap)
    args = ap.parse_args(argv)
    refuse_existing(args.out, args.force)
    hands = np.array([random_deal(args.seed, i)[0] for i in range(args.hands)], np.uint64)
    start = time.perf_counter()
    ref = estimates(hands, "mc", args.mc_samples, args.seed)
    mc_seconds = time.perf_counter() - start
    result = {"hands": args.hands, "samples": args.mc_samples, "seed": args.seed, "reference": "mc",
              "mc_seconds": round(mc_seconds, 1), "players": {}}
    for player in PLAYERS:
        est = estimates(hands, player, args.mc_samples, args.seed)
        result["players"][canonical_strategy(player)] = agreement(ref, est)
    write_json(args.out, result)
    print("| player | mean abs. difference from mc | declarer bias | points lost by its choice | same best contract "
          "| same trump | same rank |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, r in result["players"].items():
        print(f"| {name} | {r['mean_abs_difference']:.2f} | {r['declarer_bias']:+.2f} | "
              f"{r['points_lost_by_its_choice']:.2f} | {r['same_best_contract']:.0%} "
              f"| {r['same_best_trump']:.0%} | {r['same_best_domino_rank']:.0%} |")
    return result


if __name__ == "__main__":
    main()
