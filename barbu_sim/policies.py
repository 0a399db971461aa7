"""Contract-choice and doubling policies, and the Monte Carlo values they decide by.

A hand's expected score per contract comes from :func:`engine.evaluate_hands`:
the other 39 cards are dealt at random ``n_samples`` times and played out by the
play strategies.  For Trumps and Domino the value is that of the best trump
suit / starting rank for the hand.

Contract-choice policies (``choose(hand, remaining, seat, rules) -> (contract, param)``):
``fixed:ORDER``, ``myopic``, ``relative``, ``optimal``, or a user function given as
``path/to/file.py:func`` / ``module:func`` with the signature
``func(values, remaining) -> contract`` (``values``: (7,) expected declarer scores
of this hand; ``remaining``: contract ids still to declare).
Doubling policies: ``compulsory-only``, ``always``, ``threshold[:MARGIN]``.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .cards import random_deal
from .choices import parse_domino_choice, parse_trump_choice, resolve_choice
from .engine import evaluate_hands
from .rules import CONTRACTS, DOMINO, NEGATIVE_CONTRACTS, TRUMPS, Rules, parse_contract
from .strategies import _load_module_from_path, resolve_strategy

N_SUBSETS = 1 << 7


def eval_configs(declarer: int) -> list[tuple[int, int, int]]:
    """Every contract with every trump suit and domino rank, ``declarer`` declaring (22 configurations)."""
    return ([(c, 0, declarer) for c in NEGATIVE_CONTRACTS] + [(TRUMPS, s, declarer) for s in range(4)]
            + [(DOMINO, r, declarer) for r in range(13)])


def contract_values(mean_row: np.ndarray, se_row: np.ndarray, seat: int):
    """(values (7,), best params (7,), se (7,)) for one hand, from its :func:`eval_configs` estimates."""
    values, params, se = np.zeros(7), np.zeros(7, np.int64), np.zeros(7)
    for i, c in enumerate(NEGATIVE_CONTRACTS):
        values[c], se[c] = mean_row[i, seat], se_row[i, seat]
    for c, lo, hi in ((TRUMPS, 5, 9), (DOMINO, 9, 22)):
        block = mean_row[lo:hi, seat]
        best = int(np.argmax(block))
        values[c], params[c], se[c] = block[best], best, se_row[lo + best, seat]
    return values, params, se


@dataclass
class Evaluator:
    """Estimates a declarer's expected score per contract for a hand (memoised)."""

    strategies: object = "heuristic"
    rules: Rules | None = None
    n_samples: int = 100
    seed: int = 0

    def __post_init__(self):
        self._cache: dict = {}

    def preload(self, hand, seat: int, values) -> None:
        """Give the estimates of a hand computed elsewhere (a batch evaluation) so they are reused."""
        self._cache[(int(hand), seat)] = values

    def values(self, hand, seat: int):
        key = (int(hand), seat)
        if key not in self._cache:
            est = evaluate_hands([hand], eval_configs(seat), self.strategies, seat=seat,
                                 n_samples=self.n_samples, seed=self.seed, rules=self.rules)
            self._cache[key] = contract_values(est.mean[0], est.se[0], seat)
        return self._cache[key]

    def seat_means(self, hand, seat: int, contract: int, param: int, declarer: int) -> np.ndarray:
        """Expected raw score of every seat for ``seat`` holding ``hand`` in one contract."""
        est = evaluate_hands([hand], [(contract, param, declarer)], self.strategies, seat=seat,
                             n_samples=self.n_samples, seed=self.seed, rules=self.rules)
        return est.mean[0, 0]


# ---------------------------------------------------------------- value table for optimal / relative
@dataclass
class ValueTable:
    """Per-contract average declarer values and the block DP ``V[subset]`` over the 128 subsets."""

    average: np.ndarray  # (7,) mean declarer value of each contract over random hands
    subset_value: np.ndarray  # (128,) expected best total from the contracts in the subset
    n_hands: int
    n_samples: int

    def to_json(self) -> dict:
        return {"average": self.average.tolist(), "subset_value": self.subset_value.tolist(),
                "n_hands": self.n_hands, "n_samples": self.n_samples}


