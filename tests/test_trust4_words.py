"""Issue 43, round four, the words: one card and double notation everywhere, screens that fit 80 columns,
the defender's advice in a card player's words, Clabber's bidding told, and options given twice refused."""

from __future__ import annotations

import importlib

import numpy as np
import polars as pl
import pytest
import typer
import typer.main
from typer.testing import CliRunner

from barbu_sim.cli import app

runner = CliRunner()
HAND = "T98.765.AK32.QJ2"


def refused(result, *needles):
    """The command refused in one line ``Error: ...`` naming ``needles``, with exit code 2."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "╭" not in result.output, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


# ---------------------------------------------------------------- 12: one notation


def test_the_game_sheet_writes_doubles_as_the_table_does():
    from barbu_sim.barbu.game.game import GameResult, HandRecord, score_sheet
    doubles = [[False] * 4 for _ in range(4)]
    doubles[1][0] = doubles[0][1] = True  # E doubled N, the declarer, who redoubled
    doubles[2][3] = True  # S doubled W
    hand = HandRecord(0, 0, 3, 2, 0, 0, doubles, np.array([-8, 0, 0, 0]), np.zeros(4, np.int64))
    sheet = score_sheet(GameResult(0, 0, 0, [hand]))
    assert "N>E E>N* S>W" in sheet
    assert "ExN" not in sheet and "xx" not in sheet


def test_hands_in_symbols_write_the_ten_as_the_table_does():
    from barbu_sim.core.cards import format_hand, parse_hand
    assert format_hand(parse_hand("AKQ.JT9.876.5432"), symbols=True) == "♠ A K Q  ♥ J 10 9  ♦ 8 7 6  ♣ 5 4 3 2"
    assert format_hand(parse_hand("AKQJT98765432..."), symbols=True) == "♠ A K Q J 10 9 8 7 6 5 4 3 2  ♥ -  ♦ -  ♣ -"
    assert format_hand(parse_hand("AKQ.JT9.876.5432")) == "AKQ.JT9.876.5432"  # PBN keeps its T


def test_play_writes_the_ten_as_10():
    result = runner.invoke(app, ["play", "--contract", "domino", "--seed", "7", "--symbols"])
    assert result.exit_code == 0, result.output
    north = next(line for line in result.output.splitlines() if line.startswith("  North"))
    assert north == "  North  ♠ A K 8  ♥ 10 8 6  ♦ K 10 6 4 3  ♣ 5 2"


def test_the_reviews_out_line_writes_the_ten_as_10():
    from barbu_sim.barbu.review.text import suit_text
    from barbu_sim.core.cards import parse_cards
    out = int(parse_cards("AD KD QD TD 5D 4D TH"))
    assert suit_text(out, True, compact=True) == "♠ -  ♥ 10  ♦ AKQ1054  ♣ -"
    assert "T" not in suit_text(out, False, compact=True).replace("S ", "")


# ---------------------------------------------------------------- 13: lines that fit


def test_a_long_refusal_wraps_at_word_boundaries_on_a_terminal(monkeypatch, capsys):
    app_module = importlib.import_module("barbu_sim.cli.app")  # the module, not the app it exports
    message = ("--record runs/a-rather-long-folder-name/and-a-longer-file-name.txt exists (a played deal): "
               "give --force to replace it, or name another file")
    assert len(message) > 120
    monkeypatch.setattr(app_module, "_error_width", lambda: 80)
    with pytest.raises(typer.Exit) as e:
        app_module.fail(message)
    assert e.value.exit_code == 2
    lines = capsys.readouterr().err.rstrip("\n").split("\n")
    assert len(lines) > 1 and all(len(line) <= 80 for line in lines), lines
    assert " ".join(line.strip() for line in lines) == f"Error: {message}"  # no word cut in two
    monkeypatch.setattr(app_module, "_error_width", lambda: None)  # a pipe, a log: one line
    with pytest.raises(typer.Exit):
        app_module.fail(message)
    assert capsys.readouterr().err == f"Error: {message}\n"


def _commands():
    out = []

    def walk(path, command):
        out.append(path)
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            walk((*path, name), sub)

    walk((), typer.main.get_command(app))
    return out


@pytest.mark.parametrize("path", _commands(), ids=lambda p: " ".join(p) or "barbu-sim")
def test_every_help_screen_fits_80_columns(path, monkeypatch):
    import typer.rich_utils
    # typer reads TERMINAL_WIDTH once, at its first help screen: set the width it keeps for this test only
    monkeypatch.setattr(typer.rich_utils, "MAX_WIDTH", 80)
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert all(len(line) <= 80 for line in lines)
    cut = [line for line in lines if "…" in line]
    assert not cut, f"{' '.join(path)} --help cuts text at 80 columns: {cut}"
    # prose is filled to the width: a short line followed by more of its paragraph is a broken line
    prose = [line.strip() for line in lines if not line.startswith(("│", "╭", "╰"))]
    broken = [a for a, b in zip(prose, prose[1:]) if a and b and len(a) < 40 and not a.endswith(":")
              and not a.startswith(("barbu-sim", "Usage"))]
    assert not broken, f"{' '.join(path)} --help breaks its prose into short lines: {broken}"


# ---------------------------------------------------------------- 14: the defender's advice in words


def _double_answer(level=0, trusted=True, reasons=None, gains=(-5.4, 4.4), owed=0, hands_left=3):
    from barbu_sim.barbu.game.advice import DoubleAdvice
    rows = pl.DataFrame({"target": ["N (declarer)", "S"][:len(gains)], "expected_gain": list(gains),
                         "ci_low": [g - 3.6 for g in gains], "ci_high": [g + 3.6 for g in gains],
                         "deals": [50] * len(gains)})
    reasons = reasons or {}
    return DoubleAdvice(rows, sorted(reasons), reasons, "", "", seat="E", declarer="N", announced="Trumps ♠",
                        margin=5.0, owed=owed, hands_left=hands_left, level=level, trusted=trusted,
                        reliability=0.9 if trusted else 0.15)


def test_the_defenders_advice_says_what_to_do_what_it_is_worth_and_on_what_evidence():
    from barbu_sim.barbu.game.advice import format_double
    text = format_double(_double_answer(level=2))
    first = text.splitlines()[0]
    assert first == "E, after N declared Trumps ♠: do not double."
    assert "5.4 points" in text and "50 random deals of the unseen cards" in text
    assert "bayes:5" in text  # the policy that makes the call, named as it is given
    for jargon in ("Expected gain of", "conditioned", "bayes makes only", "too few matched"):
        assert jargon not in text
    text = format_double(_double_answer(reasons={"S": "margin", "N": "forced"}, gains=(-5.4, 7.4), owed=1,
                                        hands_left=1))
    assert text.splitlines()[0] == "E, after N declared Trumps ♠: double N and S."
    words = " ".join(text.split())
    assert "you owe N 1 double and N has 1 hand left" in words and "+7.4 points" in words
    assert "more than the 5-point margin" in words
    text = format_double(_double_answer(trusted=False, gains=(7.0,)))
    assert "do not double" in text.splitlines()[0] and "only the doubles the rules force" in " ".join(text.split())


def test_advise_double_prints_the_advice_in_words(monkeypatch):
    import barbu_sim.barbu.game.advice as advice
    monkeypatch.setattr(advice, "advise_double", lambda *a, **k: _double_answer(level=2))
    result = runner.invoke(app, ["advise", HAND, "--double", "trumps:S", "--seat", "E", "--samples", "20"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("E, after N declared Trumps ♠: do not double.")
    assert "Expected gain of" not in result.output


# ---------------------------------------------------------------- 16: Clabber's bidding


def test_clabber_rules_say_how_the_bidding_works():
    result = runner.invoke(app, ["clabber", "rules"])
    assert result.exit_code == 0, result.output
    bidding = result.output.split("Bidding:", 1)[1].split("\n\n")[0]
    for words in ("turned", "play", "pass", "round two", "thrown in", "makers", "left of the dealer"):
        assert words in bidding, words


# ---------------------------------------------------------------- 17: options given twice


@pytest.mark.parametrize("args,needles", [
    (["rules", "-o", "no-hearts-ace=-4", "-o", "no-hearts-ace=-5"], ("no-hearts-ace", "twice")),
    (["rules", "-o", "no-hearts-ace=-4", "-o", "no_hearts_ace=-5"], ("twice",)),
    (["clabber", "rules", "-o", "misplay=error", "-o", "misplay=penalty"], ("misplay", "twice")),
    (["rules", "--rules", "default", "--rules", "strict-barbu"], ("--rules", "twice")),
    (["play", "--seed", "1", "--seed=2"], ("--seed", "twice")),
    (["advise", HAND, "--doubles-owed", "E=1,E=2"], ("--doubles-owed", "E", "twice")),
])
def test_an_option_given_twice_is_refused(args, needles):
    refused(runner.invoke(app, args), *needles)


def test_repeatable_options_stay_repeatable():
    result = runner.invoke(app, ["rules", "-o", "no-hearts-ace=-4", "-o", "barbu-king=-16"])
    assert result.exit_code == 0, result.output


def test_clabber_advise_needs_two_samples_like_barbus():
    refused(runner.invoke(app, ["clabber", "advise", "JS 9S AS KH 10D AC", "--turned", "QS", "--position", "1",
                                "--samples", "1"]), "--samples", "at least 2")


@pytest.mark.parametrize("args,needle", [
    (["--position", "1"], "--turned"),
    (["--turned", "QS"], "--position"),
])
def test_clabber_advise_names_a_missing_option_in_one_line(args, needle):
    refused(runner.invoke(app, ["clabber", "advise", "JS 9S AS KH 10D AC", *args]), needle)
