"""Exact endgames: the rest of a trick contract solved with every hand known.

The Monte-Carlo player (:mod:`barbu_sim.barbu.players.mc.player`) deals the cards it cannot see into
layouts.  In a layout every hand is known, and once few tricks are left the rest of
the hand can be searched exactly instead of rolled out with a fast player.

**Maxⁿ.** Every seat plays the card that maximises its own points from here on (the
contract's points: penalties are negative, Trumps pays +5 a trick, so the same rule
takes the fewest penalties and the most tricks; where the rules count penalties as
positive points and the lowest total wins, each seat minimises instead).  Barbu's contracts are constant-sum
(the four seats share a fixed total), so maxⁿ is the natural solution; the paranoid
reduction (the three others playing *against* the searching seat) is not sound here:
in a negative contract an opponent avoids its own points, and does not care which of
the other three takes them.  Between cards worth the same to the seat choosing, the
search assumes the one worst for the searching seat (``me``): a cautious, deterministic
tie-break.  Shallow pruning buys little with four players and is left out.

**Speed.** Equivalent cards are merged (two cards of one suit with no card of another
hand, and none on the table, ranked between them, costing the same: either leads to
the same hand), and positions at trick boundaries are kept in a transposition table
keyed by the cards still held and the seat to lead (the value from there on depends on
nothing else).  The table lives in the caller's scratch space: the play loops run
without reference counting and cannot allocate.

Domino (:func:`domino_search`) is searched the same way: the payouts by finishing order,
each seat playing for its own, a seat with no playable card passing; its positions are
keyed by the cards still held and the seat to play, and it has no equivalent cards.
"""

import numpy as np
from ...core.jit import njit

from ...core.bits import lowest_bit
from ...core.by_seat import add_at, value_at
from ..rules.play_rules import (
    above, below, domino_ace_low, domino_playable, domino_position, domino_wrap, forced_discard, hand_over,
    lead_restriction, legal_mask, trick_after, trick_value,
)
from ..rules.config import R_BEST_TOTAL, R_DOMINO_PAYOUT
from .rollout import trick_so_far
from ..state import S_LEADER, S_N_IN_TRICK, S_PLAYED, S_SEAT, S_TRICK

U0 = np.uint64(0)
U1 = np.uint64(1)
ALL_CARDS = np.uint64((1 << 52) - 1)
TT_BITS = 12
TT_SIZE = 1 << TT_BITS  # entries of (key, value); a replaced entry only costs a re-search
TT_MASK = np.uint64(TT_SIZE - 1)
TT_WORDS = 2 * TT_SIZE + 1  # the last word: the generation counter, so that no search clears the table
GEN_SHIFT = np.uint64(55)
GEN_LIMIT = 1 << 9
HASH_MULT = np.uint64(0x9E3779B97F4A7C15)
NEG_INF = -(1 << 30)
POS_INF = 1 << 30


@njit(cache=True)
def distinct_in_search(legal, blockers, contract, rules):
    """The lowest card of each run of equivalent cards of ``legal``.

    Two cards of a suit are equivalent when no card of ``blockers`` (the other hands'
    cards and the cards on the table) ranks between them and both cost the same to win.
    """
    reps = U0
    for s in range(4):
        m = legal & (np.uint64(0x1FFF) << np.uint64(13 * s))
        prev = -1
        while m:
            c = lowest_bit(m)
            m &= m - U1
            if not (prev >= 0 and (above(prev) & below(c) & blockers) == U0
                    and trick_value(contract, 0, U1 << np.uint64(prev), rules)
                    == trick_value(contract, 0, U1 << np.uint64(c), rules)):
                reps |= U1 << np.uint64(c)
            prev = c
    return reps


