"""The table's screen as a player reads it: colour where a terminal shows it and plain text elsewhere, one card
notation, lines within 100 columns, the words people type at every prompt, and the first hint's compile said."""

import re

import numpy as np
import pytest
from typer.testing import CliRunner

from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.table.session import Session, TableSettings
from barbu_sim.barbu.table import deal as table_deal
from barbu_sim.barbu.formats.deal_file import read_played_deals
from barbu_sim.barbu.position import Position
from barbu_sim.barbu.table.deal import Console, Hints, in_table_notation
from barbu_sim.barbu.table.screen import WIDTH, choices_prompt, hand_text, labelled
from barbu_sim.barbu.table.words import parse_contract_words, parse_doubles, parse_rank_word, parse_suit_word
from barbu_sim.barbu.rules import BARBU, DOMINO, NO_LAST_TWO, NO_QUEENS, NO_TRICKS, TRUMPS, Rules
from barbu_sim.cli import app
from barbu_sim.core.cards import parse_card

runner = CliRunner()
QUICK = ["--review-samples", "0", "--hint-samples", "0"]
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def colour_codes(text: str) -> list[str]:
    """The SGR sequences of ``text`` that set a colour (30-49, 90-107: foreground, background), not bold."""
    return [m for m in SGR.findall(text)
            if any(p.isdigit() and (30 <= int(p) <= 49 or 90 <= int(p) <= 107) for p in m.split(";"))]


# ---------------------------------------------------------------- colour: a terminal, NO_COLOR, a pipe
NOT_SET = {"FORCE_COLOR": None, "NO_COLOR": None, "TTY_COMPATIBLE": None, "TERM": "xterm-256color"}


@pytest.mark.parametrize("env, coloured", [
    ({**NOT_SET, "FORCE_COLOR": "1"}, True),  # rich takes FORCE_COLOR for a terminal
    ({**NOT_SET, "FORCE_COLOR": "1", "NO_COLOR": "1"}, False),  # NO_COLOR wins over it
    (NOT_SET, False),  # the output is a pipe: plain text
])
def test_hearts_and_diamonds_are_red_on_a_terminal_and_plain_elsewhere(tmp_path, env, coloured):
    result = runner.invoke(app, ["table", "--seed", "2", "--save", str(tmp_path / "t.txt"), *QUICK],
                           input="quit\n", env=env)
    assert result.exit_code == 0, result.output
    out = result.output  # South holds ♥ K 9 8 3, ♦ Q 7 5, and may lead ♥3, ♦Q...
    if coloured:
        assert "\x1b[31m♥ K 9 8 3\x1b[0m" in out and "\x1b[31m♦ Q 7 5\x1b[0m" in out  # the hand
        assert "\x1b[31m♥3\x1b[0m" in out and "\x1b[31m♦Q\x1b[0m" in out  # the numbered cards
        assert not re.search(r"\x1b\[31m[♠♣]", out)  # spades and clubs keep the terminal's colour
    else:
        assert colour_codes(out) == [] and "Your hand: ♠ K Q 8 4  ♥ K 9 8 3  ♦ Q 7 5  ♣ Q 2" in SGR.sub("", out)
    if env.get("FORCE_COLOR") is None:
        assert "\x1b" not in out  # not even bold through a pipe


def test_the_winner_of_a_trick_is_bold(tmp_path):
    result = runner.invoke(app, ["table", "--seed", "2", "--save", str(tmp_path / "t.txt"), *QUICK],
                           input="1\n1\nquit\n", env={**NOT_SET, "FORCE_COLOR": "1"})
    last = next(line for line in result.output.splitlines() if line.startswith("Last trick:"))
    winner = re.search(r"won by \x1b\[1m(\w+)\x1b\[0m", last).group(1)
    assert re.search(rf"{winner} \x1b\[1m[♠♣]", last) or re.search(rf"{winner} \x1b\[1;31m[♥♦]", last), last


