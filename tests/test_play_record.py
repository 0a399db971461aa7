"""What ``barbu-sim play`` prints: the Domino layout at the end, under either rank of the ace."""

import re

import pytest

from barbu_sim.barbu.api import play_deal
from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.state import PASS
from barbu_sim.barbu.formats.deal_text import format_record
from barbu_sim.barbu.rules import DOMINO, PRESETS, Rules
from barbu_sim.core.cards import RANK_NAMES, SUIT_LETTERS


def _columns(result, ace_low: bool) -> dict:
    """Each suit's column at the end, worked out from the cards played: 'LOW..HIGH' or 'not opened'."""
    order = ["A", *RANK_NAMES[:-1]] if ace_low else list(RANK_NAMES)
    out = {}
    for suit in range(4):
        ranks = [RANK_NAMES[c % 13] for c in result.cards.tolist() if c != PASS and c // 13 == suit]
        places = sorted(order.index(r) for r in ranks)
        assert places == list(range(places[0], places[0] + len(places))) if places else True  # a column is a run
        out[SUIT_LETTERS[suit]] = f"{order[places[0]]}..{order[places[-1]]}" if places else "not opened"
    return out


@pytest.mark.parametrize("rules, start", [(PRESETS["domino-ace-low"], 1), (PRESETS["domino-ace-low"], 11),
                                          (Rules(), 1), (Rules(), 5)])
def test_the_domino_layout_at_the_end_follows_the_ace(rules, start):
    low = rules.domino_ace == "low"
    aces = 0
    for i in range(4):
        result = play_deal(random_deal(5, i), DOMINO, "heuristic", param=start, declarer=i % 4, rules=rules, seed=5,
                           index=i)
        text = format_record(result, rules)
        shown = dict(re.findall(r"^    ([SHDC]): (.+)$", text, re.M))
        assert shown == _columns(result, low)
        aces += sum(v.startswith("A..") if low else v.endswith("..A") for v in shown.values())
        if low:
            assert not any(v.endswith("..A") for v in shown.values())  # the ace is below the 2: never a column's top
    assert aces  # the ace was reached in some column
