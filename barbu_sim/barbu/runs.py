"""Barbu batch runs: a run's configuration, its records, and the run itself on the shared chunked runner.

``run(run_dir, config)`` plays ``config.deals`` deals under every configuration
into ``run_dir`` (see :mod:`barbu_sim.core.runs` for the directory, the manifest
and resume, and :mod:`barbu_sim.barbu.analytics.schema` for the records).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np
import polars as pl

from ..core.codestamp import player_stamp
from ..core.files import atomic_path, write_json
from ..core.rundir import read_manifest
from ..core.runs import GameRuns, RunError, RunSummary, check_players, run_game
from ..core.seats import N_SEATS
from .api import play_batch
from .engine.deals import deal_hands
from .rules.choices import CHOICE_LABELS, NO_CHOICE, Choice, parse_domino_choice, parse_trump_choice
from .rules.config import CONTRACTS, DOMINO, TRUMPS, Rules, parse_contract
from .analytics.hands import HAND_COLUMNS, HANDS_INFO, hands_path
from .analytics.schema import (
    CHOICE_ENUM, CONTRACT_ENUM, RANK_ENUM, RUN_KIND, SCORE_COLUMNS, SUIT_ENUM, TRICK_COLUMNS,
)
from .players.mc import player as mc_player
from .players.ids import is_mc
from .players.registry import USER, canonical_strategy, resolve_strategy

MAX_DEALS = 100_000_000
ROWS_PER_CHUNK = 2_000_000  # keeps a chunk's frame around 100 MB

__all__ = ["MAX_DEALS", "PlayConfig", "RunConfig", "RunError", "chunk_frame", "run", "seat_players", "write_hands"]


@dataclass(frozen=True)
class PlayConfig:
    """One configuration of a run: a contract, how its trump suit / domino rank is named, the declarer."""

    contract: int
    choice: Choice
    declarer: int

    def row(self) -> tuple[int, int, int]:
        """The kernels' ``(contract, param, declarer)`` row."""
        return (int(self.contract), self.choice.code, self.declarer)


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines a run's records (the manifest's ``config``).

    ``trump`` and ``domino_rank`` are the command line's text (``S``, ``each``,
    ``each,longest``...); they are parsed once, here, like every other field.
    """

    deals: int
    seed: int = 0
    contracts: list[str] = field(default_factory=lambda: list(CONTRACTS))
    strategies: list[str] = field(default_factory=lambda: ["heuristic"] * N_SEATS)
    trump: str = "longest"
    domino_rank: str = "7"
    declarer: int = 0
    rules: dict = field(default_factory=lambda: Rules().to_dict())
    chunk_deals: int = 0  # 0: chosen from the number of configurations

    def __post_init__(self):
        for name in ("deals", "seed", "declarer", "chunk_deals"):  # 300.0 would make float chunk bounds
            if not isinstance(getattr(self, name), numbers.Integral) or isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be an integer, not {getattr(self, name)!r}")
        if not isinstance(self.deals, int) or self.deals < 1:
            raise ValueError(f"the number of deals must be a positive integer, not {self.deals}")
        if self.deals > MAX_DEALS:
            raise ValueError(f"at most {MAX_DEALS:,} deals per run, not {self.deals:,}")
        if not isinstance(self.seed, int) or not 0 <= self.seed < 2**64:
            raise ValueError(f"the seed must be an integer 0..2^64-1, not {self.seed}")
        if not self.contracts:
            raise ValueError("give at least one contract")
        contracts = [CONTRACTS[parse_contract(c)] for c in self.contracts]
        if len(set(contracts)) != len(contracts):
            raise ValueError("a contract is named twice")
        if len(self.strategies) != N_SEATS:
            raise ValueError("give four strategies, one per seat")
        for s in self.strategies:
            resolve_strategy(s)  # fail early on an unknown strategy
        if not isinstance(self.declarer, int) or not 0 <= self.declarer < N_SEATS:
            raise ValueError("the declarer seat must be 0..3")
        choices = {TRUMPS: parse_trump_choice(self.trump, allow_each=True),
                   DOMINO: parse_domino_choice(self.domino_rank, allow_each=True)}
        configs = [PlayConfig(c, choice, self.declarer) for c in map(parse_contract, contracts)
                   for choice in choices.get(c, [NO_CHOICE.get(c)])]
        the_rules = Rules(**{k.replace("-", "_"): v for k, v in self.rules.items()})
        # every option, so that a run written before an option existed compares equal on --resume
        derived = {"contracts": contracts, "_rules": the_rules, "rules": the_rules.to_dict(), "_configs": configs,
                   "strategies": [canonical_strategy(s) for s in self.strategies]}
        if self.chunk_deals <= 0:
            slow = any(is_mc(resolve_strategy(s).builtin_id) for s in self.strategies)  # mc and pimc
            # An mc deal costs thousands of rollouts: small chunks keep Ctrl-C and --resume close to the work.
            derived["chunk_deals"] = max(1, 2000 // len(configs)) if slow else max(1000, ROWS_PER_CHUNK // len(configs))
        for name, value in derived.items():  # a frozen dataclass sets its derived fields this way
            object.__setattr__(self, name, value)

    @property
    def rules_obj(self) -> Rules:
        return self._rules

    def configs(self) -> list[PlayConfig]:
        """Every configuration, in record order."""
        return list(self._configs)

    def n_chunks(self) -> int:
        return -(-self.deals // self.chunk_deals)


def player_code(spec) -> str:
    """The code stamp of the player ``spec`` names: its module and the package modules it imports (for
    ``mc`` and ``pimc``, the Monte-Carlo player with its rollouts and endgame search), or a plugin's files."""
    strategy = resolve_strategy(spec)
    return player_stamp(spec, strategy, user_id=USER,
                        player_file=mc_player.__file__ if is_mc(strategy.builtin_id) else None)


