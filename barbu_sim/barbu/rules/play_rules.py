"""The rules of play of Barbu, and nothing else: which cards may be played, who wins a trick,
what a trick costs, when a hand is over, which Domino cards are playable.

Small ``@njit`` functions called by the play loops (:mod:`barbu_sim.barbu.engine.play_loops`, where
LLVM inlines them) and shared with the strategies.  Cards are ``suit * 13 + rank``; masks are ``uint64``.
"""

import numpy as np
from ...core.jit import njit

from ...core.bits import highest_bit, lowest_bit, popcount
from ...core.cards import HEARTS, SUIT_LANE
from .config import (
    BARBU, HEARTS_MASK, KING_OF_HEARTS_BIT, NO_HEARTS, NO_LAST_TWO, NO_QUEENS, NO_TRICKS, QUEENS,
    R_BARBU_FORCED_DISCARD, R_BARBU_HEART_LEAD, R_BARBU_KING, R_DOMINO_ACE, R_DOMINO_START, R_NO_HEARTS_ACE,
    R_NO_HEARTS_HEART, R_NO_HEARTS_HIGH, R_NO_HEARTS_HIGH_FROM, R_NO_HEARTS_LEAD, R_NO_LAST_TWO_12, R_NO_LAST_TWO_13,
    R_NO_QUEENS_QUEEN, R_NO_TRICKS_TRICK, R_TRUMPS_OVERTRUMP, R_TRUMPS_TRICK, R_TRUMPS_VOID, TRUMPS, Rules,
)

