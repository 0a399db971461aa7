"""Expert iteration: train the next ``learned`` on the estimates of an ``mc`` that plays with the last one
(``barbu-sim train iterate``), and two model files head to head (``barbu-sim train compare``).

Round k (1, 2, ...) makes its data with round k-1's model (round 0's is the first model, packaged as
``learned1``: ``barbu-sim train player`` makes it from seed 2027 with heuristic rollouts as the teacher):

1. **Data** (:func:`.player.train_player` with a teacher model): deals of seed ``seed + k``, every
   legal card of every real decision valued by ``mc:rollout=learned`` on the previous model (its
   rollouts play that model), and each seat playing, by a draw, like that model (its own positions,
   as DAgger takes them), like ``mc`` or like ``heuristic``.
2. **Fit**: a network of ``hidden`` units on that data; round k takes the k-th of the ``hidden``
   values, later rounds the last.
3. **Head to head** (:func:`head_to_head`): the new model at one seat among three of the previous one,
   against the previous one in that seat on the same deals (every seat and declarer: 16 plays a deal),
   per contract and over the seven together, with 95% CIs: the paired comparison of
   :mod:`barbu_sim.barbu.studies.compare`, in its standard configuration.

The rounds go on while a round gains: the next round starts only when the seven together's CI is
above 0.  Everything is kept under the work folder (``round-K/``: the data chunks, resumable, and
``model.json``); the chain is reproducible from its seed: the same command makes the same models,
byte for byte.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ...core.backends import make_backend
from ...core.files import read_json, write_json
from ...core.outputs import check_out
from ...core.stats import summarize
from ..players.learned import MODEL_NAMES, load_model, model_path
from ..rules import CONTRACTS
from ..studies.compare import STUDY_PARAMS, seat_scores
from .player import DEFAULT_DEALS, DEFAULT_HIDDEN, DEFAULT_SEED, check_sizes, parse_hidden, train_player

COMMAND = "barbu-sim train iterate"
COMPARE_COMMAND = "barbu-sim train compare"
CHECK_SEED = 9100  # the head-to-head deals' seed (deals no training round used); round k plays CHECK_SEED + k
DEFAULT_CHECK_DEALS = 6000
DEFAULT_SHARE = 0.3333  # the chance a seat plays like mc, and like the previous model
DEFAULT_WORK = "runs/expert"
DEFAULT_OUT = "results/expert_iteration.json"
METHOD = ("the new model at one seat among three of the old one, against the old one in that seat, same deals, every "
          "seat and declarer (16 plays a deal), 95% CI over deals")


class _BlockPlayer:
    """One block of head-to-head deals: the new model's and the old one's seat scores (picklable, for Ray).

    In the model array ``learned`` is the new model and ``learned1`` the old one."""

    def __init__(self, contracts, seed, models):
        self.contracts, self.seed, self.models = contracts, seed, models

    def __call__(self, lo, n):
        return (seat_scores("learned", "learned1", self.contracts, self.seed, lo, n, params=STUDY_PARAMS,
                            models=self.models),
                seat_scores("learned1", "learned1", self.contracts, self.seed, lo, n, params=STUDY_PARAMS,
                            models=self.models))


def _ci(values: np.ndarray) -> dict:
    d = summarize(values)
    return {"difference": round(d["mean"], 4), "ci_low": round(d["ci_low"], 4), "ci_high": round(d["ci_high"], 4)}


def head_to_head(new: np.ndarray, old: np.ndarray, deals: int, seed: int, backend=None,
                 log: Callable[[str], None] | None = None) -> dict:
    """The model array ``new`` at one seat among three of ``old``, against ``old`` in that seat (paired).

    Deals ``0 .. deals - 1`` of ``seed``, every seat and declarer, Trumps and Domino in the studies'
    standard configuration; blocks of deals are played by ``backend`` (default here; the figures do
    not depend on it).  Returns ``{"deals", "seed", "contracts": [{"contract", "difference",
    "ci_low", "ci_high"}, ...], "seven": {...}}``: points per deal, new minus old.
    """
    models = np.ascontiguousarray(np.concatenate([new, old]))
    contracts = list(range(len(CONTRACTS)))
    new_scores = np.zeros((deals, len(contracts)))
    old_scores = np.zeros((deals, len(contracts)))
    block = max(1, min(2000, deals // 4))
    blocks = [(lo, min(block, deals - lo)) for lo in range(0, deals, block)]
    t0 = time.perf_counter()
    for (lo, n), (s, w) in zip(blocks, (backend or make_backend("local")).imap(
            _BlockPlayer(contracts, seed, models), blocks, what="block of deals")):
        new_scores[lo:lo + n], old_scores[lo:lo + n] = s, w
        if log:
            log(f"  head to head: {lo + n:,}/{deals:,} deals, {time.perf_counter() - t0:.0f} s")
    rows = [{"contract": CONTRACTS[c], **_ci(new_scores[:, j] - old_scores[:, j])} for j, c in enumerate(contracts)]
    return {"deals": deals, "seed": seed, "contracts": rows,
            "seven": _ci(new_scores.sum(axis=1) - old_scores.sum(axis=1))}


def check_ci_deals(deals: int, flag: str) -> None:
    """A head-to-head's deals: at least 2, for its confidence interval has a width (one deal gives none)."""
    if deals < 2:
        raise ValueError(f"{flag} must be at least 2 (a confidence interval needs two deals), not {deals}")


