"""Kernels compile on first use, say so on stderr, and built-in players never pull in the mc player."""

import importlib
import io
import sys
import time

import numpy as np
import pytest
from numba import types

from barbu_sim.barbu import api
from barbu_sim.barbu.engine import play_loops as kernels
from barbu_sim.barbu.players.mc.params import MCParams, mc_id
from barbu_sim.barbu.players.registry import seat_strategies
from barbu_sim.core import compiling

TINY = '''
from numba import njit

@njit(cache=True)
def twice(x):
    return 2 * x
'''


def _fresh_module(tmp_path, name):
    """Import (again) the module ``name`` from ``tmp_path``: a new dispatcher over the same file and cache."""
    sys.modules.pop(name, None)
    return importlib.import_module(name)


def test_a_first_compile_is_announced_and_a_cached_one_is_silent(tmp_path, monkeypatch, capsys):
    (tmp_path / "tiny_kernel.py").write_text(TINY)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(compiling.ESTIMATES_S, "tiny", 7)
    monkeypatch.setattr(compiling, "machine_load", lambda: (0.4, 2))  # an idle machine
    args = (types.int64,)

    first = _fresh_module(tmp_path, "tiny_kernel")
    assert not compiling.in_disk_cache(first.twice, args)
    assert compiling.ensure_compiled(first.twice, args, "the tiny kernel", "tiny")(21) == 42
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2, err
    assert err[0] == ("compiling the tiny kernel for first use (about 7 s on an idle machine; once: cached afterwards)"
                      " ...")
    assert err[1].startswith("compiled the tiny kernel in ")

    compiling.ensure_compiled(first.twice, args, "the tiny kernel", "tiny")  # in this process already
    assert capsys.readouterr().err == ""

    again = _fresh_module(tmp_path, "tiny_kernel")  # as a later process sees it: on disk, not in memory
    assert args not in again.twice.overloads
    assert compiling.in_disk_cache(again.twice, args)
    assert compiling.ensure_compiled(again.twice, args, "the tiny kernel", "tiny")(5) == 10
    assert capsys.readouterr().err == ""


