"""Batch runs: chunked simulation to Parquet with a manifest, progress, and resume.

A run directory holds ``manifest.json`` and ``records/part-NNNNNN.parquet``.
Chunk ``k`` holds deals ``k * chunk_deals ..`` and is a pure function of the
configuration and seed, so a run interrupted at any point resumes where the
last completed chunk ended and ends with exactly the files an uninterrupted run
writes.  Each chunk is written to a temporary name, then renamed.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numba
import numpy as np
import polars as pl

from . import __version__
from .cards import RANK_NAMES, SEAT_LETTERS
from .choices import choice_label, parse_domino_choice, parse_trump_choice
from .engine import play_batch
from .rules import CONTRACTS, DOMINO, TRUMPS, Rules, parse_contract
from .strategies import resolve_strategy

SCHEMA_VERSION = 1
MAX_DEALS = 100_000_000
SUIT_CODES = ["C", "D", "H", "S"]  # Enum order = suit index
CHOICES = ["fixed", "longest", "strongest", "most-held"]
CONTRACT_ENUM = pl.Enum(list(CONTRACTS))
SUIT_ENUM = pl.Enum(SUIT_CODES)
RANK_ENUM = pl.Enum(list(RANK_NAMES))
CHOICE_ENUM = pl.Enum(CHOICES)
SCORE_COLUMNS = [f"score_{s.lower()}" for s in SEAT_LETTERS]
TRICK_COLUMNS = [f"tricks_{s.lower()}" for s in SEAT_LETTERS]
ROWS_PER_CHUNK = 2_000_000  # keeps a chunk's frame around 100 MB


class RunError(ValueError):
    """A run directory that cannot be used as asked (exists, differs, incomplete...)."""


@dataclass
class RunConfig:
    """Everything that determines a run's records (the manifest's ``config``)."""

    deals: int
    seed: int = 0
    contracts: list[str] = field(default_factory=lambda: list(CONTRACTS))
    strategies: list[str] = field(default_factory=lambda: ["heuristic"] * 4)
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
        if len(self.strategies) != 4:
            raise ValueError("give four strategies, one per seat")
        for s in self.strategies:
            resolve_strategy(s)  # fail early on an unknown strategy
        parse_trump_choice(self.trump, allow_each=True)
        parse_domino_choice(self.domino_rank, allow_each=True)
        Rules(**{k.replace("-", "_"): v for k, v in self.rules.items()})
        if not 0 <= self.declarer < 4:
            raise ValueError("the declarer seat must be 0..3")
        if self.chunk_deals <= 0:
            self.chunk_deals = max(1000, ROWS_PER_CHUNK // len(self.configs()))

    @property
    def rules_obj(self) -> Rules:
        return Rules(**{k.replace("-", "_"): v for k, v in self.rules.items()})

    def configs(self) -> list[tuple[int, int, int]]:
        """(contract, param, declarer) for every configuration, in record order."""
        out = []
        for name in self.contracts:
            c = parse_contract(name)
            if c == TRUMPS:
                params = parse_trump_choice(self.trump, allow_each=True)
            elif c == DOMINO:
                params = parse_domino_choice(self.domino_rank, allow_each=True)
            else:
                params = [0]
            out += [(c, p, self.declarer) for p in params]
        return out

    def n_chunks(self) -> int:
        return -(-self.deals // self.chunk_deals)


def chunk_frame(lo: int, configs, scores, tricks, params) -> pl.DataFrame:
    """The records of deals ``lo ..`` as a frame: one row per deal and configuration."""
    n, k = scores.shape[:2]
    cfg = np.array(configs, np.int64)
    contract_codes = np.tile(cfg[:, 0], n)
    choice_codes = np.tile([CHOICES.index(choice_label(c, p)) for c, p, _ in configs], n)
    param = params.reshape(-1).astype(np.int64)
    frame = pl.DataFrame({
        "deal": np.repeat(np.arange(lo, lo + n, dtype=np.int64), k),
        "contract": contract_codes,
        "param": param,
        "choice": choice_codes,
        "declarer": np.tile(cfg[:, 2], n).astype(np.uint8),
        **{col: scores[:, :, s].reshape(-1) for s, col in enumerate(SCORE_COLUMNS)},
        **{col: tricks[:, :, s].reshape(-1) for s, col in enumerate(TRICK_COLUMNS)},
    })
    return frame.select(
        "deal",
        pl.col("contract").replace_strict(list(range(7)), list(CONTRACTS), return_dtype=CONTRACT_ENUM),
        pl.when(pl.col("contract") == TRUMPS).then(
            pl.col("param").replace_strict(list(range(4)), SUIT_CODES, default=None, return_dtype=SUIT_ENUM)
        ).alias("trump"),
        pl.when(pl.col("contract") == DOMINO).then(
            pl.col("param").replace_strict(list(range(13)), list(RANK_NAMES), default=None, return_dtype=RANK_ENUM)
        ).alias("domino_rank"),
        pl.col("choice").replace_strict(list(range(len(CHOICES))), CHOICES, return_dtype=CHOICE_ENUM),
        "declarer", *SCORE_COLUMNS, *TRICK_COLUMNS,
    )


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, path)


def read_manifest(run_dir) -> dict:
    """The manifest of a run directory, or a clear error."""
    path = Path(run_dir) / "manifest.json"
    if not Path(run_dir).is_dir():
        raise RunError(f"{run_dir} is not a directory")
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise RunError(f"{run_dir} is not a barbu-sim run directory (no manifest.json)") from None
    except (OSError, json.JSONDecodeError) as e:
        raise RunError(f"cannot read {path}: {e}") from None


def part_path(run_dir: Path, k: int) -> Path:
    return run_dir / "records" / f"part-{k:06d}.parquet"


@dataclass
class RunSummary:
    run_dir: Path
    deals_done: int
    wall_seconds: float
    deals_per_second: float
    complete: bool


def run(run_dir, config: RunConfig | None = None, *, resume: bool = False, force: bool = False,
        threads: int | None = None, progress: bool = True) -> RunSummary:
    """Simulate ``config`` into ``run_dir`` (or, with ``resume``, finish the run found there).

    Refuses to write into a directory holding another run unless ``force``.
    Returns when every chunk is on disk; on ``KeyboardInterrupt`` the completed
    chunks and the manifest stay valid and the exception propagates.
    """
    run_dir = Path(run_dir)
    manifest_path = run_dir / "manifest.json"
    if threads is not None and threads < 1:
        raise ValueError("--threads must be at least 1")
    if resume:
        manifest = read_manifest(run_dir)
        if manifest.get("schema_version") != SCHEMA_VERSION:
            raise RunError(f"{run_dir} was written by an incompatible barbu-sim (schema {manifest.get('schema_version')})")
        config = RunConfig(**manifest["config"])
    else:
        if config is None:
            raise ValueError("give a configuration (or resume an existing run)")
        if manifest_path.exists() and not force:
            raise RunError(f"{run_dir} already holds a run: use --resume to finish it or --force to replace it")
        if run_dir.exists() and any(run_dir.iterdir()) and not manifest_path.exists() and not force:
            raise RunError(f"{run_dir} is not empty and holds no run: choose another --out or use --force")
        if force and (run_dir / "records").is_dir():
            for p in (run_dir / "records").glob("part-*.parquet*"):
                p.unlink()
        (run_dir / "records").mkdir(parents=True, exist_ok=True)
        manifest = {
            "schema_version": SCHEMA_VERSION, "package_version": __version__,
            "config": asdict(config), "configs": config.configs(), "deals_done": 0,
            "chunks_done": 0, "complete": False, "wall_seconds": 0.0, "deals_per_second": None,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        _write_json(manifest_path, manifest)
    (run_dir / "records").mkdir(parents=True, exist_ok=True)
    for stale in (run_dir / "records").glob("*.tmp"):
        stale.unlink()
    if threads is not None:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    configs = config.configs()
    rules = config.rules_obj

    def chunk_size(k: int) -> int:
        return min(config.chunk_deals, config.deals - k * config.chunk_deals)

    todo = [k for k in range(config.n_chunks()) if not part_path(run_dir, k).exists()]
    chunks_done = config.n_chunks() - len(todo)
    done_deals = config.deals - sum(chunk_size(k) for k in todo)
    from tqdm import tqdm

    bar = tqdm(total=config.deals, initial=done_deals, unit=" deals", unit_scale=True,
               disable=not progress, desc="simulating", smoothing=0.1)
    wall0 = manifest.get("wall_seconds", 0.0)
    started = time.perf_counter()
    played = 0
    try:
        for k in todo:
            lo = k * config.chunk_deals
            n = chunk_size(k)
            scores, tricks, params = play_batch(config.seed, lo, n, configs, config.strategies,
                                                rules=rules, with_params=True)
            path = part_path(run_dir, k)
            tmp = path.with_suffix(".parquet.tmp")
            chunk_frame(lo, configs, scores, tricks, params).write_parquet(tmp, statistics=False)
            os.replace(tmp, path)
            played += n
            done_deals += n
            chunks_done += 1
            bar.update(n)
            elapsed = time.perf_counter() - started
            manifest.update(deals_done=done_deals, chunks_done=chunks_done,
                            wall_seconds=wall0 + elapsed, deals_per_second=played / elapsed if elapsed else None)
            _write_json(manifest_path, manifest)
    finally:
        bar.close()
    manifest["complete"] = done_deals == config.deals
    _write_json(manifest_path, manifest)
    return RunSummary(run_dir, done_deals, manifest["wall_seconds"], manifest["deals_per_second"] or 0.0,
                      manifest["complete"])
