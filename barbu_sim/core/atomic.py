"""Playing a batch on several threads: each thread claims the next chunk of work as it frees up.

A batch kernel plays chunk after chunk in a loop, claiming each chunk's number from a counter
shared by every thread with :func:`claim` (an atomic add), until none are left;
:func:`on_threads` runs such a kernel on ``workers`` Python threads at once, the calling thread
one of them.  The kernels release the GIL (``nogil=True``), so the threads play in parallel.  A
split of the work up front would wait for the slowest core of a shared machine; claimed chunks
let a fast core simply play more of them.  Results do not change: item ``i`` depends only on
``(seed, i)``, not on the thread that plays it.

The threads are Python's, not numba's ``prange``: a ``parallel=True`` kernel compiles its loop as
a second function and optimises the whole engine below it twice more (the Barbu batch engine with
mc compiled 5 s longer, 2 s without it), for no gain in speed.  Each batch kernel writes the same
claim loop out (numba cannot cache a kernel that is handed its chunk function), and
tests/test_claim_loop.py keeps the copies alike.
"""

import threading

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from .interrupt import KERNEL_THREAD


@intrinsic
def claim(typingctx, counter):
    """Atomically add 1 to ``counter[0]`` (a 1-element int64 array); return the value before."""
    if not (isinstance(counter, types.Array) and counter.dtype == types.int64 and counter.ndim == 1):
        return None
    sig = types.int64(counter)

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        ptr = cgutils.get_item_pointer(context, builder, signature.args[0], array, [zero])
        one = context.get_constant(types.int64, 1)
        return builder.atomic_rmw("add", ptr, one, "monotonic")

    return sig, codegen


def on_threads(kernel, workers: int):
    """A function that calls ``kernel(next_chunk, *args)`` on ``workers`` threads at once and returns when all
    have returned: the calling thread is one of them, and ``next_chunk`` is a new counter (a zeroed (1,) int64
    array) that they share.  The kernel must loop claiming chunks with :func:`claim` and release the GIL.
    An exception raised in any thread is raised in the caller once every thread has returned.  The threads
    are named as :func:`~barbu_sim.core.interrupt.call_interruptibly` names its worker: a command interrupted
    while one still plays ends its process (:func:`~barbu_sim.core.interrupt.kernel_still_running`)."""
    def call(*args):
        next_chunk = np.zeros(1, np.int64)
        errors = []

        def work():
            try:
                kernel(next_chunk, *args)
            except BaseException as e:  # raised in the caller's thread below
                errors.append(e)

        others = [threading.Thread(target=work, name=KERNEL_THREAD, daemon=True) for _ in range(max(1, workers) - 1)]
        for thread in others:
            thread.start()
        try:
            kernel(next_chunk, *args)
        finally:
            for thread in others:
                thread.join()
        if errors:
            raise errors[0]
    return call
