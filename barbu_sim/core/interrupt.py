"""Calling a long numba kernel, and reading a typed line, so that Ctrl-C still works.

A kernel compiled with ``nogil=True`` runs here in a worker thread while the main
thread waits in short joins, where Python can deliver ``KeyboardInterrupt`` even if
the kernel never returns (a user strategy stuck in a loop).  The kernel itself
cannot be stopped: a command that was interrupted while one is running ends its
process with :func:`exit_now`.

A prompt (``table``, ``sheet``) reads its line with :func:`interruptible_input`: polars,
once imported, puts its own SIGINT handler in front of Python's with ``SA_RESTART``,
so the ``read`` that ``input()`` waits in is restarted after Ctrl-C and Python sees the
signal only when Enter is pressed.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

_WORKER_NAME = "barbu-sim-kernel"


def call_interruptibly(fn, *args):
    """``fn(*args)`` in a worker thread; ``KeyboardInterrupt`` reaches the caller while it runs."""
    outcome: dict = {}

    def work():
        try:
            outcome["value"] = fn(*args)
        except BaseException as e:  # handed to the caller's thread below
            outcome["error"] = e

    worker = threading.Thread(target=work, name=_WORKER_NAME, daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.2)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def call_kernel(kernel, interruptible: bool, *args):
    """``kernel(*args)``; when ``interruptible`` (a user strategy sits at some seat), by
    :func:`call_interruptibly`, with the caller's numba thread count (numba keeps it per thread).

    A user strategy may never return: in a worker thread (the kernel compiled with
    ``nogil=True``) Ctrl-C still reaches Python.  Built-in strategies always return, so their
    kernels run in the calling thread, where Ctrl-C takes effect when the call ends.
    """
    if not interruptible:
        return kernel(*args)
    from numba import get_num_threads, set_num_threads
    threads = get_num_threads()

    def call():
        set_num_threads(threads)
        return kernel(*args)

    return call_interruptibly(call)


def kernel_still_running() -> bool:
    """True while a kernel interrupted by Ctrl-C is still running in its worker thread."""
    return any(t.name == _WORKER_NAME and t.is_alive() for t in threading.enumerate())


def exit_now(code: int) -> None:
    """End the process at once with ``code`` (a running kernel cannot be joined or stopped)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def interruptible_input(prompt: str = "") -> str:
    """``input(prompt)``, where Ctrl-C raises ``KeyboardInterrupt`` at once, not after Enter.

    polars (imported by the score sheet and the played-deal files) installs a SIGINT handler
    of its own, chained to Python's, with ``SA_RESTART``: the terminal ``read`` is then
    restarted after the signal instead of returning, and Python's handler, which did run,
    is acted on only when the line ends.  Clearing ``SA_RESTART`` (whatever handler is in
    place) before each prompt makes the ``read`` return, and ``input`` raise.
    """
    try:
        signal.siginterrupt(signal.SIGINT, True)
    except (AttributeError, OSError, ValueError):  # no such call here (Windows), or not the main thread
        pass
    return input(prompt)
