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

# Every random stream of the package, in one table.  A draw is keyed by (seed, index, stream):
# two streams with one key would give the same numbers to two uses of one (seed, index), so the
# keys differ (tests/test_rng.py).  Each module imports its keys from here, under the short
# names it uses (``STREAM_CLABBER_DEAL as STREAM_DEAL``).  A key never changes once figures rest
# on it: changing one changes every result drawn from it.
STREAMS: dict[str, int] = {
    # Barbu
    "STREAM_DEAL": 0x6A09E667F3BCC908,  # the deals
    "STREAM_PLAY": 0xBB67AE8584CAA73B,  # the players' draws during play
    "STREAM_EVAL": 0x3C6EF372FE94F82B,  # Monte Carlo deals around a hand (advise, value tables)
    "STREAM_GAME": 0xA54FF53A5F1D36F1,  # game-level draws (the first declarer)
    "STREAM_MC": 0x510E527FADE682D1,  # the layouts and rollouts of one mc decision
    "STREAM_REVIEW": 0x9B05688C2B3E6C1F,  # the layouts of a review or a table hint
    "STREAM_LEARN": 0x1F83D9ABFB41BD6B,  # the layouts of the learned player's training positions
    # Clabber
    "STREAM_CLABBER_DEAL": 0x1F83D9ABFB41BD6B,  # the deals (the same key as STREAM_LEARN: see CROSS_GAME)
    "STREAM_CLABBER_BID": 0x5BE0CD19137E2179,  # the bidding draws, and mc bidding's rollouts
    "STREAM_CLABBER_PLAY": 0xCBBB9D5DC1059ED8,  # the players' draws during play
    "STREAM_CLABBER_GAME": 0x629A292A367CD507,  # game-level draws (the first dealer)
    "STREAM_CLABBER_EVAL": 0x9159015A3070DD17,  # Monte Carlo deals around a hand (advise, mc bidding)
    "STREAM_CLABBER_MC": 0x1F83D9ABFB41BD6C,  # the layouts of one mc decision
    "STREAM_CLABBER_REVIEW": 0x2F1B6A0C5D93E847,  # the layouts of a Clabber review
    "STREAM_CLABBER_BID_REVIEW": 0x8C3D37C819544DA2,  # the layouts of a Clabber review's bidding calls
    "STREAM_CLABBER_LEARN": 0xA45871D506AE587E,  # the Clabber learned player's training rounds: draws and layouts
}
# One key shared by streams of two games, kept because changing either would change what rests on it
# (the learned player's training data; every Clabber figure): no result draws from both games.
CROSS_GAME = {("STREAM_LEARN", "STREAM_CLABBER_DEAL")}

STREAM_DEAL = np.uint64(STREAMS["STREAM_DEAL"])
STREAM_PLAY = np.uint64(STREAMS["STREAM_PLAY"])
STREAM_EVAL = np.uint64(STREAMS["STREAM_EVAL"])
STREAM_GAME = np.uint64(STREAMS["STREAM_GAME"])
STREAM_MC = np.uint64(STREAMS["STREAM_MC"])
STREAM_REVIEW = np.uint64(STREAMS["STREAM_REVIEW"])
STREAM_LEARN = np.uint64(STREAMS["STREAM_LEARN"])
STREAM_CLABBER_DEAL = np.uint64(STREAMS["STREAM_CLABBER_DEAL"])
STREAM_CLABBER_BID = np.uint64(STREAMS["STREAM_CLABBER_BID"])
STREAM_CLABBER_PLAY = np.uint64(STREAMS["STREAM_CLABBER_PLAY"])
STREAM_CLABBER_GAME = np.uint64(STREAMS["STREAM_CLABBER_GAME"])
STREAM_CLABBER_EVAL = np.uint64(STREAMS["STREAM_CLABBER_EVAL"])
STREAM_CLABBER_MC = np.uint64(STREAMS["STREAM_CLABBER_MC"])
STREAM_CLABBER_REVIEW = np.uint64(STREAMS["STREAM_CLABBER_REVIEW"])
STREAM_CLABBER_BID_REVIEW = np.uint64(STREAMS["STREAM_CLABBER_BID_REVIEW"])
STREAM_CLABBER_LEARN = np.uint64(STREAMS["STREAM_CLABBER_LEARN"])


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
