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

import polars as pl

from . import files

LOCK_FILE = ".lock"
MANIFEST_KEYS = ("schema_version", "package_version", "config", "chunks_done", "complete", "wall_seconds")


class RunError(ValueError):
    """A run directory that cannot be used as asked (exists, differs, incomplete...)."""


@dataclass(frozen=True)
class RunKind:
    """What a game declares about its batch runs, so that one reader checks, reports and resumes every game's.

    ``game``: the name every run of the game writes into its manifest (``barbu``, ``clabber``; a Barbu run
    written before runs named their game has none); ``title``: the game's name in messages; ``unit``: what a
    run counts (``deals``, ``rounds``); ``command``: the game's command (``barbu-sim``, ``barbu-sim clabber``);
    ``schema_version``: the version of its records' schema.
    """

    game: str
    title: str
    unit: str
    command: str
    schema_version: int

    def repair(self, run_dir) -> str:
        """The command that finishes (or repairs) the run in ``run_dir``."""
        return f"{self.command} run --resume --out {run_dir}"

    def check_game(self, manifest: dict, run_dir) -> None:
        """Refuse a run of another game, naming it and the command for a run of this one."""
        theirs = manifest.get("game", "barbu")  # Barbu runs named no game before Clabber existed
        if theirs != self.game:
            raise RunError(f"{run_dir} holds a {str(theirs).title()} run, not a {self.title} one: report it with "
                           f"that game's commands, or write a {self.title} run with {self.command} run")


def whole_number_fields(unit: str) -> tuple[str, ...]:
    """The fields of a run's ``config`` that are whole numbers (those a game's config has)."""
    return (unit, f"chunk_{unit}", "seed", "declarer", "dealer")


# What the settings stamp covers: everything a run is played with, fixed when it starts.  (The players
# are checked against this installation by --resume, and the progress fields change as the run goes.)
STAMPED_KEYS = ("schema_version", "package_version", "game", "config", "configs")


