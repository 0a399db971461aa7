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
from ...core.jit import njit

from ...core.bits import lowest_bit, popcount
from ..rules.melds import lane6
from ..rules.play_rules import beaters, card_points, power, suit_bits
from ..rules.config import DECK, LOW_RANK, PLAIN_POWER, TRUMP_POWER
from ..state import S_MAKER, S_N_IN_TRICK, S_PLAYED, S_SEAT, S_TRICK_CARDS, S_TRUMP, S_WIN_CARD, S_WIN_SEAT

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


def _lane_tables():
    """Per 6-bit suit lane (bit b = rank 7 + b): the highest power held and the lowest-power card,
    in trump order and in plain order; per power p, the lane of the ranks above p."""
    top = np.zeros((2, 64), np.int64)
    low = np.full((2, 64), -1, np.int64)
    above = np.zeros((2, 7), np.uint64)
    for k, order in enumerate((TRUMP_POWER, PLAIN_POWER)):
        for lane in range(64):
            powers = [(int(order[LOW_RANK + b]), b) for b in range(6) if lane >> b & 1]
            if powers:
                top[k, lane] = max(powers)[0]
                low[k, lane] = min(powers)[1]
        for p in range(7):
            above[k, p] = np.uint64(sum(1 << b for b in range(6) if order[LOW_RANK + b] > p))
    return top, low, above


TOP_POWER, LOWEST_CARD, ABOVE = _lane_tables()  # [0]: trump order, [1]: plain order


@njit(inline="always", cache=True)
def _masters(mask, unseen, trump):
    """The cards of ``mask`` that no unseen card of their own suit beats (one table look-up per suit)."""
    out = U0
    for s in range(4):
        mine = lane6(mask, s)
        if mine:
            k = 0 if s == trump else 1
            out |= (mine & ABOVE[k, TOP_POWER[k, lane6(unseen, s)]]) << np.uint64(13 * s + LOW_RANK)
    return out


@njit(inline="always", cache=True)
def _lowest_winner(legal, trump, led, win_card):
    """The lowest-powered legal card that beats ``win_card``, or -1: a card of the led suit before a trump."""
    win_suit = win_card // 13
    win_rank = win_card - 13 * win_suit
    if win_suit == trump:
        cand = lane6(legal, trump) & ABOVE[0, TRUMP_POWER[win_rank]]
        return 13 * trump + LOW_RANK + LOWEST_CARD[0, cand] if cand else -1
    cand = lane6(legal, led) & ABOVE[1, PLAIN_POWER[win_rank]]
    if cand:
        return 13 * led + LOW_RANK + LOWEST_CARD[1, cand]
    trumps = lane6(legal, trump)
    return 13 * trump + LOW_RANK + LOWEST_CARD[0, trumps] if trumps else -1


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
    if not partner_wins:
        best = _lowest_winner(legal, trump, led, win_card)
        if best >= 0:
            return best
    return _cheapest(legal, trump, led)