def round_hidden(hidden: Sequence[str], k: int) -> str:
    """Round ``k``'s hidden units (1-based): the k-th of the ``hidden`` values, the last one past their end."""
    return hidden[min(k, len(hidden)) - 1]


def first_model_path(first_model: str | None) -> Path:
    """Round 0's model file: ``first_model`` as a file, or a packaged model by its name (``learned``,
    ``learned1``) where no such file is here; default the packaged ``learned1``."""
    if first_model is None:
        return model_path("learned1")
    if first_model in MODEL_NAMES and not Path(first_model).exists():
        return model_path(first_model)
    return Path(first_model)


def iterate_command(rounds: int, seed: int, deals: int, samples: int, mc_share: float, learned_share: float,
                    hidden: Sequence[str], check_deals: int, first_model: str | None) -> str:
    """The command line that makes the chain (its results file records it): the settings, not the paths."""
    return (f"{COMMAND} --rounds {rounds} --seed {seed} --deals {deals} --samples {samples} --mc-share {mc_share} "
            f"--learned-share {learned_share} " + " ".join(f"--hidden {h}" for h in hidden)
            + f" --check-deals {check_deals}" + (f" --first-model {first_model}" if first_model else ""))


def expert_iteration(out=DEFAULT_OUT, *, work=DEFAULT_WORK, rounds: int = 1, seed: int = DEFAULT_SEED,
                     deals: int = DEFAULT_DEALS, samples: int = 32, mc_share: float = DEFAULT_SHARE,
                     learned_share: float = DEFAULT_SHARE, hidden: Sequence[str] | None = None,
                     check_deals: int = DEFAULT_CHECK_DEALS, first_model: str | None = None, force: bool = False,
                     backend=None, progress: bool = False, log: Callable[[str], None] | None = None,
                     on_round: Callable[[dict], None] | None = None) -> dict:
    """Run up to ``rounds`` rounds of expert iteration from ``first_model``; write the figures to ``out`` after
    each round, and return them.

    Parameters
    ----------
    out : the results file (JSON); an existing one is refused before any work unless ``force``.
    work : where each round's data and model go (``round-K/data``, ``round-K/model.json``); a round's
        data resumes from the chunks there, and its model is remade.
    rounds : the most rounds; a round that does not gain (the seven together's CI not above 0) ends the chain.
    seed : round k's data is made from ``seed + k``.
    deals, samples, mc_share, learned_share : each round's training data (:func:`.player.train_player`).
    hidden : hidden units per round (``["16,trumps=32", "32"]``); default the first model's, every round.
    check_deals : head-to-head deals per round, of seed ``CHECK_SEED + k``.
    first_model : round 0's model: a file, or a packaged model's name (default ``learned1``).
    backend, progress, log : where data chunks and head-to-head blocks are played, a bar of the chunks, and
        what is said as the work goes.
    on_round : called with each round's figures when the round is done.
    """
    check_sizes(rounds=rounds, deals=deals, check_deals=check_deals, samples=samples, seed=seed)
    check_ci_deals(check_deals, "--check-deals")
    hidden = list(hidden or [DEFAULT_HIDDEN])
    for text in hidden:
        parse_hidden(text)  # a bad value is refused now, not after a round of work
    previous_path = first_model_path(first_model)
    previous, previous_id = load_model(str(previous_path.resolve()))
    check_out(out, force)  # refused now, not after a round of work
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    backend = backend or make_backend("local")
    command = iterate_command(rounds, seed, deals, samples, mc_share, learned_share, hidden, check_deals, first_model)
    figures = {"method": "round k: data of seed SEED + k taught by mc:rollout=learned on round k-1's model; the new "
                         "model at one seat among three of the previous one against the previous one in that seat, "
                         "same deals, every seat and declarer (16 plays a deal), 95% CI over deals",
               "command": command, "rounds": []}
    for k in range(1, rounds + 1):
        folder = Path(work) / f"round-{k}"
        model_file = folder / "model.json"
        started = time.perf_counter()
        trained = train_player(model_file, data=folder / "data", deals=deals, samples=samples, seed=seed + k,
                               hidden=round_hidden(hidden, k), teacher_model=str(previous_path), mc_share=mc_share,
                               learned_share=learned_share, force=True, backend=backend, progress=progress, log=log)
        made = time.perf_counter() - started
        new, new_id = load_model(str(model_file.resolve()))
        check = head_to_head(new, previous, check_deals, CHECK_SEED + k, backend, log)
        training = trained.model["training"]
        figures["rounds"].append({"round": k, "model": f"learned@{new_id}",
                                  "teacher": f"mc:rollout=learned on learned@{previous_id}",
                                  "command": training["command"], "held_out": training["held_out"],
                                  "seconds": round(made), "head_to_head": check})
        write_json(out, figures, indent=1, what="the chain's figures")  # after each round: the figures so far
        if on_round:
            on_round(figures["rounds"][-1])
        if check["seven"]["ci_low"] <= 0:
            break
        previous, previous_id, previous_path = new, new_id, model_file
    return figures


