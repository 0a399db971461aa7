"""Issue 43, the table and the sheet: the review of a session reads what its hints read, the estimator's and
the bots' compiles said only when they happen, the advisor at the contract and doubling prompts, a forced
Domino card said, and the sheet's and the session file's absurd inputs refused in one line."""

import re
import subprocess
import sys

import numpy as np
import pytest
from cli_checks import assert_clean_error, invoke, read_only
from interrupting import ENDLESS, ctrl_c_once_entered
from typer.testing import CliRunner

from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.table.session import Session, TableSettings
from barbu_sim.barbu.table import deal as table_deal
from barbu_sim.barbu.position import Position
from barbu_sim.barbu.table.deal import PASS, Bot, Console, Hints, play_at_table
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
    assert f"barbu-sim review {path} shows the same for this decision" in " ".join(hint.split())
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
# (the first hint's and the review's compile of mc's estimator: see 6 below, said once, by ensure_compiled)
def test_estimator_cached_is_true_once_the_estimator_is_ready():
    from barbu_sim.barbu.review import estimate
    table_deal.estimator_ready()
    assert estimate.estimator_cached()


@pytest.mark.parametrize("spec", ["heuristic", "mc:samples=2"])
def test_a_bot_is_compiled_up_front_through_the_announcing_path(compile_calls, spec):
    """A bot's strategy is made ready when the bot is made, before the first card, through the path that says
    a compile on stderr; the signature made ready is the one the bot then calls: nothing compiles silently."""
    calls = compile_calls
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


def block_as_south(tmp_path, replies, first, hint_samples=4):
    """What South is told at a block (seed 4, the bots heuristic, myopic, compulsory doubles only) declared first
    by seat ``first``, typing ``replies`` (see :func:`scripted`) and then quitting, which ``play`` reports."""
    said = []
    settings = TableSettings(2, ["heuristic", "heuristic", "you", "heuristic"], "block", 4, first,
                             hint_samples=hint_samples)
    session = Session(settings, settings.rules(), Console(scripted(replies), said.append), tmp_path / "t.txt")
    assert not session.play([])
    return said


def test_hint_at_the_contract_prompt_gives_the_advisor_s_sentence(tmp_path):
    said = block_as_south(tmp_path, {"Contract": ["hint", "hint"]}, first=2)
    text = "\n".join(said)
    assert "unknown contract" not in text
    hints = [line for line in said if line.startswith("Hint (the advisor")]
    assert len(hints) == 2 and hints[0] == hints[1]  # asked again: the same answer, at once
    at = said.index(hints[0])
    assert said[at + 1].startswith("Play ")  # the advisor's sentence: play this now, and why


def test_hint_at_the_doubling_prompt_gives_the_advisor_s_call(tmp_path):
    said = block_as_south(tmp_path, {"Double whom?": ["hint"]}, first=0)  # South doubles after North declares
    text = "\n".join(said)
    assert "unknown seat 'hint'" not in text and "Refused" not in text
    hints = [i for i, line in enumerate(said) if line.startswith("Hint (the advisor")]
    assert len(hints) == 1
    # the advice in a player's words, as advise --double says it (4 below)
    assert re.fullmatch(r"S, after N declared .+: (do not double|double [NEW].*)\.", said[hints[0] + 1]), \
        said[hints[0]:hints[0] + 4]


def test_no_hint_at_the_prompts_of_a_table_without_hints(tmp_path):
    said = block_as_south(tmp_path, {"Contract": ["hint"]}, first=2, hint_samples=0)
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
    """table --resume reads at most MAX_RECORD_BYTES of its file, like review (a device that never ends, a huge
    file)."""
    from barbu_sim.barbu.table.session import read_session
    from barbu_sim.barbu.formats.deal_file import MAX_RECORD_BYTES, PlayedDealError
    with pytest.raises(PlayedDealError, match="larger than 4 MiB"):
        read_session("/dev/zero")
    big = tmp_path / "big.txt"
    big.write_bytes(b"#" * (MAX_RECORD_BYTES + 1))
    with pytest.raises(PlayedDealError, match="big.txt is larger than 4 MiB"):
        read_session(big)


def test_verify_games_reads_a_deeply_nested_summary_in_one_line(tmp_path):
    import polars as pl

    from barbu_sim.barbu.game.verify_games import read_records
    pl.DataFrame({"game": [0]}).write_parquet(tmp_path / "games.parquet")
    (tmp_path / "summary.json").write_text("[" * 200000 + "]" * 200000)
    with pytest.raises(ValueError, match="nested too deeply"):
        read_records(tmp_path / "games.parquet")


