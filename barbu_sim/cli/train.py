"""The training commands: ``barbu-sim train ...`` and ``barbu-sim clabber train``.

Each command checks its options and its output file before any work, makes one call into the wing's
``training`` room, and prints what was made; a user mistake ends in a one-line ``Error: ...`` with
exit code 2.  The work is numba's: the modules that hold it are imported inside each command, so
that ``--help`` is quick.
"""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from .app import (
    BackendOpt, ProgressOpt, RayAddressOpt, Typer, app, check_out, check_out_writable, cli_backend, command_errors,
    fail, interrupted,
)
from .clabber import clabber_app

# The library's defaults, repeated here so that --help does not import numba (tests/test_train.py checks them).
DEFAULT_SEED = 2027  # barbu.training.player.DEFAULT_SEED (the first model's)
DEFAULT_DEALS = 90_000  # barbu.training.player.DEFAULT_DEALS
DEFAULT_HIDDEN = "16,trumps=32"  # barbu.training.player.DEFAULT_HIDDEN
DEFAULT_DATA = "runs/learned-data"  # barbu.training.player.DEFAULT_DATA
DEFAULT_OUT = "runs/learned-model.json"  # barbu.training.player.DEFAULT_OUT
MC_SHARE = 0.5  # barbu.training.training_data.MC_SHARE
CHECK_SEED = 9100  # barbu.training.iterate.CHECK_SEED
CHECK_DEALS = 6000  # barbu.training.iterate.DEFAULT_CHECK_DEALS
SHARE = 0.3333  # barbu.training.iterate.DEFAULT_SHARE
ITERATE_WORK = "runs/expert"  # barbu.training.iterate.DEFAULT_WORK
ITERATE_OUT = "results/expert_iteration.json"  # barbu.training.iterate.DEFAULT_OUT
TEMPERATURE_DEALS = 2100  # barbu.training.temperatures.DEFAULT_DEALS
TEMPERATURE_OUT = "results/policy_temperature.json"  # barbu.training.temperatures.DEFAULT_OUT
TABLES = ("learned", "heuristic", "basic")  # barbu.training.temperatures.TABLES
CLABBER_SEED, CLABBER_SAMPLES, CLABBER_CHUNK = 2031, 96, 2000  # clabber.training.player.DEFAULTS
CLABBER_ROUNDS = 200_000  # clabber.training.player.DEFAULT_ROUNDS
CLABBER_DATA = "runs/clabber-learned-data"  # clabber.training.player.DEFAULT_DATA
CLABBER_OUT = "runs/clabber-learned-model.json"  # clabber.training.player.DEFAULT_OUT
MAX_HIDDEN, CLABBER_MAX_HIDDEN = 32, 64  # barbu.players.learned.MAX_HIDDEN, clabber.players.learned.MAX_HIDDEN

