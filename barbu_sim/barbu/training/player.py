"""Train Barbu's ``learned`` player on ``mc``'s own estimates, and write its model file (``barbu-sim train player``).

Two steps, each reproducible from the seed:

1. **Data**: deals of the seed played one card at a time, every legal card of every real decision
   valued by mc's estimator on ``samples`` layouts (:mod:`.training_data`).  Chunks of ``chunk``
   deals are kept in the data folder (one ``.npz`` each, beside a ``config.json`` that records the
   settings they were made with), so an interrupted run goes on where it stopped when run again;
   made as Ray tasks they are the same bytes.
2. **Fit**: per contract, a small network (a linear part plus ``hidden`` rectified units) is fitted
   to each card's value relative to the other cards of its decision (the player only compares the
   cards of one decision), by Adam on the squared error, from weights drawn from the seed.  Deals
   whose index ends in 0 are held out: the report gives, per contract, how many points a decision
   loses on average against mc's best card when it follows the heuristic and when it follows the
   model (regret, in mc's own estimates).

With a teacher model (a model file, or an installed model: ``learned``, ``learned1``,
``learned@<id>``) the teacher is ``mc:rollout=learned`` on that model, and a seat plays like that
model with the chance ``learned_share``, like mc with ``mc_share``, like heuristic otherwise
(:mod:`.iterate` runs the rounds of expert iteration so).

The defaults are the first model's (``learned1``): seed 2027, 90,000 deals, 32 layouts, 16 hidden
units and 32 in Trumps, 8 epochs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# The fit's matrices are small: BLAS threads cost thirty times more in hand-offs than they save (measured).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from ...core import data_chunks  # noqa: E402
from ...core.files import write_json  # noqa: E402
from ...core.fitting import fit, groups_of, regrets  # noqa: E402
from ...core.outputs import check_out  # noqa: E402
from ..players.features import DOMINO_FEATURES, N_FEATURES, TRICK_FEATURES  # noqa: E402
from ..players.learned import MAX_HIDDEN, MODEL_NAMES, load_model, model_id, model_path  # noqa: E402
from ..rules import CONTRACTS, DOMINO  # noqa: E402
from .training_data import MC_SHARE, generate_chunk  # noqa: E402

COMMAND = "barbu-sim train player"  # what a model file records as the command that made it
DEFAULT_SEED = 2027  # the first model's
DEFAULT_DEALS = 90_000
DEFAULT_HIDDEN = "16,trumps=32"  # hidden units per contract: 16, and 32 in Trumps (the first model's network)
DEFAULT_EPOCHS = 8
DEFAULT_DATA = "runs/learned-data"
DEFAULT_OUT = "runs/learned-model.json"  # never the packaged model: installing a model is a copy (docs/training.md)
HOLD_OUT = 10  # deals i with i % HOLD_OUT == 0 are the held-out set
DEFAULTS = {"seed": DEFAULT_SEED, "samples": 32, "chunk": 500}  # the data's settings, as config.json records them
# ... and who teaches and which seats play how (a record without them is the first model's data: heuristic rollouts)
TEACHER_DEFAULTS = {"teacher": "heuristic", "mc_share": MC_SHARE, "learned_share": 0.0}
MAX_SAMPLES = 1_000_000
MAX_UNITS = 2**40  # deals and deals per chunk


def check_sizes(**values) -> None:
    """Refuse sizes no training can use (``deals=0`` -> ``--deals must be at least 1 ...``); None is left out."""
    bounds = {"deals": (1, MAX_UNITS), "samples": (1, MAX_SAMPLES), "chunk": (1, MAX_UNITS), "epochs": (1, 10**6),
              "seed": (0, 2**64 - 1), "check_deals": (1, MAX_UNITS), "rounds": (1, 10**6)}
    for key, value in values.items():
        low, high = bounds[key]
        if value is not None and not low <= value <= high:
            raise ValueError(f"--{key.replace('_', '-')} must be at least {low:,} and at most {high:,}, not {value:,}")


def parse_hidden(text: str) -> dict[str, int]:
    """``"16"`` or ``"16,trumps=32"`` -> hidden units per contract (a default, then contract=units)."""
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


def teacher_path(spec: str) -> Path:
    """The model file a teacher names: a path, or an installed model (``learned``, ``learned1``,
    ``learned@<id>``: what a model file's recorded command says)."""
    if spec in MODEL_NAMES:
        return model_path(spec)
    if spec.startswith("learned@"):
        for name in MODEL_NAMES:
            if model_id(name) == spec.partition("@")[2]:
                return model_path(name)
        raise ValueError(f"--teacher-model {spec}: no installed model has that id (installed: "
                         + ", ".join(f"{n} (learned@{model_id(n)})" for n in MODEL_NAMES) + "); give its file")
    return Path(spec).resolve()


def teacher_settings(teacher_model: str | None, mc_share: float | None, learned_share: float | None) -> dict:
    """The teacher's settings given: the model's id for a teacher model (the data says which model taught it),
    and the seats' shares when given; a model file's faults are one line."""
    out = {}
    if teacher_model is not None:
        out["teacher"] = load_model(str(teacher_path(teacher_model)))[1]
    for key, value in (("mc_share", mc_share), ("learned_share", learned_share)):
        if value is not None:
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"--{key.replace('_', '-')} is a chance from 0 to 1, not {value}")
            out[key] = value
    return out


