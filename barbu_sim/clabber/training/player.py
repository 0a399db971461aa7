"""Train Clabber's ``learned`` player on ``mc``'s own estimates, and write its model file (``barbu-sim clabber train``).

Two steps, each reproducible from the seed:

1. **Data**: rounds of the seed played one card at a time, every legal card of every decision of
   more than one card valued by mc's estimator on ``samples`` layouts (:mod:`.training_data`).
   Chunks of ``chunk`` rounds are kept in the data folder (one ``.npz`` each, with ``config.json``:
   the settings they were made with), so an interrupted run goes on where it stopped when run
   again; made as Ray tasks they are the same bytes.
2. **Fit**: a small network (a linear part plus ``hidden`` rectified units) fitted to each card's
   value relative to the other cards of its decision (the player only compares the cards of one
   decision), by Adam on the squared error, from weights drawn from the seed.  Rounds whose index
   ends in 0 are held out: the report gives, for makers and defenders, how many points a decision
   loses on average against mc's best card following the heuristic and following the model (in
   mc's own estimates).

The defaults are the packaged model's: seed 2031, 200,000 rounds, 96 layouts, chunks of 2,000
rounds, 64 hidden units, 10 epochs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from ...core.data_chunks import load_chunks, make_chunks, present_chunks, read_record  # noqa: E402
from ...core.files import write_json  # noqa: E402
from ...core.fitting import fit, groups_of, regrets  # noqa: E402
from ...core.outputs import check_out  # noqa: E402
from ..players.features import FEATURE_NAMES, N_FEATURES  # noqa: E402
from ..players.learned import MAX_HIDDEN  # noqa: E402
from .training_data import generate_chunk  # noqa: E402

COMMAND = "barbu-sim clabber train"  # what a model file records as the command that made it
HOLD_OUT = 10  # rounds i with i % HOLD_OUT == 0 are held out
DEFAULTS = {"seed": 2031, "samples": 96, "chunk": 2000}  # the data's settings, as config.json records them
DEFAULT_ROUNDS = 200_000
DEFAULT_HIDDEN = 64
DEFAULT_EPOCHS = 10
DEFAULT_DATA = "runs/clabber-learned-data"
DEFAULT_OUT = "runs/clabber-learned-model.json"  # never the packaged model: installing one is a copy
SCALE = 0.1  # the values are fitted in tenths of points: the network's initial weights suit that size
MAX_UNITS = 2**40


def data_settings(data, given: dict) -> dict:
    """The settings of the data in the folder ``data``: its config.json's (a differing one ``given`` is refused),
    else those given (any of ``seed``, ``samples``, ``chunk``) or the defaults."""
    data = Path(data)
    record = read_record(data, DEFAULTS)
    if record is None:
        return {**DEFAULTS, **given, "features": N_FEATURES}
    if record.get("features") != N_FEATURES:
        raise ValueError(f"the data in {data} is not this version's Clabber training data: it has "
                         f"{record.get('features')} features per card, Clabber's have {N_FEATURES} (Barbu's data, "
                         "made by barbu-sim train player, or an older version's): use another --data folder")
    differ = {k: v for k, v in given.items() if record[k] != v}
    if differ:
        raise ValueError(f"the data in {data} was made with "
                         + ", ".join(f"--{k} {record[k]}" for k in differ) + ", not "
                         + ", ".join(f"--{k} {v}" for k, v in differ.items()) + ": give the data's settings, or "
                         "another --data folder")
    return {**{k: record[k] for k in DEFAULTS}, "features": N_FEATURES}


def make_data(data, rounds: int, settings: dict, backend=None, progress: bool = False) -> list[Path]:
    """Every chunk's file, made where missing (resumable: each chunk a pure function of its arguments, written
    whole under a temporary name, so Ctrl-C loses no chunk already made)."""
    return make_chunks(data, settings, rounds, generate_chunk, backend=backend, progress=progress)


def load(paths: list[Path]) -> dict:
    """The chunks' rows, one array per field (see :func:`barbu_sim.core.data_chunks.load_chunks`)."""
    return load_chunks(paths, ("y", "decision", "makers"), N_FEATURES)


