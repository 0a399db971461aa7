"""A slow, readable pure-Python Barbu engine: the reference the numba engine must match.

Cards are ints ``suit * 13 + rank`` as in the package; hands are Python sets.
Strategies are called exactly as the engine calls them (legal mask, hand mask,
state array, rng array), so the same deterministic strategy must produce the
same card sequence in both engines.  It shares no code with the kernels (only the
state layout and the random streams), so the differential tests that compare the two
(``tests/test_reference_agreement.py`` and others) test the kernels against the rules as
written here; ``scripts/bench.py`` times it for the speed-up of the compiled engine.
Nothing of the package imports it.
"""

import numpy as np

from ..state import (
    S_CARDS_LEFT, S_CONTRACT, S_DECLARER, S_DOMINO_HIGH, S_DOMINO_LOW, S_LEADER, S_N_IN_TRICK,
    S_NOT_HELD, S_PARAM, S_PLAYED, S_RULES, S_SEAT, S_TRICK, S_TRICK_CARDS, S_TRICKS_WON, S_VOIDS, S_WIN_CARD,
    S_WIN_SEAT, S_WON, STATE_SIZE,
)
from ...core.rng import STREAM_PLAY, stream_key
from ..rules import Rules

NO_TRICKS, NO_QUEENS, NO_LAST_TWO, NO_HEARTS, BARBU, TRUMPS, DOMINO = range(7)
HEARTS = 2
KING_OF_HEARTS = 2 * 13 + 11
ACE_OF_HEARTS = 2 * 13 + 12
QUEENS = {s * 13 + 10 for s in range(4)}
ALL_HEARTS = {HEARTS * 13 + r for r in range(13)}


def suit(card):
    return card // 13


def rank(card):
    return card % 13


def to_mask(cards):
    m = 0
    for c in cards:
        m |= 1 << c
    return np.uint64(m)


def legal_cards(hand, trick, contract, trump, rules):
    """The cards of ``hand`` that may be played to ``trick`` (a list of cards played so far)."""
    if not trick:
        hearts_kept_back = (contract == NO_HEARTS and rules.no_hearts_lead == "unless-only-hearts") or (
            contract == BARBU and rules.barbu_heart_lead == "no-hearts-unless-only-hearts")
        if hearts_kept_back:
            non_hearts = {c for c in hand if suit(c) != HEARTS}
            return non_hearts or set(hand)
        if contract == BARBU and rules.barbu_heart_lead == "king-only" and KING_OF_HEARTS in hand and len(hand) > 1:
            return set(hand) - {KING_OF_HEARTS}
        return set(hand)
    led = suit(trick[0])
    same_suit = {c for c in hand if suit(c) == led}
    trumps_in_trick = [c for c in trick if contract == TRUMPS and suit(c) == trump]
    highest_trump = max(trumps_in_trick) if trumps_in_trick else None
    if contract == TRUMPS:
        if same_suit:
            if rules.trumps_overtrump and led == trump and highest_trump is not None:
                beating = {c for c in same_suit if c > highest_trump}
                if beating:
                    return beating
            return same_suit
        my_trumps = {c for c in hand if suit(c) == trump}
        if not my_trumps:
            return set(hand)
        allowed_trumps = my_trumps
        if rules.trumps_overtrump and highest_trump is not None:
            beating = {c for c in my_trumps if c > highest_trump}
            if beating:
                allowed_trumps = beating
        if rules.trumps_void == "must-trump":
            return allowed_trumps
        return {c for c in hand if suit(c) != trump} | allowed_trumps
    if same_suit:
        return same_suit
    if contract == BARBU and rules.barbu_forced_discard and KING_OF_HEARTS in hand:
        return {KING_OF_HEARTS}
    return set(hand)


def trick_winner_index(trick, contract, trump):
    """Index in ``trick`` of the winning card."""
    if contract == TRUMPS:
        trumps = [c for c in trick if suit(c) == trump]
        if trumps:
            return trick.index(max(trumps))
    led = suit(trick[0])
    return trick.index(max(c for c in trick if suit(c) == led))


