"""The strength ladder: how much better each rung plays than the one below it, per contract.

For a pair STRONG:WEAK and each contract, the strong player sits at one seat among
three weak ones; its score is compared with the weak player's score in that same
seat on the same deals (all four seats weak), with the declarer at each seat in
turn and the strong player at each seat in turn (16 plays per deal).  A deal's 16
differences are averaged into one number, and the table gives the mean over the
deals with a 95% CI (deals are independent; the 16 plays of one deal are not).

Trumps is played with the declarer's longest suit as trumps (the `run` default),
Domino from 7.  Results go to results/ladder.json and a Markdown table is printed.  An
existing file is refused unless `--merge` (its rows of pairs and contracts not run this time
are kept, so that a slow rung can be added later) or `--force` (it is replaced) is given.

    python scripts/ladder.py --merge                              # basic:random and heuristic:basic, 200,000 deals
    python scripts/ladder.py --pairs heuristic:basic --deals 500000 --merge
    python scripts/ladder.py --pairs basic:random,mc:samples=64:heuristic --deals 200000,2000 --merge
    python scripts/ladder.py --pairs heuristic:basic -c barbu -c trumps --deals 2000 --out /tmp/l.json

A pair is STRONG:WEAK; each side is a strategy name, with parameters if it takes
them (`mc:samples=64,rollout=basic`), or path/to/file.py:function.  `--deals`
is one count for every pair or one per pair, in order.
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np

from barbu_sim.barbu.api import play_batch
from barbu_sim.barbu.rules.choices import DEFAULT_DOMINO_RANK, TRUMP_LONGEST
from barbu_sim.barbu.rules import CONTRACTS, DOMINO, TRUMPS, parse_contract
from barbu_sim.barbu.players.registry import resolve_strategy
from barbu_sim.core.backends import LocalBackend, make_backend
from barbu_sim.core.seats import N_SEATS
from barbu_sim.core.stats import summarize

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from barbu_sim.core.outputs import add_force, check_out, read_rows, write_json  # noqa: E402

DEFAULT_PAIRS = "basic:random,heuristic:basic"
RUNGS = ["random", "basic", "heuristic", "learned1", "learned", "pimc", "mc"]
PARAMS = {TRUMPS: TRUMP_LONGEST, DOMINO: DEFAULT_DOMINO_RANK}


def _rung(spec: str) -> int:
    """Where a strategy stands on the ladder (unknown names last), for the order of the rows."""
    name = spec.split(":")[0]
    return RUNGS.index(name) if name in RUNGS else len(RUNGS)


def _specs(text: str) -> list[str]:
    """``a:b:k=v,k=v:c`` → strategy specs: a segment holding ``=`` is the previous name's parameters,
    and a ``file.py`` segment takes the function name after it."""
    out: list[str] = []
    for seg in text.split(":"):
        if out and ("=" in seg or out[-1].endswith(".py")):
            out[-1] += ":" + seg
        else:
            out.append(seg)
    return [s.strip() for s in out]


def parse_pairs(text: str) -> list[tuple[str, str]]:
    """``"heuristic:basic,mc:samples=64,rollout=basic:heuristic"``
    → ``[("heuristic", "basic"), ("mc:...", "heuristic")]``.

    Pairs are separated by commas; a comma followed by ``key=value`` continues the
    parameters of the strategy before it.
    """
    pieces: list[str] = []
    for tok in text.split(","):
        if pieces and "=" in tok.split(":")[0]:
            pieces[-1] += "," + tok
        else:
            pieces.append(tok)
    pairs = []
    for piece in pieces:
        specs = _specs(piece)
        if len(specs) != 2 or not all(specs):
            raise ValueError(f"a pair is STRONG:WEAK (e.g. heuristic:basic), not {piece.strip()!r}")
        pairs.append((specs[0], specs[1]))
    if not pairs:
        raise ValueError("give at least one pair")
    return pairs


def parse_deals(text: str, n_pairs: int) -> list[int]:
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(f"--deals takes a count or one count per pair, not {text!r}") from None
    if len(counts) == 1:
        counts *= n_pairs
    if len(counts) != n_pairs:
        raise ValueError(f"--deals gives {len(counts)} counts for {n_pairs} pairs")
    if min(counts) < 2:
        raise ValueError("--deals must be at least 2")
    return counts


def block_sums(strong: str, weak: str, contracts: list[int], seed: int, lo: int, n: int, models=None):
    """Deals ``lo .. lo + n - 1``: per deal and contract, the strong and the weak player's score summed
    over the seats and declarers, each ``(n, len(contracts))`` (a pure function: any process may play it).
    ``models``: the learned players' models, when not the installed ones (``api.play_batch``)."""
    configs = [(c, PARAMS.get(c, 0), d) for c in contracts for d in range(N_SEATS)]
    k = len(contracts)
    strong_sum, weak_sum = np.zeros((n, k)), np.zeros((n, k))
    base, _ = play_batch(seed, lo, n, configs, weak, models=models)
    base = base.reshape(n, k, N_SEATS, N_SEATS).astype(np.float64)  # deal, contract, declarer, seat
    for seat in range(N_SEATS):
        mix = [weak] * N_SEATS
        mix[seat] = strong
        s, _ = play_batch(seed, lo, n, configs, mix, models=models)
        s = s.reshape(n, k, N_SEATS, N_SEATS)
        strong_sum += s[:, :, :, seat].sum(axis=2)
        weak_sum += base[:, :, :, seat].sum(axis=2)
    return strong_sum, weak_sum


