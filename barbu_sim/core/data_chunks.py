"""A training data folder: its work in numbered chunk files, found again for a fit.

Both games' training (``barbu-sim train player``, ``barbu-sim clabber train``) makes its data in
chunks of items (deals, rounds) ``lo .. lo + n - 1``, each a pure function of its arguments, in a file
named after the chunk: a folder stopped at any point goes on where it stopped, and a fit reads the
chunks made.  The games write and read the files' contents; this module knows only their names.
"""

from __future__ import annotations

from pathlib import Path


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
