"""Dealing the 24 cards: a round's deal from its own stream, and sample deals around a known hand."""

from __future__ import annotations

import numpy as np
from ...core.jit import njit

from ...core.bits import lowest_bit, popcount
from ...core.rng import (
    GOLDEN, STREAM_CLABBER_DEAL as STREAM_DEAL, STREAM_CLABBER_EVAL as STREAM_EVAL, mix64, rand_below, stream_key,
)
from ..rules.config import DECK, DECK_CARDS

U0 = np.uint64(0)
U1 = np.uint64(1)
U32 = np.uint64(32)
DECK_ARRAY = np.array(DECK_CARDS, np.int64)


@njit(cache=True, _nrt=False)
def deal_into(key, index, dealer, pack, hands, rng):
    """Deal round ``index``: Fisher-Yates over the 24 cards, card ``i`` to seat ``dealer + 1 + i``.

    Fills ``hands`` (4,) uint64 and returns the turned card (the last one, the dealer's).
    """
    z = stream_key(key, index, STREAM_DEAL)  # rand_below's generator in a local: the same draws, no memory round trip
    for i in range(24):
        pack[i] = DECK_ARRAY[i]
    for i in range(23, 0, -1):
        z += GOLDEN
        j = np.int64(((mix64(z) >> U32) * np.uint64(i + 1)) >> U32)
        c = pack[i]
        pack[i] = pack[j]
        pack[j] = c
    rng[0] = z
    h0 = U0
    h1 = U0
    h2 = U0
    h3 = U0
    for i in range(0, 24, 4):
        h0 |= U1 << np.uint64(pack[i])
        h1 |= U1 << np.uint64(pack[i + 1])
        h2 |= U1 << np.uint64(pack[i + 2])
        h3 |= U1 << np.uint64(pack[i + 3])
    hands[(dealer + 1) & 3] = h0
    hands[(dealer + 2) & 3] = h1
    hands[(dealer + 3) & 3] = h2
    hands[dealer & 3] = h3
    return pack[23]


@njit(cache=True, _nrt=False)
def deal_around_into(key, k, hand, seat, turned, dealer, pack, dealt, rng):
    """Sample deal ``k``: ``hand`` at ``seat``, the turned card with the dealer, the rest at random."""
    rng[0] = stream_key(key, np.uint64(k), STREAM_EVAL)
    turned_bit = U1 << np.uint64(turned)
    unseen = DECK & ~hand
    if dealer != seat:
        unseen &= ~turned_bit
    n = 0
    m = unseen
    while m:
        pack[n] = lowest_bit(m)
        m &= m - U1
        n += 1
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        c = pack[i]
        pack[i] = pack[j]
        pack[j] = c
    for s in range(4):
        dealt[s] = U0
    dealt[seat] = hand
    if dealer != seat:
        dealt[dealer] = turned_bit
    idx = 0
    for s in range(4):
        if s != seat:
            while popcount(dealt[s]) < 6:
                dealt[s] |= U1 << np.uint64(pack[idx])
                idx += 1
