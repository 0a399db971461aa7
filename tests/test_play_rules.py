"""The rules of play (barbu/rules/play_rules.py) called directly and compared with the pure-Python reference.

These small functions compile in seconds, so the mutation check (scripts/mutation_check.py)
can target them without the play kernels; the engine itself is compared card by card with the
reference in test_reference_agreement.py.
"""

import numpy as np
import pytest

from barbu_sim.barbu.engine import reference
from barbu_sim.barbu.rules.play_rules import (
    beats, domino_ends, domino_openers, domino_openers_low, domino_playable, domino_position, domino_start, domino_wrap,
    forced_discard, hand_over, lead_restriction, legal_mask, trick_points, trick_value, trick_winner,
)
from barbu_sim.barbu.rules import BARBU, NO_HEARTS, NO_LAST_TWO, NO_QUEENS, NO_TRICKS, PRESETS, TRUMPS, Rules
from barbu_sim.core.cards import cards_of

RULE_SETS = [PRESETS["default"], PRESETS["strict-barbu"], PRESETS["overtrump"],
             Rules(trumps_void="free", trumps_overtrump=True), Rules(trumps_void="free"), PRESETS["open-leads"],
             Rules(no_hearts_lead="any"), Rules(barbu_heart_lead="any", barbu_forced_discard=True)]
# Point values unlike the defaults and unlike each other, so that a value read from the wrong place shows.
ODD_VALUES = Rules(no_tricks_per_trick=-3, no_queens_per_queen=-5, no_last_two_trick_12=-11, no_last_two_trick_13=-17,
                   no_hearts_per_heart=-1, no_hearts_high_heart=-4, no_hearts_high_from="J", no_hearts_ace=-9,
                   barbu_king=-23, trumps_per_trick=7)
VALUE_SETS = [Rules(), ODD_VALUES, PRESETS["high-hearts-4"], PRESETS["last-two-12"], PRESETS["positive-penalties"],
              Rules(no_hearts_high_from="2", no_hearts_high_heart=-3), Rules(no_hearts_high_from="A", no_hearts_ace=-1)]


def mask(cards) -> np.uint64:
    return reference.to_mask(cards)


