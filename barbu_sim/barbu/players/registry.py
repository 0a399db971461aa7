"""Barbu's play strategies: the built-in ``random``, ``basic``, ``heuristic``, ``lowest``, ``learned`` (and
``learned1``, the learned player's first model, where expert iteration starts), ``mc`` (the strongest search: rollouts
by ``learned``), ``mc1`` (``mc`` with ``heuristic`` rollouts, as ``mc`` was until it took ``learned``'s, kept card for
card) and ``pimc``, and user plugins.

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

from ...core.strategies import Strategy, StrategyRegistry, lowest_strategy, random_strategy
from .basic import basic_strategy
from .heuristic import heuristic_strategy
from .learned import MODEL_NAMES, learned1_func, learned_func, model_id
from .mc.params import needs_model, parse_mc
from .ids import BASIC, HEURISTIC, LEARNED, LEARNED1, LOWEST, RANDOM, USER

__all__ = ["BASIC", "BUILTINS", "HEURISTIC", "LEARNED", "LOWEST", "RANDOM", "REGISTRY", "USER", "canonical_strategy",
           "resolve_strategy", "seat_strategies"]

BUILTINS: dict[str, Strategy] = {
    "random": Strategy("random", RANDOM, random_strategy),
    "basic": Strategy("basic", BASIC, basic_strategy),
    "heuristic": Strategy("heuristic", HEURISTIC, heuristic_strategy),
    "lowest": Strategy("lowest", LOWEST, lowest_strategy),
    "learned": Strategy("learned", LEARNED, learned_func),
    "learned1": Strategy("learned1", LEARNED1, learned1_func),
}
assert [name for name in BUILTINS if name.startswith("learned")] == list(MODEL_NAMES)


def _mc_strategy(params: str, name: str = "mc") -> Strategy:
    """``mc`` (or ``pimc``, without exact endgames) with the parameters after the colon
    (see :mod:`barbu_sim.barbu.players.mc.player`).

    ``model=<id>`` (what :func:`canonical_strategy` adds to an mc that reads the learned player) is
    accepted when it names the installed model, as ``learned@<id>`` is."""
    items = params.split(",")
    models = [i.partition("=")[2].strip() for i in items if i.partition("=")[0].strip() == "model"]
    if len(models) > 1:  # the other parameters' repeats are parse_mc's to refuse
        raise ValueError(f"{name} parameter model is given twice (model={models[0]} and model={models[1]}): give "
                         "each parameter once")
    found = parse_mc(",".join(i for i in items if i.partition("=")[0].strip() != "model"), name)
    if models and not needs_model(found.sid):
        raise ValueError(f"{name} model= names the learned player's model, which only rollout=learned and "
                         "infer=policy read")
    if models and models[-1] != model_id():
        raise ValueError(f"{name} model={models[-1]} is not the packaged learned-player model, the one mc reads (it is "
                         f"{model_id()}: retrained since): play it again without model=")
    return Strategy(found.spec(name), found.sid, lowest_strategy)


def _pimc_strategy(params: str) -> Strategy:
    return _mc_strategy(params, "pimc")


# mc as it stood when the learned player was first retrained on an mc that plays with it (expert iteration), and until
# mc took learned rollouts: mc1 plays it whatever mc's defaults become, so that the ladder shows each step and old runs
# replay (a run's manifest names mc with every parameter, rollout=heuristic among them for the old mc: mc1's play).
MC1 = "samples=64,rollout=heuristic,endgame=2,tail=0,halving=on,infer=70,early=off"


def _mc1_strategy(params: str) -> Strategy:
    if params.strip():
        raise ValueError(f"mc1 takes no parameters: it is mc:{MC1} (give mc:... to change one)")
    return _mc_strategy(MC1)


def _learned_version(version: str) -> Strategy:
    """``learned@<model id>``: the learned player of that model, when it is installed (the packaged model, or
    ``learned1``, the first: a run recorded with either replays)."""
    for name in MODEL_NAMES:
        if version == model_id(name):
            return BUILTINS[name]
    installed = ", ".join(f"{name} (learned@{model_id(name)})" for name in MODEL_NAMES)
    raise ValueError(f"learned@{version} names a learned-player model this installation does not have (retrained "
                     f"since; its models: {installed}): play it again with 'learned'")


def canonical_strategy(spec):
    """``spec`` as a run's manifest records it: ``learned`` (or ``learned1``) with its model's id (``learned@<id>``),
    ``mc`` and
    ``pimc`` with every parameter (``mc:samples=64,rollout=heuristic,...``; with ``model=<id>`` when it reads
    the learned player), so that a run is never resumed,
    nor a cached table reused, with another model or other defaults; any other spec unchanged."""
    if isinstance(spec, str) and spec.strip() in MODEL_NAMES:  # learned, learned1: the model by its id
        return f"learned@{model_id(spec.strip())}"
    if isinstance(spec, str) and spec.strip().partition(":")[0].strip() in ("mc", "pimc", "mc1"):
        found = REGISTRY.resolve(spec)
        # an mc that reads the learned player (rollout=learned, infer=policy) plays differently with another model
        return f"{found.name},model={model_id()}" if needs_model(found.builtin_id) else found.name
    return spec


REGISTRY = StrategyRegistry(BUILTINS, USER, {"mc": _mc_strategy, "pimc": _pimc_strategy, "mc1": _mc1_strategy},
                            {"learned": _learned_version}, canonical_strategy)
resolve_strategy = REGISTRY.resolve


seat_strategies = REGISTRY.seat_strategies
