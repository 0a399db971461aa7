"""Differential tests: the numba engine and the pure-Python reference agree card by card."""

import numpy as np
import pytest
from numba import njit

from barbu_sim.barbu.engine import reference
from barbu_sim.core.bits import highest_bit, nth_set_bit, popcount
from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.core.cards import cards_of, parse_pbn
from barbu_sim.barbu.api import play_deal
from barbu_sim.barbu.state import STATE_SIZE
from barbu_sim.barbu.rules import BARBU, DOMINO, NO_HEARTS, NO_LAST_TWO, NO_QUEENS, TRUMPS, PRESETS, Rules
from barbu_sim.barbu.players.registry import BUILTINS

STRATS = {name: s.func for name, s in BUILTINS.items()}


def both(hands, contract, param, declarer, rules, names, seed=3, index=0):
    strategies = [STRATS[n] if isinstance(n, str) else n for n in names]
    eng = play_deal(hands, contract, names, param=param, declarer=declarer, rules=rules, seed=seed, index=index)
    ref_scores, ref_tricks, ref_actions, ref_winners = reference.play(
        [cards_of(h) for h in hands], contract, param, declarer, rules, strategies, seed, index)
    assert [tuple(a) for a in zip(eng.seats.tolist(), eng.cards.tolist())] == ref_actions
    assert eng.trick_winners.tolist() == ref_winners
    assert eng.scores.tolist() == ref_scores
    assert eng.tricks.tolist() == ref_tricks
    return eng


def param_for(contract, rng):
    if contract == TRUMPS:
        return int(rng.integers(4))
    if contract == DOMINO:
        return int(rng.integers(13))
    return 0


# Every preset, and sets of options no preset combines (the ace low from the ace itself, odd point values).
RULE_SETS = list(PRESETS.values()) + [
    Rules(trumps_void="free", trumps_overtrump=True), Rules(domino_payout=(50, 20, 0, -5)),
    Rules(domino_ace="low", domino_start="fixed:A", barbu_heart_lead="any"),
    Rules(domino_ace="low", no_hearts_lead="any", no_tricks_per_trick=-3, no_queens_per_queen=-5,
          no_last_two_trick_12=-11, no_last_two_trick_13=-17, no_hearts_per_heart=-1, no_hearts_high_heart=-4,
          no_hearts_high_from="J", no_hearts_ace=-9, barbu_king=-23, trumps_per_trick=7),
]


@pytest.mark.parametrize("contract", range(7))
@pytest.mark.parametrize("strategy", ["random", "heuristic"])
def test_random_deals_agree(contract, strategy):
    rng = np.random.default_rng(contract)
    for i in range(120):
        rules = RULE_SETS[i % len(RULE_SETS)]
        names = [strategy, "random", "heuristic", strategy] if i % 3 == 0 else [strategy] * 4
        both(random_deal(11, i), contract, param_for(contract, rng), i % 4, rules, names, seed=11, index=i)


# Hand-built deals.  Seats N E S W; hands spades.hearts.diamonds.clubs.
SUITED = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def test_each_player_one_suit_no_tricks():
    r = both(parse_pbn(SUITED), 0, 0, 0, Rules(), ["lowest"] * 4)
    # North leads spades every trick and only North holds them: North takes all 13.
    assert r.scores.tolist() == [-26, 0, 0, 0]


def test_no_hearts_lead_restriction_until_only_hearts():
    # East holds only hearts and is on lead after winning: the restriction lifts.
    hands = parse_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    r = both(hands, NO_HEARTS, 0, 1, Rules(), ["lowest"] * 4)
    assert r.cards[0] // 13 == 2  # East leads a heart: it is all they hold
    assert r.scores.tolist() == [0, -30, 0, 0]


# North: 12 spades and K♥; East: 2♠ and the other hearts; South diamonds; West clubs.
KING_DEAL = "N:AKQJT9876543.K.. 2.AQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
KH = 2 * 13 + 11


@njit
def highest(legal, hand, state, rng):
    return highest_bit(legal)


def test_no_hearts_cannot_lead_heart_with_other_cards():
    r = both(parse_pbn(KING_DEAL), NO_HEARTS, 0, 0, Rules(), ["lowest"] * 4)
    assert r.cards[0] // 13 == 3  # K♥ is North's lowest card index, but a spade must be led


