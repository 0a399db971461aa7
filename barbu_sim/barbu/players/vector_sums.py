"""Float32 vector operations for the learned player's network: ``a[i:i+16] += w[j:j+16] * s``, and the
output layer's ``sum(max(a[i:i+16], 0) * w[j:j+16])`` added as a tree.

The network adds each nonzero feature's weights into the hidden units' sums.  Written as a loop
over the units, numba's code keeps each sum in memory and adds them one at a time: the compiler
cannot tell the sums from the weights (both are arrays it is handed), so it may not load the
weights of the next unit before storing the sum of this one.  :func:`add_scaled16` loads the 16
sums and the 16 weights first, then multiplies and adds them lane by lane and stores the sums: the
same float32 operations, each lane rounded exactly as the one-by-one loop rounds it (no fused
multiply-add), in one vector instruction of each kind.

The output layer is a dot product of the rectified sums with the output weights.  Added one unit
after another, each add waits for the one before (16 or 32 of them a card: the largest part of the
network's time); :func:`relu_dot16` multiplies the 16 lanes at once and adds them as a tree of halves
(lanes ``j`` and ``j + 8``, then ``j + 4``, ``j + 2`` and ``j + 1``): four adds deep a block.  That order is the
model's arithmetic (``tests/test_features_reference.py`` holds it in plain Python).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

LANES = 16


def _float32_arrays(*arrays):
    return all(isinstance(a, types.Array) and a.dtype == types.float32 for a in arrays)


def _lanes(context, builder, array_type, array, at):
    """A pointer to the LANES float32 values from ``array[at]``, as one vector."""
    ptr = builder.gep(context.make_array(array_type)(context, builder, array).data, [at])
    return builder.bitcast(ptr, ir.VectorType(ir.FloatType(), LANES).as_pointer())


@intrinsic
def copy16(typingctx, a, a_at, w, w_at):
    """``a[a_at:a_at+16] = w[w_at:w_at+16]`` on float32 arrays, as one vector load and store (the sums that
    :func:`add_scaled16` then reads as one vector are written as one).  No bounds are checked."""
    if not _float32_arrays(a, w):
        return None
    sig = types.void(a, a_at, w, w_at)

    def codegen(context, builder, signature, args):
        a_val, a_at_val, w_val, w_at_val = args
        values = builder.load(_lanes(context, builder, signature.args[2], w_val, w_at_val), align=4)
        builder.store(values, _lanes(context, builder, signature.args[0], a_val, a_at_val), align=4)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def add_scaled16(typingctx, a, a_at, w, w_at, s):
    """``a[a_at:a_at+16] += w[w_at:w_at+16] * s`` on float32 arrays, as 16 float32 multiplies then 16 adds.

    No bounds are checked: the callers' offsets keep both runs of 16 inside their arrays.
    """
    if not (_float32_arrays(a, w) and s == types.float32):
        return None
    sig = types.void(a, a_at, w, w_at, s)

    def codegen(context, builder, signature, args):
        a_val, a_at_val, w_val, w_at_val, s_val = args
        vec = ir.VectorType(ir.FloatType(), LANES)
        a_ptr = _lanes(context, builder, signature.args[0], a_val, a_at_val)
        w_ptr = _lanes(context, builder, signature.args[2], w_val, w_at_val)
        sums = builder.load(a_ptr, align=4)
        weights = builder.load(w_ptr, align=4)
        one = builder.insert_element(ir.Constant(vec, ir.Undefined), s_val, ir.Constant(ir.IntType(32), 0))
        splat = builder.shuffle_vector(one, ir.Constant(vec, ir.Undefined),
                                       ir.Constant(ir.VectorType(ir.IntType(32), LANES), [0] * LANES))
        builder.store(builder.fadd(sums, builder.fmul(weights, splat)), a_ptr, align=4)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def relu_dot16(typingctx, a, a_at, w, w_at):
    """``sum(max(a[a_at+j], 0) * w[w_at+j] for j < 16)`` on float32 arrays, as a float32.

    The 16 products are made at once (a unit at or below 0 gives 0: a select, so a NaN gives 0 too), then
    added as a tree of halves: lane ``j`` plus lane ``j + 8`` for j < 8, then ``j + 4``, ``j + 2`` and
    ``j + 1``; that order is the result's rounding.  No bounds are checked.
    """
    if not _float32_arrays(a, w):
        return None
    sig = types.float32(a, a_at, w, w_at)

    def codegen(context, builder, signature, args):
        a_val, a_at_val, w_val, w_at_val = args
        vec = ir.VectorType(ir.FloatType(), LANES)
        units = builder.load(_lanes(context, builder, signature.args[0], a_val, a_at_val), align=4)
        weights = builder.load(_lanes(context, builder, signature.args[2], w_val, w_at_val), align=4)
        zero = ir.Constant(vec, [0.0] * LANES)
        terms = builder.fmul(builder.select(builder.fcmp_ordered(">", units, zero), units, zero), weights)
        n = LANES
        while n > 1:  # add the upper half of the lanes to the lower half
            n //= 2
            low = builder.shuffle_vector(terms, terms, ir.Constant(ir.VectorType(ir.IntType(32), n), list(range(n))))
            high = builder.shuffle_vector(terms, terms,
                                          ir.Constant(ir.VectorType(ir.IntType(32), n), list(range(n, 2 * n))))
            terms = builder.fadd(low, high)
        return builder.extract_element(terms, ir.Constant(ir.IntType(32), 0))

    return sig, codegen
