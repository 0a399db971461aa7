"""The study commands: ``barbu-sim compare`` and ``barbu-sim clabber compare``, the paired comparison of two players.

Each command parses its options, makes one call into the wing's ``studies`` room, and prints the
table; a user mistake ends in a one-line ``Error: ...`` with exit code 2.
"""

from __future__ import annotations

from textwrap import fill
from typing import Annotated, Optional

import typer

from .app import (
    BARBU_STRATEGY_CHOICES, PLUGIN_SPECS, OptionOpt, ProgressOpt, RulesOpt, ThreadsOpt, app, check_new_file,
    check_range, check_seed, fail, interrupted, load_cli_rules,
)
from .barbu import CONTRACT_NAMES
from .clabber import BIDDING_CHOICES, STRATEGY_CHOICES as CLABBER_STRATEGY_CHOICES, OptionOpt as ClabberOptionOpt
from .clabber import clabber_app

# The library's defaults, repeated here so that --help does not import numba (tests/test_compare.py checks them).
DEFAULT_DEALS = 10_000  # barbu.studies.compare.DEFAULT_DEALS
DEFAULT_ROUNDS = 10_000  # clabber.studies.compare.DEFAULT_ROUNDS
MAX_UNITS = 100_000_000  # the studies' MAX_DEALS / MAX_ROUNDS

SeedOpt = Annotated[int, typer.Option(
    metavar="SEED", help="Seed 0..2^64-1: deal (round) i is a pure function of (seed, i), so A and B play the "
                         "same ones.")]
CompareOutOpt = Annotated[Optional[str], typer.Option(
    metavar="FILE.json",
    help="Also write the table (and the configuration) to this JSON file; an existing file is refused unless --force.")]
CompareForceOpt = Annotated[bool, typer.Option(help="Replace the --out file if it exists.")]


WORDS = {"longest": "the declarer's longest suit", "strongest": "the declarer's strongest suit",
         "most-held": "the rank the declarer holds most of"}


def _signed(x: float | None, digits: int) -> str:
    return "n/a" if x is None else f"{x:+.{digits}f}"


def _table(head: str, rows: list[dict], key: str) -> list[str]:
    """The rows as aligned text: name, A's mean, B's mean, A better by (95% CI)."""
    width = max(len(head), *(len(r[key]) for r in rows))
    lines = [f"{head:<{width}}  {'A mean':>8}  {'B mean':>8}  A better by (95% CI)"]
    for r in rows:
        lines.append(f"{r[key]:<{width}}  {_signed(r['a_mean'], 2):>8}  {_signed(r['b_mean'], 2):>8}  "
                     f"{_signed(r['a_better_by'], 3):>7} ({_signed(r['ci_low'], 3)} .. {_signed(r['ci_high'], 3)})")
    return lines


def barbu_text(result, rules_label: str) -> str:
    """What ``barbu-sim compare`` prints for a :class:`~barbu_sim.barbu.studies.compare.Comparison`."""
    played = []
    for contract, words in result.choices.items():
        if contract == "trumps":
            played.append(f"Trumps with {WORDS.get(words, words)} as trumps")
        elif contract == "domino":
            played.append(f"Domino from {WORDS.get(words, 'the ' + words)}")
    lines = [f"A = {result.a}, B = {result.b}: each at one seat among three {result.opponents}, on the same "
             f"{result.deals:,} deals of seed {result.seed}, every seat and declarer (16 plays a deal).",
             f"Rules: {rules_label}." + (f" {'; '.join(played)}." if played else "")]
    if result.lower_is_better:
        lines.append("The lowest total wins under these rules: A better by = B - A (positive: A plays the seat "
                     "better).")
    else:
        lines.append("A better by = A - B (positive: A plays the seat better); raw points per deal.")
    return "\n".join([fill(line, _width()) for line in lines] + [""]
                     + _table("contract", result.table.to_dicts(), "contract"))


def clabber_text(result) -> str:
    """What ``barbu-sim clabber compare`` prints for a :class:`~barbu_sim.clabber.studies.compare.Comparison`."""
    lines = [f"A = {result.a}, B = {result.b}: each at one seat among three {result.opponents} (its partner one of "
             f"them), on the same {result.rounds:,} rounds of seed {result.seed}, every seat and dealer (16 plays a "
             f"round); bidding {result.bidding}.",
             "The measure: the seat's team's net score, its round score minus the other team's, per round, by the "
             "seat's team's role. A better by = A - B (positive: A plays the seat better)."]
    return "\n".join([fill(line, _width()) for line in lines] + [""] + _table("role", result.table.to_dicts(), "role"))


def _width() -> int:
    """The width the preamble is wrapped at: on a terminal, its width (at most 100, at least 40), else 100
    (a pipe or a file gets the same text wherever it runs)."""
    import shutil
    import sys
    if not sys.stdout.isatty():
        return 100
    return max(40, min(100, shutil.get_terminal_size((100, 24)).columns))


def _rules_label(rules: str | None, option: list[str] | None) -> str:
    label = rules or "default"
    return label + (f" with {', '.join(option)}" if option else "")


def _write(out: str | None, data: dict) -> None:
    if out:
        from ..core.files import write_json
        write_json(out, data, what="the comparison")
        typer.echo(f"\nWrote {out}")


