"""Expert iteration: train the next `learned` on the estimates of an `mc` that plays with the last one.

Round k (1, 2, ...) makes its data with round k-1's model (round 0's is the first model, kept as
barbu_sim/barbu/players/models/learned1.json: `python scripts/train_player.py` makes it from seed
2027 with heuristic rollouts as the teacher):

1. **Data** (`scripts/train_player.py --teacher-model`): deals of seed `--seed + k`, every legal
   card of every real decision valued by `mc:rollout=learned` on the previous model (its rollouts
   play that model), and each seat playing, by a draw, like that model (its own positions, as
   DAgger takes them), like `mc` or like `heuristic`.
2. **Fit**: a network of `--hidden` units on that data (the first model's, 16 and 32 in Trumps, by
   default).  `--hidden` may be given once per round: round k takes the k-th, later rounds the last
   (round 2 got 32 units everywhere after a held-out and head-to-head comparison: docs/learned-player.md).
3. **Head to head**: the new model at one seat among three of the previous one, against the
   previous one in that seat on the same deals (every seat and declarer: 16 plays a deal), per
   contract and over the seven together, with 95% CIs (`scripts/ladder.py`'s pairing).

The rounds go on while a round gains: the next round starts only when the seven together's CI
is above 0, up to `--rounds`.  Everything is kept under `--work` (`round-K/`: the data chunks,
resumable, and `model.json`), and the rounds' figures go to `--out`.  The chain is reproducible
from its seed: the same command makes the same models, byte for byte.

    python scripts/expert_iteration.py --rounds 1 --backend ray --force  # about 40 minutes on 2 cores
    python scripts/expert_iteration.py --rounds 3 --deals 90000 --check-deals 6000 --force
    # 32 units from round 2:
    python scripts/expert_iteration.py --rounds 3 --hidden 16,trumps=32 --hidden 32 --backend ray --force

To install round k's model as `learned`, copy `round-K/model.json` to
barbu_sim/barbu/players/models/learned.json and add `"output_sum": "tree"` to it (its output layer then adds
as a tree, 1.35 times the speed; the chain's own models add in order, so that a rerun makes the same bytes);
`learned1`, the first model, stays as it is. Then play the published answers again (docs/learned-player.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

import ladder  # noqa: E402
import train_player  # noqa: E402
from barbu_sim.barbu.players.learned import load_model, model_path  # noqa: E402
from barbu_sim.barbu.rules import CONTRACTS  # noqa: E402
from barbu_sim.core.backends import make_backend  # noqa: E402
from barbu_sim.core.seats import N_SEATS  # noqa: E402
from barbu_sim.core.stats import summarize  # noqa: E402
from barbu_sim.core.outputs import add_force, check_out, write_json  # noqa: E402

DEFAULT_SEED = train_player.DEFAULT_SEED  # round 0's data seed: the first model's
CHECK_SEED = 9100  # the head-to-head deals' seed (deals no training round used)


def head_to_head(new: np.ndarray, previous: np.ndarray, deals: int, seed: int, backend, log) -> dict:
    """The new model at one seat among three of the previous, against the previous in that seat (paired)."""
    models = np.ascontiguousarray(np.concatenate([new, previous]))
    contracts = list(range(len(CONTRACTS)))
    strong = np.zeros((deals, len(contracts)))
    weak = np.zeros((deals, len(contracts)))
    block = max(1, min(2000, deals // 4))
    blocks = [(lo, min(block, deals - lo)) for lo in range(0, deals, block)]
    play = _BlockPlayer(contracts, seed, models)
    t0 = time.perf_counter()
    for (lo, n), (s, w) in zip(blocks, backend.imap(play, blocks, what="block of deals")):
        strong[lo:lo + n], weak[lo:lo + n] = s, w
        log(f"  head to head: {lo + n:,}/{deals:,} deals, {time.perf_counter() - t0:.0f} s")
    plays = N_SEATS * N_SEATS
    rows = []
    for j, c in enumerate(contracts):
        d = summarize((strong[:, j] - weak[:, j]) / plays)
        rows.append({"contract": CONTRACTS[c], "difference": round(d["mean"], 4), "ci_low": round(d["ci_low"], 4),
                     "ci_high": round(d["ci_high"], 4)})
    total = summarize((strong - weak).sum(axis=1) / plays)
    return {"deals": deals, "seed": seed, "contracts": rows,
            "seven": {"difference": round(total["mean"], 4), "ci_low": round(total["ci_low"], 4),
                      "ci_high": round(total["ci_high"], 4)}}


def round_hidden(hidden: list[str], k: int) -> str:
    """Round ``k``'s hidden units (1-based): the k-th of the ``--hidden`` values, the last one past their end."""
    return hidden[min(k, len(hidden)) - 1]