def test_barbu_king_lead_only_when_alone():
    for rules in (Rules(), Rules(barbu_heart_lead="no-hearts-unless-only-hearts")):
        r = both(parse_pbn(KING_DEAL), BARBU, 0, 0, rules, ["lowest"] * 4)
        assert r.cards[0] != KH


def test_barbu_forced_discard():
    hands = parse_pbn(KING_DEAL)
    # West leads a club; North, void, holds K♥ and must drop it under the option.
    r = both(hands, BARBU, 0, 3, Rules(barbu_forced_discard=True), [highest] * 4)
    assert r.cards[1] == KH
    assert r.scores.tolist() == [0, 0, 0, -20]
    assert len(r.trick_winners) == 1  # the hand stops once K♥ is taken
    free = both(hands, BARBU, 0, 3, Rules(), [highest] * 4)
    assert free.cards[1] != KH


@pytest.mark.parametrize("rules", [Rules(), Rules(trumps_void="free"), Rules(trumps_overtrump=True),
                                   Rules(trumps_void="free", trumps_overtrump=True)])
def test_trumps_options(rules):
    for i in range(60):
        both(random_deal(21, i), TRUMPS, i % 4, i % 4, rules, ["random"] * 4, seed=21, index=i)


def test_trumps_must_trump_when_void():
    # North has all spades, East all hearts (trumps), South diamonds, West clubs.
    r = both(parse_pbn(SUITED), TRUMPS, 2, 0, Rules(), ["lowest"] * 4)
    assert r.cards[1] // 13 == 2 and r.scores.tolist() == [0, 65, 0, 0]
    free = both(parse_pbn(SUITED), TRUMPS, 2, 0, Rules(trumps_void="free"), ["lowest"] * 4)
    assert free.cards[1] // 13 == 2  # lowest card index of East's hand is still a heart


def test_early_ends():
    # North leads spades; East and South, void, throw their hearts first.
    hands = parse_pbn("N:AKQJT98765432... .AKQJT9..AKQJT98 .8765432.AKQJT9. ..8765432.765432")
    r = both(hands, NO_HEARTS, 0, 0, Rules(), [highest] * 4)
    assert len(r.trick_winners) == 7 and r.scores.tolist() == [-30, 0, 0, 0]
    for contract in (NO_QUEENS, BARBU):
        lengths = []
        for i in range(100):
            r = both(random_deal(8, i), contract, 0, 0, Rules(), ["heuristic"] * 4, seed=8, index=i)
            lengths.append(len(r.trick_winners))
        assert min(lengths) < 13  # some hands stop before the 13th trick


def test_no_last_two_scores_only_last_two_tricks():
    for i in range(40):
        r = both(random_deal(9, i), NO_LAST_TWO, 0, i % 4, Rules(), ["heuristic"] * 4, seed=9, index=i)
        w = r.trick_winners
        expected = [0] * 4
        expected[w[11]] -= 10
        expected[w[12]] -= 20
        assert r.scores.tolist() == expected


def test_domino_passes_and_finishing_order():
    hands = parse_pbn(SUITED)
    r = both(hands, DOMINO, 5, 0, Rules(), ["lowest"] * 4)
    # Each seat holds a whole suit: every seat can always play, no passes; N finishes first.
    assert (r.cards >= 0).all()
    assert r.scores.tolist() == [45, 20, 5, -5]
    passes = 0
    for i in range(80):
        rr = both(random_deal(4, i), DOMINO, i % 13, i % 4, Rules(), ["random"] * 4, seed=4, index=i)
        passes += int((rr.cards < 0).sum())
        assert sorted(rr.scores.tolist()) == [-5, 5, 20, 45]
    assert passes > 0


def test_domino_declarer_without_start_card_passes():
    # Starting rank 2: North, the declarer, holds no 2 and knocks; East opens with a 2.
    r = both(parse_pbn(KING_DEAL), DOMINO, 0, 0, Rules(), ["lowest"] * 4)
    assert (r.seats[0], r.cards[0]) == (0, -1)
    assert r.seats[1] == 1 and r.cards[1] in (2 * 13, 3 * 13)


@njit
def state_hash(legal, hand, state, rng):
    """A card picked by a hash of the whole state array.

    Any difference between what the engine and the reference tell a strategy
    (every ``S_*`` field, at every play) changes the cards played.
    """
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(STATE_SIZE):
        h = (h ^ state[i]) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    n = np.uint64(popcount(legal))
    return nth_set_bit(legal, np.int64(h % n))


