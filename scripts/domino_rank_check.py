"""Which Domino starting rank should the declarer name? A paired check at every seat of one player.

The strong study names the best fixed rank from a million deals of a fast player; this checks the
ranks that matter with the strongest (and slowest) player, on deals of a seed the study never used.
Every deal is played from each rank in ``--ranks`` with ``--strategy`` at all four seats, North
declaring; the declarer's score from each rank is paired per deal with its score from the first rank
listed, and each difference gets a 95% CI over deals.  It answers "is rank A better than rank B
for the declarer under strong play", which the study's single best rank cannot.

    python scripts/domino_rank_check.py --ranks 2,8 --deals 40000 --force         # mc at every seat
    python scripts/domino_rank_check.py --ranks 2,A,8 --deals 2000 --strategy learned --out /tmp/ranks.json
    python scripts/domino_rank_check.py --ranks 2,8 --deals 40000 --backend ray --force   # blocks as Ray tasks

Blocks of deals are kept under ``--work`` as they finish: Ctrl-C loses at most the blocks in
flight, and the same command goes on from there (a block depends only on the seed and its deals,
so the figures are the same however often it stops).  The figures go to ``--out`` (JSON; an existing
file is replaced only with ``--force``, checked before any play) and are printed as a Markdown table.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np

from barbu_sim.barbu.api import play_batch
from barbu_sim.barbu.players.registry import canonical_strategy, resolve_strategy
from barbu_sim.barbu.rules import DOMINO
from barbu_sim.core.backends import make_backend
from barbu_sim.core.cards import RANK_NAMES, parse_rank
from barbu_sim.core.stats import summarize

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from barbu_sim.core.outputs import add_force, check_out, write_json  # noqa: E402
DEFAULT_SEED = 3031  # a seed no study of the project used
DECLARER = 0  # North; every seat is the same player, so one declarer seat is enough


def block_scores(strategy: str, ranks: tuple[int, ...], seed: int, lo: int, n: int) -> np.ndarray:
    """Deals ``lo .. lo + n - 1``: the declarer's score from each rank, ``(n, len(ranks))`` (a pure function)."""
    configs = [(DOMINO, r, DECLARER) for r in ranks]
    scores, _ = play_batch(seed, lo, n, configs, strategy)
    return scores[:, :, DECLARER].astype(np.int16)


def parse_ranks(text: str) -> tuple[int, ...]:
    """``2,8,A`` -> rank numbers (0 = 2 .. 12 = A), at least two and none twice."""
    ranks = tuple(parse_rank(t.strip()) for t in text.split(",") if t.strip())
    if len(ranks) < 2 or len(set(ranks)) != len(ranks):
        raise ValueError(f"--ranks needs two or more different ranks (2,8 or 2,A,8), not {text!r}")
    return ranks


def table(rows: list[dict]) -> str:
    """The figures as a Markdown table."""
    out = ["| rank | declarer's mean (95% CI) | minus the first rank (95% CI) |", "|---|---:|---:|"]
    for r in rows:
        diff = "" if r["difference"] is None else \
            f"{r['difference']:+.2f} ({r['difference_ci_low']:+.2f} .. {r['difference_ci_high']:+.2f})"
        out.append(f"| {r['rank']} | {r['mean']:+.2f} ({r['ci_low']:+.2f} .. {r['ci_high']:+.2f}) | {diff} |")
    return "\n".join(out)


def summary(scores: np.ndarray, ranks: tuple[int, ...]) -> list[dict]:
    """One row per rank: the declarer's mean and, from the second rank on, its paired difference from the first."""
    rows = []
    for j, r in enumerate(ranks):
        s = summarize(scores[:, j])
        d = summarize(scores[:, j].astype(np.float64) - scores[:, 0]) if j else None
        rows.append({"rank": RANK_NAMES[r], "mean": s["mean"], "ci_low": s["ci_low"], "ci_high": s["ci_high"],
                     "difference": d and d["mean"], "difference_ci_low": d and d["ci_low"],
                     "difference_ci_high": d and d["ci_high"]})
    return rows


def main(argv=None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ranks", default="2,8", help="starting ranks, comma-separated; each is compared with the "
                                                    "first (default 2,8)")
    ap.add_argument("--deals", type=int, default=2000, help="deals (default 2,000)")
    ap.add_argument("--strategy", default="mc", help="the player at every seat (default mc)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"default {DEFAULT_SEED}")
    ap.add_argument("--block", type=int, default=500, help="deals per block kept on disk (default 500)")
    ap.add_argument("--work", help="where the blocks are kept (default runs/domino-rank-check/STRATEGY-SEED)")
    ap.add_argument("--out", default=str(ROOT / "results" / "domino_rank_check.json"))
    ap.add_argument("--backend", default="local", help="local, or ray: blocks as Ray tasks (the same figures)")
    ap.add_argument("--ray-address")
    add_force(ap)
    args = ap.parse_args(argv)
    try:
        check_out(args.out, args.force)
        ranks = parse_ranks(args.ranks)
        resolve_strategy(args.strategy)
        if args.deals < 2 or args.block < 1:
            raise ValueError("--deals must be at least 2 and --block at least 1")
        backend = make_backend(args.backend, address=args.ray_address)
    except (ValueError, KeyError) as e:
        print(f"Error: {e}", file=sys.stderr)
        sys.exit(2)
    name = canonical_strategy(args.strategy)
    folder = re.sub(r"[^A-Za-z0-9@.-]+", "_", name)  # mc's parameters hold = and ,
    work = Path(args.work or ROOT / "runs" / "domino-rank-check" / f"{folder}-{args.seed}")
    work.mkdir(parents=True, exist_ok=True)
    tag = "-".join(RANK_NAMES[r] for r in ranks)
    blocks = [(lo, min(args.block, args.deals - lo)) for lo in range(0, args.deals, args.block)]
    path = {b: work / f"ranks-{tag}-{b[0]:08d}-{b[1]}.npy" for b in blocks}
    todo = [b for b in blocks if not path[b].exists()]
    t0 = time.perf_counter()
    print(f"{name} at every seat, Domino from {', '.join(RANK_NAMES[r] for r in ranks)}: {args.deals:,} deals of "
          f"seed {args.seed} ({len(blocks) - len(todo)} of {len(blocks)} blocks on disk)", flush=True)
    try:
        done = backend.imap(partial(block_scores, args.strategy, ranks, args.seed), todo, what="block of deals")
        for k, (b, scores) in enumerate(zip(todo, done), 1):
            tmp = path[b].with_suffix(".tmp.npy")
            np.save(tmp, scores)
            tmp.replace(path[b])  # a block is on disk whole or not at all
            print(f"  {k}/{len(todo)} blocks, {time.perf_counter() - t0:.0f} s", flush=True)
    except KeyboardInterrupt:
        print(f"Interrupted: the finished blocks are kept in {work}; the same command goes on.", file=sys.stderr)
        sys.exit(130)
    scores = np.concatenate([np.load(path[b]) for b in blocks])
    assert len(scores) == args.deals
    rows = summary(scores, ranks)
    write_json(args.out, {
        "strategy": name, "seed": args.seed, "deals": args.deals, "declarer": "N",
        "method": "Domino, the same player at every seat, North declaring; each deal played from every rank; "
                  "the declarer's score from each rank minus its score from the first rank, paired per deal; "
                  "95% normal CI over deals (scripts/domino_rank_check.py)",
        "command": "python scripts/domino_rank_check.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "rows": rows})
    print(table(rows))
    return rows


if __name__ == "__main__":
    main()
