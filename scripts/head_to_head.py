r"""Two learned-player model files head to head: is the first better than the second?

The first model sits at one seat among three of the second, and is compared with the second in that
seat on the same deals (every seat and declarer in turn: 16 plays a deal), per contract and over the
seven together, with 95% CIs over deals (expert iteration's round check, `scripts/expert_iteration.py`).
The CIs count the deals, not the fits: two fits of the same network on the same data differ by about
0.05 points a contract (docs/learned-player.md).  The figures, both models' ids and their held-out
reports go to `--out` (JSON; an existing file is replaced only with `--force`, checked before any
deal is played); a Markdown row is printed.

    python scripts/head_to_head.py runs/expert/round-2/model.json runs/expert/round-2-16.json --seed 9101 \
        --out results/network_growth.json --force
    python scripts/head_to_head.py NEW.json OLD.json --deals 2000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

import expert_iteration  # noqa: E402
from barbu_sim.barbu.players.learned import load_model  # noqa: E402
from barbu_sim.core.backends import make_backend  # noqa: E402
from barbu_sim.core.files import read_json  # noqa: E402
from barbu_sim.core.outputs import add_force, check_out, write_json  # noqa: E402


def _signed(x: float) -> str:
    return ("+" if x >= 0 else "−") + f"{abs(x):.2f}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("new", help="the model file that sits at one seat")
    ap.add_argument("old", help="the model file of the other three seats, and of the seat it is compared with")
    ap.add_argument("--deals", type=int, default=6000, help="deals (default 6,000)")
    ap.add_argument("--seed", type=int, default=expert_iteration.CHECK_SEED, help="the deals' seed (default "
                    f"{expert_iteration.CHECK_SEED}; expert iteration's round k uses "
                    f"{expert_iteration.CHECK_SEED} + k)")
    ap.add_argument("--out", default=None, help="also write the figures to this JSON file")
    ap.add_argument("--backend", default="local", help="local, or ray: blocks of deals as Ray tasks (the same figures)")
    add_force(ap)
    args = ap.parse_args(argv)
    if args.deals < 1:
        sys.exit(f"Error: --deals must be at least 1, not {args.deals}")
    try:
        if args.out is not None:
            check_out(args.out, args.force)  # before the deals are played, not after
        (new, new_id), (old, old_id) = (load_model(str(Path(args.new).resolve())),
                                        load_model(str(Path(args.old).resolve())))
        backend = make_backend(args.backend, None)
    except ValueError as e:
        sys.exit(f"Error: {e}")
    result = expert_iteration.head_to_head(new, old, args.deals, args.seed, backend, lambda m: None)
    models = {}
    for role, path, ident in (("new", args.new, new_id), ("old", args.old, old_id)):
        training = read_json(path).get("training")  # read once already, as the model (a BOM is allowed)
        training = training if isinstance(training, dict) else {}
        models[role] = {"file": path, "model": f"learned@{ident}", "training_command": training.get("command"),
                        "held_out": training.get("held_out")}
    out = {"method": "the new model at one seat among three of the old one, against the old one in that seat, same "
                     "deals, every seat and declarer (16 plays a deal), 95% CI over deals",
           "command": "python scripts/head_to_head.py " + " ".join(argv if argv is not None else sys.argv[1:]),
           "models": models, "head_to_head": result}
    if args.out is not None:
        write_json(args.out, out, indent=1)
    cells = [f"{_signed(r['difference'])} ({_signed(r['ci_low'])} .. {_signed(r['ci_high'])})"
             for r in result["contracts"]]
    s = result["seven"]
    print("| " + " | ".join(r["contract"] for r in result["contracts"]) + " | seven together |")
    print("|" + "---:|" * (len(cells) + 1))
    print("| " + " | ".join(cells)
          + f" | {_signed(s['difference'])} ({_signed(s['ci_low'])} .. {_signed(s['ci_high'])}) |")


if __name__ == "__main__":
    main()
