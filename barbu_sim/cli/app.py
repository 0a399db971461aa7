"""The typer app and what every command shares: one-line errors, rule options, per-seat specs."""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Annotated, Optional

import typer
from typer.core import TyperCommand, TyperGroup

from .. import __version__

# The built-in choices the help screens list.  The registries themselves (barbu_sim.barbu.players.registry,
# barbu_sim.barbu.players.mc.params, barbu_sim.clabber.players.registry, barbu_sim.clabber.players.bidding) import
# numba, which `--help` and `report` should not wait for: tests/test_cli_help.py checks these against them.
BARBU_STRATEGIES = ("random", "basic", "heuristic", "lowest", "learned", "learned1")  # barbu.players.registry.BUILTINS
MC_ROLLOUTS = ("heuristic", "basic", "random", "learned")  # barbu.players.mc.params.ROLLOUTS
# Written with spaces between the settings, so that a help screen can wrap the list (unbroken, it was cut at 80
# columns).
BARBU_STRATEGY_CHOICES = (
    ", ".join(BARBU_STRATEGIES) + ", mc1, mc[:SETTINGS], pimc[:SETTINGS] (SETTINGS comma-separated: "
    f"samples=N, rollout=R with R {', '.join(MC_ROLLOUTS[:-1])} or {MC_ROLLOUTS[-1]}, endgame=N, "
    "tail=N, halving=on|off, infer=1..100|policy[:TABLE], early=Z|off; pimc takes samples and rollout)")
CLABBER_STRATEGIES = ("random", "heuristic")  # clabber.players.registry.BUILTINS
CLABBER_BIDDING = ("accept-first", "random", "threshold[:X]", "mc[:SAMPLES]")  # clabber.players.bidding.POLICIES
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


def _options_panel(*, name: str, params, ctx, markup_mode, console) -> None:
    """typer's panel of options (or arguments) in three columns, names, value and help, instead of its six.

    typer gives the long names, the short ones, the ``--no-`` names and the value each a column of their
    own; at 80 columns they leave the help a strip so narrow that a preset name or a strategy spec is cut
    with ``…``.  Here one column holds every name of an option (``--games, -n``; ``--force / --no-force``).
    """
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text
    from typer import rich_utils as ru
    from typer.core import TyperArgument
    if not params:
        return
    rows, required = [], []
    for param in params:
        if isinstance(param, TyperArgument):
            names = param.metavar or (param.name or "").upper()
        else:
            names = ", ".join([o for o in param.opts if o.startswith("--")]
                              + [o for o in param.opts if not o.startswith("--")])
            if param.secondary_opts:
                names += " / " + ", ".join(param.secondary_opts)
        value = Text(param.display_type_rich(ctx=ctx) or "", style=ru.STYLE_TYPES, overflow="fold")
        required.append(Text(ru.REQUIRED_SHORT_STRING, style=ru.STYLE_REQUIRED_SHORT) if param.required else "")
        rows.append([ru.highlighter(names), ru.types_highlighter(value),
                     ru._get_parameter_help(param=param, ctx=ctx, markup_mode=markup_mode)])
    if any(required):
        rows = [[mark, *row] for mark, row in zip(required, rows)]
    table = Table(highlight=True, show_header=False, expand=True, box=None,
                  show_lines=ru.STYLE_OPTIONS_TABLE_SHOW_LINES,
                  leading=ru.STYLE_OPTIONS_TABLE_LEADING, border_style=ru.STYLE_OPTIONS_TABLE_BORDER_STYLE,
                  row_styles=ru.STYLE_OPTIONS_TABLE_ROW_STYLES, pad_edge=ru.STYLE_OPTIONS_TABLE_PAD_EDGE,
                  padding=ru.STYLE_OPTIONS_TABLE_PADDING)
    for row in rows:
        table.add_row(*row)
    console.print(Panel(table, border_style=ru.STYLE_OPTIONS_PANEL_BORDER, title=name,
                        title_align=ru.ALIGN_OPTIONS_PANEL))


@contextmanager
def _three_column_options():
    """typer's help screen with :func:`_options_panel` for its panels of options and arguments (a typer
    without that private function keeps its own)."""
    from typer import rich_utils
    own = getattr(rich_utils, "_print_options_panel", None)
    if own is None:
        yield
        return
    rich_utils._print_options_panel = _options_panel
    try:
        yield
    finally:
        rich_utils._print_options_panel = own


def _reflowed(help_text: str | None) -> str | None:
    """A help text whose prose paragraphs are each one line, for the help screen to wrap at the terminal's width.

    typer keeps the line breaks of a docstring: a line longer than the terminal wraps there, then
    breaks again where the docstring did, leaving one-word lines.  An indented paragraph (an example
    command) and a ``\\b`` paragraph are kept as written.
    """
    import inspect
    if not help_text:
        return help_text
    paragraphs = []
    for para in inspect.cleandoc(help_text).split("\n\n"):
        lines = para.split("\n")
        verbatim = para.startswith("\b") or all(line.startswith((" ", "\t")) for line in lines if line.strip())
        paragraphs.append(para if verbatim else " ".join(line.strip() for line in lines if line.strip()))
    return "\n\n".join(paragraphs)


