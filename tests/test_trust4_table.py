"""Issue 43, the table and the sheet: the review of a session reads what its hints read, the estimator's and
the bots' compiles said only when they happen, the advisor at the contract and doubling prompts, a forced
Domino card said, and the sheet's and the session file's absurd inputs refused in one line."""

import re

import pytest
from cli_checks import assert_clean_error, invoke, read_only
from typer.testing import CliRunner

from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.game.table_session import Session, TableSettings
from barbu_sim.barbu.played import table_deal
from barbu_sim.barbu.played.position import Position
from barbu_sim.barbu.played.table_deal import PASS, PREPARING_HINTS, Bot, Console, Hints, play_at_table
from barbu_sim.barbu.rules import BARBU, DOMINO, Rules
from barbu_sim.cli import app

runner = CliRunner()
QUICK = ["--review-samples", "0", "--hint-samples", "0"]
# a card's value as the hint and review --symbols write it: ♣9  -9.41±0.12
VALUE = re.compile(r"([♠♥♦♣](?:10|[2-9JQKA]))\s+([+-]\d+\.\d\d)±(\d+\.\d\d)")


def run(*args, lines=()):
    result = runner.invoke(app, [str(a) for a in args], input="".join(f"{line}\n" for line in lines))
    assert "Traceback" not in result.output, result.output
    return result


# ---------------------------------------------------------------- 9: the review of a session reads what its hint read
def test_the_review_of_a_table_session_reads_what_its_hint_read(tmp_path):
    path = tmp_path / "t.txt"
    played = run("table", "--seed", 3, "--save", path, "--hint-samples", 6, "--review-samples", 0,
                 lines=["hint"] + ["1"] * 13)
    assert played.exit_code == 0 and "The session is saved" in played.output, played.output
    hint = played.output.split("Hint (mc", 1)[1].split("Play 1:", 1)[0]
    assert "the review of this decision reads the same" in hint
    shown = sorted(VALUE.findall(hint))
    assert len(shown) >= 10  # South's first lead: every legal card valued
    review = invoke("review", path, "--seat", "S", "--symbols")  # no --seed, no --samples: the session's
    assert review.exit_code == 0, review.output
    assert "(seed 3;" in review.output and "over 6 to " in review.output
    first = review.output.split("trick  1", 1)[1].split("trick  2", 1)[0]  # South's first decision
    assert sorted(VALUE.findall(first)) == shown
    # --seed and --samples given are the reader's: they are kept
    other = invoke("review", path, "--seat", "S", "--symbols", "--seed", 0, "--samples", 8)
    assert other.exit_code == 0 and "(seed 0;" in other.output and "over 8 to " in other.output


# ---------------------------------------------------------------- 10: the compiles said only when they happen
@pytest.mark.parametrize("cached", [True, False])
def test_the_first_hint_says_preparing_only_when_the_estimator_must_compile(monkeypatch, cached):
    said = []
    monkeypatch.setattr(table_deal, "estimator_cached", lambda: cached)
    hints = Hints(2, 2, Console(None, said.append))
    pos = Position(random_deal(2, 0), BARBU, 0, 2, Rules(), 2, 0)
    assert hints(pos).startswith("Hint") and hints(pos).startswith("Hint")
    assert said == ([] if cached else [PREPARING_HINTS])


def test_estimator_cached_is_true_once_the_estimator_is_ready():
    table_deal.estimator_ready()
    assert table_deal.estimator_cached()


@pytest.mark.parametrize("cached", [True, False])
def test_the_review_at_the_end_says_preparing_only_when_the_estimator_must_compile(tmp_path, monkeypatch, cached):
    monkeypatch.setattr(table_deal, "estimator_ready", lambda: None)
    monkeypatch.setattr(table_deal, "estimator_cached", lambda: cached)
    result = run("table", "--seed", 2, "--save", tmp_path / "t.txt", "--hint-samples", 0, "--review-samples", 2,
                 lines=["1"] * 13)
    assert result.exit_code == 0 and "Review of your decisions" in result.output
    assert result.output.count(table_deal.preparing("the review")) == (0 if cached else 1)