def heart_value(card, rules):
    """What one heart costs in No Hearts: the ace, a high heart (its rank at least the high-from rank) or another."""
    if card == ACE_OF_HEARTS:
        return rules.no_hearts_ace
    high_from = "23456789TJQKA".index(rules.no_hearts_high_from.replace("10", "T"))
    return rules.no_hearts_high_heart if rank(card) >= high_from else rules.no_hearts_per_heart


def trick_score(contract, trick_number, cards, rules=None):
    """Raw points for the winner of trick ``trick_number`` (1-based) with these cards (default values: the spec's)."""
    rules = rules or Rules()
    if contract == NO_TRICKS:
        return rules.no_tricks_per_trick
    if contract == NO_QUEENS:
        return rules.no_queens_per_queen * sum(1 for c in cards if c in QUEENS)
    if contract == NO_LAST_TWO:
        return {12: rules.no_last_two_trick_12, 13: rules.no_last_two_trick_13}.get(trick_number, 0)
    if contract == NO_HEARTS:
        return sum(heart_value(c, rules) for c in cards if suit(c) == HEARTS)
    if contract == BARBU:
        return rules.barbu_king if KING_OF_HEARTS in cards else 0
    return rules.trumps_per_trick


def penalties_exhausted(contract, played):
    if contract == NO_QUEENS:
        return QUEENS <= played
    if contract == NO_HEARTS:
        return ALL_HEARTS <= played
    if contract == BARBU:
        return KING_OF_HEARTS in played
    return False


def column_order(suit_, ace_low=False):
    """The cards of a suit in Domino column order, low to high: 2 .. A, or A, 2 .. K with the ace low."""
    ranks = [12] + list(range(12)) if ace_low else list(range(13))
    return [suit_ * 13 + r for r in ranks]


def domino_playable(card, start, table, ace_low=False):
    """``table``: the set of cards already played.  True when ``card`` may go down: it is of the starting
    rank, or its neighbour toward the starting rank in column order is on the table."""
    if rank(card) == start:
        return True
    order = column_order(suit(card), ace_low)
    place, start_place = order.index(card), order.index(suit(card) * 13 + start)
    neighbour = order[place - 1] if place > start_place else order[place + 1]
    return neighbour in table


class Table:
    """What the state array tells a strategy, kept as plain Python."""

    def __init__(self, contract, param, declarer, rules_array):
        self.contract, self.param, self.declarer = contract, param, declarer
        self.rules_array = rules_array
        self.seat = self.leader = self.trick_number = 0
        self.trick = []
        self.played = set()
        self.won = [set() for _ in range(4)]
        self.tricks_won = [0] * 4
        self.low = [13] * 4
        self.high = [13] * 4
        self.cards_left = [13] * 4
        self.voids = [0] * 4
        # Cards each seat has shown it does not hold: here only by Domino passes (the engine
        # infers more in trick contracts only when a seat plays mc, which these tests do not use).
        self.not_held = [set() for _ in range(4)]
        self.win_card = self.win_seat = 0

    def to_state(self):
        st = np.zeros(STATE_SIZE, np.uint64)
        st[S_CONTRACT], st[S_PARAM], st[S_SEAT] = self.contract, self.param, self.seat
        st[S_DECLARER], st[S_LEADER], st[S_TRICK] = self.declarer, self.leader, self.trick_number
        st[S_N_IN_TRICK] = len(self.trick)
        for k, c in enumerate(self.last_trick_cards):
            st[S_TRICK_CARDS + k] = c
        st[S_PLAYED] = to_mask(self.played)
        for s in range(4):
            st[S_WON + s] = to_mask(self.won[s])
            st[S_TRICKS_WON + s] = self.tricks_won[s]
            st[S_DOMINO_LOW + s] = self.low[s]
            st[S_DOMINO_HIGH + s] = self.high[s]
            st[S_CARDS_LEFT + s] = self.cards_left[s]
            st[S_VOIDS + s] = self.voids[s]
            st[S_NOT_HELD + s] = to_mask(self.not_held[s])
        st[S_WIN_CARD], st[S_WIN_SEAT] = self.win_card, self.win_seat
        for i, v in enumerate(self.rules_array):
            st[S_RULES + i] = np.uint64(v)
        return st


