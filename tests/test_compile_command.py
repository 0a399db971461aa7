"""``barbu-sim compile``: the engines the commands need, listed with their cache state, compiled once.

The real engines take minutes to compile, so the command's behaviour is tested on small kernels put in
place of its list; the real list is checked by asking each entry which kernel it needs, which compiles
nothing (:func:`barbu_sim.core.compiling.probe`).
"""

import importlib
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from typer.testing import CliRunner

from barbu_sim.cli import app
from barbu_sim.cli import compile as command
from barbu_sim.core import compiling

runner = CliRunner()

TINY = '''
from numba import types
from barbu_sim.core.compiling import lazy_kernel

@lazy_kernel(types.int64(types.int64), "the tiny Barbu kernel", "tiny", cache=True)
def barbu_kernel(x):
    return x + 1

@lazy_kernel(types.int64(types.int64), "the tiny Clabber kernel", "tiny", cache=True)
def clabber_kernel(x):
    return x + 2

@lazy_kernel(types.int64(types.int64), "the tiny mc kernel", "tiny", cache=True)
def mc_kernel(x):
    return x + 3
'''


@pytest.fixture
def tiny_engines(tmp_path, monkeypatch):
    """The command's list replaced by three small kernels, each in a new process's state (a fresh import) on
    every call of the returned function: what a later ``barbu-sim compile`` sees is numba's disk cache only."""
    (tmp_path / "tiny_engines.py").write_text(TINY)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(compiling.ESTIMATES_S, "tiny", 5)
    monkeypatch.setattr(compiling, "machine_load", lambda: (0.3, 2))

    def fresh():
        sys.modules.pop("tiny_engines", None)
        module = importlib.import_module("tiny_engines")
        monkeypatch.setattr(command, "ENGINES", [
            command.Engine("barbu", "tiny run", lambda: module.barbu_kernel(1)),
            command.Engine("clabber", "tiny clabber run", lambda: module.clabber_kernel(1)),
            command.Engine("barbu", "tiny mc play", lambda: module.mc_kernel(1), mc=True),
        ])
        return module

    return fresh


def test_compile_compiles_what_is_missing_once_and_a_second_call_finds_it_cached(tiny_engines):
    module = tiny_engines()
    first = runner.invoke(app, ["compile"])
    assert first.exit_code == 0, first.output
    lines = first.output.splitlines()
    assert lines[0].startswith("Barbu and Clabber: 2 engines, 0 of them in numba's cache already (")
    assert lines[1] == "[1/2] the tiny Barbu kernel (tiny run): compiling, up to about 5 s on an idle machine ..."
    assert lines[2].startswith("[1/2] compiled the tiny Barbu kernel in ")
    assert lines[3] == ("[2/2] the tiny Clabber kernel (tiny clabber run): compiling, up to about 5 s on an idle "
                        "machine ...")
    assert lines[4].startswith("[2/2] compiled the tiny Clabber kernel in ")
    assert lines[5].startswith("Compiled 2 engines in ")
    assert lines[6] == ("Not included: 1 engine with the Monte-Carlo player (--with-mc), compiled on the first use of "
                        "an mc seat or bot.")
    assert len(lines) == 7
    assert len(module.barbu_kernel.dispatcher.overloads) == 1 and len(module.mc_kernel.dispatcher.overloads) == 0

    again = tiny_engines()  # as the next process: nothing in memory, all on disk
    second = runner.invoke(app, ["compile"])
    assert second.exit_code == 0, second.output
    lines = second.output.splitlines()
    assert lines[0].startswith("Barbu and Clabber: 2 engines, 2 of them in numba's cache already")
    assert lines[1:3] == ["[1/2] the tiny Barbu kernel (tiny run): cached",
                          "[2/2] the tiny Clabber kernel (tiny clabber run): cached"]
    assert lines[3] == "Nothing to compile: the commands above start without compiling."
    assert len(again.barbu_kernel.dispatcher.overloads) == 0  # listed from the cache's index: not even loaded
    # and the commands' own first call finds it there, silently
    assert again.barbu_kernel(41) == 42


