"""Clabber's study commands: ``barbu-sim clabber ladder`` and ``barbu-sim clabber study headline|strong``.

Each command parses its options, makes one call into ``barbu_sim.clabber.studies``, and prints what it
found; a user mistake ends in a one-line ``Error: ...`` with exit code 2, and an existing output is
refused before any work unless ``--force``.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .app import (
    BackendOpt, ProgressOpt, RayAddressOpt, ThreadsOpt, Typer, check_new_file, check_out_writable, check_range,
    check_seed, cli_backend, fail, interrupted, typed,
)
from .clabber import clabber_app

# The library's defaults, repeated here so that --help does not import numba (tests/test_clabber_studies.py checks
# them against barbu_sim.clabber.studies.ladder, .headline and .strong).
LADDER_ROUNDS, LADDER_SEED, MC_SAMPLES = 40_000, 2026, 48
HEADLINE = {"rounds": 2_000_000, "games": 200_000, "sweep_rounds": 250_000, "sweep_games": 50_000,
            "mc_rounds": 10_000, "mc_games": 2_000}
STRONG = {"rounds": 1_000_000, "games": 50_000, "sweep_rounds": 100_000, "sweep_games": 20_000,
          "mc_bid_rounds": 20_000, "confirm_rounds": 200_000,
          "thresholds": "40,45,48,49,50,51,52,53,54,55,56,57,58,60,65,70"}
MAX_UNITS = 100_000_000  # rounds or games of one step

study_app = Typer(help="""Clabber's studies: the tables, charts and findings published in results/clabber/.

    Each study plays its runs into --runs (replaced each time) and writes its files into --results;
    a folder that already holds a study's files is refused before any work unless --force.

    At the defaults, with --force, each study remakes its published files; each command's help
    gives an example at small sizes:

      barbu-sim clabber study headline --help
    """, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
clabber_app.add_typer(study_app, name="study")


def _count(help_text: str, default: int, *names: str) -> object:
    return typer.Option(*names, metavar="N", help=f"{help_text}; default {default:,}.", show_default=False)


RunsOpt = Annotated[str, typer.Option(
    "--runs", metavar="DIR", help="The folder of the study's run folders (each replaced when the study plays it).")]
StudyForceOpt = Annotated[bool, typer.Option(
    help="Replace the study's files in --results if they are there (without it, they are refused before any work).")]


def _flag_value(ctx: typer.Context, name: str) -> list[str]:
    """``--name VALUE`` when the option was given, for the command recorded in the ladder's file."""
    if not typed(ctx, name):
        return []
    return [f"--{name.replace('_', '-')}", str(ctx.params[name])]


@clabber_app.command()
def ladder(
    ctx: typer.Context,
    players: Annotated[str, typer.Option(
        metavar="mc|learned|learned,mc",
        help="The card players laddered against heuristic: mc (Monte Carlo), learned (the fitted network) or "
             "both, comma-separated, on the same rounds; with both, each arm also gives learned's share of mc's "
             "gain.")] = "mc",
    rounds: Annotated[int, typer.Option(
        "--rounds", "-n", metavar="N",
        help=f"Rounds per arm, 2..{MAX_UNITS:,} (the published ladder: {LADDER_ROUNDS:,}).")] = LADDER_ROUNDS,
    seed: Annotated[int, typer.Option(
        metavar="SEED", help="Seed 0..2^64-1: every arm plays rounds 0..N-1 of it, so the arms are paired.")]
    = LADDER_SEED,
    samples: Annotated[int, typer.Option(metavar="N", help="mc's layouts of the unseen cards per decision.")]
    = MC_SAMPLES,
    threads: ThreadsOpt = None,
    out: Annotated[Optional[str], typer.Option(
        metavar="FILE.json",
        help="Also write the ladder (every row, its CIs and speeds, the command) to this JSON file; an existing "
             "file is refused unless --force.")] = None,
    force: Annotated[bool, typer.Option(help="Replace the --out file if it exists.")] = False,
    progress: ProgressOpt = True,
):
    """Ladder a strong card player against heuristic: alone at North and with its partner, as makers and defenders.

    Each arm plays rounds 0..N-1 of --seed twice, with accept-first bidding (the dealer's left makes
    with the turned suit, whoever plays the cards): once with heuristic at every seat, and once with
    the player at North (N) or at North and South (N+S), heuristic at the other seats. Dealer West
    makes North-South the makers, dealer North the defenders. Each line gives the paired per-round
    difference, the player's arm minus heuristic's, of North-South's own round score (what mc
    maximises) and of its net score (own minus East-West's), with 95% CIs; how often the makers made
    it in each arm; and the player's speed in rounds per second (the numbers do not depend on
    --threads, the speed does). The published ladders, at the defaults: results/clabber/ladder.json
    (mc, about 4 minutes on 2 cores) and results/clabber/ladder-learned.json (--players learned,mc).

    Examples:

      barbu-sim clabber ladder --rounds 40 --samples 4 --threads 1

      barbu-sim clabber ladder --players learned,mc --rounds 40 --samples 4 --threads 1 --out ladder.json

    The published ladder is the defaults with --out results/clabber/ladder.json (add --force to
    replace it).
    """
    from ..clabber.studies.ladder import ladder as play_ladder
    from ..clabber.studies.ladder import parse_players
    try:
        chosen = parse_players(players)
        check_range(rounds, "--rounds", 2, MAX_UNITS)
        check_seed(seed)
        check_new_file(out, "--out", force)  # before any round is played
        command = " ".join(["barbu-sim clabber ladder",
                            *[w for name in ("players", "rounds", "seed", "samples", "threads", "out")
                              for w in _flag_value(ctx, name)]])
        data = play_ladder(chosen, rounds=rounds, seed=seed, samples=samples, threads=threads, command=command,
                           progress=progress, echo=typer.echo)
    except KeyboardInterrupt:
        interrupted("nothing was written")
    except ValueError as e:
        fail(str(e))
    beats = data.get("mc_beats_heuristic", data.get("beats_heuristic"))
    typer.echo(f"{' and '.join(chosen)} beat{'s' if len(chosen) == 1 else ''} heuristic in every row (own score, "
               f"95% CI above 0): {'yes' if beats else 'no'}")
    if out:
        from ..core.files import write_json
        write_json(out, data, what="the ladder")
        typer.echo(f"Wrote {out}")


