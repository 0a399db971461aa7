"""Where the chunks of a run are played: in this process, or as tasks on a Ray cluster.

A backend maps a chunk function over a list of argument tuples and yields the
results **in the order of the list**, whatever order they finish in.  The caller
(:func:`barbu_sim.core.runs.fill_chunks`, the game and comparison drivers) writes
them as they come, so the files, the manifest and every table are the same with
either backend: a chunk is a pure function of its arguments.

* :class:`LocalBackend` calls the function here, one chunk after the other (each
  chunk's kernels use every numba thread).
* :class:`RayBackend` submits each chunk as a Ray task (1 CPU and 1 numba thread
  per task unless told otherwise), keeps a bounded number in flight, and retries
  a task whose worker died (``max_retries``).  The function and its arguments are
  pickled (cloudpickle), so they must be plain data and importable functions;
  every machine of the cluster needs the package (and any plugin file) installed
  at the same path.

Ray is optional (``pip install -e ".[ray]"``); this module imports it only when a
Ray backend is used, and never imports numba in the driver.
"""

from __future__ import annotations

import os
import socket
from collections import deque
from typing import Callable, Iterable, Iterator, Sequence

BACKENDS = ("local", "ray")
RAY_INSTALL = 'pip install -e ".[ray]"'


class BackendError(ValueError):
    """A backend that cannot be used as asked (Ray missing, no cluster at the address, a lost task...)."""


class LocalBackend:
    """Play every chunk in this process, in order."""

    name = "local"

    def connect(self) -> None:
        """Nothing to start."""

    def imap(self, fn: Callable, items: Iterable[Sequence], *, what: str = "chunk") -> Iterator:
        """``fn(*item)`` for each item, in order."""
        for item in items:
            yield fn(*item)

    def imap_chunks(self, play: Callable, merge: Callable, items: Sequence[tuple[int, int]], *,
                    what: str = "chunk") -> Iterator:
        """``merge([play(lo, n)])`` for each ``(lo, n)``, in order."""
        for lo, n in items:
            yield merge([play(lo, n)])

    def describe(self) -> str:
        return "local"


