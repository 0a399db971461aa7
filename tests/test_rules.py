import dataclasses

import pytest

from barbu_sim.barbu.rules import (
    CONTRACTS, PRESETS, R_DOMINO_PAYOUT, R_TRUMPS_OVERTRUMP, Rules, describe_rules, load_rules,
    parse_contract, parse_option_pairs,
)


def test_defaults_are_the_spec():
    r = Rules()
    assert (r.rotation, r.barbu_heart_lead, r.barbu_forced_discard) == ("declarer-block", "king-only", False)
    assert (r.trumps_void, r.trumps_overtrump, r.domino_payout) == ("must-trump", False, (45, 20, 5, -5))
    assert [r.contract_total(c) for c in range(7)] == [-26, -24, -30, -30, -20, 65, 65]
    assert PRESETS["default"] == r


def test_contract_scores_worked_out_by_hand():
    # What one seat can score in one hand, from the rules: No Tricks -2 a trick (0..13 tricks); No Queens
    # -6 a queen (0..4); No Last Two -10 and -20 for the last two tricks; No Hearts -2 a heart and -4 more
    # for the ace (0..12 hearts without the ace: 0..-24; 1..13 with it: -6..-30); Barbu -20 for the king;
    # Trumps +5 a trick; Domino one place of the payout.
    r = Rules()
    assert sorted(r.seat_scores(0)) == list(range(-26, 1, 2))
    assert sorted(r.seat_scores(1)) == [-24, -18, -12, -6, 0]
    assert sorted(r.seat_scores(2)) == [-30, -20, -10, 0]
    assert sorted(r.seat_scores(3)) == sorted(set(range(-24, 1, 2)) | set(range(-30, -5, 2)))
    assert min(r.seat_scores(3)) == -30 and -28 in r.seat_scores(3) and -26 in r.seat_scores(3)
    assert sorted(r.seat_scores(4)) == [-20, 0]
    assert sorted(r.seat_scores(5)) == list(range(0, 66, 5))
    assert sorted(r.seat_scores(6)) == [-5, 5, 20, 45]
    # The totals: 13 tricks x -2; 4 queens x -6; -10 - 20; 13 hearts x -2 - 4; -20; 13 x 5; 45 + 20 + 5 - 5.
    assert [r.contract_total(c) for c in range(7)] == [-26, -24, -30, -30, -20, 65, 65]
    house = Rules(domino_payout=(50, 20, 0, -5))
    assert house.contract_total(6) == 65 and sorted(house.seat_scores(6)) == [-5, 0, 20, 50]
    house = Rules(domino_payout=(40, 10, 0, -10))
    assert house.contract_total(6) == 40 and house.contract_total(5) == 65


def test_contract_names():
    assert [parse_contract(n) for n in CONTRACTS] == list(range(7))
    assert parse_contract("No_Queens") == 1
    with pytest.raises(ValueError, match="unknown contract 'hearts'"):
        parse_contract("hearts")


def test_options_and_errors():
    r = Rules().with_options(**{"trumps-overtrump": "on", "domino-payout": "50,20,0,-5"})
    assert r.trumps_overtrump is True and r.domino_payout == (50, 20, 0, -5)
    a = r.to_array()
    assert a[R_TRUMPS_OVERTRUMP] == 1 and list(a[R_DOMINO_PAYOUT:R_DOMINO_PAYOUT + 4]) == [50, 20, 0, -5]
    with pytest.raises(ValueError, match="unknown option"):
        Rules().with_options(trump_colour="red")
    with pytest.raises(ValueError, match="on or off"):
        Rules(trumps_overtrump="maybe")
    with pytest.raises(ValueError, match="four numbers"):
        Rules(domino_payout="1,2,3")
    with pytest.raises(ValueError, match="rotation"):
        Rules(rotation="random")
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_option_pairs(["trumps-overtrump"])


def test_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'trumps_void'"):
        Rules().trumps_void = "free"


def test_presets_and_toml(tmp_path):
    assert load_rules("strict-barbu").barbu_forced_discard
    f = tmp_path / "house.toml"
    f.write_text('preset = "overtrump"\ntrumps-void = "free"\ndomino-payout = [40, 20, 10, -5]\n')
    r = load_rules(str(f))
    assert r.trumps_overtrump and r.trumps_void == "free" and r.domino_payout == (40, 20, 10, -5)
    assert load_rules(str(f), {"trumps-void": "must-trump"}).trumps_void == "must-trump"
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = = not toml")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_rules(str(bad))
    with pytest.raises(ValueError, match="cannot read"):
        load_rules(str(tmp_path / "missing.toml"))
    with pytest.raises(ValueError, match="unknown rules preset"):
        load_rules("casino")


def test_describe_rules_lists_every_option():
    text = describe_rules(load_rules("overtrump"))
    for word in ("no-last-two", "trumps-overtrump", "on", "preset: overtrump", "+45, +20, +5, -5"):
        assert word in text
