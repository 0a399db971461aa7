"""Barbu's play strategies: the built-in ``random``, ``basic``, ``heuristic``, ``lowest``, ``learned``, ``mc``
and ``pimc``, and user plugins.

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
from .learned import LEARNED_UNVALIDATED, learned_func, model_id
from .mc.params import needs_model, parse_mc
from .ids import BASIC, HEURISTIC, LEARNED, LOWEST, RANDOM, USER

__all__ = ["BASIC", "BUILTINS", "HEURISTIC", "LEARNED", "LOWEST", "RANDOM", "REGISTRY", "USER", "canonical_strategy",
           "check_rules", "resolve_strategy", "seat_strategies"]

BUILTINS: dict[str, Strategy] = {
    "random": Strategy("random", RANDOM, random_strategy),
    "basic": Strategy("basic", BASIC, basic_strategy),
    "heuristic": Strategy("heuristic", HEURISTIC, heuristic_strategy),
    "lowest": Strategy("lowest", LOWEST, lowest_strategy),
    "learned": Strategy("learned", LEARNED, learned_func),
}


def _mc_strategy(params: str, name: str = "mc") -> Strategy:
    """``mc`` (or ``pimc``, without exact endgames) with the parameters after the colon (see :mod:`barbu_sim.barbu.players.mc.player`).

    ``model=<id>`` (what :func:`canonical_strategy` adds to an mc that reads the learned player) is
    accepted when it names the installed model, as ``learned@<id>`` is."""
    items = params.split(",")
    models = [i.partition("=")[2].strip() for i in items if i.partition("=")[0].strip() == "model"]
    found = parse_mc(",".join(i for i in items if i.partition("=")[0].strip() != "model"), name)
    if models and not needs_model(found.sid):
        raise ValueError(f"{name} model= names the learned player's model, which only rollout=learned and "
                         "infer=policy read")
    if models and models[-1] != model_id():
        raise ValueError(f"{name} model={models[-1]} names a learned-player model this installation does not have "
                         f"(its model is {model_id()}, retrained since): play it again without model=")
    return Strategy(found.spec(name), found.sid, lowest_strategy)


def _pimc_strategy(params: str) -> Strategy:
    return _mc_strategy(params, "pimc")


def _learned_version(version: str) -> Strategy:
    """``learned@<model id>``: the learned player, when that model is the one installed."""
    if version != model_id():
        raise ValueError(f"learned@{version} names a learned-player model this installation does not have (its model "
                         f"is learned@{model_id()}, retrained since): play it again with 'learned'")
    return BUILTINS["learned"]


def canonical_strategy(spec):
    """``spec`` as a run's manifest records it: ``learned`` with its model's id (``learned@<id>``), ``mc`` and
    ``pimc`` with every parameter (``mc:samples=64,rollout=heuristic,...``; with ``model=<id>`` when it reads
    the learned player), so that a run is never resumed,
    nor a cached table reused, with another model or other defaults; any other spec unchanged."""
    if isinstance(spec, str) and spec.strip() == "learned":
        return f"learned@{model_id()}"
    if isinstance(spec, str) and spec.strip().partition(":")[0].strip() in ("mc", "pimc"):
        found = REGISTRY.resolve(spec)
        # an mc that reads the learned player (rollout=learned, infer=policy) plays differently with another model
        return f"{found.name},model={model_id()}" if needs_model(found.builtin_id) else found.name
    return spec


REGISTRY = StrategyRegistry(BUILTINS, USER, {"mc": _mc_strategy, "pimc": _pimc_strategy},
                            {"learned": _learned_version}, canonical_strategy)
resolve_strategy = REGISTRY.resolve


MC_LEARNED_UNVALIDATED = ("mc:rollout=learned and mc:infer=policy read the learned player, which is not validated "
                          "under best-total=lowest (as in preset positive-penalties): use mc's other rollouts and "
                          "infer=P for these rules")


def check_rules(strategies, rules) -> None:
    """Refuse a player on rules it has not been validated on: a one-line ValueError naming the player,
    the option and what to play instead.

    ``strategies``: one spec or four (as :func:`seat_strategies` takes them), or their resolved
    :class:`Strategy`; ``rules``: a :class:`~barbu_sim.barbu.rules.Rules` (``None``: the defaults).
    Today one case: ``learned`` (or an ``mc`` that reads it: ``rollout=learned``, ``infer=policy``) where the lowest total wins (``best-total=lowest``, e.g. preset
    ``positive-penalties``), on which it was neither trained nor measured and plays to take the
    penalties (docs/learned-player.md).  Every Python path to the kernels goes through it
    (:func:`seat_strategies` with the rules), and the CLI calls it before it writes anything.
    """
    if rules is None or not rules.lower_is_better:
        return
    if isinstance(strategies, (str, Strategy)) or hasattr(strategies, "py_func"):
        strategies = [strategies]
    for spec in strategies:
        sid = resolve_strategy(spec).builtin_id
        if sid == LEARNED:
            raise ValueError(LEARNED_UNVALIDATED)
        if needs_model(sid):
            raise ValueError(MC_LEARNED_UNVALIDATED)


def seat_strategies(strategies, rules=None):
    """What the kernels take for one strategy or four (:meth:`StrategyRegistry.seat_strategies`), each
    checked against ``rules`` (:func:`check_rules`) when they are given."""
    check_rules(strategies, rules)  # before any function pointer is made
    return REGISTRY.seat_strategies(strategies)
