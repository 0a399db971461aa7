"""What the ``learned`` player sees of a candidate card: a short vector of numbers, from its seat's view.

:func:`trick_card_features` and :func:`domino_card_features` fill the vector of one
legal card from what the seat to play knows (its hand, the cards played and by whom, the
voids shown, the trick so far, the contract and its parameter, the rules' point values)
and nothing else, so that the same functions serve the training data
(:mod:`barbu_sim.barbu.training.training_data`) and the kernels' player
(:mod:`barbu_sim.barbu.players.learned`).  What belongs to the position is read once per decision
(:func:`trick_context`, :func:`domino_context`) and each card's vector filled from it
(:func:`trick_fill`, :func:`domino_fill`): the player calls them so; the one-card functions do both.
The vector is float32, as the player's network
reads it: the features are computed in float64 and rounded once, where they are stored.
Trick contracts and Domino fill different entries of the one vector of :data:`N_FEATURES`
(their slots: :data:`TRICK_FIELDS` and :data:`DOMINO_FIELDS`); the model keeps one set of weights per
contract, so an entry means one thing within a contract.

Only differences between the cards of one decision matter to the player (it plays
the card with the highest predicted value), so every entry is a property of the
card, or of the card together with the position (a product), never of the position
alone.  :data:`FEATURE_NAMES` names them, in order, for the docs and the training
report.
"""

from __future__ import annotations

import numpy as np
from ...core.jit import njit

from ...core.bits import highest_bit, lowest_bit, popcount
from ...core.fields import ArrayFields
from .basic import domino_sides
from ..rules.play_rules import above, beats, below, suit_bits, trick_value
from ..rules.config import (
    BARBU,
    HEARTS,
    KING_OF_HEARTS,
    NO_HEARTS,
    NO_QUEENS,
    R_BEST_TOTAL,
    R_DOMINO_ACE,
    TRUMPS,
)
from ..state import (
    S_CONTRACT,
    S_DECLARER,
    S_N_IN_TRICK,
    S_NOT_HELD,
    S_PARAM,
    S_PLAYED,
    S_RULES,
    S_SEAT,
    S_TRICK,
    S_TRICK_CARDS,
    S_VOIDS,
    S_WIN_CARD,
)
from .feature_slots import DOMINO_SLOTS, TRICK_SLOTS

U0 = np.uint64(0)
U1 = np.uint64(1)
KH = U1 << np.uint64(KING_OF_HEARTS)

TRICK_FIELDS = ArrayFields([(slot, 1) for slot, _ in TRICK_SLOTS])
DOMINO_FIELDS = ArrayFields([(slot, 1) for slot, _ in DOMINO_SLOTS])
TRICK_FEATURES = tuple(text for _, text in TRICK_SLOTS)
DOMINO_FEATURES = tuple(text for _, text in DOMINO_SLOTS)
N_FEATURES = max(TRICK_FIELDS.size, DOMINO_FIELDS.size)  # one vector for both: Domino leaves the rest 0
N_DOMINO_FEATURES = DOMINO_FIELDS.size  # the Domino slots come first; the rest of its vector is 0
FEATURE_NAMES = TRICK_FEATURES + ("",) * (N_FEATURES - len(TRICK_FEATURES))