def check_shares(settings: dict) -> None:
    if settings["learned_share"] and settings["teacher"] == "heuristic":
        raise ValueError("--learned-share needs --teacher-model: the model the learned seats play")
    if settings["mc_share"] + settings["learned_share"] > 1.0:
        raise ValueError("--mc-share and --learned-share together are more than 1")


def _flag(key: str, value) -> str:
    """A setting as its command-line flag says it (the first model's teacher has no flag)."""
    if key == "teacher":
        return "no --teacher-model" if value == "heuristic" else f"--teacher-model learned@{value}"
    return f"--{key.replace('_', '-')} {value}"


def data_settings(data, given: dict) -> dict:
    """The settings the data in the folder ``data`` is made with: those of its ``config.json`` when it has one (a
    setting ``given`` that differs is refused, naming each), else those given or the defaults.

    ``given``: any of ``seed``, ``samples``, ``chunk``, and the teacher's settings
    (:func:`teacher_settings`).  The record is never rewritten: it says what the chunks beside it
    are.  A folder with chunks and no record is refused (nothing says how they were made).
    """
    data = Path(data)
    record = data_chunks.read_record(data, DEFAULTS)
    if record is None:
        settings = {**DEFAULTS, **TEACHER_DEFAULTS, **given, "features": N_FEATURES}
        check_shares(settings)
        return settings
    if record.get("features", N_FEATURES) != N_FEATURES:
        raise ValueError(f"the data in {data} is not this version's Barbu training data: it has "
                         f"{record['features']} features per card, Barbu's have {N_FEATURES} (Clabber's data, made by "
                         "barbu-sim clabber train, or an older version's): use another --data folder")
    record = {**TEACHER_DEFAULTS, **record}
    differ = {k: v for k, v in given.items() if record[k] != v}
    if differ:
        raise ValueError(f"the data in {data} was made with "
                         + ", ".join(_flag(k, record[k]) for k in differ) + ", not "
                         + ", ".join(_flag(k, v) for k, v in differ.items())
                         + ": give the data's settings, or another --data folder")
    settings = {**{k: record[k] for k in (*DEFAULTS, *TEACHER_DEFAULTS)}, "features": N_FEATURES}
    check_shares(settings)
    return settings


