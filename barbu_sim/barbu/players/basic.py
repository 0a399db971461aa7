"""The built-in ``basic`` player: the first rule-based player, kept unchanged (see :func:`basic_strategy`).

It was the ``heuristic`` of barbu-sim 0.1 until the heuristic's blunders were fixed
(:mod:`barbu_sim.barbu.players.heuristic`); it stays, card for card, so that tables made with
it can be reproduced and the strength ladder has a rung.  Do not change its play.

The engine's trick loop calls only :func:`basic_tricks` and its Domino loop only
:func:`basic_domino`, as plain calls: inlining them cost more compile time than they
are worth for a legacy player (about 11% slower than inlined).
"""

import numpy as np
from ...core.jit import njit

from ...core.bits import highest_bit, lowest_bit, popcount
from ...core.cards import QUEEN_RANK
from ..rules.play_rules import above, below, lane, suit_bits
from ..rules.config import (
    ACE_OF_HEARTS, BARBU, DOMINO, HEARTS_MASK, KING_OF_HEARTS, NO_HEARTS, NO_LAST_TWO, NO_QUEENS, QUEENS, R_DOMINO_ACE,
    TRUMPS,
)
from ..state import (
    S_CONTRACT, S_DECLARER, S_N_IN_TRICK, S_PARAM, S_PLAYED, S_RULES, S_SEAT, S_TRICK, S_TRICK_CARDS, S_WIN_CARD,
)

U1 = np.uint64(1)


# ---------------------------------------------------------------- helpers
@njit(inline="always", cache=True)
def highest_rank_card(mask, hand):
    """The card of highest rank in ``mask``; ties go to the suit shortest in ``hand``."""
    best, best_rank, best_len = -1, -1, 99
    for s in range(4):
        ln = lane(mask, s)
        if ln:
            r = highest_bit(ln)
            n = popcount(lane(hand, s))
            if r > best_rank or (r == best_rank and n < best_len):
                best, best_rank, best_len = 13 * s + r, r, n
    return best


@njit(inline="always", cache=True)
def lowest_rank_card(mask, hand):
    """The card of lowest rank in ``mask``; ties go to the suit shortest in ``hand``."""
    best, best_rank, best_len = -1, 99, 99
    for s in range(4):
        ln = lane(mask, s)
        if ln:
            r = lowest_bit(ln)
            n = popcount(lane(hand, s))
            if r < best_rank or (r == best_rank and n < best_len):
                best, best_rank, best_len = 13 * s + r, r, n
    return best


@njit(inline="always", cache=True)
def lead_low(legal, hand):
    """Lead low, from a short suit when it has a low card."""
    best, best_len = -1, 99
    for s in range(4):
        ln = lane(legal, s)
        if ln and lowest_bit(ln) <= 6:
            n = popcount(lane(hand, s))
            if n < best_len:
                best, best_len = 13 * s + lowest_bit(ln), n
    return best if best >= 0 else lowest_rank_card(legal, hand)


@njit(inline="always", cache=True)
def penalty_cards(contract):
    """Cards it costs to win in a negative contract (the ones to avoid winning)."""
    if contract == NO_QUEENS:
        return QUEENS
    if contract == NO_HEARTS:
        return HEARTS_MASK
    if contract == BARBU:
        return U1 << np.uint64(KING_OF_HEARTS)
    return np.uint64(0)


@njit(inline="always", cache=True)
def negative_discard(legal, hand, contract, played):
    """Void in the led suit: shed the most dangerous card."""
    if contract == BARBU:
        if legal & (U1 << np.uint64(KING_OF_HEARTS)):
            return KING_OF_HEARTS
        hearts_high = legal & HEARTS_MASK & above(KING_OF_HEARTS - 1)  # A♥ can be forced to take K♥
        if hearts_high:
            return highest_bit(hearts_high)
    elif contract == NO_HEARTS:
        if legal & (U1 << np.uint64(ACE_OF_HEARTS)):
            return ACE_OF_HEARTS
        h = legal & HEARTS_MASK
        if h:
            return highest_bit(h)
    elif contract == NO_QUEENS:
        q = legal & QUEENS
        if q:
            return lowest_bit(q)
        # A or K of a suit whose queen is still out can be forced to take it.
        danger = np.uint64(0)
        for s in range(4):
            queen = 13 * s + QUEEN_RANK
            if not ((played | hand) >> np.uint64(queen)) & U1:
                danger |= legal & above(queen)
        if danger:
            return highest_rank_card(danger, hand)
    return highest_rank_card(legal, hand)


