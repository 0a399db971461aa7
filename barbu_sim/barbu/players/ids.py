"""The small-int ids by which the kernels switch between Barbu's built-in players.

Its own module, below the players, the mc player and the registry alike, so that each of
them can name the ids without importing the others.  A strategy id's low :data:`KIND_BITS`
bits say which player it is; ``mc`` (and ``pimc``) pack their parameters in the bits above
(:data:`barbu_sim.barbu.players.mc.params.MC_ID`), so an mc seat is told by :func:`is_mc`,
the one test of it, in Python and in the kernels alike.  ``learned`` keeps the slot of its model
there (:data:`LEARNED1`, the first model, where expert iteration starts): :func:`is_learned`, :func:`learned_slot`.
"""

from numba.extending import register_jitable

RANDOM, HEURISTIC, LOWEST, USER, BASIC, MC, LEARNED = 0, 1, 2, 3, 4, 5, 6
KIND_BITS = 4  # the bits of a strategy id that name its player (the ids above are all below 2 ** KIND_BITS)
KIND_MASK = (1 << KIND_BITS) - 1
assert max(RANDOM, HEURISTIC, LOWEST, USER, BASIC, MC, LEARNED) <= KIND_MASK
LEARNED1 = LEARNED | (1 << KIND_BITS)  # the learned player of the model in slot 1 (learned.MODEL_NAMES)


@register_jitable
def is_mc(sid):
    """True for an mc or pimc seat's strategy id (elementwise for an array of ids).

    A plain function in Python; compiled into a kernel that calls it (``register_jitable``).
    """
    return (sid & KIND_MASK) == MC


@register_jitable
def is_learned(sid):
    """True for a learned seat's strategy id, whichever model it plays (elementwise for an array of ids)."""
    return (sid & KIND_MASK) == LEARNED


@register_jitable
def learned_slot(sid):
    """The slot of a learned seat's model in the model array (0: the packaged model; see learned.MODEL_NAMES)."""
    return sid >> KIND_BITS
