"""The command line through typer's CliRunner: golden playthroughs and bad input."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from barbu_sim.cli import app
from cli_checks import assert_golden, assert_one_line_error

runner = CliRunner()

# (file name, arguments): one whole deal per contract, recorded trick by trick.
PLAYTHROUGHS = [
    ("no-tricks", ["play", "-c", "no-tricks", "--seed", "1"]),
    ("no-queens", ["play", "-c", "no-queens", "--seed", "2", "--declarer", "E"]),
    ("no-last-two", ["play", "-c", "no-last-two", "--seed", "3", "--strategy", "random"]),
    ("no-hearts", ["play", "-c", "no-hearts", "--seed", "4", "--seat-strategy", "S=random"]),
    ("barbu", ["play", "-c", "barbu", "--seed", "5", "--rules", "strict-barbu"]),
    ("trumps", ["play", "-c", "trumps", "--seed", "6", "--trump", "H", "--rules", "overtrump"]),
    ("domino", ["play", "-c", "domino", "--seed", "7", "--domino-rank", "8", "--symbols"]),
]


@pytest.mark.parametrize("name,args", PLAYTHROUGHS, ids=[p[0] for p in PLAYTHROUGHS])
def test_golden_playthroughs(name, args):
    assert_golden(name, args)


def test_play_a_given_pbn_deal():
    deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    result = runner.invoke(app, ["play", "-c", "trumps", "--trump", "S", "--deal", deal])
    assert result.exit_code == 0
    assert "North +65" in result.output and "Trick 13" in result.output


def test_rules_command():
    result = runner.invoke(app, ["rules", "--rules", "strict-barbu"])
    assert result.exit_code == 0
    assert "no-hearts-unless-only-hearts" in result.output and "preset: strict-barbu" in result.output


def test_plugin_strategy_on_the_command_line(tmp_path):
    # West plays the highest legal card (a plugin from a file); checked card by card from the printed
    # deal and tricks with the reference's legal cards.
    import re
    from barbu_sim.barbu.engine import reference
    from barbu_sim.barbu.rules import NO_QUEENS, Rules
    from barbu_sim.core.cards import cards_of, parse_card, parse_pbn
    f = tmp_path / "mine.py"
    f.write_text("from numba import njit\nfrom barbu_sim.core.bits import highest_bit\n\n"
                 "@njit\ndef high(legal, hand, state, rng):\n    return highest_bit(legal)\n")
    assert f.exists()
    result = runner.invoke(app, ["play", "-c", "no-queens", "--seat-strategy", f"W={f}:high"])
    assert result.exit_code == 0, result.output
    assert f"W={f}:high" in result.output
    deal = re.search(r"^Deal: (\S+ \S+ \S+ \S+)$", result.output, re.M).group(1)
    west = set(cards_of(parse_pbn(deal)[3]))
    tricks = re.findall(r"^  Trick +\d+: (.+?)   won by", result.output, re.M)
    assert 0 < len(tricks) == result.output.count("  Trick ")  # No Queens stops once the four queens are out
    checked = not_lowest = 0
    for line in tricks:
        plays = re.findall(r"([NESW]) +(\S+)", line)
        assert len(plays) == 4
        trick = []
        for seat, text in plays:
            card = parse_card(text)
            if seat == "W":
                legal = reference.legal_cards(west, trick, NO_QUEENS, 0, Rules())
                assert card == max(legal), (line, sorted(legal))
                not_lowest += max(legal) != min(legal)
                west.remove(card)
                checked += 1
            trick.append(card)
    assert checked == len(tricks) and not_lowest >= 1


@pytest.mark.parametrize("args,needle", [
    (["play", "-c", "hearts"], "unknown contract 'hearts'"),
    (["play", "-c", "trumps", "--trump", "X"], "unknown trump choice 'X'"),
    (["play", "-c", "domino", "--domino-rank", "1"], "unknown domino rank '1'"),
    (["play", "--strategy", "genius"], "unknown strategy 'genius'"),
    (["play", "--seat-strategy", "Q=random"], "unknown seat 'Q'"),
    (["play", "--seat-strategy", "random"], "SEAT=NAME"),
    (["play", "--deal", "N:AKQ.JT9.876.5432"], "4 hands"),
    (["play", "--deal", "N:AKQJT98765432... AKQJT98765432... ..AKQJT98765432. ...AKQJT98765432"], "twice"),
    (["play", "--seed", "-1"], "non-negative"),
    (["play", "--rules", "casino"], "unknown rules preset"),
    (["play", "-o", "trumps-overtrump=perhaps"], "on or off"),
    (["play", "--declarer", "X"], "unknown seat"),
    (["play", "--seat-strategy", "N=plugin_examples:cheat"], "not a legal card"),
    (["run", "-c", "hearts"], "unknown contract 'hearts'"),
    (["run", "--trump", "purple"], "unknown trump choice"),
    (["run", "--domino-rank", "15"], "unknown domino rank"),
    (["run", "--strategy", "genius"], "unknown strategy"),
    (["run", "-n", "-3"], "positive"),
    (["run", "-n", "0"], "positive"),
    (["run", "-n", "200000000"], "at most"),
    (["run", "--threads", "0"], "at least 1"),
    (["run", "--resume"], "not a directory"),
    (["report", "/no/such/run"], "not a directory"),
    (["plot", "/no/such/run"], "not a directory"),
])
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, args, needle):
    if args[0] == "run":  # a run is refused before it writes its folder
        args = args + ["--out", str(tmp_path / "x"), "--no-progress"]
    assert_one_line_error(runner.invoke(app, args), needle)
    assert not (tmp_path / "x").exists()


def test_readme_strategy_example_runs(tmp_path):
    root = Path(__file__).parent.parent
    pages = [p.read_text() for p in (root / "README.md", *sorted((root / "docs").glob("*.md"))) if p.exists()]
    [page] = [p for p in pages if "# my_strategy.py\n" in p][:1]  # the README, or the docs page it moved to
    block = page.split("# my_strategy.py\n", 1)[1].split("```", 1)[0]
    (tmp_path / "my_strategy.py").write_text(block)
    spec = f"{tmp_path / 'my_strategy.py'}:cautious"
    result = runner.invoke(app, ["play", "-c", "no-hearts", "--seat-strategy", f"E={spec}"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["run", "-n", "500", "--strategy", spec, "--seat-strategy", "N=heuristic",
                                 "--out", str(tmp_path / "run"), "--no-progress"])
    assert result.exit_code == 0, result.output
