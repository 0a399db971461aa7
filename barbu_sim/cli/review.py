"""``barbu-sim review``: the review of a played Barbu deal or Clabber round, every decision valued, as text, JSON,
a step-by-step walk or a web page.

The command parses its options, makes one call into the library (the wing whose file it is), and prints;
a user mistake ends in a one-line ``Error: ...`` with exit code 2.
"""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from .app import SymbolsOpt, ThreadsOpt, app, check_new_file, check_range, check_seed, fail, interrupted, typed

REVIEW_SAMPLES_MAX = 100_000


@app.command()
def review(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(metavar="FILE", help=(
        "A played-deal file (written by play --record or table, or typed: docs/review-and-table.md), or a PBN file "
        "with a play section; - reads it from standard input."))],
    seat: Annotated[Optional[list[str]], typer.Option(
        metavar="SEAT", help=(
            "Review only this seat's decisions: N, E, S or W (repeatable; default all four). The --html page opens "
            "on the first one's view (a table session's: the player's seat)."))] = None,
    samples: Annotated[int, typer.Option(metavar="N", help=(
        f"Layouts of the unseen cards in each decision's first round (2..{REVIEW_SAMPLES_MAX:,}); more rounds follow "
        "where a label is in doubt."))] = 64,
    max_samples: Annotated[Optional[int], typer.Option(metavar="N", help=(
        "The most layouts per decision (default 128 x --samples, at most 100,000; a quarter of it for a decision "
        "searched exactly from 5 tricks left)."))] = None,
    seed: Annotated[int, typer.Option(help=(
        "Seed of the layouts: the same file, seats, samples and seed give the same numbers. A table session's file: "
        "its seed, and its hints' --samples, unless given (a decision's review reads what its hint read)."))] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON, for tools.")] = False,
    step: Annotated[bool, typer.Option("--step", help=(
        "Walk the deal decision by decision: Enter for the next, a card to see its value there, q to quit."))] = False,
    html: Annotated[Optional[str], typer.Option("--html", metavar="PAGE", help=(
        "Also write the review as one web page to share: the deal seen from a seat (a switch shows every hand), "
        "every decision with each card's value, the hand's graph and the accuracy, stepped through with the arrow "
        "keys; it opens from disk, no server. Several deals: PAGE-1.html, PAGE-2.html, ... and PAGE.html, their index. "
        "A Clabber round's page steps through the bidding too, every call's options valued."))] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --html page.")] = False,
    play_samples: Annotated[Optional[int], typer.Option(metavar="N", help=(
        "Clabber rounds: the layouts each mc card player draws per decision when a bidding option is played out "
        f"(1..{REVIEW_SAMPLES_MAX:,}; default 48, mc's)."))] = None,
    symbols: SymbolsOpt = False,
    threads: ThreadsOpt = None,
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
    (docs/clabber.md#review); its --html page steps through the calls and the cards.

    Examples:

      barbu-sim play -c no-queens --seed 3 --record deal.txt && barbu-sim review deal.txt --samples 20

      barbu-sim review deal.txt --seat E --samples 200 --max-samples 1600

      barbu-sim review deal.txt --seat W --samples 20 --json

      barbu-sim review deal.txt --seat S --samples 16 --step

      barbu-sim review deal.txt --seat S --samples 16 --html deal.html

      barbu-sim clabber play --seed 3 --record round.txt && barbu-sim review round.txt --samples 8 --play-samples 8

      barbu-sim review round.txt --seat S --samples 8 --play-samples 8 --html round.html
    """
    from ..barbu.formats.deal_file import (
        STDIN, PlayedDealError, read_record_base, read_record_text, record_name, resume_command, reviewable_deals,
    )
    from ..barbu.review.estimate import Settings
    from ..barbu.review.review import review_deals, review_json
    from ..barbu.review.text import format_file_accuracy, format_review
    from ..core.seats import parse_seat
    try:
        check_range(samples, "--samples", 2, REVIEW_SAMPLES_MAX)
        if max_samples is not None:
            check_range(max_samples, "--max-samples", samples, REVIEW_SAMPLES_MAX)
        if play_samples is not None:
            check_range(play_samples, "--play-samples", 1, REVIEW_SAMPLES_MAX)
        check_seed(seed)
        if threads is not None:
            import numba
            check_range(threads, "--threads", 1, numba.config.NUMBA_NUM_THREADS)
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
            if step:
                raise ValueError("--step reviews Barbu deals; a Clabber round is reviewed without it "
                                 "(--html writes a page that steps through it)")
            _review_clabber(text, name, seats, samples, seed, as_json, symbols, play_samples, html, force,
                            parse_seat(seat[0]) if seat else None)
            return
        _check_not_clabber(text, name)
        if play_samples is not None:
            raise ValueError("--play-samples plays out the bidding of a Clabber round; "
                             "a Barbu deal has no bidding to review")
        deals, left_out = reviewable_deals(text, name, base=read_record_base(file))
        samples, seed = _session_layouts(ctx, text, samples, seed)  # a table session: its hints' layouts
        pages = _html_pages(html, len(deals), force)
        view = parse_seat(seat[0]) if seat else _session_seat(text)
        settings = Settings(samples=samples, max_samples=max_samples)
        # a deal of a table session that can go on is not shown: said on stderr, where --json leaves it out of the data
        left_note = "\n".join(f"Deal {k} of {name} is left out: it is not over ({resume_command(name)} goes on)"
                               for k in left_out)
        if left_note and (step or as_json):
            typer.echo(left_note, err=True)
        if step:
            _review_step(deals, seats, settings, seed, symbols)
            return
        reviews = review_deals(deals, seats, settings, seed, threads)  # decisions valued on every core
    except KeyboardInterrupt:
        interrupted("no review printed" if not step else "the review stopped")
    except (ValueError, PlayedDealError) as e:
        fail(str(e))
    if pages:
        _write_pages(reviews, pages, view, name)
    if as_json:
        typer.echo(json.dumps([review_json(r) for r in reviews], indent=1))  # a list, one entry per deal
        return
    out = "\n\n".join(format_review(r, symbols=symbols) for r in reviews)
    if len(reviews) > 1:
        out += "\n\n" + format_file_accuracy(reviews)
    if len(pages) > 1:
        out += (f"\n\nThe session's index: {pages[-1]} (open it in a browser: it links each deal's page)\n"
                + "\n".join(f"Deal {k}: {p}" for k, p in enumerate(pages[:-1], 1)))
    elif pages:
        out += f"\n\nThe review as a web page: {pages[0]} (open it in a browser)"
    if left_note:
        out += "\n\n" + left_note
    typer.echo(out)


def _session_layouts(ctx: typer.Context, text: str, samples: int, seed: int) -> tuple[int, int]:
    """``--samples`` and ``--seed`` of the review of a table session's file: where not given, the session's
    hints' (its seed, and its --hint-samples unless 0), so that the review of a decision reads what its hint
    read; any other file keeps the defaults."""
    from ..barbu.table.session import session_layouts
    found = session_layouts(text)
    if found is None:
        return samples, seed

    hint_samples, session_seed = found
    return (samples if typed(ctx, "samples") or not hint_samples else hint_samples,
            seed if typed(ctx, "seed") else session_seed)


def _html_pages(html: str | None, n_deals: int, force: bool) -> list[str]:
    """The pages ``review --html PAGE`` writes, checked before any work: PAGE for one deal or round, else
    PAGE-1.html, PAGE-2.html, ... (PAGE without its .html), one per deal or round, then PAGE.html, their index."""
    from pathlib import Path
    if html is None:
        return []
    if n_deals == 1:
        return [check_new_file(html, "--html", force)]
    stem = str(Path(html).with_suffix("")) if html.lower().endswith(".html") else html
    return [check_new_file(f"{stem}-{k}.html", "--html", force) for k in range(1, n_deals + 1)] + [
        check_new_file(f"{stem}.html", "--html", force)]


def _session_seat(text: str) -> int | None:
    """The player's seat of a table session's file (its ``table:`` line's ``seat=``), None for another file."""
    import re

    from ..core.seats import parse_seat
    for raw in text.removeprefix("\ufeff").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        found = re.search(r"(?:^|\s)seat=([NESWnesw])(?:\s|$)", line) if line.lower().startswith("table:") else None
        return parse_seat(found.group(1)) if found else None
    return None


def _write_pages(reviews: list, pages: list[str], view: int | None, name: str) -> None:
    """The review pages: one deal's page, or a page per deal (each linking its neighbours and the index) and
    the index, the last of ``pages``, with each hand's scores as the session counts them (the doubles settled)."""
    from ..barbu.game.rules import no_doubles, settle
    from ..barbu.review.index import session_links, write_session_index
    from ..barbu.review.page import write_review_html
    if len(pages) == 1:
        write_review_html(reviews[0], pages[0], view)
        return
    deal_pages, index = pages[:-1], pages[-1]
    finals = []
    for r in reviews:
        raw = [int(v) for v in r.deal.replay().scores]
        doubles = no_doubles()
        for a, b in r.deal.doubles:
            doubles[a][b] = True
        finals.append([x + int(y) for x, y in zip(raw, settle(raw, doubles, r.deal.rules.lower_is_better))])
    for k, (review_, page) in enumerate(zip(reviews, deal_pages)):
        write_review_html(review_, page, view, session_links(deal_pages, index, k))
    write_session_index(reviews, deal_pages, index, name, finals)


def _review_step(deals, seats, settings, seed: int, symbols: bool) -> None:
    """review --step: the walk through the decisions, reading lines from stdin (a terminal, a pipe or a file)."""
    from ..barbu.review.estimate import estimator_ready
    from ..barbu.review.step import read_line, step_review
    estimator_ready()
    step_review(deals, seats, settings, seed, lambda prompt: read_line(prompt, typer.echo), typer.echo, symbols)


def _is_clabber(text: str) -> bool:
    from ..clabber.formats.round_file import is_clabber
    return is_clabber(text)


def _check_not_clabber(text: str, name: str) -> None:
    """A Clabber round that lost its ``game: clabber`` line is said to be one, not misread as a broken Barbu deal."""
    from ..clabber.formats.round_file import clabber_without_game
    found = clabber_without_game(text)
    if found:
        lines = ", ".join(f"'{key}:'" for key in found)
        raise ValueError(f"{name} looks like a Clabber round ({lines} lines) but has no 'game: clabber' line: add "
                         "'game: clabber' as its first line")


def _review_clabber(text: str, name: str, seats, samples: int, seed: int, as_json: bool, symbols: bool,
                    play_samples: int | None, html: str | None = None, force: bool = False,
                    view: int | None = None) -> None:
    """review for a Clabber round file: each call's options, then mc's value of every legal card; with ``html``
    the page of each round (one round: PAGE; several: PAGE-1.html, PAGE-2.html, ..., each linking its
    neighbours and PAGE.html, their index)."""
    from ..clabber.review.bidding import review_calls
    from ..clabber.review.review import clabber_review_json, format_clabber_review, review_round
    from ..clabber.formats.round_file import parse_rounds
    from ..clabber.players.mc import DEFAULT_SAMPLES
    play_samples = play_samples or DEFAULT_SAMPLES
    rounds = parse_rounds(text, name, ValueError)
    pages = _html_pages(html, len(rounds), force)
    done = [(r, *review_round(r, seats, samples=samples, seed=seed),
             review_calls(r, seats, samples=samples, seed=seed, play_samples=play_samples)) for r in rounds]
    if pages:
        from ..clabber.review.index import write_rounds_index
        from ..clabber.review.page import write_round_html
        from ..core.review_page.index import session_links
        round_pages, index = (pages, None) if len(pages) == 1 else (pages[:-1], pages[-1])
        for k, ((r, d, f, b), page) in enumerate(zip(done, round_pages)):
            links = None if index is None else session_links(round_pages, index, k)
            write_round_html(r, d, f, samples, page, b, view, seed, links)
        if index is not None:
            write_rounds_index(done, round_pages, index, name)
    if as_json:
        typer.echo(json.dumps([clabber_review_json(r, d, f, samples, b) for r, d, f, b in done], indent=1))
        return
    out = "\n\n".join(format_clabber_review(r, d, f, samples, symbols, b) for r, d, f, b in done)
    if len(pages) > 1:
        out += (f"\n\nThe index of the rounds: {pages[-1]} (open it in a browser: it links each round's page)\n"
                + "\n".join(f"Round {k}: {p}" for k, p in enumerate(pages[:-1], 1)))
    elif pages:
        out += f"\n\nThe review as a web page: {pages[0]} (open it in a browser)"
    typer.echo(out)
