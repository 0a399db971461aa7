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
travel to the kernels inside its strategy id.  ``learned`` is the player of
:mod:`barbu_sim.clabber.players.learned`; its name is ``learned@<model id>`` (as manifests record it),
and ``learned@<id>`` is accepted when that model is the one installed.
"""

from __future__ import annotations

from ...core.strategies import Strategy, StrategyRegistry, lowest_strategy, random_strategy
from .heuristic import heuristic_strategy
from .learned import model_id
from .mc import MC_PLAY, is_mc, mc_id, parse_mc

RANDOM, HEURISTIC, USER = 0, 1, 2  # the kernels' strategy ids; mc seats: MC_PLAY plus the samples (mc_id)
LEARNED = 4
assert MC_PLAY not in (RANDOM, HEURISTIC, USER, LEARNED) and not is_mc(LEARNED)

BUILTINS: dict[str, Strategy] = {
    "random": Strategy("random", RANDOM, random_strategy),
    "heuristic": Strategy("heuristic", HEURISTIC, heuristic_strategy),
}


def _mc_strategy(params: str) -> Strategy:
    """``mc`` with the parameters after ``mc:``; its name is the canonical spec (``mc:samples=48``)."""
    samples = parse_mc(params)
    return Strategy(f"mc:samples={samples}", mc_id(samples), lowest_strategy)


def _learned_strategy(params: str) -> Strategy:
    """``learned``: it takes no parameters; its name carries the installed model's id."""
    if params.strip():
        raise ValueError(f"strategy learned takes no parameters (not {params.strip()!r}): give learned, or "
                         f"learned@VERSION for a model (installed: learned@{model_id()})")
    return Strategy(f"learned@{model_id()}", LEARNED, lowest_strategy)


def _learned_version(version: str) -> Strategy:
    """``learned@<model id>``: the learned player, when that model is the one installed."""
    if version != model_id():
        raise ValueError(f"learned@{version} names a learned-player model this installation does not have (its model "
                         f"is learned@{model_id()}, retrained since): play it again with 'learned'")
    return _learned_strategy("")


def canonical_strategy(spec):
    """``spec`` as a run's manifest records it: ``learned`` as ``learned@<model id>``; any other spec unchanged."""
    if isinstance(spec, str) and spec.strip() == "learned":
        return f"learned@{model_id()}"
    return spec


REGISTRY = StrategyRegistry(BUILTINS, USER, {"mc": _mc_strategy, "learned": _learned_strategy},
                            {"learned": _learned_version}, canonical_strategy)
resolve_strategy = REGISTRY.resolve
seat_strategies = REGISTRY.seat_strategies
