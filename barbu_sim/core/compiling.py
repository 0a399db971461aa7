"""Compiling kernels on first use, and saying so.

numba compiles a kernel the first time a process needs it, then keeps the machine
code in its disk cache (``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``),
stamped with the package's code (:mod:`barbu_sim.core.jit`).  The first use of a
command therefore waits for the compiler, for seconds to minutes, and a silent wait
looks like a hang.  :func:`ensure_compiled` compiles a kernel for one signature before
it is called and, when the disk cache does not hold it, prints one line to stderr
before compiling (with the idle machine's figure, and whether this one is busy) and
one when done; on a terminal a line between them counts the seconds and names the
function being compiled.  :func:`probe` tells which kernel a call would compile
without compiling it: ``barbu-sim compile`` lists and compiles the engines with it.
"""

from __future__ import annotations

import sys
import time

from .interrupt import compile_interruptibly

# About how long each kernel takes to compile from an empty cache on the idle 2-core development
# machine, in seconds, each in a fresh process (scripts/compile_times.py measures the commands).  A busy
# machine takes several times as long (wait_words says why the line gives no figure for it).
ESTIMATES_S = {
    "barbu-one": 20,  # play: 18 s
    "barbu-one-mc": 55,  # play with an mc seat: 49 to 54 s; mc's estimator alone (hints, review): 35 s
    "barbu-batch": 20,  # run: 18 to 20 s
    "barbu-batch-mc": 60,  # 56 s measured (248 s before the rollout player and the network were compiled once)
    "barbu-one-learned": 25,  # the engines with the learned player alone (play with a learned seat: 22 s)
    "barbu-batch-learned": 25,  # advise: 22 to 26 s
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


def machine_load() -> tuple[float | None, int | None]:
    """The one-minute load average and the number of cores (None where the platform does not say)."""
    import os
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # Windows has no load average
        load = None
    return load, os.cpu_count()


def is_busy(load: float | None, cpus: int | None) -> bool:
    """True when other work already keeps every core busy: a compile (one thread) then gets less than a core."""
    return load is not None and bool(cpus) and load >= cpus


def duration(seconds: float) -> str:
    """``45 s``, ``4 min 10 s``: a wait in the words the progress lines use."""
    s = int(round(seconds))
    return f"{s} s" if s < 100 else f"{s // 60} min {s % 60} s" if s % 60 else f"{s // 60} min"


def idle_estimate(estimate_s: int | None) -> str:
    """``about 30 s on an idle machine`` for an estimate of :data:`ESTIMATES_S` ('' without one)."""
    if not estimate_s:
        return ""
    rounded = estimate_s if estimate_s < 100 else round(estimate_s / 30) * 30  # minutes: to the half minute
    return f"about {duration(rounded)} on an idle machine"


def wait_words(estimate_s: int | None, load: float | None, cpus: int | None) -> str:
    """What the first-use line says of the wait: the idle machine's figure, and that it will take longer when
    the machine is busy now.

    Only the idle figure is a measurement.  A compile runs in one thread, so on a busy machine it takes as many
    times longer as it gets less of a core, and the load average predicts that poorly (measured on the 2-core
    machine at loads 2 to 10: 3.5 to 7 times the idle figure); the seconds so far, shown on a terminal, are the
    honest answer there."""
    idle = idle_estimate(estimate_s)
    if not idle or not is_busy(load, cpus):
        return idle
    return f"{idle}, longer at this one's load of {load:.1f} on {cpus} cores"


class _CompileEvents:
    """A context in which ``self._listener`` hears numba's ``numba:compile`` events."""

    def __enter__(self):
        from numba.core import event
        event.register("numba:compile", self._listener)
        return self

    def __exit__(self, *exc):
        from numba.core import event
        event.unregister("numba:compile", self._listener)
        return False


class _Parts(_CompileEvents):
    """Which function numba compiles now, and how many it has compiled, from its ``numba:compile`` events.

    numba compiles an engine as a tree of functions (each ``@njit`` callee is a dispatcher of its own, compiled
    when its caller is typed), announcing each with a start and an end event, in the thread that compiles.
    The name shown is the innermost function being compiled that is not numba's own (``play_loops._play_tricks``,
    not ``numba.np.arrayobj...impl``), so the line names a part of the engine the reader can find; the count
    moves on as each function is done, so that even a long single step is seen to be one step among many.
    """

    def __init__(self):
        from numba.core import event

        class _Listener(event.Listener):
            def on_start(listener, ev):
                py = getattr(ev.data.get("dispatcher"), "py_func", None)
                module = getattr(py, "__module__", "") or ""
                name = getattr(py, "__qualname__", "?")
                name = name.replace(".<locals>.<lambda>", "")  # an overload's implementation: its maker names it
                self._stack.append(None if module.startswith("numba.") else f"{module.rsplit('.', 1)[-1]}.{name}")

            def on_end(listener, ev):
                if self._stack:
                    self._stack.pop()
                self.done += 1

        self._stack: list[str | None] = []
        self.done = 0
        self._listener = _Listener()

    def now(self) -> str | None:
        """The innermost function of the package (or a plugin) being compiled, None before the first event."""
        return next((name for name in reversed(self._stack[:]) if name), None)



class _Ticker:
    """The seconds a compile has taken so far, and the part being compiled, rewritten in place on a terminal,
    so that a long wait on a busy machine never looks like a hang (a log or a pipe gets only the lines before
    and after).  ``parts``: a :class:`_Parts` to name the function being compiled, None to show the seconds only."""

    def __init__(self, stream=None, parts: _Parts | None = None):
        self.stream = stream
        self.parts = parts
        self.shown: str | None = None
        self.width = 0

    def _text(self, seconds: int, columns: int) -> str:
        """The line for ``seconds``, at most ``columns`` - 1 wide (a line that wrapped could not be rewritten in
        place): the function's name is what gives way, its module first."""
        head, tail = f"  {seconds} s so far", " (Ctrl-C stops it)"
        done = self.parts.done if self.parts is not None else 0
        if done:
            head += f", {done} function{'' if done == 1 else 's'} compiled"
        part = self.parts.now() if self.parts is not None else None
        room = columns - 1 - len(head) - len(tail) - len(", now ")
        if part and len(part) > room:
            part = part.split(".", 1)[-1]  # without its module
        if part and room >= 12:
            head += ", now " + (part if len(part) <= room else "…" + part[len(part) - room + 1:])
        return (head + tail)[:max(columns - 1, 20)]

    def __call__(self, seconds: float) -> None:
        import shutil
        stream = self.stream or sys.stderr
        text = self._text(int(seconds), shutil.get_terminal_size((80, 24)).columns)
        if text == self.shown:
            return
        self.shown = text
        stream.write("\r" + text + " " * max(self.width - len(text), 0))
        stream.flush()
        self.width = max(self.width, len(text))

    def clear(self) -> None:
        if self.shown is not None:
            stream = self.stream or sys.stderr
            stream.write("\r" + " " * max(self.width, 40) + "\r")
            stream.flush()


def compile_showing_progress(dispatcher, args: tuple, what: str, stream=None) -> float:
    """Compile ``dispatcher`` for ``args`` in a worker thread (Ctrl-C reaches the caller at once, as
    :class:`~barbu_sim.core.interrupt.CompileInterrupted`), with the seconds so far and the function being
    compiled rewritten in place on ``stream`` (stderr by default) when it is a terminal; the seconds it took.
    The caller says what it does before and after (one line each), so a log gets exactly those two."""
    stream = stream or sys.stderr
    start = time.perf_counter()
    if not _is_terminal(stream):
        compile_interruptibly(lambda: dispatcher.compile(args), what)
        return time.perf_counter() - start
    with _Parts() as parts:
        ticker = _Ticker(stream, parts)
        try:
            # in a worker thread: Ctrl-C reaches the command at once (core/interrupt.py says why)
            compile_interruptibly(lambda: dispatcher.compile(args), what, ticker)
        finally:
            ticker.clear()
    return time.perf_counter() - start


class Need:
    """One compiled kernel a call needs: ``dispatcher`` for the numba types ``args``, named ``what`` for the
    user, with the estimate of :data:`ESTIMATES_S` under ``estimate_key``.  :func:`probe` tells which a call
    needs; ``barbu-sim compile`` lists and compiles them."""

    def __init__(self, dispatcher, args: tuple, what: str, estimate_key: str):
        self.dispatcher, self.args, self.what, self.estimate_key = dispatcher, tuple(args), what, estimate_key

    @property
    def estimate_s(self) -> int | None:
        """Its compile on the idle 2-core machine, in seconds (None: not measured)."""
        return ESTIMATES_S.get(self.estimate_key)

    def ready(self) -> bool:
        """True when nothing need compile: this process has it, or numba's disk cache does (for this code)."""
        return self.args in self.dispatcher.overloads or in_disk_cache(self.dispatcher, self.args)

    def compile(self, stream=None) -> float:
        """Compile it (and write numba's disk cache), showing progress on ``stream``; the seconds it took."""
        return compile_showing_progress(self.dispatcher, self.args, self.what, stream)

    def cache_place(self) -> str | None:
        """The folder of numba's disk cache for it (None if numba does not say)."""
        try:
            return str(self.dispatcher._cache._cache_path)
        except Exception:  # another numba's internals, or a dispatcher without a cache
            return None


class _Probed(BaseException):
    """Raised by :func:`ensure_compiled` under :func:`probe`: the call stops where it would compile.
    A BaseException, so that a caller's ``except Exception`` cannot turn it into an error of its own."""

    def __init__(self, need: Need):
        super().__init__(need.what)
        self.need = need


_probing = False


def probe(call) -> Need:
    """The kernel ``call()`` would make ready through :func:`ensure_compiled` first, without compiling or
    loading anything: the call is stopped there.  The same code as the commands' picks the kernel, so the
    answer cannot drift from what they compile.  Raises ``RuntimeError`` if ``call`` returns without asking."""
    global _probing
    previous, _probing = _probing, True
    try:
        call()
    except _Probed as asked:
        return asked.need
    finally:
        _probing = previous
    raise RuntimeError(f"{getattr(call, '__name__', call)!r} made no kernel ready through ensure_compiled")


def ensure_compiled(dispatcher, args: tuple, what: str, estimate_key: str):
    """``dispatcher`` compiled for ``args``, as a function of exactly that signature: at once if
    this process has it, else from the disk cache, else compiled here, with a line to stderr
    before and after (and the seconds so far between them, on a terminal).

    ``args`` is the tuple of numba types the kernel takes, ``what`` names it for the user
    ("the Barbu engine"), ``estimate_key`` looks up :data:`ESTIMATES_S`.  The function
    returned converts its arguments to those types (a Python int to uint64, say) as an
    ``@njit(signature)`` kernel does: it never compiles another specialization, silently,
    for the types of whatever it is given.  Under :func:`probe` it compiles nothing and stops the call.
    """
    if _probing:
        raise _Probed(Need(dispatcher, args, what, estimate_key))
    if args not in dispatcher.overloads:
        if in_disk_cache(dispatcher, args):
            dispatcher.compile(args)
        else:
            words = wait_words(ESTIMATES_S.get(estimate_key), *machine_load())
            about = f"{words}; " if words else ""
            print(f"compiling {what} for first use ({about}once: cached afterwards) ...", file=sys.stderr,
                  flush=True)
            took = compile_showing_progress(dispatcher, args, what, sys.stderr)
            print(f"compiled {what} in {took:.0f} s", file=sys.stderr, flush=True)
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


class CompileTimes(_CompileEvents):
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


    def rows(self) -> list[dict]:
        """One row a compiled function, most self time first."""
        return sorted((dict(r) for r in self._rows.values()), key=lambda r: -r["self_seconds"])
