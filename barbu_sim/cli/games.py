"""The Barbu commands of full games: game, verify-games, compare-orders, advise.

Each command parses its options, makes one call into the library, and prints;
a user mistake ends in a one-line ``Error: ...`` with exit code 2.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .app import (
    MAX_SAMPLES, BackendOpt, OptionOpt, ProgressOpt, RayAddressOpt, RulesOpt, app, check_out_writable, check_range,
    check_seed, cli_backend, command_errors, fail, interrupted, load_cli_rules, per_seat, typed,
)
from .barbu import CONTRACT_POLICIES, DOUBLING_POLICIES, PLAY_STRATEGY_HELP

MAX_GAMES = 1_000_000  # games per `game` call
MAX_BLOCKS = 50_000  # blocks per `compare-orders`: each holds 7 hands' estimates in memory
MAX_ORDER_GAMES = 10_000
SamplesOpt = Annotated[int, typer.Option(
    metavar="N", help=f"Monte Carlo deals of the unseen cards per hand evaluation (2..{MAX_SAMPLES:,}).")]


@app.command()
def game(
    games: Annotated[int, typer.Option(
        "--games", "-n", metavar="N", help=f"Number of 28-hand games (1..{MAX_GAMES:,}).")] = 10,
    seed: Annotated[int, typer.Option(help="Seed 0..2^64-1: game g, hand h uses deal 28*g+h.")] = 0,
    strategy: Annotated[str, typer.Option(metavar="NAME", help=PLAY_STRATEGY_HELP)] = "heuristic",
    seat_strategy: Annotated[Optional[list[str]], typer.Option(
        metavar="SEAT=NAME", help="Play strategy for one seat, SEAT=NAME. Repeatable.")] = None,
    contract_policy: Annotated[str, typer.Option(
        metavar="POLICY", help=f"Contract choice for every seat: {CONTRACT_POLICIES}.")] = "optimal",
    seat_contract_policy: Annotated[Optional[list[str]], typer.Option(
        metavar="SEAT=POLICY", help="Contract choice for one seat, SEAT=POLICY. Repeatable.")] = None,
    doubling: Annotated[str, typer.Option(
        metavar="POLICY", help=f"Doubling for every seat: {DOUBLING_POLICIES}.")] = "compulsory-only",
    seat_doubling: Annotated[Optional[list[str]], typer.Option(
        metavar="SEAT=POLICY", help="Doubling for one seat, SEAT=POLICY. Repeatable.")] = None,
    samples: SamplesOpt = 100,
    rules: RulesOpt = None,
    option: OptionOpt = None,
    out: Annotated[Optional[str], typer.Option(
        metavar="DIR", help="Directory for hands.parquet and summary.json.")] = None,
    show: Annotated[Optional[int], typer.Option(
        metavar="G", help="Print game number G (0 = the first) as a score sheet.")] = None,
    progress: ProgressOpt = True,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
):
    """Play full 28-hand games: declarer rotation, contract choice, doubling, settlement.

    Examples:

      barbu-sim game -n 1 --show 0

      barbu-sim game -n 2 --seat-contract-policy N=fixed --seat-doubling E=always --out runs/games

      barbu-sim game -n 2 --doubling threshold:5 --seat-contract-policy N=raw-optimal

      barbu-sim game -n 5000 --backend ray --ray-address auto --out runs/games
    """
    from ..barbu.game.game_runs import run_games
    with command_errors("no game record was written", out):
        check_range(games, "--games", 1, MAX_GAMES)
        check_range(samples, "--samples", 2, MAX_SAMPLES)
        check_seed(seed)
        check_out_writable(out)
        if show is not None and not 0 <= show < games:
            raise ValueError(f"--show must name one of the games played, 0..{games - 1}")
        summary, sheet = run_games(
            games=games, seed=seed, strategies=per_seat(strategy, seat_strategy, "--seat-strategy"),
            contract_policies=per_seat(contract_policy, seat_contract_policy, "--seat-contract-policy"),
            doubling_policies=per_seat(doubling, seat_doubling, "--seat-doubling"),
            rules=load_cli_rules(rules, option), samples=samples, out=out, show=show, progress=progress,
            backend=cli_backend(backend, ray_address))
    if sheet:
        typer.echo(sheet)
        typer.echo("")
    typer.echo(summary)


@app.command("verify-games")
def verify_games(
    records: Annotated[str, typer.Argument(
        metavar="FILE", help="A hands.parquet written by barbu-sim game or barbu-sim sheet.")],
    rules: RulesOpt = None,
    option: OptionOpt = None,
):
    """Check recorded games against the rules: contracts, doubles, compulsory doubles, settlement, scores.

    The rules are those of the summary.json beside the file (written by barbu-sim game
    and barbu-sim sheet), else the defaults; --rules / --option override them. A game in
    progress (the first hands of the last game, as a sheet saves them after each hand) is
    checked hand by hand by the same rules, and what is still to play is said: the
    hands and contracts each declarer has left and the compulsory doubles still owed.

    Examples:

      barbu-sim game -n 2 --out runs/games && barbu-sim verify-games runs/games/hands.parquet

      barbu-sim verify-games runs/games/hands.parquet --rules default
    """
    from ..barbu.game.verify_games import format_checks, read_records, verify_records
    try:
        frame, stored = read_records(records)
        the_rules = load_cli_rules(rules, option) if rules is not None or option else stored
        checks = verify_records(frame, the_rules)
    except ValueError as e:
        fail(str(e))
    typer.echo(format_checks(checks))


@app.command("compare-orders")
def compare_orders_cmd(
    policies: Annotated[str, typer.Option(metavar="POLICY,...", help=(
        f"Comma-separated contract policies ({CONTRACT_POLICIES}); the first is the baseline. A fixed order's "
        "contracts follow it: fixed:domino,trumps,...,no-tricks."))] = "fixed,relative,optimal",
    doubling: Annotated[str, typer.Option(metavar="POLICY,...", help=(
        f"Comma-separated doubling policies every seat uses in turn: {DOUBLING_POLICIES}."))] = "compulsory-only",
    blocks: Annotated[int, typer.Option(
        metavar="N", help=f"7-hand blocks played by every policy on the same deals (2..{MAX_BLOCKS:,}).")] = 500,
    games: Annotated[int, typer.Option(metavar="N", help=(
        f"Full games with the seats using different policies, for win rates (0..{MAX_ORDER_GAMES:,})."))] = 40,
    seed: Annotated[int, typer.Option(help="Seed 0..2^64-1 of the deal sequences.")] = 0,
    strategy: Annotated[str, typer.Option(metavar="NAME", help=PLAY_STRATEGY_HELP)] = "heuristic",
    samples: SamplesOpt = 100,
    rules: RulesOpt = None,
    option: OptionOpt = None,
    out: Annotated[Optional[str], typer.Option(
        metavar="DIR", help="Directory for the tables (CSV, JSON, Markdown) and the chart.")] = None,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
):
    """Compare contract-order policies: raw and settled block totals with paired CIs against a baseline, and game
    win rates, under each doubling policy.

    Examples:

      barbu-sim compare-orders --policies fixed,myopic,optimal --blocks 4 --games 2 --samples 20 --out runs/orders

      barbu-sim compare-orders --doubling compulsory-only,bayes --blocks 4 --games 0 --samples 20

      barbu-sim compare-orders --blocks 20000 --samples 400 --backend ray --ray-address auto --out runs/orders
    """
    from ..barbu.game.game_runs import write_comparison
    from ..barbu.game.orders import compare_orders, split_policies
    from ..barbu.players.registry import canonical_strategy
    with command_errors("nothing was written", out):
        check_range(blocks, "--blocks", 2, MAX_BLOCKS)
        check_range(games, "--games", 0, MAX_ORDER_GAMES)
        check_range(samples, "--samples", 2, MAX_SAMPLES)
        check_seed(seed)
        check_out_writable(out)
        result = compare_orders(split_policies(policies),
                                doublings=[d.strip() for d in doubling.split(",") if d.strip()],
                                blocks=blocks, games=games, seed=seed, strategy=strategy,
                                rules=load_cli_rules(rules, option), n_samples=samples,
                                backend=cli_backend(backend, ray_address))
        text = write_comparison(result, out, players=canonical_strategy(strategy))
    typer.echo(text)


def _played_by(strategy: str) -> str:
    """The line that says on which play the advice's numbers rest."""
    from ..barbu.players.registry import canonical_strategy
    name = canonical_strategy(strategy)
    if strategy.strip() == "learned":
        return (f"Numbers from {name} play at every seat (the learned player, trained on the Monte-Carlo "
                "player's estimates); --strategy heuristic for the rule-based player's.")
    return f"Numbers from {name} play at every seat."


