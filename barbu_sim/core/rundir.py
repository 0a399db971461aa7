"""Reading a run directory: its manifest (read once, its shape checked), the chunks it vouches
for, and one consistent snapshot of both for the reports and analyses.

The writing side (lock, start, resume, playing the chunks) is :mod:`barbu_sim.core.runs`.
This module does not import numba: the analytics read run directories through it.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import polars as pl

LOCK_FILE = ".lock"
MANIFEST_KEYS = ("schema_version", "package_version", "config", "chunks_done", "complete", "wall_seconds")


class RunError(ValueError):
    """A run directory that cannot be used as asked (exists, differs, incomplete...)."""


def read_manifest(run_dir, unit: str | None = None) -> dict:
    """The manifest of a run directory, or a clear :class:`RunError`.

    With ``unit`` (``deals``...), also check that it holds every key a run's manifest has.
    """
    path = Path(run_dir) / "manifest.json"
    if not Path(run_dir).is_dir():
        raise RunError(f"{run_dir} is not a directory")
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        raise RunError(f"{run_dir} is not a barbu-sim run directory (no manifest.json)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RunError(f"cannot read {path}: {e}") from None
    if not isinstance(manifest, dict):
        raise RunError(f"{path} is not a barbu-sim manifest")
    if unit is not None:
        check_manifest(manifest, path, unit)
    return manifest


def check_manifest(manifest: dict, path, unit: str) -> None:
    """Refuse a manifest that lacks a key a run's manifest has, or whose fields have the wrong shape."""
    missing = [k for k in (*MANIFEST_KEYS, f"{unit}_done") if k not in manifest]
    if missing:
        raise RunError(f"{path} lacks {', '.join(missing)}: not a complete barbu-sim manifest "
                       "(start the run again with --force)")
    check_manifest_shape(manifest, path, unit)


def check_manifest_shape(manifest: dict, path, unit: str) -> None:
    """Refuse a manifest whose fields have the wrong shape, naming the field (once, on reading it)."""
    def bad(field: str, expected: str, value) -> RunError:
        return RunError(f"{path}: field {field} should be {expected}, not {value!r}; "
                        "the manifest is damaged (start the run again with --force)")

    def count(field: str, value) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise bad(field, "a non-negative integer", value)

    if not isinstance(manifest["config"], dict):
        raise bad("config", "a table of settings", manifest["config"])
    count("chunks_done", manifest["chunks_done"])
    count(f"{unit}_done", manifest[f"{unit}_done"])
    if not isinstance(manifest["complete"], bool):
        raise bad("complete", "true or false", manifest["complete"])
    if not isinstance(manifest["wall_seconds"], (int, float)) or isinstance(manifest["wall_seconds"], bool):
        raise bad("wall_seconds", "a number", manifest["wall_seconds"])
    chunks = manifest.get("chunks")
    if chunks is None:
        return
    if not isinstance(chunks, dict):
        raise bad("chunks", "a table of chunk entries by chunk number", chunks)
    for key, entry in chunks.items():
        if not (isinstance(key, str) and key.isdigit()):
            raise bad(f"chunks[{key!r}]", "keyed by a chunk number", key)
        if not isinstance(entry, dict):
            raise bad(f"chunks.{key}", "a table with rows, bytes and sha256", entry)
        for name in ("rows", "bytes"):
            if name not in entry:
                raise RunError(f"{path}: field chunks.{key}.{name} is missing; the manifest is damaged "
                               "(start the run again with --force)")
            count(f"chunks.{key}.{name}", entry[name])
        if not isinstance(entry.get("sha256"), str):
            raise bad(f"chunks.{key}.sha256", "a checksum string", entry.get("sha256"))


PART_NAME = "part-{:06d}.parquet"  # chunk k's file in records/; read back by part_index
_PART_NAME = re.compile(r"part-(\d{6,})\.parquet")


def part_path(run_dir: Path, k: int) -> Path:
    """The Parquet file of chunk ``k``."""
    return Path(run_dir) / "records" / PART_NAME.format(k)


def part_index(path: Path) -> int | None:
    """The chunk whose file ``path`` is (see :data:`PART_NAME`), or ``None`` for another file."""
    match = _PART_NAME.fullmatch(Path(path).name)
    return int(match.group(1)) if match else None


def parts_on_disk(run_dir) -> dict[int, Path]:
    """The chunk files in ``run_dir/records``, by chunk."""
    return {k: p for p in (Path(run_dir) / "records").glob("part-*.parquet") if (k := part_index(p)) is not None}


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def chunk_entry(path: Path, rows: int) -> dict:
    """What the manifest records of a written chunk: its rows, its size and its checksum."""
    return {"rows": rows, "bytes": path.stat().st_size, "sha256": _sha256(path)}


