"""The typer app and what every command shares: one-line errors, rule options, per-seat specs."""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Annotated, Optional

import typer
from typer.core import TyperCommand, TyperGroup

from .. import __version__

# The built-in choices the help screens list.  The registries themselves (barbu_sim.barbu.players.registry,
# barbu_sim.barbu.players.mc.player, barbu_sim.clabber.players.registry, barbu_sim.clabber.players.bidding) import numba, which
# `--help` and `report` should not wait for: tests/test_cli_help.py checks these against them.
BARBU_STRATEGIES = ("random", "basic", "heuristic", "lowest", "learned", "learned1")  # barbu.strategies.BUILTINS
MC_ROLLOUTS = ("heuristic", "basic", "random", "learned")  # barbu.mc.ROLLOUTS
BARBU_STRATEGY_CHOICES = (", ".join(BARBU_STRATEGIES) + f", mc[:samples=N,rollout={'|'.join(MC_ROLLOUTS)},"
                          "endgame=N,tail=N,halving=on|off,infer=1..100|policy[:TABLE],early=Z|off], mc1, pimc[:samples=N,rollout=...]")
CLABBER_STRATEGIES = ("random", "heuristic")  # clabber.strategies.BUILTINS
CLABBER_BIDDING = ("accept-first", "random", "threshold[:X]", "mc[:SAMPLES]")  # clabber.bidding.POLICIES
PLUGIN_SPECS = "path/to/file.py:func or module:func"


def _value_names(params) -> None:
    """Name each option's value in help (``--seed SEED``) instead of typer's raw ``<int>`` / ``<bool>``.

    A flag names no value; an option without an explicit ``metavar=`` is named after itself.
    """
    for param in params:
        if param.metavar is None:
            param.metavar = "" if getattr(param, "is_flag", False) else (param.name or "value").upper()
        if param.param_type_name == "argument" and hasattr(param, "display_type_rich"):
            param.__class__ = _argument_class(type(param))


_ARGUMENT_CLASSES: dict[type, type] = {}


def _argument_class(base: type) -> type:
    """``base`` (typer's argument class) without the ``<str>`` type column: the metavar names the value."""
    if base not in _ARGUMENT_CLASSES:
        _ARGUMENT_CLASSES[base] = type(base.__name__, (base,), {"display_type_rich": lambda self, ctx: None})
    return _ARGUMENT_CLASSES[base]


def _plain_usage(pieces: list[str]) -> list[str]:
    """``RUN_DIR`` rather than typer's ``{RUN_DIR}`` for a required argument in the usage line."""
    return [re.sub(r"^\{(.+)\}(\.\.\.)?$", r"\1\2", piece) for piece in pieces]


class _NamedValues:
    """Help that names every value (``N``, ``DIR``, ``SEAT=NAME``) and shows no raw type: mixed into
    the command and group classes below."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _value_names(self.params)

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None and option.metavar is None:
            option.metavar = ""
        return option


class Command(_NamedValues, TyperCommand):
    """A command whose help names every value and shows no raw type."""

    def collect_usage_pieces(self, ctx):
        return _plain_usage(super().collect_usage_pieces(ctx))

    def invoke(self, ctx):
        """Run the command; a file that cannot be written (a full disk, a read-only folder) is a
        one-line error naming the file, with exit code 1 (the environment failed, not the user)."""
        from ..core.files import OutputError, describe_os_error
        try:
            return super().invoke(ctx)
        except OutputError as e:
            fail(str(e), code=1)
        except OSError as e:
            fail(describe_os_error(e), code=1)


class Group(_NamedValues, TyperGroup):
    """A command group with the same help conventions as :class:`Command`."""


class Typer(typer.Typer):
    """typer's app whose commands are :class:`Command` and whose groups are :class:`Group`."""

    def __init__(self, **kwargs):
        kwargs.setdefault("cls", Group)
        super().__init__(**kwargs)

    def command(self, *args, **kwargs):
        kwargs["cls"] = kwargs.get("cls") or Command
        return super().command(*args, **kwargs)