@pytest.mark.parametrize("spec", ["heuristic", "mc:samples=2"])
def test_a_bot_is_compiled_up_front_through_the_announcing_path(monkeypatch, spec):
    """A bot's strategy is made ready when the bot is made, before the first card, through the path that says
    a compile on stderr; the signature made ready is the one the bot then calls: nothing compiles silently."""
    from barbu_sim.core import compiling
    calls = []
    real = compiling.ensure_compiled

    def spy(dispatcher, args, what, key):
        calls.append((dispatcher, args, what))
        return real(dispatcher, args, what, key)

    monkeypatch.setattr(compiling, "ensure_compiled", spy)
    bot = Bot(spec)
    assert len(calls) == 1 and "bot" in calls[0][2]
    dispatcher, args, _ = calls[0]
    assert args in dispatcher.overloads
    before = set(dispatcher.overloads)
    pos = Position(random_deal(2, 0), BARBU, 0, 1, Rules(), 2, 0)
    for _ in range(3):
        pos.play(bot.choose(pos))
    assert set(dispatcher.overloads) == before


PLUGIN = """
from numba import njit, int64, uint64

@njit(int64(uint64, uint64, uint64[:], uint64[:]))
def lowest_typed(legal, hand, state, rng):
    card = 0
    while (legal >> uint64(card)) & uint64(1) == uint64(0):
        card += 1
    return card
"""


def test_a_plugin_bot_of_explicit_signature_plays(tmp_path):
    """A plugin compiled when it was defined (``@njit(signature)``) has nothing left to compile: it plays."""
    (tmp_path / "typed.py").write_text(PLUGIN)
    bot = Bot(f"{tmp_path / 'typed.py'}:lowest_typed")
    pos = Position(random_deal(2, 0), BARBU, 0, 1, Rules(), 2, 0)
    for _ in range(3):
        pos.play(bot.choose(pos))
    assert len(pos.plays) == 3


# ---------------------------------------------------------------- 11: the advisor at the contract and doubling prompts
def scripted(replies):
    """A player who types ``replies[prompt word]`` in turn at each prompt (then quits)."""
    queues = {k: list(v) for k, v in replies.items()}

    def read(prompt):
        for word, queue in queues.items():
            if prompt.startswith(word) and queue:
                return queue.pop(0)
        return "quit"
    return read


def test_hint_at_the_contract_prompt_gives_the_advisor_s_sentence(tmp_path):
    said = []
    settings = TableSettings(2, ["heuristic", "heuristic", "you", "heuristic"], "block", 4, 2, hint_samples=4)
    session = Session(settings, settings.rules(), Console(scripted({"Contract": ["hint", "hint"]}), said.append),
                      tmp_path / "t.txt")
    assert not session.play([])
    text = "\n".join(said)
    assert "unknown contract" not in text
    hints = [line for line in said if line.startswith("Hint (the advisor")]
    assert len(hints) == 2 and hints[0] == hints[1]  # asked again: the same answer, at once
    at = said.index(hints[0])
    assert said[at + 1].startswith("Play ")  # the advisor's sentence: play this now, and why


def test_hint_at_the_doubling_prompt_gives_the_advisor_s_call(tmp_path):
    said = []
    # South doubles after North declares; the bots myopic, compulsory doubles only
    settings = TableSettings(2, ["heuristic", "heuristic", "you", "heuristic"], "block", 4, 0, hint_samples=4)
    session = Session(settings, settings.rules(), Console(scripted({"Double whom?": ["hint"]}), said.append),
                      tmp_path / "t.txt")
    assert not session.play([])
    text = "\n".join(said)
    assert "unknown seat 'hint'" not in text and "Refused" not in text
    hints = [i for i, line in enumerate(said) if line.startswith("Hint (the advisor")]
    assert len(hints) == 1
    assert re.search(r"^Double: (nobody|[NEW](, [NEW])*)", said[hints[0] + 1], re.M), said[hints[0]:hints[0] + 4]


def test_no_hint_at_the_prompts_of_a_table_without_hints(tmp_path):
    said = []
    settings = TableSettings(2, ["heuristic", "heuristic", "you", "heuristic"], "block", 4, 2, hint_samples=0)
    session = Session(settings, settings.rules(), Console(scripted({"Contract": ["hint"]}), said.append),
                      tmp_path / "t.txt")
    assert not session.play([])
    assert "No hints at this table (--hint-samples 0)" in said


# ---------------------------------------------------------------- 16: a forced Domino card is said as forced
def test_a_forced_domino_card_is_said_to_be_the_only_legal_one():
    said, asked = [], []
    pos = Position(random_deal(0, 0), DOMINO, 5, 2, Rules(), 0, 0)
    bots = {s: Bot("heuristic") for s in (0, 1, 3)}
    play_at_table(pos, 2, bots, Console(lambda prompt: (asked.append(prompt), "1")[1], said.append))
    cards = sum(1 for seat, card in pos.plays if seat == 2 and card != PASS)
    forced = cards - len(asked)  # the cards South was not asked for
    assert forced >= 1
    marked = [line for line in said if line.startswith("South plays") and "your only legal card" in line]
    assert len(marked) == forced
    assert not [line for line in said if "your only legal card" in line and not line.startswith("South")]


