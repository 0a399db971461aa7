"""Train Clabber's `learned` player on `mc`'s own estimates, and write its model file.

Two steps, each reproducible from the seed:

1. **Data**: rounds of `--seed` played one card at a time, every legal card of every decision of more
   than one card valued by mc's estimator on `--samples` layouts
   (barbu_sim/clabber/played/training_data.py).  Chunks of `--chunk` rounds are kept under `--data`
   (one .npz each, with config.json: the settings they were made with), so an interrupted run goes
   on where it stopped; `--backend ray` makes them as Ray tasks (the same bytes).
2. **Fit**: a small network (a linear part plus `--hidden` rectified units) fitted to each card's
   value relative to the other cards of its decision (the player only compares the cards of one
   decision), by Adam on the squared error, from weights drawn from the seed.  Rounds whose index
   ends in 0 are held out: the report gives, for makers and defenders, how many points a decision
   loses on average against mc's best card following the heuristic and following the model (in
   mc's own estimates).

    # 200,000 rounds as Ray tasks, then the fit: about 9 minutes
    python scripts/train_clabber_player.py --backend ray --force
    python scripts/train_clabber_player.py --force        # the same bytes, one chunk at a time: 15 to 20 minutes
    python scripts/train_clabber_player.py --rounds 400 --data /tmp/cl-data --out /tmp/model.json
    python scripts/train_clabber_player.py --fit-only --force   # refit on the data already made

The packaged model is barbu_sim/clabber/players/models/learned.json (docs/clabber.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import zipfile
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from barbu_sim.clabber.played.training_data import generate_chunk  # noqa: E402
from barbu_sim.clabber.players.features import FEATURE_NAMES, N_FEATURES  # noqa: E402
from barbu_sim.clabber.players.learned import MAX_HIDDEN, MODEL_PATH  # noqa: E402
from barbu_sim.core.backends import make_backend  # noqa: E402
from barbu_sim.core.fitting import fit, groups_of, regrets  # noqa: E402
from barbu_sim.core.outputs import add_force, check_out, write_json  # noqa: E402

HOLD_OUT = 10  # rounds i with i % HOLD_OUT == 0 are held out
DEFAULTS = {"seed": 2031, "samples": 96, "chunk": 2000}  # the data's settings, as config.json records them
DEFAULT_ROUNDS = 200_000
SCALE = 0.1  # the values are fitted in tenths of points: the network's initial weights suit that size


class TrainError(ValueError):
    """A mistake in the arguments or the data folder: one line on stderr, exit code 2."""


def chunk_path(data: Path, lo: int, n: int) -> Path:
    return data / f"chunk-{lo:08d}-{n}.npz"


def data_settings(args) -> dict:
    """The settings of the data in ``--data``: its config.json's (a differing one given is refused), else
    those given or the defaults."""
    data = Path(args.data)
    given = {k: getattr(args, k) for k in DEFAULTS if getattr(args, k) is not None}
    record_path = data / "config.json"
    if not record_path.exists():
        if data.is_dir() and any(data.glob("chunk-*.npz")):
            raise TrainError(f"{data} holds data chunks but no config.json saying how they were made: "
                             "use another --data folder")
        return {**DEFAULTS, **given, "features": N_FEATURES}
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
        if not isinstance(record, dict) or any(not isinstance(record.get(k), int) for k in DEFAULTS):
            raise ValueError("not a record of seed, samples and chunk")
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise TrainError(f"{record_path} cannot be read ({e}): use another --data folder") from None
    if record.get("features") != N_FEATURES:
        raise TrainError(f"the data in {data} has {record.get('features')} features per card, this version computes "
                         f"{N_FEATURES}: use another --data folder")
    differ = {k: v for k, v in given.items() if record[k] != v}
    if differ:
        raise TrainError(f"the data in {data} was made with "
                         + ", ".join(f"--{k} {record[k]}" for k in differ) + ", not "
                         + ", ".join(f"--{k} {v}" for k, v in differ.items()) + ": give the data's settings, or "
                         "another --data folder")
    return {**{k: record[k] for k in DEFAULTS}, "features": N_FEATURES}


def planned(rounds: int, chunk: int) -> list[tuple[int, int]]:
    return [(lo, min(chunk, rounds - lo)) for lo in range(0, rounds, chunk)]


def make_data(args, settings: dict, rounds: int) -> list[Path]:
    """Every chunk's file, made where missing (resumable; each chunk a pure function of its arguments)."""
    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    if not (data / "config.json").exists():
        write_json(data / "config.json", settings, indent=None)
    chunks = planned(rounds, settings["chunk"])
    todo = [(settings["seed"], lo, n, settings["samples"]) for lo, n in chunks if not chunk_path(data, lo, n).exists()]
    backend = make_backend(args.backend, args.ray_address)
    done = len(chunks) - len(todo)
    for (_, lo, n, _), part in zip(todo, backend.imap(generate_chunk, todo, what="chunk")):
        tmp = data / f".tmp-{lo}.npz"
        np.savez(tmp, **part)
        tmp.rename(chunk_path(data, lo, n))
        done += 1
        print(f"  data: chunk {done} of {len(chunks)}", file=sys.stderr, flush=True)
    return [chunk_path(data, lo, n) for lo, n in chunks]


