import numpy as np
import pytest

from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.core.cards import (
    cards_of, format_card, format_hand, format_pbn, parse_card, parse_cards, parse_hand, parse_pbn,
    parse_rank, parse_suit, verify_deal,
)
from barbu_sim.core.seats import parse_seat


def test_every_card_round_trips_in_both_styles():
    for c in range(52):
        assert parse_card(format_card(c)) == c
        assert parse_card(format_card(c, symbols=True)) == c


@pytest.mark.parametrize("text,card", [("AS", 51), ("2C", 0), ("10H", 34), ("TH", 34), ("th", 34),
                                       ("♥K", 37), ("K♥", 37), ("♠A", 51), ("qd", 23)])
def test_card_spellings(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize("text,needle", [("1H", "rank"), ("ZS", "rank"), ("AX", "suit"), ("A", "card"),
                                         ("", "card"), ("11S", "rank")])
def test_bad_cards_name_the_problem(text, needle):
    with pytest.raises(ValueError, match=needle):
        parse_card(text)


def test_suits_ranks_seats():
    assert [parse_suit(s) for s in "CDHS"] == [0, 1, 2, 3]
    assert parse_rank("10") == parse_rank("T") == 8
    assert [parse_seat(s) for s in ("N", "e", "South", "3")] == [0, 1, 2, 3]
    for bad, fn in (("X", parse_suit), ("1", parse_rank), ("Q", parse_seat)):
        with pytest.raises(ValueError):
            fn(bad)


def test_hand_parsing_and_sizes():
    h = parse_hand("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S")
    assert format_hand(h) == "AKQJT98765432..."
    assert parse_hand("AKQJT98765432...") == h
    with pytest.raises(ValueError, match="12"):
        parse_hand("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S")
    with pytest.raises(ValueError, match="14"):
        parse_hand("AKQJT98765432.A..")
    with pytest.raises(ValueError, match="duplicate"):
        parse_cards("AS KH AS")
    with pytest.raises(ValueError, match="duplicate"):
        parse_cards("AA...")


def test_pbn_round_trip_from_any_first_seat():
    hands = random_deal(42, 7)
    for first in range(4):
        text = format_pbn(hands, first)
        assert text[0] == "NESW"[first]
        assert (parse_pbn(text) == hands).all()
        assert format_pbn(parse_pbn(text), first) == text


@pytest.mark.parametrize("text,needle", [
    ("N:AKQ.JT9.876.5432", "4 hands"),
    ("X:... ... ... ...", "seat"),
    ("AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432", "seat and a colon"),
    ("N:AKQJT98765432... AKQJT98765432... ..AKQJT98765432. ...AKQJT98765432", "twice"),
    ("N:AKQJT9876543... .AKQJT98765432.. 2..AKQJT98765432. ...AKQJT98765432", "12 cards|14 cards"),
    ("N:AKQJT98765432.. .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432", "4 suits"),
])
def test_bad_pbn(text, needle):
    with pytest.raises(ValueError, match=needle):
        parse_pbn(text)


def test_random_deals_are_reproducible_and_complete():
    a, b = random_deal(5, 123), random_deal(5, 123)
    assert (a == b).all()
    assert not (random_deal(5, 124) == a).all()
    assert not (random_deal(6, 123) == a).all()
    verify_deal(a)
    assert sorted(c for h in a for c in cards_of(h)) == list(range(52))


def test_random_deals_are_uniform_enough():
    # Each card lands in each seat about a quarter of the time.
    counts = np.zeros((4, 52))
    for i in range(4000):
        for s, h in enumerate(random_deal(1, i)):
            counts[s, cards_of(h)] += 1
    assert np.abs(counts / 4000 - 0.25).max() < 0.04
