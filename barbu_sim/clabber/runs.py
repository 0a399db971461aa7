"""Clabber batch runs: a run's configuration, its records, and the run on the shared chunked runner.

``run(run_dir, config)`` plays ``config.rounds`` rounds into ``run_dir`` (see
:mod:`barbu_sim.core.runs` for the directory, the manifest and resume, and
:mod:`barbu_sim.clabber.analytics.schema` for the records).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import polars as pl

from ..core.codestamp import player_stamp, source_stamp
from ..core.runs import GameRuns, RunError, RunSummary, check_players, run_game
from .players import bidding as bidding_module
from .players import mc as mc_play
from .api import play_rounds, seat_bidding
from .rules.config import N_ROUND_COLUMNS, ROUND_COLUMNS, rules_from_dict
from .analytics.schema import (
    CARD_ENUM, RANK_ENUM, REL_DEALER, REL_ENUM, RUN_KIND, SEAT_ENUM, SEAT_SUFFIXES, SUIT_ENUM, TEAM_ENUM,
)
from .players.bidding import ACCEPT_FIRST, POLICIES, RANDOM, parse_bidding
from .players.mc import is_mc
from .players import learned as learned_play
from .players.registry import LEARNED, USER, resolve_strategy

MAX_ROUNDS = 1_000_000_000
CHUNK_ROUNDS = 1_000_000

__all__ = ["RunConfig", "RunError", "chunk_frame", "run", "seat_players"]


@dataclass
class RunConfig:
    """Everything that determines a run's records (the manifest's ``config``)."""

    rounds: int
    seed: int = 0
    dealer: int = 0
    bidding: list[str] = field(default_factory=lambda: ["accept-first"] * 4)
    strategies: list[str] = field(default_factory=lambda: ["heuristic"] * 4)
    rules: dict = field(default_factory=lambda: rules_from_dict({}).to_dict())
    chunk_rounds: int = CHUNK_ROUNDS

    def __post_init__(self):
        for name in ("rounds", "seed", "dealer", "chunk_rounds"):  # 300.0 would make float chunk bounds
            if not isinstance(getattr(self, name), numbers.Integral) or isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be an integer, not {getattr(self, name)!r}")
        if not isinstance(self.rounds, int) or not 1 <= self.rounds <= MAX_ROUNDS:
            raise ValueError(f"the number of rounds must be 1..{MAX_ROUNDS:,}, not {self.rounds}")
        if self.seed < 0:
            raise ValueError("the seed must be a non-negative integer")
        if not 0 <= self.dealer < 4:
            raise ValueError("the dealer must be a seat 0..3")
        if len(self.strategies) != 4 or len(self.bidding) != 4:
            raise ValueError("give four strategies and four bidding policies, one per seat")
        for s in self.strategies:
            resolve_strategy(s)
        seat_bidding(self.bidding)
        self._rules = rules_from_dict(self.rules)
        # every option, so that a run written before an option existed compares equal on --resume
        self.rules = self._rules.to_dict()
        if self.chunk_rounds < 1:
            raise ValueError("chunk_rounds must be positive")


def _player_code(spec) -> str:
    """The code stamp of a card player: its module and the package modules it imports, or a plugin's files."""
    strategy = resolve_strategy(spec)
    player_file = mc_play.__file__ if is_mc(strategy.builtin_id) else learned_play.__file__ \
        if strategy.builtin_id == LEARNED else None
    return player_stamp(spec, strategy, user_id=USER, player_file=player_file)


def _bidding_name(spec: str) -> str:
    """A bidding policy with its parameter spelled out (``threshold`` -> ``threshold:75``)."""
    pid, arg = parse_bidding(spec)
    return POLICIES[pid] if pid in (ACCEPT_FIRST, RANDOM) else f"{POLICIES[pid]}:{arg}"


def seat_players(strategies, bidding) -> list[dict]:
    """Each seat's players as a run's manifest records them: the card player with every parameter
    (``mc:samples=48``), the bidding policy with its parameter, and their code stamps.  ``--resume``
    refuses to go on with others."""
    bid_code = source_stamp(bidding_module.__file__)
    return [{"player": resolve_strategy(s).name if isinstance(s, str) and resolve_strategy(s).builtin_id != USER
             else str(s), "code": _player_code(s), "bidding": _bidding_name(b), "bidding_code": bid_code}
            for s, b in zip(strategies, bidding)]


