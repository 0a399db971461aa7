"""Layouts of hidden cards: the check both games' Monte-Carlo players deal unseen cards with."""

import numpy as np
from numba import njit

from .bits import popcount

U0 = np.uint64(0)


@njit(inline="always", cache=True)
def feasible(rem, allowed, cap):
    """Hall's condition: the cards ``rem`` can still be dealt, each to a seat allowed it, filling every ``cap``.

    ``allowed``: (4,) uint64, the cards each seat may still receive; ``cap``: (4,) int64, how
    many it must receive.  Every set of seats must have room for the cards only they may hold.
    """
    for subset in range(1, 16):
        outside = U0
        room = 0
        for j in range(4):
            if (subset >> j) & 1:
                room += cap[j]
            else:
                outside |= allowed[j]
        if popcount(rem & ~outside) > room:
            return False
    return True
