"""Hand-built positions and deals through the engine's own functions, each checked against the reference."""

import numpy as np
import pytest
from numba import njit

import clabber_reference as ref
from barbu_sim.clabber.api import play_dealt
from barbu_sim.clabber.rules.play_rules import legal_mask
from barbu_sim.clabber.rules import parse_clabber_cards
from barbu_sim.core.bits import lowest_bit
from barbu_sim.core.cards import parse_card

C, D, H, S = range(4)


@njit
def play_low(legal, hand, state, rng):
    return lowest_bit(legal)


def lowest(legal, hand, view, rng):
    return min(legal)


def cards(text):
    return {parse_card(t) for t in text.split()}


def mask(text):
    return parse_clabber_cards(text)


def engine_legal(hand, trick, seats, trump, seat, excuse=False):
    trick_cards = [parse_card(t) for t in trick.split()]
    led = trick_cards[0] // 13 if trick_cards else -1
    top = -1
    if trick_cards:
        win = trick_cards[ref.trick_winner(trick_cards, trump)]
        top = win if win // 13 == trump else -1
    excused = excuse and bool(trick_cards) and seats[ref.trick_winner(trick_cards, trump)] == (seat + 2) % 4
    m = int(legal_mask(mask(hand), len(trick_cards), led, trump, top, excused))
    return {c for c in range(52) if m >> c & 1}


POSITIONS = [  # hand, trick so far, seats that played it, trump, seat to play, partner-excuse
    ("9H AS JC", "KH", [0], S, 1, False),  # follow suit
    ("AS 9S JC", "KH", [0], S, 1, False),  # unable to follow: trump
    ("JS QS AC", "KH 10S", [0, 1], S, 2, False),  # overtrump
    ("QS KS AC", "KH JS", [0, 1], S, 2, False),  # undertrump when unable to beat
    ("AC 9D", "KH", [0], S, 1, False),  # no suit, no trump: anything
    ("9S QS AH", "AS", [0], S, 1, False),  # trump led: beat the highest trump
    ("KS QS AH", "AS", [0], S, 1, False),  # trump led, unable to beat: any trump
    ("9H AH JS", "KH 10H", [0, 1], S, 2, False),  # a plain suit needs no overtaking
    ("JS 9C", "KH 10S QH", [3, 0, 1], S, 2, False),  # partner winning, excuse off: trump anyway
    ("JS 9C", "KH 10S QH", [3, 0, 1], S, 2, True),  # partner winning, excuse on: anything
    ("JS QS", "AS 9H", [0, 1], S, 2, True),  # trump led, partner winning, excuse on: any trump
    ("JS 9C", "KH 10S", [0, 1], S, 2, True),  # an opponent winning: no excuse
]


@pytest.mark.parametrize("hand,trick,seats,trump,seat,excuse", POSITIONS)
def test_legal_cards_of_hand_built_positions(hand, trick, seats, trump, seat, excuse):
    trick_cards = [parse_card(t) for t in trick.split()]
    expected = ref.legal_cards(cards(hand), trick_cards, seats, trump, seat, excuse)
    assert engine_legal(hand, trick, seats, trump, seat, excuse) == expected


DEAL = ["AH KH QH 9C 9D 9S", "KS QS JS 10C 10D AC", "QD JD 10S AS KC QC", "9H 10H JH JC AD KD"]


def deal_masks(hands):
    return np.array([mask(h) for h in hands], np.uint64)


def compare(hands, turned, dealer, policy, ref_policy, forced=None, excuse=False):
    from barbu_sim.clabber.rules import Rules
    engine = play_dealt(deal_masks(hands), parse_card(turned), dealer, policy, play_low, Rules(partner_excuse=excuse),
                        forced=forced)
    reference = ref.play_round([cards(h) for h in hands], parse_card(turned), dealer, [ref_policy] * 4,
                               [lowest] * 4, forced_bidding=forced, partner_excuse=excuse)
    assert engine.row["bid_round"] == reference["bid_round"]
    if reference["bid_round"]:
        assert engine.plays == reference["plays"] and engine.winners == reference["winners"]
        for key, part in (("card", "card_points"), ("meld", "meld_points"), ("bell", "bell"), ("score", "scores")):
            assert [engine.row[f"{key}_ns"], engine.row[f"{key}_ew"]] == reference[part]
    return engine, reference


def test_both_bidding_rounds_and_the_throw_in():
    engine, _ = compare(DEAL, "JC", 3, "threshold:1000", ("threshold", 1000))
    assert engine.row["bid_round"] == 0 and len(engine.bids) == 8
    engine, _ = compare(DEAL, "JC", 3, "threshold:45", ("threshold", 45))
    assert (engine.row["bid_round"], engine.row["maker"], engine.row["trump"]) == (2, 0, H)
    engine, _ = compare(DEAL, "JC", 3, "threshold:50", ("threshold", 50))
    assert (engine.row["bid_round"], engine.row["maker"], engine.row["trump"]) == (2, 1, S)
    engine, _ = compare(DEAL, "JC", 3, "threshold:41", ("threshold", 41))
    assert (engine.row["bid_round"], engine.row["maker"], engine.row["trump"]) == (1, 1, C)


@pytest.mark.parametrize("trump", range(4))
@pytest.mark.parametrize("excuse", [False, True])
def test_hand_built_deal_every_trump(trump, excuse):
    compare(DEAL, "JC", 3, "accept-first", ("accept-first",), forced=(1, 0, trump), excuse=excuse)


def test_meld_tie_and_meld_win_and_bell():
    tie = ["AH KH QH 9C 9D 9S", "AD KD QD 10C 10S AC", "JS 10H JD JC KC QC", "9H JH AS KS QS 10D"]
    engine, _ = compare(tie, "10D", 3, "accept-first", ("accept-first",), forced=(1, 0, C))
    assert engine.row["meld_ns"] == engine.row["meld_ew"] == 0  # three equal A-K-Q sequences, none in trumps
    engine, _ = compare(tie, "10D", 3, "accept-first", ("accept-first",), forced=(1, 0, S))
    assert (engine.row["meld_ns"], engine.row["meld_ew"]) == (0, 40)  # W's trump sequence wins for E+W
    # West holds K and Q of spades: the bell for E+W once both are played.
    assert engine.row["bell_ew"] == 20 and engine.row["bell_ns"] == 0
    fours = ["JC JD JH JS 9C AD", "KS QS 10S 9S AS 10D", "AH KH QH 10H 9H QD", "KC QC 10C AC KD 9D"]
    engine, _ = compare(fours, "9D", 3, "accept-first", ("accept-first",), forced=(1, 1, D))
    # N's four jacks (200) and S's A-K-Q of hearts (20) beat E's A-K-Q of spades.
    assert engine.row["meld_ns"] == 220 and engine.row["meld_ew"] == 0


def test_a_deal_must_be_a_clabber_deal():
    with pytest.raises(ValueError, match="not a Clabber card"):
        play_dealt(np.array([mask(h) for h in DEAL[:3]] + [np.uint64(1)], np.uint64), parse_card("JC"), 3)
    with pytest.raises(ValueError, match="dealer"):
        play_dealt(deal_masks(DEAL), parse_card("AH"), 3)
