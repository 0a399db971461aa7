"""The commands for players: review a played deal, sit at the table against the bots, keep a real table's score.

Each command parses its options, makes one call into the library, and prints;
a user mistake ends in a one-line ``Error: ...`` with exit code 2.
"""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from .app import (
    OptionOpt, RulesOpt, SymbolsOpt, app, check_new_file, check_out_writable, check_range, check_seed, fail,
    interrupted, load_cli_rules, per_seat, typed,
)

REVIEW_SAMPLES_MAX = 100_000


@app.command()
def review(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(metavar="FILE", help=(
        "A played-deal file (written by play --record or table, or typed: docs/review-and-table.md), or a PBN file "
        "with a play section; - reads it from standard input."))],
    seat: Annotated[Optional[list[str]], typer.Option(
        metavar="SEAT", help="Review only this seat's decisions: N, E, S or W (repeatable; default all four).")] = None,
    samples: Annotated[int, typer.Option(metavar="N", help=(
        f"Layouts of the unseen cards in each decision's first round (2..{REVIEW_SAMPLES_MAX:,}); more rounds follow "
        "where a label is in doubt."))] = 64,
    max_samples: Annotated[Optional[int], typer.Option(metavar="N", help=(
        "The most layouts per decision (default 512 x --samples, at most 100,000; a quarter of it for a decision "
        "searched exactly from 5 tricks left)."))] = None,
    seed: Annotated[int, typer.Option(help=(
        "Seed of the layouts: the same file, seats, samples and seed give the same numbers. A table session's file: "
        "its seed, and its hints' --samples, unless given (a decision's review reads what its hint read)."))] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON, for tools.")] = False,
    step: Annotated[bool, typer.Option("--step", help=(
        "Walk the deal decision by decision: Enter for the next, a card to see its value there, q to quit."))] = False,
    html: Annotated[Optional[str], typer.Option("--html", metavar="PAGE", help=(
        "Also write the review as one web page to share: the hands, the tricks and every decision, stepped through "
        "with the arrow keys; it opens from disk, no server. Several deals: PAGE-1.html, PAGE-2.html, ..."))] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --html page.")] = False,
    play_samples: Annotated[Optional[int], typer.Option(metavar="N", help=(
        "Clabber rounds: the layouts each mc card player draws per decision when a bidding option is played out "
        f"(1..{REVIEW_SAMPLES_MAX:,}; default 48, mc's)."))] = None,
    symbols: SymbolsOpt = False,
):
    """Annotate a played deal card by card: what each legal card was worth, and where points were lost.

    At every decision of a reviewed seat (a play with more than one legal card that
    are not equivalent), the mc player's estimator values every legal card's score from
    there to the end of the hand, from that seat's information only (its hand and what
    the table showed), with standard errors: the last 5 tricks searched exactly, the
    layouts added in rounds until each card's label is settled. A loss (best minus
    played) counts when it exceeds two standard errors; it is labelled inaccuracy,
    mistake or blunder when it clears 4%, 10% or 25% of the contract's points by two
    standard errors. Each seat's accuracy is shown per hand and over the file. At each
    flagged decision the position is shown. A file with several deals (a table
    session) is reviewed deal by deal; a deal of a table session that is not over is
    left out (the review shows every hand): barbu-sim table --resume finishes it. The
    FILE - is standard input (not with --step, which reads your keys there). A Clabber
    round (game: clabber) is reviewed call by call as well: every option of each
    bidding call, played out by mc from the caller's view, with the same labels
    (docs/clabber.md#review).

    Examples:

      barbu-sim play -c no-queens --seed 3 --record deal.txt && barbu-sim review deal.txt --samples 20

      barbu-sim review deal.txt --seat E --samples 200 --max-samples 1600

      barbu-sim review deal.txt --seat W --samples 20 --json

      barbu-sim review deal.txt --seat S --samples 16 --step

      barbu-sim review deal.txt --seat S --samples 16 --html deal.html

      barbu-sim clabber play --seed 3 --record round.txt && barbu-sim review round.txt --samples 8 --play-samples 8
    """
    from ..barbu.played.deal_file import (
        STDIN, PlayedDealError, read_record_base, read_record_text, record_name, resume_command, reviewable_deals,
    )
    from ..barbu.played.estimate import Settings
    from ..barbu.played.review import review_deal, review_json
    from ..barbu.played.review_text import format_file_accuracy, format_review
    from ..core.seats import parse_seat
    try:
        check_range(samples, "--samples", 2, REVIEW_SAMPLES_MAX)
        if max_samples is not None:
            check_range(max_samples, "--max-samples", samples, REVIEW_SAMPLES_MAX)
        if play_samples is not None:
            check_range(play_samples, "--play-samples", 1, REVIEW_SAMPLES_MAX)
        check_seed(seed)
        if step and as_json:
            raise ValueError("--step walks the review at the terminal: it does not go with --json")
        if step and html:
            raise ValueError("--step walks the review at the terminal: --html writes it without --step")
        if step and file == STDIN:
            raise ValueError("--step reads your keys from standard input: give the file by its name, not -")
        seats = sorted({parse_seat(s) for s in seat}) if seat else None
        name = record_name(file)  # "standard input" for -
        text = read_record_text(file)  # read once: FILE may be a pipe (/dev/stdin, -)
        if _is_clabber(text):
            if step or html:
                raise ValueError(f"{'--step' if step else '--html'} reviews Barbu deals; "
                                 "a Clabber round is reviewed without it")
            _review_clabber(text, name, seats, samples, seed, as_json, symbols, play_samples)
            return
        _check_not_clabber(text, name)
        if play_samples is not None:
            raise ValueError("--play-samples plays out the bidding of a Clabber round; "
                             "a Barbu deal has no bidding to review")
        deals, left_out = reviewable_deals(text, name, base=read_record_base(file))
        samples, seed = _session_layouts(ctx, text, samples, seed)  # a table session: its hints' layouts
        pages = _html_pages(html, len(deals), force)
        settings = Settings(samples=samples, max_samples=max_samples)
        # a deal of a table session that can go on is not shown: said on stderr, where --json leaves it out of the data
        left_note = "\n".join(f"Deal {k} of {name} is left out: it is not over ({resume_command(name)} goes on)"
                               for k in left_out)
        if left_note and (step or as_json):
            typer.echo(left_note, err=True)
        if step:
            _review_step(deals, seats, settings, seed, symbols)
            return
        reviews = [review_deal(d, seats, settings=settings, seed=seed) for d in deals]
    except KeyboardInterrupt:
        interrupted("no review printed" if not step else "the review stopped")
    except (ValueError, PlayedDealError) as e:
        fail(str(e))
    if pages:
        from ..barbu.played.review_html import write_review_html
        for review_, page in zip(reviews, pages):
            write_review_html(review_, page)
    if as_json:
        typer.echo(json.dumps([review_json(r) for r in reviews], indent=1))  # a list, one entry per deal
        return
    out = "\n\n".join(format_review(r, symbols=symbols) for r in reviews)
    if len(reviews) > 1:
        out += "\n\n" + format_file_accuracy(reviews)
    if pages:
        out += "\n\n" + "\n".join(f"The review as a web page: {p} (open it in a browser)" for p in pages)
    if left_note:
        out += "\n\n" + left_note
    typer.echo(out)