# ================================================================ issue 43, the adversarial tester's table items
# ---------------------------------------------------------------- 1: Ctrl-C stops a plugin bot that never returns


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess is POSIX")
def test_ctrl_c_stops_a_plugin_bot_that_never_returns_and_saves_the_session(tmp_path):
    """East declares and leads: the plugin bot spins at the first card. Ctrl-C then saves what quit saves
    and ends the command with 130, as it does at a prompt (the kernel cannot be stopped: the process ends)."""
    plugin, path = tmp_path / "endless.py", tmp_path / "t3.txt"
    plugin.write_text(ENDLESS)
    args = ["table", "--bots", f"{plugin}:spin", "--declarer", "E", "--save", str(path), *QUICK]
    err = ctrl_c_once_entered(args, plugin, stdin=subprocess.PIPE)
    assert "Traceback" not in err and f"Interrupted: the session is saved in {path}" in err, err
    from barbu_sim.barbu.table.session import read_session
    settings, deals = read_session(path)  # the deal in play, no card of it played
    assert settings.bots[1] == f"{plugin}:spin" and len(deals) == 1 and deals[0].plays == []


RANDOM_PLUGIN = '''
from numba import njit
from barbu_sim.core.bits import nth_set_bit, popcount
from barbu_sim.core.rng import rand_below

@njit
def pick(legal, hand, state, rng):
    return nth_set_bit(legal, rand_below(rng, popcount(legal)))
'''


def test_a_plugin_bot_plays_through_the_interruptible_call_as_it_plays_in_python(tmp_path):
    """The plugin's move, made in a worker thread without the GIL, is the move its Python call makes, and the
    random stream it draws from advances the same (the bots' cards of a deal taken up must come out the same)."""
    from barbu_sim.core import interrupt
    (tmp_path / "pick.py").write_text(RANDOM_PLUGIN)
    bot = Bot(f"{tmp_path / 'pick.py'}:pick")
    calls = []
    real = interrupt.call_interruptibly
    table_deal_calls = lambda *a, **k: (calls.append(1), real(*a, **k))[1]  # noqa: E731
    pos = Position(random_deal(4, 0), BARBU, 0, 1, Rules(), 4, 0)
    other = Position(random_deal(4, 0), BARBU, 0, 1, Rules(), 4, 0)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(table_deal, "call_interruptibly", table_deal_calls)
        for _ in range(12):
            card = bot.choose(pos)
            expected = int(bot.strategy.func(np.uint64(other.legal()), np.uint64(other.hands[other.seat]),
                                             other.state, other.rng))
            assert card == expected and np.array_equal(pos.rng, other.rng)
            pos.play(card)
            other.play(card)
    assert len(calls) == 12


# ---------------------------------------------------------------- 2: what the hint says reads the same
def test_the_hint_names_the_review_that_reads_the_same(tmp_path):
    """With --review-samples other than --hint-samples, the review at the end is on other layouts: the hint
    promises only what holds, barbu-sim review of the saved file, and that review shows the hint's numbers."""
    path = tmp_path / "s9.txt"
    played = run("table", "--seed", 11, "--save", path, "--hint-samples", 6, "--review-samples", 8,
                 lines=["hint"] + ["1"] * 13)
    assert played.exit_code == 0 and "Review of your decisions" in played.output, played.output
    hint = played.output.split("Hint (mc", 1)[1].split("Play 1:", 1)[0]
    assert "the review of this decision reads the same" not in hint
    assert f"barbu-sim review {path} shows the same for this decision" in " ".join(hint.split())
    review = invoke("review", path, "--seat", "S", "--symbols")
    first = review.output.split("trick  1", 1)[1].split("trick  2", 1)[0]
    assert sorted(VALUE.findall(first)) == sorted(VALUE.findall(hint))


# ---------------------------------------------------------------- 3: options given with --resume
@pytest.fixture
def saved_session(tmp_path):
    path = tmp_path / "t.txt"
    assert run("table", "--seed", 3, "--save", path, *QUICK, lines=["quit"]).exit_code == 0
    return path


def test_options_given_with_resume_that_differ_from_the_session_are_refused(saved_session):
    path = saved_session
    before = path.read_text()
    result = run("table", "--resume", path, "--seat", "N", "--seed", 5, "-c", "no-queens", "--hint-samples", 0,
                 "--bots", "random", lines=["1"] * 13)
    assert_clean_error(result, f"--resume goes on with the session saved in {path}", "--seat N (the session has S)",
                       "--seed 5 (the session has 3)", "--contract no-queens (the session has barbu)",
                       "--bots random (the session has heuristic)")
    assert "--hint-samples" not in result.output  # 0, as saved
    assert len(result.output.splitlines()) == 1 and path.read_text() == before


@pytest.mark.parametrize("given, needle", [
    (["--length", "block"], "--length block (the session has deal)"),
    (["--declarer", "W"], "--declarer W (the session has S)"),
    (["--trump", "H"], "--trump H (the session has none)"),
    (["--domino-rank", "9"], "--domino-rank 9 (the session has none)"),
    (["--bot", "W=random"], "--bot W=random (the session has W=heuristic)"),
    (["--bot-contracts", "fixed"], "--bot-contracts fixed (the session has myopic)"),
    (["--bot-doubling", "always"], "--bot-doubling always (the session has compulsory-only)"),
    (["--hint-samples", 8], "--hint-samples 8 (the session has 0)"),
    (["--option", "barbu-king=-30"], "--rules/--option give barbu-king=-30 (the session has the default rules)"),
    (["--save", "other.txt"], "--save other.txt (the session is saved again in"),
])
def test_each_option_given_with_resume_is_held_to_the_session(saved_session, given, needle):
    result = run("table", "--resume", saved_session, *given, lines=["1"] * 13)
    assert_clean_error(result, needle)
    assert len(result.output.splitlines()) == 1


