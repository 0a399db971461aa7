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

numba's compiler cannot be interrupted either: LLVM runs as C code and calls back into Python,
and a ``KeyboardInterrupt`` raised in such a callback is printed and dropped, so a compile
interrupted by Ctrl-C would go on and the command finish as if nothing had been pressed.
:func:`compile_interruptibly` compiles in a worker thread (the engines' first use), and
:func:`stop_at_once_while_compiling` makes Ctrl-C end the process at once, in one line, when it
lands inside the compiler anyway (a kernel compiled on its first call).  numba writes its disk
cache under temporary names, then renames, so ending the process mid-compile leaves it whole.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

KERNEL_THREAD = "barbu-sim-kernel"  # the threads that run kernels (here, and core.atomic.on_threads)


def call_interruptibly(fn, *args, while_waiting=None):
    """``fn(*args)`` in a worker thread; ``KeyboardInterrupt`` reaches the caller while it runs.

    ``while_waiting(seconds)``, if given, is called in the caller's thread about every 0.2 s
    with the seconds since the call began (a progress line)."""
    outcome: dict = {}

    def work():
        try:
            outcome["value"] = fn(*args)
        except BaseException as e:  # handed to the caller's thread below
            outcome["error"] = e

    worker = threading.Thread(target=work, name=KERNEL_THREAD, daemon=True)
    worker.start()
    start = time.perf_counter()
    while worker.is_alive():
        worker.join(0.2)
        if while_waiting is not None and worker.is_alive():
            while_waiting(time.perf_counter() - start)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def call_kernel(kernel, interruptible: bool, *args):
    """``kernel(*args)``; when ``interruptible`` (a user strategy sits at some seat), by
    :func:`call_interruptibly`.

    A user strategy may never return: in a worker thread (the kernel compiled with
    ``nogil=True``) Ctrl-C still reaches Python.  Built-in strategies always return, so their
    kernels run in the calling thread, where Ctrl-C takes effect when the call ends.
    """
    if not interruptible:
        return kernel(*args)
    return call_interruptibly(kernel, *args)


class CompileInterrupted(KeyboardInterrupt):
    """Ctrl-C while numba compiled ``what``: the compile goes on in its thread, so the process must end."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


def compile_interruptibly(compile_fn, what: str, while_waiting=None) -> None:
    """``compile_fn()`` in a worker thread, so that Ctrl-C reaches the caller at once as
    :class:`CompileInterrupted` (the worker cannot be stopped: :func:`kernel_still_running` is then
    true and the command ends its process); ``while_waiting`` as in :func:`call_interruptibly`.
    Off the main thread, where no signal arrives, it simply calls ``compile_fn``."""
    if threading.current_thread() is not threading.main_thread():
        compile_fn()
        return
    try:
        call_interruptibly(compile_fn, while_waiting=while_waiting)
    except KeyboardInterrupt:
        raise CompileInterrupted(what) from None


# What a command that has nothing of its own to say adds after "Interrupted while compiling X for first use: ".
NOTHING_DONE = "nothing else was done; run the command again"


def _inside_compiler(frame) -> bool:
    """True when ``frame`` or a caller is numba's compiler or llvmlite (not a compiled kernel's call)."""
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name.startswith(("numba.core.", "llvmlite.")) and not name.startswith("numba.core.serialize"):
            return True
        frame = frame.f_back
    return False


def _on_sigint(signum, frame):
    if _inside_compiler(frame):
        # the command cannot say its own words from here: only what holds for every command
        print("\nInterrupted while compiling a kernel for first use: what the command had already saved is kept",
              file=sys.stderr)
        exit_now(130)
    raise KeyboardInterrupt


def stop_at_once_while_compiling() -> None:
    """Make Ctrl-C raise ``KeyboardInterrupt`` as Python's own handler does, except inside numba's
    compiler, where it ends the process at once with one line and exit code 130 (see the module's
    docstring).  Leaves a handler other than Python's default (a caller's own) in place."""
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _on_sigint)
    except (ValueError, OSError):  # not the main thread (a test runner's worker): nothing to do
        pass


def kernel_still_running() -> bool:
    """True while a kernel interrupted by Ctrl-C is still running in its worker thread."""
    return any(t.name == KERNEL_THREAD and t.is_alive() for t in threading.enumerate())


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
