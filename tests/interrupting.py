"""Ctrl-C a CLI command in a subprocess once a plugin it loaded is running (shared by the hardening tests)."""

import signal
import subprocess
import sys
import time

import pytest

# A Barbu strategy plugin that never returns; it writes FILE.loaded beside itself when imported.
ENDLESS = '''
from pathlib import Path
import numpy as np
from numba import njit
Path(__file__).with_suffix(".loaded").write_text("1")

@njit
def spin(legal, hand, state, rng):
    x = legal
    while x != np.uint64(0):  # never true: x is odd from the first turn on
        x = (x * np.uint64(3)) | np.uint64(1)
    return 0
'''


def ctrl_c_once_loaded(args: list, marker) -> str:
    """Run ``barbu-sim ARGS`` in a subprocess, wait until ``marker`` (a file the plugin writes when it
    is imported) exists and the plugin has had time to be compiled and entered, send SIGINT, and
    return the command's stderr.  Fails the test if the command does not stop with exit code 130."""
    code = f"from barbu_sim.cli import app; app({args!r})"
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while not marker.exists() and time.time() < deadline:
        time.sleep(0.1)
    time.sleep(4)  # into the endless loop (first the plugin compiles and the engine loads from the disk cache)
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("Ctrl-C did not stop the command")
    assert proc.returncode == 130, err
    return err