train_app = Typer(help="""Train the learned players, and fit what mc reads from them.

    The defaults make the published models and figures again (at full size: minutes to hours on two
    cores); each command's --help gives a small example. A model file written here is never the
    packaged one: install a model by copying its file (docs/training.md).

    Examples:

      barbu-sim train player --deals 40 --samples 4 --data runs/learn-data --out runs/model.json

      barbu-sim train player --fit-only --hidden 0 --data runs/learn-data --out runs/linear.json

      barbu-sim train compare runs/model.json runs/linear.json --deals 300
    """, no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
app.add_typer(train_app, name="train")

TrainForceOpt = Annotated[bool, typer.Option(help="Replace the --out file if it exists (without it, an existing file "
                                                  "is refused before any work).")]
DataOpt = Annotated[str, typer.Option(
    metavar="DIR", help="The data folder: chunks of deals (.npz) and config.json, the settings they were made with. "
                        "Run again, a command goes on from the chunks there; a folder made with other settings is "
                        "refused.")]
FitOnlyOpt = Annotated[bool, typer.Option(help="Make no data: fit on the chunks already in --data (their settings).")]


def _log(progress: bool):
    """What the work says as it goes (each contract's fit, each block of a head to head): on stderr, unless
    --no-progress."""
    return (lambda m: print(m, file=sys.stderr, flush=True)) if progress else None


def _check_data(data: str, fit_only: bool) -> None:
    """--data, checked before any work: a folder (made if need be), writable unless only read (--fit-only)."""
    if fit_only:
        check_out(data, "--data")
    else:
        check_out_writable(data, "--data")


def _kept(data: str) -> str:
    return f"the data chunks made are kept in {data}; run the same command again to go on from them"


def _signed(x: float) -> str:
    return ("+" if x >= 0 else "−") + f"{abs(x):.2f}"


def _made(made, items: str, out: str, key: str, head: str) -> None:
    """What a training made: its data (``items``: what the rows came from), the fit, where the model went, and the
    held-out table by ``key`` (column ``head``)."""
    typer.echo(f"data: {made.rows:,} rows of {items} in {made.data_seconds:.0f} s; fit in {made.fit_seconds:.0f} s; "
               f"model written to {out}")
    _held_out_table(made.report, key, head)


def _held_out_table(report: list[dict], key: str, head: str) -> None:
    """The held-out regret table of a model file, as Markdown."""
    typer.echo(f"| {head} | decisions held out | heuristic's loss | the model's loss | loss removed |")
    typer.echo("|---|---:|---:|---:|---:|")
    for r in report:
        removed = "-" if r["regret_removed"] is None else format(r["regret_removed"], ".0%")
        typer.echo(f"| {r[key]} | {r['test_decisions']:,} | {r['heuristic_regret']:.3f} | {r['model_regret']:.3f} "
                   f"| {removed} |")


def _head_to_head_table(result: dict) -> None:
    """One Markdown row: new minus old per contract and over the seven, with 95% CIs."""
    cells = [f"{_signed(r['difference'])} ({_signed(r['ci_low'])} .. {_signed(r['ci_high'])})"
             for r in result["contracts"]]
    s = result["seven"]
    typer.echo("| " + " | ".join(r["contract"] for r in result["contracts"]) + " | seven together |")
    typer.echo("|" + "---:|" * (len(cells) + 1))
    typer.echo("| " + " | ".join(cells)
               + f" | {_signed(s['difference'])} ({_signed(s['ci_low'])} .. {_signed(s['ci_high'])}) |")


@train_app.command("player")
def train_player(
    deals: Annotated[Optional[int], typer.Option(
        "--deals", "-n", metavar="N", help=f"Training deals (default {DEFAULT_DEALS:,}; a tenth held out). With "
                                           "--fit-only: default, every deal of the data.")] = None,
    samples: Annotated[Optional[int], typer.Option(
        metavar="N", help="mc's layouts of the unseen cards per decision (default 32, or the data's).")] = None,
    seed: Annotated[Optional[int], typer.Option(
        metavar="SEED", help=f"The deals' and the initial weights' seed (default {DEFAULT_SEED}, the first model's, "
                             "or the data's).")] = None,
    chunk: Annotated[Optional[int], typer.Option(
        metavar="N", help="Deals per data chunk (default 500, or the data's).")] = None,
    hidden: Annotated[str, typer.Option(
        metavar="N[,CONTRACT=N]", help=f"Hidden units per contract, 0..{MAX_HIDDEN}: one number, then CONTRACT=N for "
                                       "exceptions.")] = DEFAULT_HIDDEN,
    epochs: Annotated[int, typer.Option(metavar="N", help="Passes over the data.")] = 8,
    data: DataOpt = DEFAULT_DATA,
    out: Annotated[str, typer.Option(
        metavar="FILE.json", help="The model file to write (never the packaged model: install one by copying "
                                  "it).")] = DEFAULT_OUT,
    fit_only: FitOnlyOpt = False,
    teacher_model: Annotated[Optional[str], typer.Option(
        metavar="FILE|learned|learned1|learned@ID",
        help="Expert iteration: the previous model. mc's rollouts are that model's, and seats may play like "
             "it.")] = None,
    mc_share: Annotated[Optional[float], typer.Option(
        metavar="P", help=f"The chance that a seat plays like mc (default {MC_SHARE}, or the data's).")] = None,
    learned_share: Annotated[Optional[float], typer.Option(
        metavar="P", help="The chance that a seat plays like the --teacher-model player (default 0, or the "
                          "data's); heuristic plays the rest.")] = None,
    ablation: Annotated[bool, typer.Option(
        help="Also fit linear models without each group of features: what each group is worth.")] = False,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    force: TrainForceOpt = False,
    progress: ProgressOpt = True,
):
    """Train Barbu's learned player on mc's own estimates, and write its model file.

    Data: deals of the seed played one card at a time; at every decision with more than one card,
    mc values each legal card on --samples layouts, and each card is a row of features and value.
    The chunks are kept in --data, so an interrupted run goes on where it stopped when run again.
    Fit: per contract, a small network on each card's value relative to the other cards of its
    decision; the deals whose index ends in 0 are held out, and the table gives, per contract, the
    points a decision loses on average against mc's best card following the heuristic and following
    the model. The defaults make the first model, learned1 (90,000 deals: about 13 core-minutes of
    data). The model file records the command that makes it again.

    Examples:

      barbu-sim train player --deals 40 --samples 4 --data runs/learn-data --out runs/model.json

      barbu-sim train player --fit-only --hidden 0 --ablation --data runs/learn-data --out runs/linear.json
    """
    from ..barbu.training.player import train_player as train
    with command_errors(_kept(data)):
        _check_data(data, fit_only)
        where = cli_backend(backend, ray_address)
        made = train(out, data=data, deals=deals, samples=samples, seed=seed, chunk=chunk, hidden=hidden,
                     epochs=epochs, fit_only=fit_only, teacher_model=teacher_model, mc_share=mc_share,
                     learned_share=learned_share, with_ablation=ablation, force=force, backend=where,
                     progress=progress, log=_log(progress))
    _made(made, f"{made.deals:,} deals", out, "contract", "contract")
    if made.ablation is not None:
        typer.echo("\nLinear fits without each feature group: held-out regret (points per decision against mc's best)")
        typer.echo("| contracts | features left out | regret | heuristic's regret |\n|---|---|---:|---:|")
        for r in made.ablation:
            typer.echo(f"| {r['contracts']} | {r['without']} | {r['regret']:.4f} | {r['heuristic_regret']:.4f} |")


@train_app.command("iterate")
def train_iterate(
    rounds: Annotated[int, typer.Option(
        metavar="N", help="The most rounds; a round that does not gain ends the chain.")] = 1,
    seed: Annotated[int, typer.Option(
        metavar="SEED", help="Round k's data is made from SEED + k (the first model's seed).")] = DEFAULT_SEED,
    deals: Annotated[int, typer.Option("--deals", "-n", metavar="N", help="Training deals per round.")]
    = DEFAULT_DEALS,
    samples: Annotated[int, typer.Option(metavar="N", help="mc's layouts per decision.")] = 32,
    mc_share: Annotated[float, typer.Option(metavar="P", help="The chance a seat plays like mc.")] = SHARE,
    learned_share: Annotated[float, typer.Option(
        metavar="P", help="The chance a seat plays like the previous model (heuristic plays the rest).")] = SHARE,
    hidden: Annotated[Optional[list[str]], typer.Option(
        metavar="N[,CONTRACT=N]", help=f"Hidden units per contract, as train player takes them (default "
                                       f"{DEFAULT_HIDDEN}). Give it once per round: round k takes the k-th, later "
                                       "rounds the last.")] = None,
    check_deals: Annotated[int, typer.Option(
        metavar="N", help=f"Head-to-head deals per round, of seed {CHECK_SEED} + k.")] = CHECK_DEALS,
    first_model: Annotated[Optional[str], typer.Option(
        metavar="FILE|NAME", help="Round 0's model: a model file, or a packaged model by its name, learned or "
                                  "learned1 (default learned1).")] = None,
    work: Annotated[str, typer.Option(
        metavar="DIR", help="Where each round's data and model go (round-K/data, round-K/model.json). Run again, a "
                            "round goes on from the chunks there.")] = ITERATE_WORK,
    out: Annotated[str, typer.Option(
        metavar="FILE.json", help="The chain's figures, written after each round.")] = ITERATE_OUT,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    force: TrainForceOpt = False,
    progress: ProgressOpt = True,
):
    """Expert iteration: train the next learned model on the estimates of an mc that plays with the last one.

    Round k makes data of seed SEED + k, each card valued by mc:rollout=learned on round k-1's
    model and each seat playing, by a draw, like that model (its own positions), like mc or like
    heuristic; fits a model on it (train player); then plays it at one seat among three of the
    previous model against the previous model in that seat, on the same deals (every seat and
    declarer: 16 plays a deal), per contract and over the seven together with 95% CIs. The next
    round starts only when the seven together's CI is above 0. The chain is reproducible from its
    seed, model for model. The packaged model is round 2 of:
    barbu-sim train iterate --rounds 2 --hidden 16,trumps=32 --hidden 32 (about 40 minutes a round
    on two cores).

    Examples:

      barbu-sim train iterate --deals 20 --samples 2 --check-deals 50 --work runs/chain --out runs/chain.json
    """
    from ..barbu.training.iterate import expert_iteration

    def said(r: dict) -> None:
        s = r["head_to_head"]["seven"]
        typer.echo(f"round {r['round']}: {r['model']} against the previous model, seven contracts: "
                   f"{s['difference']:+.2f} ({s['ci_low']:+.2f} .. {s['ci_high']:+.2f}) points a deal")
        _held_out_table(r["held_out"], "contract", "contract")
        _head_to_head_table(r["head_to_head"])
        if s["ci_low"] <= 0:
            typer.echo(f"round {r['round']} does not gain by its CI: the chain ends")
    try:
        where = cli_backend(backend, ray_address)
        expert_iteration(out, work=work, rounds=rounds, seed=seed, deals=deals, samples=samples, mc_share=mc_share,
                         learned_share=learned_share, hidden=hidden, check_deals=check_deals,
                         first_model=first_model, force=force, backend=where, progress=progress, log=_log(progress),
                         on_round=said)
    except KeyboardInterrupt:
        interrupted(f"each round's data chunks are kept under {work}, the rounds done in {out}; run the same command "
                    "again with --force to go on from them")
    except ValueError as e:
        fail(str(e))
    typer.echo(f"Wrote {out}")


@train_app.command("compare")
def train_compare(
    new: Annotated[str, typer.Argument(metavar="NEW.json", help="The model file that sits at one seat.")],
    old: Annotated[str, typer.Argument(
        metavar="OLD.json", help="The model file of the other three seats, and of the seat NEW is compared with.")],
    deals: Annotated[int, typer.Option("--deals", "-n", metavar="N", help="Deals.")] = CHECK_DEALS,
    seed: Annotated[int, typer.Option(
        metavar="SEED", help=f"The deals' seed (expert iteration's round k uses {CHECK_SEED} + k).")] = CHECK_SEED,
    out: Annotated[Optional[str], typer.Option(
        metavar="FILE.json", help="Also write the figures, both models' ids and their held-out reports there.")]
    = None,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    force: TrainForceOpt = False,
):
    """Two learned-player model files head to head: is NEW better than OLD?

    NEW sits at one seat among three of OLD and is compared with OLD in that seat on the same
    deals (every seat and declarer in turn: 16 plays a deal), per contract and over the seven
    together, with 95% CIs over deals: expert iteration's round check, for any two files. The CIs
    count the deals, not the fits: two fits of one network on the same data differ by about 0.05
    points a contract. (Installed models are compared with barbu-sim compare learned learned1.)

    Examples:

      barbu-sim train player -n 20 --samples 2 --data d --out a.json

      barbu-sim train player --fit-only --hidden 0 --data d --out b.json

      barbu-sim train compare a.json b.json --deals 300 --out runs/h2h.json
    """
    from ..barbu.training.iterate import compare_models
    try:
        where = cli_backend(backend, ray_address)
        figures = compare_models(new, old, deals=deals, seed=seed, out=out, force=force, backend=where)
    except KeyboardInterrupt:
        interrupted("nothing was written")
    except ValueError as e:
        fail(str(e))
    _head_to_head_table(figures["head_to_head"])


@train_app.command("temperatures")
def train_temperatures(
    deals: Annotated[int, typer.Option(
        "--deals", "-n", metavar="N", help="Deals per table type, over the seven contracts (at least 14).")]
    = TEMPERATURE_DEALS,
    table: Annotated[Optional[list[str]], typer.Option(
        metavar="TABLE", help=f"A table type: {', '.join(TABLES)} (repeatable; default all three).")] = None,
    out: Annotated[str, typer.Option(metavar="FILE.json", help="The fitted table.")] = TEMPERATURE_OUT,
    force: TrainForceOpt = False,
    progress: ProgressOpt = True,
):
    """Fit the temperatures of mc's policy inference (mc:infer=policy) by maximum likelihood.

    The policy model says a seat plays card c of its legal cards with probability (1 - eps) *
    softmax(v / T)[c] + eps / (legal cards), v the learned player's card scores from that seat's
    view. For each table type (four learned, heuristic or basic players) and contract, the deals of
    seed 9091 are played through; T and eps are fitted on the even deals (a grid: the likeliest
    pair), and the log-likelihood per play is given on the odd deals, beside a uniform choice's.
    The fitted pairs are the table POLICY_TEMPERATURE / POLICY_EPSILON in
    barbu_sim/barbu/players/mc/params.py (a test checks that they agree with the published file).

    Examples:

      barbu-sim train temperatures --deals 70 --table heuristic --out runs/temperatures.json
    """
    from ..barbu.training.temperatures import fit_temperatures

    def said(name: str, rows: list[dict]) -> None:
        for r in rows:
            typer.echo(f"{name:<10} {r['contract']:<12} T {r['temperature']:8.4f}  eps {r['epsilon']:5.3f}  held-out "
                       f"log-lik/play {r['held_out_log_likelihood']:+.4f} (uniform {r['uniform_log_likelihood']:+.4f}; "
                       f"learned's top card played {r['held_out_top_card_share']:.2%}; {r['held_out_plays']} plays)")
    try:
        fit_temperatures(out, deals=deals, tables=table, force=force, progress=progress, on_table=said)
    except KeyboardInterrupt:
        interrupted("nothing was written")
    except ValueError as e:
        fail(str(e))
    typer.echo(f"Wrote {out}")


@clabber_app.command("train")
def clabber_train(
    rounds: Annotated[Optional[int], typer.Option(
        "--rounds", "-n", metavar="N", help=f"Training rounds (default {CLABBER_ROUNDS:,}; a tenth held out). With "
                                            "--fit-only: default, every round of the data.")] = None,
    samples: Annotated[Optional[int], typer.Option(
        metavar="N", help=f"mc's layouts per decision (default {CLABBER_SAMPLES}, or the data's).")] = None,
    seed: Annotated[Optional[int], typer.Option(
        metavar="SEED", help=f"The rounds' and the initial weights' seed (default {CLABBER_SEED}, or the "
                             "data's).")] = None,
    chunk: Annotated[Optional[int], typer.Option(
        metavar="N", help=f"Rounds per data chunk (default {CLABBER_CHUNK:,}, or the data's).")] = None,
    hidden: Annotated[int, typer.Option(metavar="N", help=f"Hidden units, 0..{CLABBER_MAX_HIDDEN}.")] = 64,
    epochs: Annotated[int, typer.Option(metavar="N", help="Passes over the data.")] = 10,
    data: DataOpt = CLABBER_DATA,
    out: Annotated[str, typer.Option(
        metavar="FILE.json", help="The model file to write (never the packaged model: install one by copying "
                                  "it).")] = CLABBER_OUT,
    fit_only: FitOnlyOpt = False,
    backend: BackendOpt = "local",
    ray_address: RayAddressOpt = None,
    force: TrainForceOpt = False,
    progress: ProgressOpt = True,
):
    """Train Clabber's learned player on mc's own estimates, and write its model file.

    Data: rounds of the seed (the dealer's left makes with the turned suit) played one card at a
    time; at every decision with more than one card, mc values each legal card on --samples layouts,
    and each card is a row of features and value. The chunks are kept in --data, so an interrupted
    run goes on where it stopped when run again. Fit: a small network on each card's value relative
    to the other cards of its decision; the rounds whose index ends in 0 are held out, and the table
    gives, for makers and defenders, the points a decision loses on average against mc's best card
    following the heuristic and following the model. The defaults make the packaged model (200,000
    rounds: 15 to 20 minutes on two cores, about 9 with --backend ray).

    Examples:

      barbu-sim clabber train --rounds 40 --samples 4 --data runs/cl-data --out runs/cl-model.json

      barbu-sim clabber train --fit-only --hidden 8 --data runs/cl-data --out runs/cl-model8.json
    """
    from ..clabber.training.player import train_player as train
    with command_errors(_kept(data)):
        _check_data(data, fit_only)
        where = cli_backend(backend, ray_address)
        made = train(out, data=data, rounds=rounds, samples=samples, seed=seed, chunk=chunk, hidden=hidden,
                     epochs=epochs, fit_only=fit_only, force=force, backend=where, progress=progress,
                     log=_log(progress))
    _made(made, f"{made.rounds:,} rounds", out, "role", "seat's team")
