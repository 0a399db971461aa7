"""A card is played: the one step the play loops, the rollouts and ``Position`` share, for a trick
and for Domino.

The rule itself (who holds the trick, the led suit, the top trump) is
:func:`~barbu_sim.barbu.rules.play_rules.trick_after`; this module adds what the state
array records of the play.  It lives in ``players`` rather than beside the rule because
it writes the state array's fields: the rules room may import only the core, and
``players`` is the lowest room that sees both the rules and ``state``'s offsets (the
engine, ``Position`` and the rollouts all sit at or above it).

What differs between its callers stays with them: choosing and checking the card,
recording it, the inference hooks, and closing the trick.  A Domino seat that goes out is paid
by :func:`pay_domino_out` (the play loop and the rollout).
"""

import numpy as np
from ...core.jit import njit

from ...core.bits import highest_bit, lowest_bit
from ..rules.config import R_DOMINO_PAYOUT
from ..rules.play_rules import domino_ends, domino_playable, domino_wrap, lane, trick_after
from ..state import (
    S_CARDS_LEFT, S_DOMINO_HIGH, S_DOMINO_LOW, S_PLAYED, S_TRICK_CARDS, S_VOIDS, S_WIN_CARD, S_WIN_SEAT,
)

U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(cache=True, _nrt=False)
def play_into_trick(hands, state, seat, k, card, played, trick, led, win_card, win_seat, win_suit, top_trump,
                    contract, trump):
    """Play ``card`` from ``seat``'s hand into the trick; returns the trick after it.

    The card leaves ``hands[seat]``; ``state`` records it (``S_TRICK_CARDS``,
    ``S_PLAYED``, ``S_CARDS_LEFT``, the winning card and seat, and the void a seat
    shows when it does not follow).  The card is not checked: the caller has.

    Parameters
    ----------
    hands : (4,) uint64
        The cards each seat holds, by seat; ``hands[seat]`` loses ``card``.
    state : (n,) uint64
        The state array (:mod:`barbu_sim.barbu.state`); its trick fields are written.
    seat : int64
        The seat that plays, 0..3.
    k : int64
        Cards already in the trick (0: ``card`` leads it).
    card : int64
        The card played, 0..51, held by ``seat``.
    played, trick : uint64
        The cards played in the hand and in this trick before ``card``.
    led, win_card, win_seat, win_suit, top_trump : int64
        The trick before ``card``, as :func:`~barbu_sim.barbu.rules.play_rules.trick_after` keeps it.
    contract, trump : int64
        The contract and its trump suit.

    Returns
    -------
    (played, trick, led, win_card, win_seat, win_suit, top_trump) after ``card``.
    """
    b = U1 << np.uint64(card)
    hands[seat] ^= b
    trick |= b
    played |= b
    led, win_card, win_seat, win_suit, top_trump = trick_after(card, seat, k, led, win_card, win_seat, win_suit,
                                                               top_trump, contract, trump)
    if card // 13 != led:  # a seat that does not follow shows it holds none of the led suit
        state[S_VOIDS + seat] |= U1 << np.uint64(led)
    state[S_TRICK_CARDS + k] = card
    state[S_PLAYED] = played
    state[S_CARDS_LEFT + seat] -= U1
    state[S_WIN_CARD] = win_card
    state[S_WIN_SEAT] = win_seat
    return played, trick, led, win_card, win_seat, win_suit, top_trump


@njit(cache=True, _nrt=False)
def play_domino_card(hands, state, seat, card, played, playable, grows_down, grows_up, wrap_down, wrap_up, ace_low):
    """Play ``card`` from ``seat``'s hand onto the Domino table; returns ``(played, playable)`` after it.

    The card leaves ``hands[seat]``; ``state`` records it (its column's ends
    ``S_DOMINO_LOW``/``S_DOMINO_HIGH``, ``S_PLAYED``, ``S_CARDS_LEFT``).  The card is
    not checked, and a seat left without cards is the caller's to pay.

    Parameters
    ----------
    hands : (4,) uint64
        The cards each seat holds, by seat; ``hands[seat]`` loses ``card``.
    state : (n,) uint64
        The state array (:mod:`barbu_sim.barbu.state`).
    seat : int64
        The seat that plays, 0..3.
    card : int64
        The card played, 0..51, playable and held by ``seat``.
    played, playable : uint64
        The cards played so far and the cards playable before ``card``.
    grows_down, grows_up, wrap_down, wrap_up : uint64
        The masks of :func:`~barbu_sim.barbu.rules.play_rules.domino_openers_low` (``wrap_*``
        zero with the ace high, as :func:`~barbu_sim.barbu.rules.play_rules.domino_openers` leaves them).
    ace_low : bool
        The ace plays below the 2 (``domino-ace=low``).
    """
    b = U1 << np.uint64(card)
    hands[seat] ^= b
    played |= b
    playable = domino_playable(playable, b, grows_down, grows_up)
    # A column is the run of its suit's played cards: with the ace high its ends are the
    # lowest and highest played rank of the suit (a count of zeros each, no branch).
    suit = card // 13
    column = lane(played, suit)
    if ace_low:  # the same every card of a deal: predicted, and off the ace-high path
        playable |= domino_wrap(b, wrap_down, wrap_up)
        low, high = domino_ends(column, True)
        state[S_DOMINO_LOW + suit] = low
        state[S_DOMINO_HIGH + suit] = high
    else:
        state[S_DOMINO_LOW + suit] = lowest_bit(column)
        state[S_DOMINO_HIGH + suit] = highest_bit(column)
    state[S_PLAYED] = played
    state[S_CARDS_LEFT + seat] -= U1
    return played, playable


@njit(cache=True, _nrt=False)
def pay_domino_out(hands, seat, place, scores, rules):
    """Pay ``seat`` if its last card has just gone; returns the seats out so far (3: the hand is over).

    ``place``: the seats out before it.  ``scores[seat]`` gets the payout of that place (the
    rules array's ``R_DOMINO_PAYOUT`` entries); the third seat out ends the hand, and the seat
    still holding cards gets the last payout.  A seat that still holds cards changes nothing.
    """
    if hands[seat] != U0:
        return place
    scores[seat] = rules[R_DOMINO_PAYOUT + place]
    place += 1
    if place == 3:
        for s in range(4):
            if hands[s] != U0:
                scores[s] = rules[R_DOMINO_PAYOUT + 3]
    return place
