"""An atomic counter for the parallel kernels: threads claim chunks of work as they free up.

numba's ``prange`` splits its iterations evenly between threads up front.  On a
shared machine one core is often slower than the other for a while, and an even
split then waits for the slow one.  Instead, each thread loops claiming the next
chunk from a shared counter with :func:`claim`, so a fast core simply plays more
chunks.  Results do not change: deal ``i`` depends only on ``(seed, i)``.

Each parallel kernel writes the same claim loop out (a ``prange`` over the workers, each
claiming chunk numbers ``k`` until none are left and playing items ``k * chunk`` up to
``min(n, k * chunk + chunk)``): numba cannot cache a kernel that hands its chunk function
to a shared loop.  tests/test_claim_loop.py holds the loop's form and keeps the copies alike.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


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