def _session_layouts(ctx: typer.Context, text: str, samples: int, seed: int) -> tuple[int, int]:
    """``--samples`` and ``--seed`` of the review of a table session's file: where not given, the session's
    hints' (its seed, and its --hint-samples unless 0), so that the review of a decision reads what its hint
    read; any other file keeps the defaults."""
    from ..barbu.game.table_session import session_layouts
    found = session_layouts(text)
    if found is None:
        return samples, seed

    hint_samples, session_seed = found
    return (samples if typed(ctx, "samples") or not hint_samples else hint_samples,
            seed if typed(ctx, "seed") else session_seed)


def _html_pages(html: str | None, n_deals: int, force: bool) -> list[str]:
    """The pages ``review --html PAGE`` writes, checked before any work: PAGE for one deal, else
    PAGE-1.html, PAGE-2.html, ... (PAGE without its .html), one per deal."""
    from pathlib import Path
    if html is None:
        return []
    if n_deals == 1:
        return [check_new_file(html, "--html", force)]
    stem = str(Path(html).with_suffix("")) if html.lower().endswith(".html") else html
    return [check_new_file(f"{stem}-{k}.html", "--html", force) for k in range(1, n_deals + 1)]


def _review_step(deals, seats, settings, seed: int, symbols: bool) -> None:
    """review --step: the walk through the decisions, reading lines from stdin (a terminal, a pipe or a file)."""
    from ..barbu.played.estimate import estimator_ready
    from ..barbu.played.review_step import read_line, step_review
    estimator_ready()
    step_review(deals, seats, settings, seed, lambda prompt: read_line(prompt, typer.echo), typer.echo, symbols)


