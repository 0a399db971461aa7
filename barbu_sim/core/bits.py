"""Bit helpers for uint64 card masks, compiled to single LLVM instructions.

numba has no public popcount / count-trailing-zeros, so these wrap llvmlite's
``ctpop``, ``cttz`` and ``ctlz`` intrinsics.  Every mask passed here must be
``np.uint64``: mixing ``uint64`` with ``int64`` in numba silently promotes to
``float64``.  The helpers are game-agnostic (Barbu and Clabber share them).
"""

import llvmlite.binding as llvm
from llvmlite import ir as llvm_ir
import numpy as np
from numba import types
from .jit import njit
from numba.core import cgutils
from numba.extending import intrinsic

# BMI2's pdep picks the n-th set bit in one instruction.  It is microcoded (slow) on
# AMD Zen 1/2, fast elsewhere; the portable loop is used where BMI2 is missing.
# numba's disk cache is keyed on the CPU, so a cached choice never crosses machines.
HAS_BMI2 = "+bmi2" in llvm.get_host_cpu_features().flatten().split(",")

ONE = np.uint64(1)


def _count_bits(count):
    """A numba intrinsic of one uint64 returning uint64: ``count(builder, context, x)`` builds the LLVM instruction."""
    @intrinsic
    def bit_count(typingctx, x):
        if x != types.uint64:
            return None
        sig = types.uint64(types.uint64)

        def codegen(context, builder, signature, args):
            return count(builder, context, args[0])

        return sig, codegen

    return bit_count


# The set bits, the trailing zeros and the leading zeros of a uint64 (a zero input is defined: 64 zeros).
_ctpop = _count_bits(lambda builder, context, x: builder.ctpop(x))
_cttz = _count_bits(lambda builder, context, x: builder.cttz(x, context.get_constant(types.boolean, False)))
_ctlz = _count_bits(lambda builder, context, x: builder.ctlz(x, context.get_constant(types.boolean, False)))


@intrinsic
def _pdep(typingctx, src, mask):
    if src != types.uint64 or mask != types.uint64:
        return None
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        fnty = llvm_ir.FunctionType(llvm_ir.IntType(64), [llvm_ir.IntType(64), llvm_ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return sig, codegen


@njit(cache=True)
def popcount(mask):
    """Number of set bits of a uint64 mask, as int64."""
    return np.int64(_ctpop(mask))


@njit(cache=True)
def lowest_bit(mask):
    """Index of the lowest set bit of a non-zero uint64 mask (64 for 0)."""
    return np.int64(_cttz(mask))


@njit(cache=True)
def highest_bit(mask):
    """Index of the highest set bit of a non-zero uint64 mask (-1 for 0)."""
    return np.int64(63) - np.int64(_ctlz(mask))


@njit(cache=True)
def _nth_set_bit_portable(mask, n):
    m = mask
    for _ in range(n):
        m &= m - ONE
    return np.int64(_cttz(m))


@njit(cache=True)
def _nth_set_bit_pdep(mask, n):
    return np.int64(_cttz(_pdep(ONE << np.uint64(n), mask)))


if HAS_BMI2:
    nth_set_bit = _nth_set_bit_pdep
else:
    nth_set_bit = _nth_set_bit_portable
nth_set_bit.__doc__ = "Index of the ``n``-th (0-based, from the low end) set bit of ``mask``."



@intrinsic
def pick(typingctx, cond, a, b):
    """``a if cond else b`` without a branch: an LLVM ``select`` marked unpredictable, which the
    x86 back end keeps as a conditional move.  For conditions on random cards, where a branch
    would be mispredicted half the time (LLVM otherwise turns such selects back into branches)."""
    if not isinstance(cond, types.Boolean) or a != b:
        return None
    sig = a(cond, a, b)

    def codegen(context, builder, signature, args):
        inst = builder.select(*args)
        inst.set_metadata("unpredictable", builder.module.add_metadata([]))
        return inst

    return sig, codegen