def play(hands, contract, param, declarer, rules, strategies, seed=0, index=0):
    """Play one deal.  Returns ``(scores, tricks, actions, trick_winners)``.

    ``hands``: four iterables of cards by seat; ``strategies``: four njit strategy
    functions; ``actions``: list of ``(seat, card)`` with card -1 for a Domino pass.
    """
    hands = [set(int(c) for c in h) for h in hands]
    rng = np.array([stream_key(np.uint64(seed), np.uint64(index), STREAM_PLAY)], np.uint64)
    table = Table(contract, param, declarer, rules.to_array())
    table.last_trick_cards = []
    scores, tricks, actions, winners = [0] * 4, [0] * 4, [], []

    def ask(seat, legal):
        table.seat = seat
        card = int(strategies[seat](to_mask(legal), to_mask(hands[seat]), table.to_state(), rng))
        if card not in legal:
            raise ValueError(f"seat {seat} played illegal card {card}")
        return card

    if contract == DOMINO:
        if rules.fixed_domino_start is not None:  # domino-start=fixed:R: the declarer names no rank
            param = table.param = rules.fixed_domino_start
        start, payout, ace_low = param, rules.domino_payout, rules.domino_ace == "low"
        finished = []
        seat = declarer
        while len(finished) < 3:
            if hands[seat]:
                legal = {c for c in hands[seat] if domino_playable(c, start, table.played, ace_low)}
                if not legal:
                    actions.append((seat, -1))
                    # A pass shows that the seat holds none of the cards playable now.
                    table.not_held[seat] |= {c for c in range(52)
                                             if c not in table.played and domino_playable(c, start, table.played,
                                                                                          ace_low)}
                else:
                    card = ask(seat, legal)
                    hands[seat].remove(card)
                    table.played.add(card)
                    s = suit(card)
                    column = [c for c in column_order(s, ace_low) if c in table.played]  # low to high
                    table.low[s], table.high[s] = rank(column[0]), rank(column[-1])
                    table.cards_left[seat] -= 1
                    actions.append((seat, card))
                    if not hands[seat]:
                        finished.append(seat)
            seat = (seat + 1) % 4
        last = next(s for s in range(4) if s not in finished)
        for place, s in enumerate(finished + [last]):
            scores[s] = payout[place]
        return scores, tricks, actions, winners

    leader = declarer
    for number in range(1, 14):
        table.leader, table.trick_number = leader, number - 1
        trick, seats = [], []
        table.trick = trick
        table.last_trick_cards = trick
        for k in range(4):
            seat = (leader + k) % 4
            legal = legal_cards(hands[seat], trick, contract, param, rules)
            card = ask(seat, legal)
            hands[seat].remove(card)
            if trick and suit(card) != suit(trick[0]):
                table.voids[seat] |= 1 << suit(trick[0])
            trick.append(card)
            seats.append(seat)
            table.played.add(card)
            table.cards_left[seat] -= 1
            w = trick_winner_index(trick, contract, param)
            table.win_card, table.win_seat = trick[w], seats[w]
            actions.append((seat, card))
        winner = seats[trick_winner_index(trick, contract, param)]
        scores[winner] += trick_score(contract, number, trick, rules)
        tricks[winner] += 1
        table.won[winner] |= set(trick)
        table.tricks_won[winner] += 1
        winners.append(winner)
        leader = winner
        if penalties_exhausted(contract, table.played):
            break
    return scores, tricks, actions, winners
