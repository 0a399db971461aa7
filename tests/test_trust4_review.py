"""Issue 43, the review: nothing hidden at the table shown before the deal is over, a file read within a cap,
``-`` read as standard input, a dangling link at --html kept, a Clabber round without its ``game:`` line
named as one, and a title's control and line-separator characters refused."""

import json
import os

import pytest
from cli_checks import assert_clean_error
from shared_deals import CLABBER_ROUND as ROUND
from test_review_html import NO_TRICKS
from typer.testing import CliRunner

from barbu_sim.barbu.formats import deal_file
from barbu_sim.cli import app

runner = CliRunner()
QUICK = ["--review-samples", "0", "--hint-samples", "0"]
FAST = ["--samples", "2", "--max-samples", "2"]
# A finished deal (NO_TRICKS: the golden playthrough no-tricks.txt) and a Clabber round (ROUND: clabber play
# --seed 3 --record, with its title).


def invoke(*args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output
    return result


@pytest.fixture
def leak(tmp_path, monkeypatch):
    """A table session quit after the player's first card: its deal can still go on (table --resume)."""
    monkeypatch.chdir(tmp_path)
    result = invoke("table", "-c", "barbu", "--seed", 11, "--save", "leak.txt", *QUICK, input="1\nquit\n")
    assert result.exit_code == 0, result.output
    return tmp_path / "leak.txt", result.output


# ---------------------------------------------------------------- 1: no review of a deal that can go on
def test_the_table_quit_does_not_send_the_player_to_review_the_deal_in_play(leak):
    _, said = leak
    assert "barbu-sim table --resume leak.txt" in said
    assert "barbu-sim review" not in said


@pytest.mark.parametrize("how", [[], ["--json"], ["--step"], ["--html", "leak.html"], ["--seat", "S"]])
def test_a_session_whose_deal_can_go_on_is_not_reviewed(leak, how):
    path, _ = leak
    result = invoke("review", path.name, *FAST, *how, input="3H\nq\n")
    assert_clean_error(result, "not over", "barbu-sim table --resume leak.txt")
    assert len([line for line in result.output.splitlines() if line.strip()]) == 1  # no hand, no card shown
    assert "does)" not in result.output
    assert not (path.parent / "leak.html").exists()


def test_the_same_session_read_from_standard_input_is_not_reviewed_either(leak):
    path, _ = leak
    result = invoke("review", "-", *FAST, input=path.read_text())
    assert_clean_error(result, "not over", "table --resume")


def test_a_session_is_reviewed_up_to_its_deal_in_play(leak):
    """The finished deals of a session are over: they are reviewed; the one that can go on is left out, said."""
    path, _ = leak
    table_record, unfinished = path.read_text().split("---\n")
    path.write_text(table_record + "---\n" + NO_TRICKS + "---\n" + unfinished)
    text = invoke("review", path.name, "--seat", "S", *FAST)
    assert text.exit_code == 0, text.output
    assert text.output.count("Review: ") == 1 and "Review: no-tricks" in text.output
    assert "Deal 2 of leak.txt is left out: it is not over (barbu-sim table --resume leak.txt goes on)" in text.output
    as_json = invoke("review", path.name, "--seat", "S", *FAST, "--json")
    assert as_json.exit_code == 0, as_json.output
    assert [r["contract"] for r in json.loads(as_json.stdout)] == ["no-tricks"]
    assert "left out" in as_json.stderr
    page = invoke("review", path.name, "--seat", "S", *FAST, "--html", "s.html")
    assert page.exit_code == 0, page.output
    assert (path.parent / "s.html").exists() and not (path.parent / "s-2.html").exists()


def test_an_unfinished_deal_that_is_no_table_session_is_still_reviewed(leak):
    """A played-deal file marked 'unfinished: yes' by hand (no 'table:' record) cannot be taken up by the table:
    it is a position to study, and its writer typed every hand."""
    path, _ = leak
    path.write_text(path.read_text().split("---\n")[1])
    result = invoke("review", path.name, "--seat", "S", *FAST)
    assert result.exit_code == 0, result.output
    assert "Review: barbu" in result.output


# ---------------------------------------------------------------- 4: what is read is capped
def test_a_file_past_the_cap_is_refused_before_it_is_read_whole(tmp_path):
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:
        f.truncate(deal_file.MAX_RECORD_BYTES + 1)
    assert_clean_error(invoke("review", big), "big.txt is larger than", "MiB")


def test_a_device_that_never_ends_is_refused():
    assert_clean_error(invoke("review", "/dev/zero"), "/dev/zero is larger than")


def test_the_cap_holds_a_whole_game_many_times_over():
    assert deal_file.MAX_RECORD_BYTES >= 100 * 28 * len(NO_TRICKS)


# ---------------------------------------------------------------- 17: stdin, a dangling link, Clabber, titles
def test_review_dash_reads_standard_input(tmp_path):
    result = invoke("review", "-", "--seat", "S", *FAST, input=NO_TRICKS)
    assert result.exit_code == 0, result.output
    assert "Review: no-tricks" in result.output
    clabber = invoke("review", "-", "--seat", "N", "--samples", "2", "--play-samples", "1", "--json", input=ROUND)
    assert clabber.exit_code == 0, clabber.output
    assert "standard input" in invoke("review", "--help").output


def test_review_dash_names_standard_input_in_its_errors_and_leaves_it_to_step():
    assert_clean_error(invoke("review", "-", input="contract: barbu\n"), "standard input")
    assert_clean_error(invoke("review", "-", "--step", input=NO_TRICKS), "--step", "standard input")


def test_a_dangling_link_at_the_html_page_is_kept_without_force(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deal.txt").write_text(NO_TRICKS)
    os.symlink(tmp_path / "nowhere" / "page.html", tmp_path / "page.html")
    result = invoke("review", "deal.txt", "--seat", "S", *FAST, "--html", "page.html")
    assert_clean_error(result, "--html page.html exists", "--force")
    assert os.path.islink(tmp_path / "page.html")
    (tmp_path / "two.txt").write_text(NO_TRICKS + "---\n" + NO_TRICKS)
    os.symlink(tmp_path / "nowhere" / "two.html", tmp_path / "two-2.html")
    assert_clean_error(invoke("review", "two.txt", *FAST, "--html", "two.html"), "--html two-2.html exists")
    assert not (tmp_path / "two-1.html").exists()


@pytest.mark.parametrize("command", [["play", "--seed", "1", "--record"],
                                     ["clabber", "play", "--seed", "1", "--record"],
                                     ["table", "--seed", "1", "--save"]])
def test_a_dangling_link_is_kept_by_every_file_a_command_writes(tmp_path, monkeypatch, command):
    """play --record, clabber play --record and table --save: a link that points nowhere is a file there too."""
    monkeypatch.chdir(tmp_path)
    os.symlink(tmp_path / "nowhere" / "out.txt", tmp_path / "out.txt")
    result = invoke(*command, "out.txt", input="quit\n")
    assert_clean_error(result, "out.txt exists (a link)", "--force")
    assert os.path.islink(tmp_path / "out.txt") and not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("how", [[], ["--play-samples", "4"], ["--step"], ["--json"]])
def test_a_clabber_round_without_its_game_line_is_named_as_one(tmp_path, how):
    path = tmp_path / "round.txt"
    path.write_text(ROUND.replace("game: clabber\n", ""))
    result = invoke("review", path, *how)
    assert_clean_error(result, "a Clabber round", "no 'game: clabber' line")
    assert "Barbu deal" not in result.output


def test_a_clabber_round_whose_game_line_is_not_first_is_read(tmp_path):
    path = tmp_path / "round.txt"
    path.write_text(ROUND.replace("game: clabber\ntitle: round 0 of seed 3\n",
                                  "title: round 0 of seed 3\ngame: clabber\n"))
    result = invoke("review", path, "--seat", "N", "--samples", "2", "--play-samples", "1")
    assert result.exit_code == 0, result.output
    assert "Review: clabber" in result.output


TITLES = [("ab\u2028cd", "U+2028"), ("ab\x07cd", "U+0007"), ("ab\x1b[2Jcd", "U+001B"), ("ab\u2029cd", "U+2029"),
          ("ab\x85cd", "U+0085"), ("ab\u202ecd", "U+202E")]


@pytest.mark.parametrize("title, named", TITLES)
def test_a_title_with_a_control_or_line_separator_character_is_refused(tmp_path, title, named):
    for name, text in (("deal.txt", "title: " + title + "\n" + NO_TRICKS), ("round.txt", ROUND.replace(
            "title: round 0 of seed 3", "title: " + title))):
        (tmp_path / name).write_bytes(text.encode())
        result = invoke("review", tmp_path / name, *FAST)
        assert_clean_error(result, named, "title")
        assert title not in result.output and "\x07" not in result.output and "\x1b" not in result.output
        line = 1 if name == "deal.txt" else 3  # the line an editor shows: U+2028 does not end a line there
        assert f"{name} line {line}: title" in result.output


def test_a_plain_title_and_a_tab_are_kept(tmp_path):
    (tmp_path / "deal.txt").write_text("title: Cup final, board 7\t(Ann's)\n" + NO_TRICKS)
    result = invoke("review", tmp_path / "deal.txt", "--seat", "S", *FAST)
    assert result.exit_code == 0, result.output
    assert "(Cup final, board 7\t(Ann's))" in result.output


@pytest.mark.parametrize("line", ["trump: S", "domino-rank: 7"])
def test_a_trump_or_a_domino_rank_in_another_contracts_deal_is_refused(tmp_path, line):
    """'trump:' belongs to a Trumps deal and 'domino-rank:' to a Domino deal only (the check let a No Tricks
    deal carry either, silently)."""
    path = tmp_path / "deal.txt"
    path.write_text(NO_TRICKS.replace("declarer: N\n", f"declarer: N\n{line}\n"))
    assert_clean_error(invoke("review", path, *FAST), f"'{line.split(':')[0]}:' does not belong to a no-tricks deal")


@pytest.mark.parametrize("command", [["play", "--seed", "1", "--record"],
                                     ["compare", "heuristic", "basic", "-c", "barbu", "-n", "2", "--out"],
                                     ["clabber", "compare", "heuristic", "random", "-n", "2", "--out"]])
def test_a_file_in_a_folder_that_does_not_exist_is_refused_before_the_work(tmp_path, monkeypatch, command):
    """The folder of --record/--out is checked with the file, before any deal is played, not when it is written."""
    monkeypatch.chdir(tmp_path)
    result = invoke(*command, "nodir/out.json")
    assert_clean_error(result, "nodir/out.json", "the folder nodir does not exist")
    assert "A better by" not in result.output and not (tmp_path / "nodir").exists()
