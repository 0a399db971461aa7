"""The learned player's features read the right seats: a hand-built Trumps position whose voids,
declarer and unseen trumps are worked out by hand (``barbu/players/features.py``)."""

import numpy as np
import pytest

from barbu_sim.barbu.players.features import N_FEATURES, trick_card_features
from barbu_sim.barbu.position import Position
from barbu_sim.barbu.rules import TRUMPS
from barbu_sim.core.cards import parse_card, parse_cards, parse_suit

N, E, S, W = range(4)
HANDS = {
    N: "2H 3H 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",  # no spades
    E: "2S 4H KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD",
    S: "3S 5S 7S 8S 9S AH 6H 7H 8H JD QD KD AD",
    W: "4S 6S TS JS QS KS AS 5H 9H TH JH QH KH",
}
# East declares Trumps, hearts trumps.  Trick 1: E 2S, S 3S, W 4S, N ruffs 2H (North shows out of spades).
# Trick 2: N 3H, E 4H, S AH (wins), W 5H.  Trick 3: South leads 5S; West is to play, second.
PLAYS = "2S 3S 4S 2H  3H 4H AH 5H  5S"


@pytest.fixture(scope="module")
def position():
    hands = np.array([parse_cards(HANDS[s]) for s in range(4)], np.uint64)
    pos = Position(hands, TRUMPS, parse_suit("H"), E)
    for card in PLAYS.split():
        pos.play(parse_card(card))
    assert pos.seat == W and pos.n_in_trick == 1
    return pos


def features(pos, card):
    out = np.zeros(N_FEATURES)
    trick_card_features(np.int64(parse_card(card)), np.uint64(pos.legal()), np.uint64(pos.hands[pos.seat]), pos.state,
                        np.int64(-1), out)
    return out


def test_the_seats_still_to_play_are_north_and_east(position):
    x = features(position, "6S")
    assert x[1] == 1.0  # 6S beats the 5S led
    # After West come North (out of spades, not out of hearts: may ruff) and East (holds spades).
    assert x[30] == pytest.approx(1 / 3)  # seats still to play that have shown out of spades
    assert x[40] == pytest.approx(1 / 3)  # of them, those that may ruff
    assert x[15] == 0.0  # West does not lead


def test_trump_features_from_west_who_does_not_declare(position):
    x = features(position, "KH")
    assert x[18] == 1.0  # a trump
    assert x[27] == 0.0  # declarer x trump: East declares, not West
    # Unseen trumps from West's seat: not West's own (9H TH JH QH KH), not played (2H 3H 4H AH 5H): 6H 7H 8H
    assert x[32] == pytest.approx(3 / 13)
    assert x[31] == pytest.approx(5 / 13)  # West's own trumps
    assert x[41] == 0.0  # nobody has shown out of hearts
