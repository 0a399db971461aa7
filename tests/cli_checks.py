"""What the hardening tests share: invoking the CLI in-process, and the shape of a clean error."""

from typer.testing import CliRunner

from barbu_sim.cli import app

runner = CliRunner()


def invoke(*args):
    """``barbu-sim ARGS`` in this process (arguments may be paths or numbers)."""
    return runner.invoke(app, [str(a) for a in args])


def assert_clean_error(result, *needles, code=2):
    """One line starting ``Error:``, the exit code, no traceback, every needle in the message."""
    assert result.exit_code == code, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines and lines[-1].startswith("Error: "), result.output
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in result.output, result.output