class _NamedValues:
    """Help that names every value (``N``, ``DIR``, ``SEAT=NAME``) and shows no raw type, its prose
    wrapped at the terminal's width: mixed into the command and group classes below."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _value_names(self.params)
        self.help = _reflowed(self.help)

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None and option.metavar is None:
            option.metavar = ""
        return option

    def format_help(self, ctx, formatter):
        with _three_column_options():
            return super().format_help(ctx, formatter)


class Command(_NamedValues, TyperCommand):
    """A command whose help names every value and shows no raw type."""

    def collect_usage_pieces(self, ctx):
        return _plain_usage(super().collect_usage_pieces(ctx))

    def parse_args(self, ctx, args):
        """Parse the command line; an option that takes one value, given twice, is a one-line error (click
        would keep the last silently: ``--rules default --rules strict-barbu`` played strict-barbu)."""
        single = {name: param for param in self.params if param.param_type_name == "option"
                  and not param.multiple and not getattr(param, "is_flag", False) and not param.count
                  for name in param.opts}
        seen: dict = {}
        for i, arg in enumerate(args):
            if arg == "--":
                break
            name = arg.split("=", 1)[0] if arg.startswith("--") else arg[:2] if arg.startswith("-") else None
            param = single.get(name)
            if param is None:
                continue
            value = arg[len(name):].removeprefix("=") or (args[i + 1] if i + 1 < len(args) else "")
            if param in seen:
                fail(f"{max(param.opts, key=len)} is given twice ({seen[param]} and {value}): give it once")
            seen[param] = value
        return super().parse_args(ctx, args)

    def invoke(self, ctx):
        """Run the command; a file that cannot be written (a full disk, a read-only folder) is a
        one-line error naming the file, with exit code 1 (the environment failed, not the user).
        Ctrl-C while an engine compiled, in a command that does not say more itself, is one line too."""
        from ..core.files import OutputError, describe_os_error
        from ..core.interrupt import CompileInterrupted
        try:
            return super().invoke(ctx)
        except CompileInterrupted:
            interrupted("")
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


def _error_width() -> int | None:
    """The width to wrap an error at: the terminal's, when the error goes to one; None (one line) for a
    pipe or a log, where a line per error is what grep and the tests read."""
    import shutil

    import click
    if not click.get_text_stream("stderr").isatty():
        return None
    return shutil.get_terminal_size().columns


def fail(message: str, code: int = 2) -> None:
    """Print a one-line error and exit with ``code``: 2 for a usage error, 1 for an environment failure
    (never a traceback).  On a terminal a long error is wrapped at word boundaries to its width (the
    terminal itself would cut words in two), the lines after the first indented."""
    from textwrap import fill
    text = f"Error: {message}"
    width = _error_width()
    if width and len(text) > width:
        text = fill(text, max(width, 40), subsequent_indent="  ", break_long_words=False, break_on_hyphens=False)
    typer.echo(text, err=True)
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
    from ..core.interrupt import stop_at_once_while_compiling
    stop_at_once_while_compiling()  # Ctrl-C ends a command at once even while numba compiles


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
    "--backend", metavar="local|ray",
    help="Where the work is played: local (this process) or ray (Ray tasks, on this machine or a "
         "cluster; needs the package's ray extra). Results are identical.")]
RayAddressOpt = Annotated[Optional[str], typer.Option(
    "--ray-address", metavar="auto|HOST:PORT",
    help="With --backend ray: auto (the cluster of `ray start` on this machine) or HOST:PORT "
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


def typed(ctx: typer.Context, name: str) -> bool:
    """Whether the option ``name`` was given (on the command line or from the environment), not defaulted."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name != "DEFAULT"


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
    if target.is_symlink() and not target.exists() and not force:  # a link that points nowhere: still a file there
        raise ValueError(f"{flag} {path} exists (a link): give --force to replace it, or name another file")
    if target.exists() and not force:
        raise ValueError(f"{flag} {path} exists{kept}: give --force to replace it, or name another file")
    if target.parent.exists() and not target.parent.is_dir():
        raise ValueError(f"{flag} {path}: {target.parent} is a file, not a folder: name another file")
    if not target.parent.is_dir():  # found before the work, not when the file is written after it
        raise ValueError(f"{flag} {path}: the folder {target.parent} does not exist: make it, or name another file")
    ensure_writable(target.parent, f"the folder of {flag} {path}")
    return path