# The slots as int constants, which the kernels read as compile-time constants.
T_HEURISTIC = TRICK_FIELDS.offset("heuristic")
T_WINS = TRICK_FIELDS.offset("wins")
T_SURE = TRICK_FIELDS.offset("sure")
T_WINS_TAKE = TRICK_FIELDS.offset("wins_take")
T_SURE_TAKE = TRICK_FIELDS.offset("sure_take")
T_OWN = TRICK_FIELDS.offset("own")
T_RANK = TRICK_FIELDS.offset("rank")
T_UNSEEN_HIGHER = TRICK_FIELDS.offset("unseen_higher")
T_UNSEEN_LOWER = TRICK_FIELDS.offset("unseen_lower")
T_MASTER = TRICK_FIELDS.offset("master")
T_MY_LENGTH = TRICK_FIELDS.offset("my_length")
T_UNSEEN_IN_SUIT = TRICK_FIELDS.offset("unseen_in_suit")
T_SINGLETON = TRICK_FIELDS.offset("singleton")
T_OFF_SUIT = TRICK_FIELDS.offset("off_suit")
T_OFF_OWN = TRICK_FIELDS.offset("off_own")
T_LEAD_VOIDS = TRICK_FIELDS.offset("lead_voids")
T_WINS_TRICK = TRICK_FIELDS.offset("wins_trick")
T_RANK_TRICK = TRICK_FIELDS.offset("rank_trick")
T_TRUMP = TRICK_FIELDS.offset("trump")
T_TRUMP_WINS = TRICK_FIELDS.offset("trump_wins")
T_KING_HEARTS = TRICK_FIELDS.offset("king_hearts")
T_LEAD_HEART_KH_OUT = TRICK_FIELDS.offset("lead_heart_kh_out")
T_PLACE_RANK = TRICK_FIELDS.offset("place_rank")
T_LEAD_MASTER = TRICK_FIELDS.offset("lead_master")
T_MY_HIGHER = TRICK_FIELDS.offset("my_higher")
T_LOWEST_LEGAL = TRICK_FIELDS.offset("lowest_legal")
T_HIGHEST_LEGAL = TRICK_FIELDS.offset("highest_legal")
T_DECLARER_TRUMP = TRICK_FIELDS.offset("declarer_trump")
T_LEAD_MY_LENGTH = TRICK_FIELDS.offset("lead_my_length")
T_LEAD_UNSEEN = TRICK_FIELDS.offset("lead_unseen")
T_LATER_VOID = TRICK_FIELDS.offset("later_void")
T_TRUMP_MY_TRUMPS = TRICK_FIELDS.offset("trump_my_trumps")
T_TRUMP_UNSEEN_TRUMPS = TRICK_FIELDS.offset("trump_unseen_trumps")
T_SIDE_LEAD_UNSEEN_TRUMPS = TRICK_FIELDS.offset("side_lead_unseen_trumps")
T_WINS_LATER = TRICK_FIELDS.offset("wins_later")
T_LATE_RANK = TRICK_FIELDS.offset("late_rank")
T_MY_MASTERS = TRICK_FIELDS.offset("my_masters")
T_MY_LOWER = TRICK_FIELDS.offset("my_lower")
T_OFF_RANK = TRICK_FIELDS.offset("off_rank")
T_UNSEEN_POINTS = TRICK_FIELDS.offset("unseen_points")
T_MAY_RUFF = TRICK_FIELDS.offset("may_ruff")
T_TRUMP_OTHERS_OUT = TRICK_FIELDS.offset("trump_others_out")
D_HEURISTIC = DOMINO_FIELDS.offset("heuristic")
D_OPENS = DOMINO_FIELDS.offset("opens")
D_MY_BEYOND = DOMINO_FIELDS.offset("my_beyond")
D_OTHERS_BEYOND = DOMINO_FIELDS.offset("others_beyond")
D_MY_NEXT = DOMINO_FIELDS.offset("my_next")
D_OTHERS_NEXT = DOMINO_FIELDS.offset("others_next")
D_DISTANCE = DOMINO_FIELDS.offset("distance")
D_UNLOCKS = DOMINO_FIELDS.offset("unlocks")
D_GAP = DOMINO_FIELDS.offset("gap")
D_COLUMN_END = DOMINO_FIELDS.offset("column_end")
D_MY_LENGTH = DOMINO_FIELDS.offset("my_length")
D_UNSEEN_IN_SUIT = DOMINO_FIELDS.offset("unseen_in_suit")
D_NEXT_PASSED = DOMINO_FIELDS.offset("next_passed")


# n / d for the small whole numbers n the features divide, computed once: a table read instead of a float64
# division per feature and card (the divisions were most of the features' time).  Each entry is the very value
# of the division it replaces, so the stored features are the same to the bit.
OVER3 = np.arange(4) / 3.0
OVER12 = np.arange(14) / 12.0
OVER13 = np.arange(14) / 13.0
OVER36 = np.arange(37) / 36.0
OVER144 = np.arange(145) / 144.0


@njit(inline="always", cache=True, _nrt=False)
def _counts_cards(contract):
    """True in the contracts whose tricks are worth the sum of their cards' points (the others: a trick's worth
    does not depend on its cards)."""
    return contract == NO_QUEENS or contract == NO_HEARTS or contract == BARBU


@njit(inline="always", cache=True, _nrt=False)
def points_sign(rules):
    """+1 where the highest total wins, -1 where the lowest does (``best-total=lowest``): the features take the
    point values times this sign, so that a positive number is good for the seat under every rule set (under
    ``positive-penalties``, whose values are the defaults' with their signs turned over, the features are the
    default rules' to the bit, and so are the plays)."""
    return np.int64(-1) if rules[R_BEST_TOTAL] == U1 else np.int64(1)


