"""What every game's play strategies share: the signature, the registry, user plugins, function pointers.

A strategy is an ``@njit`` function ``(legal, hand, state, rng) -> card``: the legal
cards and the hand as uint64 masks, the game's state array (each game documents
its own), and a one-element random state for :func:`barbu_sim.core.rng.rand_below`.
The kernels call a game's built-ins through a small-int switch (inlined, fast) and
user strategies through a first-class function pointer (a numba ``cfunc``), so any
user file works without changing the package, and the kernels are compiled once.
"""

from __future__ import annotations

import inspect
import warnings
from dataclasses import dataclass

import numpy as np
from numba import cfunc, types
from .jit import njit
from numba.core.errors import NumbaExperimentalFeatureWarning

from .bits import lowest_bit, nth_set_bit, popcount
from .plugins import is_plugin_spec, load_plugin
from .rng import rand_below
from .seats import N_SEATS

# User strategies travel as first-class function pointers, an experimental numba feature
# that works as documented; the warning would only confuse users.
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

STRATEGY_SIG = types.int64(types.uint64, types.uint64, types.uint64[::1], types.uint64[::1])
STRATEGY_FN = types.FunctionType(STRATEGY_SIG)
USER_FNS = types.UniTuple(STRATEGY_FN, N_SEATS)  # one function slot per seat
RAISED = -(1 << 62)  # what a user strategy's function pointer returns when the strategy raised


@njit(inline="always", cache=True)
def random_strategy(legal, hand, state, rng):
    """Uniformly random among the legal cards."""
    return nth_set_bit(legal, rand_below(rng, popcount(legal)))


@njit(inline="always", cache=True)
def lowest_strategy(legal, hand, state, rng):
    """Always the lowest legal card index: a fixed, trivially predictable player (for tests)."""
    return lowest_bit(legal)


@dataclass(frozen=True)
class Strategy:
    """A strategy as the engine takes it: a name, a built-in id (or the game's user id), and the njit function."""

    name: str
    builtin_id: int
    func: object


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


def _raises_always(func) -> Exception | None:
    """The exception ``func`` raises when called in Python on a plain position, if it raises one.

    A strategy that raises on every path compiles to a function returning nothing, which
    numba reports as a signature mismatch: calling it once shows the user's real error.
    """
    py_func = getattr(func, "py_func", None)
    if py_func is None:
        return None
    try:  # a function that cannot take the four arguments has a wrong signature: numba's error says so
        inspect.signature(py_func).bind(0, 0, 0, 0)
    except (TypeError, ValueError):
        return None
    try:
        py_func(np.uint64(0xFF), np.uint64(0xFF), np.zeros(256, np.uint64), np.ones(1, np.uint64))
    except Exception as e:  # the user's own exception, whatever it is
        return e
    return None


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
            raised = _raises_always(func)
            if raised is not None:  # it types as returning nothing because it raises on every path
                raise ValueError(f"strategy {getattr(func, '__name__', func)!r} raised {type(raised).__name__}: "
                                 f"{raised} (it raises whatever it is given, so it never returns a card)") from None
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise ValueError(
                f"strategy {getattr(func, '__name__', func)!r} does not compile with the strategy "
                "signature (legal: uint64, hand: uint64, state: uint64[::1], rng: uint64[::1]) -> int: "
                + first
            ) from None
    return _POINTERS[key][1]


