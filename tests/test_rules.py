import dataclasses

import pytest
from cli_checks import assert_clean_error, invoke

from barbu_sim.barbu.rules import (
    CONTRACTS, PRESETS, R_DOMINO_PAYOUT, R_TRUMPS_OVERTRUMP, Rules, load_rules, parse_contract, parse_option_pairs,
)
from barbu_sim.barbu.rules.text import describe_presets, describe_rules


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


def test_every_point_value_is_an_option():
    r = Rules().with_options(**{"no-tricks-per-trick": "-3", "no-queens-per-queen": -5, "no-last-two-trick-12": -12,
                                "no-last-two-trick-13": "-12", "no-hearts-high-heart": -4, "no-hearts-ace": -4,
                                "barbu-king": -25, "trumps-per-trick": 6})
    # 13 x -3; 4 x -5; -12 - 12; 8 x -2 + 4 x -4 - 4; -25; 13 x 6
    assert [r.contract_total(c) for c in range(7)] == [-39, -20, -24, -36, -25, 78, 65]
    assert r.block_total() == -39 - 20 - 24 - 36 - 25 + 78 + 65
    assert sorted(r.seat_scores(2)) == [-24, -12, 0]
    assert sorted(r.seat_scores(4)) == [-25, 0]
    assert min(r.seat_scores(3)) == -36 and max(r.seat_scores(3)) == 0
    # the high hearts start where the option says: from the J, 2..10 cost -1, J..K -3
    h = Rules(no_hearts_per_heart=-1, no_hearts_high_heart=-3, no_hearts_high_from="J")
    assert h.contract_total(3) == 9 * -1 + 3 * -3 - 6 and -9 - 9 - 6 in h.seat_scores(3)
    assert Rules().to_dict()["no-hearts-high-from"] == "10"
    assert Rules(no_hearts_high_from="j").no_hearts_high_from == "J"


@pytest.mark.parametrize("options, needle", [
    (dict(trumps_overtrump="maybe"), "on or off"),
    (dict(domino_payout="1,2,3"), "four numbers"),
    (dict(rotation="random"), "rotation"),
    (dict(no_queens_per_queen=1.5), "no-queens-per-queen: 1.5 is not an integer"),
    (dict(barbu_king=True), "barbu-king: True is not an integer"),
    (dict(barbu_king=-10_001), "outside -10,000..10,000"),
    # each value fits, but 13 tricks of -800 would not fit a hand's score
    (dict(no_tricks_per_trick=-800), "no-tricks: these values let one seat score 10,400"),
    (dict(no_hearts_high_from="1"), "not a rank"),
    (dict(domino_start="seven"), "declarer-choice or fixed:RANK"),
    (dict(domino_ace="middle"), "domino-ace: 'middle' is not one of high, low"),
    (dict(best_total="median"), "best-total"),
])
def test_option_values_are_validated(options, needle):
    with pytest.raises(ValueError, match=needle):
        Rules(**options)


def test_a_fixed_domino_start_is_read():
    assert Rules(domino_start="fixed:q").fixed_domino_start == 10 and Rules().fixed_domino_start is None


def test_rules_array_holds_every_option():
    from barbu_sim.barbu import rules as mod
    a = PRESETS["positive-penalties"].to_array()
    assert a[mod.R_NO_TRICKS_TRICK] == 2 and a[mod.R_TRUMPS_TRICK] == -5 and a[mod.R_BEST_TOTAL] == 1
    a = Rules(domino_ace="low", domino_start="fixed:7", no_hearts_lead="any", barbu_heart_lead="any").to_array()
    assert (a[mod.R_DOMINO_ACE], a[mod.R_DOMINO_START], a[mod.R_NO_HEARTS_LEAD],
            a[mod.R_BARBU_HEART_LEAD]) == (1, 6, 1, 2)
    assert len(a) == mod.RULES_ARRAY_SIZE
    # no two options share an entry (the payout's four entries follow R_DOMINO_PAYOUT)
    indices = [v for k, v in vars(mod).items() if k.startswith("R_")] + [mod.R_DOMINO_PAYOUT + k for k in (1, 2, 3)]
    assert len(indices) == len(set(indices)) and max(indices) < mod.RULES_ARRAY_SIZE


def test_presets_totals_and_zero_sum():
    totals = {name: [r.contract_total(c) for c in range(7)] for name, r in PRESETS.items()}
    assert totals["high-hearts-4"][3] == -36 and PRESETS["high-hearts-4"].block_total() == -6
    assert totals["last-two-12"][2] == -24 and PRESETS["last-two-12"].block_total() == 6
    assert PRESETS["high-hearts-4-last-two-12"].block_total() == 0
    assert totals["positive-penalties"] == [26, 24, 30, 30, 20, -65, -65]
    assert PRESETS["positive-penalties"].lower_is_better
    assert sorted(PRESETS["domino-45-20-10-minus-10"].seat_scores(6)) == [-10, 10, 20, 45]
    text = describe_presets()
    for name in PRESETS:
        assert f"  {name} " in text
    assert "domino-start=fixed:7" in text and "best-total=lowest" in text
    assert "add up to -6: not zero-sum" in describe_rules(PRESETS["high-hearts-4"])
    assert "lower is better" in describe_rules(PRESETS["positive-penalties"])
    assert "-2 per 2-9♥, -4 per 10-K♥, A♥ -4" in describe_rules(PRESETS["high-hearts-4"])