@njit(cache=True)
def _pack(v0, v1, v2, v3):
    """Four scores (|score| < 32,768) in one word."""
    return (np.uint64(v0 + 32768) | (np.uint64(v1 + 32768) << np.uint64(16))
            | (np.uint64(v2 + 32768) << np.uint64(32)) | (np.uint64(v3 + 32768) << np.uint64(48)))


@njit(cache=True)
def _unpack(word, i):
    return np.int64((word >> np.uint64(16 * i)) & np.uint64(0xFFFF)) - 32768


@njit(cache=True)
def _keep_best(v0, v1, v2, v3, seat, me, better, card, only, values, best_own, best_me, b0, b1, b2, b3):
    """The maxⁿ choice, one card at a time: the card whose outcome ``v0..v3`` is best for ``seat`` (ties: the
    one worst for ``me``, when ``seat`` is another) replaces the best so far ``(best_own, best_me, b0..b3)``.

    At the root (``only`` not ``ALL_CARDS``) the card's points for ``seat`` go to ``values[card]``.  Returns
    the best so far after ``card``.
    """
    own = value_at(v0, v1, v2, v3, seat)
    if only != ALL_CARDS:  # the root: the caller wants each card's value
        values[card] = own
    own *= better
    mine = better * value_at(v0, v1, v2, v3, me)
    if own > best_own or (own == best_own and seat != me and mine < best_me):
        return own, mine, v0, v1, v2, v3
    return best_own, best_me, b0, b1, b2, b3


@njit(cache=True, _nrt=False)
def _tt_find(tt, held, seat):
    """The table's entry for the position with the cards ``held`` and ``seat`` to play, this generation.

    Returns ``(key, slot, found, v0, v1, v2, v3)``; when not found, store the searched value
    with :func:`_tt_store` under the same key and slot.
    """
    key = held | (np.uint64(seat) << np.uint64(52)) | (tt[2 * TT_SIZE] << GEN_SHIFT)
    slot = np.int64(((key * HASH_MULT) >> np.uint64(64 - TT_BITS)) & TT_MASK)
    if tt[2 * slot] != key:
        return key, slot, False, 0, 0, 0, 0
    word = tt[2 * slot + 1]
    return key, slot, True, _unpack(word, 0), _unpack(word, 1), _unpack(word, 2), _unpack(word, 3)


@njit(cache=True, _nrt=False)
def _tt_store(tt, key, slot, v0, v1, v2, v3):
    tt[2 * slot] = key
    tt[2 * slot + 1] = _pack(v0, v1, v2, v3)


