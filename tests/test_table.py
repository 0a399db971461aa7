"""barbu-sim table as a player uses it: typed lines on standard input (and once a real terminal)."""

import os
import re
import shlex
import sys
import time
from pathlib import Path

import pytest
from cli_checks import invoke
from shared_terminal import read_ready
from typer.testing import CliRunner

from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.table.session import Session, TableSettings
from barbu_sim.barbu.formats.deal_file import read_played_deals
from barbu_sim.barbu.table.deal import Console, parse_choice
from barbu_sim.cli import app
from barbu_sim.core.cards import cards_of, format_card, parse_card

runner = CliRunner()
SEED = 2  # South holds K♥ in deal 0 of seed 2: leading it at Barbu is refused
QUICK = ["--review-samples", "0", "--hint-samples", "0"]


def table(tmp_path, lines, *args, name="t.txt"):
    """``barbu-sim table`` with ``lines`` typed on standard input; the saved file's path and the result."""
    path = tmp_path / name
    result = runner.invoke(app, ["table", "--seed", str(SEED), "--save", str(path), *map(str, args)],
                           input="".join(f"{line}\n" for line in lines))
    assert "Traceback" not in result.output, result.output
    return path, result


def test_parse_choice_takes_every_spelling():
    legal = [parse_card("7C"), parse_card("QS")]
    assert {parse_choice(t, legal) for t in ("QS", "qs", "♠Q", "q s", "2", " s q ")} == {parse_card("QS")}
    with pytest.raises(ValueError, match="numbered 1 to 2"):
        parse_choice("3", legal)


# a card spelt as files spell it (QS, 10H, TH): never on the screen, which writes ♠Q, ♥10
FILE_SPELLING = re.compile(r"(?<![\w♠♥♦♣])(10|[2-9TJQKA])[CDHS](?!\w)")


def test_a_deal_through_standard_input(tmp_path):
    south = cards_of(random_deal(SEED, 0)[2])
    not_held = next(c for c in range(52) if c not in south)
    typed = ["hint", format_card(not_held), "KH", "zz", "?", "h"] + ["1"] * 13
    path, result = table(tmp_path, typed, "--hint-samples", 4, "--review-samples", 4)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Deal: barbu, declarer South; you are South\nScores: N +0  E +0  S +0  W +0\nPlayed: nothing yet\n" in out
    assert "Your hand: ♠ K Q 8 4  ♥ K 9 8 3  ♦ Q 7 5  ♣ Q 2" in out and "Trick so far: you lead" in out
    assert "Hint (mc, from your information only): each card's score from here, best first" in out
    # a first compile of mc's estimator is said on stderr, by ensure_compiled, not on the screen
    assert "Preparing" not in out
    assert out.count("Hint (mc") == 2
    assert f"Refused: you do not hold {format_card(not_held, symbols=True)}\n" in out  # not who does
    assert "Refused: South may not play ♥K: ♥K may not be led while holding another card" in out
    assert "Not understood: unknown suit in card 'zz'" in out and "  undo (u)   take back your last card" in out
    assert "Hand over:" in out and "Totals: N " in out and "Review of your decisions" in out
    # the screen fits 100 columns (stdout: a first compile's lines on stderr are not the table's)
    assert max(len(line) for line in result.stdout.splitlines() if str(tmp_path) not in line) <= 100
    prompts = [line for line in out.splitlines() if " > " in line]
    assert len(prompts) >= 8 and all("(or hint, undo, quit, help) > " in line for line in prompts)
    # one notation: cards on the screen are ♠Q and ♥10 (what is typed, the help's examples of what may be
    # typed, and file names aside)
    shown = [line.split(" > ")[0] for line in out.splitlines()
             if str(tmp_path) not in line and not line.startswith("Type a card in any spelling")]
    assert not [line for line in shown if FILE_SPELLING.search(line) or re.search("[♠♥♦♣]T", line)]
    assert "♣Q" in out and "♥10" in out
    deal = read_played_deals(path)[0]  # what was played, as review reads it
    assert not deal.unfinished and deal.replay().over and deal.plays[0][0] == 2
    assert invoke("review", path, "--samples", 2, "--seat", "S").exit_code == 0


