"""What the table shows, keeps and refuses: nothing of the others' hidden cards, no file replaced without
--force, Ctrl-C saving what quit saves, an edited session line held to the command line's bounds, the
rules' fixed Domino rank, and the first hint's compile said."""

import dataclasses
import os
import re
import sys
import time

import numpy as np
import pytest
from cli_checks import assert_clean_error, invoke, read_only
from shared_terminal import read_ready
from typer.testing import CliRunner

from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.table.session import Session, TableSettings, read_session
from barbu_sim.barbu.formats.deal_file import read_played_deals
from barbu_sim.barbu.position import Position
from barbu_sim.barbu.review.review import review_deal
from barbu_sim.barbu.review.text import format_review
from barbu_sim.barbu.rules import BARBU, DOMINO, Rules
from barbu_sim.barbu.table.deal import Bot, Console, hint_text, play_at_table
from barbu_sim.cli import app
from barbu_sim.core.cards import cards_of, format_card, parse_card

runner = CliRunner()
QUICK = ["--review-samples", "0", "--hint-samples", "0"]
OTHERS = re.compile(r"\b(North|East|West)\b")  # South is the player's seat in these tests


def table(*args, lines=()):
    result = runner.invoke(app, ["table", *map(str, args)], input="".join(f"{line}\n" for line in lines))
    assert "Traceback" not in result.output, result.output
    return result


# ---------------------------------------------------------------- 1: nothing of the others' cards is shown
@pytest.mark.parametrize("contract", ["barbu", "domino"])
def test_a_card_not_held_is_refused_without_saying_who_holds_it(tmp_path, contract):
    south = cards_of(random_deal(5, 0)[2])
    typed = [format_card(c) for c in range(52) if c not in south]
    result = table("--seed", 5, "-c", contract, "--save", tmp_path / "t.txt", *QUICK, lines=typed + ["quit"])
    refused = [line for line in result.output.splitlines() if line.startswith("Refused:")]
    assert len(refused) == len(typed)
    for card, line in zip(typed, refused):  # (in Domino the bots may have played before the player)
        shown = format_card(parse_card(card), symbols=True)  # as the screen writes cards
        assert line == f"Refused: you do not hold {shown}" or line.startswith(f"Refused: {shown} was already played")
    assert sum("you do not hold" in line for line in refused) >= 10


SHOWN = re.compile(r"([♠♥♦♣]) ?((?:10|[2-9JQKA])(?: (?:10|[2-9JQKA]))*)")  # ♠Q, or ♠ A K 10 3


def cards_shown(line: str) -> set[int]:
    """The cards a screen line names, one (``♠Q``) or grouped by suit (``♠ A K 10 3``)."""
    return {parse_card(suit + rank) for suit, ranks in SHOWN.findall(line) for rank in ranks.split()}


def test_every_screen_shows_only_the_cards_out_and_the_players_own():
    """At each decision the screen is the hand, the scores, the last trick, the cards played, the trick and
    the player's own hand: every card it names has been played or is the player's; typing a card another seat
    holds, or one already played, is refused without naming a holder."""
    pos = Position(random_deal(3, 0), BARBU, 0, 2, Rules(), 3, 0)
    bots = {s: Bot("heuristic") for s in (0, 1, 3)}
    said, pending, screens = [], [], []

    def read(prompt):
        if pending:
            return pending.pop(0)
        screen = said[len(said) - 1 - said[::-1].index(""):]  # the lines since the screen began
        labels = ["", "Deal:", "Scores:"] + ["Last trick:"] * bool(pos.trick_winners) + ["Played:", "Trick so far:",
                                                                                          "Your hand:"]
        heads = [line.split(" ")[0] for line in screen]  # then the first line of a long list of cards
        assert heads[:len(labels)] == [label.split(" ")[0] for label in labels] and set(heads[len(labels):]) <= {"Play"}
        seen = set().union(*map(cards_shown, screen + [prompt]))
        mine, played = set(cards_of(pos.hands[2])), set(cards_of(pos.played))
        assert seen <= mine | played and mine <= seen and played <= seen, screen  # all of both, nothing else
        screens.append(screen)
        pending.extend([format_card(cards_of(pos.hands[s])[0]) for s in (0, 1, 3)]
                       + [format_card(c) for c in cards_of(pos.played)[:1]] + ["1"])
        return pending.pop(0)

    play_at_table(pos, 2, bots, Console(read, said.append))
    assert len(screens) >= 5 and pos.over
    refused = [line for line in said if line.startswith("Refused:")]
    assert len(refused) >= 3 * len(screens)
    for line in refused:  # who played a card is public; who holds one is not
        assert line.startswith("Refused: you do not hold ") or " was already played, by " in line, line
        assert "was already played" in line or not OTHERS.search(line), line


