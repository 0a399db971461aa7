"""barbu-sim sheet: a real table's score typed hand by hand, checked, settled, saved for verify-games."""

import polars as pl
import pytest
from cli_checks import invoke
from typer.testing import CliRunner

from barbu_sim.barbu.rules.choices import param_name
from barbu_sim.barbu.game.game import play_game
from barbu_sim.barbu.game.game_runs import hand_rows
from barbu_sim.barbu.game.policies import make_players
from barbu_sim.barbu.table.sheet import ScoreKeeper, parse_entry
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
    assert check.output.strip() == "1 game(s) follow the rules."
    saved = pl.read_parquet(out / "hands.parquet")
    expected = pl.DataFrame(hand_rows(game)).with_columns(pl.col(c).cast(saved.schema[c]) for c in saved.columns)
    assert saved.height == 28 and saved.equals(expected.select(saved.columns))
    csv = pl.read_csv(out / "sheet.csv")  # the sheet as printed: the running totals end at the game's
    assert csv.height == 28 and csv["hand"].to_list() == list(range(1, 29))
    assert [csv[f"{s} total"][-1] for s in SEAT_LETTERS] == [int(t) for t in totals]
    assert csv["N raw"].to_list() == [int(h.raw[0]) for h in game.hands]


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
    assert result.output.index("Totals: N -8  E -12  S -18  W -12") < result.output.index("Hand 3 >")  # reprinted
    rows = pl.read_parquet(out / "hands.parquet")
    assert rows["contract"].cast(pl.String).to_list() == ["no-tricks", "no-queens", "barbu"]
    check = invoke("verify-games", out / "hands.parquet")  # a game in progress: checked so far, the rest said
    assert check.exit_code == 0, check.output
    assert check.output.splitlines() == [
        "Game 0 is in progress: its 3 hand(s) follow the rules so far; 25 still to play, the 4th to the 28th:",
        "  N declares 4 more (no-last-two, no-hearts, trumps, domino); compulsory doubles owed to N: 2 from each "
        "opponent",
        "  E declares 7 more (every contract); compulsory doubles owed to E: 2 from each opponent",
        "  S declares 7 more (every contract); compulsory doubles owed to S: 2 from each opponent",
        "  W declares 7 more (every contract); compulsory doubles owed to W: 2 from each opponent"]


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


@pytest.mark.parametrize("line, contract, param", [
    ("no tricks -8 -6 -6 -6", "no-tricks", None), ("No-Tricks -8 -6 -6 -6", "no-tricks", None),
    ("notricks -8 -6 -6 -6", "no-tricks", None), ("NO_TRICKS -8 -6 -6 -6", "no-tricks", None),
    ("no last two E>N 0 -30 0 0", "no-last-two", None), ("No King of Hearts 0 -20 0 0", "barbu", None),
    ("trumps:H 20 15 20 10", "trumps", "H"), ("trumps ♥ 20 15 20 10", "trumps", "H"),
    ("Trumps h S>N 20 15 20 10", "trumps", "H"), ("domino 7 45 20 5 -5", "domino", "7"),
    ("domino from 10 45 20 5 -5", "domino", "10"), ("fan tan:Q 45 20 5 -5", "domino", "Q"),
])
def test_contracts_are_read_as_people_type_them(line, contract, param):
    c, p, doubles, raw = parse_entry(line)
    assert CONTRACTS[c] == contract and param_name(c, p) == param and len(raw) == 4
    assert doubles == ({(1, 0)} if "E>N" in line else {(2, 0)} if "S>N" in line else set())


@pytest.mark.parametrize("line, needle", [
    ("no trick -8 -6 -6 -6", "unknown contract 'no trick'"),
    ("domino 45 20 5 -5", "name the starting rank"),
    ("trumps 20 15 20 10", "name the trump suit"),
    ("trumps hearts 20 15 20 10", "unknown suit 'hearts'"),
    ("no tricks:H -8 -6 -6 -6", "no-tricks takes no suit or rank"),
])
def test_a_contract_that_cannot_be_read_is_refused_in_one_line(line, needle):
    with pytest.raises(ValueError, match=needle):
        parse_entry(line)


