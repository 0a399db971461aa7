"""What the hardening tests share: invoking the CLI in-process, and the shape of a clean error."""

import errno
import os

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


def read_only(directory, monkeypatch):
    """``directory`` read-only: by its mode where that binds (not root), else by refusing its writes."""
    from barbu_sim.core import files as files_module
    directory.mkdir(exist_ok=True)
    directory.chmod(0o555)
    if os.access(directory, os.W_OK):  # root ignores the mode
        real = files_module.temporary_path

        def refuse(path):
            if str(path).startswith(str(directory)):
                raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
            return real(path)
        monkeypatch.setattr(files_module, "temporary_path", refuse)


def one_line(message: str, *needles: str) -> str:
    """``message`` is one line, without a traceback, holding every needle."""
    assert "\n" not in message and "Traceback" not in message, message
    for needle in needles:
        assert needle in message, message
    return message


def stopped(main, argv, capsys) -> str:
    """The one-line error with which a script's ``main(argv)`` stops (its SystemExit message, or its stderr)."""
    import pytest
    with pytest.raises(SystemExit) as stop:
        main(argv)
    code = stop.value.code
    assert code not in (0, None), code
    message = code if isinstance(code, str) else capsys.readouterr().err.strip()
    return one_line(message, "Error: ")


def refused_model(module, path) -> str:
    """The one-line error a learned player's ``module.load_model`` gives for the file at ``path``."""
    import pytest
    module.load_model.cache_clear()
    try:
        with pytest.raises(ValueError) as e:
            module.load_model(str(path))
    finally:
        module.load_model.cache_clear()
    return one_line(str(e.value), str(path))
