"""The built-in ``heuristic`` player: ``basic`` with its measured blunders fixed (see :func:`heuristic_strategy`).

The trick loop of the engine without the strong players inlines only :func:`heuristic_tricks` and its
Domino loop only :func:`heuristic_domino`: smaller loops run faster.  The learned player, which asks it once
per decision for one of its features, calls :func:`heuristic_trick_card` and
:func:`heuristic_domino_card` instead: numba compiles each of those once for every engine that holds the
learned player, where an inlined body is compiled again at every call site; the play loops of the engines
with learned or mc call them too (no loss of speed measured there).  (The rollouts' player switch
inlines the halves: called there, mc's heuristic rollouts ran 7% slower.)
"""

import numpy as np
from ...core.jit import njit

from ...core.bits import highest_bit, lowest_bit, popcount
from .basic import domino, highest_rank_card, lead_low, negative_discard, penalty_cards, trumps
from ..rules.play_rules import above, below, lane, suit_bits
from ..rules.config import BARBU, DOMINO, HEARTS_MASK, KING_OF_HEARTS, NO_LAST_TWO, NO_QUEENS, TRUMPS
from ..state import S_CONTRACT, S_N_IN_TRICK, S_PLAYED, S_TRICK, S_TRICK_CARDS, S_WIN_CARD

U1 = np.uint64(1)
KH = U1 << np.uint64(KING_OF_HEARTS)
LAST_FREE_TRICK = 9  # No Last Two: tricks 0..8 (1-9) are spent shedding high cards


@njit(inline="always", cache=True)
def _trick_mask(state, n_in):
    t = np.uint64(0)
    for k in range(n_in):
        t |= U1 << state[S_TRICK_CARDS + k]
    return t


@njit(inline="always", cache=True)
def _negative(legal, hand, state):
    contract = np.int64(state[S_CONTRACT])
    n_in = np.int64(state[S_N_IN_TRICK])
    played = state[S_PLAYED]
    if contract == NO_LAST_TWO and np.int64(state[S_TRICK]) < LAST_FREE_TRICK:
        # The early tricks cost nothing: spend the high cards now ...
        return highest_rank_card(legal, hand)
    # ... then duck from trick 10 on as in No Tricks, so as not to hold the lead and the top cards
    # into tricks 12 and 13.
    if n_in == 0:
        if contract == BARBU and not (played & KH):
            if hand & KH:
                others = legal & ~HEARTS_MASK
                if others:  # never lead a heart into one's own K♥
                    return lead_low(others, hand)
            else:
                low_hearts = legal & HEARTS_MASK & ~above(KING_OF_HEARTS - 1)
                if low_hearts:  # flush the K♥ out
                    return lowest_bit(low_hearts)
        return lead_low(legal, hand)
    win = np.int64(state[S_WIN_CARD])
    led = win // 13  # no trumps: the winning card is of the led suit
    if lane(legal, led) == np.uint64(0) or (legal & ~suit_bits(led)):
        return negative_discard(legal, hand, contract, played)
    penalty = penalty_cards(contract)
    if penalty and (n_in == 3 or (n_in == 2 and contract != NO_QUEENS)) \
            and not (_trick_mask(state, n_in) & penalty):
        # Last (No Queens) or one of the last two (No Hearts, Barbu) to a trick with no penalty card in it:
        # winning it costs nothing (or little), so unload the top card rather than keep it for a worse trick.
        dump = legal & penalty & below(win)
        if dump:
            return highest_bit(dump)
        free = legal & ~penalty
        if free:
            return highest_bit(free)
    ducks = legal & below(win)
    if ducks:
        return highest_bit(ducks)  # the highest card that still loses
    # Every card wins for now: avoid the penalty cards; last to play, dump the highest.
    safe = legal & ~penalty
    pool = safe if safe else legal
    return highest_bit(pool) if n_in == 3 else lowest_bit(pool)


@njit(inline="always", cache=True)
def heuristic_tricks(legal, hand, state, rng):
    """The heuristic's trick-contract half (the engine's trick loop inlines only this)."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    if np.int64(state[S_CONTRACT]) == TRUMPS:
        return trumps(legal, hand, state, True)
    return _negative(legal, hand, state)


@njit(inline="always", cache=True)
def heuristic_domino(legal, hand, state, rng):
    """The heuristic's Domino half (the engine's Domino loop inlines only this)."""
    return domino(legal, hand, state)


@njit(inline="always", cache=True)
def heuristic_strategy(legal, hand, state, rng):
    """A rule-based club player, one rule set per contract: ``basic`` with its measured blunders fixed."""
    if np.int64(state[S_CONTRACT]) == DOMINO:
        return heuristic_domino(legal, hand, state, rng)
    return heuristic_tricks(legal, hand, state, rng)


@njit(cache=True)
def heuristic_trick_card(legal, hand, state, rng):
    """:func:`heuristic_tricks`, compiled once and called (not inlined into its caller)."""
    return heuristic_tricks(legal, hand, state, rng)


@njit(cache=True)
def heuristic_domino_card(legal, hand, state, rng):
    """:func:`heuristic_domino`, compiled once and called (not inlined into its caller)."""
    return heuristic_domino(legal, hand, state, rng)