@app.command()
def advise(
    ctx: typer.Context,
    hand: Annotated[str, typer.Argument(help="A 13-card hand: 'AS KS 10H ...' or PBN 'AKQ.JT9.876.5432'.")],
    remaining: Annotated[Optional[str], typer.Option(metavar="CONTRACT,...", help=(
        "Contracts the declarer has still to declare, comma-separated (default all seven)."))] = None,
    hand_in_block: Annotated[Optional[int], typer.Option(
        metavar="K", help="Which hand of the declarer's block this is, 1..7 (8-K contracts left).")] = None,
    doubles_owed: Annotated[Optional[str], typer.Option(metavar="SEAT=N,...", help=(
        "Doubles each opponent still owes the declarer, SEAT=N,... (default 2 each, or the hands left)."))] = None,
    doubling: Annotated[str, typer.Option(
        metavar="POLICY", help=f"Doubling policy assumed at every seat: {DOUBLING_POLICIES}.")] = "compulsory-only",
    double: Annotated[Optional[str], typer.Option(metavar="CONTRACT", help=(
        "A defender's question: the declarer named CONTRACT (trumps:H, domino:8, barbu ...); double or not?"))] = None,
    declarer: Annotated[str, typer.Option(
        metavar="SEAT", help="The declarer's seat (N, E, S, W); with --double, HAND is --seat's.")] = "N",
    seat: Annotated[Optional[str], typer.Option(
        metavar="SEAT", help="With --double: your seat (default: across from the declarer).")] = None,
    margin: Annotated[float, typer.Option(
        metavar="POINTS", help="With --double: the expected gain a voluntary double must beat.")] = 5.0,
    strategy: Annotated[str, typer.Option(metavar="NAME", help=(
        PLAY_STRATEGY_HELP.replace("for every", "assumed at every", 1)
        + " The default, learned, plays like the Monte-Carlo player (docs/learned-player.md)."))] = "learned",
    samples: SamplesOpt = 2000,
    seed: Annotated[int, typer.Option(help="Seed 0..2^64-1 of the Monte Carlo deals.")] = 0,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help=(
        "Also print the technical columns: settled, optimal_value, raw_optimal_value."))] = False,
    rules: RulesOpt = None,
    option: OptionOpt = None,
):
    """Which contract to declare with this hand, on settled score; or, with --double, whether to double.

    The answer is one sentence that says why (e.g. play No Last Two now and keep Trumps
    for the hands where the compulsory doubles fall), then each contract left: this
    hand's expected score, an average hand's, and the block total if you play it now;
    then every trump suit and domino starting rank. Seats are relative to the declarer:
    --doubles-owed names the declarer's opponents.

    Examples:

      barbu-sim advise "52.AKQJ97.A83.K4" --samples 200

      barbu-sim advise "AKQ.JT9.876.5432" --remaining trumps,domino,barbu --hand-in-block 5 --samples 200 --verbose

      barbu-sim advise "AKQ.JT9.876.5432" --remaining trumps,barbu --hand-in-block 6 --doubles-owed E=1,S=2,W=0 --samples 200

      barbu-sim advise "T98.765.AK32.QJ2" --double trumps:S --declarer N --seat E --remaining trumps,domino,barbu --samples 200
    """  # noqa: E501 (an example stays on one line: tests/test_cli_help.py runs it as written)
    from textwrap import fill

    from ..barbu.game.advice import (
        advise as advise_hand, advise_double, format_advice, format_double, parse_announced, parse_owed,
    )
    from ..barbu.rules.config import parse_contract
    from ..core.cards import parse_hand
    from ..core.seats import across_from, parse_seat
    try:
        check_range(samples, "--samples", 2, MAX_SAMPLES)
        check_seed(seed)
        mask = parse_hand(hand)
        rem = [parse_contract(c) for c in remaining.split(",") if c.strip()] if remaining is not None else None
        the_declarer = parse_seat(declarer)
        owed = parse_owed(doubles_owed, the_declarer)
        if double is not None:
            if typed(ctx, "doubling"):
                raise ValueError("--doubling does not apply with --double: the double advice is the bayes doubling "
                                 "policy's, with --margin (its gain to beat)")
            contract, param = parse_announced(double)
            me = parse_seat(seat) if seat is not None else across_from(the_declarer)
            answer = advise_double(mask, contract, param, declarer=the_declarer, seat=me, remaining=rem,
                                   hand_in_block=hand_in_block, doubles_owed=owed, margin=margin, strategy=strategy,
                                   rules=load_cli_rules(rules, option), n_samples=samples, seed=seed)
        else:
            result = advise_hand(mask, rem, hand_in_block=hand_in_block, doubles_owed=owed, doubling=doubling,
                                 strategy=strategy, rules=load_cli_rules(rules, option), n_samples=samples, seed=seed)
    except KeyboardInterrupt:
        interrupted("no advice")
    except ValueError as e:
        fail(str(e))
    if double is not None:
        typer.echo(format_double(answer))
        typer.echo(fill(_played_by(strategy), 100))
        return
    typer.echo(format_advice(result, the_declarer, doubling, verbose))
    typer.echo(fill(_played_by(strategy), 100))