def model_summary(path, model_id: str) -> dict:
    """A model file's id, training command and held-out report, as :func:`compare_models` records them."""
    training = read_json(path).get("training")  # read once already, as the model (a BOM is allowed)
    training = training if isinstance(training, dict) else {}
    return {"file": str(path), "model": f"learned@{model_id}", "training_command": training.get("command"),
            "held_out": training.get("held_out")}


def compare_models(new, old, *, deals: int = DEFAULT_CHECK_DEALS, seed: int = CHECK_SEED, out=None,
                   force: bool = False, backend=None) -> dict:
    """Two model files head to head: ``new`` at one seat among three of ``old``, against ``old`` in that seat.

    ``out``: also write the figures there (JSON; an existing file is refused before any deal is played
    unless ``force``).  Returns ``{"method", "command", "models": {"new", "old"}, "head_to_head"}``.
    """
    check_sizes(deals=deals, seed=seed)
    check_ci_deals(deals, "--deals")
    if out is not None:
        check_out(out, force)  # before the deals are played, not after
    new_model, new_id = load_model(str(Path(new).resolve()))
    old_model, old_id = load_model(str(Path(old).resolve()))
    result = head_to_head(new_model, old_model, deals, seed, backend)
    figures = {"method": METHOD,
               "command": f"{COMPARE_COMMAND} {new} {old} --deals {deals} --seed {seed}",
               "models": {"new": model_summary(new, new_id), "old": model_summary(old, old_id)},
               "head_to_head": result}
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        write_json(out, figures, indent=1, what="the head-to-head figures")
    return figures