app = Typer(
    help="""barbu-sim: simulate the card game Barbu (and Clabber) and measure what its contracts are worth.

    Each command has its own --help, with examples.

    Examples:

      barbu-sim run -n 20000 --out runs/quick && barbu-sim report runs/quick

      barbu-sim play --contract barbu --seed 7

      barbu-sim clabber play --seed 7
    """,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def fail(message: str, code: int = 2) -> None:
    """Print a one-line error and exit with ``code``: 2 for a usage error, 1 for an environment failure
    (never a traceback)."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(code)


def version_callback(value: bool):
    if value:
        typer.echo(f"barbu-sim {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[bool, typer.Option("--version", callback=version_callback, is_eager=True,
                                                    help="Print the version and exit.")] = False,
):
    """Simulate Barbu deals (and Clabber rounds) under pluggable strategies and analyse the scores."""


RULES_PRESETS = ("default", "strict-barbu", "overtrump", "free-discard", "every-dealer", "high-hearts-4", "last-two-12",
                 "high-hearts-4-last-two-12", "domino-45-20-10-minus-10", "positive-penalties", "open-leads",
                 "domino-ace-low", "domino-from-7")  # barbu.rules.PRESETS
RulesOpt = Annotated[Optional[str], typer.Option(
    "--rules", metavar="PRESET|FILE",
    help=f"Rules preset ({', '.join(RULES_PRESETS)}) or a .toml file.")]
OptionOpt = Annotated[Optional[list[str]], typer.Option(
    "--option", "-o", metavar="NAME=VALUE",
    help="Override one rule option, NAME=VALUE (e.g. trumps-overtrump=on; barbu-sim rules lists them). Repeatable.")]


def load_cli_rules(rules: str | None, option: list[str] | None):
    """The Barbu rules of ``--rules`` and ``--option``."""
    from ..barbu.rules.config import load_rules, parse_option_pairs
    return load_rules(rules, parse_option_pairs(option or []))


def per_seat(default: str, overrides: list[str] | None, what: str) -> list[str]:
    """Four specs by seat: ``default`` everywhere, then ``SEAT=SPEC`` overrides."""
    from ..core.seats import N_SEATS, parse_seat
    specs = [default] * N_SEATS
    seen = set()
    for item in overrides or []:
        if "=" not in item:
            raise ValueError(f"{what} {item!r} must be SEAT=NAME, e.g. N=optimal")
        seat, name = item.split("=", 1)
        s = parse_seat(seat)
        if s in seen:
            raise ValueError(f"{what} names seat {seat.strip()} twice")
        seen.add(s)
        specs[s] = name.strip()
    return specs


BackendOpt = Annotated[str, typer.Option(
    "--backend", metavar="local|ray", help="Where the work is played: local (this process) or ray (Ray tasks, on this machine or a "
                      "cluster; needs the package's ray extra). Results are identical.")]
RayAddressOpt = Annotated[Optional[str], typer.Option(
    "--ray-address", metavar="auto|HOST:PORT", help="With --backend ray: auto (the cluster of `ray start` on this machine) or HOST:PORT "
                          "(default: start a local Ray instance).")]


def cli_backend(backend: str, ray_address: str | None, threads: int | None = None):
    """The backend of ``--backend`` / ``--ray-address`` (``--threads``: numba threads per Ray task)."""
    from ..core.backends import make_backend
    return make_backend(backend, ray_address, threads=threads)


MAX_SEED = 2**64 - 1
MAX_SAMPLES = 1_000_000  # Monte Carlo deals per hand evaluation


def check_seed(seed: int, flag: str = "--seed") -> int:
    """A seed is an integer 0..2^64-1 (the generators' key)."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"{flag} must be a non-negative integer below 2^64, not {seed}")
    return seed


def check_range(value: int, flag: str, low: int, high: int) -> int:
    """``value`` if ``low <= value <= high``, else a one-line error naming ``flag``."""
    if not low <= value <= high:
        raise ValueError(f"{flag} must be at least {low:,} and at most {high:,}, not {value:,}")
    return value


def check_out(out: str | None, flag: str = "--out") -> str | None:
    """An output directory given on the command line: not empty, not an existing file."""
    from pathlib import Path
    if out is None:
        return None
    if not out.strip():
        raise ValueError(f"{flag} is empty: name a directory")
    if Path(out).exists() and not Path(out).is_dir():
        raise ValueError(f"{flag} {out} is a file, not a directory")
    return out


def check_out_writable(out: str | None, flag: str = "--out") -> str | None:
    """:func:`check_out`, and files can be written there: checked before the work starts, so that a
    read-only folder is said at once rather than after the work (an environment failure: exit 1)."""
    from ..core.files import ensure_writable
    if check_out(out, flag) is not None:
        ensure_writable(out, f"the {flag} folder")
    return out


def check_new_file(path: str | None, flag: str, force: bool, kept: str = "") -> str | None:
    """A file a command is to write (``play --record``, ``table --save``), checked before any work:
    named, not a folder, not an existing file unless ``--force`` (``kept``: what the file may hold,
    for the message), in a folder where files can be written (else an environment error, exit 1)."""
    from pathlib import Path

    from ..core.files import ensure_writable
    if path is None:
        return None
    if not path.strip():
        raise ValueError(f"{flag} is empty: name a file")
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"{flag} {path} is a folder: name a file")
    if target.exists() and not force:
        raise ValueError(f"{flag} {path} exists{kept}: give --force to replace it, or name another file")
    ensure_writable(target.parent, f"the folder of {flag} {path}")
    return path


def interrupted(message: str) -> None:
    """Ctrl-C: say what is kept and how to go on, then exit 130 (at once if a kernel is still running)."""
    from ..core.interrupt import exit_now, kernel_still_running
    typer.echo(f"\nInterrupted: {message}", err=True)
    if kernel_still_running():  # a kernel cannot be stopped or joined: end the process now
        exit_now(130)
    raise typer.Exit(130)


# What the commands that play one deal or round share.
SymbolsOpt = Annotated[bool, typer.Option(help="Print suits as ♠♥♦♣.")]
RecordForceOpt = Annotated[bool, typer.Option(help="Replace the --record file if it exists.")]

# What `run` and `clabber run` share: options, and helpers whose ``game`` is the command's prefix,
# "barbu-sim" or "barbu-sim clabber".
ThreadsOpt = Annotated[Optional[int], typer.Option(
    metavar="N", help="Worker threads (default: all cores). Results do not depend on it.")]
RunOutOpt = Annotated[str, typer.Option(
    "--out", metavar="DIR", help="Run directory to write (records/*.parquet + manifest.json).")]
ResumeOpt = Annotated[bool, typer.Option(
    help="Finish the interrupted run in --out with its own settings (other flags must agree with them).")]
ProgressOpt = Annotated[bool, typer.Option(help="Show a progress bar.")]


def check_run_flags(out: str, seed: int | None, resume: bool, force: bool) -> None:
    """A run command's first checks: not both --resume and --force, a usable --out, a valid --seed."""
    if resume and force:
        raise ValueError("--resume finishes the run in --out and --force replaces it: give one of them, not both")
    check_out(out)
    if seed is not None:
        check_seed(seed)


@contextmanager
def run_errors(game: str, out: str):
    """A run command's failures: Ctrl-C and a full disk keep the completed chunks and say how to finish the
    run (a full disk is an environment failure: exit 1); a user mistake is a one-line error."""
    from pathlib import Path

    from ..core.files import OutputError
    finish = f"{game} run --resume --out {out}"
    try:
        yield
    except KeyboardInterrupt:
        interrupted(f"the completed chunks are saved; finish with: {finish}")
    except OutputError as e:  # a full disk: the run stays consistent, and resumable
        again = f"finish the run with: {finish}" if (Path(out) / "manifest.json").exists() else "run the command again"
        fail(f"{e}; once that is fixed, {again}", code=1)
    except ValueError as e:
        fail(str(e))


def echo_run_done(game: str, summary, unit: str, where, resume: bool) -> None:
    """What a run command prints at the end: what was played (or that a resumed run was already
    complete), where, and the commands that read the run."""
    next_steps = f"Next: {game} report {summary.run_dir}   and   {game} plot {summary.run_dir}"
    if resume and summary.played == 0:
        typer.echo(f"{summary.run_dir} is already complete ({summary.done:,} {unit}); nothing to do. {next_steps}")
        return
    typer.echo(f"{summary.done:,} {unit} in {summary.wall_seconds:.1f} s "
               f"({summary.per_second:,.0f} {unit}/s) -> {summary.run_dir}")
    if where.name != "local":
        typer.echo(f"Played on {where.describe()}")
    typer.echo(next_steps)


def echo_report(summary: str, paths: list, note: str | None, *paragraphs: str) -> None:
    """What a report command prints: the note of a run not yet complete, each paragraph, the headline
    tables, the files written, and the note again (last, where it is seen)."""
    for line in ([note] if note else []) + list(paragraphs):
        typer.echo(line + "\n")
    typer.echo(summary)
    typer.echo(f"\nWrote {len(paths)} files to {paths[-1].parent}")
    if note:
        typer.echo(note)
