"""Compiling kernels on first use, and saying so.

numba compiles a kernel the first time a process needs it, then keeps the machine
code in its disk cache (``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``).
The first use of a command therefore waits for the compiler, for seconds to minutes,
and a silent wait looks like a hang.  :func:`ensure_compiled` compiles a kernel for
one signature before it is called and, when the disk cache does not hold it, prints
one line to stderr before compiling and one when done.
"""

from __future__ import annotations

import sys
import time

from .interrupt import compile_interruptibly

# About how long each kernel takes to compile from an empty cache on the 2-core development
# machine, in seconds, each in a fresh process (scripts/compile_times.py measures the commands).
ESTIMATES_S = {
    "barbu-one": 25,
    "barbu-one-mc": 60,
    "barbu-batch": 30,
    "barbu-batch-mc": 60,
    "barbu-one-learned": 40,  # the engines with the learned player alone
    "barbu-batch-learned": 40,
    "clabber-one": 20,
    "clabber-batch": 25,
    "clabber-games": 25,
    "clabber-sheet": 20,
    "clabber-dealt": 20,
    "clabber-eval": 20,
    "clabber-bids": 20,
    "clabber-one-mc": 60,  # the Clabber engines with the mc card player (clabber play / run with an mc seat)
    "clabber-batch-mc": 75,
    "clabber-bids-mc": 75,
    "clabber-one-learned": 75,  # the Clabber engines with the learned player (and mc)
    "clabber-batch-learned": 90,
    "clabber-games-learned": 90,
    "clabber-dealt-learned": 75,  # the review of a Clabber round's bidding: every option played out by mc
}


def in_disk_cache(dispatcher, args: tuple) -> bool:
    """True when numba's disk cache holds ``dispatcher`` compiled for ``args`` (a tuple of numba types).

    Reads the cache's index the way numba does when it loads an overload; on any
    surprise (another numba version's internals) answers False, so the worst case is
    a compile message that was not needed.
    """
    try:
        cache = dispatcher._cache
        index = cache._cache_file._load_index()
        return cache._index_key(args, dispatcher.targetctx.codegen()) in index
    except Exception:
        return False


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


class _Ticker:
    """The seconds a compile has taken so far, rewritten in place on a terminal, so that a long wait
    on a busy machine never looks like a hang (a log or a pipe gets only the lines before and after)."""

    def __init__(self):
        self.shown = -1

    def __call__(self, seconds: float) -> None:
        if int(seconds) != self.shown:
            self.shown = int(seconds)
            sys.stderr.write(f"\r  {self.shown} s so far (Ctrl-C stops it)")
            sys.stderr.flush()

    def clear(self) -> None:
        if self.shown >= 0:
            sys.stderr.write("\r" + " " * 40 + "\r")
            sys.stderr.flush()


def ensure_compiled(dispatcher, args: tuple, what: str, estimate_key: str):
    """``dispatcher`` compiled for ``args``, as a function of exactly that signature: at once if
    this process has it, else from the disk cache, else compiled here, with a line to stderr
    before and after.

    ``args`` is the tuple of numba types the kernel takes, ``what`` names it for the user
    ("the Barbu engine"), ``estimate_key`` looks up :data:`ESTIMATES_S`.  The function
    returned converts its arguments to those types (a Python int to uint64, say) as an
    ``@njit(signature)`` kernel does: it never compiles another specialization, silently,
    for the types of whatever it is given.
    """
    if args not in dispatcher.overloads:
        if in_disk_cache(dispatcher, args):
            dispatcher.compile(args)
        else:
            estimate = ESTIMATES_S.get(estimate_key)
            about = f"up to about {estimate} s on 2 cores, " if estimate else ""
            print(f"compiling {what} for first use ({about}once: cached afterwards) ...", file=sys.stderr,
                  flush=True)
            start = time.perf_counter()
            ticker = _Ticker() if _is_terminal(sys.stderr) else None
            # in a worker thread: Ctrl-C reaches the command at once (core/interrupt.py says why)
            compile_interruptibly(lambda: dispatcher.compile(args), what, ticker)
            if ticker is not None:
                ticker.clear()
            print(f"compiled {what} in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    return dispatcher.overloads[args].entry_point


class LazyKernel:
    """An ``@njit`` entry kernel of one fixed signature, compiled on its first call instead of at import.

    ``@njit(signature)`` compiles (or loads from the cache) when its module is imported,
    so every command that imports a module pays for all of its kernels.  This compiles
    each kernel when a command first calls it, through :func:`ensure_compiled`.
    """

    def __init__(self, py_func, signature, what: str, estimate_key: str, **options):
        from .jit import njit  # the disk cache that follows dependencies
        self.dispatcher = njit(**options)(py_func)
        self.args = tuple(signature.args)
        self.what = what
        self.estimate_key = estimate_key
        self.__doc__ = py_func.__doc__
        self.__name__ = py_func.__name__

    def compiled(self):
        """The kernel compiled for its signature (see :func:`ensure_compiled`)."""
        return ensure_compiled(self.dispatcher, self.args, self.what, self.estimate_key)

    def __call__(self, *args):
        return self.compiled()(*args)


def lazy_kernel(signature, what: str, estimate_key: str, **options):
    """Decorator: a :class:`LazyKernel` of ``signature`` with numba ``options`` (``cache=True``, ...)."""
    return lambda py_func: LazyKernel(py_func, signature, what, estimate_key, **options)


class CompileTimes:
    """Seconds numba spends compiling each function, from its ``numba:compile`` events (a profile).

    Used as a context manager around the code that compiles.  Every dispatcher that compiles (an
    entry kernel, and each ``@njit`` function it calls, compiled as a dispatcher of its own) is timed
    from its start event to its end event; its *self* time is that less the compiles nested in it,
    so the self times add up to the time spent compiling.  :meth:`rows` gives one dict a function:
    ``function`` (module.qualname), ``specialisations`` (signatures compiled), ``seconds`` (with
    the nested compiles) and ``self_seconds``, most self time first.  ``scripts/compile_profile.py``
    profiles the commands with it.
    """

    def __init__(self):
        from numba.core import event

        class _Timer(event.Listener):
            def on_start(listener, ev):
                self._stack.append([time.perf_counter(), 0.0])

            def on_end(listener, ev):
                self._ended(ev.data["dispatcher"])

        self._stack: list[list[float]] = []
        self._rows: dict[str, dict] = {}
        self._listener = _Timer()

    def _ended(self, dispatcher) -> None:
        start, nested = self._stack.pop()
        took = time.perf_counter() - start
        if self._stack:
            self._stack[-1][1] += took
        py = getattr(dispatcher, "py_func", None)
        name = f"{getattr(py, '__module__', '?')}.{getattr(py, '__qualname__', repr(dispatcher))}"
        row = self._rows.setdefault(name, {"function": name, "specialisations": 0, "seconds": 0.0,
                                           "self_seconds": 0.0})
        row["specialisations"] += 1
        row["seconds"] += took
        row["self_seconds"] += took - nested

    def __enter__(self):
        from numba.core import event
        event.register("numba:compile", self._listener)
        return self

    def __exit__(self, *exc):
        from numba.core import event
        event.unregister("numba:compile", self._listener)
        return False

    def rows(self) -> list[dict]:
        """One row a compiled function, most self time first."""
        return sorted((dict(r) for r in self._rows.values()), key=lambda r: -r["self_seconds"])