def _study_errors(results: str):
    """What a study command says on Ctrl-C: the files written so far are whole, and how to finish."""
    return (f"the study's files written so far in {results} are whole (each is written at once); run the command "
            "again with --force to finish")


@study_app.command()
def headline(
    rounds: Annotated[int, _count("Rounds of each headline run: accept-first bidding with random and with "
                                  "heuristic play, threshold:55 with heuristic play (seed 1, dealer N)",
                                  HEADLINE["rounds"], "--rounds", "-n")] = HEADLINE["rounds"],
    games: Annotated[int, _count("Games to 500 with random and with heuristic play (accept-first, seed 1)",
                                 HEADLINE["games"])] = HEADLINE["games"],
    sweep_rounds: Annotated[int, _count("Rounds per dealer seat of each N+S bidding threshold in the sweep",
                                        HEADLINE["sweep_rounds"])] = HEADLINE["sweep_rounds"],
    sweep_games: Annotated[int, _count("Games of each N+S bidding threshold in the sweep",
                                       HEADLINE["sweep_games"])] = HEADLINE["sweep_games"],
    mc_rounds: Annotated[Optional[int], _count(
        "Rounds per dealer seat of the mc:32 bidding policy in the sweep, paired with the sweep's first ones (at most "
        "--sweep-rounds, which also caps the default; 0 leaves it out)", HEADLINE["mc_rounds"])] = None,
    mc_games: Annotated[Optional[int], _count("Games of the mc:32 bidding policy (at most --sweep-games, which also "
                                              "caps the default)", HEADLINE["mc_games"])] = None,
    runs: RunsOpt = "runs/clabber-study",
    results: Annotated[str, typer.Option(
        metavar="DIR", help="The folder of the study's tables, charts and findings.md.")] = "results/clabber",
    force: StudyForceOpt = False,
    progress: ProgressOpt = True,
):
    """Clabber's headline study: makers' success by trump count and turned rank, the best bidding threshold, games.

    Plays the headline runs (accept-first bidding with random and with heuristic play,
    threshold:55 with heuristic play; the same rounds of seed 1, dealer N) with their reports
    and charts; games to 500 (the first dealer's advantage); heuristic against random play as
    makers and as defenders (paired); N+S bidding threshold:X (and mc:32) against E+W
    threshold:60 by round score and by game win rate, paired over the same deals and games; and
    each meld's frequency against its exact count over all C(24,6) hands. Writes findings.md,
    findings.json and one folder per run into --results, and prints findings.md. At the
    defaults (the published results/clabber/) about a minute on 2 cores.

    Example:

      barbu-sim clabber study headline -n 1000 --games 10 --sweep-rounds 100 --sweep-games 10 --mc-rounds 0 --results c

    The published results/clabber/ is the defaults (add --force to replace it).
    """
    from ..clabber.studies.headline import headline_study
    try:
        for value, flag in ((rounds, "--rounds"), (games, "--games"), (sweep_rounds, "--sweep-rounds"),
                            (sweep_games, "--sweep-games")):
            check_range(value, flag, 1, MAX_UNITS)
        # mc is paired with the sweep's first rounds and games: it cannot have more
        mc_rounds = min(HEADLINE["mc_rounds"], sweep_rounds) if mc_rounds is None else mc_rounds
        mc_games = min(HEADLINE["mc_games"], sweep_games) if mc_games is None else mc_games
        check_range(mc_rounds, "--mc-rounds", 0, sweep_rounds)
        check_range(mc_games, "--mc-games", 0, sweep_games)
        check_out_writable(runs, "--runs")
        text = headline_study(runs, results, rounds=rounds, games=games, sweep_rounds=sweep_rounds,
                              sweep_games=sweep_games, mc_rounds=mc_rounds, mc_games=mc_games, force=force,
                              progress=progress)
    except KeyboardInterrupt:
        interrupted(_study_errors(results))
    except ValueError as e:
        fail(str(e))
    typer.echo(text, nl=False)


