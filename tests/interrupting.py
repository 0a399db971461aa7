"""Ctrl-C a CLI command in a subprocess at an observable moment (shared by the hardening tests): once a
plugin that never returns has been entered, or once any condition the caller can see holds."""

import signal
import subprocess
import sys
import time

import pytest

# A strategy plugin (Barbu's or Clabber's signature) that never returns; the first time it is called it
# writes FILE.entered beside itself (from Python, holding the GIL for that moment only), then spins without it.
ENDLESS = '''
from pathlib import Path
import numpy as np
from numba import njit, objmode


def entered():
    Path(__file__).with_suffix(".entered").write_text("1")


@njit
def spin(legal, hand, state, rng):
    with objmode():
        entered()
    x = legal
    while x != np.uint64(0):  # never true: x is odd from the first turn on
        x = (x * np.uint64(3)) | np.uint64(1)
    return 0
'''


def entered_marker(plugin):
    """The file :data:`ENDLESS` saved as ``plugin`` writes when it is first called."""
    return plugin.with_suffix(".entered")


def start_command(args: list, prelude: str = "", **popen) -> subprocess.Popen:
    """``barbu-sim ARGS`` in a subprocess, after the Python code ``prelude`` (which may make a moment of the
    command observable), its stdout and stderr piped as text (``popen`` adds to Popen's)."""
    code = f"{prelude}\nfrom barbu_sim.cli import app; app({[str(a) for a in args]!r})"
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **popen)


def wait_until(ready, proc, what: str, limit: float = 300) -> None:
    """Poll ``ready()`` until it is true; fail, naming ``what``, if ``proc`` ends first or ``limit`` seconds
    pass (a guard only: the compiles on a loaded machine take what they take)."""
    deadline = time.time() + limit
    while not ready():
        if proc.poll() is not None:
            _, err = proc.communicate()
            pytest.fail(f"the command ended (exit code {proc.returncode}) before {what}: {err}")
        if time.time() > deadline:
            proc.kill()
            proc.communicate()
            pytest.fail(f"no sign of {what} in {limit} s")
        time.sleep(0.05)


def interrupt(proc, limit: float = 60) -> tuple[str, str]:
    """Send ``proc`` SIGINT and return its stdout and stderr; fails the test unless it stops within ``limit``
    seconds with exit code 130."""
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("Ctrl-C did not stop the command")
    assert proc.returncode == 130, err
    return out, err


def ctrl_c_once_entered(args: list, plugin, **popen) -> str:
    """Run ``barbu-sim ARGS`` (which seats the :data:`ENDLESS` plugin saved as ``plugin``) in a subprocess,
    send SIGINT once the plugin has been entered (its marker file exists: the command is then in the endless
    loop, however long the compiles before it took) and return the command's stderr."""
    proc = start_command(args, **popen)
    marker = entered_marker(plugin)
    wait_until(marker.exists, proc, "the plugin being entered")
    return interrupt(proc)[1]
