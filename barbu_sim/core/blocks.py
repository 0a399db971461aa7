"""Work in blocks sized by time: a progress bar that moves, and fast work not slowed by many small calls.

This module does not import numba.
"""

from __future__ import annotations

import time
from collections.abc import Iterator


def timed_blocks(total: int, seconds: float = 1.0, largest: int = 20_000) -> Iterator[tuple[int, int]]:
    """``(lo, n)`` blocks covering items ``0 .. total - 1`` in order, each sized from the time the last
    one took (its work is done between two ``next`` calls) so that a block lasts about ``seconds``: the
    first holds 8 items, each next at most 4 times the last and at most ``largest``.  Deals and rounds
    are pure functions of their index, so what is played does not depend on the blocks.

    >>> list(timed_blocks(3))
    [(0, 3)]
    """
    lo, n = 0, 8
    while lo < total:
        n = min(n, total - lo)
        start = time.perf_counter()
        yield lo, n
        took = time.perf_counter() - start
        lo += n
        n = max(1, min(largest, 4 * n, int(n * seconds / max(took, 1e-6))))