def fit_model(data: dict, hidden: int, epochs: int, seed: int,
              log: Callable[[str], None] | None = None) -> tuple[dict, list[dict]]:
    """The model's weights and the held-out report (makers, defenders, all)."""
    rng = np.random.default_rng(seed)
    held = (data["decision"] // 32) % HOLD_OUT == 0
    x, y = data["x"].astype(np.float64), data["y"].astype(np.float64)
    g_tr, c_tr = groups_of(data["decision"][~held])
    started = time.perf_counter()
    net = fit(x[~held], y[~held] * SCALE, g_tr, c_tr, hidden, epochs, rng)
    if log:
        log(f"  fitted on {len(c_tr):,} decisions in {time.perf_counter() - started:.0f} s")
    report = []
    for role, sel in (("makers", data["makers"]), ("defenders", ~data["makers"]), ("all", np.ones(len(y), bool))):
        s = held & sel
        g, c = groups_of(data["decision"][s])
        pred = net.forward(x[s])[0]
        model_r, heur_r = regrets(pred, y[s], g, c, x[s][:, 0] > 0.5)
        report.append({"role": role, "test_decisions": len(c), "heuristic_regret": round(heur_r, 4),
                       "model_regret": round(model_r, 4), "regret_removed": round(1 - model_r / heur_r, 3)})
    return {**net.to_json(), "scale": SCALE}, report


@dataclass(frozen=True)
class Trained:
    """What :func:`train_player` made: ``model`` (the model file's content, written to ``out``) and the seconds
    the data and the fit took."""

    out: Path
    model: dict
    rounds: int
    rows: int
    data_seconds: float
    fit_seconds: float

    @property
    def report(self) -> list[dict]:
        return self.model["training"]["held_out"]


def train_player(out=DEFAULT_OUT, *, data=DEFAULT_DATA, rounds: int | None = None, samples: int | None = None,
                 seed: int | None = None, chunk: int | None = None, hidden: int = DEFAULT_HIDDEN,
                 epochs: int = DEFAULT_EPOCHS, fit_only: bool = False, force: bool = False, backend=None,
                 progress: bool = False, log: Callable[[str], None] | None = None) -> Trained:
    """Make (or reuse) the data in the folder ``data`` and fit the model; write it to ``out``.

    Parameters
    ----------
    out, data : the model file to write (an existing one refused before any work unless ``force``) and the data
        folder (chunks and ``config.json``; one made with other settings refused).
    rounds : training rounds (default 200,000; with ``fit_only``, every round the data holds from round 0).
    samples, seed, chunk : mc layouts per decision, the seed of the rounds and initial weights, rounds per
        chunk (default 96, 2031 and 2,000, or the data's).
    hidden, epochs : hidden units (0..64) and passes over the data.
    fit_only : make no data, fit on the chunks already made.
    backend, progress, log : where the chunks are made, a progress bar of them, what the fit says.
    """
    for flag, value in (("--rounds", rounds), ("--samples", samples), ("--chunk", chunk), ("--epochs", epochs)):
        if value is not None and not 1 <= value <= MAX_UNITS:
            raise ValueError(f"{flag} must be at least 1 and at most {MAX_UNITS:,}, not {value:,}")
    if seed is not None and not 0 <= seed <= 2**64 - 1:
        raise ValueError(f"--seed must be a non-negative integer below 2^64, not {seed}")
    if not 0 <= hidden <= MAX_HIDDEN:
        raise ValueError(f"--hidden must be 0..{MAX_HIDDEN}, not {hidden}")
    if Path(out).is_dir():
        raise ValueError(f"--out {out} is a folder: name the model file to write")
    check_out(out, force)
    given = {k: v for k, v in (("seed", seed), ("samples", samples), ("chunk", chunk)) if v is not None}
    settings = data_settings(data, given)
    start = time.perf_counter()
    if fit_only:
        paths, rounds = present_chunks(data, settings["chunk"], rounds, "rounds")
    else:
        rounds = DEFAULT_ROUNDS if rounds is None else rounds
        paths = make_data(data, rounds, settings, backend, progress)
    made = time.perf_counter() - start
    rows = load(paths)
    seed, samples, chunk = settings["seed"], settings["samples"], settings["chunk"]
    weights, report = fit_model(rows, hidden, epochs, seed, log)
    model = {"name": "learned", "game": "clabber", "features": N_FEATURES, "hidden": hidden,
             "feature_names": list(FEATURE_NAMES),
             "training": {"seed": seed, "rounds": rounds, "samples": samples, "epochs": epochs,
                          "rows": len(rows["y"]), "held_out": report,
                          "command": (f"{COMMAND} --seed {seed} --rounds {rounds} --samples {samples} --chunk {chunk} "
                                      f"--hidden {hidden} --epochs {epochs}")},
             "weights": weights}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    write_json(out, model, indent=1, what="the model file")
    return Trained(out=Path(out), model=model, rounds=rounds, rows=len(rows["y"]), data_seconds=made,
                   fit_seconds=time.perf_counter() - start - made)
