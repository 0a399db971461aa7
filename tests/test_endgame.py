"""Exact endgames (:mod:`barbu_sim.barbu.players.endgame`) against a brute-force maxⁿ search written with
the reference rules of play (``tests/reference.py``): no merged cards, no transposition table."""

import random

import numpy as np
import pytest

from barbu_sim.barbu.players.endgame import TT_WORDS, new_search, solve_cards, solve_domino_cards, solve_from_trick
from barbu_sim.barbu.rules import TRUMPS, Contract, Rules
from barbu_sim.barbu.state import S_LEADER, S_N_IN_TRICK, S_PLAYED, S_SEAT, S_TRICK, S_TRICK_CARDS, STATE_SIZE

from barbu_sim.barbu.engine.reference import (
    domino_playable, legal_cards, penalties_exhausted, trick_score, trick_winner_index,
)


def brute_force(hands, trick, leader, t, contract, trump, rules, me, played):
    """Maxⁿ by plain recursion: each seat takes its best card; ties go to the card worst for ``me``,
    then to the lowest card.  Returns the four seats' points from here on."""
    seat = (leader + len(trick)) % 4
    best = None
    for card in sorted(legal_cards(hands[seat], trick, contract, trump, rules)):
        hands[seat].remove(card)
        now = trick + [card]
        if len(now) < 4:
            v = brute_force(hands, now, leader, t, contract, trump, rules, me, played)
        else:
            winner = (leader + trick_winner_index(now, contract, trump)) % 4
            done = played | set(now)
            v = [0, 0, 0, 0]
            if t < 12 and not penalties_exhausted(contract, done):
                v = brute_force(hands, [], winner, t + 1, contract, trump, rules, me, done)
            v = list(v)
            v[winner] += trick_score(contract, t + 1, now)
        hands[seat].add(card)
        if best is None or v[seat] > best[seat] or (v[seat] == best[seat] and seat != me and v[me] < best[me]):
            best = v
    return best