class _BlockPlayer:
    """One block of head-to-head deals (a picklable callable, for Ray)."""

    def __init__(self, contracts, seed, models):
        self.contracts, self.seed, self.models = contracts, seed, models

    def __call__(self, lo, n):
        return ladder.block_sums("learned", "learned1", self.contracts, self.seed, lo, n, models=self.models)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=1, help="the most rounds (default 1); a round that does not gain "
                    "ends the chain")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"round k's data is made from seed + k (default "
                    f"{DEFAULT_SEED}, the first model's)")
    ap.add_argument("--deals", type=int, default=90_000, help="training deals per round (default 90,000)")
    ap.add_argument("--samples", type=int, default=32, help="mc layouts per decision (default 32)")
    ap.add_argument("--mc-share", type=float, default=0.3333, help="the chance a seat plays like mc (default 0.3333)")
    ap.add_argument("--learned-share", type=float, default=0.3333,
                    help="the chance a seat plays like the previous model (default 0.3333; heuristic the rest)")
    ap.add_argument("--hidden", action="append", default=None,
                    help=f"hidden units per contract, as train_player.py takes them (default "
                    f"{train_player.DEFAULT_HIDDEN}); give it "
                    "once per round to change it: round k takes the k-th, later rounds the last")
    ap.add_argument("--check-deals", type=int, default=6000, help="head-to-head deals per round (default 6,000)")
    ap.add_argument("--first-model", default=str(model_path("learned1")),
                    help="round 0's model (default the packaged learned1)")
    ap.add_argument("--work", default=str(ROOT / "runs" / "expert"), help="where each round's data and model go")
    ap.add_argument("--out", default=str(ROOT / "results" / "expert_iteration.json"))
    ap.add_argument("--backend", default="local", help="local, or ray: data chunks and head-to-head blocks as Ray "
                    "tasks (the same bytes)")
    ap.add_argument("--ray-address", default=None)
    ap.add_argument("--no-progress", action="store_true")
    add_force(ap, "replace --out if it exists (without it, an existing file is refused before any work); the "
                  "rounds' models under --work are the chain's own, and a rerun remakes them")
    args = ap.parse_args(argv)
    for flag, value in (("--rounds", args.rounds), ("--deals", args.deals), ("--check-deals", args.check_deals),
                        ("--samples", args.samples)):
        if value < 1:
            sys.exit(f"Error: {flag} must be at least 1, not {value}")
    hidden = args.hidden or [train_player.DEFAULT_HIDDEN]
    try:
        for text in hidden:
            train_player.parse_hidden(text)  # a bad value is refused now, not after a round of work
        previous_path = Path(args.first_model)
        previous = load_model(str(previous_path.resolve()))[0]
        check_out(args.out, args.force)  # refused now, not after a round of work
        backend = make_backend(args.backend, args.ray_address)
    except (OSError, ValueError) as e:
        sys.exit(f"Error: {getattr(e, 'strerror', None) or e}")
    log = (lambda m: None) if args.no_progress else (lambda m: print(m, file=sys.stderr, flush=True))
    rounds = []
    for k in range(1, args.rounds + 1):
        folder = Path(args.work) / f"round-{k}"
        model_file = folder / "model.json"
        started = time.perf_counter()
        train_player.main(["--seed", str(args.seed + k), "--deals", str(args.deals), "--samples", str(args.samples),
                           "--teacher-model", str(previous_path), "--mc-share", str(args.mc_share),
                           "--learned-share", str(args.learned_share), "--data", str(folder / "data"),
                           "--hidden", round_hidden(hidden, k),
                           "--out", str(model_file), "--force", "--backend", args.backend]
                          + (["--ray-address", args.ray_address] if args.ray_address else [])
                          + (["--no-progress"] if args.no_progress else []))
        made = time.perf_counter() - started
        new, new_id = load_model(str(model_file.resolve()))
        check = head_to_head(new, previous, args.check_deals, CHECK_SEED + k, backend, log)
        trained = json.loads(model_file.read_text())["training"]
        rounds.append({"round": k, "model": f"learned@{new_id}",
                       "teacher": f"mc:rollout=learned on learned@{load_model(str(previous_path.resolve()))[1]}",
                       "command": trained["command"], "held_out": trained["held_out"],
                       "seconds": round(made), "head_to_head": check})
        s = check["seven"]
        print(f"round {k}: learned@{new_id} against the previous model, seven contracts: {s['difference']:+.2f} "
              f"({s['ci_low']:+.2f} .. {s['ci_high']:+.2f}) points a deal")
        out = {"method": "round k: data of seed SEED + k taught by mc:rollout=learned on round k-1's model; the new "
                         "model at one seat among three of the previous one against the previous one in that seat, "
                         "same deals, every seat and declarer (16 plays a deal), 95% CI over deals",
               "command": "python scripts/expert_iteration.py " + " ".join(argv if argv is not None else sys.argv[1:]),
               "rounds": rounds}
        write_json(args.out, out, indent=1)  # after each round: the figures so far
        if s["ci_low"] <= 0:
            print(f"round {k} does not gain by its CI: the chain ends")
            break
        previous, previous_path = new, model_file


if __name__ == "__main__":
    main()
