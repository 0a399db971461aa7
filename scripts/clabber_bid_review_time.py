"""How long the review of one Clabber round's bidding takes, at the review's default sizes.

Rounds ``0 .. N-1`` of one seed are played (``threshold`` bidding, ``heuristic`` card play, the
dealer rotating), read back as played-round files, and each round's bidding is reviewed
(:func:`barbu_sim.clabber.review.bidding.review_bidding`, every seat) ``--repeats`` times; the
engine is compiled (or loaded) first, outside the timings.  Per round: its calls, the options
valued, the median seconds; over the rounds: the median of the rounds' medians and the seconds per
option (one option on one call: ``--samples`` layouts, each a round played out by mc at every
seat).  Writes ``results/clabber/bid_review_time.json``.

    python scripts/clabber_bid_review_time.py --force              # about a minute on 2 cores, cached
    python scripts/clabber_bid_review_time.py --rounds 2 --samples 4 --play-samples 2 --out /tmp/t.json
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from barbu_sim.clabber.api import play_round
from barbu_sim.clabber.review.bidding import call_options, review_bidding
from barbu_sim.clabber.formats.round_file import format_round_log, parse_rounds, round_of
from barbu_sim.clabber.players.mc import DEFAULT_SAMPLES
from barbu_sim.core.outputs import add_force, refuse_existing, write_json

ROOT = Path(__file__).resolve().parent.parent


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=6, help="rounds reviewed (default 6)")
    ap.add_argument("--repeats", type=int, default=3, help="reviews of each round (default 3)")
    ap.add_argument("--samples", type=int, default=64, help="layouts per call (default 64, review's)")
    ap.add_argument("--play-samples", type=int, default=DEFAULT_SAMPLES, help="mc's layouts per card decision")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=str(ROOT / "results" / "clabber" / "bid_review_time.json"))
    add_force(ap)
    args = ap.parse_args(argv)
    refuse_existing(args.out, args.force)
    rounds = [parse_rounds(format_round_log(round_of(play_round(args.seed, i, i % 4, "threshold", "heuristic"))),
                           "round.txt", ValueError)[0] for i in range(args.rounds)]
    start = time.perf_counter()
    review_bidding(rounds[0], seats=[rounds[0].bids[0][0]], samples=2, play_samples=1)  # compile or load
    first_call_s = time.perf_counter() - start
    rows = []
    for i, rnd in enumerate(rounds):
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            calls, _ = review_bidding(rnd, samples=args.samples, play_samples=args.play_samples)
            times.append(time.perf_counter() - start)
        options = sum(len(call_options(rnd, d.call_no)) for d in calls)
        rows.append({"round": i, "calls": len(rnd.bids), "reviewed_calls": len(calls), "options": options,
                     "labelled": sum(1 for d in calls if d.label), "median_s": statistics.median(times),
                     "times_s": times})
    median = statistics.median(r["median_s"] for r in rows)
    per_option = sum(r["median_s"] for r in rows) / max(1, sum(r["options"] for r in rows))
    out = {"command": "python scripts/clabber_bid_review_time.py "
                      + " ".join(argv if argv is not None else sys.argv[1:]),
           "seed": args.seed, "samples": args.samples, "play_samples": args.play_samples, "repeats": args.repeats,
           "median_round_s": median, "seconds_per_option": per_option, "compile_or_load_s": first_call_s,
           "rounds": rows, "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                                       "load_average_1m": os.getloadavg()[0]}}
    write_json(args.out, out, indent=1)
    print(f"review of one round's bidding: median {median:.2f} s over {len(rows)} rounds "
          f"({args.samples} layouts, mc samples={args.play_samples}); {per_option:.3f} s per option valued")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