def test_player_names_are_kept_with_the_sheet_shown_and_exported(tmp_path):
    import json

    out = tmp_path / "s"
    result = sheet(out, ["barbu E>N 0 -20 0 0", "quit"], "--names", "Ann, Bob,Cy,Di")
    assert result.exit_code == 0, result.output
    assert "Players: N Ann  E Bob  S Cy  W Di" in result.output
    assert "Hand 2: N Ann declares" in result.output and "owed to N: E Bob 1, S Cy 2, W Di 2" in result.output
    assert "Totals: N Ann +20  E Bob -40  S Cy +0  W Di +0   (sum -20)" in result.output
    assert json.loads((out / "summary.json").read_text())["players"] == {"N": "Ann", "E": "Bob", "S": "Cy", "W": "Di"}
    assert pl.read_csv(out / "sheet.csv").columns[4:7] == ["N Ann raw", "N Ann +/-", "N Ann total"]
    result = sheet(out, ["names Ann,Bob,Cyril,Di", "no-tricks -8 -6 -6 -6"])  # taken up with its names; renamed
    assert "Taken up: 1 hands" in result.output and "Totals: N Ann +20  E Bob -40" in result.output
    assert "Totals: N Ann +12  E Bob -46  S Cyril -6  W Di -6" in result.output
    assert json.loads((out / "summary.json").read_text())["players"]["S"] == "Cyril"
    result = sheet(out, ["names Ann,Bob", "quit"])
    assert "Refused: name the four players N, E, S, W" in result.output
    result = sheet(out, ["quit"], "--names", "Ann,Bob,Cy,Dora")  # renamed on the command line, no hand typed
    assert "W Dora" in result.output and pl.read_csv(out / "sheet.csv").columns[-1] == "W Dora total"
    assert json.loads((out / "summary.json").read_text())["players"]["W"] == "Dora"


@pytest.mark.parametrize("names, needle", [
    ("Ann,Bob,Cy", "name the four players"), ("Ann,Bob,,Di", "the player at S has an empty name"),
    ("Ann,Bob,Cy,ann", "two players are named 'Ann'"), ("Ann,Bob,Cy,Bartholomew-Di", "longer than 12"),
])
def test_bad_names_are_a_one_line_error(tmp_path, names, needle):
    from cli_checks import assert_clean_error
    assert_clean_error(sheet(tmp_path / "s", ["quit"], "--names", names), needle)
    assert not (tmp_path / "s").exists()


def test_verify_games_checks_a_game_in_progress_by_the_same_rules(tmp_path, game):
    rows = pl.DataFrame(hand_rows(game))
    path = tmp_path / "hands.parquet"

    def verify(frame):
        frame.write_parquet(path)
        return invoke("verify-games", path)

    first = SEAT_LETTERS[game.first]
    second = SEAT_LETTERS[game.hands[7].declarer]
    result = verify(rows.head(10))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == ("Game 0 is in progress: its 10 hand(s) follow the rules so far; 18 still to play, "
                        "the 11th to the 28th:")
    left = ", ".join(CONTRACTS[c] for c in sorted(h.contract for h in game.hands[10:14]))
    assert lines[1].startswith(f"  {second} declares 4 more ({left}); compulsory doubles owed to {second}:")
    assert first not in "".join(line.split()[0] for line in lines[1:])  # the first declarer's block is over
    # The same rules as a whole game: a wrong settlement, a compulsory double left out.
    from cli_checks import assert_clean_error
    bumped = rows.head(10).with_columns(pl.when(pl.col("hand") == 3).then(pl.col("settled_n") + 1)
                                        .otherwise(pl.col("settled_n")).alias("settled_n"))
    assert_clean_error(verify(bumped), "game 0, hand 3: settled scores do not match the doubles")
    assert any(len(d.split(",")) >= 3 for d in rows["doubles"][5:7])  # the block's last hands: every opponent doubles
    no_doubles = rows.head(7).with_columns(pl.when(pl.col("hand") >= 5).then(pl.lit("")).otherwise(pl.col("doubles"))
                                           .alias("doubles"))
    assert_clean_error(verify(no_doubles), "game 0, hand 5:", "must double the declarer")
    # Only the last game of a record may be unfinished.
    two = pl.concat([rows.head(10), rows.with_columns(pl.lit(1, dtype=rows["game"].dtype).alias("game"))])
    assert_clean_error(verify(two), "game 0 has 10 hands, not 28: only the last game of a record may be in progress")
    assert_clean_error(verify(rows.filter(pl.col("hand") != 4).head(9)), "hand 4 is missing (the record has 5 there)")
