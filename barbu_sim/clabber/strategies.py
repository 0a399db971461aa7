"""Clabber play strategies: the built-ins, user plugins, and how the kernels receive them.

A strategy is an ``@njit`` function ``(legal, hand, state, rng) -> card`` (see
:mod:`barbu_sim.clabber.state`).  The kernels call built-ins through a small-int switch and user
strategies through a first-class function pointer (a numba ``cfunc``), so any user file works
without changing the package::

    # my_clabber.py
    from numba import njit
    from barbu_sim.core.bits import highest_bit

    @njit
    def play_high(legal, hand, state, rng):
        return highest_bit(legal)

    $ barbu-sim clabber run --strategy my_clabber.py:play_high
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
from .heuristic import heuristic_strategy

# User strategies travel as first-class function pointers, an experimental numba feature that
# works as documented; the warning would only confuse users.
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

STRATEGY_SIG = types.int64(types.uint64, types.uint64, types.uint64[::1], types.uint64[::1])
STRATEGY_FN = types.FunctionType(STRATEGY_SIG)
USER_FNS = types.UniTuple(STRATEGY_FN, 4)  # one function slot per seat


@njit(inline="always", cache=True)
def random_strategy(legal, hand, state, rng):
    """Uniformly random among the legal cards."""
    return nth_set_bit(legal, rand_below(rng, popcount(legal)))


@njit(cache=True)
def lowest_strategy(legal, hand, state, rng):
    """Always the lowest legal card index (a fixed, predictable player; fills unused function slots)."""
    return lowest_bit(legal)


RANDOM, HEURISTIC, USER = 0, 1, 2  # the kernels' strategy ids


@dataclass(frozen=True)
class Strategy:
    """A strategy as the engine takes it: a name, a built-in id, and the njit function."""

    name: str
    builtin_id: int
    func: object


BUILTINS: dict[str, Strategy] = {
    "random": Strategy("random", RANDOM, random_strategy),
    "heuristic": Strategy("heuristic", HEURISTIC, heuristic_strategy),
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
        raise ValueError(f"unknown strategy {spec!r}: use one of {', '.join(BUILTINS)}, "
                         "path/to/file.py:function or module:function")
    func = load_plugin(name, "strategy")
    if not hasattr(func, "py_func"):
        raise ValueError(f"strategy {spec!r} must be decorated with numba's @njit")
    return Strategy(name, USER, func)


_POINTERS: dict = {}


def function_pointer(func):
    """A numba ``cfunc`` of a strategy: a first-class function the cached kernels accept."""
    key = id(func)
    if key not in _POINTERS:
        try:
            _POINTERS[key] = (func, cfunc(STRATEGY_SIG, cache=func is lowest_strategy)(func.py_func))
        except Exception as e:  # numba's typing errors for a wrong signature
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise ValueError(
                f"strategy {getattr(func, '__name__', func)!r} does not compile with the strategy "
                "signature (legal: uint64, hand: uint64, state: uint64[::1], rng: uint64[::1]) -> int: " + first
            ) from None
    return _POINTERS[key][1]


def seat_strategies(strategies) -> tuple[np.ndarray, tuple, list[Strategy]]:
    """The (4,) int64 built-in ids, the four function slots and the resolved strategies, by seat."""
    if isinstance(strategies, (str, Strategy)) or hasattr(strategies, "py_func"):
        strategies = [strategies] * 4
    resolved = [resolve_strategy(s) for s in strategies]
    if len(resolved) != 4:
        raise ValueError(f"give one strategy or four (one per seat), not {len(resolved)}")
    ids = np.array([s.builtin_id for s in resolved], np.int64)
    fns = tuple(function_pointer(s.func if s.builtin_id == USER else lowest_strategy) for s in resolved)
    return ids, fns, resolved