def test_undo_quit_and_resume_play_the_same_deal(tmp_path):
    whole, result = table(tmp_path, ["1"] * 13, *QUICK, name="whole.txt")
    assert result.exit_code == 0 and "The session is saved" in result.output
    typed = ["undo", "1", "undo", "1", "1", "undo", "undo"] + ["1"] * 13
    undone, result = table(tmp_path, typed, *QUICK, name="undone.txt")
    assert result.output.count("Undone: back to your previous card") == 3
    assert "Nothing to undo in this deal" in result.output
    assert undone.read_text() == whole.read_text()  # the bots play again exactly as before
    part, result = table(tmp_path, ["1", "1", "1", "quit"], *QUICK, name="part.txt")
    assert f"Saved to {part}" in result.output and f"barbu-sim table --resume {part}   goes on" in result.output
    saved = read_played_deals(part)[0]
    assert saved.unfinished and 3 <= sum(1 for s, _ in saved.plays if s == 2) <= 4
    # the deal can go on: review shows no hand of it (it would show the hands the table hides)
    assert invoke("review", part, "--samples", 2).exit_code == 2
    result = runner.invoke(app, ["table", "--resume", str(part), *QUICK], input="1\n" * 13)
    assert result.exit_code == 0, result.output
    assert "Taken up: hand 1, barbu" in result.output
    assert part.read_text() == whole.read_text()


def test_the_end_of_input_saves_like_quit(tmp_path):
    path, result = table(tmp_path, ["1"], *QUICK)
    assert result.exit_code == 0 and "Saved to" in result.output
    assert read_played_deals(path)[0].unfinished


def test_a_damaged_session_file_is_one_line(tmp_path):
    path, _ = table(tmp_path, ["1", "quit"], *QUICK)
    path.write_text(path.read_text().replace("seed=2", "seed=3"))
    result = runner.invoke(app, ["table", "--resume", str(path)], input="")
    assert result.exit_code == 2 and result.output.startswith("Error: ") and "was the file edited" in result.output
    result = runner.invoke(app, ["table", "--length", "week"], input="")
    assert result.exit_code == 2 and "--length must be deal, block or game" in result.output


def answer(prompt: str) -> str:
    """A player who picks the first card, contract and rank offered, trumps hearts, doubles when forced
    (in words, as a person types them)."""
    if prompt.startswith("Trump"):
        return "hearts"
    if prompt.startswith("Starting"):
        return "seven"
    if prompt.startswith("Double whom"):
        return prompt.split("? ")[1].split()[0] if "must double" in prompt else "no"
    return "1"


@pytest.mark.parametrize("seat, first", [(2, 2), (2, 0)])
def test_a_block_with_contract_choice_and_doubling(tmp_path, seat, first):
    said, typed = [], []
    refusals = iter(["barbu", "9"] if seat == first else [])  # a contract declared already; a bad number

    def read(prompt):
        line = answer(prompt)
        if prompt.startswith("Contract") and "barbu" not in prompt:
            line = next(refusals, line)
        if prompt.startswith("Double whom") and "must double" in prompt and "no" not in typed[-1:]:
            line = "no"  # refused once: the double is compulsory
        typed.append(line)
        return line

    settings = TableSettings(seat, ["heuristic", "random", "you", "basic"], "block", 4, first,
                             bot_contracts="fixed", hint_samples=0)
    session = Session(settings, settings.rules(), Console(read, said.append), tmp_path / "block.txt")
    assert session.play([])
    text = "\n".join(said)
    assert len(session.records) == 7 == len(read_played_deals(tmp_path / "block.txt"))
    assert sorted(r.contract for r in session.records) == list(range(7))
    if seat == first:
        assert "Refused: you have declared barbu already" in text
    else:
        assert "Refused: S must double the declarer N now" in text
    for p in range(4):  # the compulsory doubles, all made
        if p != first:
            assert session.referee.doubles_on[p, first] >= 2
    totals = sum(r.final for r in session.records)
    assert f"Totals: N {int(totals[0]):+d}  E {int(totals[1]):+d}" in text and int(totals.sum()) == 0


