"""The study commands: ``barbu-sim compare`` and ``barbu-sim clabber compare``, the paired comparison of two players,
and ``barbu-sim ladder``, the strength ladder, a use of it.

Each command parses its options, makes one call into the wing's ``studies`` room, and prints the
table; a user mistake ends in a one-line ``Error: ...`` with exit code 2.
"""

from __future__ import annotations

from textwrap import fill
from typing import Annotated, Optional

import typer

from .app import (
    BARBU_STRATEGY_CHOICES, PLUGIN_SPECS, RULES_PRESETS, BackendOpt, OptionOpt, ProgressOpt, RayAddressOpt,
    ThreadsOpt, app, check_new_file, check_range, check_seed, cli_backend, fail, interrupted, load_cli_rules,
)
from .barbu import CONTRACT_NAMES
from .clabber import BIDDING_CHOICES, STRATEGY_CHOICES as CLABBER_STRATEGY_CHOICES, OptionOpt as ClabberOptionOpt
from .clabber import clabber_app

# The library's defaults, repeated here so that --help does not import numba (tests/test_compare.py checks them).
DEFAULT_DEALS = 10_000  # barbu.studies.compare.DEFAULT_DEALS
DEFAULT_ROUNDS = 10_000  # clabber.studies.compare.DEFAULT_ROUNDS
MAX_UNITS = 100_000_000  # the studies' MAX_DEALS / MAX_ROUNDS
LADDER_DEALS = 200_000  # barbu.studies.ladder.DEFAULT_DEALS
LADDER_SEED = 11  # barbu.studies.ladder.DEFAULT_SEED
LADDER_BLOCK = 50_000  # barbu.studies.ladder.DEFAULT_BLOCK
LADDER_OUT = "results/ladder.json"  # barbu.studies.ladder.DEFAULT_OUT
LADDER_PAIRS = "basic:random,heuristic:basic"  # barbu.studies.ladder.DEFAULT_PAIRS

SeedOpt = Annotated[int, typer.Option(
    metavar="SEED", help="Seed 0..2^64-1: deal (round) i is a pure function of (seed, i), so A and B play the "
                         "same ones.")]
CompareOutOpt = Annotated[Optional[str], typer.Option(
    metavar="FILE.json",
    help="Also write the table (and the configuration) to this JSON file; an existing file is refused unless --force.")]
CompareForceOpt = Annotated[bool, typer.Option(help="Replace the --out file if it exists.")]


WORDS = {"longest": "the declarer's longest suit", "strongest": "the declarer's strongest suit",
         "most-held": "the rank the declarer holds most of", "C": "clubs", "D": "diamonds", "H": "hearts",
         "S": "spades"}
LOWER_LINE = "The lowest total wins under these rules: A better by = B - A (positive: A plays the seat better)."
HIGHER_LINE = "A better by = A - B (positive: A plays the seat better); raw points per deal."
MIXED_LINE = ("A better by = A - B, or B - A under rules where the lowest total wins (positive: A plays the seat "
              "better); raw points per deal.")


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


def _played(choices: dict) -> str:
    """`` Trumps with the declarer's longest suit as trumps; Domino from the 7.`` (empty without such contracts)."""
    played = []
    for contract, words in choices.items():
        if contract == "trumps":
            played.append(f"Trumps with {WORDS.get(words, words)} as trumps")
        elif contract == "domino":
            played.append(f"Domino from {WORDS.get(words, 'the ' + words)}")
    return f" {'; '.join(played)}." if played else ""


def barbu_text(result, rules_label: str) -> str:
    """What ``barbu-sim compare`` prints for a :class:`~barbu_sim.barbu.studies.compare.Comparison`."""
    lines = [f"A = {result.a}, B = {result.b}: each at one seat among three {result.opponents}, on the same "
             f"{result.deals:,} deals of seed {result.seed}, every seat and declarer (16 plays a deal).",
             f"Rules: {rules_label}.{_played(result.choices)}", LOWER_LINE if result.lower_is_better else HIGHER_LINE]
    return "\n".join([fill(line, _width()) for line in lines] + [""]
                     + _table("contract", result.table.to_dicts(), "contract"))


def barbu_preamble(players: list[str], b: str, opponents: list[str], deals: int, seed: int, labels: list[str],
                   lower: list[bool], choices: dict) -> str:
    """What ``barbu-sim compare`` prints first when it makes several comparisons (several A, opponents or rules)."""
    lines = [f"A = {' | '.join(players)}, B = {b}: each A at one seat among three opponents ({' | '.join(opponents)}), "
             f"against B in that seat, on the same {deals:,} deals of seed {seed}, every seat and declarer (16 plays "
             "a deal).",
             f"Rules: {', '.join(labels)}.{_played(choices)}",
             LOWER_LINE if all(lower) else MIXED_LINE if any(lower) else HIGHER_LINE]
    return "\n".join(fill(line, _width()) for line in lines)


