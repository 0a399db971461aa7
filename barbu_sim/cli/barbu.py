"""The Barbu commands of one deal and of runs: rules, play, run, report, plot (full games: :mod:`.games`).

Each command parses its options, makes one call into the library, and prints;
a user mistake ends in a one-line ``Error: ...`` with exit code 2.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .app import (
    BARBU_STRATEGY_CHOICES, PLUGIN_SPECS, BackendOpt, OptionOpt, ProgressOpt, RayAddressOpt, RecordForceOpt,
    ResumeOpt, RulesOpt, RunOutOpt, SymbolsOpt, ThreadsOpt, app, check_new_file, check_range,
    check_run_flags, check_seed, cli_backend, echo_run_done, fail, interrupted, load_cli_rules, per_seat,
    plot_run, report_run, run_errors,
)

CONTRACT_NAMES = "no-tricks, no-queens, no-last-two, no-hearts, barbu, trumps, domino"  # barbu.rules.CONTRACTS
CONTRACT_POLICIES = ("fixed, fixed:ORDER, myopic, relative, optimal (settled score), raw-optimal, guide (the "
                     "declaring guide; guide:no-RULE without one of its rules), file.py:func")
DOUBLING_POLICIES = "compulsory-only, always, threshold[:MARGIN], bayes[:MARGIN]"  # barbu.game.doubling
STRATEGY_HELP = f"Strategy for every seat: {BARBU_STRATEGY_CHOICES}, {PLUGIN_SPECS}."
PLAY_STRATEGY_HELP = f"Play strategy for every seat: {BARBU_STRATEGY_CHOICES}, {PLUGIN_SPECS}."
SeatStrategyOpt = Annotated[Optional[list[str]], typer.Option(
    metavar="SEAT=NAME", help="Strategy for one seat, SEAT=NAME (e.g. E=random). Repeatable.")]


@app.command()
def rules(rules: RulesOpt = None, option: OptionOpt = None,
          presets: Annotated[bool, typer.Option("--presets", help="List the presets: what each is and the "
                                                "options it sets.")] = False):
    """Print the contracts, what each scores and its total per hand, and the rule options in force.

    Every point value is an option (-o no-hearts-ace=-4), as is each rule of play that tables
    vary; the output also says whether the seven contracts stay zero-sum and which total wins.

    Examples:

      barbu-sim rules

      barbu-sim rules --rules strict-barbu -o domino-payout=50,20,0,-5

      barbu-sim rules --rules high-hearts-4 -o no-last-two-trick-12=-12 -o no-last-two-trick-13=-12

      barbu-sim rules --presets
    """
    from ..barbu.rules.text import describe_presets, describe_rules
    try:
        typer.echo(describe_presets() if presets else describe_rules(load_cli_rules(rules, option)))
    except ValueError as e:
        fail(str(e))


@app.command()
def play(
    contract: Annotated[str, typer.Option(
        "--contract", "-c", metavar="CONTRACT", help=f"The contract: {CONTRACT_NAMES}.")] = "no-tricks",
    seed: Annotated[int, typer.Option(help="Seed of the random deal (ignored with --deal).")] = 0,
    index: Annotated[int, typer.Option(
        "--index", metavar="I", help="Which deal of the seed's sequence (deal I of a run).")] = 0,
    deal: Annotated[Optional[str], typer.Option(metavar="PBN", help=(
        "A PBN deal to play instead: four hands, spades first, clockwise from the named seat, e.g. "
        "'N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432'."))] = None,
    declarer: Annotated[str, typer.Option(metavar="SEAT", help="Declarer seat: N, E, S or W.")] = "N",
    trump: Annotated[Optional[str], typer.Option(
        metavar="SUIT|POLICY", help="Trumps: suit S, H, D or C, or a policy: longest (default), strongest.")] = None,
    domino_rank: Annotated[Optional[str], typer.Option(metavar="RANK|POLICY", help=(
        "Domino: starting rank 2..10, J, Q, K, A (default 7), or the policy most-held."))] = None,
    strategy: Annotated[str, typer.Option(metavar="NAME", help=STRATEGY_HELP)] = "heuristic",
    seat_strategy: SeatStrategyOpt = None,
    rules: RulesOpt = None,
    option: OptionOpt = None,
    symbols: SymbolsOpt = False,
    explain: Annotated[bool, typer.Option(help=(
        "At each decision of a seat playing mc, print every legal card's estimated score with its standard "
        "error."))] = False,
    record: Annotated[Optional[str], typer.Option(
        metavar="FILE", help="Also write the deal as a played-deal file, which barbu-sim review reads.")] = None,
    force: RecordForceOpt = False,
):
    """Play one deal under a contract and print it trick by trick.

    Examples:

      barbu-sim play --contract barbu --seed 7

      barbu-sim play -c domino --domino-rank 8 --seat-strategy N=random

      barbu-sim play -c trumps --trump H --deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"

      barbu-sim play -c barbu --seed 1 --seat-strategy E=mc:samples=200 --explain

      barbu-sim play -c no-queens --seed 3 --record deal.txt
    """
    from ..barbu.api import play_named
    from ..barbu.rules.choices import contract_choices
    from ..barbu.engine.deals import random_deal
    from ..barbu.formats.deal_text import format_record
    from ..barbu.rules.config import parse_contract
    from ..core.cards import parse_pbn
    from ..core.seats import SEAT_LETTERS, parse_seat
    try:
        cid = parse_contract(contract)
        the_rules = load_cli_rules(rules, option)
        check_seed(seed)
        check_range(index, "--index", 0, 2**63 - 1)
        if deal is not None and not deal.strip():
            raise ValueError("--deal is empty: give a PBN deal, or leave --deal out for a random one")
        hands = parse_pbn(deal) if deal is not None else random_deal(seed, index)
        specs = per_seat(strategy, seat_strategy, "--seat-strategy")
        domino_rank = fixed_domino_rank(the_rules, domino_rank, cid)
        choice = contract_choices(cid, trump, domino_rank)[0]
        check_new_file(record, "--record", force)  # before the deal is played
        result = play_named(hands, cid, specs, declarer=parse_seat(declarer), choice=choice, rules=the_rules,
                            seed=seed, index=index, explain=explain)
    except KeyboardInterrupt:
        interrupted("no deal played")
    except ValueError as e:
        fail(str(e))
    source = "given deal" if deal is not None else f"deal {index} of seed {seed}"
    names = ", ".join(f"{SEAT_LETTERS[s]}={n}" for s, n in enumerate(specs)) if len(set(specs)) > 1 else specs[0]
    typer.echo(format_record(result, the_rules, symbols=symbols, title=f"{source}; strategies: {names}"))
    if explain:
        from ..barbu.review.explain import format_explain
        typer.echo("")
        typer.echo(format_explain(result, symbols=symbols))
    if record:
        from ..barbu.formats.deal_file import played_deal_of, write_played_deals
        write_played_deals(record, [played_deal_of(result, the_rules, seed=seed, index=index,
                                              title=f"{source}; strategies: {names}")])
        typer.echo(f"\nWrote {record}: barbu-sim review {record} annotates it")


@app.command()
def run(
    deals: Annotated[Optional[int], typer.Option("--deals", "-n", metavar="N", help=(
        "Deals to simulate, up to 100,000,000 (default 5,000,000); every configuration is played on each."))] = None,
    contract: Annotated[Optional[list[str]], typer.Option("--contract", "-c", metavar="CONTRACT", help=(
        f"Contract to play: {CONTRACT_NAMES} (repeatable; default all seven)."))] = None,
    strategy: Annotated[Optional[str], typer.Option(
        metavar="NAME", help=STRATEGY_HELP.replace("heuristic,", "heuristic (default),", 1))] = None,
    seat_strategy: SeatStrategyOpt = None,
    trump: Annotated[Optional[str], typer.Option(metavar="SUIT|each|POLICY", help=(
        "Trumps: a suit S/H/D/C, each (all four on the same deals), or a policy: longest (default), "
        "strongest."))] = None,
    domino_rank: Annotated[Optional[str], typer.Option(metavar="RANK|each|POLICY", help=(
        "Domino: a rank 2..A (default 7), each (all 13 on the same deals), or the policy most-held."))] = None,
    declarer: Annotated[Optional[str], typer.Option(
        metavar="SEAT", help="Declarer seat N (default), E, S or W (it leads / plays first).")] = None,
    rules: RulesOpt = None,
    option: OptionOpt = None,
    seed: Annotated[Optional[int], typer.Option(
        help="Seed 0..2^64-1 (default 0): deal i is a pure function of (seed, i).")] = None,
    threads: ThreadsOpt = None,
    out: RunOutOpt = "runs/latest",
    resume: ResumeOpt = False,
    force: Annotated[bool, typer.Option(
        help="Replace a run already in --out (its records, report and charts are deleted).")] = False,
    progress: ProgressOpt = True,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    keep_hands: Annotated[bool, typer.Option("--hands", help=(
        "Also keep every seat's hand of each deal (RUN_DIR/hands.parquet, about 25 MB per million deals) "
        "for report --by; barbu-sim hands writes them for any run later."))] = False,
):
    """Simulate many deals and write per-deal records to a run directory.

    Every contract, trump suit, domino rank and strategy of a run is played on the
    same deals, so comparisons are paired. Interrupt at any time (Ctrl-C): the
    completed chunks stay on disk and --resume finishes the run.

    Examples:

      barbu-sim run -n 20000 --trump each --domino-rank each --out runs/study

      barbu-sim run -n 20000 -c trumps --trump strongest --seat-strategy N=random --out runs/strongest

      barbu-sim run -n 20000 --hands --out runs/hands && barbu-sim report runs/hands --by hearts -c no-hearts

      barbu-sim run --resume --out runs/study

      barbu-sim run -n 20000000 --backend ray --ray-address auto --out runs/big
    """
    from ..barbu.rules.config import CONTRACTS, parse_contract
    from ..barbu.players.registry import canonical_strategy
    from ..barbu.runs import RUNS
    from ..core.runs import run_command
    from ..core.seats import parse_seat
    with run_errors("barbu-sim", out):
        check_run_flags(out, seed, resume, force)
        given = {"deals": deals, "seed": seed, "trump": trump, "domino_rank": domino_rank,
                 "contracts": [CONTRACTS[parse_contract(c)] for c in contract] if contract else None,
                 "strategies": [canonical_strategy(s) for s in  # as the run's config records them
                                per_seat(strategy or "heuristic", seat_strategy, "--seat-strategy")]
                 if strategy is not None or seat_strategy else None,
                 "declarer": parse_seat(declarer) if declarer is not None else None,
                 "rules": load_cli_rules(rules, option).to_dict() if rules is not None or option else None}
        if given["rules"] is not None:
            _fixed_domino_rank(load_cli_rules(rules, option), given)
        where = cli_backend(backend, ray_address, threads)
        summary = run_command(RUNS, out, given, {"deals": 5_000_000, "contracts": list(CONTRACTS)}, resume=resume,
                              force=force, threads=threads, progress=progress, backend=where)
        if keep_hands and summary.complete:
            from ..barbu.runs import write_hands
            write_hands(out, force=True)
    echo_run_done("barbu-sim", summary, "deals", where, resume)


def _fixed_domino_rank(the_rules, given: dict) -> None:
    """Under domino-start=fixed:R every Domino hand starts from R: the run's domino rank is R, and
    another rank (or each, or a policy) is refused rather than played as R under another name."""
    from ..core.cards import RANK_NAMES, parse_rank
    start = the_rules.fixed_domino_start
    if start is None:
        return
    named = given.get("domino_rank")
    if named is not None:
        try:
            same = parse_rank(named) == start
        except ValueError:
            same = False
        if not same:
            raise ValueError(f"--domino-rank {named}: these rules start every Domino hand from the "
                             f"{RANK_NAMES[start]} (domino-start={the_rules.domino_start}); drop --domino-rank")
    given["domino_rank"] = RANK_NAMES[start]


def fixed_domino_rank(the_rules, domino_rank: str | None, contract: int) -> str | None:
    """``--domino-rank`` of one deal (``play``, ``table``) checked as ``run`` checks it: under
    ``domino-start=fixed:R`` another rank is refused, and a Domino deal is played (and kept) from R."""
    from ..barbu.rules.config import DOMINO
    if domino_rank is None and contract != DOMINO:
        return None
    given = {"domino_rank": domino_rank}
    _fixed_domino_rank(the_rules, given)
    return given["domino_rank"]


RunDir = Annotated[str, typer.Argument(metavar="RUN_DIR", help="A run directory written by barbu-sim run.")]
FEATURE_NAMES = ("clubs, diamonds, hearts, spades, hearts_high, hearts_low, kh, ah, queens, aces, kings, honours, "
                 "high, low, longest, shortest, voids, trump_length, trump_honours, domino_starters, domino_far, "
                 "domino_spread, domino_start")


def _report_by_hand(the_report, run_dir: str, by: list[str], contract: list[str] | None) -> None:
    from ..core.files import OutputError
    try:
        tables = the_report.by_hand_tables(run_dir, by, contract)
    except ValueError as e:
        fail(str(e))
    rows = len(next(iter(tables.values())))
    if rows == 0:
        fail(f"{run_dir} has no records of {', '.join(contract or ['its contracts'])} to group")
    typer.echo(the_report.by_hand_summary(tables))
    try:
        paths = the_report.write_by_hand(run_dir, tables)
    except OutputError as e:
        fail(f"{e}; the tables are printed above, but no file was written", code=1)
    typer.echo(f"\nWrote {len(paths)} files to {paths[-1].parent}")


@app.command()
def hands(run_dir: RunDir,
          force: Annotated[bool, typer.Option(help="Write the hands again over an existing hands file.")] = False):
    """Write every seat's hand of each deal of a run to RUN_DIR/hands.parquet, dealt again from its seed.

    A deal is a pure function of the run's seed and its index, so these are the hands its records were played
    with (about 25 MB per million deals, a second or so to write). `report --by` reads them;
    `run --hands` writes them with the run.

    Examples:

      barbu-sim run -n 20000 --out runs/small && barbu-sim hands runs/small

      barbu-sim report runs/small --by hearts -c no-hearts
    """
    from ..barbu.runs import write_hands
    from ..core.files import OutputError
    try:
        path, size = write_hands(run_dir, force=force)
    except OutputError as e:
        fail(str(e), code=1)
    except ValueError as e:
        fail(str(e))
    typer.echo(f"Wrote {path} ({size / 1e6:,.1f} MB). Next: barbu-sim report {run_dir} --by FEATURE")


@app.command()
def report(run_dir: RunDir,
           by: Annotated[Optional[list[str]], typer.Option(metavar="FEATURE", help=(
               "Instead of the headline tables, the expected scores by what the declarer's hand holds: a "
               f"feature ({FEATURE_NAMES}) or a SQL expression over them (low=hearts - hearts_high). "
               "Repeat to group by several. Needs the run's hands (barbu-sim hands RUN_DIR)."))] = None,
           contract: Annotated[Optional[list[str]], typer.Option("--contract", "-c", metavar="CONTRACT", help=(
               "With --by: only this contract (repeatable; default every contract of the run)."))] = None):
    """Print the expected-score tables of a run and write them to RUN_DIR/report (Markdown, CSV, JSON).

    With --by, the tables by hand instead: the declarer's expected score per value of each feature of its
    hand (every seat's in the CSV and JSON, RUN_DIR/report/by_FEATURE.*), with 95% CIs and counts, and the
    share of the spread of the declarer's score each feature explains.

    Examples:

      barbu-sim run -n 20000 --out runs/small && barbu-sim report runs/small

      barbu-sim hands runs/small && barbu-sim report runs/small --by hearts_high --by ah -c no-hearts

      barbu-sim report runs/small --by "penalty=queens + kh" -c no-queens -c barbu
    """
    from ..barbu.analytics import report as the_report
    from ..barbu.rules.config import Rules
    if by:
        _report_by_hand(the_report, run_dir, by, contract)
        return
    if contract:
        fail("--contract goes with --by (the headline report covers every contract of the run)")

    def rules_notes(snap) -> list[str]:  # a run under other rules than the default says so above its tables
        rules = the_report.run_rules(snap)
        return [the_report.rules_note(rules)] if rules != Rules() else []
    report_run(the_report, run_dir, rules_notes)


@app.command()
def plot(run_dir: RunDir,
         out: Annotated[Optional[str], typer.Option(
             metavar="DIR", help="Folder for the charts (default RUN_DIR/plots).")] = None):
    """Draw the charts of a run as PNG and SVG: scores by contract and seat, domino by rank, heatmap, distributions.

    Examples:

      barbu-sim run -n 20000 --domino-rank each --out runs/small && barbu-sim plot runs/small --out charts
    """
    from ..barbu.analytics import report as the_report
    from ..barbu.analytics.plots import write_plots
    plot_run(the_report, write_plots, run_dir, out,
             lambda snap: {"lower_is_better": the_report.run_rules(snap).lower_is_better})
