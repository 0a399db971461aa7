"""The rules of play of Barbu, and nothing else: which cards may be played, who wins a trick,
what a trick costs, when a hand is over, which Domino cards are playable.

Small ``@njit`` functions called by the play loops (:mod:`barbu_sim.barbu.kernels`, where
LLVM inlines them) and shared with the strategies.  Cards are ``suit * 13 + rank``; masks are ``uint64``.
"""

import numpy as np
from numba import njit

from ..core.bits import popcount
from ..core.cards import SUIT_LANE
from .rules import (
    ACE_OF_HEARTS_BIT, BARBU, HEARTS_MASK, KING_OF_HEARTS_BIT, NO_HEARTS, NO_LAST_TWO, NO_QUEENS, NO_TRICKS, QUEENS,
    R_BARBU_FORCED_DISCARD, R_BARBU_HEART_LEAD, R_TRUMPS_OVERTRUMP, R_TRUMPS_VOID, TRUMPS,
)

U0 = np.uint64(0)
U1 = np.uint64(1)


# ---------------------------------------------------------------- suits
@njit(cache=True)
def suit_bits(suit):
    """The mask of all 13 cards of ``suit``."""
    return SUIT_LANE << np.uint64(13 * suit)


@njit(cache=True)
def lane(mask, suit):
    """The 13-bit lane of ``suit`` in ``mask``, shifted down to bits 0..12."""
    return (mask >> np.uint64(13 * suit)) & SUIT_LANE


@njit(cache=True)
def above(card):
    """Mask of the cards of ``card``'s suit ranked above it."""
    return ~((U1 << np.uint64(card + 1)) - U1) & suit_bits(card // 13)


@njit(cache=True)
def below(card):
    """Mask of the cards of ``card``'s suit ranked below it."""
    return ((U1 << np.uint64(card)) - U1) & suit_bits(card // 13)


# ---------------------------------------------------------------- legal cards (trick contracts)
@njit(cache=True)
def lead_restriction(contract, rules):
    """Cards a leader may lead only when holding nothing else.

    Hearts in No Hearts (and in Barbu under the heart-lead option), K♥ in Barbu.
    """
    if contract == NO_HEARTS or (contract == BARBU and rules[R_BARBU_HEART_LEAD] == 1):
        return HEARTS_MASK
    if contract == BARBU:
        return KING_OF_HEARTS_BIT
    return U0


@njit(cache=True)
def forced_discard(contract, rules):
    """Cards a player void in the led suit must discard if held: K♥ under Barbu's forced-discard option."""
    if contract == BARBU and rules[R_BARBU_FORCED_DISCARD] == 1:
        return KING_OF_HEARTS_BIT
    return U0


@njit(cache=True)
def legal_mask(hand, n_in_trick, led, restricted_lead, forced, contract, trump, top_trump, rules):
    """The cards ``hand`` may play to a trick (trick contracts).

    ``led``: the led suit (ignored when leading); ``restricted_lead`` and ``forced``:
    the contract's :func:`lead_restriction` and :func:`forced_discard` masks, worked
    out once per deal so that the per-card test does not branch on the contract;
    ``trump``: the trump suit (Trumps only); ``top_trump``: the highest trump in the
    trick so far, -1 if none.
    """
    if n_in_trick == 0:
        others = hand & ~restricted_lead
        return others if others else hand
    follow = hand & suit_bits(led)
    if contract == TRUMPS:
        overtrump = rules[R_TRUMPS_OVERTRUMP] == 1
        if follow:
            if overtrump and led == trump and top_trump >= 0:
                higher = follow & above(top_trump)
                if higher:
                    return higher
            return follow
        my_trumps = hand & suit_bits(trump)
        if my_trumps == U0:
            return hand
        allowed = my_trumps
        if overtrump and top_trump >= 0:
            higher = my_trumps & above(top_trump)
            if higher:
                allowed = higher
        if rules[R_TRUMPS_VOID] == 0:
            return allowed
        return (hand & ~suit_bits(trump)) | allowed
    if follow:
        return follow
    must = hand & forced
    return must if must else hand


# ---------------------------------------------------------------- tricks
@njit(cache=True)
def beats(card, suit, win_card, win_suit, contract, trump):
    """True when ``card`` (of ``suit``) takes the trick from ``win_card`` (of ``win_suit``), its winner so far.

    The trick winner is the highest card of the led suit, or in Trumps the highest
    trump; played in order, a card takes the lead when it is higher in the winning
    card's suit, or a trump onto a trick that no trump is winning.  The play loop
    keeps the winning suit so that no card needs a division.
    """
    if suit == win_suit:
        return card > win_card
    return contract == TRUMPS and suit == trump


@njit(cache=True)
def trick_winner(cards, n, contract, trump):
    """The position (0..n-1, in play order) of the card that wins a trick of ``cards[:n]``.

    The highest trump wins (Trumps), else the highest card of the led suit.  The play
    loop reaches the same answer card by card with :func:`beats`.
    """
    best, best_suit = 0, cards[0] // 13
    for k in range(1, n):
        if beats(cards[k], cards[k] // 13, cards[best], best_suit, contract, trump):
            best, best_suit = k, cards[k] // 13
    return best


@njit(cache=True)
def trick_points(contract, trick_no, trick):
    """Raw points (<= 0, or +5 in Trumps) for winning trick ``trick_no`` (0-based) holding ``trick``."""
    if contract == NO_TRICKS:
        return -2
    if contract == NO_QUEENS:
        return -6 * popcount(trick & QUEENS)
    if contract == NO_LAST_TWO:
        return -10 if trick_no == 11 else (-20 if trick_no == 12 else 0)
    if contract == NO_HEARTS:
        p = -2 * popcount(trick & HEARTS_MASK)
        return p - 4 if trick & ACE_OF_HEARTS_BIT else p
    if contract == BARBU:
        return -20 if trick & KING_OF_HEARTS_BIT else 0
    return 5


@njit(cache=True)
def hand_over(contract, played):
    """True when no penalty card is left to win, so the rest cannot change a score."""
    if contract == NO_QUEENS:
        return (played & QUEENS) == QUEENS
    if contract == NO_HEARTS:
        return (played & HEARTS_MASK) == HEARTS_MASK
    if contract == BARBU:
        return (played & KING_OF_HEARTS_BIT) != U0
    return False


# ---------------------------------------------------------------- Domino
@njit(cache=True)
def domino_openers(start):
    """The Domino masks for starting rank ``start``: ``(playable, grows_down, grows_up)``.

    ``playable``: the four cards of rank ``start``, the only cards playable at first.
    ``grows_down`` / ``grows_up``: the cards whose play makes the next lower / higher
    card of their suit playable (ranks 1..start / start..11 of each suit: a 2 has
    nothing below it and an ace nothing above).
    """
    below_start = (U1 << np.uint64(start)) - U1
    down_lane = below_start << U1
    up_lane = SUIT_LANE & ~below_start & ~(U1 << np.uint64(12))
    playable = grows_down = grows_up = U0
    for s in range(4):
        shift = np.uint64(13 * s)
        playable |= U1 << (shift + np.uint64(start))
        grows_down |= down_lane << shift
        grows_up |= up_lane << shift
    return playable, grows_down, grows_up


@njit(cache=True)
def domino_playable(playable, b, grows_down, grows_up):
    """The playable set after the card with bit ``b`` is played: it leaves, its neighbours open.

    Masks, not branches: the next card depends on this update, and with random play
    a branch on the rank is a coin flip.
    """
    return (playable & ~b) | ((b & grows_down) >> U1) | ((b & grows_up) << U1)