def chunk_problem(run_dir, k: int, entry: dict | None) -> str | None:
    """Why chunk ``k`` is not as the manifest recorded it (``None`` when it is)."""
    path = part_path(run_dir, k)
    if entry is None:
        return f"{path.name} is not recorded in the manifest" if path.exists() else None
    if not path.exists():
        return f"{path.name} is missing"
    size = path.stat().st_size
    if size != entry["bytes"]:
        return f"{path.name} is damaged ({size:,} bytes, {entry['bytes']:,} expected)"
    if _sha256(path) != entry["sha256"]:
        return f"{path.name} is damaged (its checksum differs from the manifest's)"
    return None


def _ledger(manifest: dict) -> dict[int, dict] | None:
    chunks = manifest.get("chunks")
    return None if chunks is None else {int(k): v for k, v in chunks.items()}


def verify_chunks(run_dir, manifest: dict) -> list[str]:
    """Every difference between the chunk files on disk and the manifest's record of them."""
    run_dir = Path(run_dir)
    ledger = _ledger(manifest)
    on_disk = set(parts_on_disk(run_dir))
    if ledger is None:  # a run written before chunks were recorded: count them, at least
        if len(on_disk) != manifest.get("chunks_done"):
            return [f"{len(on_disk)} chunk files for {manifest.get('chunks_done')} chunks done"]
        return []
    return [p for k in sorted(set(ledger) | on_disk) if (p := chunk_problem(run_dir, k, ledger.get(k)))]


@dataclass
class Snapshot:
    """One reading of a run: its manifest, read once, and exactly the chunks that manifest lists."""

    run_dir: Path
    manifest: dict
    records: pl.LazyFrame
    being_written: bool  # another process holds the run's lock: the run is still growing

    def done(self, unit: str) -> int:
        return self.manifest[f"{unit}_done"]


def run_in_use(run_dir) -> bool:
    """Whether another process holds ``run_dir``'s lock (is writing the run) right now."""
    try:
        fd = os.open(Path(run_dir) / LOCK_FILE, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # closing releases the shared lock taken to test it
    return False


def snapshot_run(run_dir, unit: str = "deals", repair: str | None = None,
                 check: Callable[[dict], None] | None = None) -> Snapshot:
    """Read a run once: one snapshot of its manifest and the records of exactly the chunks it lists.

    A run still being written by another process keeps growing while it is read: its
    later chunks (written after the manifest was read) are left out, so every table and
    every count of a report come from the same deals.  A missing, damaged or (in a run
    nobody is writing) unrecorded chunk is a :class:`RunError` naming it and ``repair``.
    ``check(manifest)``, if given, may refuse the manifest first (a run of another game).
    """
    run_dir = Path(run_dir)
    being_written = run_in_use(run_dir)
    manifest = read_manifest(run_dir)
    if check is not None:  # e.g. that the run is of the game asked for, before its keys are checked
        check(manifest)
    check_manifest(manifest, run_dir / "manifest.json", unit)
    ledger = _ledger(manifest)
    if ledger is None:  # a run written before chunks were recorded: every chunk file on disk
        problems = verify_chunks(run_dir, manifest)
        parts = [p for _, p in sorted(parts_on_disk(run_dir).items())]
    else:
        listed = sorted(ledger)
        problems = [p for k in listed if (p := chunk_problem(run_dir, k, ledger[k]))]
        if not being_written:
            on_disk = set(parts_on_disk(run_dir))
            problems += [p for k in sorted(on_disk - set(ledger)) if (p := chunk_problem(run_dir, k, None))]
        parts = [part_path(run_dir, k) for k in listed]
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise RunError(f"{run_dir}: {problems[0]}{more}; repair it with: {repair or 'a resumed run'}")
    if not parts:
        raise RunError(f"{run_dir} holds no records yet" + (" (it is being written)" if being_written else ""))
    return Snapshot(run_dir, manifest, pl.scan_parquet(parts), being_written)


def scan_records(run_dir, unit: str = "deals", repair: str | None = None) -> pl.LazyFrame:
    """The records of a run directory as a LazyFrame (those of one :func:`snapshot_run`)."""
    return snapshot_run(run_dir, unit, repair).records


def incomplete_note(snap: Snapshot, unit: str, command: str) -> str | None:
    """For a run not yet complete: how far it got and the command that finishes it (or that it is
    still being written); else ``None``.  ``unit``: ``deals`` or ``rounds``; ``command``: the game's
    command (``barbu-sim`` or ``barbu-sim clabber``)."""
    manifest = snap.manifest
    if manifest.get("complete"):
        return None
    counts = f"{manifest[f'{unit}_done']:,} of {manifest['config'][unit]:,} {unit}"
    if snap.being_written:
        return (f"Run incomplete and still being written: this report covers the first {counts} "
                f"(those on disk when it was read); run {command} report {snap.run_dir} again when the run ends")
    return f"Run incomplete: {counts}; finish it with: {command} run --resume --out {snap.run_dir}"