# ---------------------------------------------------------------- one notation, within 100 columns
def test_cards_from_the_rules_and_the_hints_are_rewritten_in_the_screen_s_notation():
    text = in_table_notation("Refused: you do not hold 10H; K♥ may not be led; TH, ♠Q and QS; NO-HEARTS 5")
    assert text.plain == "Refused: you do not hold ♥10; ♥K may not be led; ♥10, ♠Q and ♠Q; NO-HEARTS 5"
    red = {text.plain[span.start:span.end] for span in text.spans if "red" in str(span.style)}
    assert red == {"♥10", "♥K"}


def test_long_lines_go_on_under_themselves():
    almost_all = np.uint64(sum(1 << c for c in range(52) if c % 13 != 3))  # 48 cards: every 5 missing
    one_line = "Played: " + str(hand_text(almost_all))
    lines = str(labelled("Played: ", hand_text(almost_all))).split("\n")
    assert len(one_line) > WIDTH and len(lines) == 2 and all(len(line) <= WIDTH for line in lines)
    assert lines[1].startswith(" " * len("Played: "))
    assert " ".join(" ".join(lines).split()) == " ".join(one_line.split())  # the same words, on two lines
    every_ten = [parse_card(c) for c in "2C 10C AC 10D KD 10H JH QH 2S 9S 10S JS AS".split()]
    prompt = [str(line) for line in choices_prompt(every_ten)]
    assert len(prompt) == 2 and prompt[-1].endswith("(or hint, undo, quit, help) >")
    assert max(map(len, prompt)) <= WIDTH and len(prompt[-1]) <= WIDTH - 12  # room for what is typed
    assert "13:♠A" in prompt[-1] or "13:♠A" in prompt[0]


# ---------------------------------------------------------------- the words people type
@pytest.mark.parametrize("typed, suit", [("spades", 3), ("Spade", 3), ("s", 3), ("♠", 3), ("hearts", 2), ("H", 2),
                                         ("♥", 2), ("diamonds", 1), ("♦", 1), ("clubs", 0), ("c", 0)])
def test_a_trump_suit_in_words_letters_or_symbols(typed, suit):
    assert parse_suit_word(typed) == suit


@pytest.mark.parametrize("typed, contract", [
    ("no tricks", NO_TRICKS), ("no-tricks", NO_TRICKS), ("notricks", NO_TRICKS), ("No Tricks", NO_TRICKS),
    ("1", NO_TRICKS), ("2", NO_QUEENS), ("no_last_two", NO_LAST_TWO), ("Barbu", BARBU), ("fan tan", DOMINO)])
def test_a_contract_by_number_or_name(typed, contract):
    assert parse_contract_words(typed, list(range(7))) == (contract, "")


def test_what_follows_a_contract_and_the_refusals_say_what_is_taken():
    assert parse_contract_words("trumps spades", [5, 6]) == (TRUMPS, "spades")
    assert parse_contract_words("domino from seven", [5, 6]) == (DOMINO, "seven")
    assert parse_contract_words("2 8", [5, 6]) == (DOMINO, "8")
    assert [parse_rank_word(t) for t in ("seven", "sevens", "7", "10", "T", "ten", "J", "jack", "ace")] == \
        [5, 5, 5, 8, 8, 8, 9, 9, 12]
    for call, message in [
        (lambda: parse_suit_word("purple"), "unknown suit 'purple': type spades, hearts, diamonds or clubs "
                                            "(or S, H, D, C, ♠ ♥ ♦ ♣)"),
        (lambda: parse_rank_word("eleven"), "unknown rank 'eleven': type 2 to 10, J, Q, K or A"),
        (lambda: parse_contract_words("slam", [5, 6]), "unknown contract 'slam': type its number in the list or "
                                                       "its name (trumps, domino)"),
        (lambda: parse_contract_words("3", [5, 6]), "the contracts are numbered 1 to 2, not 3"),
        (lambda: parse_doubles("X", {0, 1}), "unknown seat 'x': type seats (N E), all or no"),
    ]:
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value).startswith(message) and "\n" not in str(e.value)


