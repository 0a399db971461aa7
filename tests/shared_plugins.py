"""Plugin sources the hardening tests of both games write to a file and load by path."""

# Strategies that raise: ``picky`` while the 2 of clubs is legal, ``grumpy`` at the third trick.
RAISING = '''
from numba import njit
from barbu_sim.core.bits import lowest_bit

@njit
def picky(legal, hand, state, rng):
    if legal & 1:  # 2 of clubs is legal
        raise ValueError("no clubs today")
    return lowest_bit(legal)


@njit
def grumpy(legal, hand, state, rng):
    if state[5] == 2:  # the third trick
        raise ValueError("not in the mood")
    return lowest_bit(legal)
'''
