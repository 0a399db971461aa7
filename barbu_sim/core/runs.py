"""Chunked runs: records written to Parquet chunk by chunk, with a manifest, progress and resume.

Game-agnostic: a game wing gives the number of work items (deals, rounds, games),
the chunk size and a function that plays one chunk and returns its records as a
polars frame.  A run directory holds ``manifest.json`` and
``records/part-NNNNNN.parquet``; chunk ``k`` holds items ``k * chunk ..`` and is a
pure function of the configuration and seed, so a run interrupted at any point
resumes where the last completed chunk ended and ends with exactly the files an
uninterrupted run writes.  Each chunk is written to a temporary name, then renamed.

This module does not import numba: the analytics read run directories through it.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import polars as pl

from .. import __version__


class RunError(ValueError):
    """A run directory that cannot be used as asked (exists, differs, incomplete...)."""


@dataclass
class RunSummary:
    """How a call to :func:`fill_chunks` left the run."""

    run_dir: Path
    done: int  # items (deals, rounds...) on disk
    wall_seconds: float
    per_second: float
    complete: bool


def write_json(path: Path, data: dict) -> None:
    """Write ``data`` as JSON atomically (temporary file, then rename)."""
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, path)


def read_manifest(run_dir) -> dict:
    """The manifest of a run directory, or a clear :class:`RunError`."""
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
    """The Parquet file of chunk ``k``."""
    return Path(run_dir) / "records" / f"part-{k:06d}.parquet"


def scan_records(run_dir) -> pl.LazyFrame:
    """The records of a run directory as a LazyFrame (a clear error if there are none)."""
    run_dir = Path(run_dir)
    read_manifest(run_dir)
    parts = sorted((run_dir / "records").glob("part-*.parquet"))
    if not parts:
        raise RunError(f"{run_dir} holds no records yet")
    return pl.scan_parquet(parts)


def load_run(run_dir, schema_version: int) -> dict:
    """The manifest of a run to resume, refusing one written by an incompatible version."""
    manifest = read_manifest(run_dir)
    if manifest.get("schema_version") != schema_version:
        raise RunError(f"{run_dir} was written by an incompatible barbu-sim (schema {manifest.get('schema_version')})")
    return manifest


def start_run(run_dir, schema_version: int, fields: dict, *, unit: str, force: bool = False) -> dict:
    """Create a new run in ``run_dir`` and write its first manifest.

    ``fields`` (the run's ``config`` and whatever else the game records) go after
    the schema and package versions.  Refuses a directory holding another run, or
    any files, unless ``force``.
    """
    run_dir = Path(run_dir)
    manifest_path = run_dir / "manifest.json"
    if manifest_path.exists() and not force:
        raise RunError(f"{run_dir} already holds a run: use --resume to finish it or --force to replace it")
    if run_dir.exists() and any(run_dir.iterdir()) and not manifest_path.exists() and not force:
        raise RunError(f"{run_dir} is not empty and holds no run: choose another --out or use --force")
    if force and (run_dir / "records").is_dir():
        for p in (run_dir / "records").glob("part-*.parquet*"):
            p.unlink()
    (run_dir / "records").mkdir(parents=True, exist_ok=True)
    manifest = {
        "schema_version": schema_version, "package_version": __version__, **fields,
        f"{unit}_done": 0, "chunks_done": 0, "complete": False, "wall_seconds": 0.0, f"{unit}_per_second": None,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    write_json(manifest_path, manifest)
    return manifest


def fill_chunks(run_dir, manifest: dict, total: int, chunk: int, play_chunk: Callable[[int, int], pl.DataFrame],
                *, unit: str, progress: bool = True) -> RunSummary:
    """Play and write every chunk not yet on disk, updating the manifest after each one.

    ``play_chunk(lo, n)`` returns the records of items ``lo .. lo + n - 1``.  On
    ``KeyboardInterrupt`` the completed chunks and the manifest stay valid and the
    exception propagates.
    """
    from tqdm import tqdm

    run_dir = Path(run_dir)
    manifest_path = run_dir / "manifest.json"
    (run_dir / "records").mkdir(parents=True, exist_ok=True)
    for stale in (run_dir / "records").glob("*.tmp"):
        stale.unlink()
    n_chunks = -(-total // chunk)

    def chunk_size(k: int) -> int:
        return min(chunk, total - k * chunk)

    todo = [k for k in range(n_chunks) if not part_path(run_dir, k).exists()]
    chunks_done = n_chunks - len(todo)
    done = total - sum(chunk_size(k) for k in todo)
    bar = tqdm(total=total, initial=done, unit=f" {unit}", unit_scale=True, disable=not progress,
               desc="simulating", smoothing=0.1)
    wall0 = manifest.get("wall_seconds", 0.0)
    started = time.perf_counter()
    played = 0
    try:
        for k in todo:
            lo, n = k * chunk, chunk_size(k)
            frame = play_chunk(lo, n)
            path = part_path(run_dir, k)
            tmp = path.with_suffix(".parquet.tmp")
            frame.write_parquet(tmp, statistics=False)
            os.replace(tmp, path)
            played += n
            done += n
            chunks_done += 1
            bar.update(n)
            elapsed = time.perf_counter() - started
            manifest.update({f"{unit}_done": done, "chunks_done": chunks_done, "wall_seconds": wall0 + elapsed,
                             f"{unit}_per_second": played / elapsed if elapsed else None})
            write_json(manifest_path, manifest)
    finally:
        bar.close()
    manifest["complete"] = done == total
    write_json(manifest_path, manifest)
    return RunSummary(run_dir, done, manifest["wall_seconds"], manifest[f"{unit}_per_second"] or 0.0,
                      manifest["complete"])
