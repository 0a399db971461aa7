"""Barbu batch runs: a run's configuration, its records, and the run itself on the shared chunked runner.

``run(run_dir, config)`` plays ``config.deals`` deals under every configuration
into ``run_dir`` (see :mod:`barbu_sim.core.runs` for the directory, the manifest
and resume, and :mod:`barbu_sim.barbu.schema` for the records).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

import numba
import numpy as np
import polars as pl

from ..core.runs import RunError, RunSummary, fill_chunks, load_run, start_run
from ..core.seats import N_SEATS
from .api import play_batch
from .choices import CHOICE_LABELS, Choice, contract_choices
from .rules import CONTRACTS, DOMINO, TRUMPS, Rules, parse_contract
from .schema import (
    CHOICE_ENUM, CONTRACT_ENUM, RANK_ENUM, SCHEMA_VERSION, SCORE_COLUMNS, SUIT_ENUM, TRICK_COLUMNS,
)
from .strategies import resolve_strategy

MAX_DEALS = 100_000_000
ROWS_PER_CHUNK = 2_000_000  # keeps a chunk's frame around 100 MB

__all__ = ["MAX_DEALS", "PlayConfig", "RunConfig", "RunError", "chunk_frame", "run"]


@dataclass(frozen=True)
class PlayConfig:
    """One configuration of a run: a contract, how its trump suit / domino rank is named, the declarer."""

    contract: int
    choice: Choice
    declarer: int

    def row(self) -> tuple[int, int, int]:
        """The kernels' ``(contract, param, declarer)`` row."""
        return (int(self.contract), self.choice.code, self.declarer)


@dataclass
class RunConfig:
    """Everything that determines a run's records (the manifest's ``config``).

    ``trump`` and ``domino_rank`` are the command line's text (``S``, ``each``,
    ``each,longest``...); they are parsed once, here.
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
        if not isinstance(self.deals, int) or self.deals < 1:
            raise ValueError(f"the number of deals must be a positive integer, not {self.deals}")
        if self.deals > MAX_DEALS:
            raise ValueError(f"at most {MAX_DEALS:,} deals per run, not {self.deals:,}")
        if self.seed < 0:
            raise ValueError("the seed must be a non-negative integer")
        if not self.contracts:
            raise ValueError("give at least one contract")
        self.contracts = [CONTRACTS[parse_contract(c)] for c in self.contracts]
        if len(set(self.contracts)) != len(self.contracts):
            raise ValueError("a contract is named twice")
        if len(self.strategies) != N_SEATS:
            raise ValueError("give four strategies, one per seat")
        for s in self.strategies:
            resolve_strategy(s)  # fail early on an unknown strategy
        self._rules = Rules(**{k.replace("-", "_"): v for k, v in self.rules.items()})
        if not 0 <= self.declarer < N_SEATS:
            raise ValueError("the declarer seat must be 0..3")
        self._configs = [PlayConfig(c, choice, self.declarer)
                         for c in map(parse_contract, self.contracts)
                         for choice in contract_choices(c, self.trump, self.domino_rank, allow_each=True)]
        if self.chunk_deals <= 0:
            self.chunk_deals = max(1000, ROWS_PER_CHUNK // len(self._configs))

    @property
    def rules_obj(self) -> Rules:
        return self._rules

    def configs(self) -> list[PlayConfig]:
        """Every configuration, in record order."""
        return list(self._configs)

    def n_chunks(self) -> int:
        return -(-self.deals // self.chunk_deals)


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


def run(run_dir, config: RunConfig | None = None, *, resume: bool = False, force: bool = False,
        threads: int | None = None, progress: bool = True) -> RunSummary:
    """Simulate ``config`` into ``run_dir`` (or, with ``resume``, finish the run found there).

    Refuses to write into a directory holding another run unless ``force``.
    Returns when every chunk is on disk; on ``KeyboardInterrupt`` the completed
    chunks and the manifest stay valid and the exception propagates.
    """
    run_dir = Path(run_dir)
    if threads is not None and threads < 1:
        raise ValueError("--threads must be at least 1")
    if resume:
        manifest = load_run(run_dir, SCHEMA_VERSION)
        config = RunConfig(**manifest["config"])
    else:
        if config is None:
            raise ValueError("give a configuration (or resume an existing run)")
        manifest = start_run(run_dir, SCHEMA_VERSION,
                             {"config": asdict(config), "configs": [c.row() for c in config.configs()]},
                             unit="deals", force=force)
    if threads is not None:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    configs = config.configs()
    rows = [c.row() for c in configs]
    rules = config.rules_obj

    def play_chunk(lo: int, n: int) -> pl.DataFrame:
        scores, tricks, params = play_batch(config.seed, lo, n, rows, config.strategies, rules=rules,
                                            with_params=True)
        return chunk_frame(lo, configs, scores, tricks, params)

    return fill_chunks(run_dir, manifest, config.deals, config.chunk_deals, play_chunk, unit="deals",
                       progress=progress)