def _is_clabber(text: str) -> bool:
    from ..clabber.played.round_file import is_clabber
    return is_clabber(text)


def _check_not_clabber(text: str, name: str) -> None:
    """A Clabber round that lost its ``game: clabber`` line is said to be one, not misread as a broken Barbu deal."""
    from ..clabber.played.round_file import clabber_without_game
    found = clabber_without_game(text)
    if found:
        lines = ", ".join(f"'{key}:'" for key in found)
        raise ValueError(f"{name} looks like a Clabber round ({lines} lines) but has no 'game: clabber' line: add "
                         "'game: clabber' as its first line")


def _review_clabber(text: str, name: str, seats, samples: int, seed: int, as_json: bool, symbols: bool,
                    play_samples: int | None) -> None:
    """review for a Clabber round file: each call's options, then mc's value of every legal card."""
    from ..clabber.played.bid_review import review_calls
    from ..clabber.played.review import clabber_review_json, format_clabber_review, review_round
    from ..clabber.played.round_file import parse_rounds
    from ..clabber.players.mc import DEFAULT_SAMPLES
    play_samples = play_samples or DEFAULT_SAMPLES
    rounds = parse_rounds(text, name, ValueError)
    done = [(r, *review_round(r, seats, samples=samples, seed=seed),
             review_calls(r, seats, samples=samples, seed=seed, play_samples=play_samples)) for r in rounds]
    if as_json:
        typer.echo(json.dumps([clabber_review_json(r, d, f, samples, b) for r, d, f, b in done], indent=1))
    else:
        typer.echo("\n\n".join(format_clabber_review(r, d, f, samples, symbols, b) for r, d, f, b in done))


LENGTH_HELP = "deal (one deal), block (seven contracts: one declarer's block) or game (28 hands)"


