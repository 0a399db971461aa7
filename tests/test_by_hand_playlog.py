"""What a played-deal file says, line by line, for a deal worked out by hand (``barbu/played/deal_file.py``)."""

from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.formats.deal_file import PlayedDeal, format_played_deal, parse_played_deals
from barbu_sim.barbu.rules import BARBU, Rules


def lines_of(deal):
    return format_played_deal(deal).splitlines()


def test_seed_index_and_hand_are_written_and_read_back():
    deal = PlayedDeal(random_deal(1, 0), BARBU, 0, 2, seed=0, index=5, hand_no=3, unfinished=True)
    lines = lines_of(deal)
    assert "seed: 0" in lines and "index: 5" in lines  # deal 5 of seed 0: the index matters though the seed is 0
    assert "hand: 4" in lines  # hands are numbered from 1 in the file
    back = parse_played_deals("\n".join(lines))[0]
    assert (back.seed, back.index, back.hand_no, back.declarer) == (0, 5, 3, 2)


def test_only_the_options_that_differ_from_the_default_are_written():
    deal = PlayedDeal(random_deal(1, 0), BARBU, 0, 0, rules=Rules(barbu_king=-30), unfinished=True)
    options = [ln for ln in lines_of(deal) if ln.startswith("option:")]
    assert options == ["option: barbu-king=-30"]
    assert parse_played_deals(format_played_deal(deal))[0].rules.barbu_king == -30
