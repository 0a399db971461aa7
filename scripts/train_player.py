"""Train the `learned` player on `mc`'s own estimates, and write its model file.

Two steps, each reproducible from the seed:

1. **Data**: deals of `--seed` played one card at a time, every legal card of every real
   decision valued by mc's estimator on `--samples` layouts (barbu_sim/barbu/played/training_data.py).
   Chunks of `--chunk` deals are kept under `--data` (one .npz each), so an interrupted run
   goes on where it stopped; `--backend ray` makes them as Ray tasks (the same bytes).
2. **Fit**: per contract, a small network (a linear part plus `--hidden` rectified units) is
   fitted to each card's value relative to the other cards of its decision (the player
   only compares the cards of one decision), by Adam on the squared error, from weights
   drawn from `--seed`.  Deals whose index ends in 0 are held out: the report gives, per
   contract, how many points a decision loses on average against mc's best card when it
   follows the heuristic and when it follows the model (regret, in mc's own estimates).

    python scripts/train_player.py --force                  # 90,000 deals (about 13 core-minutes), then fit
    python scripts/train_player.py --deals 2000 --out /tmp/model.json --data /tmp/learn-data
    python scripts/train_player.py --fit-only --hidden 0 --out /tmp/linear.json   # a linear model on the data made
    python scripts/train_player.py --ablation --force       # what each feature group is worth (linear fits)
    python scripts/train_player.py --teacher-model learned --learned-share 0.3333 --mc-share 0.3333 \
        --seed 2028 --data runs/round-1 --out /tmp/next.json  # expert iteration: mc plays the deals out with
                                                              # the packaged model, and a third of the seats too

With `--teacher-model` (a model file, or an installed model: `learned`, `learned1`, `learned@<id>`), the
teacher is `mc:rollout=learned` on that model (the previous round's), and a seat plays like that model
with the chance `--learned-share` (positions from the learned player's own play), like mc with
`--mc-share`, like heuristic otherwise (scripts/expert_iteration.py runs the rounds).

The packaged model is barbu_sim/barbu/players/models/learned.json (docs/learned-player.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import zipfile
from pathlib import Path

# The fit's matrices are small: BLAS threads cost thirty times more in hand-offs than they save (measured).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from barbu_sim.barbu.players.features import DOMINO_FEATURES, N_FEATURES, TRICK_FEATURES  # noqa: E402
from barbu_sim.barbu.players.learned import (  # noqa: E402
    MAX_HIDDEN, MODEL_NAMES, MODEL_PATH, load_model, model_id, model_path,
)
from barbu_sim.barbu.played.training_data import MC_SHARE, generate_chunk  # noqa: E402
from barbu_sim.barbu.rules import CONTRACTS, DOMINO  # noqa: E402
from barbu_sim.core.backends import make_backend  # noqa: E402
from barbu_sim.core.fitting import fit, groups_of, regrets  # noqa: E402
from barbu_sim.core.outputs import add_force, check_out, write_json  # noqa: E402

DEFAULT_SEED = 2027
DEFAULT_HIDDEN = "16,trumps=32"  # hidden units per contract: 16, and 32 in Trumps (the first model's network)
HOLD_OUT = 10  # deals i with i % HOLD_OUT == 0 are the held-out set


DEFAULTS = {"seed": DEFAULT_SEED, "samples": 32, "chunk": 500}  # the data's settings, as config.json records them
# ... and who teaches and which seats play how (a record without them is the first model's data: heuristic rollouts)
TEACHER_DEFAULTS = {"teacher": "heuristic", "mc_share": MC_SHARE, "learned_share": 0.0}
MAX_SAMPLES = 1_000_000


class TrainError(ValueError):
    """A mistake in the arguments or the data folder: one line on stderr, exit code 2."""


def chunk_path(data: Path, lo: int, n: int) -> Path:
    return data / f"chunk-{lo:08d}-{n}.npz"


def check_args(args) -> None:
    """Refuse values no training can use, before anything is made or read."""
    for flag, value, low, high in (("--deals", args.deals, 1, 2**40), ("--samples", args.samples, 1, MAX_SAMPLES),
                                   ("--chunk", args.chunk, 1, 2**40), ("--epochs", args.epochs, 1, 10**6),
                                   ("--seed", args.seed, 0, 2**64 - 1)):
        if value is not None and not low <= value <= high:
            raise TrainError(f"{flag} must be at least {low:,} and at most {high:,}, not {value:,}")
    if Path(args.out).is_dir():
        raise TrainError(f"--out {args.out} is a folder: name the model file to write")
    try:  # the model file (by default the packaged model) is replaced only when asked, and checked before the work
        check_out(args.out, args.force)
    except ValueError as e:
        raise TrainError(str(e)) from None


def data_settings(args) -> dict:
    """The settings the data in ``--data`` is made with: those of its ``config.json`` when it has one (a
    setting given that differs is refused, naming each), else those given or the defaults.

    The record is never rewritten: it says what the chunks beside it are.  A folder with chunks
    and no record is refused (nothing says how they were made).
    """
    data = Path(args.data)
    given = {k: getattr(args, k) for k in DEFAULTS if getattr(args, k) is not None}
    given.update(teacher_settings(args))
    record_path = data / "config.json"
    if not record_path.exists():
        if data.is_dir() and any(data.glob("chunk-*.npz")):
            raise TrainError(f"{data} holds data chunks but no config.json saying how they were made: "
                             "use another --data folder")
        settings = {**DEFAULTS, **TEACHER_DEFAULTS, **given, "features": N_FEATURES}
        check_shares(settings)
        return settings
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
        if not isinstance(record, dict) or any(not isinstance(record.get(k), int) for k in DEFAULTS):
            raise ValueError("not a record of seed, samples and chunk")
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise TrainError(f"{record_path} cannot be read ({getattr(e, 'strerror', None) or e}): "
                         "it says how the data was made; use another --data folder") from None
    if record.get("features", N_FEATURES) != N_FEATURES:
        raise TrainError(f"the data in {data} has {record['features']} features per card, this version computes "
                         f"{N_FEATURES}: use another --data folder")
    record = {**TEACHER_DEFAULTS, **record}
    differ = {k: v for k, v in given.items() if record[k] != v}
    if differ:
        raise TrainError(f"the data in {data} was made with "
                         + ", ".join(_flag(k, record[k]) for k in differ) + ", not "
                         + ", ".join(_flag(k, v) for k, v in differ.items())
                         + ": give the data's settings, or another --data folder")
    settings = {**{k: record[k] for k in (*DEFAULTS, *TEACHER_DEFAULTS)}, "features": N_FEATURES}
    check_shares(settings)
    return settings


def _flag(key: str, value) -> str:
    """A setting as its command-line flag says it (the first model's teacher has no flag)."""
    if key == "teacher":
        return "no --teacher-model" if value == "heuristic" else f"--teacher-model learned@{value}"
    return f"--{key.replace('_', '-')} {value}"


def check_shares(settings: dict) -> None:
    if settings["learned_share"] and settings["teacher"] == "heuristic":
        raise TrainError("--learned-share needs --teacher-model: the model the learned seats play")
    if settings["mc_share"] + settings["learned_share"] > 1.0:
        raise TrainError("--mc-share and --learned-share together are more than 1")


def teacher_path(spec: str) -> Path:
    """The model file ``--teacher-model`` names: a path, or an installed model (``learned``, ``learned1``,
    ``learned@<id>``: what a model file's recorded command says)."""
    if spec in MODEL_NAMES:
        return model_path(spec)
    if spec.startswith("learned@"):
        for name in MODEL_NAMES:
            if model_id(name) == spec.partition("@")[2]:
                return model_path(name)
        raise TrainError(f"--teacher-model {spec}: no installed model has that id (installed: "
                         + ", ".join(f"{n} (learned@{model_id(n)})" for n in MODEL_NAMES) + "); give its file")
    return Path(spec).resolve()


def teacher_settings(args) -> dict:
    """The teacher's settings given on the command line: the model's id for ``--teacher-model`` (the data
    says which model taught it), and the seats' shares when given; the model file's faults are one line."""
    out = {}
    if args.teacher_model is not None:
        try:
            out["teacher"] = load_model(str(teacher_path(args.teacher_model)))[1]
        except TrainError:
            raise
        except ValueError as e:
            raise TrainError(str(e)) from None
    for key in ("mc_share", "learned_share"):
        value = getattr(args, key)
        if value is not None:
            if not 0.0 <= value <= 1.0:
                raise TrainError(f"--{key.replace('_', '-')} is a chance from 0 to 1, not {value}")
            out[key] = value
    return out


def teacher_flags(settings: dict) -> str:
    """The command line's flags for the teacher settings that are not the first model's."""
    if settings["teacher"] == "heuristic":
        return "" if settings["mc_share"] == MC_SHARE else f" --mc-share {settings['mc_share']}"
    return (f" --teacher-model learned@{settings['teacher']} --mc-share {settings['mc_share']} "
            f"--learned-share {settings['learned_share']}")


def planned_chunks(deals: int, chunk: int) -> list[tuple[int, int]]:
    return [(lo, min(chunk, deals - lo)) for lo in range(0, deals, chunk)]


def present_chunks(data: Path, settings: dict, deals: int | None) -> tuple[list[Path], int]:
    """For ``--fit-only``: the chunk files of deals ``0 .. deals - 1`` (refused when one is missing), or with
    ``deals`` None those of the longest run of deals from 0 the folder holds; and that number of deals."""
    chunk = settings["chunk"]
    if deals is not None:
        paths = [chunk_path(data, lo, n) for lo, n in planned_chunks(deals, chunk)]
        missing = [p.name for p in paths if not p.exists()]
        if missing:
            raise TrainError(f"{data} lacks {len(missing)} of the {len(paths)} chunks of {deals:,} deals (the first: "
                             f"{missing[0]}): run without --fit-only to make them")
        return paths, deals
    paths, lo = [], 0
    while True:
        full = chunk_path(data, lo, chunk)
        if full.exists():
            paths.append(full)
            lo += chunk
            continue
        last = [p for n in range(chunk - 1, 0, -1) if (p := chunk_path(data, lo, n)).exists()]
        if last:
            paths.append(last[0])
            lo += int(last[0].stem.rsplit("-", 1)[1])
        break
    if not paths:
        raise TrainError(f"no data chunks in {data}: run without --fit-only first")
    return paths, lo


def make_data(args, settings: dict) -> list[Path]:
    """Every chunk's file, made where missing (resumable; each chunk a pure function of its arguments)."""
    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    record = data / "config.json"
    if not record.exists():  # written once: the record of what the chunks are
        write_json(record, settings, indent=None)
    chunk, seed, samples = settings["chunk"], settings["seed"], settings["samples"]
    chunks = planned_chunks(args.deals, chunk)
    if settings["teacher"] != "heuristic" and args.teacher_model is None:
        raise TrainError(f"the data in {data} is taught by learned@{settings['teacher']}: give its file as "
                         "--teacher-model")
    model = None if settings["teacher"] == "heuristic" else load_model(str(teacher_path(args.teacher_model)))[0]
    todo = [(seed, lo, n, samples, model, settings["mc_share"], settings["learned_share"])
            for lo, n in chunks if not chunk_path(data, lo, n).exists()]
    backend = make_backend(args.backend, args.ray_address)
    with tqdm(total=len(chunks), initial=len(chunks) - len(todo), desc="training data", unit="chunk",
              disable=args.no_progress) as bar:
        for (seed, lo, n, *_), part in zip(todo, backend.imap(generate_chunk, todo, what="chunk")):
            tmp = data / f".tmp-{lo}.npz"
            np.savez(tmp, **part)
            tmp.rename(chunk_path(data, lo, n))
            bar.update()
    return [chunk_path(data, lo, n) for lo, n in chunks]


def read_chunk(path: Path) -> dict:
    """One chunk's arrays, checked: a damaged or foreign file is a one-line error naming it."""
    try:
        with np.load(path) as f:
            part = {k: f[k] for k in ("x", "y", "decision", "contract")}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
        raise TrainError(f"data chunk {path} cannot be read ({type(e).__name__}: {e}): it is damaged; delete it and "
                         "run without --fit-only to make it again") from None
    rows = len(part["y"])
    if part["x"].shape != (rows, N_FEATURES) or any(len(part[k]) != rows for k in ("decision", "contract")):
        raise TrainError(f"data chunk {path} does not hold rows of {N_FEATURES} features: delete it and run without "
                         "--fit-only to make it again")
    return part


def load(paths: list[Path]) -> dict:
    parts = [read_chunk(p) for p in paths]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def parse_hidden(text: str) -> dict[str, int]:
    """``"16"`` or ``"16,trumps=32"`` → hidden units per contract (a default, then contract=units)."""
    out: dict[str, int] = {}
    default = None
    for part in str(text).split(","):
        name, eq, value = part.strip().rpartition("=")
        if not value.strip().isdigit() or not 0 <= int(value) <= MAX_HIDDEN:
            raise ValueError(f"hidden units are whole numbers 0..{MAX_HIDDEN}, not {value!r}")
        if not eq:
            default = int(value)
        elif name.strip() in CONTRACTS:
            out[name.strip()] = int(value)
        else:
            raise ValueError(f"unknown contract {name.strip()!r} in --hidden (contracts: {', '.join(CONTRACTS)})")
    if default is None:
        raise ValueError("--hidden needs a default number of units first, as in 16,trumps=32")
    return {c: out.get(c, default) for c in CONTRACTS}


def train(data: dict, hidden, epochs: int, seed: int, drop: tuple[int, ...] = (),
          names=CONTRACTS) -> tuple[dict, list[dict]]:
    """The model file's ``contracts`` entry and the held-out report, per contract (of ``names``);
    ``hidden``: units for every contract, or a dict of them by contract."""
    rng = np.random.default_rng(seed)
    models, report = {}, []
    held = (data["decision"] // 64) % HOLD_OUT == 0
    for name in names:
        cid = CONTRACTS.index(name)
        sel = data["contract"] == cid
        x = data["x"][sel].astype(np.float64)
        if drop:
            x[:, list(drop)] = 0.0
        y = data["y"][sel].astype(np.float64)
        dec = data["decision"][sel]
        h = held[sel]
        g_tr, c_tr = groups_of(dec[~h])
        g_te, c_te = groups_of(dec[h])
        started = time.perf_counter()
        units = hidden[name] if isinstance(hidden, dict) else hidden
        net = fit(x[~h], y[~h], g_tr, c_tr, units, epochs, rng)
        pred = net.forward(x[h])[0]
        print(f"  {name}: fitted on {len(c_tr):,} decisions in {time.perf_counter() - started:.0f} s", file=sys.stderr,
              flush=True)
        model_regret, heur_regret = regrets(pred, y[h], g_te, c_te, x[h][:, 0] > 0.5) if len(c_te) else (0.0, 0.0)
        models[name] = net.to_json()
        report.append({"contract": name, "hidden": units, "train_decisions": len(c_tr), "test_decisions": len(c_te),
                       "heuristic_regret": round(heur_regret, 4), "model_regret": round(model_regret, 4),
                       "regret_removed": round(1 - model_regret / heur_regret, 3) if heur_regret else None})
    return models, report


# For --ablation: groups of features, by their index in the feature vector (features.py names them).
TRICK_GROUPS = {
    "heuristic's card": (0,), "winning the trick": (1, 2, 16, 19, 34), "points in the trick": (3, 4),
    "the card's own points": (5, 14, 20, 21, 39), "rank and unseen cards": (6, 7, 8, 9, 17, 22, 24, 35, 36, 37, 38),
    "suit lengths and voids": (10, 11, 12, 15, 28, 29, 30), "trumps": (18, 27, 31, 32, 33, 40, 41),
    "place in the trick": (13, 23, 25, 26),
}
DOMINO_GROUPS = {"heuristic's card": (0,), "the column": (1, 6, 9), "cards beyond it": (2, 3, 8),
                 "next cards": (4, 5, 7, 12), "suit counts": (10, 11)}


def ablation(data: dict, seed: int) -> list[dict]:
    """Held-out regret of linear fits without each feature group: trick contracts (mean) and Domino."""
    rows = []
    for label, groups, names in (("trick contracts", TRICK_GROUPS, CONTRACTS[:DOMINO]),
                                 ("domino", DOMINO_GROUPS, CONTRACTS[DOMINO:])):
        def mean_regret(drop=(), names=names):
            report = train(data, 0, 1, seed, drop, names)[1]
            return float(np.mean([r["model_regret"] for r in report])), float(np.mean([r["heuristic_regret"]
                                                                                       for r in report]))
        full, heur = mean_regret()
        rows.append({"contracts": label, "without": "(nothing)", "regret": full, "heuristic_regret": heur})
        for gname, cols in groups.items():
            rows.append({"contracts": label, "without": gname, "regret": mean_regret(cols)[0],
                         "heuristic_regret": heur})
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=None, help="training deals (default 90,000; a tenth held out; "
                    "with --fit-only: default, every deal of the data)")
    ap.add_argument("--samples", type=int, default=None, help="mc layouts per decision (default 32, or the data's)")
    ap.add_argument("--seed", type=int, default=None,
                    help=f"deals and initial weights (default {DEFAULT_SEED}, or the data's)")
    ap.add_argument("--hidden", default=DEFAULT_HIDDEN,
                    help=f"hidden units per contract, 0..{MAX_HIDDEN}: one number, then CONTRACT=N for exceptions "
                         "(default 16,trumps=32)")
    ap.add_argument("--epochs", type=int, default=8, help="passes over the data (default 8)")
    ap.add_argument("--chunk", type=int, default=None, help="deals per data chunk (default 500, or the data's)")
    ap.add_argument("--data", default=str(ROOT / "runs" / "learned-data"),
                    help="where the data chunks are kept, with config.json: the settings they were made with (a "
                         "folder made with other settings is refused)")
    ap.add_argument("--out", default=str(MODEL_PATH), help="the model file to write (default the packaged model)")
    add_force(ap, "replace --out if it exists, as the packaged model does (without it, an existing file is refused "
                  "before any work)")
    ap.add_argument("--fit-only", action="store_true", help="make no data: fit on the chunks already in --data")
    ap.add_argument("--teacher-model", default=None, help="expert iteration: a learned-player model file (the "
                    "previous round's), or an installed one (learned, learned1, learned@ID): mc's rollouts are that "
                    "player's, and seats may play like it")
    ap.add_argument("--mc-share", type=float, default=None,
                    help=f"the chance that a seat plays like mc (default {MC_SHARE}, or the data's)")
    ap.add_argument("--learned-share", type=float, default=None, help="the chance that a seat plays like the "
                    "--teacher-model player (default 0, or the data's)")
    ap.add_argument("--ablation", action="store_true", help="also fit linear models without each feature group")
    ap.add_argument("--backend", default="local", help="local, or ray: the data chunks as Ray tasks (same bytes)")
    ap.add_argument("--ray-address", default=None)
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    try:
        check_args(args)
        hidden = parse_hidden(args.hidden)
        settings = data_settings(args)
        start = time.perf_counter()
        if args.fit_only:
            paths, deals = present_chunks(Path(args.data), settings, args.deals)
        else:
            args.deals = 90_000 if args.deals is None else args.deals
            deals = args.deals
            paths = make_data(args, settings)
        made = time.perf_counter() - start
        data = load(paths)
    except ValueError as e:  # TrainError, and the backend's own checks
        sys.exit(f"Error: {e}")
    seed, samples, chunk = settings["seed"], settings["samples"], settings["chunk"]
    models, report = train(data, hidden, args.epochs, seed)
    out = {"name": "learned", "features": N_FEATURES, "hidden": hidden,
           "feature_names": {"tricks": list(TRICK_FEATURES), "domino": list(DOMINO_FEATURES)},
           "training": {"seed": seed, "deals": deals, "samples": samples, "epochs": args.epochs,
                        "teacher": settings["teacher"], "mc_share": settings["mc_share"],
                        "learned_share": settings["learned_share"],
                        "rows": len(data["y"]), "held_out": report,
                        "command": (f"python scripts/train_player.py --seed {seed} --deals {deals} "
                                    f"--samples {samples} --chunk {chunk} --hidden {args.hidden} "
                                    f"--epochs {args.epochs}" + teacher_flags(settings))},
           "contracts": models}
    write_json(args.out, out, indent=1, what="the model file")
    print(f"data: {len(data['y']):,} rows of {deals:,} deals in {made:.0f} s; "
          f"fit in {time.perf_counter() - start - made:.0f} s; model written to {args.out}")
    print("| contract | decisions (test) | heuristic regret | model regret | regret removed |")
    print("|---|---|---|---|---|")
    for r in report:
        print(f"| {r['contract']} | {r['test_decisions']:,} | {r['heuristic_regret']:.3f} | {r['model_regret']:.3f} "
              f"| {'-' if r['regret_removed'] is None else format(r['regret_removed'], '.0%')} |")
    if args.ablation:
        print("\nLinear fits without each feature group: held-out regret (points per decision against mc's best)")
        print("| contracts | features left out | regret | heuristic's regret |\n|---|---|---:|---:|")
        for r in ablation(data, seed):
            print(f"| {r['contracts']} | {r['without']} | {r['regret']:.4f} | {r['heuristic_regret']:.4f} |")


if __name__ == "__main__":
    main()