@njit(inline="always", cache=True, _nrt=False)
def _seat_counts(state, me, k, led_or_suit, trump):
    """Of the seats still to play to this trick (after ``me``, ``k`` cards in it), those void in
    ``led_or_suit`` and, with trumps, those of them not void in trumps too (the seats that may ruff)."""
    later = 0
    ruff = 0
    for j in range(1, 4 - k):
        v = state[S_VOIDS + ((me + j) & 3)]
        if (v >> np.uint64(led_or_suit)) & U1:
            later += 1
            if trump >= 0 and not (v >> np.uint64(trump)) & U1:
                ruff += 1
    return later, ruff


@njit(inline="always", cache=True, _nrt=False)
def trick_context(legal, hand, state):
    """What the trick-contract features read of the position, the same for every legal card of one decision.

    Built once per decision (:func:`trick_fill` then fills each card's vector from it); a tuple of
    plain values, so that it lives in registers: the play loops cannot allocate.  The counts that
    depend on the suit led are kept for each suit (4 bits a suit), since a lead leads the card's own suit.
    """
    contract = np.int64(state[S_CONTRACT])
    me = np.int64(state[S_SEAT])
    t = np.int64(state[S_TRICK])
    k = np.int64(state[S_N_IN_TRICK])
    played = state[S_PLAYED]
    trump = np.int64(state[S_PARAM]) if contract == TRUMPS else -1
    unseen = ~hand & ~played & ((U1 << np.uint64(52)) - U1)
    trick = U0
    for j in range(k):
        trick |= U1 << state[S_TRICK_CARDS + j]
    win = np.int64(state[S_WIN_CARD]) if k > 0 else -1
    led = np.int64(state[S_TRICK_CARDS]) // 13 if k > 0 else -1
    # For each suit: the other seats void in it; the seats still to play void in it; of those, the ones that may ruff.
    voids, later, ruff = 0, 0, 0
    for s in range(4):
        n = 0
        for j in range(4):
            if j != me and (state[S_VOIDS + j] >> np.uint64(s)) & U1:
                n += 1
        voids |= n << (4 * s)
        if k == 0 or s == led:
            n_later, n_ruff = _seat_counts(state, me, k, s, trump)
            later |= n_later << (4 * s)
            ruff |= n_ruff << (4 * s)
    out_of_trumps = 0
    my_trumps, out_trumps, trumps_gone = 0.0, 0.0, False
    if trump >= 0:
        out_of_trumps = (voids >> (4 * trump)) & 15
        my_trumps = OVER13[popcount(hand & suit_bits(trump))]
        out_trumps = OVER13[popcount(unseen & suit_bits(trump))]
        trumps_gone = (unseen & suit_bits(trump)) == U0
    declarer = np.int64(state[S_DECLARER]) == me
    rules = state[S_RULES:]
    good = points_sign(rules)
    # What the trick holds so far; and, in the contracts that count cards, the points still unseen in each suit.
    trick_points = good * trick_value(contract, t, trick, rules)
    unseen_points = (0.0, 0.0, 0.0, 0.0)
    if _counts_cards(contract):
        unseen_points = (np.float64(good * trick_value(contract, 0, unseen & suit_bits(0), rules)) / 10.0,
                         np.float64(good * trick_value(contract, 0, unseen & suit_bits(1), rules)) / 10.0,
                         np.float64(good * trick_value(contract, 0, unseen & suit_bits(2), rules)) / 10.0,
                         np.float64(good * trick_value(contract, 0, unseen & suit_bits(3), rules)) / 10.0)
    return (contract, t, k, trump, unseen, trick, win, led, voids, later, ruff, out_of_trumps, my_trumps, out_trumps,
            trumps_gone, declarer, trick_points, unseen_points, good)