def settings_stamp(manifest: dict) -> str:
    """The checksum of a run's settings (:data:`STAMPED_KEYS`), recorded in its manifest when it starts."""
    settings = {k: manifest[k] for k in STAMPED_KEYS if k in manifest}
    return hashlib.sha256(json.dumps(settings, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def check_settings_stamp(manifest: dict, path) -> None:
    """Refuse a manifest whose settings differ from those its run started with (its ``settings_sha256``).

    The chunk checksums vouch for the records, not for the config beside them: an edited config (a rule's
    points, the seed) would be reported as what the records were played under, and --resume would play the
    rest of the run under it.  The stamp is a checksum, not a signature: it catches an edit, by hand or by
    a tool, that does not know of it.  A run written before runs were stamped has none and is not checked.
    """
    stamp = manifest.get("settings_sha256")
    if stamp is None:
        return
    if stamp != settings_stamp(manifest):
        raise RunError(f"{path}: its settings (config, versions) are not those its run started with (they differ "
                       "from their stamp, settings_sha256): the manifest was edited after the run was written; "
                       "restore it, or start the run again with --force")


def is_chunk_key(key) -> bool:
    """Whether ``key`` is a chunk number as the ledger writes it: six ASCII digits (more past 999,999)."""
    return isinstance(key, str) and re.fullmatch(r"[0-9]{6,}", key) is not None and key == f"{int(key):06d}"


def records_per_item(manifest: dict, path, unit: str) -> tuple[int, str]:
    """How many records one item of a run holds, from its settings alone, and how to say so.

    A Clabber run writes one record per round; a Barbu run one per deal and configuration (the
    manifest's ``configs``, a row each).  Never worked out from the ledger: an edited config would then
    pass with the ledger's records spread over fewer items (2,000 rows as 2 per round of 1,000 rounds).
    """
    if unit == "deals":
        configs = manifest.get("configs")
        if not isinstance(configs, list) or not configs:
            raise RunError(f"{path}: field configs should be the list of the run's configurations, not "
                           f"{configs!r}; the manifest is damaged (start the run again with --force)")
        n = len(configs)
        return n, f"one per deal and configuration, {n:,} configuration{'s' if n != 1 else ''}"
    return 1, f"one per {unit.removesuffix('s')}"


def check_ledger(manifest: dict, path, unit: str) -> None:
    """Refuse a manifest whose ledger (``chunks``) and config disagree, naming both sides.

    The runner writes them together; a manifest where they differ was edited or damaged, and neither
    a report (which would state a run the records are not) nor --resume (which would delete chunks the
    ledger vouches for, as beyond the run's end, or recount the run to the edit) can go on from it.  The
    records a chunk holds follow from the config alone (:func:`records_per_item`).  A run written before
    chunks were recorded has no ledger and is not checked.
    """
    ledger = _ledger(manifest)
    total, chunk = manifest["config"][unit], manifest["config"].get(f"chunk_{unit}")
    if ledger is None or not chunk:  # no ledger, or a config that leaves the chunk size to the game
        return
    again = "the manifest was edited or damaged (restore it, or start the run again with --force)"
    n_chunks = -(-total // chunk)
    setting = f"the config ({unit} {total:,} in chunks of {chunk:,})"
    for k in sorted(ledger):
        if k >= n_chunks:
            raise RunError(f"{path}: its ledger records chunk {k:06d}, but {setting} has only {n_chunks:,} "
                           f"chunks: the ledger and the config disagree; {again}")
    per_item, per = records_per_item(manifest, path, unit)
    for k, entry in sorted(ledger.items()):
        size = min(chunk, total - k * chunk)
        if entry["rows"] != per_item * size:
            raise RunError(f"{path}: its ledger's chunk {k:06d} holds {entry['rows']:,} records, not the "
                           f"{per_item * size:,} ({per}) of a chunk of {size:,} {unit} as {setting} makes it: "
                           f"the ledger and the config disagree; {again}")


def check_counts(manifest: dict, path, unit: str, repair: str) -> None:
    """Refuse a manifest whose counts (chunks done, items done, complete) are not its ledger's.

    A report states those counts over its tables, so they must be the ledger's.  A resumed run
    recounts them from the ledger as it goes (so ``repair``, a resumed run, mends them), which is
    why only the readers check them.  A ledger that disagrees with the config is refused before
    (:func:`check_ledger`); a run written before chunks were recorded has no ledger and is not checked.
    """
    ledger = _ledger(manifest)
    if ledger is None:
        return
    mend = f"the manifest was edited or damaged; repair it with: {repair}"
    if manifest["chunks_done"] != len(ledger):
        raise RunError(f"{path}: chunks_done is {manifest['chunks_done']:,} but its ledger records "
                       f"{len(ledger):,} chunks: the counts and the ledger disagree; {mend}")
    total, chunk = manifest["config"][unit], manifest["config"].get(f"chunk_{unit}")
    if not chunk:
        return
    n_chunks = -(-total // chunk)
    done = sum(min(chunk, total - k * chunk) for k in ledger)
    if manifest[f"{unit}_done"] != done:
        raise RunError(f"{path}: {unit}_done is {manifest[f'{unit}_done']:,} but its ledger records {done:,} {unit} "
                       f"in {len(ledger):,} chunks: the counts and the ledger disagree; {mend}")
    if manifest["complete"] and len(ledger) != n_chunks:
        raise RunError(f"{path}: the run is marked complete but its ledger records {len(ledger):,} of its "
                       f"{n_chunks:,} chunks: the manifest and its ledger disagree; {mend}")


def check_records_folder(run_dir) -> None:
    """Refuse a run directory whose ``records`` is not a folder (a file put there, say)."""
    records = Path(run_dir) / "records"
    if os.path.lexists(records) and not records.is_dir():
        raise RunError(f"{records} is not a folder, and a run keeps its records there: move it away, "
                       "or start the run again with --force")


def read_manifest(run_dir, unit: str | None = None) -> dict:
    """The manifest of a run directory, or a clear :class:`RunError`.

    With ``unit`` (``deals``...), also check that it holds every key a run's manifest has.
    """
    path = Path(run_dir) / "manifest.json"
    if not Path(run_dir).is_dir():
        raise RunError(f"{run_dir} is not a directory")
    if not os.path.lexists(path):
        raise RunError(f"{run_dir} is not a barbu-sim run directory (no manifest.json)")
    try:  # capped, and one line for any fault: not UTF-8, not JSON, nested too deeply for the parser
        manifest = files.read_json(path, str(path))
    except files.InputError as e:
        raise RunError(str(e)) from None
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
    check_ledger(manifest, path, unit)
    check_settings_stamp(manifest, path)


def check_manifest_shape(manifest: dict, path, unit: str) -> None:
    """Refuse a manifest whose fields have the wrong shape, naming the field (once, on reading it)."""
    def bad(field: str, expected: str, value) -> RunError:
        return RunError(f"{path}: field {field} should be {expected}, not {value!r}; "
                        "the manifest is damaged (start the run again with --force)")

    def count(field: str, value) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise bad(field, "a non-negative integer", value)

    config = manifest["config"]
    if not isinstance(config, dict):
        raise bad("config", "a table of settings", config)
    if unit not in config:
        raise RunError(f"{path}: field config.{unit} is missing; the manifest is damaged "
                       "(start the run again with --force)")
    # Whole numbers are ints (not 300.0, true or "300"): a resumed run computes chunk bounds from them.
    for field in whole_number_fields(unit):
        if field in config:
            count(f"config.{field}", config[field])
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
        if not is_chunk_key(key):  # "3" beside "000003" would be one chunk twice; "²" is no number at all
            raise bad(f"chunks[{key!r}]", "keyed by a chunk number as runs write it (six digits: '000003')", key)
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


def snapshot_run(run_dir, kind: RunKind) -> Snapshot:
    """Read a run once: one snapshot of its manifest and the records of exactly the chunks it lists.

    A run still being written by another process keeps growing while it is read: its
    later chunks (written after the manifest was read) are left out, so every table and
    every count of a report come from the same deals.  A run of another game than ``kind``'s, or a
    missing, damaged or (in a run nobody is writing) unrecorded chunk, is a :class:`RunError` naming it
    and the command that repairs it.
    """
    run_dir = Path(run_dir)
    unit, repair = kind.unit, kind.repair(run_dir)
    being_written = run_in_use(run_dir)
    manifest = read_manifest(run_dir)
    kind.check_game(manifest, run_dir)  # before its keys are checked: another game's run lacks them
    check_manifest(manifest, run_dir / "manifest.json", unit)
    check_counts(manifest, run_dir / "manifest.json", unit, repair)
    check_records_folder(run_dir)
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
        raise RunError(f"{run_dir}: {problems[0]}{more}; repair it with: {repair}")
    if not parts:
        raise RunError(f"{run_dir} holds no records yet" + (" (it is being written)" if being_written else ""))
    records = pl.scan_parquet(parts)
    if ledger is None:  # with a ledger, its checksums and the rows each chunk must hold already vouch for the count
        check_count(manifest, records, run_dir, unit)
    return Snapshot(run_dir, manifest, records, being_written)


ITEM_COLUMNS = {"deals": "deal", "rounds": "round"}  # the records' column that numbers the items of a unit


def check_count(manifest: dict, records: pl.LazyFrame, run_dir, unit: str) -> None:
    """Refuse a manifest whose count of items done is not the number of items its records hold (a run written
    before chunks were recorded: with a ledger, :func:`check_counts` and :func:`check_ledger` vouch for it without
    reading the records).

    A report states that count over its tables: it must be the records' own (the ledger's checksums
    vouch for the chunk files, not for the counts beside them).
    """
    column = ITEM_COLUMNS.get(unit)
    if column is None or column not in records.collect_schema():
        return
    held = records.select(pl.col(column).n_unique()).collect().item()
    if held != manifest[f"{unit}_done"]:
        raise RunError(f"{run_dir}/manifest.json: {unit}_done is {manifest[f'{unit}_done']:,} but its records hold "
                       f"{held:,} {unit}: the manifest was edited or damaged (restore it, or start the run again "
                       "with --force)")


def scan_records(run_dir, kind: RunKind) -> pl.LazyFrame:
    """The records of a run directory as a LazyFrame (those of one :func:`snapshot_run`)."""
    return snapshot_run(run_dir, kind).records


def incomplete_note(snap: Snapshot, kind: RunKind) -> str | None:
    """For a run not yet complete: how far it got and the command that finishes it (or that it is
    still being written); else ``None``."""
    manifest, unit, command = snap.manifest, kind.unit, kind.command
    if manifest.get("complete"):
        return None
    counts = f"{manifest[f'{unit}_done']:,} of {manifest['config'][unit]:,} {unit}"
    if snap.being_written:
        return (f"Run incomplete and still being written: this report covers the first {counts} "
                f"(those on disk when it was read); run {command} report {snap.run_dir} again when the run ends")
    return f"Run incomplete: {counts}; finish it with: {kind.repair(snap.run_dir)}"

