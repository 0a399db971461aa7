"""The commands for players: review a played deal, sit at the table against the bots, keep a real table's score.

Each command parses its options, makes one call into the library, and prints;
a user mistake ends in a one-line ``Error: ...`` with exit code 2.
"""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from .app import app, check_range, check_seed, fail, interrupted

REVIEW_SAMPLES_MAX = 100_000


@app.command()
def review(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A played-deal file: written by play --record or table, or typed (docs/review-and-table.md).")],
    seat: Annotated[Optional[list[str]], typer.Option(metavar="SEAT", help="Review only this seat's decisions: N, E, S or W (repeatable; default all four).")] = None,
    samples: Annotated[int, typer.Option(metavar="N", help=f"Layouts of the unseen cards per decision (2..{REVIEW_SAMPLES_MAX:,}); more is sharper and slower.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the layouts: the same file, seats, samples and seed give the same numbers.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON, for tools.")] = False,
    symbols: Annotated[bool, typer.Option(help="Print suits as ♠♥♦♣.")] = False,
):
    """Annotate a played deal card by card: what each legal card was worth, and where points were lost.

    At every decision of a reviewed seat (a play with more than one legal card that
    are not equivalent), the mc player estimates every legal card's score from there
    to the end of the hand, from that seat's information only (its hand and what the
    table showed), with standard errors. A loss (best minus played) counts when it
    exceeds two standard errors, and is labelled inaccuracy (1+ points), mistake (3+)
    or blunder (8+). A file with several deals (a table session) is reviewed deal by deal.

    Examples:

      barbu-sim review deal.txt

      barbu-sim review deal.txt --seat E --samples 400

      barbu-sim review deal.txt --json
    """
    from ..barbu.playlog import read_playlog
    from ..barbu.review import review_deal, review_json
    from ..barbu.review_text import format_review
    from ..core.seats import parse_seat
    try:
        check_range(samples, "--samples", 2, REVIEW_SAMPLES_MAX)
        check_seed(seed)
        seats = sorted({parse_seat(s) for s in seat}) if seat else None
        deals = read_playlog(file)
        reviews = [review_deal(d, seats, samples=samples, seed=seed) for d in deals]
    except KeyboardInterrupt:
        interrupted("no review printed")
    except ValueError as e:
        fail(str(e))
    if as_json:
        data = [review_json(r) for r in reviews]
        typer.echo(json.dumps(data[0] if len(data) == 1 else data, indent=1))
        return
    typer.echo("\n\n".join(format_review(r, symbols=symbols) for r in reviews))
