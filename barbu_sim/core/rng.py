"""Counter-based random numbers: a run is a pure function of (seed, deal index).

splitmix64 keyed by the seed and the deal index gives every deal its own
stream, so results do not depend on thread count or chunk size, and every
configuration of a run can be played on the same deals.  Strategies that need
randomness receive a one-element ``uint64`` state array and call
:func:`rand_below` on it.
"""

import numpy as np
from .jit import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)

STREAM_DEAL = np.uint64(0x6A09E667F3BCC908)
STREAM_PLAY = np.uint64(0xBB67AE8584CAA73B)
STREAM_EVAL = np.uint64(0x3C6EF372FE94F82B)  # Monte Carlo deals around a hand
STREAM_GAME = np.uint64(0xA54FF53A5F1D36F1)  # game-level draws (the first declarer)


@njit(cache=True)
def mix64(z):
    """splitmix64's finaliser: a bijective scramble of a uint64."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def stream_key(seed, index, stream):
    """Initial generator state for deal ``index`` of run ``seed`` (uint64 each)."""
    return mix64(mix64(seed ^ stream) + index * GOLDEN)


@njit(cache=True)
def next_u64(state):
    """Advance a one-element uint64 state array and return 64 random bits."""
    z = state[0] + GOLDEN
    state[0] = z
    return mix64(z)


@njit(cache=True)
def rand_below(state, n):
    """A uniform int64 in ``[0, n)`` from a one-element uint64 state array.

    Multiply-shift on the top 32 bits: the bias is below ``n / 2**32``.
    """
    r = next_u64(state) >> np.uint64(32)
    return np.int64((r * np.uint64(n)) >> np.uint64(32))
