"""Clabber's command line under misuse: numbers out of range, bad output paths, a plugin that raises,
and Ctrl-C while a plugin never returns (as tests/test_hardening.py checks for Barbu)."""

import json

import pytest
from typer.testing import CliRunner

from barbu_sim.cli import app
from interrupting import ENDLESS, ctrl_c_once_entered
from shared_plugins import RAISING  # grumpy raises at the third trick

runner = CliRunner()
HAND = ["JS 9S AS KH 10D AC", "--turned", "QS", "--position", "1"]
BIG = str(2**64)


def assert_clean_error(result, *needles):
    """Exit code 2 and one ``Error:`` line, after the first-use compile lines if an engine compiled (a test run
    alone, from a cold cache)."""
    assert result.exit_code == 2, result.output
    said = [line for line in result.output.splitlines() if not line.startswith(("compiling ", "compiled "))]
    assert len(said) == 1 and said[0].startswith("Error: "), result.output
    for needle in needles:
        assert needle in result.output, result.output


@pytest.mark.parametrize("args,needle", [
    (["play", "--seed", "-1"], "--seed"),
    (["play", "--seed", BIG], "--seed"),
    (["play", "--index", BIG], "--index"),
    (["run", "-n", "-3"], "rounds"),
    (["run", "-n", str(10**12)], "rounds"),
    (["run", "-n", "10", "--seed", BIG], "--seed"),
    (["run", "-n", "10", "--threads", "0"], "--threads"),
    (["run", "-n", "10", "--threads", "999"], "--threads"),
    (["game", "-n", "0"], "--games"),
    (["game", "-n", str(10**12)], "--games"),
    (["game", "-n", "5", "--seed", "-2"], "--seed"),
    (["game", "-n", "5", "--seed", BIG], "--seed"),
    (["game", "-n", "5", "--threads", "0"], "--threads"),
    (["advise", *HAND, "--samples", "0"], "--samples"),
    (["advise", *HAND, "--samples", str(10**9)], "--samples"),
    (["advise", *HAND, "--seed", BIG], "--seed"),
])
def test_numbers_out_of_range_are_one_line_errors(tmp_path, args, needle):
    if args[0] == "run":
        args = args + ["--out", str(tmp_path / "r")]
    assert_clean_error(runner.invoke(app, ["clabber", *args]), needle)


@pytest.mark.parametrize("command", [["run", "-n", "10"], ["game", "-n", "5"]])
def test_an_out_that_is_empty_or_a_file_is_a_clean_error(tmp_path, command):
    f = tmp_path / "a_file"
    f.write_text("x")
    assert_clean_error(runner.invoke(app, ["clabber", *command, "--out", ""]), "--out is empty")
    assert_clean_error(runner.invoke(app, ["clabber", *command, "--out", str(f)]), "a_file", "file")
    assert f.read_text() == "x"


def test_plot_out_that_is_a_file_is_a_clean_error(tmp_path):
    run_dir = tmp_path / "r"
    assert runner.invoke(app, ["clabber", "run", "-n", "3000", "--out", str(run_dir), "--no-progress"]).exit_code == 0
    f = tmp_path / "a_file"
    f.write_text("x")
    assert_clean_error(runner.invoke(app, ["clabber", "plot", str(run_dir), "--out", str(f)]))


def test_a_raising_plugin_is_named_with_its_message(tmp_path):
    (tmp_path / "grumpy.py").write_text(RAISING)
    spec = f"E={tmp_path / 'grumpy.py'}:grumpy"
    out = tmp_path / "r"
    r = runner.invoke(app, ["clabber", "run", "-n", "2000", "--seat-strategy", spec, "--out", str(out),
                            "--no-progress"])
    assert_clean_error(r, "grumpy", "seat E", "raised ValueError: not in the mood", "round 0 of seed 0")
    assert "Exception ignored" not in r.output
    assert (out / "manifest.json").exists()  # the run started (its manifest is written before play)
    assert not json.loads((out / "manifest.json").read_text())["complete"]
    for command in (["play", "--seed", "3"], ["game", "-n", "3"], ["advise", *HAND, "--samples", "50"]):
        r = runner.invoke(app, ["clabber", *command, "--seat-strategy" if command[0] != "advise" else "--strategy",
                                spec if command[0] != "advise" else spec[2:]])
        assert_clean_error(r, "grumpy", "raised ValueError: not in the mood")




@pytest.mark.parametrize("command", [["play"], ["run", "-n", "5000", "--no-progress"], ["game", "-n", "10"]])
def test_ctrl_c_stops_a_plugin_that_never_returns(tmp_path, command):
    f = tmp_path / "endless.py"
    f.write_text(ENDLESS)
    args = ["clabber", *command, "--strategy", f"{f}:spin"]
    if command[0] == "run":
        args += ["--out", str(tmp_path / "r")]
    err = ctrl_c_once_entered(args, f)
    assert "Traceback" not in err and "Interrupted" in err
