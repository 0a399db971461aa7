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

``mc[:samples=N]`` is the Monte-Carlo player of :mod:`barbu_sim.clabber.players.mc`; its samples
travel to the kernels inside its strategy id.
"""

from __future__ import annotations

from ...core.strategies import Strategy, StrategyRegistry, lowest_strategy, random_strategy
from .heuristic import heuristic_strategy
from .mc import MC_PLAY, mc_id, parse_mc

RANDOM, HEURISTIC, USER = 0, 1, 2  # the kernels' strategy ids; mc seats: MC_PLAY plus the samples (mc_id)
assert MC_PLAY not in (RANDOM, HEURISTIC, USER)

BUILTINS: dict[str, Strategy] = {
    "random": Strategy("random", RANDOM, random_strategy),
    "heuristic": Strategy("heuristic", HEURISTIC, heuristic_strategy),
}


def _mc_strategy(params: str) -> Strategy:
    """``mc`` with the parameters after ``mc:``; its name is the canonical spec (``mc:samples=48``)."""
    samples = parse_mc(params)
    return Strategy(f"mc:samples={samples}", mc_id(samples), lowest_strategy)


REGISTRY = StrategyRegistry(BUILTINS, USER, {"mc": _mc_strategy})
resolve_strategy = REGISTRY.resolve
seat_strategies = REGISTRY.seat_strategies