@njit(inline="always", cache=True, _nrt=False)
def trick_fill(card, ctx, legal, hand, state, heuristic_card, out):
    """Fill ``out`` (N_FEATURES) with the trick-contract features of playing ``card``, from the decision's
    :func:`trick_context` ``ctx`` (slots: TRICK_FIELDS; every slot is written, the unused ones 0).

    Each value is computed in float64 by the same expression as ever and rounded once where stored.
    """
    (contract, t, k, trump, unseen, trick, win, led_suit, voids, later_by_suit, ruff_by_suit, out_of_trumps,
     my_trumps, out_trumps, trumps_gone, declarer, trick_points, unseen_points, good) = ctx
    rules = state[S_RULES:]
    s, r = card // 13, card % 13
    b = U1 << np.uint64(card)
    in_suit = suit_bits(s)
    wins = 1.0
    led = s
    if k > 0:
        led = led_suit
        wins = 1.0 if beats(card, s, win, win // 13, contract, trump) else 0.0
    higher = unseen & in_suit & above(card)
    master = 1.0 if higher == U0 else 0.0
    sure = 0.0
    # Sure to win: last to play, or the master of its suit with no trump left to ruff it.
    if wins > 0.0 and (k == 3 or master > 0.0 and (contract != TRUMPS or s == trump or trumps_gone)):
        sure = 1.0
    # Its own points, and the trick's if it wins: where tricks count their cards, the trick's so far plus its own
    # (the same whole numbers trick_value gives the trick with the card), else the trick's worth alone.
    own_points = good * trick_value(contract, 0, b, rules) if _counts_cards(contract) else 0
    take = np.float64(trick_points + own_points) / 10.0
    own = np.float64(own_points) / 10.0
    n_mine = popcount(hand & in_suit)
    n_out = popcount(unseen & in_suit)
    lead = 1.0 if k == 0 else 0.0
    n_voids = (voids >> (4 * s)) & 15
    my_lane = legal & in_suit
    is_trump = 1.0 if s == trump else 0.0
    off = 1.0 if k > 0 and s != led else 0.0
    out[T_HEURISTIC] = 1.0 if card == heuristic_card else 0.0
    out[T_WINS] = wins
    out[T_SURE] = sure
    out[T_WINS_TAKE] = wins * take
    out[T_SURE_TAKE] = sure * take
    out[T_OWN] = own
    out[T_RANK] = OVER12[r]
    out[T_UNSEEN_HIGHER] = OVER12[popcount(higher)]
    out[T_UNSEEN_LOWER] = OVER12[popcount(unseen & in_suit & below(card))]
    out[T_MASTER] = master
    out[T_MY_LENGTH] = OVER13[n_mine]
    out[T_UNSEEN_IN_SUIT] = OVER13[n_out]
    out[T_SINGLETON] = 1.0 if n_mine == 1 else 0.0
    out[T_OFF_SUIT] = off
    out[T_OFF_OWN] = off * own
    out[T_LEAD_VOIDS] = OVER3[n_voids] if k == 0 else 0.0
    out[T_WINS_TRICK] = OVER12[t] if wins > 0.0 else 0.0
    out[T_RANK_TRICK] = OVER144[r * t]
    out[T_TRUMP] = is_trump
    out[T_TRUMP_WINS] = is_trump * wins
    out[T_KING_HEARTS] = 1.0 if contract == BARBU and card == KING_OF_HEARTS else 0.0
    out[T_LEAD_HEART_KH_OUT] = lead if contract == BARBU and s == HEARTS and (unseen & KH) else 0.0
    out[T_PLACE_RANK] = OVER36[k * r]
    out[T_LEAD_MASTER] = lead * master
    out[T_MY_HIGHER] = OVER12[popcount(hand & in_suit & above(card))]
    out[T_LOWEST_LEGAL] = 1.0 if card == lowest_bit(my_lane) else 0.0
    out[T_HIGHEST_LEGAL] = 1.0 if card == highest_bit(my_lane) else 0.0
    out[T_DECLARER_TRUMP] = is_trump if declarer else 0.0
    out[T_LEAD_MY_LENGTH] = OVER13[n_mine] if k == 0 else 0.0
    out[T_LEAD_UNSEEN] = OVER13[n_out] if k == 0 else 0.0
    # The seats still to play to this trick that have shown out of its suit (or of this suit, leading).
    out[T_LATER_VOID] = OVER3[(later_by_suit >> (4 * led)) & 15]
    if trump >= 0:
        out[T_TRUMP_MY_TRUMPS] = is_trump * my_trumps
        out[T_TRUMP_UNSEEN_TRUMPS] = is_trump * out_trumps
        out[T_SIDE_LEAD_UNSEEN_TRUMPS] = lead * (1.0 - is_trump) * out_trumps
    else:
        out[T_TRUMP_MY_TRUMPS] = 0.0
        out[T_TRUMP_UNSEEN_TRUMPS] = 0.0
        out[T_SIDE_LEAD_UNSEEN_TRUMPS] = 0.0
    out[T_WINS_LATER] = OVER3[3 - k] if wins > 0.0 else 0.0
    out[T_LATE_RANK] = OVER12[r] if t >= 10 else 0.0
    # My other cards of the suit above every unseen one of it: masters now and until the suit is led.
    top_unseen = unseen & in_suit
    mine_above = hand & in_suit & ~b
    if top_unseen:
        mine_above &= above(highest_bit(top_unseen))
    out[T_MY_MASTERS] = OVER13[popcount(mine_above)]
    out[T_MY_LOWER] = OVER12[popcount(hand & in_suit & below(card))]
    out[T_OFF_RANK] = OVER12[r] if off > 0.0 else 0.0
    out[T_UNSEEN_POINTS] = unseen_points[s]
    if trump >= 0:
        # The seats still to play that have shown out of the suit but not out of trumps; the others out of trumps.
        out[T_MAY_RUFF] = OVER3[(ruff_by_suit >> (4 * led)) & 15]
        out[T_TRUMP_OTHERS_OUT] = OVER3[out_of_trumps] if s == trump else 0.0
    else:
        out[T_MAY_RUFF] = 0.0
        out[T_TRUMP_OTHERS_OUT] = 0.0


@njit(cache=True, _nrt=False)
def trick_card_features(card, legal, hand, state, heuristic_card, out):
    """Fill ``out`` (N_FEATURES float32) with the trick-contract features of playing ``card`` (slots: TRICK_FIELDS)."""
    trick_fill(card, trick_context(legal, hand, state), legal, hand, state, heuristic_card, out)


@njit(inline="always", cache=True, _nrt=False)
def domino_context(hand, state):
    """What the Domino features read of the position, the same for every legal card of one decision
    (see :func:`trick_context`)."""
    me = np.int64(state[S_SEAT])
    start = np.int64(state[S_PARAM])
    ace_low = state[S_RULES + R_DOMINO_ACE] == U1
    unseen = ~hand & ~state[S_PLAYED] & ((U1 << np.uint64(52)) - U1)
    passed = U0  # cards some other seat is known not to hold (a pass showed it)
    for j in range(4):
        if j != me:
            passed |= state[S_NOT_HELD + j]
    start_place = (start + 1) % 13 if ace_low else start
    return ace_low, unseen, passed, start_place


@njit(inline="always", cache=True, _nrt=False)
def domino_fill(card, ctx, legal, hand, heuristic_card, out):
    """Fill ``out`` (N_FEATURES) with the Domino features of playing ``card``, from the decision's
    :func:`domino_context` ``ctx`` (slots: DOMINO_FIELDS; the rest of the vector 0)."""
    ace_low, unseen, passed, start_place = ctx
    r = card % 13
    place = (r + 1) % 13 if ace_low else r
    up_beyond, down_beyond, up_next, down_next = domino_sides(card, ace_low)
    if place == start_place:
        beyond, nxt, step_up = up_beyond | down_beyond, up_next | down_next, True
    elif place > start_place:
        beyond, nxt, step_up = up_beyond, up_next, True
    else:
        beyond, nxt, step_up = down_beyond, down_next, False
    mine_beyond = beyond & hand
    # The others' cards between this card and my next card that way: they must come out before mine can.
    gap = 0
    if mine_beyond and place != start_place:
        nearest = lowest_bit(mine_beyond) if step_up else highest_bit(mine_beyond)
        between = beyond & ~(above(nearest) if step_up else below(nearest)) & ~(U1 << np.uint64(nearest))
        gap = popcount(between & unseen)
    out[D_HEURISTIC] = 1.0 if card == heuristic_card else 0.0
    out[D_OPENS] = 1.0 if place == start_place else 0.0
    out[D_MY_BEYOND] = OVER12[popcount(mine_beyond)]
    out[D_OTHERS_BEYOND] = OVER12[popcount(beyond & unseen)]
    out[D_MY_NEXT] = 1.0 if nxt & hand else 0.0
    out[D_OTHERS_NEXT] = popcount(nxt & unseen)
    out[D_DISTANCE] = OVER12[abs(place - start_place)]
    out[D_UNLOCKS] = popcount(nxt & hand & ~legal)
    out[D_GAP] = OVER12[gap]
    out[D_COLUMN_END] = 1.0 if beyond == U0 else 0.0
    out[D_MY_LENGTH] = OVER13[popcount(hand & suit_bits(card // 13))]
    out[D_UNSEEN_IN_SUIT] = OVER13[popcount(unseen & suit_bits(card // 13))]
    out[D_NEXT_PASSED] = 1.0 if nxt & unseen & passed else 0.0
    for i in range(N_DOMINO_FEATURES, N_FEATURES):
        out[i] = 0.0


@njit(cache=True, _nrt=False)
def domino_card_features(card, legal, hand, state, heuristic_card, out):
    """Fill ``out`` (N_FEATURES float32) with the Domino features of playing ``card`` (slots: DOMINO_FIELDS)."""
    domino_fill(card, domino_context(hand, state), legal, hand, heuristic_card, out)
