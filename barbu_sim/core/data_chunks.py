"""A training data folder: its work in numbered chunk files, found again for a fit.

Both games' training (``barbu-sim train player``, ``barbu-sim clabber train``) makes its data in
chunks of items (deals, rounds) ``lo .. lo + n - 1``, each a pure function of its arguments, in a file
named after the chunk: a folder stopped at any point goes on where it stopped, and a fit reads the
chunks made.  The games write the files' contents; this module knows their names and reads them back
for a fit (:func:`load_chunks`).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

from . import files


def chunk_path(data, lo: int, n: int) -> Path:
    """The file of the chunk of items ``lo .. lo + n - 1`` in the data folder ``data``."""
    return Path(data) / f"chunk-{lo:08d}-{n}.npz"


def planned_chunks(total: int, chunk: int) -> list[tuple[int, int]]:
    """``(first item, items)`` of each chunk of ``total`` items, ``chunk`` a chunk (the last one shorter)."""
    return [(lo, min(chunk, total - lo)) for lo in range(0, total, chunk)]


def present_chunks(data, chunk: int, total: int | None, unit: str) -> tuple[list[Path], int]:
    """For a fit on the data made: the chunk files of items ``0 .. total - 1`` (a ValueError when one is
    missing), or with ``total`` None those of the longest run of items from 0 the folder holds; and that
    number of items.  ``unit``: what an item is (``deals``, ``rounds``), for the messages."""
    data = Path(data)
    if total is not None:
        paths = [chunk_path(data, lo, n) for lo, n in planned_chunks(total, chunk)]
        missing = [p.name for p in paths if not p.exists()]
        if missing:
            raise ValueError(f"{data} lacks {len(missing)} of the {len(paths)} chunks of {total:,} {unit} (the "
                             f"first: {missing[0]}): run without --fit-only to make them")
        return paths, total
    paths, lo = [], 0
    while True:
        found = [p for n in range(chunk, 0, -1) if (p := chunk_path(data, lo, n)).exists()]
        if not found:
            break
        paths.append(found[0])
        lo += int(found[0].stem.rsplit("-", 1)[1])
    if not paths:
        raise ValueError(f"no data chunks in {data}: run without --fit-only first")
    return paths, lo


def read_record(data, keys) -> dict | None:
    """The record (``config.json``) of how the chunks in the data folder ``data`` were made, or None when the
    folder has none yet.  A folder holding chunks but no record is refused (nothing says how they were made),
    and so is a record that cannot be read or lacks one of ``keys`` as an integer: one-line ValueErrors."""
    data = Path(data)
    path = data / "config.json"
    if not path.exists():
        if data.is_dir() and any(data.glob("chunk-*.npz")):
            raise ValueError(f"{data} holds data chunks but no config.json saying how they were made: "
                             "use another --data folder")
        return None
    try:  # capped, and one line for any fault: not UTF-8, not JSON, nested too deeply for the parser
        record = files.read_json(path, str(path))
    except (OSError, ValueError) as e:
        raise ValueError(f"{e}: it says how the data was made; use another --data folder") from None
    if not isinstance(record, dict) or any(not isinstance(record.get(k), int) or isinstance(record.get(k), bool)
                                           for k in keys):
        raise ValueError(f"{path} is not a record of {', '.join(keys)}: it says how the data was made; use "
                         "another --data folder")
    return record


def make_chunks(data, settings: dict, total: int, generate, extra: tuple = (), backend=None,
                progress: bool = False) -> list[Path]:
    """Every chunk's file of ``total`` items in the data folder ``data``, made where missing.

    ``settings``: the data's ``seed``, ``samples`` and ``chunk`` (and whatever else the game records),
    written once as the folder's ``config.json``; chunk ``(lo, n)`` is ``generate(seed, lo, n, samples,
    *extra)``, a dict of arrays saved as one ``.npz``, played by ``backend`` (default here).  Each chunk is a
    pure function of its arguments and is written whole under a temporary name, so Ctrl-C loses no chunk
    already made and running again goes on from them.
    """
    import numpy as np
    from tqdm import tqdm

    from .backends import make_backend
    data = Path(data)
    data.mkdir(parents=True, exist_ok=True)
    if not (data / "config.json").exists():  # written once: the record of what the chunks are
        files.write_json(data / "config.json", settings, indent=None)
    chunks = planned_chunks(total, settings["chunk"])
    todo = [(settings["seed"], lo, n, settings["samples"], *extra) for lo, n in chunks
            if not chunk_path(data, lo, n).exists()]
    backend = backend or make_backend("local")
    with tqdm(total=len(chunks), initial=len(chunks) - len(todo), desc="training data", unit="chunk",
              disable=not progress) as bar:
        for (_, lo, n, *_), part in zip(todo, backend.imap(generate, todo, what="chunk")):
            tmp = data / f".tmp-{lo}.npz"
            np.savez(tmp, **part)
            tmp.rename(chunk_path(data, lo, n))
            bar.update()
    return [chunk_path(data, lo, n) for lo, n in chunks]


def read_chunk(path: Path, fields: tuple[str, ...], n_features: int) -> dict:
    """One chunk's arrays: ``x`` (rows of ``n_features`` features) and the per-row ``fields``, checked: a damaged
    or foreign file is a one-line error (ValueError) naming it."""
    try:
        with np.load(path) as f:
            part = {k: f[k] for k in ("x", *fields)}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
        raise ValueError(f"data chunk {path} cannot be read ({type(e).__name__}: {e}): it is damaged; delete it and "
                         "run without --fit-only to make it again") from None
    rows = len(part["x"])
    if part["x"].shape != (rows, n_features) or any(len(part[k]) != rows for k in fields):
        raise ValueError(f"data chunk {path} does not hold rows of {n_features} features: delete it and run without "
                         "--fit-only to make it again")
    return part


def load_chunks(paths: list[Path], fields: tuple[str, ...], n_features: int) -> dict:
    """The chunks' rows, one array per field (``x`` and ``fields``), each chunk checked by :func:`read_chunk`."""
    parts = [read_chunk(p, fields, n_features) for p in paths]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