def test_options_given_with_resume_as_saved_or_not_saved_are_taken(saved_session):
    result = run("table", "--resume", saved_session, "--seed", 3, "--seat", "S", "-c", "barbu", "--bots",
                 "heuristic", "--hint-samples", 0, "--review-samples", 0, "--force", lines=["1"] * 13)
    assert result.exit_code == 0 and "The session is saved" in result.output, result.output


# ---------------------------------------------------------------- 4: the doubling hint in a player's words
def test_the_doubling_hint_says_the_advice_in_a_player_s_words(tmp_path, monkeypatch):
    """The table's doubling hint reads as advise --double does: why nobody is doubled (the margin), and no
    analyst's jargon (the hand proxy, held-out hands)."""
    import polars as pl

    from barbu_sim.barbu.game import advice
    from barbu_sim.barbu.game.advice import DoubleAdvice, advise_double

    def answer(*args, **kwargs):
        real = advise_double(*args, **{**kwargs, "n_samples": 20})  # the situation as the table asks it
        rows = pl.DataFrame({"target": ["N (declarer)", "W"], "expected_gain": [-8.3, 4.3], "ci_low": [-10.7, 1.7],
                             "ci_high": [-5.9, 6.9], "deals": [500, 500]})
        return DoubleAdvice(rows, [], {}, real.conditioned, "In Barbu the hand proxy explains only 0.15 of the "
                            "declarer's advantage on held-out hands", seat=real.seat, declarer=real.declarer,
                            announced=real.announced, margin=5.0, owed=0, hands_left=real.hands_left, level=0,
                            trusted=False, reliability=0.15)
    monkeypatch.setattr(advice, "advise_double", answer)
    said = block_as_south(tmp_path, {"Double whom?": ["hint"]}, first=0)
    start = next(i for i, line in enumerate(said) if line.startswith("Hint (the advisor"))
    hint = " ".join(" ".join(said[start:start + 12]).split())
    assert re.fullmatch(r"S, after N declared .+: do not double\.", said[start + 1]), said[start + 1]
    assert "No double on W: +4.3 points to you on average (95% CI +1.7 to +6.9), not more than the 5-point " \
           "margin." in hint
    for jargon in ("proxy", "held-out", "Expected gain of doubling", "Double: nobody"):
        assert jargon not in hint


# ---------------------------------------------------------------- 5: no control character echoed
@pytest.mark.parametrize("command", ["table", "sheet"])
def test_a_typed_line_is_echoed_without_its_control_characters(tmp_path, command):
    args = ["--out", tmp_path / "s"] if command == "sheet" else ["--save", tmp_path / "t.txt", *QUICK]
    typed = "\x1b[2J\x1b]0;title\x07x\x7f\x9b31m\x00y"
    result = run(command, *args, lines=[typed, "quit"])
    assert result.exit_code == 0, result.output
    for control in ("\x1b", "\x7f", "\x9b", "\x00", "\x07"):
        assert control not in result.output, repr(result.output[-500:])
    echoed = [line for line in result.output.splitlines() if line.rstrip().endswith("y") and ">" in line]
    assert echoed and r"\x1b[2J" in echoed[0], result.output  # shown escaped, not acted on


# ---------------------------------------------------------------- 6: the estimator's compile said once
def test_the_first_hint_and_the_review_leave_the_compile_to_the_one_announcement(tmp_path, monkeypatch):
    """The compile of mc's estimator is said once, by core.compiling.ensure_compiled (with its seconds counter
    on a terminal): the table adds no line of its own before the first hint or the review."""
    from barbu_sim.barbu.review import estimate
    readied = []
    monkeypatch.setattr(estimate, "estimator_cached", lambda: False)  # a first session: the estimator compiles
    monkeypatch.setattr(estimate, "estimator_ready", lambda: readied.append(1))
    said = []
    hints = Hints(2, 2, Console(None, said.append))
    pos = Position(random_deal(2, 0), BARBU, 0, 2, Rules(), 2, 0)
    assert hints(pos).startswith("Hint") and readied
    assert said == []
    result = run("table", "--seed", 2, "--save", tmp_path / "t.txt", "--hint-samples", 0, "--review-samples", 2,
                 lines=["1"] * 13)
    assert result.exit_code == 0 and "Review of your decisions" in result.output, result.output
    assert "Preparing" not in result.output


def test_a_line_that_is_not_utf8_is_echoed_without_its_raw_bytes():
    """A piped line that is not UTF-8 keeps its bytes as lone surrogates (\\udc9b: the byte 0x9b, C1's CSI), which
    would print as those bytes: the echo writes them out too."""
    said = []
    console = Console(lambda prompt: "\x1b[2J\udc9b1m ok", said.append)
    assert console.ask("Play >") == "\x1b[2J\udc9b1m ok"  # what was typed, read as typed
    assert said == [r"Play > \x1b[2J\x9b1m ok"]
