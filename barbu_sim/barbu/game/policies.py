"""Contract-choice and doubling policies: how a player declares and doubles.

Contract-choice policies (``choose(hand, remaining, seat, rules, owed) -> (contract, param)``):
``fixed:ORDER``, ``myopic``, ``relative``, ``raw-optimal`` (the raw-score block DP),
``optimal`` (the settled-score block DP, :mod:`settled`), ``guide`` (the declaring guide, :mod:`guide`),
or a user function given as
``path/to/file.py:func`` / ``module:func`` with the signature
``func(values, remaining) -> contract`` (``values``: (7,) expected declarer scores
of this hand; ``remaining``: contract ids still to declare).  They decide by the
estimates of :mod:`evaluation`.
The doubling policies are in :mod:`doubling`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.plugins import is_plugin_spec, load_plugin
from ...core.seats import N_SEATS
from ..api import resolve_choice
from ..rules.choices import DOMINO_MOST_HELD, TRUMP_LONGEST, Choice
from ..rules.config import CONTRACTS, DOMINO, N_CONTRACTS, TRUMPS, Rules, parse_contract
from ..players.registry import resolve_strategy
from .doubling import (  # noqa: F401  (the doubling policies are also reached from here)
    Always, Bayes, CompulsoryOnly, DoublingPolicy, Situation, Threshold, make_doubling_policy,
)
from .contract_policy import ContractPolicy, masked
from .evaluation import Evaluator, ValueTable, subset_of, value_table
from .guide import make_guide
from .settled import cached_block_values, hand_outcome


# ---------------------------------------------------------------- contract-choice policies
class FixedOrder(ContractPolicy):
    """Declare the contracts in a fixed order; name the longest suit / the rank held most."""

    DEFAULT = ("no-tricks", "no-queens", "no-last-two", "no-hearts", "barbu", "trumps", "domino")

    def __init__(self, evaluator: Evaluator, order=None):
        super().__init__(evaluator)
        order = [parse_contract(c) for c in (order or self.DEFAULT)]
        if sorted(order) != list(range(N_CONTRACTS)):
            raise ValueError("a fixed order must name each of the seven contracts once")
        self.order = order
        self.name = "fixed:" + ",".join(CONTRACTS[c] for c in order)

    def score_matrix(self, values, seat_values, remaining, owed):
        rank = np.zeros((1, N_CONTRACTS))
        rank[0, self.order] = -np.arange(N_CONTRACTS)
        return masked(np.repeat(rank, len(values), axis=0), remaining)

    @staticmethod
    def param_for(contract: int, hand) -> int:
        if contract == TRUMPS:
            return resolve_choice(Choice(TRUMPS, TRUMP_LONGEST), hand)
        if contract == DOMINO:
            return resolve_choice(Choice(DOMINO, DOMINO_MOST_HELD), hand)
        return 0

    def choose(self, hand, remaining, seat, rules, owed=(0, 0, 0)):
        c = next(c for c in self.order if c in remaining)
        return c, self.param_for(c, hand)

    def choose_many(self, hands, values, params, seat_values, remaining, owed):
        c = next(c for c in self.order if c in remaining)
        return (np.full(len(hands), c, np.int64),
                np.array([self.param_for(c, h) for h in hands], np.int64))


class Myopic(ContractPolicy):
    """The remaining contract with the best expected score for this hand."""

    name = "myopic"

    def score_matrix(self, values, seat_values, remaining, owed):
        return masked(np.asarray(values, float), remaining)


class TablePolicy(ContractPolicy):
    """A policy that also reads the contracts' value table (averages and the block DP)."""

    def __init__(self, evaluator: Evaluator, table: ValueTable):
        super().__init__(evaluator)
        self.table = table


class Relative(TablePolicy):
    """The remaining contract whose expected score beats that contract's average by the most."""

    name = "relative"

    def score_matrix(self, values, seat_values, remaining, owed):
        return masked(np.asarray(values, float) - self.table.average[None, :], remaining)


class RawOptimal(TablePolicy):
    """Maximises the expected block total of raw scores: this hand's value plus the DP value of what is left."""

    name = "raw-optimal"

    def score_matrix(self, values, seat_values, remaining, owed):
        S = subset_of(remaining)
        rest = np.array([self.table.subset_value[S & ~(1 << c)] for c in range(N_CONTRACTS)])
        return masked(np.asarray(values, float) + rest[None, :], remaining)