def test_a_real_terminal(tmp_path):
    """The command in a pseudo-terminal: prompts on the input line, typed cards echoed by the terminal, hearts
    and diamonds in red."""
    import pty
    save = tmp_path / "pty.txt"
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, as a person starts it in a colour terminal
        for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE"):
            os.environ.pop(name, None)
        os.environ["TERM"] = "xterm-256color"
        os.execvp(sys.executable, [sys.executable, "-m", "barbu_sim.cli", "table", "--seed", str(SEED),
                                   "--save", str(save), *QUICK])
    screen, deadline = b"", time.time() + 120
    try:
        while time.time() < deadline and b"The session is saved" not in screen:
            chunk = read_ready(fd, 1)
            if chunk is None:
                break
            screen += chunk
            if chunk.rstrip().endswith(b">"):
                os.write(fd, b"1\n")
    finally:
        os.waitpid(pid, 0)
    text = screen.decode("utf-8", "replace")
    assert "Play 1:" in text and "> 1\r\n" in text  # the prompt, then what the terminal echoed
    assert "\x1b[31m♥ K 9 8 3\x1b[0m" in text  # South's hearts, red
    assert "Hand over:" in text and "The session is saved" in text
    assert save.exists() and not read_played_deals(save)[0].unfinished


TRANSCRIPT = Path(__file__).resolve().parent.parent / "docs" / "table-transcript.md"
PROMPTS = ("Play ", "Contract ", "Trump suit", "Starting rank", "Double whom?")


def test_the_docs_transcript_is_what_the_terminal_shows(tmp_path, monkeypatch):
    text = TRANSCRIPT.read_text(encoding="utf-8")
    block = text.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    command, shown = block[0], block[1:]
    assert command.startswith("$ barbu-sim table --length block")
    # a prompt's line: it starts with the prompt's word, or goes on a list of cards too long for one line
    typed = [line.rsplit(" > ", 1)[1] for line in shown if line.startswith(PROMPTS + (" " * 5,)) and " > " in line]
    assert len(typed) > 50 and "hint" in typed
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, shlex.split(command)[2:], input="".join(f"{t}\n" for t in typed))
    assert result.exit_code == 0, result.output
    if os.environ.get("BARBU_REGEN_GOLDEN"):  # after a deliberate change: the same lines typed, the new screen
        TRANSCRIPT.write_text(text.replace("\n".join(shown), result.output.rstrip("\n")), encoding="utf-8")
        shown = result.output.splitlines()
    assert result.output.splitlines() == shown, \
        "the table's screen changed: rewrite docs/table-transcript.md with BARBU_REGEN_GOLDEN=1 if that is meant"
    assert len(read_played_deals(tmp_path / "block.txt")) == 7
    # the excerpts of the screen on the review-and-table page come from this transcript
    page = (TRANSCRIPT.parent / "review-and-table.md").read_text(encoding="utf-8")
    excerpts = 0
    for excerpt in page.split("```text\n")[1:]:
        lines = excerpt.split("```", 1)[0].splitlines()
        if lines and lines[0].startswith(("Hand ", " " * 20)):
            excerpts += 1
            for line in lines:
                assert any(s.startswith(line.rstrip()) for s in shown), line
    assert excerpts == 2  # the screen and the score sheet


