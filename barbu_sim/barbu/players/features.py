"""What the ``learned`` player sees of a candidate card: a short vector of numbers, from its seat's view.

:func:`card_features` fills one row per legal card from what the seat to play knows
(its hand, the cards played and by whom, the voids shown, the trick so far, the
contract and its parameter, the rules' point values) and nothing else, so that the
same function serves the training data (:mod:`barbu_sim.barbu.played.training_data`) and
the kernels' player (:mod:`barbu_sim.barbu.players.learned`).  Trick contracts and Domino
fill different entries of the one vector of :data:`N_FEATURES`; the model keeps one
set of weights per contract, so an entry means one thing within a contract.

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
from .basic import _domino_sides
from ..rules.play_rules import above, beats, below, suit_bits, trick_value
from ..rules.config import (
    BARBU,
    HEARTS,
    KING_OF_HEARTS,
    NO_HEARTS,
    NO_LAST_TWO,
    NO_QUEENS,
    NO_TRICKS,
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

U0 = np.uint64(0)
U1 = np.uint64(1)
KH = U1 << np.uint64(KING_OF_HEARTS)

TRICK_FEATURES = (
    "heuristic's card", "wins the trick so far", "sure to win the trick", "points taken if it wins (/10)",
    "points taken if sure to win (/10)", "its own points (/10)", "rank (/12)", "unseen higher in suit (/12)",
    "unseen lower in suit (/12)", "master of its suit", "my length in suit (/13)", "unseen in suit (/13)",
    "singleton", "off the led suit", "off-suit x own points (/10)", "lead x others void in suit (/3)",
    "wins x trick number (/12)", "rank x trick number (/12)", "trump", "trump x wins", "K of hearts",
    "lead x heart with K of hearts out", "place in trick x rank", "lead x master", "my higher cards in suit (/12)",
    "lowest legal of its suit", "highest legal of its suit", "declarer x trump", "lead x my length in suit",
    "lead x unseen in suit", "seats still to play void in the suit (/3)", "trump x my trumps (/13)",
    "trump x unseen trumps (/13)", "side-suit lead x unseen trumps (/13)", "wins x seats still to play (/3)",
    "trick 11 on x rank", "my masters left in suit (/13)", "my lower cards in suit (/12)", "off-suit x rank",
    "unseen points in suit (/10)", "seats still to play that may ruff (/3)", "trump x others out of trumps (/3)",
)
DOMINO_FEATURES = (
    "heuristic's card", "opens a column", "my cards beyond it (/12)", "others' cards beyond it (/12)",
    "my next card", "others' next card", "distance from the start rank (/12)", "my cards it makes playable",
    "others' cards before my next one (/12)", "end of its column", "my length in suit (/13)",
    "unseen in suit (/13)", "next card may be held by a seat that passed",
)
N_FEATURES = 42
FEATURE_NAMES = TRICK_FEATURES + ("",) * (N_FEATURES - len(TRICK_FEATURES))
assert len(TRICK_FEATURES) <= N_FEATURES and len(DOMINO_FEATURES) <= N_FEATURES


@njit(cache=True, _nrt=False)
def _own_points(contract, card, rules):
    """What winning ``card`` alone costs or earns in the contracts that count cards (0 in the others)."""
    if contract == NO_QUEENS or contract == NO_HEARTS or contract == BARBU:
        return np.float64(trick_value(contract, 0, U1 << np.uint64(card), rules))
    return 0.0


@njit(cache=True, _nrt=False)
def trick_card_features(card, legal, hand, state, heuristic_card, out):
    """Fill ``out`` (N_FEATURES float64) with the trick-contract features of playing ``card``."""
    for i in range(N_FEATURES):
        out[i] = 0.0
    contract = np.int64(state[S_CONTRACT])
    rules = state[S_RULES:]
    me = np.int64(state[S_SEAT])
    t = np.int64(state[S_TRICK])
    k = np.int64(state[S_N_IN_TRICK])
    played = state[S_PLAYED]
    trump = np.int64(state[S_PARAM]) if contract == TRUMPS else -1
    unseen = ~hand & ~played & ((U1 << np.uint64(52)) - U1)
    s, r = card // 13, card % 13
    b = U1 << np.uint64(card)
    in_suit = suit_bits(s)
    trick = U0
    for j in range(k):
        trick |= U1 << state[S_TRICK_CARDS + j]
    wins = 1.0
    led = s
    if k > 0:
        win = np.int64(state[S_WIN_CARD])
        led = np.int64(state[S_TRICK_CARDS]) // 13
        wins = 1.0 if beats(card, s, win, win // 13, contract, trump) else 0.0
    higher = unseen & in_suit & above(card)
    master = 1.0 if higher == U0 else 0.0
    sure = 0.0
    # Sure to win: last to play, or the master of its suit with no trump left to ruff it.
    if wins > 0.0 and (k == 3 or master > 0.0 and (contract != TRUMPS or s == trump
                                                    or (unseen & suit_bits(trump)) == U0)):
        sure = 1.0
    take = np.float64(trick_value(contract, t, trick | b, rules)) / 10.0
    own = _own_points(contract, card, rules) / 10.0
    my_len = np.float64(popcount(hand & in_suit))
    n_unseen = np.float64(popcount(unseen & in_suit))
    lead = 1.0 if k == 0 else 0.0
    voids = 0
    for j in range(4):
        if j != me and (state[S_VOIDS + j] >> np.uint64(s)) & U1:
            voids += 1
    my_lane = legal & in_suit
    out[0] = 1.0 if card == heuristic_card else 0.0
    out[1] = wins
    out[2] = sure
    out[3] = wins * take
    out[4] = sure * take
    out[5] = own
    out[6] = r / 12.0
    out[7] = popcount(higher) / 12.0
    out[8] = popcount(unseen & in_suit & below(card)) / 12.0
    out[9] = master
    out[10] = my_len / 13.0
    out[11] = n_unseen / 13.0
    out[12] = 1.0 if my_len == 1.0 else 0.0
    off = 1.0 if k > 0 and s != led else 0.0
    out[13] = off
    out[14] = off * own
    out[15] = lead * voids / 3.0
    out[16] = wins * t / 12.0
    out[17] = r * t / 144.0
    out[18] = 1.0 if s == trump else 0.0
    out[19] = out[18] * wins
    out[20] = 1.0 if contract == BARBU and card == KING_OF_HEARTS else 0.0
    out[21] = lead if contract == BARBU and s == HEARTS and (unseen & KH) else 0.0
    out[22] = k * r / 36.0
    out[23] = lead * master
    out[24] = popcount(hand & in_suit & above(card)) / 12.0
    out[25] = 1.0 if card == lowest_bit(my_lane) else 0.0
    out[26] = 1.0 if card == highest_bit(my_lane) else 0.0
    out[27] = out[18] if np.int64(state[S_DECLARER]) == me else 0.0
    out[28] = lead * my_len / 13.0
    out[29] = lead * n_unseen / 13.0
    later = 0  # the seats still to play to this trick that have shown out of its suit (or of this suit, leading)
    for j in range(1, 4 - k):
        if (state[S_VOIDS + ((me + j) & 3)] >> np.uint64(led)) & U1:
            later += 1
    out[30] = later / 3.0
    if trump >= 0:
        my_trumps = popcount(hand & suit_bits(trump)) / 13.0
        out_trumps = popcount(unseen & suit_bits(trump)) / 13.0
        out[31] = out[18] * my_trumps
        out[32] = out[18] * out_trumps
        out[33] = lead * (1.0 - out[18]) * out_trumps
    out[34] = wins * (3 - k) / 3.0
    out[35] = r / 12.0 if t >= 10 else 0.0
    # My other cards of the suit above every unseen one of it: masters now and until the suit is led.
    top_unseen = unseen & in_suit
    mine_above = hand & in_suit & ~b
    if top_unseen:
        mine_above &= above(highest_bit(top_unseen))
    out[36] = popcount(mine_above) / 13.0
    out[37] = popcount(hand & in_suit & below(card)) / 12.0
    out[38] = off * r / 12.0
    if trump >= 0:
        ruff = 0  # the seats still to play that have shown out of the suit but not out of trumps
        for j in range(1, 4 - k):
            v = state[S_VOIDS + ((me + j) & 3)]
            if (v >> np.uint64(led)) & U1 and not (v >> np.uint64(trump)) & U1:
                ruff += 1
        out[40] = ruff / 3.0
        out_of_trumps = 0
        for j in range(4):
            if j != me and (state[S_VOIDS + j] >> np.uint64(trump)) & U1:
                out_of_trumps += 1
        out[41] = out[18] * out_of_trumps / 3.0
    out[39] = np.float64(trick_value(contract, 0, unseen & in_suit, rules)) / 10.0 if contract != TRUMPS \
        and contract != NO_TRICKS and contract != NO_LAST_TWO else 0.0


@njit(cache=True, _nrt=False)
def domino_card_features(card, legal, hand, state, heuristic_card, out):
    """Fill ``out`` (N_FEATURES float64) with the Domino features of playing ``card``."""
    for i in range(N_FEATURES):
        out[i] = 0.0
    me = np.int64(state[S_SEAT])
    start = np.int64(state[S_PARAM])
    played = state[S_PLAYED]
    ace_low = state[S_RULES + R_DOMINO_ACE] == U1
    unseen = ~hand & ~played & ((U1 << np.uint64(52)) - U1)
    passed = U0  # cards some other seat is known not to hold (a pass showed it)
    for j in range(4):
        if j != me:
            passed |= state[S_NOT_HELD + j]
    r = card % 13
    place = (r + 1) % 13 if ace_low else r
    start_place = (start + 1) % 13 if ace_low else start
    up_beyond, down_beyond, up_next, down_next = _domino_sides(card, ace_low)
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
    out[0] = 1.0 if card == heuristic_card else 0.0
    out[1] = 1.0 if place == start_place else 0.0
    out[2] = popcount(mine_beyond) / 12.0
    out[3] = popcount(beyond & unseen) / 12.0
    out[4] = 1.0 if nxt & hand else 0.0
    out[5] = popcount(nxt & unseen)
    out[6] = abs(place - start_place) / 12.0
    out[7] = popcount(nxt & hand & ~legal)
    out[8] = gap / 12.0
    out[9] = 1.0 if beyond == U0 else 0.0
    out[10] = popcount(hand & suit_bits(card // 13)) / 13.0
    out[11] = popcount(unseen & suit_bits(card // 13)) / 13.0
    out[12] = 1.0 if nxt & unseen & passed else 0.0