def seat_players(strategies) -> list[dict]:
    """Each seat's player as a run's manifest records it: the spec with every parameter (``mc:samples=64,...``)
    and the model id (``learned@<id>``), and its code stamp.  ``--resume`` refuses to go on with others."""
    return [{"player": str(canonical_strategy(s)), "code": player_code(s)} for s in strategies]


def chunk_frame(lo: int, configs: list[PlayConfig], scores, tricks, params) -> pl.DataFrame:
    """The records of deals ``lo ..`` as a frame: one row per deal and configuration (see ``schema``)."""
    n, k = scores.shape[:2]
    contract_codes = np.tile([int(c.contract) for c in configs], n)
    choice_codes = np.tile([CHOICE_LABELS.index(c.choice.label) for c in configs], n)
    param = params.reshape(-1).astype(np.int64)
    frame = pl.DataFrame({
        "deal": np.repeat(np.arange(lo, lo + n, dtype=np.int64), k),
        "contract": contract_codes,
        "param": param,
        "choice": choice_codes,
        "declarer": np.tile([c.declarer for c in configs], n).astype(np.uint8),
        **{col: scores[:, :, s].reshape(-1) for s, col in enumerate(SCORE_COLUMNS)},
        **{col: tricks[:, :, s].reshape(-1) for s, col in enumerate(TRICK_COLUMNS)},
    })
    return frame.select(
        "deal",
        pl.col("contract").replace_strict(list(range(len(CONTRACTS))), list(CONTRACTS), return_dtype=CONTRACT_ENUM),
        pl.when(pl.col("contract") == TRUMPS).then(
            pl.col("param").replace_strict(list(range(4)), SUIT_ENUM.categories.to_list(), default=None,
                                           return_dtype=SUIT_ENUM)
        ).alias("trump"),
        pl.when(pl.col("contract") == DOMINO).then(
            pl.col("param").replace_strict(list(range(13)), RANK_ENUM.categories.to_list(), default=None,
                                           return_dtype=RANK_ENUM)
        ).alias("domino_rank"),
        pl.col("choice").replace_strict(list(range(len(CHOICE_LABELS))), list(CHOICE_LABELS),
                                        return_dtype=CHOICE_ENUM),
        "declarer", *SCORE_COLUMNS, *TRICK_COLUMNS,
    )


def play_chunk(config: RunConfig, lo: int, n: int) -> pl.DataFrame:
    """The records of deals ``lo .. lo + n - 1`` of a run (a pure function: any process may play it)."""
    configs = config.configs()
    scores, tricks, params = play_batch(config.seed, lo, n, [c.row() for c in configs], config.strategies,
                                        rules=config.rules_obj, with_params=True)
    return chunk_frame(lo, configs, scores, tricks, params)


