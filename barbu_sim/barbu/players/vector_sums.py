"""One float32 vector operation for the learned player's network: ``a[i:i+16] += w[j:j+16] * s``.

The network adds each nonzero feature's weights into the hidden units' sums.  Written as a loop
over the units, numba's code keeps each sum in memory and adds them one at a time: the compiler
cannot tell the sums from the weights (both are arrays it is handed), so it may not load the
weights of the next unit before storing the sum of this one.  :func:`add_scaled16` loads the 16
sums and the 16 weights first, then multiplies and adds them lane by lane and stores the sums: the
same float32 operations, each lane rounded exactly as the one-by-one loop rounds it (no fused
multiply-add), in one vector instruction of each kind.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

LANES = 16


@intrinsic
def add_scaled16(typingctx, a, a_at, w, w_at, s):
    """``a[a_at:a_at+16] += w[w_at:w_at+16] * s`` on float32 arrays, as 16 float32 multiplies then 16 adds.

    No bounds are checked: the callers' offsets keep both runs of 16 inside their arrays.
    """
    if not (isinstance(a, types.Array) and isinstance(w, types.Array) and a.dtype == types.float32
            and w.dtype == types.float32 and s == types.float32):
        return None
    sig = types.void(a, a_at, w, w_at, s)

    def codegen(context, builder, signature, args):
        a_val, a_at_val, w_val, w_at_val, s_val = args
        vec = ir.VectorType(ir.FloatType(), LANES)
        a_ptr = builder.gep(context.make_array(signature.args[0])(context, builder, a_val).data, [a_at_val])
        w_ptr = builder.gep(context.make_array(signature.args[2])(context, builder, w_val).data, [w_at_val])
        a_ptr = builder.bitcast(a_ptr, vec.as_pointer())
        w_ptr = builder.bitcast(w_ptr, vec.as_pointer())
        sums = builder.load(a_ptr, align=4)
        weights = builder.load(w_ptr, align=4)
        one = builder.insert_element(ir.Constant(vec, ir.Undefined), s_val, ir.Constant(ir.IntType(32), 0))
        splat = builder.shuffle_vector(one, ir.Constant(vec, ir.Undefined),
                                       ir.Constant(ir.VectorType(ir.IntType(32), LANES), [0] * LANES))
        builder.store(builder.fadd(sums, builder.fmul(weights, splat)), a_ptr, align=4)
        return context.get_dummy_value()

    return sig, codegen
