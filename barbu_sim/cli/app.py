"""The typer app and what every command shares: one-line errors, rule options, per-seat specs."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from .. import __version__

app = typer.Typer(
    help="barbu-sim: simulate the card game Barbu (and Clabber) and measure what its contracts are worth.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def fail(message: str) -> None:
    """Print a one-line error and exit with code 2 (a usage error, never a traceback)."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(2)


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


RulesOpt = Annotated[Optional[str], typer.Option(
    "--rules", help="Rules preset (default, strict-barbu, overtrump, free-discard, every-dealer) or a .toml file.")]
OptionOpt = Annotated[Optional[list[str]], typer.Option(
    "--option", "-o", help="Override one rule option, NAME=VALUE (e.g. trumps-overtrump=on). Repeatable.")]


def load_cli_rules(rules: str | None, option: list[str] | None):
    """The Barbu rules of ``--rules`` and ``--option``."""
    from ..barbu.rules import load_rules, parse_option_pairs
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
    "--backend", help="Where the work is played: local (this process) or ray (Ray tasks, on this machine or a "
                      "cluster; needs the package's ray extra). Results are identical.")]
RayAddressOpt = Annotated[Optional[str], typer.Option(
    "--ray-address", help="With --backend ray: auto (the cluster of `ray start` on this machine) or HOST:PORT "
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


def interrupted(message: str) -> None:
    """Ctrl-C: say what is kept and how to go on, then exit 130 (at once if a kernel is still running)."""
    from ..core.interrupt import exit_now, kernel_still_running
    typer.echo(f"\nInterrupted: {message}", err=True)
    if kernel_still_running():  # a kernel cannot be stopped or joined: end the process now
        exit_now(130)
    raise typer.Exit(130)
