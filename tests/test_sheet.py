"""barbu-sim sheet: a real table's score typed hand by hand, checked, settled, saved for verify-games."""

import polars as pl
import pytest
from cli_checks import invoke
from typer.testing import CliRunner

from barbu_sim.barbu.rules.choices import param_name
from barbu_sim.barbu.game.game import play_game
from barbu_sim.barbu.game.game_runs import hand_rows
from barbu_sim.barbu.game.policies import make_players
from barbu_sim.barbu.game.sheet import ScoreKeeper, parse_entry
from barbu_sim.barbu.rules import CONTRACTS, Rules
from barbu_sim.core.seats import SEAT_LETTERS

runner = CliRunner()


def sheet(out, lines, *args):
    result = runner.invoke(app_(), ["sheet", "--out", str(out), *args], input="".join(f"{x}\n" for x in lines))
    assert "Traceback" not in result.output, result.output
    return result


def app_():
    from barbu_sim.cli import app
    return app


def entry(h) -> str:
    """A hand of a played game as a person types it at the sheet."""
    name = CONTRACTS[h.contract] + (f":{param_name(h.contract, h.param)}" if param_name(h.contract, h.param) else "")
    doubles = [f"{SEAT_LETTERS[a]}>{SEAT_LETTERS[b]}" for a in range(4) for b in range(4) if h.doubles[a][b]]
    return " ".join([name, *doubles, *(str(int(x)) for x in h.raw)])


@pytest.fixture(scope="module")
def game():
    players = make_players(["heuristic"] * 4, ["fixed"] * 4, ["compulsory-only", "always", "compulsory-only", "always"])
    return play_game(3, 0, players)


def test_a_whole_game_typed_in_is_what_verify_games_reads(tmp_path, game):
    out = tmp_path / "sheet"
    result = sheet(out, [entry(h) for h in game.hands], "--first", SEAT_LETTERS[game.first])
    assert result.exit_code == 0, result.output
    assert "The game is complete" in result.output
    assert max(len(line) for line in result.output.splitlines() if str(tmp_path) not in line) <= 100
    totals = game.totals
    assert "Totals: " + "  ".join(f"{SEAT_LETTERS[s]} {int(totals[s]):+d}" for s in range(4)) in result.output
    check = invoke("verify-games", out / "hands.parquet")
    assert check.exit_code == 0, check.output
    saved = pl.read_parquet(out / "hands.parquet")
    expected = pl.DataFrame(hand_rows(game)).with_columns(pl.col(c).cast(saved.schema[c]) for c in saved.columns)
    assert saved.height == 28 and saved.equals(expected.select(saved.columns))


@pytest.mark.parametrize("line, needle", [
    ("barbu E>N W>N 0 -20 0 0", None),
    ("barbu 0 -20 0 0", "N chose barbu for N a second time"),
    ("trumps:H E>S 20 15 20 10", "in trumps E may only double the declarer, not S"),
    ("no-queens N>E 0 -6 -12 -6", "the declarer N may only redouble players who doubled them, not E"),
    ("no-queens 0 -6 -12 -7", "W cannot score -7 in no-queens"),
    ("no-tricks 0 -6 -12 -6", "raw scores add up to -24, not -26"),
    ("domino:7 45 20 20 -5", "Domino pays [-5, 5, 20, 45] by finishing order"),
    ("trumps 20 15 20 10", "name the trump suit, e.g. trumps:H"),
    ("barbu E>N 0 -20", "give four raw scores"),
    ("barbu x 0 -20 0 0", "'x' is neither a double"),
])
def test_each_entry_is_checked(tmp_path, line, needle):
    result = sheet(tmp_path / "s", ["barbu E>N W>N 0 -20 0 0", line] if needle else [line])
    assert result.exit_code == 0
    if needle:
        assert f"Refused: hand 2: {needle}" in result.output or f"Refused: {needle}" in result.output, result.output
        assert "2 hands saved" not in result.output
    else:  # a double settles the difference: N 0 against E -20, W level with N
        assert "   1 N    barbu        E>N* W>N*            0  +20  +20  -20  -20  -40" in result.output


