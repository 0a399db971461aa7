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

import fcntl
import hashlib
import io
import os
import shutil
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

import polars as pl

from .. import __version__
from . import files
from .rundir import (
    LOCK_FILE, RunError, RunKind, check_ledger, check_records_folder, chunk_problem, is_chunk_key, part_path,
    parts_on_disk, read_manifest, settings_stamp,
)

OUTPUTS = ("records", "report", "plots")  # what a run directory holds besides its manifest; --force clears them
@dataclass
class RunSummary:
    """How a call to :func:`fill_chunks` left the run."""

    run_dir: Path
    done: int  # items (deals, rounds...) on disk
    wall_seconds: float
    per_second: float
    complete: bool
    played: int = 0  # items played by this call: 0 when a resumed run was already complete


def write_json(path: Path, data: dict) -> None:
    """Write ``data`` as JSON atomically (a unique temporary file, then rename)."""
    files.write_json(path, data, what="the run's manifest" if Path(path).name == "manifest.json" else "")


@contextmanager
def lock_run(run_dir, create: bool = True):
    """Hold the run directory's lock while a process writes it.

    An OS file lock (``flock``) on ``run_dir/.lock``: the operating system releases
    it when the process ends, however it ends, so a crash never leaves a stale lock.
    A second process gets a :class:`RunError`.  With ``create``, the directory is made
    if need be.
    """
    run_dir = Path(run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        raise RunError(f"{run_dir} is a file, not a run directory: choose another --out")
    if not run_dir.exists():
        if not create:
            raise RunError(f"{run_dir} is not a directory")
        try:
            run_dir.mkdir(parents=True)
        except OSError as e:
            raise files.OutputError(run_dir, "creating the run directory", e) from None
    try:
        fd = os.open(run_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise files.OutputError(run_dir / LOCK_FILE, "the run's lock", e) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
            raise RunError(f"{run_dir} is in use by another barbu-sim process (pid {holder}): "
                           "wait for it to finish, or choose another --out") from None
        try:
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode())
        except OSError as e:
            raise files.OutputError(run_dir / LOCK_FILE, "the run's lock", e) from None
        yield run_dir
    finally:
        os.close(fd)  # closing the file releases the lock


def load_run(run_dir, schema_version: int, unit: str) -> dict:
    """The manifest of a run to resume, refusing one written by an incompatible version."""
    manifest = read_manifest(run_dir, unit)
    if manifest.get("schema_version") != schema_version:
        raise RunError(f"{run_dir} was written by an incompatible barbu-sim (schema {manifest.get('schema_version')})")
    check_records_folder(run_dir)
    return manifest


def check_resume_flags(run_dir, stored: dict, given: dict, flags: dict[str, str]) -> None:
    """Refuse to resume a run with settings that differ from its own.

    ``stored``: the run's config (as in its manifest); ``given``: the config fields the
    user set on the command line, normalised as the config normalises them (fields left
    out were not given); ``flags``: config field -> the flag that sets it.
    """
    differ = [f"{flags[k]} {given[k]!r} (the run has {stored[k]!r})"
              for k in flags if k in given and given[k] != stored.get(k)]
    if differ:
        raise RunError(f"--resume finishes the run in {run_dir} with its own settings; these differ from it: "
                       + "; ".join(differ) + ". Leave them out, or start a new run (another --out, or --force)")


def check_players(run_dir, manifest: dict, players: list[dict]) -> None:
    """Refuse to resume a run whose seats would now be played by other players than those that began it.

    ``players``: each seat's player as the game's runs record it today (``{"player": the spec with
    every parameter and model id, "code": a code stamp, ...}``); the manifest holds the same list
    from the run's start.  A run written before players were recorded is not checked.
    """
    stored = manifest.get("players")
    if stored is None:
        return
    differ = []
    for seat, (then, now) in enumerate(zip(stored, players)):
        if then != now:
            fields = [k for k in sorted(set(then) | set(now)) if then.get(k) != now.get(k)]
            differ.append(f"seat {'NESW'[seat]}: " + ", ".join(f"{k} {then.get(k)} then, {now.get(k)} now"
                                                                  for k in fields))
    if differ:
        raise RunError(f"{run_dir} was begun by other players than this installation would play it with "
                       f"({'; '.join(differ)}): a run is played by one version of each player. "
                       "Start a new run (another --out, or --force)")


def _clear_outputs(run_dir: Path) -> None:
    """Remove everything a run wrote into ``run_dir`` (its manifest, records, report and charts)."""
    (run_dir / "manifest.json").unlink(missing_ok=True)
    for name in OUTPUTS:
        target = run_dir / name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()


def start_run(run_dir, schema_version: int, fields: dict, *, unit: str, force: bool = False) -> dict:
    """Create a new run in ``run_dir`` and write its first manifest.

    ``fields`` (the run's ``config`` and whatever else the game records) go after
    the schema and package versions.  Refuses a directory holding another run, or
    any files, unless ``force``, which clears every output of the old run first.  A
    run that stopped before writing its first chunk holds nothing to lose and is
    replaced without ``force``.
    """
    run_dir = Path(run_dir)
    manifest_path = run_dir / "manifest.json"
    if manifest_path.exists() and not force:
        try:  # a manifest that cannot be read (damaged, nested too deeply...) is a run's, not an empty one
            empty = files.read_json(manifest_path).get("chunks_done") == 0
        except (ValueError, AttributeError):
            empty = False
        if not (empty and not any((run_dir / "records").glob("part-*"))):
            raise RunError(f"{run_dir} already holds a run: use --resume to finish it or --force to replace it")
    elif run_dir.exists() and not manifest_path.exists() and not force and \
            any(p.name != LOCK_FILE for p in run_dir.iterdir()):
        raise RunError(f"{run_dir} is not empty and holds no run: choose another --out or use --force")
    try:
        _clear_outputs(run_dir)
        (run_dir / "records").mkdir(parents=True, exist_ok=True)
        manifest = {
            "schema_version": schema_version, "package_version": __version__, **fields,
            f"{unit}_done": 0, "chunks_done": 0, "complete": False, "wall_seconds": 0.0, f"{unit}_per_second": None,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "chunks": {},
        }
        manifest["settings_sha256"] = settings_stamp(manifest)  # report and --resume refuse settings edited later
        write_json(manifest_path, manifest)
    except OSError as e:
        raise files.OutputError(run_dir, "starting the run", e) from None
    return manifest


def encode_frame(frame: pl.DataFrame) -> bytes:
    """A chunk's Parquet bytes: the one encoding every backend writes, so their files are identical."""
    buffer = io.BytesIO()
    frame.write_parquet(buffer, statistics=False)
    return buffer.getvalue()


def encode_parts(frames: list[pl.DataFrame]) -> tuple[bytes, int]:
    """The Parquet bytes and rows of a chunk played in one or more consecutive parts.

    Chunk records are row-wise (a part ``lo .. lo + a`` holds exactly those rows of the
    whole), and their concatenation, made one contiguous frame, encodes to the same bytes as
    the whole chunk (the Parquet writer cuts its pages where a frame's memory chunks end, so
    a concatenation left in pieces would not).
    """
    frame = pl.concat(frames, rechunk=True) if len(frames) > 1 else frames[0].rechunk()
    return encode_frame(frame), frame.height


def fill_chunks(run_dir, manifest: dict, total: int, chunk: int, play_chunk: Callable[[int, int], pl.DataFrame],
                *, unit: str, progress: bool = True, backend=None) -> RunSummary:
    """Play and write every chunk not yet on disk, updating the manifest after each one.

    ``play_chunk(lo, n)`` returns the records of items ``lo .. lo + n - 1``.
    ``backend`` (:mod:`barbu_sim.core.backends`; default local) says where chunks are
    played; whichever it is, chunks are written here strictly in index order, so the
    files and the manifest are the same.  On ``KeyboardInterrupt`` the completed
    chunks and the manifest stay valid and the exception propagates.
    """
    from tqdm import tqdm

    from .backends import LocalBackend

    backend = backend or LocalBackend()

    run_dir = Path(run_dir)
    manifest_path = run_dir / "manifest.json"
    (run_dir / "records").mkdir(parents=True, exist_ok=True)
    for stale in (run_dir / "records").glob("*.tmp"):
        stale.unlink()
    n_chunks = -(-total // chunk)

    def chunk_size(k: int) -> int:
        return min(chunk, total - k * chunk)

    # Redo every chunk the manifest does not vouch for: never written, missing, damaged, or
    # written by a process that died before recording it.  A ledger that disagrees with the run's
    # size is refused first: a chunk it records is never deleted.
    ledger = manifest.setdefault("chunks", {})
    bad = next((key for key in ledger if not is_chunk_key(key)), None)
    if bad is not None:
        raise RunError(f"{manifest_path}: its ledger key {bad!r} is not a chunk number as runs write it")
    check_ledger({**manifest, "config": {unit: total, f"chunk_{unit}": chunk}}, manifest_path, unit)
    for k in range(n_chunks):
        key = f"{k:06d}"
        if key in ledger and chunk_problem(run_dir, k, ledger[key]) is not None:
            del ledger[key]
    todo = [k for k in range(n_chunks) if f"{k:06d}" not in ledger]
    for k in todo:
        part_path(run_dir, k).unlink(missing_ok=True)
    for k, p in parts_on_disk(run_dir).items():  # beyond the run's last chunk: not this run's
        if k >= n_chunks:
            p.unlink()
    chunks_done = n_chunks - len(todo)
    done = total - sum(chunk_size(k) for k in todo)
    if not todo:  # every chunk is on disk and sound: nothing to play, no backend to start
        manifest.update({f"{unit}_done": done, "chunks_done": chunks_done, "complete": True})
        write_json(manifest_path, manifest)
        return RunSummary(run_dir, done, manifest.get("wall_seconds", 0.0),
                          manifest.get(f"{unit}_per_second") or 0.0, True, played=0)
    backend.connect()  # start or join a cluster before the clock starts
    if not isinstance(backend, LocalBackend):
        manifest["backend"] = backend.describe()  # which cluster played it, by address
    if isinstance(backend, LocalBackend):
        # One item, played and dropped, compiles (or loads) the kernels first: a first use's
        # compile is then reported on its own lines, not counted in the bar's rate or the run's speed.
        play_chunk(0, 1)
    manifest.update({f"{unit}_done": done, "chunks_done": chunks_done, "complete": False})
    write_json(manifest_path, manifest)
    bar = tqdm(total=total, initial=done, unit=f" {unit}", unit_scale=True, disable=not progress,
               desc="simulating", smoothing=0.1)
    wall0 = manifest.get("wall_seconds", 0.0)
    started = time.perf_counter()
    played = 0
    # ``play_chunk`` travels to a remote backend's workers when it pickles: a ``functools.partial``
    # of a module-level function over plain data does.  Parts and the encoding run there too.
    results = backend.imap_chunks(play_chunk, encode_parts, [(k * chunk, chunk_size(k)) for k in todo])
    try:
        for k, (data, rows) in zip(todo, results):
            n = chunk_size(k)
            path = part_path(run_dir, k)
            tmp = path.with_suffix(".parquet.tmp")  # one writer (the lock's holder): a fixed name is safe
            try:
                tmp.write_bytes(data)
            except OSError as e:
                tmp.unlink(missing_ok=True)
                raise files.OutputError(path, f"chunk {k} of the run; the chunks before it are kept", e) from None
            entry = {"rows": rows, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            os.replace(tmp, path)
            ledger[f"{k:06d}"] = entry
            played += n
            done += n
            chunks_done += 1
            bar.update(n)
            elapsed = time.perf_counter() - started
            manifest.update({f"{unit}_done": done, "chunks_done": chunks_done, "wall_seconds": wall0 + elapsed,
                             f"{unit}_per_second": played / elapsed if elapsed else None})
            write_json(manifest_path, manifest)
    finally:
        if hasattr(results, "close"):
            results.close()  # a remote backend cancels what is still in flight
        bar.close()
    manifest["complete"] = done == total
    write_json(manifest_path, manifest)
    return RunSummary(run_dir, done, manifest["wall_seconds"], manifest[f"{unit}_per_second"] or 0.0,
                      manifest["complete"], played=played)


@dataclass(frozen=True)
class GameRuns:
    """What a game wing declares so that :func:`run_game` runs and resumes its batch runs.

    ``kind``: the runs' :class:`~barbu_sim.core.rundir.RunKind` (game, unit, command, schema version);
    ``config_type``: the run configuration, a dataclass whose ``<unit>`` and ``chunk_<unit>`` fields give
    the run's size and chunk, built from the manifest's ``config`` on resume; ``resume_flags``: each
    config field --resume compares -> the flag that sets it; ``manifest_fields(config)``: what else the
    manifest records (the seats' players, the configurations...); ``check_resumed(run_dir, manifest,
    config)``: refuses a run that cannot go on as it began; ``chunk_player(config, local)``: the function
    ``(lo, n) -> records`` that plays a chunk (``local``: in this process, where buffers may be reused).
    """

    kind: RunKind
    config_type: type
    resume_flags: dict[str, str]
    manifest_fields: Callable[[Any], dict]
    check_resumed: Callable[[Path, dict, Any], None]
    chunk_player: Callable[[Any, bool], Callable[[int, int], pl.DataFrame]]

    def config_of(self, manifest: dict, run_dir) -> Any:
        """The run configuration stored in a run's manifest (a clear :class:`RunError` if it is not one)."""
        try:
            return self.config_type(**manifest["config"])
        except (TypeError, ValueError, KeyError) as e:
            raise RunError(f"{run_dir}/manifest.json holds no valid {self.kind.title} run configuration: {e}") from None

    def resumed(self, run_dir) -> tuple[dict, Any]:
        """The manifest and configuration of the run to resume in ``run_dir``, checked."""
        manifest = read_manifest(run_dir)
        self.kind.check_game(manifest, run_dir)
        manifest = load_run(run_dir, self.kind.schema_version, self.kind.unit)
        return manifest, self.config_of(manifest, run_dir)

    def check_resume_settings(self, run_dir, given: dict) -> None:
        """Refuse to resume ``run_dir`` with settings that differ from the run's own.

        ``given``: the config fields the user set on the command line, normalised as the config normalises
        them; fields left out were not given.
        """
        _, config = self.resumed(Path(run_dir))
        check_resume_flags(run_dir, asdict(config), given, self.resume_flags)


def check_threads(threads: int | None) -> None:
    """Refuse a thread count numba cannot use here (one message for every game)."""
    import numba  # only a run that plays imports numba: the analytics read runs through this module
    if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"--threads must be at least 1 and at most {numba.config.NUMBA_NUM_THREADS} "
                         f"(the cores numba may use here), not {threads}")


def run_game(game: GameRuns, run_dir, config=None, *, resume: bool = False, force: bool = False,
             threads: int | None = None, progress: bool = True, backend=None) -> RunSummary:
    """Simulate ``config`` into ``run_dir`` (or, with ``resume``, finish the run found there), for any game.

    Refuses a directory holding another run unless ``force``.  ``backend``: where the chunks are played
    (:mod:`barbu_sim.core.backends`; default this process); the records are the same with any.  Returns
    when every chunk is on disk; on ``KeyboardInterrupt`` the completed chunks and the manifest stay valid
    and the exception propagates.
    """
    run_dir, unit = Path(run_dir), game.kind.unit
    check_threads(threads)
    if resume and force:
        raise ValueError("--resume finishes the run in --out and --force replaces it: give one of them, not both")
    if not resume and config is None:
        raise ValueError("give a configuration (or resume an existing run)")
    with lock_run(run_dir, create=not resume):
        if resume:
            manifest, config = game.resumed(run_dir)
            game.check_resumed(run_dir, manifest, config)
        else:
            fields = {"game": game.kind.game, "config": asdict(config), **game.manifest_fields(config)}
            manifest = start_run(run_dir, game.kind.schema_version, fields, unit=unit, force=force)
        if threads is not None:
            import numba
            numba.set_num_threads(threads)
        local = backend is None or backend.name == "local"
        return fill_chunks(run_dir, manifest, getattr(config, unit), getattr(config, f"chunk_{unit}"),
                           game.chunk_player(config, local), unit=unit, progress=progress, backend=backend)


def run_command(game: GameRuns, run_dir, given: dict, defaults: dict, *, resume: bool = False, force: bool = False,
                threads: int | None = None, progress: bool = True, backend=None) -> RunSummary:
    """What a game's ``run`` command does: with ``resume``, finish the run in ``run_dir`` with its own settings
    (the settings ``given`` must be its own); else start one from ``defaults`` with those ``given`` over them.

    ``given``: each config field the command line names, None where it was not given.
    """
    given = {k: v for k, v in given.items() if v is not None}
    if resume:
        game.check_resume_settings(run_dir, given)
        return run_game(game, run_dir, resume=True, threads=threads, progress=progress, backend=backend)
    return run_game(game, run_dir, game.config_type(**{**defaults, **given}), force=force, threads=threads,
                    progress=progress, backend=backend)