class StrategyRegistry:
    """One game's strategies: its built-ins by name, and user plugins under the game's ``user_id``.

    ``parametric`` maps the name of a built-in that takes parameters (``mc`` in
    ``mc:samples=64``) to a function of the text after the colon that returns its
    :class:`Strategy` (or raises ValueError); such names are never plugin specs.
    ``versioned`` maps the name of a built-in whose behaviour has versions (a trained model)
    to a function of the text after ``@`` (``learned@3f2a9c1b7d20``) that returns its
    :class:`Strategy` when that version is the one installed (or raises ValueError);
    ``canonical`` maps such a name to ``name@<version installed>`` (for messages).  A built-in
    without parameters given some (``learned:samples=3``) is refused saying what it takes.
    """

    def __init__(self, builtins: dict[str, Strategy], user_id: int, parametric: dict | None = None,
                 versioned: dict | None = None, canonical=None):
        self.builtins = builtins
        self.user_id = user_id
        self.parametric = parametric or {}
        self.versioned = versioned or {}
        self.canonical = canonical

    def resolve(self, spec) -> Strategy:
        """A :class:`Strategy` from a built-in name, ``path/to/file.py:func``, ``module:func`` or an njit function."""
        if isinstance(spec, Strategy):
            return spec
        if not isinstance(spec, str):
            if not hasattr(spec, "py_func"):
                raise ValueError(f"strategy {spec!r} is not an @njit function")
            return Strategy(getattr(spec, "__name__", "user"), self.user_id, spec)
        name = spec.strip()
        if name in self.builtins:
            return self.builtins[name]
        base, at, version = name.partition("@")
        if at and base.strip() in self.versioned:
            return self.versioned[base.strip()](version.strip())
        head, _, params = name.partition(":")
        if head.strip() in self.parametric:
            return self.parametric[head.strip()](params)
        if head.strip() in self.builtins and ("=" in params or not params.strip()):
            # NAME=VALUE is no function's name: not a plugin module that happens to share a built-in's name
            raise ValueError(self._no_parameters(head.strip(), params))
        if not is_plugin_spec(name):
            raise ValueError(
                f"unknown strategy {spec!r}: use one of {', '.join([*self.builtins, *self.parametric])}, "
                "path/to/file.py:function or module:function"
            )
        try:
            func = load_plugin(name, "strategy")
        except ValueError:
            if head.strip() in self.builtins:  # no module of that name either: it was meant as the built-in
                raise ValueError(self._no_parameters(head.strip(), params)) from None
            raise
        if not hasattr(func, "py_func"):
            raise ValueError(f"strategy {spec!r} must be decorated with numba's @njit")
        return Strategy(name, self.user_id, func)

    def _no_parameters(self, name: str, params: str) -> str:
        """What to say of ``name:params`` when the built-in ``name`` takes no parameters: what it does take."""
        given = f"not {params.strip()!r}" if params.strip() else "nothing after the colon"
        message = f"strategy {name} takes no parameters ({given}): give {name}"
        if name in self.versioned:
            message += f", or {name}@VERSION for a version of it (installed: {self.versioned_name(name)})"
        if self.parametric:
            message += f"; the players that take parameters: {', '.join(self.parametric)}"
        return message

    def versioned_name(self, name: str) -> str:
        """``name@<version installed>`` of a versioned built-in, as :func:`canonical` names it (else ``name``)."""
        return self.canonical(name) if self.canonical is not None else name

    def seat_strategies(self, strategies) -> tuple[np.ndarray, tuple, list[Strategy]]:
        """What the kernels take for one strategy or four (one per seat).

        Returns the (4,) int64 built-in ids, the four function slots (``USER_FNS``) and
        the resolved :class:`Strategy` of each seat (for error messages).
        """
        if isinstance(strategies, (str, Strategy)) or hasattr(strategies, "py_func"):
            strategies = [strategies] * N_SEATS
        resolved = [self.resolve(s) for s in strategies]
        if len(resolved) != N_SEATS:
            raise ValueError(f"give one strategy or four (one per seat), not {len(resolved)}")
        ids = np.array([s.builtin_id for s in resolved], np.int64)
        # Built-in seats never call their slot; it still needs a function of the right type.
        fns = tuple(function_pointer(s.func if s.builtin_id == self.user_id else lowest_strategy) for s in resolved)
        return ids, fns, resolved


def call_again(strategy: Strategy, legal, hand, state, rng) -> int:
    """Call ``strategy`` here, in Python, on the state a kernel saved from a failed play, and
    return the value it gives (an exception it raises propagates).

    numba carries neither an exception nor an out-of-range value out of a kernel (the
    kernel only knows the play failed), so the error message is made from this call.
    """
    return strategy.func(np.uint64(legal), np.uint64(hand), np.ascontiguousarray(state, dtype=np.uint64).copy(),
                         np.array([rng], np.uint64))


def not_a_card_message(strategy: Strategy, legal, hand, state, rng) -> str:
    """What to say of a strategy whose play was not a card (0..51): the value it returns on that state."""
    try:
        value = call_again(strategy, legal, hand, state, rng)
    except Exception as e:  # it raised this time: say that instead
        return f"raised {type(e).__name__}: {e}"
    return f"returned {value!r}, which is not a card (cards are 0..51)"

