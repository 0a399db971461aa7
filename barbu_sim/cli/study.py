"""The ``barbu-sim study ...`` commands: the studies whose tables and charts are published in ``results/``.

Each command checks its options and its outputs (an existing one is refused before any work unless
``--force``), then calls the study's module in ``barbu_sim.barbu.studies`` (imported inside the
command, so that ``--help`` does not wait for numba); a user mistake ends in a one-line
``Error: ...`` with exit code 2.  The defaults write where the published figures are, relative to
the current folder: run them from the repository's root to remake ``results/``.
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Optional

import typer

from .app import (
    BARBU_STRATEGY_CHOICES, PLUGIN_SPECS, BackendOpt, ProgressOpt, RayAddressOpt, Typer, app, check_range, check_seed,
    cli_backend, fail, interrupted,
)

study_app = Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
app.add_typer(study_app, name="study", help="""The published studies: headline, strong play, rule presets,
    convergence, domino ranks, doubling, the declaring guide.

    Each plays (or reads) what its figures rest on and writes their tables and charts; docs/studies.md says what
    each answers, and the command of each figure in results/.

    Examples (each study's --help has more):

      barbu-sim study presets -n 300 --out presets.json
    """)

# The studies' defaults, repeated here so that --help does not import numba (tests/test_study.py checks them).
HEADLINE_DEALS, HEADLINE_SEED = 1_000_000, 2026  # studies.headline.DEFAULT_DEALS, DEFAULT_SEED
STRONG_DEALS, STRONG_CONFIRM_DEALS = 20_000, 1000  # studies.strong.DEFAULT_DEALS, DEFAULT_CONFIRM_DEALS
SLOW_CHUNK, FAST_CHUNK = 25, 20_000  # studies.strong.SLOW_CHUNK, FAST_CHUNK
PRESET_DEALS, PRESET_SEED = 200_000, 22  # studies.presets.DEFAULT_DEALS, DEFAULT_SEED
RANK_DEALS, RANK_SEED, RANK_BLOCK = 2000, 3031, 500  # studies.domino_rank.DEFAULT_DEALS, DEFAULT_SEED, DEFAULT_BLOCK
DOUBLING_POLICIES = "compulsory-only,threshold,bayes,bayes:0,always"  # studies.doubling.DEFAULT_POLICIES
DOUBLING_BLOCKS, DOUBLING_SAMPLES, DOUBLING_TABLE_HANDS = 1000, 100, 400  # studies.doubling.DEFAULT_BLOCKS, ...
MAX_DEALS = 100_000_000  # barbu.runs.MAX_DEALS
MAX_BLOCKS, MAX_SAMPLES = 1_000_000, 1_000_000

ForceOpt = Annotated[bool, typer.Option(
    help="Replace the study's files if they exist (without it, they are refused before any work).")]
PlayerOpt = Annotated[str, typer.Option(metavar="NAME", help=f"The player at every seat: {BARBU_STRATEGY_CHOICES}, "
                                                            f"{PLUGIN_SPECS}.")]


def _seed_opt(what: str):
    """A --seed option whose help says ``what`` the published figures used."""
    return Annotated[int, typer.Option(metavar="SEED", help=f"Seed 0..2^64-1 ({what}): deal i is a pure function of "
                                                            "(seed, i), so every configuration meets the same deals.")]


@study_app.command()
def headline(
    deals: Annotated[int, typer.Option("--deals", "-n", metavar="N", help=f"Deals, 1..{MAX_DEALS:,} (each played in "
                                       "the 25 configurations).")] = HEADLINE_DEALS,
    seed: _seed_opt("the published tables' is 2026") = HEADLINE_SEED,
    out: Annotated[str, typer.Option(metavar="DIR", help="The run folder for the records (not committed): a "
                                     "barbu-sim run, which report and plot read too.")] = "runs/headline",
    results: Annotated[str, typer.Option(metavar="DIR", help="Where the tables, charts, manifest.json and timing.json "
                                         "go.")] = "results",
    resume: Annotated[bool, typer.Option(help="Finish the interrupted run in --out (the run folder's own resume: its "
                                         "finished chunks are kept), then write the tables (with --force when "
                                         "--results holds an earlier study).")] = False,
    force: ForceOpt = False,
    progress: ProgressOpt = True,
):
    """The headline study: what each contract is worth to each seat, with heuristic at every seat.

    On the same deals, North declaring and heuristic at every seat, it plays every contract, the
    four trump suits and both trump-choice policies (longest, strongest), the 13 domino starting
    ranks and the most-held policy: 25 configurations a deal. The records go to the run folder
    --out; the report tables (expected scores per contract and seat relative to the declarer,
    the declarer's edge, trumps and domino ranks, choice policies, score distributions, with 95%
    CIs), the charts, the run's manifest and timing.json go to --results. The published
    results/ are 1,000,000 deals of seed 2026 (a few minutes on 2 cores), remade from the
    repository's root by: barbu-sim study headline --force

    Examples:

      barbu-sim study headline -n 300 --out runs/small --results small-results

      barbu-sim study headline -n 300 --out runs/small --results small-results --resume --force
    """
    from ..barbu.studies import headline as study
    try:
        check_range(deals, "--deals", 1, MAX_DEALS)
        check_seed(seed)
        study.check_headline(out, results, deals=deals, seed=seed, force=force, resume=resume)
        timing = study.headline_study(out, results, deals=deals, seed=seed, resume=resume, progress=progress)
    except KeyboardInterrupt:
        interrupted(f"the finished chunks are kept in {out}; go on with --resume")
    except ValueError as e:
        fail(str(e))
    typer.echo(json.dumps(timing, indent=2))


@study_app.command()
def strong(
    strategy: Annotated[Optional[str], typer.Option(
        metavar="NAME", help=f"The strong player, at every seat (default mc; with --resume, the stored run's): "
                             f"{BARBU_STRATEGY_CHOICES}, {PLUGIN_SPECS}.")] = None,
    baseline: Annotated[str, typer.Option(metavar="NAME", help="The player it is compared with, at every seat, "
                                          "on the deals the strong run finished.")] = "heuristic",
    deals: Annotated[Optional[int], typer.Option(
        "--deals", "-n", metavar="N", help=f"Deals: the first N of the seed (default {STRONG_DEALS:,}; with "
                                           "--resume, more than the run planned extends it).")] = None,
    seed: _seed_opt("the headline study's, 2026") = HEADLINE_SEED,
    chunk: Annotated[Optional[int], typer.Option(
        metavar="N", help=f"Deals per chunk of the strong run (default {SLOW_CHUNK} for mc and pimc, "
                          f"{FAST_CHUNK:,} for other players).")] = None,
    confirm: Annotated[Optional[str], typer.Option(
        metavar="NAME", help="A reference player (meant: mc) at every seat on the first --confirm-deals deals: "
                             "strong_vs_confirm (JSON, CSV, Markdown) says where the strong player's table "
                             "agrees.")] = None,
    confirm_deals: Annotated[Optional[int], typer.Option(
        metavar="N", help=f"Deals of the confirmation (default {STRONG_CONFIRM_DEALS:,}; with --resume, more than "
                          "it planned extends it).")] = None,
    minutes: Annotated[float, typer.Option(
        metavar="M", help="Stop playing after M minutes (at the end of a chunk; 0: play every deal); the tables are "
                          "made from the deals done, and --resume goes on.")] = 0,
    tables_only: Annotated[bool, typer.Option(
        help="Play no strong or confirming deals: make the tables from the runs on disk (the baseline is brought "
             "up to the strong run's deals).")] = False,
    out: Annotated[str, typer.Option(metavar="DIR", help="The three run folders go here: strong/, baseline/, "
                                     "confirm/ (not committed).")] = "runs/strong",
    results: Annotated[str, typer.Option(metavar="DIR", help="Where the tables and charts go.")] = "results/strong",
    resume: Annotated[bool, typer.Option(
        help="Go on with the runs in --out (each run folder's own resume: finished chunks are kept; a larger "
             "--deals or --confirm-deals extends a run).")] = False,
    force: Annotated[bool, typer.Option(help="Replace the study's files in --results if they exist (without it, "
                                        "they are refused before any play, --resume and --tables-only "
                                        "included).")] = False,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    progress: ProgressOpt = True,
):
    """What strong play changes: the headline study with a strong player at every seat, next to heuristic.

    The headline study's 25 configurations on the first deals of seed 2026, played with the
    strong player (--strategy) at all four seats, then with the baseline at all four seats on
    the same deals, compared per deal. --results gets the strong run's report tables and charts,
    strong_vs_heuristic.{json,csv,md} (per configuration and seat: both players' means and their
    paired difference with its 95% CI), charts/strong_vs_heuristic.{png,svg} (where the answers
    change: domino ranks, trump choices, seats) and changes.md (the best domino rank and trump
    choice under each player, and the seats that move beyond the CI). Every run is chunked:
    Ctrl-C or the end of --minutes keeps every finished chunk, the tables are made from the
    deals done, and --resume goes on. The published results/strong/ is learned on 1,000,000
    deals checked by mc on 2,000 (about 6 minutes on 2 cores), remade from the repository's
    root by: barbu-sim study strong --strategy learned -n 1000000 --confirm mc1 --confirm-deals 2000 --force

    Examples:

      barbu-sim study strong --strategy basic --confirm heuristic -n 40 --confirm-deals 20 --out runs/s --results s

      barbu-sim study strong -n 60 --out runs/s --results s --resume --force
    """
    from ..barbu.studies import strong as study
    from ..core.rundir import RunError
    try:
        for flag, value in (("--deals", deals), ("--chunk", chunk), ("--confirm-deals", confirm_deals)):
            if value is not None:
                check_range(value, flag, 1, MAX_DEALS)
        if not math.isfinite(minutes) or minutes < 0:
            raise ValueError(f"--minutes must be a number of minutes, at least 0 (0: no limit), not {minutes}")
        check_seed(seed)
        if tables_only:  # a flag that would do nothing is said, not dropped
            idle = [flag for flag, value in (("--deals", deals), ("--chunk", chunk), ("--confirm-deals", confirm_deals),
                                             ("--minutes", minutes or None)) if value is not None]
            if idle:
                raise ValueError(f"--tables-only plays no deal: {', '.join(idle)} would do nothing; "
                                 "leave out --tables-only to play, or the other flags to make the tables")
        if confirm_deals is not None and confirm is None and not resume:
            raise ValueError("--confirm-deals sizes the confirmation: give --confirm NAME too (or --resume, to extend "
                             "the confirmation a run in --out has)")
        plan = study.plan_strong(out, results, deals=deals, seed=seed, strategy=strategy, baseline=baseline,
                                 chunk=chunk, confirm=confirm, confirm_deals=confirm_deals, resume=resume,
                                 tables_only=tables_only, force=force)
        where = cli_backend(backend, ray_address)
        study.play_runs(plan, minutes=minutes, backend=where, progress=progress)
    except ValueError as e:  # RunError included
        fail(str(e))
    try:
        done = study.deals_done(plan)
    except RunError as e:
        fail(str(e), 1)
    if done == 0:
        fail("no deal finished yet", 1)
    try:
        study.play_baseline(plan, done, backend=where, progress=progress)
    except KeyboardInterrupt:
        interrupted("the baseline's finished chunks are kept; go on with --resume")
    except ValueError as e:
        fail(str(e))
    try:
        timing = study.write_tables(plan, done)
    except KeyboardInterrupt:
        interrupted("the runs are kept; make the tables from them with --tables-only --force")
    except ValueError as e:
        fail(str(e), 1)
    typer.echo(json.dumps(timing, indent=2))


@study_app.command()
def presets(
    deals: Annotated[int, typer.Option("--deals", "-n", metavar="N", help=f"Deals per preset, 2..{MAX_DEALS:,} (the "
                                       "same deals under every preset).")] = PRESET_DEALS,
    seed: _seed_opt("the published table's is 22") = PRESET_SEED,
    strategy: PlayerOpt = "heuristic",
    out: Annotated[str, typer.Option(metavar="FILE.json", help="Where the rows go (JSON).")] = \
        "results/preset_study.json",
    force: ForceOpt = False,
    progress: ProgressOpt = True,
):
    """How much the answers change between the rule presets, paired on the same deals.

    For each preset (every-dealer and positive-penalties left out: the first changes who
    declares in a game, not a hand; the second only turns every sign over), the same deals are
    played with one player at every seat, North declaring: the five negative contracts, Trumps
    with the declarer's longest suit, Domino from each of the 13 ranks. Per preset and contract:
    the declarer's mean raw score and its paired difference from the default rules (95% CI);
    for Domino, the best starting rank. Prints a Markdown table: a cell shows the change in
    brackets where the CI excludes 0. The published results/preset_study.json is 200,000 deals of
    seed 22 (under a minute of play on 2 cores), remade from the repository's root by:
    barbu-sim study presets --force

    Examples:

      barbu-sim study presets -n 300 --out presets.json
    """
    from ..barbu.studies import presets as study
    from ..core.outputs import check_out, write_json
    try:
        check_range(deals, "--deals", 2, MAX_DEALS)
        check_seed(seed)
        from ..barbu.players.registry import resolve_strategy
        resolve_strategy(strategy)
        check_out(out, force)
        data = study.preset_study(deals, seed, strategy, progress=progress)
    except KeyboardInterrupt:
        interrupted("nothing was written")
    except ValueError as e:
        fail(str(e))
    write_json(out, data)
    typer.echo(study.markdown_table(data["rows"]))
    typer.echo(f"\n{deals:,} deals per preset, {len(data['presets'])} presets, {data['seconds']:.0f} s -> {out}")


@study_app.command()
def convergence(
    results: Annotated[str, typer.Option(metavar="DIR", help="The results folder of the four published levels: "
                                         "DIR (heuristic), DIR/strong-learned1, DIR/strong-round1, DIR/strong "
                                         "(learned), with their compare-orders tables.")] = "results",
    level: Annotated[Optional[list[str]], typer.Option(
        metavar="NAME=DIR[,ORDERS]", help="A level of play instead of the published ones (repeatable, in order, "
                                          "at least two): DIR holds a headline or strong study's tables, ORDERS "
                                          "(default DIR/orders) compare-orders' tables of the same player.")] = None,
    out: Annotated[str, typer.Option(metavar="FILE.json", help="Where the answers go (JSON).")] =
        "results/convergence.json",
    force: ForceOpt = False,
):
    """Do the published answers hold as the players get stronger? Reads the studies of each level of play.

    Per answer, its value at each level with its 95% CI: the best fixed domino starting rank
    (and the ranks within its CI), the best trump policy, the declarer's value and edge per
    contract, and the best contract order on settled and on raw points a block. An answer is
    stable over the last two levels when the choice is the same (or the two best ranks are tied
    at both), or the values' difference is within its (unpaired) 95% CI. Plays nothing: it
    reads the tables of the headline and strong studies and of compare-orders; prints a
    Markdown table (docs/findings.md holds it). From the repository's root, with the published
    studies there: barbu-sim study convergence --force

    Examples (two levels read from the same small study, so every answer is stable):

      barbu-sim study headline -n 300 --out runs/h --results h

      barbu-sim compare-orders --policies raw-optimal,fixed --blocks 2 --games 0 --out h/orders

      barbu-sim study convergence --level heuristic=h --level again=h,h/orders --out convergence.json
    """
    from ..barbu.studies import convergence as study
    from ..core.outputs import check_out, write_json
    try:
        levels = [study.parse_level(t) for t in level] if level else study.published_levels(results)
        check_out(out, force)
        data = study.convergence(levels)
    except ValueError as e:
        fail(str(e))
    write_json(out, data, indent=1)
    typer.echo(study.markdown_table(data))
    typer.echo(f"\nlevels: {', '.join(lv['level'] for lv in data['levels'])}; written to {out}", err=True)


@study_app.command("domino-rank")
def domino_rank(
    ranks: Annotated[str, typer.Option(metavar="R,R,...", help="Starting ranks, comma-separated (2..10, J, Q, K, A); "
                                       "each is compared with the first.")] = "2,8",
    deals: Annotated[int, typer.Option("--deals", "-n", metavar="N", help=f"Deals, 2..{MAX_DEALS:,}.")] = RANK_DEALS,
    strategy: PlayerOpt = "mc",
    seed: _seed_opt("3031: a seed no other study used") = RANK_SEED,
    block: Annotated[int, typer.Option(metavar="N", help="Deals per block kept on disk in --work.")] = RANK_BLOCK,
    work: Annotated[Optional[str], typer.Option(
        metavar="DIR", help="Where the finished blocks are kept (default: the folder PLAYER-SEED in "
                            "runs/domino-rank-check): "
                            "the same command goes on from them after Ctrl-C.")] = None,
    out: Annotated[str, typer.Option(metavar="FILE.json", help="Where the figures go (JSON).")] =
        "results/domino_rank_check.json",
    force: ForceOpt = False,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    progress: ProgressOpt = True,
):
    """Which Domino starting rank should the declarer name, under strong play? A paired check of a few ranks.

    Every deal is played from each rank in --ranks with one player (default mc) at all four
    seats, North declaring; the declarer's score from each rank is paired per deal with its
    score from the first rank, and each difference gets a 95% CI over deals: "is rank A better
    than rank B for the declarer", which a study's single best rank cannot say. Blocks of deals
    are kept in --work as they finish: Ctrl-C loses at most the blocks in flight, and the same
    command goes on (the figures are the same however often it stops). The published
    results/domino_rank_check.json is mc on 40,000 deals from 2, A and 8 (about 5 minutes on 2
    cores), remade from the repository's root by: barbu-sim study domino-rank --ranks 2,A,8
    --deals 40000 --force. Prints a Markdown table.

    Examples:

      barbu-sim study domino-rank --ranks 2,A,8 -n 200 --strategy heuristic --block 80 --out ranks.json
    """
    from ..barbu.studies import domino_rank as study
    from ..core.outputs import check_out, write_json
    folder = work
    try:
        check_out(out, force)
        rank_list = study.parse_ranks(ranks)
        from ..barbu.players.registry import canonical_strategy, resolve_strategy
        resolve_strategy(strategy)
        check_range(deals, "--deals", 2, MAX_DEALS)
        check_range(block, "--block", 1, MAX_DEALS)
        check_seed(seed)
        where = cli_backend(backend, ray_address)
        folder = work or study.default_work(strategy, seed)
        files = study.block_files(rank_list, deals, block, folder)
        from ..core.cards import RANK_NAMES
        typer.echo(f"{canonical_strategy(strategy)} at every seat, Domino from "
                   f"{', '.join(RANK_NAMES[r] for r in rank_list)}: {deals:,} deals of seed {seed} "
                   f"({sum(p.exists() for p in files.values())} of {len(files)} blocks on disk in {folder})")
        rows = study.check_ranks(strategy, rank_list, deals=deals, seed=seed, block=block, work=folder,
                                 backend=where, progress=progress)
    except KeyboardInterrupt:
        interrupted(f"the finished blocks are kept in {folder}; the same command goes on")
    except ValueError as e:
        fail(str(e))
    command = (f"barbu-sim study domino-rank --ranks {','.join(RANK_NAMES[r] for r in rank_list)} --deals {deals} "
               f"--strategy {strategy} --seed {seed}")
    write_json(out, study.check_file(rows, strategy, seed, deals, command))
    typer.echo(study.table(rows))


@study_app.command()
def doubling(
    blocks: Annotated[int, typer.Option(metavar="N", help=f"Blocks of 7 hands, 1..{MAX_BLOCKS:,}, the same for "
                                        "every policy.")] = DOUBLING_BLOCKS,
    seed: _seed_opt("the published tables' is 0") = 0,
    samples: Annotated[int, typer.Option(metavar="N", help=f"Monte Carlo deals per hand evaluation, "
                                         f"2..{MAX_SAMPLES:,}.")] = DOUBLING_SAMPLES,
    policies: Annotated[str, typer.Option(
        metavar="POLICY,...", show_default=DOUBLING_POLICIES.replace(",", ", "),
        help="East's doubling policies, comma-separated (compulsory-only, always, "
                                   "threshold[:MARGIN], bayes[:MARGIN]); the first is the one the other policies "
                                   "and the gain tables are measured from.")] = DOUBLING_POLICIES,
    table_hands: Annotated[int, typer.Option(metavar="N", help="Sample hands of the value table (optimal and "
                                             "bayes plan with it; cached on disk).")] = DOUBLING_TABLE_HANDS,
    out: Annotated[str, typer.Option(metavar="DIR", help="Where the tables go.")] = "results/doubling",
    rows: Annotated[Optional[str], typer.Option(
        metavar="FILE.parquet", help="Also write every defender's decision on every hand (with bayes's predicted "
                                     "gain), e.g. to pool seeds.")] = None,
    force: Annotated[bool, typer.Option(help="Replace the files of --out (and --rows) if they exist (without it, "
                                        "an existing one is refused before any work).")] = False,
    progress: ProgressOpt = True,
):
    """What doubling the declarer is worth, and which doubling policy to use: full blocks of 7 hands.

    North declares every block with the optimal contract policy and redoubles with threshold;
    East doubles with the policy studied, South and West make only their compulsory doubles;
    the deals are the same for every policy (paired). --out gets gain_by_contract_hand and
    gain_by_contract (the gain of one double on the declarer, by contract and hand of the
    block), voluntary_gains (East's unforced doubles and what they realised), policies (East's
    settled points a block under each policy, with paired differences), each as CSV and JSON,
    doubling.md and study.json. The published results/doubling/ is 1,000 blocks of seed 0
    (2 to 6 minutes on 2 cores), remade from the repository's root by: barbu-sim study doubling
    --force

    Examples:

      barbu-sim study doubling --blocks 3 --samples 10 --table-hands 60 --policies compulsory-only,bayes --out d
    """
    from ..barbu.studies import doubling as study
    from ..core.outputs import check_folder_files, check_out
    try:
        check_range(blocks, "--blocks", 1, MAX_BLOCKS)
        check_range(samples, "--samples", 2, MAX_SAMPLES)
        check_range(table_hands, "--table-hands", 1, MAX_BLOCKS)
        check_seed(seed)
        study.policy_specs(policies)
        check_folder_files(out, study.FILES, force, "--out")
        if rows is not None:
            check_out(rows, force, "--rows")
        import time
        started = time.perf_counter()
        hands, names = study.play_hands(blocks=blocks, seed=seed, samples=samples, policies=policies,
                                        table_hands=table_hands, progress=progress,
                                        say=None if progress else typer.echo)
        tables = study.doubling_tables(hands, names, blocks)
    except KeyboardInterrupt:
        interrupted("nothing was written")
    except ValueError as e:
        fail(str(e))
    if rows:
        study.write_rows(rows, hands, seed)
    typer.echo(study.write_study(out, tables, blocks=blocks, seed=seed, samples=samples, names=names,
                                 started=started))


GUIDE_DEALS, GUIDE_SEED = 1_000_000, 2026  # studies.guide.DEFAULT_DEALS, DEFAULT_SEED


@study_app.command()
def guide(
    deals: Annotated[int, typer.Option("--deals", "-n", metavar="N", help=f"Deals of the cards' run, 1..{MAX_DEALS:,} "
                                       "(the seven contracts, the longest suit and the rank held most named).")]
    = GUIDE_DEALS,
    choice_deals: Annotated[Optional[int], typer.Option(
        metavar="N", help="Deals of the choices' run (Trumps in each suit, Domino from each rank; default --deals; "
                          "0: no choice cards).")] = None,
    seed: _seed_opt("the published guide's is 2026") = GUIDE_SEED,
    strategy: PlayerOpt = "learned",
    runs: Annotated[str, typer.Option(metavar="DIR", help="The two run folders go here, cards/ and choices/, with "
                                      "their hands (not committed); finished runs are reused, interrupted ones "
                                      "finished.")] = "runs/guide",
    results: Annotated[str, typer.Option(metavar="DIR", help="Where guide.json and the tables by hand go (card_*, "
                                         "choice_*, shares, as CSV and JSON).")] = "results/guide",
    guide_file: Annotated[Optional[str], typer.Option(
        "--guide", metavar="FILE", help="Also write the guide here (barbu_sim/barbu/game/guide.json is the one the "
                                        "guide policy plays; guide:FILE.json plays another).")] = None,
    page: Annotated[Optional[str], typer.Option(
        metavar="FILE", help="Write the guide's page (docs/guide.md), its chart in images/ beside it.")] = None,
    orders: Annotated[Optional[str], typer.Option(
        metavar="DIR", help="A compare-orders --out folder whose blocks measured the guide: the page quotes "
                            "it.")] = None,
    force: ForceOpt = False,
    progress: ProgressOpt = True,
):
    """The declaring guide: tables by hand on strong play, and rules a player applies at the table.

    Two runs with their hands, the player at every seat on the same deals: the seven contracts
    (the longest suit and the rank held most named), and Trumps and Domino in every suit and from
    every rank. Per contract, the counts of the declarer's hand that explain most of its score are
    found from the data, and the declarer's expected score by them (95% CIs and counts) is its
    card; the same for naming the trump suit and the domino rank, with what naming by the card
    gains, paired. The cards make the guide (--guide; the policy guide plays it), and --page writes
    the page players read. Measure the guide with compare-orders --policies fixed,guide,optimal.
    The published guide is 1,000,000 deals of learned play (about 12 minutes on 2 cores), remade
    from the repository's root by: barbu-sim study guide --guide barbu_sim/barbu/game/guide.json
    --page docs/guide.md --orders results/guide/orders --force

    Examples:

      barbu-sim study guide -n 2000 --strategy heuristic --runs runs/g --results g --page g/guide.md
    """
    from ..barbu.studies import guide as study
    command = "barbu-sim study guide --guide barbu_sim/barbu/game/guide.json --page docs/guide.md " \
              "--orders results/guide/orders --force"
    try:
        check_range(deals, "--deals", 1, MAX_DEALS)
        if choice_deals is not None:
            check_range(choice_deals, "--choice-deals", 0, MAX_DEALS)
        check_seed(seed)
        study.check_outputs(results, page, guide_file, force)
        made = study.guide_study(runs, results, deals=deals, choice_deals=choice_deals, seed=seed, strategy=strategy,
                                 guide_file=guide_file, page=page, orders_dir=orders, command=command,
                                 progress=progress)
    except KeyboardInterrupt:
        interrupted(f"the finished chunks are kept in {runs}; run the same command again to go on")
    except ValueError as e:
        fail(str(e))
    for contract, card in made["cards"].items():
        typer.echo(f"{contract:12} {' & '.join(card['features']):28} explains {100 * card['share']:4.1f}% "
                   f"(average {card['average']:+.2f})")
    typer.echo(f"Wrote the guide and its tables to {results}" + (f", the page to {page}" if page else ""))
