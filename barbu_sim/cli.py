"""The ``barbu-sim`` command line: thin typer commands over the library."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from . import __version__

app = typer.Typer(
    help="barbu-sim: simulate the card game Barbu and measure what its contracts are worth.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def fail(message: str) -> None:
    """Print a one-line error and exit with code 2 (a usage error, never a traceback)."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(2)


def version_callback(value: bool):
    if value:
        typer.echo(f"barbu-sim {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[bool, typer.Option("--version", callback=version_callback, is_eager=True,
                                                    help="Print the version and exit.")] = False,
):
    """Simulate Barbu deals under pluggable strategies and analyse the scores."""


RulesOpt = Annotated[Optional[str], typer.Option(
    "--rules", help="Rules preset (default, strict-barbu, overtrump, free-discard, every-dealer) or a .toml file.")]
OptionOpt = Annotated[Optional[list[str]], typer.Option(
    "--option", "-o", help="Override one rule option, NAME=VALUE (e.g. trumps-overtrump=on). Repeatable.")]


def load_cli_rules(rules: str | None, option: list[str] | None):
    from .rules import load_rules, parse_option_pairs
    return load_rules(rules, parse_option_pairs(option or []))


@app.command()
def rules(rules: RulesOpt = None, option: OptionOpt = None):
    """Print the contracts and the rule options in force.

    Example: barbu-sim rules --rules strict-barbu -o domino-payout=50,20,0,-5
    """
    from .rules import describe_rules
    try:
        typer.echo(describe_rules(load_cli_rules(rules, option)))
    except ValueError as e:
        fail(str(e))


def parse_seat_strategies(strategy: str, seat_strategy: list[str] | None) -> list[str]:
    """Four strategy specs by seat: ``strategy`` everywhere, then ``SEAT=NAME`` overrides."""
    from .cards import parse_seat
    specs = [strategy] * 4
    for item in seat_strategy or []:
        if "=" not in item:
            raise ValueError(f"--seat-strategy {item!r} must be SEAT=NAME, e.g. N=random")
        seat, name = item.split("=", 1)
        specs[parse_seat(seat)] = name.strip()
    return specs


@app.command()
def play(
    contract: Annotated[str, typer.Option("--contract", "-c", help="no-tricks, no-queens, no-last-two, no-hearts, barbu, trumps or domino.")] = "no-tricks",
    seed: Annotated[int, typer.Option(help="Seed of the random deal (ignored with --deal).")] = 0,
    index: Annotated[int, typer.Option("--index", help="Which deal of the seed's sequence (deal i of a run).")] = 0,
    deal: Annotated[Optional[str], typer.Option(help="A PBN deal to play instead, e.g. 'N:AKQ.JT9.876.5432 ...'.")] = None,
    declarer: Annotated[str, typer.Option(help="Declarer seat: N, E, S or W.")] = "N",
    trump: Annotated[Optional[str], typer.Option(help="Trumps: suit S, H, D or C, or a policy: longest (default), strongest.")] = None,
    domino_rank: Annotated[Optional[str], typer.Option(help="Domino: starting rank 2..10, J, Q, K, A (default 7), or the policy most-held.")] = None,
    strategy: Annotated[str, typer.Option(help="Strategy for every seat: random, heuristic, path/to/file.py:func or module:func.")] = "heuristic",
    seat_strategy: Annotated[Optional[list[str]], typer.Option(help="Strategy for one seat, SEAT=NAME (e.g. E=random). Repeatable.")] = None,
    rules: RulesOpt = None,
    option: OptionOpt = None,
    symbols: Annotated[bool, typer.Option(help="Print suits as ♠♥♦♣.")] = False,
):
    """Play one deal under a contract and print it trick by trick.

    Examples:

      barbu-sim play --contract barbu --seed 7

      barbu-sim play -c domino --domino-rank 8 --seat-strategy N=random

      barbu-sim play -c trumps --trump H --deal "N:AKQJ.AKQ.AKQ.AKQ ..."
    """
    from .cards import parse_pbn, parse_seat, random_deal
    from .choices import parse_domino_choice, parse_trump_choice, resolve_choice
    from .engine import play_deal
    from .record import format_record
    from .rules import DOMINO, TRUMPS, parse_contract
    try:
        cid = parse_contract(contract)
        the_rules = load_cli_rules(rules, option)
        if seed < 0 or index < 0:
            raise ValueError("--seed and --index must be non-negative")
        hands = parse_pbn(deal) if deal else random_deal(seed, index)
        seat = parse_seat(declarer)
        param = 0
        if cid == TRUMPS:
            param = resolve_choice(cid, parse_trump_choice(trump)[0], hands[seat])
        elif cid == DOMINO:
            param = resolve_choice(cid, parse_domino_choice(domino_rank)[0], hands[seat])
        specs = parse_seat_strategies(strategy, seat_strategy)
        result = play_deal(hands, cid, specs, param=param, declarer=seat, rules=the_rules,
                           seed=seed, index=index)
    except ValueError as e:
        fail(str(e))
    source = "given deal" if deal else f"deal {index} of seed {seed}"
    names = ", ".join(f"{'NESW'[s]}={n}" for s, n in enumerate(specs)) if len(set(specs)) > 1 else specs[0]
    typer.echo(format_record(result, the_rules, symbols=symbols, title=f"{source}; strategies: {names}"))


if __name__ == "__main__":
    app()