def barbu_section(result, rules_label: str) -> str:
    """One comparison of several: a heading naming its A, opponents and rules, then its table."""
    heading = (f"A = {result.a} among three {result.opponents}, rules {rules_label} (A better by = "
               f"{result.better_by}):")
    return "\n".join([fill(heading, _width())] + _table("contract", result.table.to_dicts(), "contract"))


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


CompareRulesOpt = Annotated[Optional[list[str]], typer.Option(
    "--rules", metavar="PRESET|FILE|all",
    help=f"Rules preset ({', '.join(RULES_PRESETS)}), a .toml file, or all (every preset). Repeatable: one "
         "comparison under each (default the rules as written).")]
TrumpOpt = Annotated[Optional[str], typer.Option(
    metavar="SUIT|POLICY",
    help="Trumps: the declarer's longest suit (default, barbu-sim run's), strongest, or a fixed suit S, H, D, C "
         "(the studies before the standard configuration played D, diamonds; heuristic-against-random S).")]
MergeOpt = Annotated[bool, typer.Option(
    help="Add the rows to the existing --out file (of the same seed and trump choice): rows of the same A, B, "
         "opponents, rules and contract are replaced, the others kept.")]


def _stamp(path: str | None) -> int | None:
    """When the file at ``path`` was last written (None: no file), to tell whether a command wrote it."""
    from pathlib import Path
    try:
        return Path(path).stat().st_mtime_ns if path else None
    except OSError:
        return None


def _rules_sets(rules: list[str] | None, option: list[str] | None) -> dict:
    """Rules label -> Rules of the repeatable ``--rules`` (``all``: every preset, in the package's order)."""
    from ..barbu.rules import PRESETS
    names = []
    for name in rules or [None]:
        for each in (list(PRESETS) if name == "all" else [name]):
            if each in names:
                raise ValueError(f"--rules {each} is given twice: give each once")
            names.append(each)
    return {_rules_label(name, option): load_cli_rules(name, option) for name in names}


