"""Rollouts: finish a deal from any position, with one built-in player at every seat.

The Monte-Carlo player (:mod:`barbu_sim.barbu.players.mc.player`) asks, for each candidate card and
each sampled layout of the unseen cards, "what do I score from here if I play this
card now and everybody then plays ``heuristic``?".  The loops here answer it: they
resume the play from the position a state array describes (trick number, cards
already in the trick, or the Domino layout), play the given first card, then let
the rollout player choose every later card.

They apply the same rules of play as the engine's loops
(:mod:`barbu_sim.barbu.engine.play_loops`), through the same functions of
:mod:`barbu_sim.barbu.rules.play_rules`, and keep the state array up to date the same way,
so that the rollout player sees what it would see in a real deal.  They differ in
what they leave out: no records, no error checks (built-in players never err), no
user strategies, and so no way back into the Monte-Carlo player (numba compiles no
recursion).  ``tests/test_mc.py`` checks that a rollout from the first card of a deal
plays exactly the deal the engine plays.
"""

import numpy as np
from ...core.jit import njit

from ...core.strategies import lowest_strategy, random_strategy
from .basic import basic_domino, basic_tricks
from .heuristic import heuristic_domino, heuristic_tricks
from .learned import learned_choose
from ..rules.play_rules import (
    domino_ace_low, domino_openers, domino_position, forced_discard,
    hand_over, lead_restriction, legal_mask, trick_after, trick_value,
)
from ..state import (
    S_LEADER, S_N_IN_TRICK, S_NOT_HELD, S_PLAYED, S_SEAT, S_TRICK,
    S_TRICK_CARDS, S_TRICKS_WON, S_WON, STATE_SIZE,
)
from .ids import BASIC, HEURISTIC, LEARNED, LOWEST
from .trick_step import pay_domino_out, play_domino_card, play_into_trick

U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(cache=True)
def choose_trick_card(sid, legal, hand, state, rng, net):
    """The card built-in player ``sid`` (heuristic, basic, lowest, learned; anything else: random) plays in a
    trick contract.

    ``net``: the learned player's model array; for learned, ``state`` must go on past ``STATE_SIZE`` with
    its scratch space (``LEARNED_WORK_SIZE`` entries).  Called, not inlined, and one function per kind of
    contract: its callers (the rollout, mc's layout weights) share one compile of each.
    """
    if sid == HEURISTIC:
        return heuristic_tricks(legal, hand, state, rng)
    if sid == BASIC:
        return basic_tricks(legal, hand, state, rng)
    if sid == LEARNED:
        return learned_choose(legal, hand, state, rng, net, np.int64(STATE_SIZE), np.int64(0))  # the packaged model
    if sid == LOWEST:
        return lowest_strategy(legal, hand, state, rng)
    return random_strategy(legal, hand, state, rng)


@njit(cache=True)
def choose_domino_card(sid, legal, hand, state, rng, net):
    """:func:`choose_trick_card` in Domino."""
    if sid == HEURISTIC:
        return heuristic_domino(legal, hand, state, rng)
    if sid == BASIC:
        return basic_domino(legal, hand, state, rng)
    if sid == LEARNED:
        return learned_choose(legal, hand, state, rng, net, np.int64(STATE_SIZE), np.int64(0))  # the packaged model
    if sid == LOWEST:
        return lowest_strategy(legal, hand, state, rng)
    return random_strategy(legal, hand, state, rng)


@njit(cache=True)
def trick_so_far(state, k0, leader, contract, trump):
    """The current trick as the play loop keeps it: (mask, led suit, winning card, seat, suit, top trump)."""
    trick = U0
    led, win_card, win_seat, win_suit, top_trump = -1, -1, leader, -1, -1
    for k in range(k0):
        card = np.int64(state[S_TRICK_CARDS + k])
        trick |= U1 << np.uint64(card)
        led, win_card, win_seat, win_suit, top_trump = trick_after(card, (leader + k) & 3, k, led, win_card, win_seat,
                                                                   win_suit, top_trump, contract, trump)
    return trick, led, win_card, win_seat, win_suit, top_trump