@pytest.fixture(scope="module")
def barbu_deal_played(tmp_path_factory):
    """A Barbu deal played at the table by a player typing the first card offered (it ends before all
    cards are out)."""
    path = tmp_path_factory.mktemp("deal") / "deal.txt"
    settings = TableSettings(2, ["heuristic", "heuristic", "you", "heuristic"], "deal", 3, 2, hint_samples=0)
    Session(settings, settings.rules(), Console(lambda prompt: "1", lambda text: None), path).play([])
    return read_played_deals(path)[0]


def _swapped(deal):
    """The same deal with two cards that were never played swapped between two bots (same suit, not hearts)."""
    played = {c for _, c in deal.plays}
    hands = deal.hands.copy()
    for suit in (0, 1, 3):
        pairs = [(s, c) for s in (0, 1, 3) for c in cards_of(hands[s]) if c // 13 == suit and c not in played]
        for s1, c1 in pairs:
            for s2, c2 in pairs:
                if s1 != s2:
                    hands[s1] ^= np.uint64((1 << c1) | (1 << c2))
                    hands[s2] ^= np.uint64((1 << c1) | (1 << c2))
                    return dataclasses.replace(deal, hands=hands)
    pytest.skip("no two unplayed cards of a suit in two bots' hands")


def test_hints_and_the_review_are_the_same_whatever_the_hidden_cards(barbu_deal_played):
    deal = barbu_deal_played
    other = _swapped(deal)
    assert not np.array_equal(other.hands, deal.hands)
    mine = [k for k, (s, _) in enumerate(deal.plays) if s == 2]
    for k in mine[1:3]:  # hints from the same information read the same, card for card
        assert hint_text(deal.replay(k), 4, 3) == hint_text(other.replay(k), 4, 3)
    review = format_review(review_deal(deal, [2], samples=4, seed=3), brief=True)
    assert format_review(review_deal(other, [2], samples=4, seed=3), brief=True) == review


# ---------------------------------------------------------------- 4: no file replaced without --force


def test_the_table_does_not_replace_a_saved_session_without_force(tmp_path):
    path = tmp_path / "table.txt"
    path.write_text("a session played yesterday\n")
    result = table("--seed", 2, "--save", path, *QUICK, lines=["quit"])
    assert_clean_error(result, f"--save {path} exists", "--force", f"--resume {path}")
    assert "Deal" not in result.output and path.read_text() == "a session played yesterday\n"
    result = table("--seed", 2, "--save", path, "--force", *QUICK, lines=["quit"])
    assert result.exit_code == 0 and f"Saved to {path}" in result.output
    assert read_session(path)[0].seed == 2


@pytest.mark.parametrize("save, needle", [("", "--save is empty"), ("  ", "--save is empty"), (".", "is a folder")])
def test_a_save_that_names_no_file_is_one_line(save, needle):
    assert_clean_error(table("--save", save, *QUICK, lines=["1"]), needle)


def test_a_save_into_a_read_only_folder_is_said_before_play(tmp_path, monkeypatch):
    folder = tmp_path / "ro"
    read_only(folder, monkeypatch)
    result = table("--save", folder / "t.txt", *QUICK, lines=["1"] * 13)
    assert_clean_error(result, str(folder), code=1)
    assert "Deal" not in result.output and "Play" not in result.output


def test_play_record_does_not_replace_a_file_without_force(tmp_path, monkeypatch):
    path = tmp_path / "deal.txt"
    path.write_text("kept\n")
    result = invoke("play", "-c", "no-queens", "--seed", 3, "--record", path)
    assert_clean_error(result, f"--record {path} exists", "--force")
    assert "Trick" not in result.output and path.read_text() == "kept\n"
    assert_clean_error(invoke("play", "--record", ""), "--record is empty")
    folder = tmp_path / "ro"
    read_only(folder, monkeypatch)
    result = invoke("play", "-c", "no-queens", "--seed", 3, "--record", folder / "deal.txt")
    assert_clean_error(result, str(folder), code=1)
    assert "Trick" not in result.output  # said before the deal is played
    monkeypatch.undo()
    result = invoke("play", "-c", "no-queens", "--seed", 3, "--record", path, "--force")
    assert result.exit_code == 0, result.output
    assert read_played_deals(path)[0].contract == 1


# ---------------------------------------------------------------- 13: Ctrl-C at a prompt saves what quit saves, at once
def ctrl_c_at_prompt(argv, answers, tmp_path):
    """``barbu-sim ARGV`` in a pseudo-terminal: type ``answers`` at the first prompts, then Ctrl-C at the
    next one; the exit code and the screen.  Fails if Ctrl-C does not end the command within 15 s."""
    import pty
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(tmp_path)
        os.execvp(sys.executable, [sys.executable, "-m", "barbu_sim.cli", *map(str, argv)])
    screen, answers, deadline = b"", list(answers), time.time() + 120
    sent_at = None
    try:
        while time.time() < (deadline if sent_at is None else sent_at + 15):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            chunk = read_ready(fd, 0.2)
            if not chunk:  # nothing yet, or the terminal closed: wait for the exit
                continue
            screen += chunk
            if sent_at is None and chunk.rstrip().endswith(b">"):
                time.sleep(0.2)
                if answers:
                    os.write(fd, answers.pop(0).encode() + b"\n")
                else:
                    os.write(fd, b"\x03")  # the terminal's Ctrl-C: SIGINT, and no Enter after it
                    sent_at = time.time()
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("Ctrl-C at the prompt did not end the command (it waits for Enter)")
    finally:
        os.close(fd)
    return os.waitstatus_to_exitcode(status), screen.decode("utf-8", "replace")


def test_ctrl_c_at_the_table_saves_what_quit_saves(tmp_path):
    quit_file = tmp_path / "quit.txt"
    result = table("--seed", 2, "--save", quit_file, *QUICK, lines=["1", "1", "quit"])
    assert result.exit_code == 0 and read_played_deals(quit_file)[0].unfinished
    code, screen = ctrl_c_at_prompt(["table", "--seed", 2, "--save", "c.txt", *QUICK], ["1", "1"], tmp_path)
    assert code == 130, screen
    assert "Interrupted: the session is saved in c.txt" in screen
    assert (tmp_path / "c.txt").read_text() == quit_file.read_text()  # the cards of the deal in play included


def test_ctrl_c_at_the_sheet_ends_it_at_once_with_the_hands_saved(tmp_path):
    import polars as pl
    code, screen = ctrl_c_at_prompt(["sheet", "--out", "s"], ["no-tricks -8 -6 -6 -6"], tmp_path)
    assert code == 130, screen
    assert "Interrupted: the hands entered are saved in s" in screen
    assert pl.read_parquet(tmp_path / "s" / "hands.parquet").height == 1


# -------------------------------------------------------------- 16: an edited session line, checked as the command line
@pytest.mark.parametrize("edit, needle", [
    ("hint-samples=-5", "hint-samples must be at least 0"),
    ("hint-samples=1", "hint-samples takes 0 (off) or at least 2"),
    ("hint-samples=100001", "hint-samples must be at least 0 and at most 100,000"),
    ("seed=18446744073709551616", "seed must be a non-negative integer below 2^64"),
])
def test_an_edited_table_line_is_refused_on_resume(tmp_path, edit, needle):
    path = tmp_path / "t.txt"
    assert table("--seed", 2, "--save", path, *QUICK, lines=["quit"]).exit_code == 0
    name = edit.split("=")[0]
    text = re.sub(rf"\b{name}=\S+", edit, path.read_text(), count=1)
    assert edit in text
    path.write_text(text)
    result = table("--resume", path, *QUICK, lines=["1"] * 13)
    assert_clean_error(result, "the table line is damaged", needle)
    assert len(result.output.splitlines()) == 1


# ---------------------------------------------------------------- 17: --domino-rank against domino-start=fixed:R
def test_a_domino_rank_against_a_fixed_start_is_refused_as_run_refuses_it(tmp_path):
    args = ["-c", "domino", "--domino-rank", "3", "-o", "domino-start=fixed:7"]
    ran = invoke("run", "-n", 10, "--out", tmp_path / "run", *args)
    message = ran.output.strip().splitlines()[-1]
    assert_clean_error(ran, "--domino-rank 3: these rules start every Domino hand from the 7")
    for result in (invoke("play", *args), table("--save", tmp_path / "t.txt", *args, *QUICK, lines=["quit"])):
        assert_clean_error(result)
        assert result.output.strip() == message
    assert not (tmp_path / "t.txt").exists()


def test_a_fixed_start_is_the_rank_played_and_kept(tmp_path):
    path = tmp_path / "t.txt"
    result = table("--seed", 2, "-c", "domino", "-o", "domino-start=fixed:9", "--save", path, *QUICK,
                   lines=["quit"])
    assert result.exit_code == 0 and "Contract: domino from 9" in result.output
    settings, deals = read_session(path)
    assert settings.domino_rank == "9" and deals[0].param == 7  # the 9, as played (not the default 7)
    assert table("--seed", 2, "-c", "domino", "-o", "domino-start=fixed:9", "--domino-rank", "9",
                 "--save", tmp_path / "same.txt", *QUICK, lines=["quit"]).exit_code == 0


def test_a_player_declaring_domino_under_a_fixed_start_is_not_asked_a_rank(tmp_path):
    asked = []

    def read(prompt):
        asked.append(prompt)
        if prompt.startswith("Contract"):
            return "domino"
        if prompt.startswith("Starting"):
            return "3"
        return "quit"

    settings = TableSettings(2, ["heuristic", "heuristic", "you", "heuristic"], "block", 4, 2,
                             hint_samples=0, options="domino-start=fixed:9")
    session = Session(settings, settings.rules(), Console(read, lambda text: None), tmp_path / "b.txt")
    assert not session.play([])
    assert not any(p.startswith("Starting") for p in asked)
    deal = read_played_deals(tmp_path / "b.txt")[0]
    assert deal.contract == DOMINO and deal.param == 7 and deal.position().start == 7


# ---------------------------------------------------------------- 21: the first hint's compile is said
def test_a_hint_compiles_mc_s_estimator_through_the_announcing_path(compile_calls):
    from barbu_sim.barbu.players.mc.player import mc_estimates
    calls = compile_calls
    before = set(mc_estimates.overloads)  # other tests in this process may have compiled other signatures
    pos = Position(random_deal(2, 0), BARBU, 0, 2, Rules(), 2, 0)
    assert hint_text(pos, 2, 2).startswith("Hint")
    assert [(d, w) for d, _, w in calls] == [(mc_estimates, "mc's estimator (hints and reviews)")]
    # the signature announced is the one the hint then calls: nothing else is compiled silently
    assert calls[0][1] in mc_estimates.overloads
    assert set(mc_estimates.overloads) - before <= {calls[0][1]}


def test_the_table_makes_the_estimator_ready_before_the_review(tmp_path, monkeypatch):
    """Through the announcing path (core.compiling.ensure_compiled, which says a compile on stderr), before the
    review's first line: the table says nothing of its own about it (issue 43: one announcement)."""
    from barbu_sim.barbu.table import deal as tableplay
    monkeypatch.setattr(tableplay, "estimator_ready", lambda: print("<ready>"))
    result = table("--seed", 2, "--save", tmp_path / "t.txt", "--hint-samples", "0", "--review-samples", "2",
                   lines=["1"] * 13)
    assert result.exit_code == 0 and "Review of your decisions" in result.output
    assert result.output.count("<ready>") == 1 and result.output.index("<ready>") < result.output.index("Review of")
    assert "Preparing" not in result.output


def test_clabber_play_record_does_not_replace_a_file_without_force(tmp_path):
    path = tmp_path / "round.txt"
    path.write_text("kept\n")
    result = invoke("clabber", "play", "--seed", 3, "--record", path)
    assert_clean_error(result, f"--record {path} exists", "--force")
    assert "Trick" not in result.output and path.read_text() == "kept\n"  # refused before the round is played
    result = invoke("clabber", "play", "--seed", 3, "--record", path, "--force")
    assert result.exit_code == 0, result.output
    assert path.read_text() != "kept\n" and "Wrote" in result.output