class Optimal(TablePolicy):
    """Maximises the expected settled total of the block (raw scores plus settlements).

    This hand's settled value in contract ``c`` under the doubles the opponents'
    policies would make (and the declarer's redoubles), plus ``V[S - c, owed']``
    of :func:`settled.settled_block_values` for the opponents' and own doubling policies.
    """

    name = "optimal"

    def __init__(self, evaluator: Evaluator, table: ValueTable, opponents, own):
        super().__init__(evaluator, table)
        self.opponents, self.own = list(opponents), own
        self.V = cached_block_values(table, self.opponents, own)

    def score_matrix(self, values, seat_values, remaining, owed):
        S = subset_of(remaining)
        out = np.full(np.shape(values), -np.inf)
        for c in remaining:
            value, nexts = hand_outcome(np.asarray(seat_values)[:, c, :], c, S, owed, self.opponents, self.own)
            out[:, c] = value + sum(w * self.V[S & ~(1 << c), i] for w, i in nexts)
        return out


class UserContractPolicy(ContractPolicy):
    """A user function ``func(values, remaining) -> contract id or name``."""

    choose_many = None  # a user function ranks one hand at a time: bayes assumes raw-optimal instead

    def __init__(self, evaluator: Evaluator, func, name: str):
        super().__init__(evaluator)
        self.func, self.name = func, name

    def choose(self, hand, remaining, seat, rules, owed=(0, 0, 0)):
        values, params, _ = self.evaluator.values(hand, seat)
        try:
            c = self.func(values.copy(), list(remaining))
        except Exception as e:  # the user's code failed (wrong signature included): say where and why
            raise ValueError(f"contract policy {self.name!r} raised {type(e).__name__}: {e}") from None
        try:
            c = parse_contract(c) if isinstance(c, str) else int(c)
        except (TypeError, ValueError):
            raise ValueError(f"contract policy {self.name!r} returned {c!r}, which is not a contract") from None
        if not 0 <= c < N_CONTRACTS:
            raise ValueError(f"contract policy {self.name!r} returned {c}, which is not a contract id (0..6)")
        return c, int(params[c]) if c in (TRUMPS, DOMINO) else 0


def make_contract_policy(spec: str, evaluator: Evaluator, table_factory, doubling=None) -> ContractPolicy:
    """A contract policy from its name (``table_factory()`` builds the value table when needed).

    ``doubling``: ``(opponents, own)``, the doubling policies of the declarer's left,
    across and right and the declarer's own, that ``optimal`` plans with (default:
    everyone ``compulsory-only``).
    """
    spec = spec.strip()
    if spec == "fixed":
        return FixedOrder(evaluator)
    if spec.startswith("fixed:"):
        return FixedOrder(evaluator, [c for c in spec[6:].split(",") if c])
    if spec == "myopic":
        return Myopic(evaluator)
    if spec == "relative":
        return Relative(evaluator, table_factory())
    if spec == "raw-optimal":
        return RawOptimal(evaluator, table_factory())
    if spec == "optimal":
        opponents, own = doubling or ([CompulsoryOnly()] * 3, CompulsoryOnly())
        return Optimal(evaluator, table_factory(), opponents, own)
    if spec == "guide" or spec.startswith("guide:"):
        return make_guide(spec, evaluator, evaluator.rules)
    if is_plugin_spec(spec):
        func = load_plugin(spec, "contract policy")
        if not callable(func):
            raise ValueError(f"contract policy {spec!r} is not a function")
        return UserContractPolicy(evaluator, func, spec)
    raise ValueError(f"unknown contract policy {spec!r}: use fixed, fixed:ORDER, myopic, relative, optimal, "
                     "raw-optimal, guide, guide:no-RULE or path/to/file.py:func")


@dataclass
class Player:
    """A seat's play strategy, contract-choice policy and doubling policy."""

    strategy: object
    contract_policy: ContractPolicy
    doubling_policy: DoublingPolicy


def make_players(strategies, contract_policies, doubling_policies, *, rules: Rules | None = None,
                 n_samples: int = 100, seed: int = 0, table_kwargs: dict | None = None) -> list[Player]:
    """Four players from four strategy specs, four contract-policy specs and four doubling-policy specs."""
    rules = rules or Rules()
    for s in strategies:
        resolve_strategy(s)
    evaluator = Evaluator(list(strategies), rules, n_samples, seed)
    tables: dict = {}

    def table_factory():
        if "t" not in tables:
            tables["t"] = value_table(list(strategies), rules, **(table_kwargs or {}))
        return tables["t"]

    doubling = [make_doubling_policy(doubling_policies[s], evaluator, table_factory) for s in range(N_SEATS)]
    return [Player(strategies[s],
                   make_contract_policy(contract_policies[s], evaluator, table_factory,
                                        ([doubling[(s + r) % N_SEATS] for r in (1, 2, 3)], doubling[s])),
                   doubling[s]) for s in range(N_SEATS)]