def chunk_frame(lo: int, rows: np.ndarray) -> pl.DataFrame:
    """The records of rounds ``lo ..`` (the kernel's int16 rows) as a frame of the schema."""
    raw = pl.DataFrame({c: rows[:, i] for i, c in enumerate(ROUND_COLUMNS)})
    played = pl.col("bid_round") > 0
    card = pl.col("turned").cast(pl.Int32)
    suit, rank = card // 13, card % 13 - 7
    rel = (pl.col("maker").cast(pl.Int32) - pl.col("dealer").cast(pl.Int32) + 3) % 4
    seat_enum = lambda e: e.replace_strict(list(range(4)), list("NESW"), return_dtype=SEAT_ENUM)  # noqa: E731
    return raw.select(
        pl.int_range(lo, lo + rows.shape[0], dtype=pl.Int64).alias("round"),
        seat_enum(pl.col("dealer").cast(pl.Int32)).alias("dealer"),
        (suit * 6 + rank).replace_strict(list(range(24)), CARD_ENUM.categories.to_list(),
                                         return_dtype=CARD_ENUM).alias("turned"),
        suit.replace_strict(list(range(4)), list("CDHS"), return_dtype=SUIT_ENUM).alias("turned_suit"),
        rank.replace_strict(list(range(6)), RANK_ENUM.categories.to_list(),
                            return_dtype=RANK_ENUM).alias("turned_rank"),
        pl.col("bid_round").cast(pl.UInt8),
        pl.when(played).then(seat_enum(pl.col("maker").cast(pl.Int32).clip(0, 3))).alias("maker"),
        pl.when(played).then(rel.replace_strict(list(range(4)), REL_DEALER, return_dtype=REL_ENUM)).alias("maker_rel"),
        pl.when(played).then((pl.col("maker").cast(pl.Int32) % 2).replace_strict([0, 1], ["NS", "EW"],
                                                                                  return_dtype=TEAM_ENUM)).alias("makers"),
        pl.when(played).then(pl.col("trump").cast(pl.Int32).clip(0, 3).replace_strict(
            list(range(4)), list("CDHS"), return_dtype=SUIT_ENUM)).alias("trump"),
        pl.when(played).then(pl.col("maker_trumps").cast(pl.Int8)).alias("maker_trumps"),
        *[pl.col(f"{m}_{t}").cast(pl.Int16) for m in ("card", "meld", "bell", "score") for t in ("ns", "ew")],
        pl.col("misplay").cast(pl.Int8),
        *[(pl.col(f"flags_{s}") % 8).cast(pl.Int8).alias(f"run_{s}") for s in SEAT_SUFFIXES],
        *[(pl.col(f"flags_{s}") >= 8).alias(f"four_{s}") for s in SEAT_SUFFIXES],
    )


# What ``--resume`` compares: RunConfig field -> the flag that sets it.
RESUME_FLAGS = {"rounds": "--rounds", "seed": "--seed", "dealer": "--dealer", "bidding": "--bidding",
                "strategies": "--strategy", "rules": "--option"}


def play_chunk(config: RunConfig, lo: int, n: int, buffer: np.ndarray | None = None) -> pl.DataFrame:
    """The records of rounds ``lo .. lo + n - 1`` of a run (a pure function: any process may play it).

    ``buffer``: an int16 array of at least ``n`` rows the kernel may write into (reused by a local run).
    """
    rows = play_rounds(config.seed, lo, n, config.dealer, config.bidding, config.strategies, config._rules,
                       out=None if buffer is None else buffer[:n])
    return chunk_frame(lo, rows)


def chunk_player(config: RunConfig, local: bool):
    """The function that plays a chunk of ``config``'s run; a local run reuses one output array for every chunk."""
    if not local:
        return partial(play_chunk, config)
    buffer = np.empty((min(config.chunk_rounds, config.rounds), N_ROUND_COLUMNS), np.int16)
    return partial(play_chunk, config, buffer=buffer)


# Clabber's batch runs, as barbu_sim.core.runs runs and resumes them.
RUNS = GameRuns(
    kind=RUN_KIND,
    config_type=RunConfig,
    resume_flags=RESUME_FLAGS,
    manifest_fields=lambda config: {"players": seat_players(config.strategies, config.bidding)},
    check_resumed=lambda run_dir, manifest, config: check_players(
        run_dir, manifest, seat_players(config.strategies, config.bidding)),
    chunk_player=chunk_player,
)


def run(run_dir, config: RunConfig | None = None, *, resume: bool = False, force: bool = False,
        threads: int | None = None, progress: bool = True, backend=None) -> RunSummary:
    """Simulate ``config`` into ``run_dir`` (or, with ``resume``, finish the run found there): see
    :func:`barbu_sim.core.runs.run_game`."""
    return run_game(RUNS, run_dir, config, resume=resume, force=force, threads=threads, progress=progress,
                    backend=backend)