U0 = np.uint64(0)
U1 = np.uint64(1)
DEFAULT_RULES = Rules().to_array()  # the default rules, a constant for the kernels


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

    Hearts in No Hearts (none under ``no-hearts-lead=any``); in Barbu K♥ (``king-only``),
    every heart (``no-hearts-unless-only-hearts``) or none (``any``).
    """
    if contract == NO_HEARTS:
        return HEARTS_MASK if rules[R_NO_HEARTS_LEAD] == 0 else U0
    if contract == BARBU:
        lead = rules[R_BARBU_HEART_LEAD]
        if lead == 0:
            return KING_OF_HEARTS_BIT
        return HEARTS_MASK if lead == 1 else U0
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
def trick_after(card, seat, k, led, win_card, win_seat, win_suit, top_trump, contract, trump):
    """The trick as the play loop keeps it once ``card`` has entered it.

    The one home of the rule "who holds the trick now": the play loops, the rollouts,
    the endgame search and :class:`~barbu_sim.barbu.position.Position` all step a trick
    through it (state writes and all: ``players.trick_step.play_into_trick``).

    Parameters
    ----------
    card : int64
        The card played, 0..51.
    seat : int64
        The seat that plays it.
    k : int64
        Cards already in the trick (0: ``card`` leads it).
    led, win_card, win_seat, win_suit, top_trump : int64
        The trick before ``card``: the led suit, the winning card, its seat and its suit
        (-1, -1, the leader, -1 for an empty trick), and the highest trump played in it
        (-1: none; kept in Trumps only, where the overtrump rule reads it).
    contract, trump : int64
        The contract and its trump suit (read in Trumps only).

    Returns
    -------
    (led, win_card, win_seat, win_suit, top_trump) after ``card``.
    """
    suit = card // 13
    if k == 0:
        led = suit
        win_card, win_seat, win_suit = card, seat, suit
    elif beats(card, suit, win_card, win_suit, contract, trump):
        win_card, win_seat, win_suit = card, seat, suit
    if contract == TRUMPS and suit == trump and card > top_trump:
        top_trump = card
    return led, win_card, win_seat, win_suit, top_trump


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
    """:func:`trick_value` at the default point values (the spec's), for callers that have no rules array."""
    return trick_value(contract, trick_no, trick, DEFAULT_RULES)


@njit(cache=True)
def trick_value(contract, trick_no, trick, rules):
    """Raw points for winning trick ``trick_no`` (0-based) holding ``trick``, at the values of ``rules``.

    ``rules``: the rules array (int64, or the state array's uint64 copy of it: each value is
    read back as a signed integer).  No Hearts counts the hearts below the high hearts, the
    high hearts (from ``R_NO_HEARTS_HIGH_FROM`` to the K) and the A♥ at their own values.
    """
    if contract == NO_TRICKS:
        return np.int64(rules[R_NO_TRICKS_TRICK])
    if contract == NO_QUEENS:
        return np.int64(rules[R_NO_QUEENS_QUEEN]) * popcount(trick & QUEENS)
    if contract == NO_LAST_TWO:
        if trick_no == 11:
            return np.int64(rules[R_NO_LAST_TWO_12])
        return np.int64(rules[R_NO_LAST_TWO_13]) if trick_no == 12 else 0
    if contract == NO_HEARTS:
        hearts = lane(trick, HEARTS)
        high = SUIT_LANE & ~((U1 << np.uint64(rules[R_NO_HEARTS_HIGH_FROM])) - U1) & ~(U1 << np.uint64(12))
        low = SUIT_LANE & ~high & ~(U1 << np.uint64(12))
        return (np.int64(rules[R_NO_HEARTS_HEART]) * popcount(hearts & low)
                + np.int64(rules[R_NO_HEARTS_HIGH]) * popcount(hearts & high)
                + np.int64(rules[R_NO_HEARTS_ACE]) * np.int64(hearts >> np.uint64(12)))
    if contract == BARBU:
        return np.int64(rules[R_BARBU_KING]) if trick & KING_OF_HEARTS_BIT else 0
    return np.int64(rules[R_TRUMPS_TRICK])


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


@njit(cache=True)
def domino_start(param, rules):
    """The rank a Domino hand starts from: the declarer's ``param``, or the rules' fixed rank (``domino-start``)."""
    fixed = np.int64(rules[R_DOMINO_START])
    return fixed - 1 if fixed > 0 else param


@njit(cache=True)
def domino_openers_low(start):
    """:func:`domino_openers` with the ace below the 2 (``domino-ace=low``; columns run A .. K).

    Returns ``(playable, grows_down, grows_up, wrap_down, wrap_up)``: the extra two masks
    are the cards that open the card twelve ranks away, a 2 opening its ace (``<< 12``)
    or, from the ace, the ace opening its 2 (``>> 12``); see :func:`domino_wrap`.
    """
    if start == 12:
        down_lane, up_lane, wrap_down_lane, wrap_up_lane = U0, (U1 << np.uint64(11)) - U1, U0, U1 << np.uint64(12)
    else:
        down_lane = ((U1 << np.uint64(start + 1)) - U1) & ~U1
        up_lane = ((U1 << np.uint64(11)) - U1) & ~((U1 << np.uint64(start)) - U1)
        wrap_down_lane, wrap_up_lane = U1, U0
    playable = grows_down = grows_up = wrap_down = wrap_up = U0
    for s in range(4):
        shift = np.uint64(13 * s)
        playable |= U1 << (shift + np.uint64(start))
        grows_down |= down_lane << shift
        grows_up |= up_lane << shift
        wrap_down |= wrap_down_lane << shift
        wrap_up |= wrap_up_lane << shift
    return playable, grows_down, grows_up, wrap_down, wrap_up


@njit(cache=True)
def domino_wrap(b, wrap_down, wrap_up):
    """The card the play of bit ``b`` opens across the ace-low wrap (0 when none, and always with the ace high)."""
    return ((b & wrap_down) << np.uint64(12)) | ((b & wrap_up) >> np.uint64(12))


@njit(cache=True)
def domino_ends(column, ace_low):
    """The ranks at the two ends of a Domino column (``column``: its suit's lane of played cards, not empty).

    With the ace high they are the lowest and highest played ranks; with the ace low a
    played ace is the low end (rank 12) and the high end is the highest other rank.
    """
    ace = U1 << np.uint64(12)
    if ace_low and (column & ace):
        rest = column & ~ace
        return 12, (highest_bit(rest) if rest else 12)
    return lowest_bit(column), highest_bit(column)


@njit(cache=True)
def domino_position(start, played, ace_low):
    """The Domino masks of a position: ``(playable, grows_down, grows_up, wrap_down, wrap_up)`` once
    ``played`` is on the table (see :func:`domino_openers`, :func:`domino_openers_low`).

    The openers plus each played card's outward neighbour, less the played cards: a card's
    outward neighbour cannot have been played before it, so this is what the card-by-card
    update reaches, in any order of play.
    """
    if ace_low:
        playable, grows_down, grows_up, wrap_down, wrap_up = domino_openers_low(start)
    else:
        playable, grows_down, grows_up = domino_openers(start)
        wrap_down = wrap_up = U0
    m = played
    while m:
        b = m & (~m + U1)
        playable |= ((b & grows_down) >> U1) | ((b & grows_up) << U1) | domino_wrap(b, wrap_down, wrap_up)
        m ^= b
    return playable & ~played, grows_down, grows_up, wrap_down, wrap_up


@njit(cache=True)
def domino_ace_low(rules):
    """True under ``domino-ace=low``."""
    return rules[R_DOMINO_ACE] == 1