def import_ray():
    """The ``ray`` module, or a :class:`BackendError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise BackendError(f"--backend ray needs Ray, which is not installed: {RAY_INSTALL}") from None
    return ray


def _run_task(fn: Callable, threads: int, args: Sequence):
    """The body of every Ray task: ``fn(*args)`` with ``threads`` numba threads in this worker."""
    import numba  # in the worker only: the driver may stay numba-free

    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    return fn(*args)


def _merge_parts(merge: Callable, *parts):
    """The body of a chunk's last task: ``merge`` of its parts' results (Ray hands them over resolved)."""
    return merge(list(parts))


def _task_failure(ray, error: Exception, what: str) -> Exception:
    """What the driver raises when a task failed or its worker was lost beyond the retries."""
    if isinstance(error, ray.exceptions.RayTaskError) and not isinstance(error.cause, ray.exceptions.RayError):
        # The task raised: a user mistake (ValueError) reads as it does locally; anything
        # else keeps Ray's error, which is also an instance of the cause's class and shows
        # the worker's traceback.
        return error.cause if isinstance(error.cause, ValueError) else error
    return BackendError(f"{what} was lost by the cluster after its retries ({type(error).__name__}: "
                        f"{str(error).splitlines()[0] if str(error) else ''})")


def check_reachable(address: str | None, timeout: float = 5.0) -> None:
    """A ``HOST:PORT`` address must accept a connection: Ray itself would wait minutes for one that does not."""
    if not address or address == "auto" or "://" in address:
        return
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BackendError(f"--ray-address {address!r} is not auto or HOST:PORT (e.g. 10.0.0.5:6379)")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise BackendError(f"no Ray cluster answers at {address} ({e.strerror or e}): start one with "
                           f"`ray start --head` there, or check the address") from None


class RayBackend:
    """Play chunks as Ray tasks; results come back in submission order.

    Parameters
    ----------
    address : ``None`` starts a new local Ray instance (unless this process already
        joined one): never a cluster some other process runs, whatever ``RAY_ADDRESS``
        says; ``"auto"`` joins whatever cluster is running on this machine (``RAY_ADDRESS``,
        else the latest started by ``ray start``): any running cluster, possibly another
        user's; ``HOST:PORT`` joins that cluster.  :meth:`describe` names the cluster
        joined, by its address; runs print it and record it in their manifest.
    threads : numba threads (and CPUs reserved) per task, default 1.
    max_in_flight : tasks submitted but not yet consumed; default twice the
        cluster's CPUs divided by ``threads`` (so no worker waits for the driver).
    max_retries : how often a task whose worker died is run again.
    num_cpus : CPUs of a local instance this backend starts (default: all).
    """

    name = "ray"

    def __init__(self, address: str | None = None, *, threads: int = 1, max_in_flight: int | None = None,
                 max_retries: int = 3, num_cpus: int | None = None):
        if threads < 1:
            raise BackendError(f"threads per task must be at least 1, not {threads}")
        if max_in_flight is not None and max_in_flight < 1:
            raise BackendError(f"max_in_flight must be at least 1, not {max_in_flight}")
        self.address = address or None
        self.threads = threads
        self.max_in_flight = max_in_flight
        self.max_retries = max_retries
        self.num_cpus = num_cpus
        self._ray = import_ray()
        self._remote = self._merge = None
        self.joined: str | None = None  # the address of the cluster connected to, once connected

    def connect(self) -> None:
        """Start or join the cluster (once per process) and prepare the task function."""
        ray = self._ray
        if not ray.is_initialized():
            check_reachable(self.address)
            kwargs = {"include_dashboard": False, "log_to_driver": False, "logging_level": "WARNING"}
            if self.address is None:
                kwargs["num_cpus"] = self.num_cpus or os.cpu_count()
                # Ray runs its workers at niceness 15; a local run's workers should get the
                # machine's cores as the local backend's threads do (RAY_worker_niceness overrides).
                os.environ.setdefault("RAY_worker_niceness", "0")
            try:
                # "local": a new instance of our own; Ray's default (None) would join any running cluster.
                ray.init(address=self.address or "local", **kwargs)
            except (ConnectionError, RuntimeError, ValueError) as e:
                where = f"at {self.address}" if self.address else "on this machine"
                first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                raise BackendError(f"cannot start or reach a Ray cluster {where}: {first}") from None
        if self.joined is None:
            try:
                self.joined = str(ray.get_runtime_context().gcs_address)
            except Exception:  # an older Ray without it: the address stays unknown
                self.joined = "unknown address"
        if self._remote is None:
            self._remote = ray.remote(_run_task).options(num_cpus=self.threads, max_retries=self.max_retries,
                                                         retry_exceptions=False)
            self._merge = ray.remote(_merge_parts).options(num_cpus=1, max_retries=self.max_retries,
                                                           retry_exceptions=False)

    def cluster_cpus(self) -> int:
        """CPUs of the cluster this backend is connected to."""
        self.connect()
        return int(self._ray.cluster_resources().get("CPU", 1))

    def in_flight(self) -> int:
        """How many tasks may be submitted and not yet consumed."""
        if self.max_in_flight is not None:
            return self.max_in_flight
        return max(2, 2 * self.cluster_cpus() // self.threads)

    def imap(self, fn: Callable, items: Iterable[Sequence], *, what: str = "chunk") -> Iterator:
        """``fn(*item)`` for each item, run as Ray tasks, yielded in the order of ``items``.

        At most :meth:`in_flight` tasks are outstanding; when the consumer stops
        early (an error, Ctrl-C, a closed generator) the outstanding tasks are cancelled.
        """
        self.connect()
        fn_ref = self._ray.put(fn)  # shipped once, not with every task

        def submit(item):
            ref = self._remote.remote(fn_ref, self.threads, item)
            return ref, [ref]

        return self._ordered(submit, items, self.in_flight(), what)

    def imap_chunks(self, play: Callable, merge: Callable, items: Sequence[tuple[int, int]], *,
                    what: str = "chunk") -> Iterator:
        """``merge([play(lo, n)])`` for each ``(lo, n)``, in order, each chunk played as one or more tasks.

        When a run has few chunks for the cluster's CPUs, a chunk is played in parts
        (``play`` of consecutive sub-ranges, ``merge`` of their results in order, in a
        task of its own), so every CPU gets work.  ``play`` and ``merge`` must make the
        same result of the parts as of the whole (the runs' records do).
        """
        self.connect()
        ray = self._ray
        items = [tuple(item) for item in items]
        cpus = max(1, self.cluster_cpus() // self.threads)
        parts = max(1, min(cpus, -(-4 * cpus // max(1, len(items)))))  # about 4 tasks per CPU in all
        play_ref, merge_ref = ray.put(play), ray.put(merge)

        def submit(item):
            lo, n = item
            k = min(parts, n)
            bounds = [lo + n * i // k for i in range(k + 1)]
            refs = [self._remote.remote(play_ref, self.threads, (a, b - a)) for a, b in zip(bounds, bounds[1:])]
            merged = self._merge.remote(merge_ref, *refs)
            return merged, [merged, *refs]

        return self._ordered(submit, items, max(2, -(-self.in_flight() // parts)), what)

    def _ordered(self, submit: Callable, items: Iterable[Sequence], limit: int, what: str) -> Iterator:
        """Submit items (``submit(item) -> (result ref, every ref)``), ``limit`` outstanding; yield in order."""
        ray = self._ray
        items = iter(items)
        pending: deque = deque()

        def more() -> bool:
            item = next(items, None)
            if item is None:
                return False
            pending.append((tuple(item), *submit(tuple(item))))
            return True

        try:
            while len(pending) < limit and more():
                pass
            while pending:
                item, head, _ = pending.popleft()
                more()  # keep the cluster busy while the driver waits for the head
                try:
                    result = ray.get(head)
                except ray.exceptions.RayError as e:
                    raise _task_failure(ray, e, f"the {what} {item}") from None
                yield result
        finally:
            for _, _, refs in pending:
                for ref in refs:
                    ray.cancel(ref, force=True)

    def describe(self) -> str:
        """Which cluster the work runs on, by address (once connected)."""
        if self.joined is None:
            return f"ray ({self.address or 'a new local instance'})"
        if self.address is None:
            return f"ray (a new local instance at {self.joined})"
        return f"ray (joined the cluster at {self.joined}, from --ray-address {self.address})"


def make_backend(name: str = "local", address: str | None = None, *, threads: int | None = None):
    """The backend named on the command line (``--backend``, ``--ray-address``, ``--threads``)."""
    name = (name or "local").strip().lower()
    if name not in BACKENDS:
        raise BackendError(f"--backend must be one of {', '.join(BACKENDS)}, not {name!r}")
    if name == "local":
        if address:
            raise BackendError("--ray-address goes with --backend ray")
        return LocalBackend()
    if address is not None and not address.strip():
        raise BackendError("--ray-address is empty: give auto, HOST:PORT, or leave it out for a local instance")
    return RayBackend(address.strip() if address else None, threads=threads or 1)