def _position(rng, contract, trump, rules, tricks_left, in_trick):
    """A position reached by random legal play: hands (sets), the trick so far, leader, trick number, played."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [set(deck[13 * j:13 * j + 13]) for j in range(4)]
    leader, played, trick = rng.randrange(4), set(), []
    t = 0
    while True:
        if t == 13 - tricks_left and len(trick) == in_trick:
            return hands, trick, leader, t, played
        seat = (leader + len(trick)) % 4
        card = rng.choice(sorted(legal_cards(hands[seat], trick, contract, trump, rules)))
        hands[seat].remove(card)
        trick.append(card)
        if len(trick) == 4:
            leader = (leader + trick_winner_index(trick, contract, trump)) % 4
            played |= set(trick)
            trick, t = [], t + 1


def _search_input(hands, trick, leader, t):
    """What the search is given at a position of :func:`_position`: the seat to play, the state, the hand masks."""
    state = np.zeros(STATE_SIZE, np.uint64)
    state[S_TRICK], state[S_LEADER], state[S_N_IN_TRICK] = t, leader, len(trick)
    for k, c in enumerate(trick):
        state[S_TRICK_CARDS + k] = c
    masks = np.array([sum(1 << c for c in h) for h in hands], np.uint64)
    return (leader + len(trick)) % 4, state, masks


@pytest.mark.parametrize("contract", [c for c in Contract if c != Contract.DOMINO])
def test_exact_endgame_values_equal_brute_force(contract):
    rng = random.Random(int(contract))
    rules = Rules()
    ra = rules.to_array()
    tt = np.zeros(TT_WORDS, np.uint64)
    checked = 0
    for trial in range(12):
        trump = rng.randrange(4) if contract == TRUMPS else 0
        # four tricks left twice, with the last card of the trick to play: up to three whole tricks searched past
        # it, while the plain-Python search from earlier in a trick of four takes seconds
        tricks_left = 4 if trial in (7, 11) else 2 + trial % 2
        in_trick = trial % 4
        hands, trick, leader, t, played = _position(rng, int(contract), trump, rules, tricks_left, in_trick)
        me, state, masks = _search_input(hands, trick, leader, t)
        legal = sorted(legal_cards(hands[me], trick, int(contract), trump, rules))
        values = np.full(52, np.nan)
        new_search(tt)
        solve_cards(masks, state, int(contract), trump, ra, np.uint64(sum(1 << c for c in legal)), tt, values)
        assert masks.tolist() == [sum(1 << c for c in h) for h in hands]  # hands restored
        for card in legal:
            hands[me].remove(card)
            now = trick + [card]
            if len(now) < 4:
                want = brute_force(hands, now, leader, t, int(contract), trump, rules, me, played)
            else:
                winner = (leader + trick_winner_index(now, int(contract), trump)) % 4
                done = played | set(now)
                want = [0, 0, 0, 0]
                if t < 12 and not penalties_exhausted(int(contract), done):
                    want = brute_force(hands, [], winner, t + 1, int(contract), trump, rules, me, done)
                want = list(want)
                want[winner] += trick_score(int(contract), t + 1, now)
            hands[me].add(card)
            assert values[card] == want[me], (contract.name, trial, card)
            checked += 1
        if not trick:
            whole = solve_from_trick(masks, t, leader, int(contract), trump, ra, me, tt, values)
            assert list(whole) == brute_force(hands, [], leader, t, int(contract), trump, rules, me, played)
    assert checked >= 20


@pytest.mark.parametrize("contract", [Contract.NO_QUEENS, Contract.TRUMPS])
def test_where_the_lowest_total_wins_every_seat_minimises(contract):
    """Under ``positive-penalties`` (every value negated, the lowest total wins) the search plays the
    same game: each card's value is the default's, negated."""
    from barbu_sim.barbu.rules import PRESETS
    rng = random.Random(7)
    plain, mirrored = Rules().to_array(), PRESETS["positive-penalties"].to_array()
    tt = np.zeros(TT_WORDS, np.uint64)
    compared = 0
    for trial in range(10):
        hands, trick, leader, t, _ = _position(rng, int(contract), 1, Rules(), 3, trial % 4)
        me, state, masks = _search_input(hands, trick, leader, t)
        legal = np.uint64(sum(1 << c for c in legal_cards(hands[me], trick, int(contract), 1, Rules())))
        values = {}
        for name, ra in (("plain", plain), ("mirrored", mirrored)):
            v = np.full(52, np.nan)
            new_search(tt)
            solve_cards(masks, state, int(contract), 1, ra, legal, tt, v)
            values[name] = v
        cards = [c for c in range(52) if int(legal) >> c & 1]
        assert [values["mirrored"][c] for c in cards] == [-values["plain"][c] for c in cards]
        compared += len(cards)
    assert compared >= 15


def domino_brute_force(hands, table, seat, start, payout, me):
    """Maxⁿ over a Domino position by plain recursion (the reference's playable rule), ties as the search
    breaks them: each seat's payouts from here on (0 for the seats already out)."""
    while not hands[seat] or not any(domino_playable(c, start, table) for c in hands[seat]):
        seat = (seat + 1) % 4
    place = sum(1 for h in hands if not h)
    best = None
    for card in sorted(c for c in hands[seat] if domino_playable(c, start, table)):
        hands[seat].remove(card)
        if not hands[seat] and place == 2:
            v = [payout[3] if s != seat and hands[s] else 0 for s in range(4)]
        else:
            v = list(domino_brute_force(hands, table | {card}, (seat + 1) % 4, start, payout, me))
        if not hands[seat]:
            v[seat] += payout[place]
        hands[seat].add(card)
        if best is None or v[seat] > best[seat] or (v[seat] == best[seat] and seat != me and v[me] < best[me]):
            best = v
    return best


def test_exact_domino_values_equal_brute_force():
    rng = random.Random(5)
    rules = Rules()
    ra = rules.to_array()
    tt = np.zeros(TT_WORDS, np.uint64)
    checked = 0
    for trial in range(30):
        start = rng.randrange(13)
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [set(deck[13 * j:13 * j + 13]) for j in range(4)]
        table, seat = set(), rng.randrange(4)
        # random legal play down to a few cards left, with a seat or two perhaps already out
        left = 7 + trial % 6
        place = 0
        while sum(len(h) for h in hands) > left and place < 3:
            if hands[seat]:
                legal = sorted(c for c in hands[seat] if domino_playable(c, start, table))
                if legal:
                    card = rng.choice(legal)
                    hands[seat].remove(card)
                    table.add(card)
                    place += not hands[seat]
            seat = (seat + 1) % 4
        if place >= 3:
            continue
        while not hands[seat] or not any(domino_playable(c, start, table) for c in hands[seat]):
            seat = (seat + 1) % 4
        state = np.zeros(STATE_SIZE, np.uint64)
        state[S_PLAYED] = np.uint64(sum(1 << c for c in table))
        state[S_SEAT] = seat
        masks = np.array([sum(1 << c for c in h) for h in hands], np.uint64)
        legal = sorted(c for c in hands[seat] if domino_playable(c, start, table))
        values = np.full(52, np.nan)
        new_search(tt)
        solve_domino_cards(masks, state, start, ra, np.uint64(sum(1 << c for c in legal)), tt, values)
        assert masks.tolist() == [sum(1 << c for c in h) for h in hands]
        for card in legal:
            hands[seat].remove(card)
            p = sum(1 for h in hands if not h) - (0 if hands[seat] else 1)
            if not hands[seat] and p == 2:
                want = [rules.domino_payout[3] if s != seat and hands[s] else 0 for s in range(4)]
            else:
                want = list(domino_brute_force(hands, table | {card}, (seat + 1) % 4, start, rules.domino_payout, seat))
            if not hands[seat]:
                want[seat] += rules.domino_payout[p]
            hands[seat].add(card)
            assert values[card] == want[seat], (trial, card)
            checked += 1
    assert checked >= 25