@app.command()
def compare(
    a: Annotated[str, typer.Argument(
        metavar="A", help=f"Player A, at one seat: {BARBU_STRATEGY_CHOICES}, {PLUGIN_SPECS}.")],
    b: Annotated[str, typer.Argument(metavar="B", help="Player B, in the same seat on the same deals.")],
    opponents: Annotated[str, typer.Option(
        metavar="NAME", help="The player of the other three seats (any player A may be).")] = "heuristic",
    contract: Annotated[Optional[list[str]], typer.Option(
        "--contract", "-c", metavar="CONTRACT",
        help=f"A contract to compare: {CONTRACT_NAMES} (repeatable; default all seven).")] = None,
    deals: Annotated[int, typer.Option(
        "--deals", "-n", metavar="N",
        help=f"Deals, 2..{MAX_UNITS:,} (each played 16 times a contract by A and by B).")] = DEFAULT_DEALS,
    seed: SeedOpt = 0,
    rules: RulesOpt = None,
    option: OptionOpt = None,
    threads: ThreadsOpt = None,
    out: CompareOutOpt = None,
    force: CompareForceOpt = False,
    progress: ProgressOpt = True,
):
    """Compare two players in one seat: A among three opponents against B in that seat, on the same deals.

    Each deal is played with A at each seat in turn and the declarer at each seat in turn (16 plays
    a contract), and again with B in A's place; a deal's 16 scores are averaged into one number.
    The table gives, per contract and for the total over the contracts compared, A's and B's mean
    and how much better A plays the seat, with a 95% confidence interval over deals (paired: both
    players meet the same cards). Trumps is played with the declarer's longest suit as trumps and
    Domino from the 7 (barbu-sim run's defaults). Under rules where the lowest total wins, A better
    by is B - A.

    Examples:

      barbu-sim compare heuristic basic -c barbu -c trumps -n 500

      barbu-sim compare basic random --opponents basic -n 300 --rules positive-penalties

      barbu-sim compare heuristic random -c no-hearts -n 200 --out compare.json --force
    """
    from ..barbu.studies.compare import compare as compare_players
    try:
        check_range(deals, "--deals", 2, MAX_UNITS)
        check_seed(seed)
        the_rules = load_cli_rules(rules, option)
        check_new_file(out, "--out", force)  # before any deal is played
        result = compare_players(a, b, opponents=opponents, contracts=contract, deals=deals, seed=seed,
                                 rules=the_rules, threads=threads, progress=progress)
    except KeyboardInterrupt:
        interrupted("nothing was written")
    except ValueError as e:
        fail(str(e))
    typer.echo(barbu_text(result, _rules_label(rules, option)))
    _write(out, result.to_dict())


@clabber_app.command("compare")
def clabber_compare(
    a: Annotated[str, typer.Argument(metavar="A", help=f"Card player A, at one seat: {CLABBER_STRATEGY_CHOICES}.")],
    b: Annotated[str, typer.Argument(metavar="B", help="Card player B, in the same seat on the same rounds.")],
    opponents: Annotated[str, typer.Option(
        metavar="NAME", help="The card player of the other three seats, A's partner included.")] = "heuristic",
    rounds: Annotated[int, typer.Option(
        "--rounds", "-n", metavar="N",
        help=f"Rounds, 2..{MAX_UNITS:,} (each played 16 times by A and by B).")] = DEFAULT_ROUNDS,
    bidding: Annotated[str, typer.Option(
        metavar="POLICY", help=f"Bidding policy of every seat: {BIDDING_CHOICES}. Default accept-first: the dealer's "
                               "left makes with the turned suit, whoever plays the cards.")] = "accept-first",
    seed: SeedOpt = 0,
    option: ClabberOptionOpt = None,
    threads: ThreadsOpt = None,
    out: CompareOutOpt = None,
    force: CompareForceOpt = False,
    progress: ProgressOpt = True,
):
    """Compare two card players in one seat: A among three opponents against B in that seat, on the same rounds.

    Each round is played with A at each seat in turn and the dealer at each seat in turn (16
    plays), and again with B in A's place. The measure is the seat's team's net score (its round
    score minus the other team's), averaged per round over the plays where the seat's team makes,
    where it defends, and over all 16 (the total); the table gives A's and B's mean and how much
    better A plays, with a 95% confidence interval over rounds. The bidding is fixed by --bidding,
    so that A and B meet the same contracts.

    Examples:

      barbu-sim clabber compare heuristic random -n 2000

      barbu-sim clabber compare random heuristic --opponents random -n 1000 -o misplay=penalty --out c.json
    """
    from ..clabber.rules.config import parse_rule_options
    from ..clabber.studies.compare import compare as compare_players
    try:
        check_range(rounds, "--rounds", 2, MAX_UNITS)
        check_seed(seed)
        the_rules = parse_rule_options(option)
        check_new_file(out, "--out", force)  # before any round is played
        result = compare_players(a, b, opponents=opponents, rounds=rounds, seed=seed, bidding=bidding,
                                 rules=the_rules, threads=threads, progress=progress)
    except KeyboardInterrupt:
        interrupted("nothing was written")
    except ValueError as e:
        fail(str(e))
    typer.echo(clabber_text(result))
    _write(out, result.to_dict())