def present(data: Path, settings: dict, rounds: int | None) -> tuple[list[Path], int]:
    """For ``--fit-only``: the chunks of rounds 0 .. rounds - 1 (all must be there), or with ``rounds`` None every
    full run of chunks from round 0; and that number of rounds."""
    chunk = settings["chunk"]
    if rounds is not None:
        paths = [chunk_path(data, lo, n) for lo, n in planned(rounds, chunk)]
        missing = [p.name for p in paths if not p.exists()]
        if missing:
            raise TrainError(f"{data} lacks {len(missing)} of the {len(paths)} chunks of {rounds:,} rounds (the first: "
                             f"{missing[0]}): run without --fit-only to make them")
        return paths, rounds
    paths, lo = [], 0
    while True:
        found = [p for n in range(chunk, 0, -1) if (p := chunk_path(data, lo, n)).exists()]
        if not found:
            break
        paths.append(found[0])
        lo += int(found[0].stem.rsplit("-", 1)[1])
    if not paths:
        raise TrainError(f"no data chunks in {data}: run without --fit-only first")
    return paths, lo


def load(paths: list[Path]) -> dict:
    parts = []
    for p in paths:
        try:
            with np.load(p) as f:
                part = {k: f[k] for k in ("x", "y", "decision", "makers")}
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
            raise TrainError(f"data chunk {p} cannot be read ({type(e).__name__}): delete it and run without "
                             "--fit-only to make it again") from None
        if part["x"].ndim != 2 or part["x"].shape[1] != N_FEATURES:
            raise TrainError(f"data chunk {p} does not hold rows of {N_FEATURES} features: delete it")
        parts.append(part)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def train(data: dict, hidden: int, epochs: int, seed: int) -> tuple[dict, list[dict]]:
    """The model's weights and the held-out report (makers, defenders, all)."""
    rng = np.random.default_rng(seed)
    held = (data["decision"] // 32) % HOLD_OUT == 0
    x, y = data["x"].astype(np.float64), data["y"].astype(np.float64)
    g_tr, c_tr = groups_of(data["decision"][~held])
    started = time.perf_counter()
    net = fit(x[~held], y[~held] * SCALE, g_tr, c_tr, hidden, epochs, rng)
    print(f"  fitted on {len(c_tr):,} decisions in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    report = []
    for role, sel in (("makers", data["makers"]), ("defenders", ~data["makers"]), ("all", np.ones(len(y), bool))):
        s = held & sel
        g, c = groups_of(data["decision"][s])
        pred = net.forward(x[s])[0]
        model_r, heur_r = regrets(pred, y[s], g, c, x[s][:, 0] > 0.5)
        report.append({"role": role, "test_decisions": len(c), "heuristic_regret": round(heur_r, 4),
                       "model_regret": round(model_r, 4), "regret_removed": round(1 - model_r / heur_r, 3)})
    return {**net.to_json(), "scale": SCALE}, report


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=None, help=f"training rounds (default {DEFAULT_ROUNDS:,}; a tenth "
                    "held out; with --fit-only: default, every round of the data)")
    ap.add_argument("--samples", type=int, default=None, help=f"mc layouts per decision (default "
                    f"{DEFAULTS['samples']}, or the data's)")
    ap.add_argument("--seed", type=int, default=None, help=f"rounds and initial weights (default {DEFAULTS['seed']}, "
                    "or the data's)")
    ap.add_argument("--chunk", type=int, default=None, help=f"rounds per data chunk (default {DEFAULTS['chunk']}, or "
                    "the data's)")
    ap.add_argument("--hidden", type=int, default=64, help=f"hidden units, 0..{MAX_HIDDEN} (default 64)")
    ap.add_argument("--epochs", type=int, default=10, help="passes over the data (default 10)")
    ap.add_argument("--data", default=str(ROOT / "runs" / "clabber-learned-data"),
                    help="where the data chunks are kept, with config.json (a folder made with other settings is "
                         "refused)")
    ap.add_argument("--out", default=str(MODEL_PATH), help="the model file to write (default the packaged model)")
    add_force(ap, "replace --out if it exists, as the packaged model does (without it, an existing file is refused "
                  "before any work)")
    ap.add_argument("--fit-only", action="store_true", help="make no data: fit on the chunks already in --data")
    ap.add_argument("--backend", default="local", help="local, or ray: the data chunks as Ray tasks (same bytes)")
    ap.add_argument("--ray-address", default=None)
    args = ap.parse_args(argv)
    try:
        for flag, value in (("--rounds", args.rounds), ("--samples", args.samples), ("--chunk", args.chunk),
                            ("--epochs", args.epochs)):
            if value is not None and value < 1:
                raise TrainError(f"{flag} must be at least 1, not {value}")
        if not 0 <= args.hidden <= MAX_HIDDEN:
            raise TrainError(f"--hidden must be 0..{MAX_HIDDEN}, not {args.hidden}")
        if Path(args.out).is_dir():
            raise TrainError(f"--out {args.out} is a folder: name the model file to write")
        check_out(args.out, args.force)  # the model file (by default the packaged one): replaced only when asked
        settings = data_settings(args)
        start = time.perf_counter()
        if args.fit_only:
            paths, rounds = present(Path(args.data), settings, args.rounds)
        else:
            rounds = DEFAULT_ROUNDS if args.rounds is None else args.rounds
            paths = make_data(args, settings, rounds)
        made = time.perf_counter() - start
        data = load(paths)
    except ValueError as e:
        sys.exit(f"Error: {e}")
    seed, samples, chunk = settings["seed"], settings["samples"], settings["chunk"]
    weights, report = train(data, args.hidden, args.epochs, seed)
    out = {"name": "learned", "game": "clabber", "features": N_FEATURES, "hidden": args.hidden,
           "feature_names": list(FEATURE_NAMES),
           "training": {"seed": seed, "rounds": rounds, "samples": samples, "epochs": args.epochs,
                        "rows": len(data["y"]), "held_out": report,
                        "command": (f"python scripts/train_clabber_player.py --seed {seed} --rounds {rounds} "
                                    f"--samples {samples} --chunk {chunk} --hidden {args.hidden} "
                                    f"--epochs {args.epochs}")},
           "weights": weights}
    write_json(args.out, out, indent=1, what="the model file")
    print(f"data: {len(data['y']):,} rows of {rounds:,} rounds in {made:.0f} s; "
          f"fit in {time.perf_counter() - start - made:.0f} s; model written to {args.out}")
    print("| seat's team | decisions held out | heuristic's loss | the model's loss | loss removed |")
    print("|---|---:|---:|---:|---:|")
    for r in report:
        print(f"| {r['role']} | {r['test_decisions']:,} | {r['heuristic_regret']:.3f} | {r['model_regret']:.3f} | "
              f"{r['regret_removed']:.0%} |")


if __name__ == "__main__":
    main()
