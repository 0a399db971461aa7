"""The score sheet worked out by hand: its totals are settled scores, its marks name the declarer, its
Domino check (``barbu/game/sheet.py``)."""

import numpy as np
import pytest

from barbu_sim.barbu.table.sheet import ScoreKeeper, doubles_text, format_sheet, parse_entry
from barbu_sim.barbu.rules import Rules


def test_totals_add_the_settled_scores():
    keeper = ScoreKeeper(Rules(), 0)
    # North declares Barbu; East doubles North and takes the king: raw N 0, E -20.  One double between them:
    # North +20, East -20 settled, so N +20, E -40 in all.
    keeper.add(*parse_entry("barbu E>N 0 -20 0 0"))
    sheet = format_sheet(keeper.hands)
    assert sheet.splitlines()[-1] == "Totals: N +20  E -40  S +0  W +0   (sum -20)"
    assert "E>N*" in sheet


def test_a_star_marks_a_double_of_the_declarer_only():
    doubles = np.zeros((4, 4), bool)
    doubles[1][0] = doubles[0][1] = doubles[2][3] = True  # E doubles N (declarer), N redoubles E, S doubles W
    assert doubles_text(doubles, 0) == "N>E E>N* S>W"


def test_domino_pays_by_finishing_order():
    # 20 20 20 5 adds up to 65 and each is a Domino score, but the payout 45 / 20 / 5 / -5 pays one of each
    keeper = ScoreKeeper(Rules(), 0)
    with pytest.raises(ValueError, match="Domino pays"):
        keeper.add(*parse_entry("domino:7 20 20 20 5"))
    assert keeper.add(*parse_entry("domino:7 20 45 -5 5")).raw.tolist() == [20, 45, -5, 5]
