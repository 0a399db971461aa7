"""Four values by seat held as four scalars, for the hot searches of both games.

A search that returns or accumulates one value per seat keeps them in four local scalars (registers)
rather than an array: the kernels run without reference counting and cannot allocate one per call.
These helpers add to and read the entry of a seat given at run time.
"""

from .jit import njit


@njit(cache=True)
def add_at(v0, v1, v2, v3, seat, x):
    """The four values with ``x`` added to ``seat``'s (0..3; any other seat is taken as 3)."""
    if seat == 0:
        v0 += x
    elif seat == 1:
        v1 += x
    elif seat == 2:
        v2 += x
    else:
        v3 += x
    return v0, v1, v2, v3


@njit(cache=True)
def value_at(v0, v1, v2, v3, seat):
    """``seat``'s value of the four (0..3; any other seat reads the last)."""
    return v0 if seat == 0 else (v1 if seat == 1 else (v2 if seat == 2 else v3))
