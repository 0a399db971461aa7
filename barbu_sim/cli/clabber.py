"""The Clabber commands, under ``barbu-sim clabber``: play, run, report, plot, game, advise.

Each command parses its options, makes one call into the library, and prints; a user mistake
ends in a one-line ``Error: ...`` with exit code 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .app import (
    CLABBER_BIDDING, CLABBER_STRATEGIES, MAX_SAMPLES, PLUGIN_SPECS, BackendOpt, ProgressOpt, RayAddressOpt,
    RecordForceOpt, ResumeOpt, RunOutOpt, SymbolsOpt, ThreadsOpt, Typer, app, check_new_file, check_out_writable,
    check_range, check_run_flags, check_seed, cli_backend, echo_run_done, fail, interrupted, per_seat,
    plot_run, report_run, run_errors,
)

clabber_app = Typer(help="""Clabber, the 24-card partnership game: play, simulate, report, full games.

    Examples:

      barbu-sim clabber play --seed 7

      barbu-sim clabber run -n 20000 --out runs/clabber-quick && barbu-sim clabber report runs/clabber-quick
    """,
                          no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
app.add_typer(clabber_app, name="clabber")

STRATEGY_CHOICES = (f"{', '.join(CLABBER_STRATEGIES)}, learned (a small network fitted to mc's values: near "
                    "heuristic's speed), mc[:samples=N] (Monte Carlo card play: N layouts of the unseen cards per "
                    f"decision, each card rolled out with heuristic; slow), {PLUGIN_SPECS}")
BIDDING_CHOICES = ", ".join(CLABBER_BIDDING)
StrategyOpt = Annotated[str, typer.Option(metavar="NAME", help=f"Play strategy for every seat: {STRATEGY_CHOICES}.")]
SeatStrategyOpt = Annotated[Optional[list[str]], typer.Option(
    metavar="SEAT=NAME", help="Play strategy for one seat, SEAT=NAME (e.g. E=random). Repeatable.")]
# Two defaults on purpose: `run` measures deals and play, so by default every round is played with the turned
# suit as trump (accept-first; the committed results in results/clabber/ were made so); `play`, `game` and
# `advise` show or advise play as people bid it, so they default to threshold bidding.
BiddingOpt = Annotated[str, typer.Option(metavar="POLICY", help=(
    f"Bidding policy for every seat: {BIDDING_CHOICES}. Default threshold (60): players pass weak hands, as people "
    "bid (clabber run defaults to accept-first instead, so that a run plays every round with the turned suit)."))]
SeatBiddingOpt = Annotated[Optional[list[str]], typer.Option(
    metavar="SEAT=POLICY", help="Bidding policy for one seat, SEAT=POLICY. Repeatable.")]
OptionOpt = Annotated[Optional[list[str]], typer.Option(
    "--option", "-o", metavar="NAME=VALUE",
    help="Rule option NAME=VALUE (e.g. misplay=penalty): partner-excuse on|off, misplay error|penalty, meld-fours "
         "table-order|card-rank, meld-ranking fours-first|points-first, meld-show in-turn|at-once. Repeatable.")]
SeedOpt = Annotated[int, typer.Option(metavar="SEED", help="Seed 0..2^64-1: round i is a pure function of (seed, i).")]
MAX_GAMES = 100_000_000  # games per `clabber game` call


def _setup(strategy, seat_strategy, bidding, seat_bidding, option):
    from ..clabber.api import seat_bidding as check_bidding
    from ..clabber.rules.config import parse_rule_options
    from ..clabber.players.registry import resolve_strategy
    strategies = per_seat(strategy, seat_strategy, "--seat-strategy")
    policies = per_seat(bidding, seat_bidding, "--seat-bidding")
    # mc's spec is recorded in its full form (mc -> mc:samples=48), so that manifests and cache keys
    # name its parameters; other specs stay as given.
    strategies = [name if name.startswith("mc:") else s for s, name in ((s, resolve_strategy(s).name)
                                                                      for s in strategies)]
    check_bidding(policies)
    return strategies, policies, parse_rule_options(option)


@clabber_app.command()
def rules(option: OptionOpt = None):
    """Print Clabber's card order, points, melds, bidding and the rule options in force.

    Examples:

      barbu-sim clabber rules

      barbu-sim clabber rules -o partner-excuse=on -o misplay=penalty
    """
    from ..clabber.rules.config import describe_rules, parse_rule_options
    try:
        typer.echo(describe_rules(parse_rule_options(option)))
    except ValueError as e:
        fail(str(e))


@clabber_app.command()
def play(
    seed: SeedOpt = 0,
    index: Annotated[int, typer.Option(metavar="I", help="Which round of the seed's sequence (round I of a run).")] = 0,
    dealer: Annotated[str, typer.Option(metavar="SEAT", help="Dealer seat: N, E, S or W.")] = "N",
    deal: Annotated[Optional[str], typer.Option(metavar="DEAL", help=(
        "A deal to play instead: 'N:AKQJT9... .AKQJT9.. ..AKQJT9. ...AKQJT9' (with --turned)."))] = None,
    turned: Annotated[Optional[str], typer.Option(
        metavar="CARD", help="With --deal: the turned-up card, one of the dealer's.")] = None,
    bidding: BiddingOpt = "threshold",
    seat_bidding: SeatBiddingOpt = None,
    strategy: StrategyOpt = "heuristic",
    seat_strategy: SeatStrategyOpt = None,
    option: OptionOpt = None,
    symbols: SymbolsOpt = False,
    record: Annotated[Optional[str], typer.Option(
        metavar="FILE", help="Also write the round as a played-round file, which barbu-sim review reads.")] = None,
    force: RecordForceOpt = False,
):
    """Play one round and print it: the deal, the bidding, the melds, the tricks and the score.

    Examples:

      barbu-sim clabber play --seed 7

      barbu-sim clabber play --bidding accept-first --seat-strategy E=random -o partner-excuse=on

      barbu-sim clabber play --seed 3 --seat-bidding N=mc:32

      barbu-sim clabber play --deal "N:AKQJT9... .AKQJT9.. ..AKQJT9. ...AKQJT9" --turned 9C --dealer W

      barbu-sim clabber play --seed 3 --record round.txt
    """
    from ..clabber.api import play_dealt, play_round
    from ..clabber.rules.melds import hand_melds
    from ..clabber.formats.round_text import format_round
    from ..clabber.rules.config import parse_clabber_card, parse_clabber_deal
    from ..core.seats import parse_seat
    try:
        check_seed(seed)
        check_range(index, "--index", 0, 2**63 - 1)
        if (deal is None) != (turned is None):
            raise ValueError("--deal and --turned go together")
        check_new_file(record, "--record", force)  # before the round is played
        strategies, policies, rules = _setup(strategy, seat_strategy, bidding, seat_bidding, option)
        if deal is not None:
            result = play_dealt(parse_clabber_deal(deal), parse_clabber_card(turned), parse_seat(dealer), policies,
                                strategies, rules, seed=seed, index=index)
        else:
            result = play_round(seed, index, parse_seat(dealer), policies, strategies, rules)
    except KeyboardInterrupt:
        interrupted("no round played")
    except ValueError as e:
        fail(str(e))
    melds = None
    if result.row["bid_round"]:
        melds = [hand_melds(result.hands[s], result.row["trump"]) for s in range(4)]
    title = "the given deal" if deal is not None else f"round {index} of seed {seed}"
    typer.echo(format_round(result, melds, symbols=symbols, title=title))
    if record:
        from ..clabber.formats.round_file import format_round_log, round_of
        from ..core.files import write_text
        write_text(record, format_round_log(round_of(result, rules, title)), what="the played round")
        typer.echo(f"\nWrote {record}: barbu-sim review {record} annotates it")


@clabber_app.command()
def run(
    rounds: Annotated[Optional[int], typer.Option(
        "--rounds", "-n", metavar="N", help="Rounds to simulate (default 1,000,000).")] = None,
    bidding: Annotated[Optional[str], typer.Option(metavar="POLICY", help=(
        f"Bidding policy for every seat: {BIDDING_CHOICES}. Default accept-first: the first to speak plays, so every "
        "round is played with the turned suit as trump and a run measures the deal and the play (the committed "
        "results in results/clabber/ were made so); play, game and advise default to threshold, as people "
        "bid."))] = None,
    seat_bidding: SeatBiddingOpt = None,
    strategy: Annotated[Optional[str], typer.Option(
        metavar="NAME", help=f"Play strategy for every seat: {STRATEGY_CHOICES} (default heuristic).")] = None,
    seat_strategy: SeatStrategyOpt = None,
    dealer: Annotated[Optional[str], typer.Option(
        metavar="SEAT", help="Dealer seat of every round: N (default), E, S or W.")] = None,
    seed: Annotated[Optional[int], typer.Option(
        metavar="SEED", help="Seed (default 0): round i is a pure function of (seed, i).")] = None,
    option: OptionOpt = None,
    threads: ThreadsOpt = None,
    out: RunOutOpt = "runs/clabber",
    resume: ResumeOpt = False,
    force: Annotated[bool, typer.Option(help="Replace a run already in --out.")] = False,
    progress: ProgressOpt = True,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
):
    """Simulate many rounds and write one record per round to a run directory.

    Every bidding policy and strategy is played on the same deals (round i depends only on the
    seed and i), so comparisons between runs are paired. Interrupt at any time: --resume finishes.
    By default every seat bids accept-first, so every round is played (see --bidding).

    Examples:

      barbu-sim clabber run -n 20000 --bidding accept-first --strategy random --dealer N --seed 1 --out runs/c1

      barbu-sim clabber run -n 20000 --bidding threshold:55 --seat-bidding N=mc:32 --out runs/c-mc

      barbu-sim clabber run --resume --out runs/c1

      barbu-sim clabber run -n 50000000 --bidding mc --backend ray --ray-address auto --out runs/c2
    """
    from ..clabber.runs import RUNS
    from ..core.runs import run_command
    from ..core.seats import parse_seat
    with run_errors("barbu-sim clabber", out):
        check_run_flags(out, seed, resume, force)
        strategies, policies, rules = _setup(strategy or "heuristic", seat_strategy, bidding or "accept-first",
                                             seat_bidding, option)
        given = {"rounds": rounds, "seed": seed, "dealer": parse_seat(dealer) if dealer is not None else None,
                 "bidding": policies if bidding is not None or seat_bidding else None,
                 "strategies": strategies if strategy is not None or seat_strategy else None,
                 "rules": rules.to_dict() if option else None}
        where = cli_backend(backend, ray_address, threads)
        summary = run_command(RUNS, out, given, {"rounds": 1_000_000, "bidding": policies, "strategies": strategies,
                                                 "rules": rules.to_dict()},
                              resume=resume, force=force, threads=threads, progress=progress, backend=where)
    echo_run_done("barbu-sim clabber", summary, "rounds", where, resume)


RunDir = Annotated[str, typer.Argument(metavar="RUN_DIR", help="A run directory written by barbu-sim clabber run.")]


@clabber_app.command()
def report(run_dir: RunDir):
    """Print a run's tables and write them to RUN_DIR/report (clabber_scores.json, meld_frequencies.json, ...).

    Examples:

      barbu-sim clabber run -n 20000 --out runs/c-small && barbu-sim clabber report runs/c-small

      barbu-sim clabber report runs/c-small
    """
    from ..clabber.analytics import report as the_report
    report_run(the_report, run_dir)


@clabber_app.command()
def plot(run_dir: RunDir,
         out: Annotated[Optional[str], typer.Option(
             metavar="DIR", help="Folder for the charts (default RUN_DIR/plots).")] = None):
    """Chart a run: each team's points, and makers' success by bidding round, seat, trump count, turned rank.

    Examples:

      barbu-sim clabber run -n 20000 --bidding threshold --out runs/c-small && barbu-sim clabber plot runs/c-small --out charts
    """  # noqa: E501 (an example stays on one line: tests/test_cli_help.py runs it as written)
    from ..clabber.analytics import report as the_report
    from ..clabber.analytics.plots import write_plots
    plot_run(the_report, write_plots, run_dir, out)


@clabber_app.command()
def game(
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", help="Number of games to 500.")] = 1000,
    bidding: BiddingOpt = "threshold",
    seat_bidding: SeatBiddingOpt = None,
    strategy: StrategyOpt = "heuristic",
    seat_strategy: SeatStrategyOpt = None,
    seed: SeedOpt = 0,
    option: OptionOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[Optional[str], typer.Option(
        metavar="DIR", help="Directory for games.parquet and summary.json.")] = None,
    show: Annotated[Optional[int], typer.Option(
        metavar="G", help="Print game number G (0 = the first) as a score sheet.")] = None,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
):
    """Play full games to 500 (random first dealer, the deal passing left) and summarise them.

    Examples:

      barbu-sim clabber game -n 2000 --bidding accept-first --strategy random --seed 1 --out runs/cgames

      barbu-sim clabber game -n 1 --show 0

      barbu-sim clabber game -n 2000000 --bidding mc --backend ray --ray-address auto --out runs/cgames
    """
    import json

    import numba

    from ..clabber.game.game import run_games, score_sheet
    try:
        check_range(games, "--games", 1, MAX_GAMES)
        check_seed(seed)
        check_out_writable(out)
        if show is not None and not 0 <= show < games:
            raise ValueError(f"--show must name one of the games played, 0..{games - 1}")
        if threads is not None:
            if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
                raise ValueError(f"--threads must be 1..{numba.config.NUMBA_NUM_THREADS}")
            numba.set_num_threads(threads)
        strategies, policies, rules = _setup(strategy, seat_strategy, bidding, seat_bidding, option)
        summary = run_games(games, seed, policies, strategies, rules, out=out,
                            backend=cli_backend(backend, ray_address, threads))
        sheet = score_sheet(seed, show, policies, strategies, rules) if show is not None else None
    except KeyboardInterrupt:
        interrupted("no summary was written")
    except ValueError as e:
        fail(str(e))
    if sheet:
        typer.echo(sheet + "\n")
    typer.echo(json.dumps({k: summary[k] for k in ("first_dealer_team_wins", "draw", "rounds_per_game")}, indent=2))
    if out:
        typer.echo(f"Wrote {Path(out) / 'summary.json'} and {Path(out) / 'games.parquet'}")


@clabber_app.command()
def advise(
    hand: Annotated[str, typer.Argument(metavar="HAND", help="Your six cards, e.g. 'JS 9S AS KH 10D AC'.")],
    turned: Annotated[Optional[str], typer.Option(
        metavar="CARD", help="The turned-up card, e.g. KS. Required.")] = None,
    position: Annotated[Optional[int], typer.Option(
        metavar="K", help="Your turn to speak in round one: 1 (dealer's left) .. 4 (the dealer). Required.")] = None,
    samples: Annotated[int, typer.Option(
        metavar="N", help=f"Monte Carlo deals of the unseen cards (2..{MAX_SAMPLES:,}).")] = 2000,
    bidding: Annotated[str, typer.Option(metavar="POLICY", help=(
        f"How the other three players bid: {BIDDING_CHOICES}. Default threshold (60), as people bid; "
        "accept-first, clabber run's default, would leave no choice to advise on after the first "
        "speaker."))] = "threshold",
    strategy: StrategyOpt = "heuristic",
    seed: SeedOpt = 0,
    option: OptionOpt = None,
):
    """Expected round score of playing vs passing in round one, and of naming each suit in round two.

    Examples:

      barbu-sim clabber advise "JS 9S AS KH 10D AC" --turned QS --position 1

      barbu-sim clabber advise "JH 9H AS KS 10D AC" --turned 9H --position 4 --samples 500 --bidding threshold:55
    """
    from ..clabber.game.advice import advise as advise_hand, format_advice
    from ..clabber.rules.config import parse_rule_options
    try:
        # checked here, not by typer, so that a missing one is a one-line error like every other mistake
        for value, flag, example in ((turned, "--turned", "--turned KS"), (position, "--position", "--position 1")):
            if value is None:
                raise ValueError(f"{flag} is missing: the advice needs it, e.g. {example}")
        check_range(samples, "--samples", 2, MAX_SAMPLES)  # one deal has no spread: its interval would be zero-wide
        check_seed(seed)
        rows = advise_hand(hand, turned, position, samples, bidding, strategy, parse_rule_options(option), seed)
    except KeyboardInterrupt:
        interrupted("no advice")
    except ValueError as e:
        fail(str(e))
    typer.echo(format_advice(rows, samples))
