"""Dealing 52 cards into four 13-card hands inside the kernels: a deal is a pure function of (seed, index).

A partial Fisher-Yates of 39 draws from the deal's own counter-based stream
(:mod:`barbu_sim.core.rng`); the fourth hand is the complement of the other three.
"""

import numpy as np
from ...core.jit import njit

from ...core.cards import FULL_DECK, N_SEATS
from ...core.rng import GOLDEN, STREAM_DEAL, mix64, stream_key


@njit(cache=True)
def _hand_from_deck(deck, start):
    """The mask of the 13 cards ``deck[start:start + 13]``."""
    h = np.uint64(0)
    for k in range(start, start + 13):
        h |= np.uint64(1) << np.uint64(deck[k])
    return h


@njit(cache=True)
def _partial_shuffle(deck, size, draws, state):
    """Fisher-Yates over ``deck[:size]`` for its first ``draws`` places, from generator ``state``."""
    for i in range(draws):
        state += GOLDEN
        r = mix64(state) >> np.uint64(32)
        j = i + np.int64((r * np.uint64(size - i)) >> np.uint64(32))
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t


@njit(cache=True, _nrt=False)
def deal_into(seed, index, deck, hands):
    """Deal ``index`` of run ``seed`` into ``hands`` ((4,) uint64), using scratch ``deck`` ((52,) int64).

    A partial Fisher-Yates of 39 draws from the deal's own counter-based stream;
    the fourth hand is the complement of the other three.  No allocation: this
    runs once per deal inside the batch kernels.
    """
    state = stream_key(np.uint64(seed), np.uint64(index), STREAM_DEAL)
    for i in range(52):
        deck[i] = i
    _partial_shuffle(deck, 52, 39, state)
    taken = np.uint64(0)
    for s in range(3):
        hands[s] = _hand_from_deck(deck, 13 * s)
        taken |= hands[s]
    hands[3] = FULL_DECK & ~taken


@njit(cache=True, _nrt=False)
def deal_around_into(seed, index, fixed_hand, fixed_seat, deck, hands):
    """Like :func:`deal_into`, but ``fixed_seat`` holds ``fixed_hand`` and the other 39 cards are dealt.

    Used to estimate what a hand is worth: Monte Carlo over the unseen cards.
    """
    state = stream_key(np.uint64(seed), np.uint64(index), STREAM_DEAL)
    n = 0
    for c in range(52):
        if not (fixed_hand >> np.uint64(c)) & np.uint64(1):
            deck[n] = c
            n += 1
    _partial_shuffle(deck, 39, 26, state)
    hands[fixed_seat] = fixed_hand
    k = 0
    for s in range(4):
        if s != fixed_seat:
            hands[s] = _hand_from_deck(deck, 13 * k)
            k += 1


def random_deal(seed: int, index: int) -> np.ndarray:
    """The hands ((4,) uint64, by seat) of deal ``index`` of a run with ``seed``."""
    if seed < 0 or index < 0:
        raise ValueError("seed and deal index must be non-negative integers")
    hands = np.zeros(N_SEATS, np.uint64)
    deal_into(np.uint64(seed % 2**64), np.uint64(index), np.empty(52, np.int64), hands)
    return hands


@njit(cache=True)
def _deal_range(seed, lo, hands):
    """Deals ``lo .. lo + len(hands) - 1`` of run ``seed`` into ``hands`` ((n, 4) uint64)."""
    deck = np.empty(52, np.int64)
    for i in range(hands.shape[0]):
        deal_into(seed, np.uint64(lo + i), deck, hands[i])


def deal_hands(seed: int, lo: int, n: int) -> np.ndarray:
    """The hands ((n, 4) uint64, by seat N E S W) of deals ``lo .. lo + n - 1`` of a run with ``seed``: the
    same deals :func:`deal_into` gives the batch engine, so a run's hands can be written again at any time."""
    if seed < 0 or lo < 0 or n < 0:
        raise ValueError("seed, first deal and count must be non-negative integers")
    hands = np.zeros((n, N_SEATS), np.uint64)
    _deal_range(np.uint64(seed % 2**64), np.int64(lo), hands)
    return hands