def teacher_flags(settings: dict) -> str:
    """The command line's flags for the teacher settings that are not the first model's."""
    if settings["teacher"] == "heuristic":
        return "" if settings["mc_share"] == MC_SHARE else f" --mc-share {settings['mc_share']}"
    return (f" --teacher-model learned@{settings['teacher']} --mc-share {settings['mc_share']} "
            f"--learned-share {settings['learned_share']}")


def present_chunks(data, settings: dict, deals: int | None) -> tuple[list[Path], int]:
    """For a fit on the data made: the chunk files of deals ``0 .. deals - 1`` (refused when one is missing), or
    with ``deals`` None those of the longest run of deals from 0 the folder holds; and that number of deals."""
    return data_chunks.present_chunks(data, settings["chunk"], deals, "deals")


def make_data(data, deals: int, settings: dict, teacher_model: str | None = None, backend=None,
              progress: bool = False) -> list[Path]:
    """Every chunk's file of ``deals`` deals, made where missing (resumable: each chunk a pure function of its
    arguments, written whole under a temporary name, so Ctrl-C loses no chunk already made)."""
    if settings["teacher"] != "heuristic" and teacher_model is None:
        raise ValueError(f"the data in {data} is taught by learned@{settings['teacher']}: give its file as "
                         "--teacher-model")
    model = None if settings["teacher"] == "heuristic" else load_model(str(teacher_path(teacher_model)))[0]
    return data_chunks.make_chunks(data, settings, deals, generate_chunk,
                                   (model, settings["mc_share"], settings["learned_share"]), backend, progress)


def load(paths: list[Path]) -> dict:
    """The chunks' rows, one array per field (see :func:`barbu_sim.core.data_chunks.load_chunks`)."""
    return data_chunks.load_chunks(paths, ("y", "decision", "contract"), N_FEATURES)


def fit_contracts(data: dict, hidden, epochs: int, seed: int, drop: tuple[int, ...] = (), names=CONTRACTS,
                  log: Callable[[str], None] | None = None) -> tuple[dict, list[dict]]:
    """The model file's ``contracts`` entry and the held-out report, per contract (of ``names``).

    ``hidden``: units for every contract, or a dict of them by contract; ``drop``: feature columns
    set to 0 (the ablation); ``log``: told each contract's fitting time.
    """
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
        if log:
            log(f"  {name}: fitted on {len(c_tr):,} decisions in {time.perf_counter() - started:.0f} s")
        model_regret, heur_regret = regrets(pred, y[h], g_te, c_te, x[h][:, 0] > 0.5) if len(c_te) else (0.0, 0.0)
        models[name] = net.to_json()
        report.append({"contract": name, "hidden": units, "train_decisions": len(c_tr), "test_decisions": len(c_te),
                       "heuristic_regret": round(heur_regret, 4), "model_regret": round(model_regret, 4),
                       "regret_removed": round(1 - model_regret / heur_regret, 3) if heur_regret else None})
    return models, report


# For the ablation: groups of features, by their index in the feature vector (features.py names them).
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
            report = fit_contracts(data, 0, 1, seed, drop, names)[1]
            return float(np.mean([r["model_regret"] for r in report])), float(np.mean([r["heuristic_regret"]
                                                                                       for r in report]))
        full, heur = mean_regret()
        rows.append({"contracts": label, "without": "(nothing)", "regret": full, "heuristic_regret": heur})
        for gname, cols in groups.items():
            rows.append({"contracts": label, "without": gname, "regret": mean_regret(cols)[0],
                         "heuristic_regret": heur})
    return rows


@dataclass(frozen=True)
class Trained:
    """What :func:`train_player` made: ``model`` (the model file's content, written to ``out``), the
    held-out ``report`` (``model["training"]["held_out"]``), the ``ablation`` rows when asked, and the
    seconds the data and the fit took."""

    out: Path
    model: dict
    deals: int
    rows: int
    data_seconds: float
    fit_seconds: float
    ablation: list | None = None

    @property
    def report(self) -> list[dict]:
        return self.model["training"]["held_out"]