@pytest.mark.parametrize("contract", range(7))
def test_state_array_agrees(contract):
    rng = np.random.default_rng(100 + contract)
    for i in range(60):
        rules = RULE_SETS[i % len(RULE_SETS)]
        names = [state_hash] * 4 if i % 2 == 0 else [state_hash, "random", "heuristic", state_hash]
        both(random_deal(5, i), contract, param_for(contract, rng), i % 4, rules, names, seed=5, index=i)


# ---- the rules-of-play options, card by card on hand-built deals
def test_open_leads_let_hearts_and_the_king_be_led():
    # North (12 spades and K♥) leads its highest-index card it may: under open-leads no heart is kept back.
    hands = parse_pbn("N:.AKQJT98765432.. AKQJT98765432... ..AKQJT98765432. ...AKQJT98765432")
    kept = both(hands, NO_HEARTS, 0, 0, Rules(), ["lowest"] * 4)  # North holds only hearts: led anyway
    assert kept.cards[0] // 13 == 2
    r = both(parse_pbn(KING_DEAL), NO_HEARTS, 0, 0, PRESETS["open-leads"], ["lowest"] * 4)
    assert r.cards[0] == KH  # K♥ is North's lowest card index: a heart lead, allowed
    r = both(parse_pbn(KING_DEAL), BARBU, 0, 0, PRESETS["open-leads"], ["lowest"] * 4)
    assert r.cards[0] == KH and r.scores.tolist() == [-20, 0, 0, 0]  # led the king and took it
    r = both(parse_pbn(KING_DEAL), BARBU, 0, 0, Rules(barbu_heart_lead="any", barbu_king=-30), ["lowest"] * 4)
    assert r.scores.tolist() == [-30, 0, 0, 0]


def test_domino_ace_low_on_a_hand_built_deal():
    # Each seat holds a whole suit, dominoes from the 2, each seat playing its highest playable card: with
    # the ace low North's 2♠ opens both the 3♠ and the A♠, and the A♠ goes first; with the ace high the
    # spades go up one at a time, 2 to A.
    hands = parse_pbn(SUITED)
    r = both(hands, DOMINO, 0, 0, Rules(domino_ace="low"), [highest] * 4)
    assert [int(c) for s, c in zip(r.seats, r.cards) if s == 0] == [39, 51] + list(range(40, 51))
    high = both(hands, DOMINO, 0, 0, Rules(), [highest] * 4)
    assert [int(c) for s, c in zip(high.seats, high.cards) if s == 0] == list(range(39, 52))
    # From the ace (ace low): the ace opens, then the 2 .. K.
    r = both(hands, DOMINO, 12, 0, Rules(domino_ace="low"), [highest] * 4)
    assert [int(c) for s, c in zip(r.seats, r.cards) if s == 0] == [51] + list(range(39, 51))


def test_domino_from_a_fixed_rank():
    # The declarer names the 2, but domino-start=fixed:7 plays from the 7 (and the result says so).
    r = both(parse_pbn(SUITED), DOMINO, 0, 0, PRESETS["domino-from-7"], ["lowest"] * 4)
    assert r.param == 5 and r.cards[0] == 3 * 13 + 5
    for i in range(20):
        rr = both(random_deal(6, i), DOMINO, i % 13, i % 4, PRESETS["domino-from-7"], ["random"] * 4, seed=6, index=i)
        first = [int(c) for c in rr.cards if c >= 0][0]
        assert first % 13 == 5


def test_point_values_on_a_hand_built_deal():
    # In SUITED the leader takes every trick: its score is the contract's total at the values in force.
    hands = parse_pbn(SUITED)
    odd = RULE_SETS[-1]
    assert both(hands, 0, 0, 0, odd, ["lowest"] * 4).scores.tolist() == [-39, 0, 0, 0]
    assert both(hands, TRUMPS, 3, 0, odd, ["lowest"] * 4).scores.tolist() == [91, 0, 0, 0]
    assert both(hands, NO_LAST_TWO, 0, 0, PRESETS["last-two-12"], ["lowest"] * 4).scores.tolist() == [-24, 0, 0, 0]
    # East, declarer in No Hearts, holds only hearts: East leads them and takes all 13.
    assert both(hands, NO_HEARTS, 0, 1, PRESETS["high-hearts-4"], ["lowest"] * 4).scores.tolist() == [0, -36, 0, 0]
    assert both(hands, NO_HEARTS, 0, 1, odd, ["lowest"] * 4).scores.tolist() == [0, -(9 * 1 + 3 * 4 + 9), 0, 0]