def measure(strong: str, weak: str, contracts: list[int], deals: int, seed: int, block: int = 50_000,
            log=None, backend=None) -> list[dict]:
    """One row per contract: the strong player's mean gain over the weak one in the same seat (paired).

    ``backend`` (barbu_sim.core.backends; default this process) plays the blocks; the rows are the same.
    """
    k = len(contracts)
    strong_sum = np.zeros((deals, k))
    weak_sum = np.zeros((deals, k))
    t0 = time.perf_counter()
    blocks = [(lo, min(block, deals - lo)) for lo in range(0, deals, block)]
    sums = (backend or LocalBackend()).imap(partial(block_sums, strong, weak, contracts, seed), blocks,
                                            what="block of deals")
    for (lo, n), (strong_block, weak_block) in zip(blocks, sums):
        strong_sum[lo:lo + n] += strong_block
        weak_sum[lo:lo + n] += weak_block
        if log:
            log(f"  {strong} vs {weak}: {lo + n:,}/{deals:,} deals, {time.perf_counter() - t0:.0f} s")
    plays = N_SEATS * N_SEATS
    rows = []
    for j, c in enumerate(contracts):
        diff = summarize((strong_sum[:, j] - weak_sum[:, j]) / plays)
        rows.append({"strong": strong, "weak": weak, "contract": CONTRACTS[c], "deals": deals, "plays": deals * plays,
                     "strong_mean": float(strong_sum[:, j].mean() / plays),
                     "weak_mean": float(weak_sum[:, j].mean() / plays),
                     "difference": diff["mean"], "se": diff["se"], "ci_low": diff["ci_low"],
                     "ci_high": diff["ci_high"]})
    return rows


def markdown(rows: list[dict]) -> str:
    lines = ["| stronger | weaker | contract | deals | stronger seat | weaker seat | difference (95% CI) |",
             "|---|---|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| `{r['strong']}` | `{r['weak']}` | {r['contract']} | {r['deals']:,} | "
                     f"{r['strong_mean']:+.2f} | {r['weak_mean']:+.2f} | "
                     f"{r['difference']:+.3f} ({r['ci_low']:+.3f} .. {r['ci_high']:+.3f}) |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", default=DEFAULT_PAIRS,
                    help=f"STRONG:WEAK pairs, comma-separated (default {DEFAULT_PAIRS})")
    ap.add_argument("--deals", default="200000", help="deals per pair: one count, or one per pair (comma-separated)")
    ap.add_argument("-c", "--contract", action="append", help="a contract (repeatable; default all seven)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--block", type=int, default=50_000, help="deals per batch (progress is printed per block)")
    ap.add_argument("--out", default=str(ROOT / "results" / "ladder.json"))
    ap.add_argument("--merge", action="store_true", help="add the rows to an existing --out of the same seed, "
                    "keeping its rows of other pairs (or other contracts of these pairs)")
    add_force(ap, "replace --out if it exists (without it or --merge, an existing file is refused before any work)")
    ap.add_argument("--backend", default="local", help="local, or ray: blocks as Ray tasks (same rows)")
    ap.add_argument("--ray-address", default=None,
                    help="with --backend ray: auto or HOST:PORT (default: a local instance)")
    args = ap.parse_args(argv)
    try:
        pairs = parse_pairs(args.pairs)
        counts = parse_deals(args.deals, len(pairs))
        contracts = [int(parse_contract(c)) for c in args.contract] if args.contract else list(range(len(CONTRACTS)))
        for pair in pairs:
            for spec in pair:
                resolve_strategy(spec)
        if args.block < 1 or not 0 <= args.seed < 2**64:
            raise ValueError("--block must be positive and --seed in 0..2^64-1")
        out = check_out(args.out, args.force or args.merge, merge="--merge")
        if args.merge and not args.force and out.is_symlink() and not out.exists():
            raise ValueError(f"--out {out} is a link that points nowhere: --merge has no rows to add to; give "
                             "--force to replace it, or name another file")
        kept = []
        if args.merge and out.exists():
            old = read_rows(out, ("strong", "weak", "contract"))
            if old.get("seed") == args.seed:
                done = {(s, w, CONTRACTS[c]) for s, w in pairs for c in contracts}
                kept = [r for r in old["rows"] if (r["strong"], r["weak"], r["contract"]) not in done]
        backend = make_backend(args.backend, args.ray_address)
        backend.connect()
    except ValueError as e:
        print(f"Error: {e}", file=sys.stderr)
        sys.exit(2)

    rows = []
    for (strong, weak), n in zip(pairs, counts):
        t0 = time.perf_counter()
        new = measure(strong, weak, contracts, n, args.seed, args.block,
                      log=lambda m: print(m, file=sys.stderr, flush=True), backend=backend)
        for r in new:
            r["seconds"] = round(time.perf_counter() - t0, 1)
        rows += new
    allrows = sorted(kept + rows, key=lambda r: (_rung(r["weak"]), _rung(r["strong"]), r["weak"], r["strong"],
                                                 CONTRACTS.index(r["contract"])))
    write_json(out, {"seed": args.seed, "trumps": "longest", "domino_rank": "7",
                     "method": "one seat of the stronger player among three of the weaker, against the "
                               "weaker player in that seat on the same deals; every seat and declarer "
                               "position; per-deal mean of the 16 plays; 95% normal CI over deals",
                     "rows": allrows})
    print(markdown(rows))


if __name__ == "__main__":
    main()
