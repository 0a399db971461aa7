"""What the CLI tests share: invoking the CLI in-process, the shape of a clean error, charts recorded not drawn."""

import errno
import os
from pathlib import Path

from typer.testing import CliRunner

from barbu_sim.cli import app

runner = CliRunner()
GOLDEN = Path(__file__).parent / "playthroughs"


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


def assert_one_line_error(result, *needles, code=2):
    """:func:`assert_clean_error`, and that ``Error:`` line is the whole output."""
    assert_clean_error(result, *needles, code=code)
    assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("Error: "), result.output


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


def invoke_read_only(directory, monkeypatch, *args):
    """``barbu-sim ARGS`` in this process while ``directory`` is read-only (made if missing); writable after."""
    read_only(directory, monkeypatch)
    try:
        return invoke(*args)
    finally:
        directory.chmod(0o755)


def assert_golden(name, args):
    """``barbu-sim ARGS`` succeeds and prints ``playthroughs/NAME.txt`` to the letter (``BARBU_REGEN_GOLDEN=1``
    rewrites the file instead)."""
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("BARBU_REGEN_GOLDEN"):
        path.write_text(result.stdout)
    assert result.stdout == path.read_text(), f"{name} differs; BARBU_REGEN_GOLDEN=1 rewrites it"


def assert_merge_refuses_damaged_and_dangling(command, tmp_path, seed):
    """``command("--out", PATH, "--merge")`` refuses a results file cut short (naming it and JSON) and a link that
    points nowhere (naming --force), and leaves both as they were."""
    out = tmp_path / "rows.json"
    damaged = '{"seed": %d, "rows": [' % seed
    out.write_text(damaged)
    assert_clean_error(command("--out", out, "--merge"), str(out), "JSON")
    assert out.read_text() == damaged
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "nowhere.json")
    assert_clean_error(command("--out", link, "--merge"), "points nowhere", "--force")
    assert link.is_symlink() and not (tmp_path / "nowhere.json").exists()


def existing_outputs(folder, folder_files, args):
    """``args`` with OUT naming a results file that exists and DIR naming ``folder``, which holds ``folder_files``
    too: what a command must refuse before any work, unless --force (compare :func:`files_in` before and after)."""
    out = folder / "old.json"
    out.write_text('{"rows": []}\n')
    for name in folder_files:
        (folder / name).write_text("{}\n")
    return [a.replace("OUT", str(out)).replace("DIR", str(folder)) for a in args]


def files_in(folder) -> dict:
    """Each file's name in ``folder`` and its bytes."""
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def charts_recorded(monkeypatch, module) -> dict:
    """Replace ``module.write_plots`` (a study's or a report's charts) by a recorder: the tables each call hands to
    the charts, by the charts' folder (a Path), and nothing drawn. For the tests whose subject is not the drawing
    (most of a study's time), where another test draws those charts."""
    tables = {}

    def write_plots(run_tables, out_dir):
        tables[Path(out_dir)] = run_tables
        return []
    monkeypatch.setattr(module, "write_plots", write_plots)
    return tables
