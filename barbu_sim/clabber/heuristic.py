"""The ``heuristic`` play strategy: a few plain card-player's rules, in this order.

Leading a trick:

1. Keep a winner for the last trick: with two cards left, one of them a master trump (no unseen
   trump beats it), lead the other.
2. Draw trumps as makers: holding a master trump while the opponents may still hold trumps, lead it.
3. Cash aces: lead a master card of another suit (no unseen card of its suit beats it), the one
   worth most points.
4. Otherwise lead the cheapest card of another suit (fewest points, then lowest); trumps last.

Following:

5. Give points to a partner who is winning the trick when the trick is safe (we play last, or no
   unseen card can beat the partner's card): play the legal non-trump card worth most points
   (with only trumps legal, the lowest one).
6. Otherwise win the trick if a legal card can, with the lowest such card.
7. Otherwise play the cheapest legal card (fewest points, then the lowest; a trump last).
"""

import numpy as np
from numba import njit

from ..core.bits import lowest_bit, popcount
from .play_rules import beaters, card_points, power, suit_bits
from .rules import DECK
from .state import S_MAKER, S_N_IN_TRICK, S_PLAYED, S_SEAT, S_TRICK_CARDS, S_TRUMP, S_WIN_CARD, S_WIN_SEAT

U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(inline="always", cache=True)
def _cheapest(mask, trump, led):
    """The card of ``mask`` with the fewest points, then the lowest power; non-trumps before trumps."""
    best, best_key = -1, 1 << 30
    m = mask
    while m:
        c = lowest_bit(m)
        m &= m - U1
        key = 1000 * (1 if c // 13 == trump else 0) + 32 * card_points(c, trump) + power(c, trump, led)
        if key < best_key:
            best, best_key = c, key
    return best


@njit(inline="always", cache=True)
def _richest(mask, trump, led):
    """The card of ``mask`` with the most points, then the lowest power."""
    best, best_key = -1, -1
    m = mask
    while m:
        c = lowest_bit(m)
        m &= m - U1
        key = 32 * card_points(c, trump) + 31 - power(c, trump, led)
        if key > best_key:
            best, best_key = c, key
    return best


@njit(inline="always", cache=True)
def _masters(mask, unseen, trump):
    """The cards of ``mask`` that no unseen card of their own suit beats."""
    out = U0
    m = mask
    while m:
        c = lowest_bit(m)
        m &= m - U1
        if unseen & beaters(c, trump) == U0:
            out |= U1 << np.uint64(c)
    return out


@njit(cache=True)
def heuristic_strategy(legal, hand, state, rng):
    """The documented rules above; deterministic (``rng`` unused)."""
    trump = np.int64(state[S_TRUMP])
    seat = np.int64(state[S_SEAT])
    n = np.int64(state[S_N_IN_TRICK])
    unseen = DECK & ~state[S_PLAYED] & ~hand
    trumps_bits = suit_bits(trump)
    if n == 0:
        master_trumps = _masters(legal & trumps_bits, unseen, trump)
        if popcount(hand) == 2 and master_trumps != U0 and popcount(legal) == 2:
            return lowest_bit(legal & ~(U1 << np.uint64(lowest_bit(master_trumps))))
        makers = (np.int64(state[S_MAKER]) & 1) == (seat & 1)
        if makers and master_trumps != U0 and unseen & trumps_bits:
            return lowest_bit(master_trumps)
        side = legal & ~trumps_bits
        master_side = _masters(side, unseen, trump)
        if master_side != U0:
            return _richest(master_side, trump, -1)
        return _cheapest(legal, trump, -1)
    led = np.int64(state[S_TRICK_CARDS]) // 13
    win_card = np.int64(state[S_WIN_CARD])
    win_power = power(win_card, trump, led)
    partner_wins = np.int64(state[S_WIN_SEAT]) == (seat ^ 2)
    if partner_wins:
        safe = n == 3
        if not safe:
            threats = unseen & beaters(win_card, trump)
            if win_card // 13 != trump:
                threats |= unseen & trumps_bits
            safe = threats == U0
        if safe:
            side = legal & ~trumps_bits
            if side != U0:
                return _richest(side, trump, led)
            return _cheapest(legal, trump, led)
    winners = U0
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - U1
        if power(c, trump, led) > win_power:
            winners |= U1 << np.uint64(c)
    if winners != U0 and not partner_wins:
        best, best_power = -1, 99
        m = winners
        while m:
            c = lowest_bit(m)
            m &= m - U1
            p = power(c, trump, led)
            if p < best_power:
                best, best_power = c, p
        return best
    return _cheapest(legal, trump, led)