def test_compile_list_compiles_nothing_and_game_and_with_mc_choose_the_engines(tiny_engines, monkeypatch):
    module = tiny_engines()
    listed = runner.invoke(app, ["compile", "--list", "--game", "barbu", "--with-mc"])
    assert listed.exit_code == 0, listed.output
    assert listed.output.splitlines()[1:] == [
        "[1/2] the tiny Barbu kernel (tiny run): not compiled, up to about 5 s on an idle machine",
        "[2/2] the tiny mc kernel (tiny mc play): not compiled, up to about 5 s on an idle machine",
        "2 to compile (at most about 10 s on an idle machine): barbu-sim compile --game barbu --with-mc compiles them.",
    ]
    assert all(len(k.dispatcher.overloads) == 0 for k in (module.barbu_kernel, module.mc_kernel))
    assert not compiling.in_disk_cache(module.barbu_kernel.dispatcher, module.barbu_kernel.args)

    monkeypatch.setattr(compiling, "machine_load", lambda: (5.0, 2))  # busy: said once, before the compiles
    clabber = runner.invoke(app, ["compile", "--game", "clabber"])
    assert clabber.exit_code == 0, clabber.output
    assert clabber.output.splitlines()[1] == ("This machine is busy (load 5.0 on 2 cores): each compile takes longer "
                                              "than its idle figure.")
    assert "the tiny Clabber kernel" in clabber.output and "Barbu" not in clabber.output
    assert "Not included" not in clabber.output  # Clabber has no mc engine in this list
    assert len(module.clabber_kernel.dispatcher.overloads) == 1 and len(module.barbu_kernel.dispatcher.overloads) == 0


def test_compile_refuses_an_unknown_game_in_one_line(tiny_engines):
    tiny_engines()
    result = runner.invoke(app, ["compile", "--game", "bridge"])
    assert result.exit_code == 2
    assert result.output.strip() == "Error: --game is barbu, clabber or all, not 'bridge'"


def test_the_engines_listed_are_the_ones_the_commands_compile_into_the_code_stamped_cache():
    """Each entry of the real list names one kernel (asked of the commands' own code, compiling nothing), under
    its own name, with a measured estimate, cached by the package's dependency-stamped locators: the same cache
    as every command, for this code only."""
    from barbu_sim.barbu.engine import deal_kernels
    from barbu_sim.core.jit import LOCATORS

    before = {id(d): len(d.overloads) for d in (deal_kernels.play_batch_kernel, deal_kernels.play_one_kernel)}
    needs = [compiling.probe(e.ready) for e in command.ENGINES]
    assert len(needs) == 17
    assert len({n.what for n in needs}) == len(needs)  # one line each, none twice
    assert {e.game for e in command.ENGINES} == {"barbu", "clabber"}
    assert sum(e.mc for e in command.ENGINES) == 5
    for engine, need in zip(command.ENGINES, needs):
        assert need.estimate_s, need.what
        assert type(need.dispatcher._cache._impl.locator) in LOCATORS, need.what
        assert "mc" in need.what or not engine.mc, need.what  # --with-mc adds only engines with the mc player
    # the README's first command: the batch engine without the strong players, first in the list
    assert needs[0].dispatcher is deal_kernels.play_batch_kernel and needs[0].what == "the Barbu batch engine"
    assert compiling.probe(lambda: deal_kernels.batch_kernel(False)).args == needs[0].args
    assert {id(d): len(d.overloads) for d in (deal_kernels.play_batch_kernel, deal_kernels.play_one_kernel)} == before


CTRL_C = '''
import sys, time
from barbu_sim.cli import app
from barbu_sim.cli import compile as command
from barbu_sim.core import compiling


class Slow:  # a compile that takes a minute
    overloads = {}

    def compile(self, args):
        time.sleep(60)


def slow():
    compiling.ensure_compiled(Slow(), (), "the slow kernel", "")


command.ENGINES[:] = [command.Engine("barbu", "nothing", slow)]
app(["compile"], prog_name="barbu-sim")
'''


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess is POSIX")
def test_ctrl_c_while_compile_compiles_stops_it_at_once_in_one_line():
    """As every command (docs/analysis.md, Ctrl-C while compiling): one line, what is kept, exit code 130."""
    proc = subprocess.Popen([sys.executable, "-c", CTRL_C], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=dict(os.environ))
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    deadline = time.time() + 300  # a guard only: the test waits for the compile to begin, not for a time
    while not any("compiling" in line for line in lines):
        assert proc.poll() is None, "".join(lines)
        assert time.time() < deadline, "".join(lines)
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=50)  # before the minute's compile could end by itself
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("Ctrl-C did not stop barbu-sim compile")
    reader.join(10)
    out = "".join(lines)
    assert proc.returncode == 130, out
    assert "Traceback" not in out and "compiled the slow kernel" not in out, out
    assert [line for line in lines if "Interrupted" in line] == [
        "Interrupted while compiling the slow kernel for first use: no engine was compiled before it; run "
        "barbu-sim compile again to go on\n"], out