@njit(inline="always", cache=True)
def _negative(legal, hand, state):
    contract = np.int64(state[S_CONTRACT])
    n_in = np.int64(state[S_N_IN_TRICK])
    played = state[S_PLAYED]
    if contract == NO_LAST_TWO and np.int64(state[S_TRICK]) < 11:
        # Tricks 1-11 cost nothing: spend the high cards now, keep the low ones for the end.
        return highest_rank_card(legal, hand)
    if n_in == 0:
        return lead_low(legal, hand)
    win = np.int64(state[S_WIN_CARD])
    led = win // 13  # no trumps: the winning card is of the led suit
    if lane(legal, led) == np.uint64(0) or (legal & ~suit_bits(led)):
        return negative_discard(legal, hand, contract, played)
    ducks = legal & below(win)
    if ducks:
        return highest_bit(ducks)  # the highest card that still loses
    # Every card wins for now: avoid the penalty cards; last to play, dump the highest.
    safe = legal & ~penalty_cards(contract)
    pool = safe if safe else legal
    return highest_bit(pool) if n_in == 3 else lowest_bit(pool)


@njit(inline="always", cache=True)
def _is_master(card, hand, played):
    """True when no card outside ``hand`` and not yet played beats ``card`` in its suit."""
    return (above(card) & ~hand & ~played) == np.uint64(0)


@njit(inline="always", cache=True)
def trumps(legal, hand, state, draw_low):
    """The Trumps rules of ``basic`` and ``heuristic`` (one rule set; they differ in one lead).

    Leading with trumps out and no master trump, the declarer with 4+ trumps draws anyway:
    with its top trump (``draw_low`` false: basic) or a low one (``draw_low`` true: heuristic,
    as the top one would fall to a higher).
    """
    trump = np.int64(state[S_PARAM])
    tmask = suit_bits(trump)
    played = state[S_PLAYED]
    outside = ~hand & ~played  # cards held by the other seats
    n_in = np.int64(state[S_N_IN_TRICK])
    if n_in == 0:
        my_trumps = legal & tmask
        if my_trumps and (outside & tmask):
            top = highest_bit(my_trumps)
            declarer = state[S_DECLARER] == state[S_SEAT]
            if _is_master(top, hand, played):
                return top  # draw trumps with a master
            if declarer and popcount(my_trumps) >= 4:
                return lowest_bit(my_trumps) if draw_low else top  # draw trumps anyway
        for s in range(4):  # cash a side-suit winner
            ln = lane(legal, s)
            if s != trump and ln:
                top = 13 * s + highest_bit(ln)
                if _is_master(top, hand, played):
                    return top
        side = legal & ~tmask
        if side:  # lead low from the shortest side suit, to ruff it later
            best, best_len = -1, 99
            for s in range(4):
                ln = lane(side, s)
                if ln:
                    n = popcount(ln)
                    if n < best_len:
                        best, best_len = 13 * s + lowest_bit(ln), n
            return best
        return lowest_bit(legal)
    win = np.int64(state[S_WIN_CARD])
    led = np.int64(state[S_TRICK_CARDS]) // 13  # the first card of the trick
    following = (legal & ~suit_bits(led)) == np.uint64(0)
    if following:
        if win // 13 != led:  # already ruffed
            return lowest_bit(legal)
        winners = legal & above(win)
        if winners:
            if n_in == 3:
                return lowest_bit(winners)
            top = highest_bit(winners)
            if _is_master(top, hand, played):
                return top
        return lowest_bit(legal)
    my_trumps = legal & tmask
    if my_trumps:
        if win // 13 == trump:
            over = my_trumps & above(win)
            if over:
                return lowest_bit(over)
            rest = legal & ~tmask
            if rest:
                return lowest_rank_card(rest, hand)
            return lowest_bit(my_trumps)
        return lowest_bit(my_trumps)  # ruff as cheaply as possible
    return lowest_rank_card(legal, hand)