@njit(cache=True, _nrt=False)
def search(hands, t, leader, k, trick, led, win_card, win_seat, win_suit, top_trump, contract, trump,
           restricted_lead, forced, rules, me, better, tt, only, values):
    """The points each seat scores from this position on, every seat playing maxⁿ.

    ``hands``: (4,) uint64, the cards each seat still holds (changed during the search,
    restored on return).  ``t``: the trick number; ``leader``: who led it; ``k``: cards
    already in it (``trick``: their mask; ``led``, ``win_card``, ``win_seat``,
    ``win_suit``, ``top_trump`` as the play loop keeps them).  ``tt``: ``TT_WORDS`` uint64
    of scratch (see :func:`new_search`).  ``only``: the cards the seat to play may
    choose among here (``ALL_CARDS``: every legal card, equivalent ones merged; any
    other mask: those cards, each card's points for the seat to play written to ``values`` (52,)).
    Returns a tuple of the four seats' points.
    """
    NONE = np.int64(-1)  # typed int64, not a literal: every call of the recursion has one signature
    seat = (leader + k) & 3
    hand = hands[seat]
    legal = legal_mask(hand, k, led, restricted_lead, forced, contract, trump, top_trump, rules)
    held = hands[0] | hands[1] | hands[2] | hands[3]
    if only == ALL_CARDS:
        cands = distinct_in_search(legal, (held & ~hand) | trick, contract, rules)
    else:
        cands = legal & only
    best_own, best_me, b0, b1, b2, b3 = NEG_INF, POS_INF, 0, 0, 0, 0  # nothing chosen yet (see _keep_best)
    while cands:
        card = lowest_bit(cands)
        cands &= cands - U1
        b = U1 << np.uint64(card)
        n_led, n_card, n_seat, n_suit, n_top = trick_after(card, seat, k, led, win_card, win_seat, win_suit, top_trump,
                                                           contract, trump)
        hands[seat] = hand ^ b
        if k < 3:
            v0, v1, v2, v3 = search(hands, t, leader, k + 1, trick | b, n_led, n_card, n_seat, n_suit, n_top,
                                    contract, trump, restricted_lead, forced, rules, me, better, tt, ALL_CARDS, values)
        else:
            rest = held ^ b
            v0, v1, v2, v3 = 0, 0, 0, 0
            if t < 12 and not hand_over(contract, ALL_CARDS & ~rest):
                key, slot, found, v0, v1, v2, v3 = _tt_find(tt, rest, n_seat)
                if not found:
                    v0, v1, v2, v3 = search(hands, t + 1, n_seat, NONE + 1, U0, NONE, NONE, n_seat, NONE, NONE,
                                            contract, trump, restricted_lead, forced, rules, me, better, tt, ALL_CARDS,
                                            values)
                    _tt_store(tt, key, slot, v0, v1, v2, v3)
            v0, v1, v2, v3 = add_at(v0, v1, v2, v3, n_seat, trick_value(contract, t, trick | b, rules))
        hands[seat] = hand
        best_own, best_me, b0, b1, b2, b3 = _keep_best(v0, v1, v2, v3, seat, me, better, card, only, values,
                                                       best_own, best_me, b0, b1, b2, b3)
    return b0, b1, b2, b3


@njit(cache=True, _nrt=False)
def new_search(tt):
    """Start searching a new layout: a new generation of the transposition table ``tt``.

    Old entries no longer match.  Searches of one layout (several candidate cards, several
    rollouts that reach its endgame) share the table, so call this once per layout.
    """
    gen = tt[2 * TT_SIZE] + U1
    if gen >= GEN_LIMIT:
        for i in range(2 * TT_SIZE):
            tt[i] = U0
        gen = U1
    tt[2 * TT_SIZE] = gen


@njit(cache=True, _nrt=False)
def solve_cards(hands, state, contract, trump, rules, cards, tt, values):
    """Each of ``cards``' exact points for the seat to play, from the position in ``state``, hands known.

    ``hands``: (4,) the cards each seat holds (restored on return).  ``state``: the
    position (trick number, leader and cards already in the trick).  ``values``: (52,)
    float64; the entry of each card of ``cards`` is set.  ``tt``: the transposition table
    (:func:`new_search` first for a new layout).
    """
    t = np.int64(state[S_TRICK])
    k0 = np.int64(state[S_N_IN_TRICK])
    leader = np.int64(state[S_LEADER]) & 3
    trick, led, win_card, win_seat, win_suit, top_trump = trick_so_far(state, k0, leader, contract, trump)
    restricted_lead, forced = lead_restriction(contract, rules), forced_discard(contract, rules)
    me = (leader + k0) & 3
    search(hands, t, leader, k0, trick, led, win_card, win_seat, win_suit, top_trump, contract, trump,
           restricted_lead, forced, rules, me, _better(rules), tt, cards, values)


@njit(cache=True, _nrt=False)
def solve_from_trick(hands, t, leader, contract, trump, rules, me, tt, values):
    """Each seat's exact points from the start of trick ``t`` (led by ``leader``), hands known.

    ``values``: a float64 array the search passes along and leaves unchanged.
    """
    restricted_lead, forced = lead_restriction(contract, rules), forced_discard(contract, rules)
    none = np.int64(-1)  # typed int64, not a literal: every call of the recursion has one signature
    return search(hands, np.int64(t), np.int64(leader), none + 1, U0, none, none, np.int64(leader), none, none,
                  np.int64(contract), np.int64(trump), restricted_lead, forced,
                  rules, me, _better(rules), tt, ALL_CARDS, values)


