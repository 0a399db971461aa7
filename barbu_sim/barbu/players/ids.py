"""The small-int ids by which the kernels switch between Barbu's built-in players.

Its own module, below the players, the mc player and the registry alike, so that each of
them can name the ids without importing the others.  A strategy id's low :data:`KIND_BITS`
bits say which player it is; ``mc`` (and ``pimc``) pack their parameters in the bits above
(:data:`barbu_sim.barbu.players.mc.params.MC_ID`), so an mc seat is told by :func:`is_mc`,
the one test of it, in Python and in the kernels alike.
"""

from numba.extending import register_jitable

RANDOM, HEURISTIC, LOWEST, USER, BASIC, MC, LEARNED = 0, 1, 2, 3, 4, 5, 6
KIND_BITS = 4  # the bits of a strategy id that name its player (the ids above are all below 2 ** KIND_BITS)
KIND_MASK = (1 << KIND_BITS) - 1
assert max(RANDOM, HEURISTIC, LOWEST, USER, BASIC, MC, LEARNED) <= KIND_MASK


@register_jitable
def is_mc(sid):
    """True for an mc or pimc seat's strategy id (elementwise for an array of ids).

    A plain function in Python; compiled into a kernel that calls it (``register_jitable``).
    """
    return (sid & KIND_MASK) == MC