@app.command()
def table(
    ctx: typer.Context,
    seat: Annotated[str, typer.Option(metavar="SEAT", help="Your seat: N, E, S or W.")] = "S",
    length: Annotated[str, typer.Option(metavar="LENGTH", help=f"What to play: {LENGTH_HELP}.")] = "deal",
    bots: Annotated[str, typer.Option(metavar="NAME", help=(
        "The bots' play strategy: random, basic, heuristic, lowest, learned, learned1, mc[:samples=N], or "
        "file.py:func."))] = "heuristic",
    bot: Annotated[Optional[list[str]], typer.Option(
        metavar="SEAT=NAME", help="One bot's play strategy, e.g. W=mc:samples=32. Repeatable.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the deals: deal h of the session is deal h of the seed.")] = 0,
    declarer: Annotated[Optional[str], typer.Option(metavar="SEAT", help=(
        "Declarer of a deal, or first declarer of a block or game (default: you in a deal or block, drawn from the "
        "seed in a game)."))] = None,
    contract: Annotated[str, typer.Option("--contract", "-c", metavar="CONTRACT", help=(
        "A deal's contract (a block or game: the declarer chooses)."))] = "barbu",
    trump: Annotated[Optional[str], typer.Option(
        metavar="SUIT|POLICY", help="A deal's trump suit, or longest (default), strongest.")] = None,
    domino_rank: Annotated[Optional[str], typer.Option(
        metavar="RANK|POLICY", help="A deal's domino starting rank (default 7), or most-held.")] = None,
    bot_contracts: Annotated[str, typer.Option(
        metavar="POLICY", help="The bots' contract choice: fixed, myopic, relative, optimal...")] = "myopic",
    bot_doubling: Annotated[str, typer.Option(metavar="POLICY", help=(
        "The bots' doubling: compulsory-only, always, threshold[:MARGIN], bayes[:MARGIN]."))] = "compulsory-only",
    hint_samples: Annotated[int, typer.Option(metavar="N", help="Layouts mc samples for a hint (0: no hints).")] = 50,
    review_samples: Annotated[int, typer.Option(
        metavar="N", help="Layouts per decision of the review at the end (0: no review).")] = 50,
    save: Annotated[str, typer.Option(metavar="FILE", help=(
        "Where the session is saved (at quit and after each hand): a played-deal file. An existing file is refused "
        "without --force."))] = "table.txt",
    force: Annotated[bool, typer.Option(
        help="Replace the --save file if it exists (a saved session is lost: --resume goes on with it).")] = False,
    resume: Annotated[Optional[str], typer.Option(
        metavar="FILE", help="Go on with a session saved in FILE (its own settings; it is saved there again).")] = None,
    rules: RulesOpt = None,
    option: OptionOpt = None,
):
    """Play against the bots in the terminal: a deal, a block of seven contracts or a whole game.

    The screen shows the scores (and the totals of a block or game), the doubles and
    those still owed, the last trick, the cards played, the trick so far and your hand
    sorted by suit, cards written ♠Q, ♥10; on a terminal hearts and diamonds are red
    (NO_COLOR=1: no colours; a pipe gets plain text). Type a card (QS, ♠Q, q s, 10h) or
    its number in the list shown; an illegal card is refused with the rule it breaks.
    Also: hint (mc's value of each of your legal cards, from your information only), undo
    (take back your last card), quit (save the session; review reads the file and
    --resume goes on), help. In a block or game you choose your contracts (no tricks,
    trumps spades, a number...) and doubles (N E, all, no), where hint gives the advisor's
    answer (barbu-sim advise, over 500 deals); the bots use their policies.
    The score sheet follows each hand, and the review of your decisions ends the session.

    Examples:

      barbu-sim table

      barbu-sim table --length block --seat S --bots heuristic --bot W=mc:samples=32 --save block.txt

      barbu-sim table --resume table.txt
    """
    from ..barbu.game.table_session import LENGTHS, Session, TableSettings, check_samples, read_session
    from ..barbu.played.table_deal import Console
    from ..core.seats import parse_seat
    from .barbu import fixed_domino_rank
    console = Console()
    session = None
    try:
        check_samples(hint_samples, "--hint-samples")
        check_samples(review_samples, "--review-samples")
        if resume:
            settings, saved = read_session(resume)
            _check_resume_options(ctx, settings, resume, save)
            save = resume
            check_new_file(save, "--resume", force=True)  # saved there again: its folder must take files
        else:
            check_new_file(save, "--save", force, kept=f" (a session saved there goes on with barbu-sim table "
                                                       f"--resume {save})")
            check_seed(seed)
            if length not in LENGTHS:
                raise ValueError(f"--length must be deal, block or game, not {length!r}")
            human = parse_seat(seat)
            specs = per_seat(bots, bot, "--bot")
            if any(parse_seat(item.split("=", 1)[0]) == human for item in bot or []):
                raise ValueError(f"--bot names your seat {seat.strip().upper()}: give the bots' seats only")
            specs[human] = "you"
            from ..barbu.game.game import first_declarer
            first = parse_seat(declarer) if declarer else (first_declarer(seed, 0) if length == "game" else human)
            from ..barbu.rules.config import parse_contract
            from ..barbu.rules.choices import contract_choices
            the_rules = load_cli_rules(rules, option)
            domino_rank = fixed_domino_rank(the_rules, domino_rank, int(parse_contract(contract)))
            settings = TableSettings(human, specs, length, seed, first, contract, trump, domino_rank, bot_contracts,
                                     bot_doubling, hint_samples, TableSettings.options_of(the_rules))
            contract_choices(int(parse_contract(contract)), trump, domino_rank)  # checked before play
            saved = []
        session = Session(settings, settings.rules(), console, save)
        finished = session.play(saved)
    except KeyboardInterrupt:
        if session is None:
            interrupted("nothing played, nothing saved")
        # the session saved what quit saves (the hands played and the cards of this one)
        interrupted(f"the session is saved in {save}; barbu-sim table --resume {save} goes on")
    except ValueError as e:
        fail(str(e))
    if finished and review_samples:
        from ..barbu.played.review import review_deal
        from ..barbu.played.review_text import format_review, intro
        from ..barbu.played.table_deal import estimator_ready
        estimator_ready()  # its first compile is said (on stderr, once), not a silent minute
        console.say("\nReview of your decisions (the decisions that lost points, then a summary per hand)")
        console.say("\n".join(intro(review_samples, settings.seed)))
        for deal in session.deals:
            console.say("")
            console.say(format_review(review_deal(deal, [settings.seat], samples=review_samples,
                                                  seed=settings.seed), symbols=True, brief=True))
    if finished:
        console.say(f"\nThe session is saved in {save}\n  barbu-sim review {save}   annotates every seat")