def test_a_block_quit_half_way_is_taken_up_exactly(tmp_path):
    from barbu_sim.barbu.table.session import read_session

    def player(quit_at=None):
        count = [0]

        def read(prompt):
            count[0] += 1
            if count[0] == quit_at:
                raise EOFError  # the input ends: the session is saved as at quit
            return answer(prompt)
        return read

    settings = TableSettings(2, ["heuristic", "random", "you", "basic"], "block", 9, 0, bot_contracts="fixed",
                             bot_doubling="always", hint_samples=0)
    whole = Session(settings, settings.rules(), Console(player(), lambda text: None), tmp_path / "whole.txt")
    assert whole.play([])
    part = Session(settings, settings.rules(), Console(player(40), lambda text: None), tmp_path / "part.txt")
    assert not part.play([])
    saved_settings, saved = read_session(tmp_path / "part.txt")
    assert saved_settings == settings and 1 <= len(saved) < 7 and saved[-1].unfinished
    again = Session(saved_settings, saved_settings.rules(), Console(player(), lambda text: None), tmp_path / "part.txt")
    assert again.play(saved)
    assert (tmp_path / "part.txt").read_text() == (tmp_path / "whole.txt").read_text()
    assert [r.final.tolist() for r in again.records] == [r.final.tolist() for r in whole.records]


@pytest.mark.parametrize("args, needle", [
    (["--bots", "clever"], "clever"),
    (["--seat", "X"], "unknown seat 'X'"),
    (["--bot", "S=random"], "--bot names your seat S"),
    (["--bot-doubling", "often", "--length", "block"], "often"),
    (["--hint-samples", "1"], "0 (off) or at least 2"),
])
def test_bad_options_are_one_line(args, needle, tmp_path):
    result = runner.invoke(app, ["table", "--save", str(tmp_path / "t.txt"), *args], input="")
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: ") and needle in result.output and len(result.output.splitlines()) == 1


@pytest.mark.parametrize("rotation", ["declarer-block", "every-dealer"])
def test_a_whole_game_at_the_table(tmp_path, rotation):
    settings = TableSettings(1, ["heuristic", "you", "heuristic", "heuristic"], "game", 5, 3, bot_contracts="fixed",
                             hint_samples=0, options="" if rotation == "declarer-block" else "rotation=every-dealer")
    said = []
    session = Session(settings, settings.rules(), Console(answer, said.append), tmp_path / "game.txt")
    assert session.play([])  # the referee's end-of-game checks pass: seven contracts each, compulsory doubles made
    assert len(session.records) == 28 == len(read_played_deals(tmp_path / "game.txt"))
    assert [r.declarer for r in session.records[:8]] == (
        [3] * 7 + [0] if rotation == "declarer-block" else [3, 0, 1, 2, 3, 0, 1, 2])
    assert sum(1 for line in said if line.startswith("You declare")) == 7


def test_a_hint_values_the_cards_with_mcs_learned_rollouts():
    """The hint is the estimator's with its defaults, whose rollouts are mc's (learned's), not heuristic's."""
    from barbu_sim.barbu.players.mc.params import DEFAULT_ROLLOUT
    from barbu_sim.barbu.position import Position
    from barbu_sim.barbu.review.estimate import Settings, estimate
    from barbu_sim.barbu.review.text import hint_lines
    from barbu_sim.barbu.table.deal import hint_text

    assert Settings().rollout == DEFAULT_ROLLOUT == "learned"
    pos = Position(random_deal(3, 0), 1, 0, 0, seed=3, index=0)  # No Queens, North to lead its first card
    hint = hint_text(pos, 8, 4).splitlines()
    learned = hint_lines(estimate(pos, 4, Settings(samples=8, rollout="learned")))
    heuristic = hint_lines(estimate(pos, 4, Settings(samples=8, rollout="heuristic")))
    assert hint[3:] == learned[2:] and len(learned) > 2  # the cards' values, as the learned rollouts give them
    assert learned[2:] != heuristic[2:]