def test_a_rules_file_starts_from_a_preset_and_changes_one_value(tmp_path):
    f = tmp_path / "club.toml"
    f.write_text('preset = "high-hearts-4"\nno-hearts-ace = -8\nno-hearts-high-from = "J"\ndomino-start = "fixed:8"\n')
    r = load_rules(str(f))
    assert (r.no_hearts_high_heart, r.no_hearts_ace, r.no_hearts_high_from, r.fixed_domino_start) == (-4, -8, "J", 6)
    bad = tmp_path / "bad.toml"
    bad.write_text("barbu-king = -20.5\n")
    with pytest.raises(ValueError, match="option barbu-king must be an integer, not a float"):
        load_rules(str(bad))
    bad.write_text("no-hearts-high-from = 10\n")
    with pytest.raises(ValueError, match="option no-hearts-high-from must be a string"):
        load_rules(str(bad))


# ------------------------------------------------------------ the signs of the values agree with best-total
@pytest.mark.parametrize("options, needle", [
    ({"best_total": "lowest"}, "best-total=lowest (the lowest total wins) needs penalties as positive points: "
                               "no-tricks-per-trick is -2"),
    ({"barbu_king": 20}, "best-total=highest (the highest total wins) needs penalties as negative points: "
                         "barbu-king is 20"),
    ({"no_hearts_ace": 6}, "no-hearts-ace is 6"),
    ({"no_last_two_trick_13": 1}, "no-last-two-trick-13 is 1"),
    ({"trumps_per_trick": -5}, "needs Trumps' tricks as positive points: trumps-per-trick is -5"),
    ({"domino_payout": (-45, -20, -5, 5)}, "needs a Domino payout that adds up to 0 or more: "
                                           "domino-payout -45,-20,-5,5 adds up to -65"),
])
def test_the_signs_of_the_values_must_agree_with_best_total(options, needle):
    with pytest.raises(ValueError) as e:
        Rules(**options)
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_contradictory_rules_are_refused_in_rule_files_and_every_command(tmp_path):
    pp = PRESETS["positive-penalties"]
    for field in ("barbu_king", "no_queens_per_queen"):
        with pytest.raises(ValueError, match="needs penalties as positive points"):
            pp.with_options(**{field: -getattr(pp, field)})
    with pytest.raises(ValueError, match="needs Trumps' tricks as negative points: trumps-per-trick is 5"):
        pp.with_options(trumps_per_trick=5)
    with pytest.raises(ValueError, match="domino-payout 45,20,5,-5 adds up to 65"):
        pp.with_options(domino_payout="45,20,5,-5")
    f = tmp_path / "house.toml"
    f.write_text('preset = "positive-penalties"\nbarbu-king = -20\n', encoding="utf-8")
    with pytest.raises(ValueError, match="rules file .*house.toml: best-total=lowest .* barbu-king is -20"):
        load_rules(str(f))
    for args in (["run", "-c", "barbu", "-n", "10", "--out", tmp_path / "r", "-o", "best-total=lowest"],
                 ["run", "-c", "barbu", "-n", "10", "--out", tmp_path / "r", "--rules", f],
                 ["sheet", "--out", tmp_path / "s", "-o", "best-total=lowest"],
                 ["rules", "--rules", "positive-penalties", "-o", "barbu-king=-20"]):
        assert_clean_error(invoke(*args), "best-total=lowest", "barbu-king" if f in args or "rules" in args
                           else "no-tricks-per-trick")
    # zero is neither sign; a value that scores nothing is not read; every preset agrees with itself
    assert Rules(barbu_king=0, trumps_per_trick=0, domino_payout=(10, 0, 0, -10)).barbu_king == 0
    assert Rules(no_hearts_high_from="A", no_hearts_high_heart=3).high_hearts_from == 12
    assert pp.with_options(barbu_king=0, domino_payout="-5,0,0,5").lower_is_better
    assert all(r.best_total in ("highest", "lowest") for r in PRESETS.values())


@pytest.mark.parametrize("value", ["1_000", "-2_0", "\u0661\u0662", "-\u0662", "\uff12", "+ 2"])
def test_integer_options_take_plain_digits_only(value):
    with pytest.raises(ValueError, match="is not an integer"):
        Rules().with_options(**{"barbu-king": value})
    with pytest.raises(ValueError, match="not a list of four integers"):
        Rules().with_options(**{"domino-payout": f"{value},20,5,-5"})
    assert Rules().with_options(**{"barbu-king": " -30 ", "domino-payout": "+45,20,5,-5"}).barbu_king == -30


def test_t_is_a_rank_in_rank_options():
    assert Rules(domino_start="fixed:T").domino_start == "fixed:10" == Rules(domino_start="fixed:t").domino_start
    assert Rules(no_hearts_high_from="T").no_hearts_high_from == "10"
    assert Rules().with_options(**{"no-hearts-high-from": "t"}) == Rules()
