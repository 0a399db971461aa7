"""Clabber play strategies: the built-ins, user plugins, and how the kernels receive them.

A strategy is an ``@njit`` function ``(legal, hand, state, rng) -> card`` (see
:mod:`barbu_sim.clabber.state` for the state, :mod:`barbu_sim.core.strategies` for how plugins
reach the kernels), so any user file works without changing the package::

    # my_clabber.py
    from numba import njit
    from barbu_sim.core.bits import highest_bit

    @njit
    def play_high(legal, hand, state, rng):
        return highest_bit(legal)

    $ barbu-sim clabber run --strategy my_clabber.py:play_high
"""

from __future__ import annotations

from ..core.strategies import Strategy, StrategyRegistry, random_strategy
from .heuristic import heuristic_strategy

RANDOM, HEURISTIC, USER = 0, 1, 2  # the kernels' strategy ids

BUILTINS: dict[str, Strategy] = {
    "random": Strategy("random", RANDOM, random_strategy),
    "heuristic": Strategy("heuristic", HEURISTIC, heuristic_strategy),
}
REGISTRY = StrategyRegistry(BUILTINS, USER)
resolve_strategy = REGISTRY.resolve
seat_strategies = REGISTRY.seat_strategies
