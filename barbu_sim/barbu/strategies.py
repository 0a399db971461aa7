"""Barbu's play strategies: the built-in ``random``, ``basic``, ``heuristic`` and ``lowest``, and user plugins.

A strategy is an ``@njit`` function ``(legal, hand, state, rng) -> card``; see
:mod:`barbu_sim.barbu.state` for what ``state`` holds and
:mod:`barbu_sim.core.strategies` for how plugins reach the kernels::

    # my_strategy.py
    from numba import njit
    from barbu_sim.core.bits import highest_bit

    @njit
    def play_high(legal, hand, state, rng):
        return highest_bit(legal)

    $ barbu-sim play --contract trumps --strategy my_strategy.py:play_high
"""

from __future__ import annotations

from ..core.strategies import Strategy, StrategyRegistry, lowest_strategy, random_strategy
from .basic import basic_strategy
from .heuristic import heuristic_strategy
from .mc import ROLLOUTS, mc_id, parse_mc
from .strategy_ids import BASIC, HEURISTIC, LOWEST, RANDOM, USER

__all__ = ["BASIC", "BUILTINS", "HEURISTIC", "LOWEST", "RANDOM", "REGISTRY", "USER", "resolve_strategy",
           "seat_strategies"]

BUILTINS: dict[str, Strategy] = {
    "random": Strategy("random", RANDOM, random_strategy),
    "basic": Strategy("basic", BASIC, basic_strategy),
    "heuristic": Strategy("heuristic", HEURISTIC, heuristic_strategy),
    "lowest": Strategy("lowest", LOWEST, lowest_strategy),
}


def _mc_strategy(params: str) -> Strategy:
    """``mc`` with the parameters after ``mc:`` (see :mod:`barbu_sim.barbu.mc`)."""
    samples, rollout = parse_mc(params)
    return Strategy(f"mc:samples={samples},rollout={rollout}", mc_id(samples, ROLLOUTS[rollout]), lowest_strategy)


REGISTRY = StrategyRegistry(BUILTINS, USER, {"mc": _mc_strategy})
resolve_strategy = REGISTRY.resolve
seat_strategies = REGISTRY.seat_strategies
