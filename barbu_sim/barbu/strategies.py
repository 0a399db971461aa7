"""Play strategies: the registry of built-ins, user plugins, and how the kernels receive them.

A strategy is an ``@njit`` function ``(legal, hand, state, rng) -> card``; see
:mod:`barbu_sim.barbu.state` for what ``state`` holds.  The kernels call built-ins
through a small-int switch (inlined, fast) and user strategies through a
first-class function pointer, so any user file works without changing the
package::

    # my_strategy.py
    from numba import njit
    from barbu_sim.core.bits import highest_bit

    @njit
    def play_high(legal, hand, state, rng):
        return highest_bit(legal)

    $ barbu-sim play --contract trumps --strategy my_strategy.py:play_high
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from numba import cfunc, njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning

from ..core.bits import lowest_bit, nth_set_bit, popcount
from ..core.plugins import is_plugin_spec, load_plugin
from ..core.rng import rand_below
from ..core.seats import N_SEATS
from .heuristic import heuristic_strategy

# User strategies travel as first-class function pointers, an experimental numba feature
# that works as documented; the warning would only confuse users.
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

STRATEGY_SIG = types.int64(types.uint64, types.uint64, types.uint64[::1], types.uint64[::1])
RAISED = -(1 << 62)  # what a user strategy's function pointer returns when the strategy raised
STRATEGY_FN = types.FunctionType(STRATEGY_SIG)
USER_FNS = types.UniTuple(STRATEGY_FN, N_SEATS)  # one function slot per seat


@njit(inline="always", cache=True)
def random_strategy(legal, hand, state, rng):
    """Uniformly random among the legal cards."""
    return nth_set_bit(legal, rand_below(rng, popcount(legal)))


@njit(inline="always", cache=True)
def lowest_strategy(legal, hand, state, rng):
    """Always the lowest legal card index: a fixed, trivially predictable player (for tests)."""
    return lowest_bit(legal)


# ---------------------------------------------------------------- registry
RANDOM, HEURISTIC, LOWEST, USER = 0, 1, 2, 3  # the kernels' strategy ids


@dataclass(frozen=True)
class Strategy:
    """A strategy as the engine takes it: a name, a built-in id, and the njit function."""

    name: str
    builtin_id: int
    func: object


BUILTINS: dict[str, Strategy] = {
    "random": Strategy("random", RANDOM, random_strategy),
    "heuristic": Strategy("heuristic", HEURISTIC, heuristic_strategy),
    "lowest": Strategy("lowest", LOWEST, lowest_strategy),
}


def resolve_strategy(spec) -> Strategy:
    """A :class:`Strategy` from a built-in name, ``path/to/file.py:func``, ``module:func`` or an njit function."""
    if isinstance(spec, Strategy):
        return spec
    if not isinstance(spec, str):
        if not hasattr(spec, "py_func"):
            raise ValueError(f"strategy {spec!r} is not an @njit function")
        return Strategy(getattr(spec, "__name__", "user"), USER, spec)
    name = spec.strip()
    if name in BUILTINS:
        return BUILTINS[name]
    if not is_plugin_spec(name):
        raise ValueError(
            f"unknown strategy {spec!r}: use one of {', '.join(BUILTINS)}, "
            "path/to/file.py:function or module:function"
        )
    func = load_plugin(name, "strategy")
    if not hasattr(func, "py_func"):
        raise ValueError(f"strategy {spec!r} must be decorated with numba's @njit")
    return Strategy(name, USER, func)


# ---------------------------------------------------------------- what the kernels receive
_POINTERS: dict = {}


def _guarded(func):
    """``func`` wrapped so that an exception it raises comes back as the card :data:`RAISED`.

    numba cannot carry an exception out of a cfunc (it would print "Exception
    ignored" and return garbage), so the kernels learn of it by this value and the
    Python side calls the strategy again on the same state to show its message.
    """
    def guarded(legal, hand, state, rng):
        try:
            return func(legal, hand, state, rng)
        except Exception:
            return RAISED
    return guarded


def function_pointer(func):
    """A numba ``cfunc`` of a strategy: a first-class function the cached kernels accept.

    Dispatchers of different functions are different numba types, so four of them
    cannot share one kernel signature; their cfuncs all have the one FunctionType.
    """
    key = id(func)
    if key not in _POINTERS:
        try:
            if func is lowest_strategy:  # the placeholder in built-in seats' slots: never called, cached on disk
                pointer = cfunc(STRATEGY_SIG, cache=True)(func.py_func)
            else:
                pointer = cfunc(STRATEGY_SIG)(_guarded(func))
            _POINTERS[key] = (func, pointer)
        except Exception as e:  # numba's typing errors for a wrong signature
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise ValueError(
                f"strategy {getattr(func, '__name__', func)!r} does not compile with the strategy "
                "signature (legal: uint64, hand: uint64, state: uint64[::1], rng: uint64[::1]) -> int: "
                + first
            ) from None
    return _POINTERS[key][1]


def seat_strategies(strategies) -> tuple[np.ndarray, tuple, list[Strategy]]:
    """What the kernels take for one strategy or four (one per seat).

    Returns the (4,) int64 built-in ids, the four function slots (``USER_FNS``) and
    the resolved :class:`Strategy` of each seat (for error messages).
    """
    if isinstance(strategies, (str, Strategy)) or hasattr(strategies, "py_func"):
        strategies = [strategies] * N_SEATS
    resolved = [resolve_strategy(s) for s in strategies]
    if len(resolved) != N_SEATS:
        raise ValueError(f"give one strategy or four (one per seat), not {len(resolved)}")
    ids = np.array([s.builtin_id for s in resolved], np.int64)
    # Built-in seats never call their slot; it still needs a function of the right type.
    fns = tuple(function_pointer(s.func if s.builtin_id == USER else lowest_strategy) for s in resolved)
    return ids, fns, resolved