@app.command()
def compare(
    players: Annotated[list[str], typer.Argument(
        metavar="A",
        help=f"Player A, at one seat: {BARBU_STRATEGY_CHOICES}, {PLUGIN_SPECS}. Several A: each is compared with B "
             "(B played once). {OPPONENTS} in a name stands for the opponents (mc:infer=policy:{OPPONENTS}).",
        show_default=False)],
    b: Annotated[str, typer.Argument(metavar="B", help="Player B, in the same seat on the same deals.")],
    opponents: Annotated[Optional[list[str]], typer.Option(
        metavar="NAME", help="The player of the other three seats (any player A may be); default heuristic. "
                             "Repeatable: one comparison among each.", show_default=False)] = None,
    contract: Annotated[Optional[list[str]], typer.Option(
        "--contract", "-c", metavar="CONTRACT",
        help=f"A contract to compare: {CONTRACT_NAMES} (repeatable; default all seven).")] = None,
    deals: Annotated[int, typer.Option(
        "--deals", "-n", metavar="N",
        help=f"Deals, 2..{MAX_UNITS:,} (each played 16 times a contract by A and by B).")] = DEFAULT_DEALS,
    seed: SeedOpt = 0,
    rules: CompareRulesOpt = None,
    option: OptionOpt = None,
    trump: TrumpOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[Optional[str], typer.Option(
        metavar="FILE.json",
        help="Also write the rows (per A, opponents, rules and contract, with the total) to this JSON file, after "
             "each contract; an existing file is refused before any deal is played unless --force or --merge.")] = None,
    merge: MergeOpt = False,
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
    by is B - A. Several players A, --opponents or --rules make one comparison each, printed as each
    is done.

    Examples:

      barbu-sim compare heuristic basic -c barbu -c trumps -n 500

      barbu-sim compare basic random --opponents basic -n 300 --rules positive-penalties

      barbu-sim compare learned heuristic -c trumps -n 200 --rules all --trump D --out presets.json

      barbu-sim compare heuristic random -c no-hearts -n 200 --out compare.json --force
    """
    from ..barbu.rules.choices import parse_trump_choice
    from ..barbu.rules.config import CONTRACTS, TRUMPS
    from ..barbu.studies import compare as study
    shown: list[bool] = []
    before = _stamp(out)

    def echo(label: str, results: list) -> None:
        several = len(players) > 1 or len(opponent_list) > 1 or len(rule_sets) > 1
        for result in results:
            if not several:
                typer.echo(barbu_text(result, label))
                continue
            if not shown:
                typer.echo(barbu_preamble(players, b, opponent_list, deals, seed, list(rule_sets),
                                          [r.lower_is_better for r in rule_sets.values()],
                                          {k: v for k, v in study.describe_params(params).items()
                                           if k in {CONTRACTS[c] for c in study.contract_ids(contract)}}))
            shown.append(True)
            typer.echo("\n" + barbu_section(result, label))

    try:
        check_range(deals, "--deals", 2, MAX_UNITS)
        check_seed(seed)
        if force and merge:
            raise ValueError("--merge adds to --out and --force replaces it: give one")
        if merge and out is None:
            raise ValueError("--merge adds the rows to the --out file: name it")
        check_new_file(out, "--out", True)  # its folder, before any deal (the study refuses an existing file)
        rule_sets = _rules_sets(rules, option)
        opponent_list = opponents or ["heuristic"]
        params = {**study.STUDY_PARAMS, int(TRUMPS): parse_trump_choice(trump)[0].code}
        study.compare_grid(players, b, opponents=opponent_list, rules=rule_sets, contracts=contract,
                           deals=deals, seed=seed, params=params, threads=threads, progress=progress, out=out,
                           force=force, merge=merge, on_result=echo)
    except KeyboardInterrupt:
        written = out is not None and _stamp(out) != before
        interrupted(f"the rows of the contracts done are in {out}" if written else "nothing was written")
    except ValueError as e:
        fail(str(e))
    if out:
        typer.echo(f"\nWrote {out}")


@app.command()
def ladder(
    pair: Annotated[Optional[list[str]], typer.Option(
        "--pair", "--pairs", metavar="STRONG:WEAK",
        help=f"A pair: the stronger player, then the weaker (mc:samples=64:heuristic; a comma list of pairs is "
             f"taken too). Repeatable; default {LADDER_PAIRS}.", show_default=False)] = None,
    deals: Annotated[Optional[list[int]], typer.Option(
        "--deals", "-n", metavar="N",
        help=f"Deals: one count for every pair, or one per pair in order (repeatable); default {LADDER_DEALS:,}.",
        show_default=False)] = None,
    contract: Annotated[Optional[list[str]], typer.Option(
        "--contract", "-c", metavar="CONTRACT",
        help=f"A contract: {CONTRACT_NAMES} (repeatable; default all seven).")] = None,
    seed: SeedOpt = LADDER_SEED,
    out: Annotated[str, typer.Option(
        metavar="FILE.json", help="The ladder's results file; an existing one is refused before any deal is played "
                                  "unless --merge or --force.")] = LADDER_OUT,
    merge: Annotated[bool, typer.Option(
        help="Add the rows to the existing --out file of the same seed, keeping its rows of other pairs (or of "
             "other contracts of these pairs): a slow rung can be added later.")] = False,
    force: Annotated[bool, typer.Option(help="Replace the --out file if it exists.")] = False,
    block: Annotated[int, typer.Option(
        metavar="N", help="Deals per Ray task, with --backend ray (the rows do not depend on it).")] = LADDER_BLOCK,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    threads: ThreadsOpt = None,
    progress: ProgressOpt = True,
):
    """The strength ladder: how much better each rung plays than the one below it, per contract.

    For a pair STRONG:WEAK, the stronger player sits at one seat among three of the weaker, against
    the weaker player in that seat on the same deals (all four seats weak), with the stronger player
    at each seat and the declarer at each seat (16 plays a deal): barbu-sim compare STRONG WEAK
    --opponents WEAK. A row gives, per contract, both players' mean in that seat and the difference
    with a 95% confidence interval over deals. Trumps with the declarer's longest suit, Domino from
    the 7. The file is written after each pair and its rows kept in the ladder's order; the table of
    this run's rows is printed in Markdown.

    Examples:

      barbu-sim ladder --pair heuristic:basic -n 2000 -c barbu -c trumps --out ladder.json

      barbu-sim ladder --pair basic:random --pair heuristic:random -n 500 -n 300 -c domino --out ladder.json --merge
    """
    from ..barbu.studies import ladder as study
    pairs: list = []
    before = _stamp(out)
    try:
        for text in pair or [LADDER_PAIRS]:
            pairs += study.parse_pairs(text)
        check_seed(seed)
        if force and merge:
            raise ValueError("--merge adds to --out and --force replaces it: give one")
        check_new_file(out, "--out", True)  # its folder, before any deal (the study refuses an existing file)
        if threads is not None and threads < 1:
            raise ValueError(f"--threads must be at least 1, not {threads}")
        the_backend = cli_backend(backend, ray_address, threads)  # with Ray, --threads are each task's
        rows = study.ladder(pairs, deals or [LADDER_DEALS], contracts=contract, seed=seed, out=out, force=force,
                            merge=merge, block=block, backend=the_backend,
                            threads=threads if the_backend.name == "local" else None, progress=progress)
    except KeyboardInterrupt:
        interrupted(f"the pairs done are in {out}" if _stamp(out) != before else "nothing was written")
    except ValueError as e:
        fail(str(e))
    typer.echo(study.markdown(rows))
    typer.echo(f"\nWrote {out}")


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