def check_resumed(run_dir, manifest: dict, config: RunConfig) -> None:
    """Refuse to resume a run whose configurations or players are no longer those it began with."""
    check_configs(manifest, config, run_dir)
    check_players(run_dir, manifest, seat_players(config.strategies))


# What --resume compares: RunConfig field -> the flag that sets it.
RESUME_FLAGS = {"deals": "--deals", "seed": "--seed", "contracts": "--contract", "strategies": "--strategy",
                "trump": "--trump", "domino_rank": "--domino-rank", "declarer": "--declarer",
                "rules": "--rules/--option"}

# Barbu's batch runs, as barbu_sim.core.runs runs and resumes them.
RUNS = GameRuns(
    kind=RUN_KIND,
    config_type=RunConfig,
    resume_flags=RESUME_FLAGS,
    manifest_fields=lambda config: {"configs": [c.row() for c in config.configs()],
                                    "players": seat_players(config.strategies)},
    check_resumed=check_resumed,
    chunk_player=lambda config, local: partial(play_chunk, config),
)


def run(run_dir, config: RunConfig | None = None, *, resume: bool = False, force: bool = False,
        threads: int | None = None, progress: bool = True, backend=None) -> RunSummary:
    """Simulate ``config`` into ``run_dir`` (or, with ``resume``, finish the run found there): see
    :func:`barbu_sim.core.runs.run_game`."""
    return run_game(RUNS, run_dir, config, resume=resume, force=force, threads=threads, progress=progress,
                    backend=backend)


def config_of(manifest: dict, run_dir) -> RunConfig:
    """The :class:`RunConfig` stored in a run's manifest (a clear error if it is not one)."""
    return RUNS.config_of(manifest, run_dir)


def check_configs(manifest: dict, config: RunConfig, run_dir) -> None:
    """Refuse a run whose ``configs`` (what its records were played under, a row per configuration, and
    how many records a deal holds) are not those its ``config`` makes: a resumed run would play its
    remaining chunks under other configurations than its first."""
    made = [list(c.row()) for c in config.configs()]
    if manifest.get("configs") != made:
        raise RunError(f"{run_dir}/manifest.json: its configs (the configurations its records were played under) "
                       f"are not those its config makes (contracts {', '.join(config.contracts)}, trump "
                       f"{config.trump}, domino rank {config.domino_rank}): the configs and the config disagree; "
                       "the manifest was edited or damaged (restore it, or start the run again with --force)")


HANDS_SLICE = 1_000_000  # deals dealt and written at a time: 32 MB of masks


def write_hands(run_dir, *, force: bool = False) -> tuple[Path, int]:
    """Write ``RUN_DIR/hands.parquet``: every seat's hand of each of the run's deals, dealt again from its seed.

    A deal is a pure function of the run's seed and its index, so these are exactly the hands its records
    were played with, whether the run has finished or not.  Refuses to replace a hands file without
    ``force``.  Returns the path and its size in bytes.
    """
    manifest = read_manifest(run_dir, RUN_KIND.unit)
    RUN_KIND.check_game(manifest, run_dir)
    seed, deals = manifest["config"]["seed"], manifest["config"]["deals"]
    path, info_path = hands_path(run_dir), Path(run_dir) / HANDS_INFO
    if path.exists() and not force:
        raise RunError(f"{path} exists: give --force to write it again")
    frames = []
    for lo in range(0, deals, HANDS_SLICE):
        n = min(HANDS_SLICE, deals - lo)
        hands = deal_hands(seed, lo, n)
        frames.append(pl.DataFrame({"deal": np.arange(lo, lo + n, dtype=np.int64),
                                    **{col: hands[:, s] for s, col in enumerate(HAND_COLUMNS)}}))
    with atomic_path(path, "the run's hands") as tmp:
        pl.concat(frames).write_parquet(tmp, statistics=False)
    size = path.stat().st_size
    write_json(info_path, {"seed": seed, "deals": deals, "bytes": size}, "the hands' description")
    return path, size