def check_training(out, force: bool, hidden: str, **sizes) -> dict[str, int]:
    """The checks made before any work: the sizes, ``hidden`` (parsed), and ``out``, the model file to
    write (refused when it exists unless ``force``)."""
    check_sizes(**sizes)
    if Path(out).is_dir():
        raise ValueError(f"--out {out} is a folder: name the model file to write")
    check_out(out, force)
    return parse_hidden(hidden)


def train_player(out=DEFAULT_OUT, *, data=DEFAULT_DATA, deals: int | None = None, samples: int | None = None,
                 seed: int | None = None, chunk: int | None = None, hidden: str = DEFAULT_HIDDEN,
                 epochs: int = DEFAULT_EPOCHS, fit_only: bool = False, teacher_model: str | None = None,
                 mc_share: float | None = None, learned_share: float | None = None, with_ablation: bool = False,
                 force: bool = False, backend=None, progress: bool = False,
                 log: Callable[[str], None] | None = None) -> Trained:
    """Make (or reuse) the data in the folder ``data`` and fit the model; write it to ``out``.

    Parameters
    ----------
    out : the model file to write; an existing one is refused before any work unless ``force``.
    data : the data folder (chunks and ``config.json``); a folder made with other settings is refused.
    deals : training deals (default 90,000; with ``fit_only``, every deal the data holds from deal 0).
    samples, seed, chunk : mc layouts per decision, the seed of the deals and initial weights, deals per
        chunk (default 32, 2027 and 500, or the data's).
    hidden : hidden units per contract (``"16,trumps=32"``); epochs : passes over the data.
    fit_only : make no data, fit on the chunks already made.
    teacher_model, mc_share, learned_share : expert iteration's teacher and seats (see the module).
    with_ablation : also fit linear models without each feature group (:func:`ablation`).
    backend : where the chunks are made (:func:`barbu_sim.core.backends.make_backend`; default here).
    progress : a progress bar of the chunks; log : told each contract's fit.

    Returns
    -------
    Trained
    """
    hidden_units = check_training(out, force, hidden, deals=deals, samples=samples, chunk=chunk, epochs=epochs,
                                  seed=seed)
    given = {k: v for k, v in (("seed", seed), ("samples", samples), ("chunk", chunk)) if v is not None}
    given.update(teacher_settings(teacher_model, mc_share, learned_share))
    settings = data_settings(data, given)
    start = time.perf_counter()
    if fit_only:
        paths, deals = present_chunks(data, settings, deals)
    else:
        deals = DEFAULT_DEALS if deals is None else deals
        paths = make_data(data, deals, settings, teacher_model, backend, progress)
    made = time.perf_counter() - start
    rows = load(paths)
    seed, samples, chunk = settings["seed"], settings["samples"], settings["chunk"]
    models, report = fit_contracts(rows, hidden_units, epochs, seed, log=log)
    model = {"name": "learned", "features": N_FEATURES, "hidden": hidden_units,
             "feature_names": {"tricks": list(TRICK_FEATURES), "domino": list(DOMINO_FEATURES)},
             "training": {"seed": seed, "deals": deals, "samples": samples, "epochs": epochs,
                          "teacher": settings["teacher"], "mc_share": settings["mc_share"],
                          "learned_share": settings["learned_share"],
                          "rows": len(rows["y"]), "held_out": report,
                          "command": (f"{COMMAND} --seed {seed} --deals {deals} --samples {samples} --chunk {chunk} "
                                      f"--hidden {hidden} --epochs {epochs}" + teacher_flags(settings))},
             "contracts": models}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    write_json(out, model, indent=1, what="the model file")
    fitted = time.perf_counter() - start - made
    return Trained(out=Path(out), model=model, deals=deals, rows=len(rows["y"]), data_seconds=made,
                   fit_seconds=fitted, ablation=ablation(rows, seed) if with_ablation else None)
