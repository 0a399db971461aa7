"""Contract-choice and doubling policies: how a player declares and doubles.

Contract-choice policies (``choose(hand, remaining, seat, rules) -> (contract, param)``):
``fixed:ORDER``, ``myopic``, ``relative``, ``optimal``, or a user function given as
``path/to/file.py:func`` / ``module:func`` with the signature
``func(values, remaining) -> contract`` (``values``: (7,) expected declarer scores
of this hand; ``remaining``: contract ids still to declare).  They decide by the
estimates of :mod:`evaluation`.
Doubling policies: ``compulsory-only``, ``always``, ``threshold[:MARGIN]``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.plugins import is_plugin_spec, load_plugin
from ...core.seats import N_SEATS
from ..api import resolve_choice
from ..choices import DOMINO_MOST_HELD, TRUMP_LONGEST, Choice
from ..rules import CONTRACTS, DOMINO, N_CONTRACTS, TRUMPS, Rules, parse_contract
from ..strategies import resolve_strategy
from .evaluation import Evaluator, ValueTable, subset_of, value_table


# ---------------------------------------------------------------- contract-choice policies
class ContractPolicy:
    """Base: ``choose(hand, remaining, seat, rules) -> (contract, param)``."""

    name = "policy"

    def __init__(self, evaluator: Evaluator):
        self.evaluator = evaluator

    def scores(self, values, remaining) -> dict[int, float]:
        raise NotImplementedError

    def choose(self, hand, remaining, seat, rules):
        values, params, _ = self.evaluator.values(hand, seat)
        scores = self.scores(values, remaining)
        best = max(remaining, key=lambda c: (scores[c], -c))
        return best, int(params[best]) if best in (TRUMPS, DOMINO) else 0


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

    def choose(self, hand, remaining, seat, rules):
        c = next(c for c in self.order if c in remaining)
        if c == TRUMPS:
            return c, resolve_choice(Choice(TRUMPS, TRUMP_LONGEST), hand)
        if c == DOMINO:
            return c, resolve_choice(Choice(DOMINO, DOMINO_MOST_HELD), hand)
        return c, 0


class Myopic(ContractPolicy):
    """The remaining contract with the best expected score for this hand."""

    name = "myopic"

    def scores(self, values, remaining):
        return {c: values[c] for c in remaining}


class TablePolicy(ContractPolicy):
    """A policy that also reads the contracts' value table (averages and the block DP)."""

    def __init__(self, evaluator: Evaluator, table: ValueTable):
        super().__init__(evaluator)
        self.table = table


class Relative(TablePolicy):
    """The remaining contract whose expected score beats that contract's average by the most."""

    name = "relative"

    def scores(self, values, remaining):
        return {c: values[c] - self.table.average[c] for c in remaining}


class Optimal(TablePolicy):
    """Maximises the expected block total: this hand's value plus the DP value of what is left."""

    name = "optimal"

    def scores(self, values, remaining):
        S = subset_of(remaining)
        return {c: values[c] + self.table.subset_value[S & ~(1 << c)] for c in remaining}


class UserContractPolicy(ContractPolicy):
    """A user function ``func(values, remaining) -> contract id or name``."""

    def __init__(self, evaluator: Evaluator, func, name: str):
        super().__init__(evaluator)
        self.func, self.name = func, name

    def choose(self, hand, remaining, seat, rules):
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


def make_contract_policy(spec: str, evaluator: Evaluator, table_factory) -> ContractPolicy:
    """A contract policy from its name (``table_factory()`` builds the value table when needed)."""
    spec = spec.strip()
    if spec == "fixed":
        return FixedOrder(evaluator)
    if spec.startswith("fixed:"):
        return FixedOrder(evaluator, [c for c in spec[6:].split(",") if c])
    if spec == "myopic":
        return Myopic(evaluator)
    if spec == "relative":
        return Relative(evaluator, table_factory())
    if spec == "optimal":
        return Optimal(evaluator, table_factory())
    if is_plugin_spec(spec):
        func = load_plugin(spec, "contract policy")
        if not callable(func):
            raise ValueError(f"contract policy {spec!r} is not a function")
        return UserContractPolicy(evaluator, func, spec)
    raise ValueError(f"unknown contract policy {spec!r}: use fixed, fixed:ORDER, myopic, relative, optimal "
                     "or path/to/file.py:func")


# ---------------------------------------------------------------- doubling policies
class DoublingPolicy:
    """Base: ``choose(player, declarer, contract, param, hand, allowed, forced, rules) -> set of seats``."""

    name = "doubling"

    def choose(self, player, declarer, contract, param, hand, allowed, forced, rules):
        raise NotImplementedError


class CompulsoryOnly(DoublingPolicy):
    """Only the two required doubles of each declarer, as late in the block as allowed."""

    name = "compulsory-only"

    def choose(self, player, declarer, contract, param, hand, allowed, forced, rules):
        return {declarer} if forced else set()


class Always(DoublingPolicy):
    """Every allowed double; the declarer redoubles whoever doubled them."""

    name = "always"

    def choose(self, player, declarer, contract, param, hand, allowed, forced, rules):
        return set(allowed)


class Threshold(DoublingPolicy):
    """Double a seat when this hand's expected score beats that seat's by ``margin`` points."""

    def __init__(self, evaluator: Evaluator, margin: float = 5.0):
        self.evaluator, self.margin = evaluator, margin
        self.name = f"threshold:{margin:g}"

    def choose(self, player, declarer, contract, param, hand, allowed, forced, rules):
        chosen = {declarer} if forced else set()
        if allowed:
            means = self.evaluator.seat_means(hand, player, contract, param, declarer)
            chosen |= {t for t in allowed if means[player] - means[t] > self.margin}
        return chosen


def make_doubling_policy(spec: str, evaluator: Evaluator) -> DoublingPolicy:
    spec = spec.strip()
    if spec == "compulsory-only":
        return CompulsoryOnly()
    if spec == "always":
        return Always()
    if spec == "threshold" or spec.startswith("threshold:"):
        margin = 5.0
        if ":" in spec:
            try:
                margin = float(spec.split(":", 1)[1])
            except ValueError:
                raise ValueError(f"threshold margin must be a number: {spec!r}") from None
        return Threshold(evaluator, margin)
    raise ValueError(f"unknown doubling policy {spec!r}: use compulsory-only, always or threshold[:MARGIN]")


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

    return [Player(strategies[s], make_contract_policy(contract_policies[s], evaluator, table_factory),
                   make_doubling_policy(doubling_policies[s], evaluator)) for s in range(N_SEATS)]