@njit(cache=True, _nrt=False)
def rollout_tricks(hands, contract, trump, rules, sid, state, rng, first_card, scores, net, stop=13):
    """Finish a trick contract from the position in ``state``; adds each seat's points to ``scores``.

    The seat to play (``state[S_SEAT]``) plays ``first_card`` (which must be legal; -1:
    the rollout player chooses it too); player ``sid`` plays every later card (``net``: the learned player's model
    array, read when ``sid`` is learned; ``state`` then has its scratch space after the fields).  ``hands`` and
    ``state`` are scratch copies: both are played out.  With ``stop`` < 13 the rollout stops when trick ``stop`` is
    about to begin (``state`` then holds its leader and trick number, ``hands`` what is left) and returns
    ``stop``, so that an exact search can finish the hand; otherwise it returns 13.
    """
    restricted_lead = lead_restriction(contract, rules)
    forced = forced_discard(contract, rules)
    t0 = np.int64(state[S_TRICK])
    k0 = np.int64(state[S_N_IN_TRICK])
    leader = np.int64(state[S_LEADER]) & 3
    played = state[S_PLAYED]
    trick, led, win_card, win_seat, win_suit, top_trump = trick_so_far(state, k0, leader, contract, trump)
    next_card = first_card
    for t in range(t0, 13):
        k_start = k0 if t == t0 else 0
        if k_start == 0:
            state[S_TRICK] = t
            state[S_LEADER] = leader
            if t >= stop:
                state[S_N_IN_TRICK] = 0
                state[S_SEAT] = leader
                return t
            for k in range(4):
                state[S_TRICK_CARDS + k] = U0
            trick = U0
            led, win_card, win_seat, win_suit, top_trump = -1, -1, leader, -1, -1
        seat = (leader + k_start) & 3
        for k in range(k_start, 4):
            hand = hands[seat]
            state[S_N_IN_TRICK] = k
            state[S_SEAT] = seat
            if next_card >= 0:
                card = next_card
                next_card = -1
            else:
                legal = legal_mask(hand, k, led, restricted_lead, forced, contract, trump, top_trump, rules)
                card = choose_trick_card(sid, legal, hand, state, rng, net)
            played, trick, led, win_card, win_seat, win_suit, top_trump = play_into_trick(
                hands, state, seat, k, card, played, trick, led, win_card, win_seat, win_suit, top_trump,
                contract, trump)
            seat = (seat + 1) & 3
        scores[win_seat] += trick_value(contract, t, trick, rules)
        state[S_WON + win_seat] |= trick
        state[S_TRICKS_WON + win_seat] += U1
        leader = win_seat
        if hand_over(contract, played):
            break
    return 13


@njit(inline="always", cache=True)
def domino_playable_now(start, played):
    """The Domino cards playable once ``played`` is on the table, for starting rank ``start``.

    The openers plus each played card's outward neighbour, less the played cards: a
    card's outward neighbour cannot have been played before it, so this is what the
    engine's card-by-card update reaches, in any order of play.
    """
    playable, grows_down, grows_up = domino_openers(start)
    m = played
    while m:
        b = m & (~m + U1)
        playable |= ((b & grows_down) >> U1) | ((b & grows_up) << U1)
        m ^= b
    return playable & ~played


@njit(cache=True, _nrt=False)
def rollout_domino(hands, start, rules, sid, state, rng, first_card, scores, net):
    """Finish a Domino hand from the position in ``state``; sets the payouts of the seats still holding cards.

    The seat to play (``state[S_SEAT]``) plays ``first_card`` (-1: the rollout player
    chooses it; a seat with nothing playable passes); player ``sid`` plays every later card (``net``: as for
    :func:`rollout_tricks`).  ``hands`` and ``state`` are scratch copies.
    """
    played = state[S_PLAYED]
    ace_low = domino_ace_low(rules)
    playable, grows_down, grows_up, wrap_down, wrap_up = domino_position(start, played, ace_low)
    place = 0
    for s in range(4):
        if hands[s] == U0:
            place += 1
    seat = np.int64(state[S_SEAT]) & 3
    next_card = first_card
    while True:
        hand = hands[seat]
        if hand:
            legal = hand & playable
            if legal == U0:  # a pass shows that no playable card is held, as in the engine (learned reads it)
                state[S_NOT_HELD + seat] |= playable
            else:
                state[S_SEAT] = seat
                if next_card >= 0:
                    card = next_card
                    next_card = -1
                else:
                    card = choose_domino_card(sid, legal, hand, state, rng, net)
                played, playable = play_domino_card(hands, state, seat, card, played, playable, grows_down, grows_up,
                                                    wrap_down, wrap_up, ace_low)
                place = pay_domino_out(hands, seat, place, scores, rules)
                if place == 3:
                    return
        seat = (seat + 1) & 3
