"""The state array the kernels give the built-in players: the fields a strategy reads, then scratch space.

The play loops run without reference counting and so cannot allocate: the players that need
room to work find it in the state array, after the fields of :mod:`barbu_sim.barbu.state`
(all a plugin sees).  The engine's loops and :class:`barbu_sim.barbu.position.Position`
allocate arrays of :data:`FULL_STATE_SIZE`.
"""

from ...core.fields import ArrayFields
from ..state import STATE_SIZE
from .learned import LEARNED_WORK_SIZE
from .mc.layouts import MC_WORK_SIZE

FULL_STATE = ArrayFields([
    ("fields", STATE_SIZE),  # what every strategy reads (state.STATE)
    ("mc_work", MC_WORK_SIZE),  # the mc player's work space (mc.layouts.MC_WORK)
    ("learned_work", LEARNED_WORK_SIZE),  # the learned player's (learned.LEARNED_WORK)
])
LEARNED_AT = FULL_STATE.offset("learned_work")
FULL_STATE_SIZE = FULL_STATE.size
# The mc player finds its work space right after the fields (it sits below this module, so it reads STATE_SIZE).
assert FULL_STATE.offset("mc_work") == STATE_SIZE
