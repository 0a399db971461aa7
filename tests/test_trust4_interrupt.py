"""Ctrl-C while numba compiles: the command stops at once, in one line, with exit code 130.

numba's compiler runs LLVM as C code that calls back into Python; a ``KeyboardInterrupt`` raised
in such a callback is dropped, so before this held a command interrupted during its first-use
compile compiled on, did its work and exited 0.  These tests compile from an empty numba cache of
their own and interrupt the compile itself, so they do not depend on how loaded the machine is:
they wait for the compile to start, not for a number of seconds.
"""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess is POSIX")


def _start(cmd, env):
    """``cmd`` in a subprocess, with a thread that collects its stderr line by line."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stderr), daemon=True)
    reader.start()
    return proc, lines, reader


def _wait_for(lines, needle, proc, limit=600):
    """Wait until a line of stderr holds ``needle`` (the compile has begun); generous guard only."""
    deadline = time.time() + limit
    while not any(needle in line for line in lines):
        assert proc.poll() is None, f"the command ended before {needle!r}: {''.join(lines)}"
        assert time.time() < deadline, f"no {needle!r} on stderr"
        time.sleep(0.05)


def _interrupt(proc, reader):
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=120)  # a guard: before the fix the compile went on for minutes, then the work
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("Ctrl-C did not stop the command while it compiled")
    reader.join(10)


def test_ctrl_c_during_an_engines_first_compile_stops_the_run_at_once(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    out = tmp_path / "run"
    proc, lines, reader = _start([sys.executable, "-m", "barbu_sim.cli", "run", "-n", "2000", "--out", str(out),
                                  "--no-progress"], env)
    _wait_for(lines, "compiling the Barbu batch engine", proc)
    time.sleep(0.5)  # inside the compile (it takes tens of seconds)
    _interrupt(proc, reader)
    err = "".join(lines)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "compiled the Barbu batch engine" not in err, err
    said = [line for line in lines if "Interrupted" in line]
    # one line: what was compiling, then what the command keeps and how to go on (as after any Ctrl-C)
    assert said == ["Interrupted while compiling the Barbu batch engine for first use: the completed chunks are "
                    f"saved; finish with: barbu-sim run --resume --out {out}\n"], err
    assert not list(out.glob("records/*.parquet"))  # no deal was played


COMPILES_FOREVER = '''
import sys
from numba import njit
from barbu_sim.core.interrupt import stop_at_once_while_compiling
stop_at_once_while_compiling()
print("compiling", file=sys.stderr, flush=True)
i = 0
while True:  # a new function each time: numba compiles in this (the main) thread, never from a cache
    i += 1
    f = njit(eval(f"lambda a, b: (a * {i} + b) % 7 + sum(range(b))"))
    f(i, 3)
print("finished", file=sys.stderr, flush=True)
'''


def test_ctrl_c_inside_numbas_compiler_ends_the_process_in_one_line(tmp_path):
    """Any compile in the main thread (a plugin, a kernel compiled on its first call), not only the engines'."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    proc, lines, reader = _start([sys.executable, "-c", COMPILES_FOREVER], env)
    _wait_for(lines, "compiling", proc)
    time.sleep(1.0)
    _interrupt(proc, reader)
    err = "".join(lines)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert "Interrupted while compiling a kernel for first use" in err


# Ctrl-C that lands while LLVM runs, delivered in the callback LLVM makes into Python when it has
# machine code (numba's object-cache hook): exactly where a KeyboardInterrupt used to be dropped.
# The callback sends the signal itself, so this does not depend on timing at all.
IN_LLVMS_CALLBACK = """
import os, signal, sys
from numba.core.codegen import JITCodeLibrary
armed = []
hook = JITCodeLibrary._object_compiled_hook.__func__
def ctrl_c_in_callback(cls, ll_module, buf):
    if armed and armed.pop():
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(100000):  # Python runs the handler here, inside the callback
            pass
    return hook(cls, ll_module, buf)
JITCodeLibrary._object_compiled_hook = classmethod(ctrl_c_in_callback)
class Stderr:
    def write(self, text):
        if "compiling " in text:
            armed.append(True)
        return sys.__stderr__.write(text)
    def flush(self):
        sys.__stderr__.flush()
sys.stderr = Stderr()
from barbu_sim.cli import app
app(ARGS, prog_name="barbu-sim")
"""


@pytest.mark.parametrize("args", [["run", "-n", "2000", "--no-progress", "--out"], ["play", "--seed", "3"]])
def test_ctrl_c_in_llvms_callback_is_not_dropped(tmp_path, args):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    if args[-1] == "--out":
        args = [*args, str(tmp_path / "run")]
    proc = subprocess.run([sys.executable, "-c", IN_LLVMS_CALLBACK.replace("ARGS", repr(args))], env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 130, proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr, proc.stderr
    assert "Interrupted while compiling the Barbu" in proc.stderr
    assert not list(tmp_path.glob("run/records/*.parquet"))


def test_ctrl_c_outside_the_compiler_is_pythons_keyboard_interrupt():
    """The handler changes nothing elsewhere: the commands' own Ctrl-C handling still sees KeyboardInterrupt."""
    from barbu_sim.core import interrupt
    before = signal.getsignal(signal.SIGINT)
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        interrupt.stop_at_once_while_compiling()
        assert signal.getsignal(signal.SIGINT) is interrupt._on_sigint
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        own = lambda signum, frame: None  # noqa: E731  (a caller's own handler is left in place)
        signal.signal(signal.SIGINT, own)
        interrupt.stop_at_once_while_compiling()
        assert signal.getsignal(signal.SIGINT) is own
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_wait_in_a_worker_thread_reports_the_seconds_so_far(capsys):
    """The compile's elapsed seconds, on a terminal, so that a long first use never looks like a hang."""
    from barbu_sim.core.compiling import _Ticker
    from barbu_sim.core.interrupt import call_interruptibly
    seen = []
    assert call_interruptibly(time.sleep, 0.7, while_waiting=seen.append) is None
    assert seen and seen == sorted(seen) and 0 < seen[0] <= seen[-1] < 60
    ticker = _Ticker()
    for seconds in (0.1, 0.4, 1.2, 2.5):
        ticker(seconds)
    ticker.clear()
    err = capsys.readouterr().err
    assert err.count("so far") == 3 and "\r  2 s so far (Ctrl-C stops it)" in err and err.endswith("\r")
