"""Clabber's card-play ladder: ``mc`` against ``heuristic``, paired on the same deals, as makers and as defenders.

Every arm plays rounds ``0 .. N-1`` of one seed twice: once with every seat ``heuristic`` (the
baseline) and once with ``mc`` at North (``seat``) or at North and South (``team``), the other
seats ``heuristic``.  Bidding is ``accept-first``, so the contract does not depend on the card
play: the dealer's left makes with the turned suit, and the two plays of a deal differ only by
North-South's cards.  Dealer West puts North-South in as makers, dealer North as defenders.

Each row gives the paired per-round differences (mc arm minus baseline) of North-South's round
score (what mc maximises) and of North-South's net score (theirs minus East-West's), each with
its 95% CI, how often the makers made it in each arm, and the speed of the mc arm (rounds/s, and
per thread).  Writes ``results/clabber/ladder.json``.

    python scripts/clabber_ladder.py                               # about 4 minutes on 2 cores
    python scripts/clabber_ladder.py --rounds 2000 --out /tmp/ladder.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from barbu_sim.clabber.api import play_rounds  # noqa: E402
from barbu_sim.clabber.players.mc import DEFAULT_SAMPLES  # noqa: E402
from barbu_sim.clabber.rules import ROUND_COLUMNS  # noqa: E402
from barbu_sim.core.stats import summarize  # noqa: E402

COL = {c: i for i, c in enumerate(ROUND_COLUMNS)}
ARMS = (("seat", "N"), ("team", "N+S"))
ROLES = (("makers", 3), ("defenders", 0))  # (role of North-South, dealer)


def seats_of(arm: str, mc: str) -> list[str]:
    return [mc, "heuristic", mc if arm == "team" else "heuristic", "heuristic"]


def made(rows: np.ndarray) -> float:
    """Share of rounds the makers made (scored more than nothing)."""
    maker_team = rows[:, COL["maker"]].astype(np.int64) & 1
    score = np.where(maker_team == 0, rows[:, COL["score_ns"]], rows[:, COL["score_ew"]])
    return float((score > 0).mean())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=40_000, help="rounds per arm (default 40,000)")
    ap.add_argument("--seed", type=int, default=2026, help="run seed (default 2026)")
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help=f"mc samples (default {DEFAULT_SAMPLES})")
    ap.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    ap.add_argument("--out", default=str(ROOT / "results" / "clabber" / "ladder.json"))
    args = ap.parse_args(argv)
    threads = args.threads or numba.get_num_threads()
    mc = f"mc:samples={args.samples}"
    rows = []
    for role, dealer in ROLES:
        base = play_rounds(args.seed, 0, args.rounds, dealer, "accept-first", "heuristic", threads=threads)
        assert (base[:, COL["maker"]] == (dealer + 1) % 4).all()  # accept-first: the dealer's left makes
        for arm, who in ARMS:
            play_rounds(args.seed + 1, 0, 8, dealer, "accept-first", seats_of(arm, mc), threads=1)  # compile/load
            start = time.perf_counter()
            test = play_rounds(args.seed, 0, args.rounds, dealer, "accept-first", seats_of(arm, mc), threads=threads)
            seconds = time.perf_counter() - start
            assert len(test) == len(base) == args.rounds
            assert (test[:, COL["maker"]] == base[:, COL["maker"]]).all()  # the same contracts: a paired comparison
            own = test[:, COL["score_ns"]].astype(np.int64) - base[:, COL["score_ns"]]
            net = (test[:, COL["score_ns"]].astype(np.int64) - test[:, COL["score_ew"]]) \
                - (base[:, COL["score_ns"]].astype(np.int64) - base[:, COL["score_ew"]])
            row = {"mc_seats": who, "arm": arm, "role": role, "rounds": args.rounds,
                   "own_diff": summarize(own), "net_diff": summarize(net),
                   "made_share_mc": made(test), "made_share_heuristic": made(base),
                   "rounds_per_s": args.rounds / seconds, "threads": threads,
                   "rounds_per_s_per_thread": args.rounds / seconds / threads}
            rows.append(row)
            print(f"mc at {who:<3} as {role:<9}  own {row['own_diff']['mean']:+6.2f} "
                  f"[{row['own_diff']['ci_low']:+.2f}, {row['own_diff']['ci_high']:+.2f}]  "
                  f"net {row['net_diff']['mean']:+6.2f} [{row['net_diff']['ci_low']:+.2f}, "
                  f"{row['net_diff']['ci_high']:+.2f}]  made {row['made_share_mc']:.3f} vs "
                  f"{row['made_share_heuristic']:.3f}  {row['rounds_per_s']:,.0f} rounds/s", flush=True)
    data = {
        "what": "mc card play against heuristic, paired on the same deals: per-round differences of North-South's "
                "round score (own) and net score (own minus opponents), mc arm minus all-heuristic baseline",
        "command": " ".join(["python scripts/clabber_ladder.py", *(sys.argv[1:] if argv is None else argv)]),
        "seed": args.seed, "samples": args.samples, "bidding": "accept-first",
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_average_at_end": [round(x, 2) for x in os.getloadavg()]},
        "rows": rows,
        "mc_beats_heuristic": all(r["own_diff"]["ci_low"] > 0 for r in rows),
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(data, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