def test_a_lazy_kernel_compiles_at_its_first_call_not_at_import(tmp_path, monkeypatch, capsys):
    (tmp_path / "lazy_tiny.py").write_text(
        "from numba import types\n"
        "from barbu_sim.core.compiling import lazy_kernel\n\n"
        "@lazy_kernel(types.int64(types.int64), 'the lazy kernel', 'none', cache=True)\n"
        "def thrice(x):\n"
        "    return 3 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = _fresh_module(tmp_path, "lazy_tiny")
    assert len(module.thrice.dispatcher.overloads) == 0  # importing compiled nothing
    assert module.thrice(4) == 12
    assert list(module.thrice.dispatcher.overloads) == [(types.int64,)]
    assert "compiling the lazy kernel for first use (once: cached afterwards)" in capsys.readouterr().err


def test_built_in_players_get_the_engine_without_mc_and_mc_seats_the_one_with_it():
    """The seats are resolved once (api.Seats): the engine they need and the ``explain`` argument that picks it."""
    builtin = api.Seats.of(["heuristic", "basic", "random", "lowest"])
    mc = api.Seats.of(["heuristic", "mc:samples=8", "heuristic", "heuristic"])
    assert mc.ids[1] == MCParams(samples=8).sid
    pimc = api.Seats.of(["pimc:samples=8", "heuristic", "heuristic", "heuristic"])
    assert pimc.ids[0] == mc_id(8)
    assert builtin.no_explain() is None and not (builtin.with_mc or builtin.with_learned or builtin.with_user)
    assert isinstance(mc.no_explain(), np.ndarray) and mc.with_mc
    assert isinstance(pimc.no_explain(), np.ndarray) and pimc.with_mc
    assert mc.no_explain().dtype == np.float64  # the engine with mc (and learned)
    learned = api.Seats.of(["learned", "heuristic", "heuristic", "heuristic"])
    assert learned.no_explain().dtype == np.float32 and learned.with_learned and not learned.with_mc
    assert learned.model().shape[0] > 0 and builtin.model().shape[0] == 0  # only a learned seat reads the weights
    mixed = api.Seats.of(["learned", "mc:samples=8", "heuristic", "heuristic"])
    assert mixed.no_explain().dtype == np.float64  # a table with both: the engine holding both


def test_the_engine_without_mc_resolves_mc_and_its_tracking_to_stubs():
    """The type of ``explain`` picks the implementation: None never reaches the mc player's code."""
    scalar = (types.int64, types.uint64, types.uint64, types.uint64[::1], types.uint64[::1])
    model = types.float32[:, ::1]
    without = kernels._mc_if_compiled_in_impl(*scalar, types.none, model)
    with_mc = kernels._mc_if_compiled_in_impl(*scalar, types.float64[:, ::1], model)
    assert "mc_choose" not in without.__code__.co_names and without(0, 0, 0, None, None, None, None) == -1
    assert "mc_choose" in with_mc.__code__.co_names
    track_args = (types.uint64[::1],) + (types.int64,) * 9 + (types.int64[::1],)
    assert kernels._infer_if_compiled_in_impl(types.none, *track_args).__code__.co_names == ()
    assert "infer_not_held" in kernels._infer_if_compiled_in_impl(types.float64[:, ::1], *track_args).__code__.co_names


def test_the_performance_page_shows_the_committed_compile_times():
    import json
    import subprocess
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    result = json.loads((root / "results" / "compile_times.json").read_text())
    assert len(result["rows"]) >= 10  # every command's first use, not a few
    # the script compares the page's table with the one it writes for the results (run as a script, timing nothing)
    done = subprocess.run([sys.executable, str(root / "scripts" / "compile_times.py"), "--check"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_a_compiled_kernel_takes_exactly_its_signature_and_never_compiles_another():
    """A Python int where the kernel takes uint64 is converted, as by an @njit(signature) kernel,
    not compiled for as a new int64 specialization (which draws other random numbers)."""
    from barbu_sim.barbu.engine import deal_kernels as engine
    from barbu_sim.barbu.engine.deals import random_deal
    from barbu_sim.barbu.rules import Rules
    from barbu_sim.barbu.api import NO_MODEL
    from barbu_sim.barbu.engine.play_loops import MAX_ACTIONS, SNAP_SIZE

    ids, fns, _ = seat_strategies("random")
    kernel = engine.one_kernel(False)
    before = set(engine.play_one_kernel.overloads)

    def play(seed, index):
        cards = np.zeros(MAX_ACTIONS, np.int8)
        kernel(random_deal(3, 0), 0, 0, 0, Rules().to_array(), ids, fns, seed, index, np.zeros(4, np.int64),
               np.zeros(4, np.int64), np.zeros(MAX_ACTIONS, np.int8), cards, np.full(13, -1, np.int8),
               np.zeros(SNAP_SIZE, np.uint64), NO_MODEL, None)
        return cards

    assert (play(12345, 7) == play(np.uint64(12345), np.uint64(7))).all()
    assert set(engine.play_one_kernel.overloads) == before


def test_compile_times_profiles_each_function_and_its_own_share():
    """CompileTimes: a kernel and the function it calls, each compiled once; the caller's time holds the
    callee's, and the self times add up to the caller's whole time (nothing counted twice)."""
    from numba import njit

    @njit
    def inner(x):
        return x * 3 + 1

    @njit
    def outer(x):
        return inner(x) + inner(x + 1)

    with compiling.CompileTimes() as times:
        assert outer(2) == 17
    rows = {r["function"].rsplit(".", 1)[-1]: r for r in times.rows()}
    assert set(rows) == {"inner", "outer"}
    assert rows["inner"]["specialisations"] == rows["outer"]["specialisations"] == 1
    assert 0 < rows["inner"]["seconds"] < rows["outer"]["seconds"]
    assert rows["inner"]["self_seconds"] == rows["inner"]["seconds"]
    total = rows["inner"]["self_seconds"] + rows["outer"]["self_seconds"]
    assert abs(total - rows["outer"]["seconds"]) < 1e-9
    with compiling.CompileTimes() as again:
        outer(3)  # compiled already: no event
    assert again.rows() == []


class _Terminal(io.StringIO):
    """A stream that says it is a terminal (the seconds so far are written only to one)."""

    def isatty(self):
        return True


def test_the_first_use_line_gives_the_idle_figure_and_says_when_the_machine_is_busy(tmp_path, monkeypatch, capsys):
    """The figure is the idle machine's, and says so; on a busy machine the line says it will take longer and
    why, instead of a figure that would not hold (3.5 to 7 times the idle one, measured at loads 2 to 10)."""
    assert compiling.wait_words(30, 0.5, 2) == "about 30 s on an idle machine"
    assert compiling.wait_words(30, 1.99, 2) == "about 30 s on an idle machine"
    assert compiling.wait_words(30, 6.14, 2) == ("about 30 s on an idle machine, longer at this one's load of 6.1 "
                                                 "on 2 cores")
    assert compiling.wait_words(30, None, 2) == "about 30 s on an idle machine"  # no load average (Windows)
    assert compiling.wait_words(None, 9.0, 2) == ""  # nothing measured: nothing promised
    assert compiling.idle_estimate(250) == "about 4 min on an idle machine"
    assert [compiling.duration(s) for s in (45.4, 99, 120, 248)] == ["45 s", "99 s", "2 min", "4 min 8 s"]

    (tmp_path / "tiny_busy.py").write_text(TINY)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(compiling.ESTIMATES_S, "tiny", 7)
    monkeypatch.setattr(compiling, "machine_load", lambda: (7.0, 2))
    module = _fresh_module(tmp_path, "tiny_busy")
    assert compiling.ensure_compiled(module.twice, (types.int64,), "the tiny kernel", "tiny")(4) == 8
    err = capsys.readouterr().err.splitlines()
    assert err[0] == ("compiling the tiny kernel for first use (about 7 s on an idle machine, longer at this one's "
                      "load of 7.0 on 2 cores; once: cached afterwards) ...")
    assert len(err) == 2 and err[1].startswith("compiled the tiny kernel in ")  # not a terminal: two lines only


def _as_if_in(module: str, qualname: str):
    """A dispatcher-like object whose function numba's compile events would name ``module.qualname``."""
    from types import SimpleNamespace

    def f():
        pass
    f.__module__, f.__qualname__ = module, qualname
    return SimpleNamespace(py_func=f)


class _SlowCompile:
    """A dispatcher whose compile takes about a second and sends numba's events for a package function and,
    inside it, one of numba's own, as compiling an engine does (no compiler involved: fast and deterministic)."""

    overloads: dict = {}

    def compile(self, args):
        from numba.core import event
        with event.trigger_event("numba:compile", data={"dispatcher": _as_if_in(
                "barbu_sim.barbu.engine.play_loops", "_play_tricks")}):
            time.sleep(0.5)
            with event.trigger_event("numba:compile", data={"dispatcher": _as_if_in(
                    "numba.np.arrayobj", "ol_np_empty.<locals>.impl")}):
                time.sleep(0.5)


def test_a_compile_on_a_terminal_shows_the_seconds_and_the_part_being_compiled(monkeypatch):
    """On a terminal, the line between the two names the function being compiled (the package's, not numba's
    own) and the count of functions done, rewritten in place and cleared at the end; elsewhere, nothing."""
    monkeypatch.setenv("COLUMNS", "100")  # the terminal's width (the line is cut to fit it)
    screen = _Terminal()
    took = compiling.compile_showing_progress(_SlowCompile(), (), "the slow kernel", screen)
    assert took >= 1.0
    shown = screen.getvalue()
    assert "\n" not in shown and shown.startswith("\r") and shown.endswith("\r")  # rewritten in place, then cleared
    assert "so far, now play_loops._play_tricks (Ctrl-C stops it)" in shown  # numba's own impl is not named
    assert "ol_np_empty" not in shown

    log = io.StringIO()  # a log or a pipe: the command's own two lines only
    compiling.compile_showing_progress(_SlowCompile(), (), "the slow kernel", log)
    assert log.getvalue() == ""


def test_the_progress_line_counts_the_functions_compiled_and_fits_the_terminal():
    from numba import njit

    @njit
    def inner(x):
        return x + 1

    @njit
    def outer(x):
        return inner(x) * 2

    with compiling._Parts() as parts:
        assert outer(1) == 4
    assert parts.done == 2 and parts.now() is None
    outer(2)  # after the block: no longer listening
    assert parts.done == 2

    ticker = compiling._Ticker(io.StringIO(), parts)
    parts._stack.append("round_kernels.play_one_kernel")
    assert ticker._text(15, 200) == ("  15 s so far, 2 functions compiled, now round_kernels.play_one_kernel "
                                     "(Ctrl-C stops it)")
    assert ticker._text(15, 75) == "  15 s so far, 2 functions compiled, now play_one_kernel (Ctrl-C stops it)"
    assert ticker._text(15, 60) == "  15 s so far, 2 functions compiled (Ctrl-C stops it)"  # the name gives way
    assert compiling._Ticker()._text(3, 80) == "  3 s so far (Ctrl-C stops it)"


def test_a_probe_names_the_kernel_a_call_needs_and_compiles_nothing(tmp_path, monkeypatch, capsys):
    (tmp_path / "lazy_probe.py").write_text(
        "from numba import types\n"
        "from barbu_sim.core.compiling import lazy_kernel\n\n"
        "@lazy_kernel(types.int64(types.int64), 'the probed kernel', 'tiny', cache=True)\n"
        "def thrice(x):\n"
        "    return 3 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(compiling.ESTIMATES_S, "tiny", 7)
    module = _fresh_module(tmp_path, "lazy_probe")
    need = compiling.probe(lambda: module.thrice(4))
    assert (need.what, need.args, need.estimate_s) == ("the probed kernel", (types.int64,), 7)
    assert need.dispatcher is module.thrice.dispatcher
    assert len(module.thrice.dispatcher.overloads) == 0 and not need.ready()  # nothing compiled, nothing loaded
    assert capsys.readouterr().err == ""
    assert module.thrice(4) == 12  # after the probe, calls compile as before
    assert need.ready() and "compiling the probed kernel" in capsys.readouterr().err
    assert compiling.probe(lambda: module.thrice(5)).ready()  # this process has it now

    with pytest.raises(RuntimeError, match="made no kernel ready"):
        compiling.probe(lambda: None)
    with pytest.raises(ZeroDivisionError):
        compiling.probe(lambda: 1 / 0)
    assert module.thrice(2) == 6 and not compiling._probing  # a failed probe leaves nothing behind