def test_compulsory_doubles_are_enforced():
    keeper = ScoreKeeper(Rules(), 0)
    for line in ("no-tricks -8 -6 -6 -6", "no-queens 0 -6 -12 -6", "no-last-two 0 -30 0 0", "no-hearts -10 -10 -6 -4",
                 "barbu 0 -20 0 0"):
        keeper.add(*parse_entry(line))
    with pytest.raises(ValueError, match="hand 6: S must double the declarer N now"):
        keeper.add(*parse_entry("trumps:S E>N 20 15 20 10"))
    keeper.add(*parse_entry("trumps:S E>N S>N W>N 20 15 20 10"))
    assert len(keeper.hands) == 6 and keeper.referee.remaining(0) == [6]


def test_undo_quit_and_take_up_again(tmp_path):
    out = tmp_path / "s"
    result = sheet(out, ["no-tricks -8 -6 -6 -6", "barbu 0 -20 0 0", "undo", "no-queens 0 -6 -12 -6", "quit"])
    assert "Removed hand 2" in result.output and "2 hands saved" in result.output
    result = sheet(out, ["barbu 0 -20 0 0"])
    assert "Taken up: 2 hands" in result.output and "3 hands saved" in result.output
    rows = pl.read_parquet(out / "hands.parquet")
    assert rows["contract"].cast(pl.String).to_list() == ["no-tricks", "no-queens", "barbu"]
    assert invoke("verify-games", out / "hands.parquet").exit_code == 2  # not a whole game yet: verify says so


def test_where_the_lowest_total_wins_doubles_settle_the_other_way(tmp_path):
    from barbu_sim.barbu.rules import PRESETS
    rules = PRESETS["positive-penalties"]
    keeper = ScoreKeeper(rules, 0)
    hand = keeper.add(*parse_entry("barbu E>N W>N 0 20 0 0"))
    assert hand.settlement.tolist() == [-20, 20, 0, 0]  # North, lower, is the better: its total moves down
    result = sheet(tmp_path / "s", ["barbu E>N W>N 0 20 0 0"], "--rules", "positive-penalties")
    assert "   1 N    barbu        E>N* W>N*            0  -20  -20   20  +20  +40" in result.output


def test_a_sheet_goes_on_under_the_rules_and_first_declarer_it_was_started_with(tmp_path):
    import json

    from cli_checks import assert_clean_error

    from barbu_sim.barbu.rules import PRESETS
    out = tmp_path / "s"
    result = sheet(out, ["no-hearts -36 0 0 0", "quit"], "--rules", "high-hearts-4")  # -36: four points a high heart
    assert "1 hands saved" in result.output, result.output
    result = sheet(out, ["barbu 0 -20 0 0"])  # no --rules: its own, so its hand 1 is taken up
    assert result.exit_code == 0 and "Taken up: 1 hands" in result.output and "2 hands saved" in result.output
    result = sheet(out, ["quit"], "--rules", "high-hearts-4", "--first", "N")  # the same again: no change
    assert result.exit_code == 0 and "Taken up: 2 hands" in result.output
    for args, needle in ((["-o", "trumps-overtrump=on"], "trumps-overtrump=on (the sheet has off)"),
                         (["--rules", "default"], "no-hearts-high-heart=-2 (the sheet has -4)"),
                         (["--first", "E"], "first declarer N, not E")):
        result = sheet(out, ["no-queens 0 -6 -12 -6"], *args)
        assert_clean_error(result, f"the sheet in {out} was started with", needle)
    assert json.loads((out / "summary.json").read_text())["rules"] == PRESETS["high-hearts-4"].to_dict()
    assert pl.read_parquet(out / "hands.parquet").height == 2


def test_a_double_given_twice_is_refused(tmp_path):
    with pytest.raises(ValueError, match="the double E>N is given twice"):
        parse_entry("barbu E>N e>n 0 -20 0 0")
    result = sheet(tmp_path / "s", ["barbu E>N E>N 0 -20 0 0"])
    assert "Refused: the double E>N is given twice" in result.output and "No hand entered" in result.output
