"""The commands for a table: sit at the table against the bots (``table``), keep a real table's score (``sheet``).

Each command parses its options, makes one call into the library, and prints;
a user mistake ends in a one-line ``Error: ...`` with exit code 2.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .app import (
    OptionOpt, RulesOpt, app, check_new_file, check_out_writable, check_seed, fail,
    interrupted, load_cli_rules, per_seat, typed,
)

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
    from ..barbu.table.session import LENGTHS, Session, TableSettings, check_samples, read_session
    from ..barbu.table.deal import Console
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
        from ..barbu.review.review import review_deal
        from ..barbu.review.text import format_review, intro
        from ..barbu.table.deal import estimator_ready
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
    from ..barbu.table.session import TableSettings
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

    from ..barbu.table.sheet import (
        ScoreKeeper, format_sheet, keep_score, load_hands, parse_names, save_hands, seat_label,
    )
    from ..barbu.table.deal import Console, Quit
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