def block_values(values: np.ndarray) -> np.ndarray:
    """DP over subsets: ``V[S] = mean over hands of max_{c in S} (values[h, c] + V[S - c])``, ``V[{}] = 0``.

    ``values``: (n_hands, 7) expected declarer scores of sample hands.  Subsets are
    bitmasks of contract ids; subsets are visited by size so ``V[S - c]`` is ready.
    """
    V = np.zeros(N_SUBSETS)
    for S in sorted(range(1, N_SUBSETS), key=lambda m: bin(m).count("1")):
        options = [values[:, c] + V[S & ~(1 << c)] for c in range(7) if S >> c & 1]
        V[S] = np.max(np.stack(options), axis=0).mean()
    return V


def default_cache_dir() -> Path:
    return Path(os.environ.get("BARBU_SIM_CACHE", Path.home() / ".cache" / "barbu-sim"))


def value_table(strategies="heuristic", rules: Rules | None = None, *, n_hands: int = 400, n_samples: int = 100,
                seed: int = 12345, cache_dir=None) -> ValueTable:
    """The table ``optimal`` and ``relative`` decide by, built by simulation and cached on disk.

    ``n_hands`` random declarer hands are each evaluated on ``n_samples`` deals of
    the unseen cards; the cache key covers the strategies, rules and sizes.
    """
    rules = rules or Rules()
    names = [strategies] * 4 if isinstance(strategies, str) else list(strategies)
    key = json.dumps({"strategies": [str(s) for s in names], "rules": rules.to_dict(), "n_hands": n_hands,
                      "n_samples": n_samples, "seed": seed, "version": 1}, sort_keys=True)
    path = Path(cache_dir or default_cache_dir()) / f"value-table-{hashlib.sha1(key.encode()).hexdigest()[:16]}.json"
    if path.exists():
        data = json.loads(path.read_text())
        return ValueTable(np.array(data["average"]), np.array(data["subset_value"]), data["n_hands"], data["n_samples"])
    hands = np.array([random_deal(seed, i)[0] for i in range(n_hands)], np.uint64)
    est = evaluate_hands(hands, eval_configs(0), strategies, seat=0, n_samples=n_samples, seed=seed, rules=rules)
    values = np.array([contract_values(est.mean[j], est.se[j], 0)[0] for j in range(n_hands)])
    table = ValueTable(values.mean(axis=0), block_values(values), n_hands, n_samples)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(table.to_json()))
        os.replace(tmp, path)
    except OSError:
        pass  # an unwritable cache only costs the time to rebuild
    return table


def subset_of(contracts) -> int:
    m = 0
    for c in contracts:
        m |= 1 << c
    return m


# ---------------------------------------------------------------- contract-choice policies
class ContractPolicy:
    """Base: ``choose(hand, remaining, seat, rules) -> (contract, param)``."""

    name = "policy"
    needs_values = True

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

    needs_values = False
    DEFAULT = ("no-tricks", "no-queens", "no-last-two", "no-hearts", "barbu", "trumps", "domino")

    def __init__(self, evaluator: Evaluator, order=None):
        super().__init__(evaluator)
        order = [parse_contract(c) for c in (order or self.DEFAULT)]
        if sorted(order) != list(range(7)):
            raise ValueError("a fixed order must name each of the seven contracts once")
        self.order = order
        self.name = "fixed:" + ",".join(CONTRACTS[c] for c in order)

    def choose(self, hand, remaining, seat, rules):
        c = next(c for c in self.order if c in remaining)
        if c == TRUMPS:
            return c, resolve_choice(c, parse_trump_choice("longest")[0], hand)
        if c == DOMINO:
            return c, resolve_choice(c, parse_domino_choice("most-held")[0], hand)
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
        c = self.func(values.copy(), list(remaining))
        c = parse_contract(c) if isinstance(c, str) else int(c)
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
    if ":" in spec:
        where, name = spec.rsplit(":", 1)
        module = _load_module_from_path(Path(where)) if where.endswith(".py") else importlib.import_module(where)
        func = getattr(module, name, None)
        if not callable(func):
            raise ValueError(f"contract policy {spec!r}: {where} has no function {name!r}")
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
                   make_doubling_policy(doubling_policies[s], evaluator)) for s in range(4)]