def _check_resume_options(ctx: typer.Context, settings, resume: str, save: str) -> None:
    """Refuse, in one line naming each, the options given with ``table --resume`` that differ from the saved
    session's settings (the session goes on with its own, as ``run --resume`` does).  An option given with the
    saved value, in any spelling, is taken; ``--review-samples`` (the review at the end) and ``--force`` are not
    part of the session and are taken as given; ``--save`` is refused unless it names the file resumed, where
    the session is saved again."""
    from ..barbu.game.table_session import TableSettings
    from ..barbu.rules.choices import contract_choices
    from ..barbu.rules.config import DOMINO, TRUMPS, parse_contract
    from ..core.seats import SEAT_LETTERS, parse_seat
    p, s = ctx.params, settings

    def reading(parse):  # a value as the session keeps it; one that does not read differs from any
        def read(value):
            try:
                return parse(value)
            except ValueError:
                return value
        return read

    same = reading(lambda v: v)
    trump = reading(lambda v: contract_choices(TRUMPS, v, None))  # 'H', 'hearts', 'h' alike
    rank = reading(lambda v: contract_choices(DOMINO, None, v))
    contract = reading(lambda v: int(parse_contract(v)))
    # option, flag, how a value reads, the session's value, as said
    checks = [("seat", "--seat", reading(parse_seat), s.seat, SEAT_LETTERS[s.seat]),
              ("length", "--length", same, s.length, s.length),
              ("seed", "--seed", same, s.seed, s.seed),
              ("declarer", "--declarer", reading(parse_seat), s.first, SEAT_LETTERS[s.first]),
              ("contract", "--contract", contract, contract(s.contract), s.contract),
              ("trump", "--trump", trump, trump(s.trump), s.trump or "none"),
              ("domino_rank", "--domino-rank", rank, rank(s.domino_rank), s.domino_rank or "none"),
              ("bot_contracts", "--bot-contracts", same, s.bot_contracts, s.bot_contracts),
              ("bot_doubling", "--bot-doubling", same, s.bot_doubling, s.bot_doubling),
              ("hint_samples", "--hint-samples", same, s.hint_samples, s.hint_samples)]
    differ = [f"{flag} {p[name]} (the session has {said})" for name, flag, read, theirs, said in checks
              if typed(ctx, name) and read(p[name]) != theirs]
    named = {}  # --bot SEAT=NAME: the seats it names
    for item in p["bot"] or []:
        where, _, spec = item.partition("=")
        seat = reading(parse_seat)(where)
        if not isinstance(seat, int) or s.bots[seat] != spec.strip():
            had = f"{SEAT_LETTERS[seat]}={s.bots[seat]}" if isinstance(seat, int) else f"no seat {where.strip()!r}"
            differ.append(f"--bot {item} (the session has {had})")
        named[seat] = spec
    others = {s.bots[i] for i in range(len(s.bots)) if i != s.seat and i not in named}
    if typed(ctx, "bots") and others - {p["bots"].strip()}:
        differ.append(f"--bots {p['bots']} (the session has {'|'.join(s.bots)})" if len(others) > 1
                      else f"--bots {p['bots']} (the session has {''.join(others)})")
    if typed(ctx, "rules") or typed(ctx, "option"):
        options = TableSettings.options_of(load_cli_rules(p["rules"], p["option"]))
        if options != s.options:
            differ.append(f"--rules/--option give {options or 'the default rules'} (the session has "
                          f"{s.options or 'the default rules'})")
    if typed(ctx, "save") and save != resume:
        differ.append(f"--save {save} (the session is saved again in {resume})")
    if differ:
        raise ValueError(f"--resume goes on with the session saved in {resume}, with its own settings; these differ "
                         f"from it: {'; '.join(differ)}. Leave them out, or start a new session (without --resume)")