@pytest.mark.parametrize("typed, seats", [("all", {0, 1, 3}), ("everyone", {0, 1, 3}), ("no", set()), ("", set()),
                                          ("none", set()), ("N E", {0, 1}), ("north, west", {0, 3}), ("NE", {0, 1}),
                                          ("e and w", {1, 3})])
def test_doubles_as_seats_all_or_no(typed, seats):
    assert parse_doubles(typed, {0, 1, 3}) == seats


def test_a_block_declared_and_doubled_in_words(tmp_path):
    """The person declares seven contracts in the words people use, with a refusal or two on the way."""
    answers = iter(["help", "no tricks", "2", "No-Queens", "notricks", "barbu", "nohearts", "trumps", "purple",
                    "spades", "domino from seven"])
    said = []

    def read(prompt):
        if prompt.startswith(("Contract", "Trump", "Starting")):
            return next(answers)
        return "no" if prompt.startswith("Double") else "1"

    settings = TableSettings(2, ["heuristic", "heuristic", "you", "heuristic"], "block", 4, 2, hint_samples=0)
    session = Session(settings, settings.rules(), Console(read, said.append), tmp_path / "b.txt")
    assert session.play([])
    assert [(r.contract, r.param) for r in session.records] == [(NO_TRICKS, 0), (NO_LAST_TWO, 0), (NO_QUEENS, 0),
                                                                (BARBU, 0), (3, 0), (TRUMPS, 3), (DOMINO, 5)]
    text = "\n".join(said)
    assert "Type a contract: its number or its name (no tricks, no-tricks...)" in text
    assert "Refused: you have declared no-tricks already" in text
    assert "Refused: unknown suit 'purple': type spades, hearts, diamonds or clubs" in text
    assert "Contract: trumps ♠" in text and "Contract: domino from 7" in text
    assert next(answers, None) is None


def test_all_doubles_every_seat_the_rules_allow(tmp_path):
    said = []

    def read(prompt):
        if prompt.startswith("Double whom?"):
            assert "N E W, all or no" in prompt
            return "all"
        return "quit" if prompt.startswith("Play") else "1"

    settings = TableSettings(2, ["heuristic", "heuristic", "you", "heuristic"], "block", 4, 0, bot_contracts="fixed",
                             hint_samples=0)
    assert not Session(settings, settings.rules(), Console(read, said.append), tmp_path / "b.txt").play([])
    assert {(a, b) for a, b in read_played_deals(tmp_path / "b.txt")[0].doubles if a == 2} == {(2, 0), (2, 1), (2, 3)}
    text = "\n".join(said)
    assert "You have made 0 of your 2 compulsory doubles on N (7 hands of N's block left, this one included)" in text
    at = said.index("Doubles: S>N* S>E S>W (*: a double on the declarer)")  # too long for one line with the debts
    assert said[at + 1] == " " * len("Doubles: ") + "compulsory doubles still owed to N: E 2, S 1, W 2"


# ---------------------------------------------------------------- the first hint makes mc's estimator ready
def test_the_first_hint_makes_mc_s_estimator_ready_and_leaves_its_compile_to_ensure_compiled(monkeypatch):
    """The estimator's compile is said once, on stderr, by core.compiling.ensure_compiled: the screen adds
    nothing of its own (issue 43)."""
    said, calls = [], []
    real = table_deal.estimator_ready
    monkeypatch.setattr(table_deal, "estimator_ready", lambda: (calls.append(list(said)), real()))
    hints = Hints(2, 2, Console(None, said.append))
    pos = Position(random_deal(2, 0), BARBU, 0, 2, Rules(), 2, 0)
    first, second = hints(pos), hints(pos)
    assert calls and calls[0] == []  # made ready before the first hint's estimate
    assert said == []
    assert first and first == second
