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