@study_app.command()
def strong(
    strategy: Annotated[str, typer.Option(
        metavar="NAME", help="The strong card player, at every seat (default learned).", show_default=False)]
    = "learned",
    baseline: Annotated[str, typer.Option(
        metavar="NAME", help="The card player it is set against, at every seat (default heuristic).",
        show_default=False)] = "heuristic",
    rounds: Annotated[int, _count("Rounds of each headline run, accept-first and threshold:55 bidding, under each "
                                  "player (seed 1, dealer N)", STRONG["rounds"], "--rounds", "-n")]
    = STRONG["rounds"],
    games: Annotated[int, _count("Games to 500 under each player (accept-first, seed 1)",
                                 STRONG["games"])] = STRONG["games"],
    sweep_rounds: Annotated[int, _count("Rounds per dealer seat of each N+S bidding threshold, under each player",
                                        STRONG["sweep_rounds"])] = STRONG["sweep_rounds"],
    sweep_games: Annotated[int, _count("Games of each N+S bidding threshold, under each player",
                                       STRONG["sweep_games"])] = STRONG["sweep_games"],
    mc_bid_rounds: Annotated[Optional[int], _count(
        "Rounds per dealer seat of the mc:32 bidding policy, paired with the sweep's first ones (at most "
        "--sweep-rounds, which also caps the default), and a fifth as many games, at most --sweep-games (0 leaves "
        "it out)", STRONG["mc_bid_rounds"])] = None,
    thresholds: Annotated[str, typer.Option(
        metavar="X,X,...",
        help="The thresholds X of the sweep, comma-separated (default 40, 45, every X from 48 to 58, 60, 65 and 70).",
        show_default=False)] = STRONG["thresholds"],
    confirm: Annotated[str, typer.Option(
        metavar="NAME", help="The reference card player of the confirmation, at every seat on the first "
                             "--confirm-rounds accept-first rounds ('' for none; default mc).", show_default=False)]
    = "mc",
    confirm_rounds: Annotated[int, _count("Rounds of the confirmation", STRONG["confirm_rounds"])]
    = STRONG["confirm_rounds"],
    runs: RunsOpt = "runs/clabber-strong",
    results: Annotated[str, typer.Option(
        metavar="DIR", help="The folder of the study's tables, charts and findings.")] = "results/clabber/strong",
    force: StudyForceOpt = False,
    progress: ProgressOpt = True,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
):
    """What strong card play changes in Clabber: the headline study with learned at every seat, next to heuristic.

    Plays the headline runs (accept-first and threshold:55 bidding; the same rounds of seed 1,
    dealer N) with the strong player at every seat and with the baseline at every seat: neither
    bidding looks at the card play, so the same seat makes the same trumps and every table is
    compared round by round, with 95% CIs (strong_vs_heuristic.md; changes.md says which answers
    move; charts/strong_vs_heuristic.png shows it). Then games to 500 and the N+S bidding
    threshold sweep under each player, and the strong player against --confirm on the first
    rounds (strong_vs_confirm.md). At the defaults (the published results/clabber/strong/) about
    5 minutes on 2 cores; --backend ray writes the same files.

    Example:

      barbu-sim clabber study strong -n 1000 --games 10 --sweep-rounds 100 --sweep-games 10 --confirm= --results s

    The published results/clabber/strong/ is the defaults (add --force to replace it).
    """
    from ..clabber.studies.strong import check_strong, parse_thresholds, strong_study
    try:
        xs = parse_thresholds(thresholds)
        for value, flag in ((rounds, "--rounds"), (games, "--games"), (sweep_rounds, "--sweep-rounds"),
                            (sweep_games, "--sweep-games")):
            check_range(value, flag, 1, MAX_UNITS)
        mc_bid_rounds = min(STRONG["mc_bid_rounds"], sweep_rounds) if mc_bid_rounds is None else mc_bid_rounds
        check_range(mc_bid_rounds, "--mc-bid-rounds", 0, sweep_rounds)  # paired with the sweep's first rounds
        check_range(confirm_rounds, "--confirm-rounds", 1, MAX_UNITS)
        check_strong(results, strategy=strategy, baseline=baseline, confirm=confirm.strip() or None,
                     sizes=(rounds, games, sweep_rounds, sweep_games), force=force)
        check_out_writable(runs, "--runs")
        where = cli_backend(backend, ray_address)  # after the checks: a Ray backend starts Ray
        text = strong_study(runs, results, strategy=strategy, baseline=baseline, rounds=rounds, games=games,
                            sweep_rounds=sweep_rounds, sweep_games=sweep_games, mc_bid_rounds=mc_bid_rounds,
                            thresholds=xs, confirm=confirm.strip() or None, confirm_rounds=confirm_rounds,
                            backend=where, force=force, progress=progress)
    except KeyboardInterrupt:
        interrupted(_study_errors(results))
    except ValueError as e:
        fail(str(e))
    typer.echo(text)