@app.command()
def sheet(
    out: Annotated[str, typer.Option("--out", metavar="DIR", help=(
        "Folder of the sheet: hands.parquet (as barbu-sim game writes it), summary.json and sheet.csv (the sheet as "
        "printed, for a spreadsheet). An existing sheet there is taken up again."))] = "sheet",
    first: Annotated[Optional[str], typer.Option(
        metavar="SEAT", help="The first declarer of a new sheet: N, E, S or W (default N).")] = None,
    names: Annotated[Optional[str], typer.Option(metavar="N,E,S,W", help=(
        "The players' names, North first, e.g. Ann,Bob,Cy,Di (at most 12 characters each); kept with the "
        "sheet."))] = None,
    rules: RulesOpt = None,
    option: OptionOpt = None,
):
    """Keep a real table's score: enter each hand's contract, doubles and raw scores as it is played.

    Each line typed is one hand, CONTRACT[:SUIT|RANK] [DOUBLES] N E S W, e.g.
    "barbu E>N 0 -20 0 0" (E>N: East doubled North), "no tricks -8 -6 -6 -6",
    "trumps H S>N 20 15 20 10" or "domino 7 45 20 5 -5"; the contract may be typed with
    spaces, hyphens or nothing between its words. Each entry is checked against the rules
    by the referee verify-games uses (who declares, each contract once, the allowed and
    compulsory doubles, scores the contract can give that add up); the doubles are
    settled and the running sheet is printed. Also: undo removes the last hand, names
    Ann,Bob,Cy,Di names the players, quit stops. The sheet is saved after each hand to
    DIR/hands.parquet (which verify-games and the analytics read, even before the game is
    over) and DIR/sheet.csv; run the command again to see the sheet and go on (under the
    rules and first declarer it was started with).

    Examples:

      barbu-sim sheet --out our-game --first E --names Ann,Bob,Cy,Di

      barbu-sim sheet --out our-game --rules strict-barbu
    """
    from pathlib import Path

    from ..barbu.game.sheet import (
        ScoreKeeper, format_sheet, keep_score, load_hands, parse_names, save_hands, seat_label,
    )
    from ..barbu.played.table_deal import Console, Quit
    from ..core.seats import parse_seat
    console = Console()
    try:
        check_out_writable(out)  # before the first hand is typed: a read-only folder would lose it
        the_rules = load_cli_rules(rules, option)
        first_seat = parse_seat(first) if first is not None else None
        players = parse_names(names) if names is not None else None
        path = Path(out) / "hands.parquet"
        given = the_rules if rules is not None or option else None  # a sheet taken up keeps its own rules
        keeper = load_hands(path, given, first_seat, players)
        if keeper is not None:
            console.say(f"Taken up: {len(keeper.hands)} hands in {path}")
            console.say(format_sheet(keeper.hands, keeper.names))  # where the game stands, names included
            if players is not None:
                save_hands(path, keeper)  # renamed: kept even if no hand follows
        else:
            keeper = ScoreKeeper(the_rules, first_seat if first_seat is not None else 0, players)
            if keeper.names:
                console.say("Players: " + "  ".join(seat_label(s, keeper.names) for s in range(4)))
        try:
            done = keep_score(keeper, console, path)
        except Quit:
            done = False
    except KeyboardInterrupt:
        interrupted(f"the hands entered are saved in {out}")
    except ValueError as e:
        fail(str(e))
    if done:
        console.say(f"\nThe game is complete and saved in {path}: barbu-sim verify-games {path} checks it")
    elif keeper.hands:
        console.say(f"\n{len(keeper.hands)} hands saved in {path} and {Path(out) / 'sheet.csv'}\n"
                    f"  barbu-sim sheet --out {out}   goes on\n"
                    f"  barbu-sim verify-games {path}   checks the hands so far")
    else:
        console.say("\nNo hand entered: nothing saved")
