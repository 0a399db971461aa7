"""The machine's own two-thread ceiling, for reading a kernel's scaling against it.

A kernel that shares nothing between threads should scale like a loop of pure integer work with
the same kind of instruction mix.  On a virtual machine it often does not reach 2x: the host may
slow a core when both are busy, or place the two virtual cores on one physical core.  Timing this
loop in the same alternation as a kernel tells the two apart: a kernel that scales like the loop
has no shared bottleneck of its own.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange


@njit(inline="always")
def _xorshift(x):
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    return x ^ (x << np.uint64(17))


@njit(parallel=True, cache=True)
def integer_work(steps: int, out: np.ndarray) -> None:
    """Four independent xorshift chains per item of ``out`` (many instructions per cycle, no memory
    traffic, nothing shared): like a card kernel's bit operations, without its loads."""
    for t in prange(out.size):
        a, b, c, d = np.uint64(t + 1), np.uint64(t + 7), np.uint64(t + 13), np.uint64(t + 99)
        s = np.uint64(0)
        for _ in range(steps):
            a, b, c, d = _xorshift(a), _xorshift(b), _xorshift(c), _xorshift(d)
            s += (a ^ b ^ c ^ d) & np.uint64(255)
        out[t] = s


def reference_call(seconds: float = 0.3):
    """A no-argument callable that runs about ``seconds`` of integer work on one thread (64 items, so
    any thread count up to 64 splits it evenly)."""
    out = np.zeros(64, np.uint64)
    integer_work(10, out)  # compile
    steps = 200_000
    import time
    start = time.perf_counter()
    integer_work(steps, out)
    per_step = (time.perf_counter() - start) / steps
    steps = max(1000, int(seconds / per_step))
    return lambda: integer_work(steps, out)