@njit(cache=True)
def _better(rules):
    """1 where the highest total wins, -1 where penalties are counted as positive points (lowest wins)."""
    return -1 if rules[R_BEST_TOTAL] == 1 else 1


@njit(cache=True, _nrt=False)
def domino_search(hands, playable, grows_down, grows_up, wrap_down, wrap_up, seat, rules, me, better, tt, only,
                  values):
    """The Domino payouts each seat still to go out receives from this position on, every seat playing maxⁿ.

    ``hands``: (4,) the cards each seat holds (restored on return); ``playable`` and the
    masks: as :func:`barbu_sim.barbu.rules.play_rules.domino_position` gives them; ``seat``: the
    seat to play (a seat without cards, or without a playable card, passes).  ``only`` and
    ``values`` as in :func:`search`.  Returns a tuple of the four seats' payouts (0 for
    the seats already out).
    """
    while hands[seat] == U0 or (hands[seat] & playable) == U0:
        seat = (seat + 1) & 3
    hand = hands[seat]
    legal = hand & playable
    place = 0
    for s in range(4):
        if hands[s] == U0:
            place += 1
    cands = legal if only == ALL_CARDS else legal & only
    held = hands[0] | hands[1] | hands[2] | hands[3]
    best_own, best_me, b0, b1, b2, b3 = NEG_INF, POS_INF, 0, 0, 0, 0  # nothing chosen yet (see _keep_best)
    while cands:
        card = lowest_bit(cands)
        cands &= cands - U1
        b = U1 << np.uint64(card)
        hands[seat] = hand ^ b
        v0, v1, v2, v3 = 0, 0, 0, 0
        if hand == b and place == 2:  # the third seat out: the last one left is paid last
            for s in range(4):
                if s != seat and hands[s] != U0:
                    v0, v1, v2, v3 = add_at(v0, v1, v2, v3, s, np.int64(rules[R_DOMINO_PAYOUT + 3]))
        else:
            after = domino_playable(playable, b, grows_down, grows_up) | domino_wrap(b, wrap_down, wrap_up)
            nxt = (seat + 1) & 3
            key, slot, found, v0, v1, v2, v3 = _tt_find(tt, held ^ b, nxt)
            if not found:
                v0, v1, v2, v3 = domino_search(hands, after, grows_down, grows_up, wrap_down, wrap_up, nxt, rules, me,
                                               better, tt, ALL_CARDS, values)
                _tt_store(tt, key, slot, v0, v1, v2, v3)
        if hand == b:
            v0, v1, v2, v3 = add_at(v0, v1, v2, v3, seat, np.int64(rules[R_DOMINO_PAYOUT + place]))
        hands[seat] = hand
        best_own, best_me, b0, b1, b2, b3 = _keep_best(v0, v1, v2, v3, seat, me, better, card, only, values,
                                                       best_own, best_me, b0, b1, b2, b3)
    return b0, b1, b2, b3


@njit(cache=True, _nrt=False)
def solve_domino_cards(hands, state, start, rules, cards, tt, values):
    """Each of ``cards``' exact Domino payout for the seat to play (``state[S_SEAT]``), hands known.

    ``start``: the starting rank; ``values``: (52,) float64, the entry of each card of ``cards``
    set; ``tt``: as in :func:`solve_cards`.
    """
    played = state[S_PLAYED]
    playable, grows_down, grows_up, wrap_down, wrap_up = domino_position(start, played, domino_ace_low(rules))
    me = np.int64(state[S_SEAT]) & 3
    domino_search(hands, playable, grows_down, grows_up, wrap_down, wrap_up, me, rules, me, _better(rules), tt,
                  cards, values)