def engine_legal(hand, trick, contract, trump, rules):
    """``legal_mask`` called as the play loop calls it, for a trick given as a list of cards."""
    arr = rules.to_array()
    led = trick[0] // 13 if trick else 0
    trumps = [c for c in trick if contract == TRUMPS and c // 13 == trump]
    top = max(trumps) if trumps else -1
    m = legal_mask(mask(hand), len(trick), led, lead_restriction(contract, arr), forced_discard(contract, arr),
                   contract, trump, top, arr)
    return set(cards_of(m))


def random_situations(n, seed):
    """(hand, trick) pairs: a hand of 1..13 cards and a trick of 0..3 cards from the rest, suits bunched
    so that following, voids, trumps and the hearts come up often."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        deck = rng.permutation(52)
        if rng.random() < 0.5:  # a hand short in some suits
            keep = rng.choice(4, size=int(rng.integers(1, 4)), replace=False)
            deck = np.array([c for c in deck if c // 13 in keep] + [c for c in deck if c // 13 not in keep])
        size = int(rng.integers(1, 14))
        hand = [int(c) for c in deck[:size]]
        rest = [int(c) for c in rng.permutation(deck[size:])]
        trick = rest[:int(rng.integers(0, 4))]
        yield hand, trick


@pytest.mark.parametrize("contract", [NO_TRICKS, NO_QUEENS, NO_LAST_TWO, NO_HEARTS, BARBU, TRUMPS])
def test_legal_cards_match_the_reference(contract):
    compared = 0
    for i, (hand, trick) in enumerate(random_situations(600, contract)):
        rules = RULE_SETS[i % len(RULE_SETS)]
        trump = i % 4
        # Put the king of hearts in some Barbu hands, as the restrictions turn on it.
        if contract == BARBU and i % 2 and reference.KING_OF_HEARTS not in hand + trick:
            hand = hand[:-1] + [reference.KING_OF_HEARTS]
        assert engine_legal(hand, trick, contract, trump, rules) == reference.legal_cards(
            set(hand), trick, contract, trump, rules), (hand, trick, contract, trump, rules)
        compared += 1
    assert compared == 600


@pytest.mark.parametrize("contract", [NO_TRICKS, NO_HEARTS, TRUMPS])
def test_trick_winners_match_the_reference(contract):
    rng = np.random.default_rng(100 + contract)
    compared = 0
    for i in range(500):
        n = int(rng.integers(1, 5))
        pool = rng.permutation(52) if i % 2 else rng.permutation(np.r_[0:26])  # two suits: more ruffs
        trick = [int(c) for c in pool[:n]]
        trump = i % 4
        want = reference.trick_winner_index(trick, contract, trump)
        assert trick_winner(np.array(trick + [0] * (4 - n), np.int64), n, contract, trump) == want
        # The play loop's card-by-card rule reaches the same winner.
        best = 0
        for k in range(1, n):
            if beats(trick[k], trick[k] // 13, trick[best], trick[best] // 13, contract, trump):
                best = k
        assert best == want, (trick, contract, trump)
        compared += 1
    assert compared == 500


def test_trick_points_match_the_reference():
    rng = np.random.default_rng(7)
    compared = 0
    for contract in (NO_TRICKS, NO_QUEENS, NO_LAST_TWO, NO_HEARTS, BARBU, TRUMPS):
        for trick_no in range(13):
            for _ in range(20):
                trick = [int(c) for c in rng.permutation(52)[:4]]
                if rng.random() < 0.3:  # make the scoring cards common
                    trick[0] = int(rng.choice([reference.KING_OF_HEARTS, reference.ACE_OF_HEARTS, 10, 23, 36, 49]))
                    trick = list(dict.fromkeys(trick))
                want = reference.trick_score(contract, trick_no + 1, trick)
                assert trick_points(contract, trick_no, mask(trick)) == want, (contract, trick_no, trick)
                compared += 1
    assert compared == 6 * 13 * 20


def test_trick_values_under_every_value_option_match_the_reference():
    rng = np.random.default_rng(8)
    compared = 0
    for rules in VALUE_SETS:
        arr = rules.to_array()
        for contract in (NO_TRICKS, NO_QUEENS, NO_LAST_TWO, NO_HEARTS, BARBU, TRUMPS):
            for trick_no in range(13):
                for _ in range(6):
                    trick = [int(c) for c in rng.permutation(52)[:4]]
                    if rng.random() < 0.5:  # many hearts and queens
                        trick = [int(c) for c in rng.choice(list(range(26, 39)) + [10, 23, 49], 4, replace=False)]
                    want = reference.trick_score(contract, trick_no + 1, trick, rules)
                    assert trick_value(contract, trick_no, mask(trick), arr) == want, (rules, contract, trick_no, trick)
                    # the state array's uint64 copy of the rules (what the mc player passes) reads the same
                    assert trick_value(contract, trick_no, mask(trick), arr.astype(np.uint64)) == want
                    compared += 1
    assert compared == len(VALUE_SETS) * 6 * 13 * 6


def test_trick_values_worked_out_by_hand():
    # No Hearts -2 for 2-9, -4 for 10-A (high-hearts-4): 9♥ 10♥ K♥ A♥ = -2 - 4 - 4 - 4; the odd values:
    # 2♥ -1, J♥ -4, 10♥ -1 (high from J), A♥ -9; No Last Two -12 and -12; the K♥ -23; Trumps +7.
    nine, ten, jack, king, ace, two = (2 * 13 + r for r in (7, 8, 9, 11, 12, 0))
    assert trick_value(NO_HEARTS, 0, mask([nine, ten, king, ace]), PRESETS["high-hearts-4"].to_array()) == -14
    odd = ODD_VALUES.to_array()
    assert trick_value(NO_HEARTS, 0, mask([two, jack, ten, ace]), odd) == -1 - 4 - 1 - 9
    assert [trick_value(NO_LAST_TWO, t, mask([0]), PRESETS["last-two-12"].to_array()) for t in (10, 11, 12)] == \
        [0, -12, -12]
    assert trick_value(BARBU, 0, mask([king]), odd) == -23 and trick_value(TRUMPS, 0, mask([0]), odd) == 7
    assert trick_value(NO_QUEENS, 0, mask([10, 23]), PRESETS["positive-penalties"].to_array()) == 12


def test_trick_points_worked_out_by_hand():
    # No Tricks -2 a trick; No Queens -6 a queen; No Last Two -10 / -20 for tricks 12 / 13;
    # No Hearts -2 a heart and -4 more for the ace; Barbu -20 for the king of hearts; Trumps +5.
    qs, qh, ah, kh, two_h = 10, 2 * 13 + 10, 2 * 13 + 12, 2 * 13 + 11, 2 * 13
    assert trick_points(NO_TRICKS, 0, mask([0, 1, 2, 3])) == -2
    assert trick_points(NO_QUEENS, 4, mask([qs, qh, 0, 1])) == -12
    assert [trick_points(NO_LAST_TWO, t, mask([0])) for t in (10, 11, 12)] == [0, -10, -20]
    assert trick_points(NO_HEARTS, 0, mask([two_h, ah, qh, 0])) == -2 - 6 - 2
    assert trick_points(BARBU, 3, mask([kh, 0])) == -20 and trick_points(BARBU, 3, mask([ah, 0])) == 0
    assert trick_points(TRUMPS, 12, mask([0])) == 5


def test_a_hand_is_over_only_when_no_penalty_card_is_left():
    rng = np.random.default_rng(3)
    compared = 0
    for contract in (NO_TRICKS, NO_QUEENS, NO_LAST_TWO, NO_HEARTS, BARBU, TRUMPS):
        for _ in range(200):
            played = {int(c) for c in rng.permutation(52)[:int(rng.integers(0, 53))]}
            if rng.random() < 0.3:
                played |= reference.QUEENS if contract == NO_QUEENS else reference.ALL_HEARTS
            assert bool(hand_over(contract, mask(played))) == reference.penalties_exhausted(contract, played)
            compared += 1
    assert compared == 1200


@pytest.mark.parametrize("start", range(13))
def test_domino_playable_cards_match_the_reference(start):
    rng = np.random.default_rng(start)
    compared = 0
    for _ in range(30):
        playable, down, up = domino_openers(start)
        table = set()
        for _ in range(52):
            want = {c for c in range(52) if c not in table and reference.domino_playable(c, start, table)}
            assert set(cards_of(playable)) == want, (start, sorted(table))
            card = int(rng.choice(sorted(want)))
            table.add(card)
            playable = domino_playable(playable, np.uint64(1) << np.uint64(card), down, up)
            compared += 1
        assert playable == 0
    assert compared == 30 * 52


@pytest.mark.parametrize("start", range(13))
def test_domino_with_the_ace_low_matches_the_reference(start):
    # The ace below the 2: a column opens downward from the 2 to the ace, and the K ends it at the top.
    rng = np.random.default_rng(50 + start)
    compared = 0
    for _ in range(20):
        playable, down, up, wrap_down, wrap_up = domino_openers_low(start)
        table = set()
        for _ in range(52):
            want = {c for c in range(52) if c not in table and reference.domino_playable(c, start, table, True)}
            assert set(cards_of(playable)) == want, (start, sorted(table))
            assert domino_position(start, mask(table), True)[0] == playable
            card = int(rng.choice(sorted(want)))
            table.add(card)
            b = np.uint64(1) << np.uint64(card)
            playable = domino_playable(playable, b, down, up) | domino_wrap(b, wrap_down, wrap_up)
            column = [c for c in reference.column_order(card // 13, True) if c in table]
            lane = int(mask(c % 13 for c in column))
            assert domino_ends(np.uint64(lane), True) == (column[0] % 13, column[-1] % 13)
            compared += 1
        assert playable == 0
    assert compared == 20 * 52


def test_domino_ace_low_worked_out_by_hand():
    # From the 7 with the ace low: the 2 opens the A; the K opens nothing (high: the K opens the A).
    two_c, king_c, ace_c = 0, 11, 12
    playable, down, up, wrap_down, wrap_up = domino_openers_low(5)
    assert domino_wrap(np.uint64(1) << np.uint64(two_c), wrap_down, wrap_up) == np.uint64(1) << np.uint64(ace_c)
    assert domino_playable(np.uint64(0), np.uint64(1) << np.uint64(king_c), down, up) == 0
    _, down_h, up_h = domino_openers(5)
    assert domino_playable(np.uint64(0), np.uint64(1) << np.uint64(king_c), down_h, up_h) \
        == np.uint64(1) << np.uint64(ace_c)
    # From the ace: the ace opens the 2, the 2 the 3.
    playable, down, up, wrap_down, wrap_up = domino_openers_low(12)
    assert set(cards_of(playable)) == {12, 25, 38, 51}
    assert domino_wrap(np.uint64(1) << np.uint64(ace_c), wrap_down, wrap_up) == np.uint64(1) << np.uint64(two_c)
    assert domino_ends(np.uint64(0b1_0000_0000_0011), True) == (12, 1)  # A, 2, 3 down: the ace is the low end
    assert domino_ends(np.uint64(0b1_0000_0000_0011), False) == (0, 12)


def test_domino_start_fixed_by_the_rules():
    assert domino_start(3, Rules().to_array()) == 3
    assert domino_start(3, PRESETS["domino-from-7"].to_array()) == 5
    assert domino_start(0, Rules(domino_start="fixed:A").to_array()) == 12