@njit(inline="always", cache=True)
def domino_sides(c, ace_low):
    """The cards of ``c``'s suit beyond it upward and downward in column order, and its next card each way.

    Column order runs 2 .. A, or A .. K with the ace low (``domino-ace=low``).
    """
    r = c % 13
    if not ace_low:
        up_next = (U1 << np.uint64(c + 1)) if r < 12 else np.uint64(0)
        down_next = (U1 << np.uint64(c - 1)) if r > 0 else np.uint64(0)
        return above(c), below(c), up_next, down_next
    ace = U1 << np.uint64(c - r + 12)
    if r == 12:
        return suit_bits(c // 13) & ~ace, np.uint64(0), U1 << np.uint64(c - 12), np.uint64(0)
    up_next = (U1 << np.uint64(c + 1)) if r < 11 else np.uint64(0)
    down_next = (U1 << np.uint64(c - 1)) if r > 0 else ace
    return above(c) & ~ace, below(c) | ace, up_next, down_next


@njit(inline="always", cache=True)
def domino(legal, hand, state):
    """The Domino rule of ``basic`` and ``heuristic``: the card that unlocks more of my cards than of the others'
    (a single legal card at once)."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    start = np.int64(state[S_PARAM])
    played = state[S_PLAYED]
    ace_low = state[S_RULES + R_DOMINO_ACE] == U1
    # A rank's place in column order: the ace below the 2 when it is low.
    start_place = (start + 1) % 13 if ace_low else start
    best, best_score = -1, -1000
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - U1
        r = c % 13
        place = (r + 1) % 13 if ace_low else r
        up_beyond, down_beyond, up_next, down_next = domino_sides(c, ace_low)
        if place == start_place:
            beyond = up_beyond | down_beyond
            nxt = up_next | down_next
        elif place > start_place:
            beyond = up_beyond
            nxt = up_next
        else:
            beyond = down_beyond
            nxt = down_next
        mine = popcount(beyond & hand)
        theirs = popcount(beyond & ~hand & ~played)
        # Release runs that help me, hold back cards that unblock the others.
        score = 4 * (mine - theirs) + 2 * popcount(nxt & hand) - popcount(nxt & ~hand)
        if score > best_score:
            best, best_score = c, score
    return best


@njit(cache=True)
def basic_tricks(legal, hand, state, rng):
    """The basic player's trick-contract half (a call from the engine's trick loop, not inlined:
    numba's inliner made it the costliest part of compiling the loop, for a legacy player)."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    if np.int64(state[S_CONTRACT]) == TRUMPS:
        return trumps(legal, hand, state, False)
    return _negative(legal, hand, state)


@njit(cache=True)
def basic_domino(legal, hand, state, rng):
    """The basic player's Domino half (a call from the engine's Domino loop, not inlined)."""
    return domino(legal, hand, state)


@njit(inline="always", cache=True)
def basic_strategy(legal, hand, state, rng):
    """A rule-based club player, one rule set per contract (the heuristic of barbu-sim 0.1).

    - Negative contracts: lead low from a short suit; follow with the highest
      card that still loses (duck), and if every card wins, avoid the penalty
      cards; void, shed the most dangerous card (K♥, A♥ and high hearts,
      queens and the A/K guarding an unplayed queen, else the highest card).
      No Last Two: spend high cards on tricks 1-11, then play as No Tricks.
    - Trumps: draw trumps with a master (the declarer with 4+ trumps draws
      anyway), cash side-suit masters, lead low from short side suits to
      ruff later; follow with the cheapest winner when last, a master
      otherwise, else low; void, ruff or over-ruff as cheaply as possible.
    - Domino: play the card whose column unlocks more of my own cards than
      of the others' (4 points per card), preferring one whose next card I
      hold (run) and avoiding one that opens a card for someone else.
    """
    if np.int64(state[S_CONTRACT]) == DOMINO:
        return basic_domino(legal, hand, state, rng)
    return basic_tricks(legal, hand, state, rng)


