"""Layouts of hidden cards: how both games' Monte-Carlo players deal the cards they cannot see."""

import numpy as np
from .jit import njit

from .bits import nth_set_bit, popcount
from .rng import rand_below

U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(cache=True, _nrt=False)
def copy_into(dst, src, n):
    """``dst[:n] = src[:n]``, entry by entry: a rollout's fresh copy of a layout or a state array (no
    temporary array: the kernels run without reference counting)."""
    for i in range(n):
        dst[i] = src[i]


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


@njit(cache=True, _nrt=False)
def deal_cards(rng, rem, allowed, cap, constrained, layout):
    """Deal the cards ``rem`` into ``layout`` (4,), each to a seat ``allowed`` it, ``cap`` cards a seat.

    Cards go one by one, in random order, to a random seat among those allowed it, in
    proportion to the room each has left; with ``constrained`` (some seat may not hold some
    card), never to a seat whose choice would leave the rest undealable (:func:`feasible`).
    ``cap`` is used up; ``layout`` gets the cards added.
    """
    for _ in range(popcount(rem)):
        c = U1 << np.uint64(nth_set_bit(rem, rand_below(rng, popcount(rem))))
        tried = U0
        j = -1
        while True:
            room = 0
            for s in range(4):
                if cap[s] > 0 and (allowed[s] & c) and not ((tried >> np.uint64(s)) & U1):
                    room += cap[s]
            if room == 0:  # every allowed seat would strand a card: cannot happen with sound inference
                break
            r = rand_below(rng, room)
            for s in range(4):
                if cap[s] > 0 and (allowed[s] & c) and not ((tried >> np.uint64(s)) & U1):
                    if r < cap[s]:
                        j = s
                        break
                    r -= cap[s]
            if not constrained:
                break
            cap[j] -= 1
            ok = feasible(rem & ~c, allowed, cap)
            cap[j] += 1
            if ok:
                break
            tried |= U1 << np.uint64(j)
            j = -1
        if j < 0:  # no consistent seat: give the card to any seat with room
            for s in range(4):
                if cap[s] > 0:
                    j = s
                    break
        cap[j] -= 1
        layout[j] |= c
        rem &= ~c
