"""Clabber's card-play ladder: ``mc`` (or ``learned``) against ``heuristic``, paired on the same deals, as makers
and as defenders.

Every arm plays rounds ``0 .. N-1`` of one seed twice: once with every seat ``heuristic`` (the
baseline) and once with the player (``--players``, default ``mc``) at North (``seat``) or at North and
South (``team``), the other seats ``heuristic``.  Bidding is ``accept-first``, so the contract does not depend
on the card play: the dealer's left makes with the turned suit, and the two plays of a deal differ only by
North-South's cards.  Dealer West puts North-South in as makers, dealer North as defenders.

Each row gives the paired per-round differences (mc arm minus baseline) of North-South's round
score (what mc maximises) and of North-South's net score (theirs minus East-West's), each with
its 95% CI, how often the makers made it in each arm, and the speed of the mc arm (rounds/s, and
per thread).  Writes ``results/clabber/ladder.json``.

With ``--players learned,mc`` both play every arm on the same rounds, and each arm also gives
learned's share of mc's gain in North-South's round score, with a 95% CI (the delta method on the
paired per-round gains), and the paired difference ``learned gain - 0.6 x mc gain`` with its CI: above
zero, learned recovers at least 60% of mc's gain.

    python scripts/clabber_ladder.py --force                       # about 4 minutes on 2 cores
    python scripts/clabber_ladder.py --rounds 2000 --out /tmp/ladder.json
    python scripts/clabber_ladder.py --players learned,mc --out results/clabber/ladder-learned.json --force
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from barbu_sim.clabber.api import play_rounds  # noqa: E402
from barbu_sim.clabber.players.mc import DEFAULT_SAMPLES  # noqa: E402
from barbu_sim.clabber.rules import ROUND_COLUMNS  # noqa: E402
from barbu_sim.core.stats import summarize  # noqa: E402
from barbu_sim.core.outputs import add_force, refuse_existing, write_json  # noqa: E402

COL = {c: i for i, c in enumerate(ROUND_COLUMNS)}
ARMS = (("seat", "N"), ("team", "N+S"))
ROLES = (("makers", 3), ("defenders", 0))  # (role of North-South, dealer)


SHARE_TARGET = 0.6


def seats_of(arm: str, mc: str) -> list[str]:
    return [mc, "heuristic", mc if arm == "team" else "heuristic", "heuristic"]


def share_of(gain: np.ndarray, reference: np.ndarray) -> dict:
    """``mean(gain) / mean(reference)`` of paired per-round gains, with a 95% CI by the delta method, and the
    paired difference ``gain - SHARE_TARGET * reference`` summarized."""
    ratio = float(gain.mean() / reference.mean())
    se = float(np.std(gain - ratio * reference, ddof=1) / np.sqrt(len(gain)) / abs(reference.mean()))
    return {"share": ratio, "ci_low": ratio - 1.96 * se, "ci_high": ratio + 1.96 * se,
            f"gain_less_{SHARE_TARGET}_reference": summarize(gain - SHARE_TARGET * reference)}


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
    ap.add_argument("--players", default="mc", help="the players laddered, comma-separated: mc, learned (default mc)")
    ap.add_argument("--threads", type=int, default=None, help="worker threads (default: all cores)")
    ap.add_argument("--out", default=str(ROOT / "results" / "clabber" / "ladder.json"))
    add_force(ap)
    args = ap.parse_args(argv)
    threads = args.threads or numba.get_num_threads()
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    if not players or any(p not in ("mc", "learned") for p in players):
        sys.exit(f"Error: --players takes mc, learned or both (comma-separated), not {args.players!r}")
    refuse_existing(args.out, args.force)
    specs = {p: (f"mc:samples={args.samples}" if p == "mc" else p) for p in players}
    rows, shares = [], []
    for role, dealer in ROLES:
        base = play_rounds(args.seed, 0, args.rounds, dealer, "accept-first", "heuristic", threads=threads)
        assert (base[:, COL["maker"]] == (dealer + 1) % 4).all()  # accept-first: the dealer's left makes
        for arm, who in ARMS:
            gains = {}
            for name, mc in specs.items():
                play_rounds(args.seed + 1, 0, 8, dealer, "accept-first", seats_of(arm, mc), threads=1)  # compile/load
                start = time.perf_counter()
                test = play_rounds(args.seed, 0, args.rounds, dealer, "accept-first", seats_of(arm, mc),
                                   threads=threads)
                seconds = time.perf_counter() - start
                assert len(test) == len(base) == args.rounds
                assert (test[:, COL["maker"]] == base[:, COL["maker"]]).all()  # the same contracts: a paired comparison
                own = test[:, COL["score_ns"]].astype(np.int64) - base[:, COL["score_ns"]]
                net = (test[:, COL["score_ns"]].astype(np.int64) - test[:, COL["score_ew"]]) \
                    - (base[:, COL["score_ns"]].astype(np.int64) - base[:, COL["score_ew"]])
                gains[name] = own
                row = {"mc_seats": who, "arm": arm, "role": role, "rounds": args.rounds,
                       "own_diff": summarize(own), "net_diff": summarize(net),
                       "made_share_mc": made(test), "made_share_heuristic": made(base),
                       "rounds_per_s": args.rounds / seconds, "threads": threads,
                       "rounds_per_s_per_thread": args.rounds / seconds / threads}
                if players != ["mc"]:
                    row = {"player": mc, **row}
                rows.append(row)
                print(f"{name} at {who:<3} as {role:<9}  own {row['own_diff']['mean']:+6.2f} "
                      f"[{row['own_diff']['ci_low']:+.2f}, {row['own_diff']['ci_high']:+.2f}]  "
                      f"net {row['net_diff']['mean']:+6.2f} [{row['net_diff']['ci_low']:+.2f}, "
                      f"{row['net_diff']['ci_high']:+.2f}]  made {row['made_share_mc']:.3f} vs "
                      f"{row['made_share_heuristic']:.3f}  {row['rounds_per_s']:,.0f} rounds/s", flush=True)
            if "learned" in gains and "mc" in gains:
                share = {"arm": arm, "role": role, **share_of(gains["learned"], gains["mc"])}
                shares.append(share)
                print(f"learned's share of mc's gain at {who:<3} as {role:<9} {share['share']:.0%} "
                      f"[{share['ci_low']:.0%}, {share['ci_high']:.0%}]", flush=True)
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
    if players != ["mc"]:
        data["what"] = data["what"].replace("mc card play", " and ".join(players) + " card play")
        data["beats_heuristic"] = data.pop("mc_beats_heuristic")
        data["players"] = [specs[p] for p in players]
    if shares:
        data["learned_share_of_mc_gain"] = shares
    write_json(args.out, data)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