# ---------------------------------------------------------------- 17: the sheet and the session file
def test_sheet_in_a_read_only_folder_is_refused_before_the_first_hand(tmp_path, monkeypatch):
    out = tmp_path / "ro"
    read_only(out, monkeypatch)
    result = run("sheet", "--out", out, lines=["barbu 0 -20 0 0", "quit"])
    assert_clean_error(result, str(out), code=1)
    assert "Hand 1" not in result.output  # nothing typed, nothing lost


@pytest.mark.parametrize("command", ["sheet", "table"])
def test_an_absurd_line_is_refused_in_one_line_and_not_echoed(tmp_path, command):
    huge = "x" * 3_000_000
    args = ["--out", tmp_path / "s"] if command == "sheet" else ["--save", tmp_path / "t.txt", *QUICK]
    result = run(command, *args, lines=[huge, "quit"])
    assert result.exit_code == 0, result.output[-2000:]
    assert len(result.output) < 20_000
    refused = [line for line in result.output.splitlines() if "3,000,000 characters" in line]
    assert len(refused) == 1 and refused[0].startswith("Refused:") and len(refused[0]) < 200


@pytest.mark.parametrize("edit, needles", [
    ("options= colour=blue", ["unknown setting 'colour'", "seat, length, seed"]),
    ("seat=N", ["seat=N", "you"]),
    ("length=week", ["length", "deal, block or game"]),
    ("contract=poker", ["contract=poker", "unknown contract"]),
    ("trump=purple", ["trump", "purple"]),
    ("seed=3 seed=4", ["seed", "twice"]),
    ("first=Q", ["first must be N, E, S or W"]),
    ("bots=heuristic|clever|you|heuristic", ["bots=heuristic|clever|you|heuristic", "unknown strategy 'clever'"]),
    ("options=foo=bar", ["options=foo=bar", "unknown option 'foo'"]),
])
def test_an_edited_table_line_with_an_unknown_or_invalid_setting_is_refused(tmp_path, edit, needles):
    path = tmp_path / "t.txt"
    assert run("table", "--seed", 3, "-c", "trumps", "--save", path, *QUICK, lines=["quit"]).exit_code == 0
    key = edit.split("=")[0]
    text = path.read_text()
    if key == "options":
        text = text.replace("options=", edit, 1)
    elif edit.count("=") == 2:
        text = text.replace(f"{key}=3", edit, 1)
    else:
        text = re.sub(rf"(?<=[ :]){key}=\S*", edit, text, count=1)
    assert edit in text
    path.write_text(text)
    result = run("table", "--resume", path, *QUICK, lines=["1"] * 13)
    assert_clean_error(result, "the table line is damaged", *needles)
    assert len(result.output.splitlines()) == 1


def test_a_sheet_whose_summary_is_nested_too_deeply_is_one_line(tmp_path):
    out = tmp_path / "s"
    assert run("sheet", "--out", out, lines=["barbu 0 -20 0 0", "quit"]).exit_code == 0
    (out / "summary.json").write_text("[" * 200_000 + "]" * 200_000)
    result = run("sheet", "--out", out, lines=["quit"])
    assert_clean_error(result, "summary.json", "nested too deeply")


def test_table_resume_caps_what_it_reads(tmp_path):
    """table --resume reads at most MAX_RECORD_BYTES of its file, like review (a device that never ends, a huge file)."""
    from barbu_sim.barbu.game.table_session import read_session
    from barbu_sim.barbu.played.deal_file import MAX_RECORD_BYTES, PlaylogError
    with pytest.raises(PlaylogError, match="larger than 4 MiB"):
        read_session("/dev/zero")
    big = tmp_path / "big.txt"
    big.write_bytes(b"#" * (MAX_RECORD_BYTES + 1))
    with pytest.raises(PlaylogError, match="big.txt is larger than 4 MiB"):
        read_session(big)


def test_verify_games_reads_a_deeply_nested_summary_in_one_line(tmp_path):
    import polars as pl

    from barbu_sim.barbu.game.verify_games import read_records
    pl.DataFrame({"game": [0]}).write_parquet(tmp_path / "games.parquet")
    (tmp_path / "summary.json").write_text("[" * 200000 + "]" * 200000)
    with pytest.raises(ValueError, match="nested too deeply"):
        read_records(tmp_path / "games.parquet")