def interrupted(message: str) -> None:
    """Ctrl-C: say what is kept and how to go on, then exit 130 (at once if a kernel is still running).

    Called in an ``except KeyboardInterrupt`` block: when the interrupt came while an engine compiled
    for first use (:class:`~barbu_sim.core.interrupt.CompileInterrupted`), the line says so before
    ``message`` (what the command keeps: a table's saved session, a run's chunks)."""
    import sys

    from ..core.interrupt import NOTHING_DONE, CompileInterrupted, exit_now, kernel_still_running
    stop = sys.exc_info()[1]
    if isinstance(stop, CompileInterrupted):
        typer.echo(f"\nInterrupted while compiling {stop.what} for first use: {message or NOTHING_DONE}", err=True)
    else:
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


RUN_FOLDER = "the run directory, --out"  # what check_run_flags names when --out cannot be written


def check_run_flags(out: str, seed: int | None, resume: bool, force: bool) -> None:
    """A run command's first checks: not both --resume and --force, a usable --out, a valid --seed, and
    that files can be written in --out (before an old run is cleared or a chunk played)."""
    from ..core.files import ensure_writable
    if resume and force:
        raise ValueError("--resume finishes the run in --out and --force replaces it: give one of them, not both")
    check_out(out)
    if seed is not None:
        check_seed(seed)
    ensure_writable(out, RUN_FOLDER)


@contextmanager
def command_errors(kept: str, out: str | None = None):
    """A command's failures, one line each: Ctrl-C says what is ``kept`` (:func:`interrupted`), a ValueError is
    the user's mistake (exit 2) and, with ``out`` given, an OSError is an ``out`` that cannot be written (exit 1)."""
    try:
        yield
    except KeyboardInterrupt:
        interrupted(kept)
    except OSError as e:
        if out is None:
            raise
        fail(f"cannot write to {out}: {e.strerror or e}", code=1)
    except ValueError as e:
        fail(str(e))


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
        if e.what == RUN_FOLDER:  # nothing was written: --resume could not write there either
            fail(f"{e}: the folder cannot be written; make it writable, or choose another --out", code=1)
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


def write_report_files(write, *args) -> tuple[list, object]:
    """``(paths, None)`` of a report's files written by ``write(*args)``; ``([], error)`` when they could not
    be (a read-only run, a full disk: :func:`echo_report` prints the tables, then says so); a refusal of the
    run is a one-line error."""
    from ..core.files import OutputError
    try:
        return write(*args), None
    except OutputError as e:
        return [], e
    except ValueError as e:
        fail(str(e))


def echo_report(summary: str, paths: list, note: str | None, *paragraphs: str, unwritten=None) -> None:
    """What a report command prints: the note of a run not yet complete, each paragraph, the headline
    tables, the files written, and the note again (last, where it is seen).

    ``unwritten``: the :class:`~barbu_sim.core.files.OutputError` of report files that could not be
    written (a read-only run, a full disk): the tables are still printed, then one line says so (exit 1).
    """
    for line in ([note] if note else []) + list(paragraphs):
        typer.echo(line + "\n")
    typer.echo(summary)
    if unwritten is not None:
        typer.echo()
        fail(f"{unwritten}; the tables are printed above, but no report file was written", code=1)
    typer.echo(f"\nWrote {len(paths)} files to {paths[-1].parent}")
    if note:
        typer.echo(note)


def report_run(report, run_dir: str, notes=lambda snap: []) -> None:
    """What ``report`` does for either game: read the run once, print its headline tables and write them.

    ``report``: the game's ``analytics.report`` module (``snapshot``, ``build_tables``, ``incomplete_note``,
    ``write_report``, ``terminal_summary``); ``notes(snap)``: paragraphs the game prints above the tables.
    """
    try:
        snap = report.snapshot(run_dir)  # one reading of the manifest: tables, counts and notes agree
        tables = report.build_tables(snap)
        note = report.incomplete_note(snap)
        paragraphs = notes(snap)
    except ValueError as e:
        fail(str(e))
    paths, unwritten = write_report_files(report.write_report, snap, tables)  # unwritten: the tables are printed first
    echo_report(report.terminal_summary(tables), paths, note, *paragraphs, unwritten=unwritten)


def plot_run(report, write_plots, run_dir: str, out: str | None, options=lambda snap: {}) -> None:
    """What ``plot`` does for either game: draw the run's charts into ``out`` (default RUN_DIR/plots) and
    print their paths.  ``options(snap)``: the game's keyword arguments to ``write_plots``."""
    from pathlib import Path
    try:
        check_out_writable(out)
        snap = report.snapshot(run_dir)
        paths = write_plots(report.build_tables(snap), out or Path(run_dir) / "plots", **options(snap))
    except ValueError as e:
        fail(str(e))
    for p in paths:
        typer.echo(str(p))
