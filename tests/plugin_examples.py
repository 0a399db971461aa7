"""User-style strategies for the plugin tests (loaded as ``plugin_examples:NAME``)."""

import numpy as np
from numba import njit

from barbu_sim.core.bits import highest_bit, lowest_bit


@njit
def play_high(legal, hand, state, rng):
    return highest_bit(legal)


@njit
def cheat(legal, hand, state, rng):
    # Plays a card it does not hold whenever it can find one.
    outside = ~hand & np.uint64((1 << 52) - 1)
    if outside:
        return lowest_bit(outside)
    return lowest_bit(legal)


@njit
def off_the_table(legal, hand, state, rng):
    return 99


@njit
def wrong_shape(legal, hand):
    return 0
