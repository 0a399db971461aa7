"""Clabber's scoring worked out by hand: the card points, the melds and their comparison, the bell and the
makers' rule (``clabber/rules/config.py``, ``clabber/rules/melds.py``, ``clabber/players/rollout.round_scores``)."""

import numpy as np
import pytest

from barbu_sim.clabber.rules.melds import hand_melds, team_melds
from barbu_sim.clabber.rules.play_rules import card_points
from barbu_sim.clabber.players.rollout import round_scores
from barbu_sim.clabber.rules import DECK_CARDS, Rules, parse_clabber_cards, parse_clabber_hand
from barbu_sim.clabber.state import S_MAKER, S_RULES, S_TEAM_POINTS, S_TRUMP, STATE_ARRAY_SIZE
from barbu_sim.core.cards import parse_card

C, D, H, S = range(4)
RULES = Rules().to_array()


def points(cards, trump):
    return sum(int(card_points(parse_card(c), trump)) for c in cards.split())


def test_card_points_of_tricks_and_of_the_pack():
    # trumps J 20, 9 14, A 11, 10 10, K 4, Q 3 (62); other suits A 11, 10 10, K 4, Q 3, J 2, 9 0 (30 each)
    assert points("JH 9H AH 10H KH QH", H) == 62
    assert points("AS 10S KS QS JS 9S", H) == 30
    assert points("JH 9S AS 10C", H) == 20 + 0 + 11 + 10
    assert points("9H JS QD KC", H) == 14 + 2 + 3 + 4
    for trump in range(4):
        assert sum(int(card_points(c, trump)) for c in DECK_CARDS) == 152


@pytest.mark.parametrize("hand, trump, melds", [
    ("AS KS QS JS 9H 9D", C, (50, 100 * 4 + 2 * 12)),  # A K Q J: a sequence of four, 50, top card the ace
    ("AS KS QS JS 9H 9D", S, (50, 100 * 4 + 2 * 12 + 1)),  # the same in trumps ranks one higher
    ("AS KS QS JS 10S 9S", C, (100, 100 * 5 + 2 * 12)),  # six in a row: one sequence of five (the top five)
    ("KD QD JD 10C 9C AH", C, (20, 100 * 3 + 2 * 11)),  # K Q J: 20; 10 9 of clubs are only two
    ("JS JH JD JC AS 9H", C, (200, 1000)),  # four jacks
    ("9S 9H 9D 9C AS KD", C, (100, 905)),  # four 9s: the highest of the 100-point fours
])
def test_hand_melds(hand, trump, melds):
    assert tuple(int(x) for x in hand_melds(parse_clabber_hand(hand), trump)) == melds


def team(*hands):
    return np.array([parse_clabber_cards(h) for h in hands], np.uint64)


def test_only_the_team_with_the_highest_meld_scores():
    hands = team("AC KC QC 9H 9D 10H", "AS KS QS 9C 10D JH", "", "")
    # N's A K Q of clubs against E's A K Q of spades: an exact tie scores nobody, unless one is in trumps
    assert tuple(int(x) for x in team_melds(hands, H, RULES)) == (0, 0, 20, 20)
    assert tuple(int(x) for x in team_melds(hands, S, RULES)) == (0, 20, 20, 20)
    assert tuple(int(x) for x in team_melds(hands, C, RULES)) == (20, 0, 20, 20)
    # South's A K Q J of diamonds (50) outranks East's A K Q of spades: N+S score, though North holds nothing
    hands = team("9H 10H AH 9C JC KC", "AS KS QS 9D 10D JH", "AD KD QD JD 9S 10S", "")
    assert tuple(int(x) for x in team_melds(hands, H, RULES)) == (50, 0, 50, 20)


DEALT = ["KH QH 9S 9D 9C 10S", "AH 10H JH AS KS QS", "9H JS AD KD QD JD", "10D AC KC QC JC 10C"]


def scores(team_points, maker, trump=H):
    state = np.zeros(STATE_ARRAY_SIZE, np.uint64)
    state[S_TRUMP], state[S_MAKER] = trump, maker
    state[S_TEAM_POINTS], state[S_TEAM_POINTS + 1] = team_points
    state[S_RULES:S_RULES + len(RULES)] = RULES
    return tuple(int(x) for x in round_scores(state, team(*DEALT)))


def test_a_round_with_melds_bell_and_the_makers_rule():
    # Hearts trumps.  Melds: E's A K Q of spades 20 and W's A K Q J 10 of clubs 100 beat S's A K Q J of
    # diamonds 50: E+W score 120.  North holds K and Q of hearts: the bell, 20 for N+S.
    # Card points 80 / 82: N+S 80 + 20 = 100, E+W 82 + 120 = 202.  N+S made trumps and are not above: 0.
    assert scores((80, 82), maker=0) == (0, 202)
    assert scores((80, 82), maker=1) == (100, 202)  # defenders always score
    # 131 / 31: 151 each.  Makers must be strictly above the defenders: a tie scores them nothing.
    assert scores((131, 31), maker=2) == (0, 151)
    assert scores((131, 31), maker=3) == (151, 0)
    # Clubs trumps: the bell (K and Q of clubs) is West's: 20 for E+W; W's clubs are now a trump sequence.
    assert scores((100, 62), maker=1, trump=C) == (100, 62 + 120 + 20)
