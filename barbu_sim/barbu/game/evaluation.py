"""What a hand is worth to its declarer: Monte Carlo estimates per contract, the value table, the block DP.

A hand's expected score per contract comes from :func:`api.evaluate_hands`: the
other 39 cards are dealt at random ``n_samples`` times and played out by the play
strategies.  For Trumps and Domino the value is that of the best trump suit /
starting rank for the hand.  :class:`EvalGrid` lays out the 22 configurations
evaluated (5 negative contracts, 4 trump suits, 13 domino ranks).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ... import __version__
from ...core.codestamp import code_stamp, plugin_stamp
from ...core.files import OutputError, read_json, write_text
from ...core.plugins import is_plugin_spec
from ..api import evaluate_hands
from ..engine.deals import random_deal
from ..rules.config import DOMINO, N_CONTRACTS, NEGATIVE_CONTRACTS, TRUMPS, Rules
from ..players.learned import MODEL_NAMES, model_id
from ..players.mc.params import parse_mc

N_SUBSETS = 1 << N_CONTRACTS
VALUE_TABLE_VERSION = 5  # 2: Monte Carlo deals keyed by (seed, hand, seat); 4: every seat's estimates, both views;
# 5: the improved `heuristic` (tables cached under its name before it changed are stale)


class EvalGrid:
    """The configurations a hand is evaluated under: every contract, every trump suit, every domino rank.

    Columns: the negative contracts by id, then Trumps in each suit (C, D, H, S),
    then Domino from each rank (2 .. A).
    """

    TRUMPS_FROM = len(NEGATIVE_CONTRACTS)
    DOMINO_FROM = TRUMPS_FROM + 4
    SIZE = DOMINO_FROM + 13

    @staticmethod
    def configs(declarer: int) -> list[tuple[int, int, int]]:
        """The ``(contract, param, declarer)`` rows, in column order."""
        return ([(c, 0, declarer) for c in NEGATIVE_CONTRACTS] + [(TRUMPS, s, declarer) for s in range(4)]
                + [(DOMINO, r, declarer) for r in range(13)])

    @classmethod
    def column(cls, contract: int, param: int) -> int:
        """The column of ``(contract, param)``."""
        if contract == TRUMPS:
            return cls.TRUMPS_FROM + param
        if contract == DOMINO:
            return cls.DOMINO_FROM + param
        return NEGATIVE_CONTRACTS.index(contract)

    @classmethod
    def contract_values(cls, mean_row: np.ndarray, se_row: np.ndarray, seat: int):
        """(values (7,), best params (7,), se (7,)) of one hand, from its estimates over the grid.

        ``mean_row`` / ``se_row``: (SIZE, 4) estimates of one hand; ``seat``: whose score counts.
        """
        values, params, se = np.zeros(N_CONTRACTS), np.zeros(N_CONTRACTS, np.int64), np.zeros(N_CONTRACTS)
        for i, c in enumerate(NEGATIVE_CONTRACTS):
            values[c], se[c] = mean_row[i, seat], se_row[i, seat]
        for c, lo, hi in ((TRUMPS, cls.TRUMPS_FROM, cls.DOMINO_FROM), (DOMINO, cls.DOMINO_FROM, cls.SIZE)):
            block = mean_row[lo:hi, seat]
            best = int(np.argmax(block))
            values[c], params[c], se[c] = block[best], best, se_row[lo + best, seat]
        return values, params, se

    @classmethod
    def seat_values(cls, mean_row: np.ndarray, params: np.ndarray, seat: int) -> np.ndarray:
        """(7, 4) expected raw score of each seat relative to ``seat`` (0 = ``seat``, 1 = its left, ...)
        in each contract, with the trump suit / domino rank ``params`` names."""
        out = np.zeros((N_CONTRACTS, 4))
        rel = [(seat + r) % 4 for r in range(4)]
        for c in range(N_CONTRACTS):
            out[c] = mean_row[cls.column(c, int(params[c])), rel]
        return out


@dataclass
class Evaluator:
    """Estimates a declarer's expected score per contract for a hand (memoised)."""

    strategies: object = "heuristic"
    rules: Rules | None = None
    n_samples: int = 100
    seed: int = 0

    def __post_init__(self):
        if self.rules is not None and self.rules.lower_is_better:
            # The contract choice, the doubling policies and the advice all maximise an expected
            # score; under best-total=lowest each would have to minimise instead.
            raise ValueError("full games, advice and contract orders play the highest-total-wins rules: "
                             "best-total=lowest is for runs and reports (positive-penalties is the default "
                             "game with every score's sign turned over)")
        self._cache: dict = {}

    def preload(self, hand, seat: int, mean_row: np.ndarray, se_row: np.ndarray) -> None:
        """Give the (SIZE, 4) estimates of a hand computed elsewhere (a batch evaluation) so they are reused."""
        values, params, se = EvalGrid.contract_values(mean_row, se_row, seat)
        if self.rules is not None and self.rules.fixed_domino_start is not None:
            params[DOMINO] = self.rules.fixed_domino_start  # every column was played from it: name it
        self._cache[(int(hand), seat)] = (values, params, se, EvalGrid.seat_values(mean_row, params, seat))

    def _estimates(self, hand, seat: int):
        key = (int(hand), seat)
        if key not in self._cache:
            est = evaluate_hands([hand], EvalGrid.configs(seat), self.strategies, seat=seat,
                                 n_samples=self.n_samples, seed=self.seed, rules=self.rules)
            self.preload(hand, seat, est.mean[0], est.se[0])
        return self._cache[key]

    def values(self, hand, seat: int):
        """(values (7,), best params (7,), se (7,)) of ``hand`` declared from ``seat``."""
        return self._estimates(hand, seat)[:3]

    def seat_values(self, hand, seat: int) -> np.ndarray:
        """(7, 4) expected raw score of each seat, relative to ``seat``, when ``seat`` declares ``hand``
        (with the best trump suit / domino rank for the declarer)."""
        return self._estimates(hand, seat)[3]

    def seat_means(self, hand, seat: int, contract: int, param: int, declarer: int) -> np.ndarray:
        """Expected raw score of every seat for ``seat`` holding ``hand`` in one contract (memoised)."""
        key = ("seat-means", int(hand), seat, contract, param, declarer)
        if key not in self._cache:
            est = evaluate_hands([hand], [(contract, param, declarer)], self.strategies, seat=seat,
                                 n_samples=self.n_samples, seed=self.seed, rules=self.rules)
            self._cache[key] = est.mean[0, 0]
        return self._cache[key]


# ---------------------------------------------------------------- value table for optimal / relative
@dataclass
class ValueTable:
    """Per-contract average declarer values and the block DP ``V[subset]`` over the 128 subsets."""

    average: np.ndarray  # (7,) mean declarer value of each contract over random hands
    subset_value: np.ndarray  # (128,) expected best total from the contracts in the subset
    n_hands: int
    n_samples: int
    hands: np.ndarray | None = None  # (n_hands,) uint64 the sample hands (declared from seat 0)
    grid_mean: np.ndarray | None = None  # (n_hands, EvalGrid.SIZE, 4) every seat's estimate per configuration
    # (n_hands, EvalGrid.SIZE, 4): the same hands held by the declarer's left (seat 1), declarer 0: what a
    # defender expects from its own hand, before it knows the declarer's
    defender_grid: np.ndarray | None = None

    def to_json(self) -> dict:
        return {"average": self.average.tolist(), "subset_value": self.subset_value.tolist(),
                "n_hands": self.n_hands, "n_samples": self.n_samples,
                "hands": [int(h) for h in self.hands], "grid_mean": np.round(self.grid_mean, 4).tolist(),
                "defender_grid": np.round(self.defender_grid, 4).tolist()}

    def defender_gains(self) -> list[np.ndarray]:
        """Per contract, samples of what a defender expects to gain by doubling the declarer (``e_p - e_d``),
        judged from its own hand: every trump suit and domino rank counts as a sample."""
        g = self.defender_grid[:, :, 1] - self.defender_grid[:, :, 0]
        out = [None] * N_CONTRACTS
        for c in range(N_CONTRACTS):
            if c == TRUMPS:
                out[c] = g[:, grid_columns(TRUMPS)].ravel()
            elif c == DOMINO:
                out[c] = g[:, grid_columns(DOMINO)].ravel()
            else:
                out[c] = g[:, EvalGrid.column(c, 0)]
        return out

    @property
    def seat_values(self) -> np.ndarray:
        """(n_hands, 7, 4): each seat's expected raw score, relative to the declarer, per contract
        (trump suit / domino rank the best for the declarer)."""
        out = np.zeros((self.n_hands, N_CONTRACTS, 4))
        for j in range(self.n_hands):
            _, params, _ = EvalGrid.contract_values(self.grid_mean[j], self.grid_mean[j], 0)
            out[j] = EvalGrid.seat_values(self.grid_mean[j], params, 0)
        return out


def grid_columns(contract: int) -> list[int]:
    """The grid columns of one contract (four for Trumps, thirteen for Domino)."""
    if contract == TRUMPS:
        return list(range(EvalGrid.TRUMPS_FROM, EvalGrid.DOMINO_FROM))
    if contract == DOMINO:
        return list(range(EvalGrid.DOMINO_FROM, EvalGrid.SIZE))
    return [EvalGrid.column(contract, 0)]


def subset_of(contracts) -> int:
    """The bitmask of a set of contract ids."""
    m = 0
    for c in contracts:
        m |= 1 << c
    return m


def block_values(values: np.ndarray) -> np.ndarray:
    """DP over subsets: ``V[S] = mean over hands of max_{c in S} (values[h, c] + V[S - c])``, ``V[{}] = 0``.

    ``values``: (n_hands, 7) expected declarer scores of sample hands.  Subsets are
    bitmasks of contract ids; subsets are visited by size so ``V[S - c]`` is ready.
    """
    V = np.zeros(N_SUBSETS)
    for S in sorted(range(1, N_SUBSETS), key=lambda m: bin(m).count("1")):
        options = [values[:, c] + V[S & ~(1 << c)] for c in range(N_CONTRACTS) if S >> c & 1]
        V[S] = np.max(np.stack(options), axis=0).mean()
    return V


def default_cache_dir() -> Path:
    """Where value tables and block values are cached: ``$BARBU_SIM_CACHE`` or ``~/.cache/barbu-sim``."""
    return Path(os.environ.get("BARBU_SIM_CACHE", Path.home() / ".cache" / "barbu-sim"))


def table_strategy(spec):
    """The strategy a value table is built with for a seat playing ``spec``.

    ``mc`` (and ``pimc``, ``mc1``) seats are tabled with their rollout player: a table of ``mc`` itself
    would take days, and the table only ranks contracts for the block's plan (each
    hand actually played is played by ``mc``).
    """
    if isinstance(spec, str) and spec.strip().split(":")[0].strip() in ("mc", "pimc", "mc1"):
        head, _, params = spec.strip().partition(":")
        if head.strip() == "mc1":  # mc as it was, with heuristic rollouts (registry.MC1)
            return "heuristic"
        return parse_mc(params, head.strip()).rollout
    return spec


def strategy_fingerprint(spec) -> str:
    """What a value table depends on of one seat's strategy: its name, for a plugin its code, for
    ``learned`` its model's id."""
    if isinstance(spec, str) and is_plugin_spec(spec):
        return f"{spec.strip()}@{plugin_stamp(spec)}"
    name = str(getattr(spec, "name", spec)).strip()
    if name in MODEL_NAMES:  # a retrained model is another player
        return f"learned@{model_id(name)}"
    return name


def engine_stamp() -> str:
    """The code a value table is built with: this module and every package module it imports (the
    players, the play loops, the rules), as :func:`~barbu_sim.core.codestamp.code_stamp`.  A table
    built by other code is never read back."""
    return code_stamp(__file__)


def value_table_path(strategies="heuristic", rules: Rules | None = None, *, n_hands: int = 400,
                     n_samples: int = 100, seed: int = 12345, cache_dir=None) -> Path:
    """The cache file of a value table: keyed by everything the table depends on.

    The strategies (for plugins, the content of their files), the rules, the sizes,
    the seed, and the code that builds it (:func:`engine_stamp`).
    """
    rules = rules or Rules()
    names = [table_strategy(s) for s in ([strategies] * 4 if isinstance(strategies, str) else list(strategies))]
    key = json.dumps({"strategies": [strategy_fingerprint(s) for s in names], "rules": rules.to_dict(),
                      "n_hands": n_hands, "n_samples": n_samples, "seed": seed, "version": VALUE_TABLE_VERSION,
                      "package": __version__, "code": engine_stamp()}, sort_keys=True)
    return Path(cache_dir or default_cache_dir()) / f"value-table-{hashlib.sha1(key.encode()).hexdigest()[:16]}.json"


# The value tables of the everyday commands' default play (advise's learned, game's and compare-orders'
# heuristic; the default rules and sizes), shipped with the package, gzipped, so that a first use reads its
# table instead of building it (12 s for learned on the 2-core machine).  Each is named as its cache file
# (:func:`value_table_path`), whose key holds the code stamp: a table built by other code is never read.
# ``python scripts/ship_value_tables.py`` builds them; tests/test_shipped_tables.py checks that they are this
# code's.
SHIPPED_TABLES = Path(__file__).parent / "value_tables"
SHIPPED_STRATEGIES = ("learned", "heuristic")


def shipped_table_path(cache_path: Path) -> Path:
    """Where the package ships the table whose cache file is ``cache_path`` (it may not ship it)."""
    return SHIPPED_TABLES / f"{Path(cache_path).name}.gz"


def shipped_tables() -> dict[str, Path]:
    """The file each of :data:`SHIPPED_STRATEGIES`' default tables ships as, for this code."""
    return {s: shipped_table_path(value_table_path(s)) for s in SHIPPED_STRATEGIES}


def _read_cached(path: Path) -> ValueTable | None:
    """The table cached in ``path`` (or shipped, gzipped, when its name ends in ``.gz``); ``None`` (with a
    warning) when the file is damaged."""
    try:
        data = json.loads(gzip.decompress(path.read_bytes())) if path.suffix == ".gz" else read_json(path)
        table = ValueTable(np.array(data["average"], float), np.array(data["subset_value"], float),
                           int(data["n_hands"]), int(data["n_samples"]), np.array(data["hands"], np.uint64),
                           np.array(data["grid_mean"], float), np.array(data["defender_grid"], float))
        if (table.average.shape != (N_CONTRACTS,) or table.subset_value.shape != (N_SUBSETS,)
                or table.grid_mean.shape != (table.n_hands, EvalGrid.SIZE, 4)
                or table.defender_grid.shape != table.grid_mean.shape):
            raise ValueError("wrong shapes")
        return table
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as e:
        warnings.warn(f"ignoring the damaged value-table cache {path} ({type(e).__name__}); rebuilding it",
                      stacklevel=3)
        return None


def value_table(strategies="heuristic", rules: Rules | None = None, *, n_hands: int = 400, n_samples: int = 100,
                seed: int = 12345, cache_dir=None) -> ValueTable:
    """The table ``optimal`` and ``relative`` decide by, built by simulation and cached on disk.

    ``n_hands`` random declarer hands are each evaluated on ``n_samples`` deals of
    the unseen cards; the cache file is :func:`value_table_path`, and a table the package ships for the same
    key (:data:`SHIPPED_TABLES`) is read when the cache has none.  A damaged cache
    file is ignored with a warning and rebuilt.
    """
    rules = rules or Rules()
    strategies = [table_strategy(s) for s in ([strategies] * 4 if isinstance(strategies, str) else list(strategies))]
    path = value_table_path(strategies, rules, n_hands=n_hands, n_samples=n_samples, seed=seed, cache_dir=cache_dir)
    for cached in (path, shipped_table_path(path)):
        if cached.exists():
            table = _read_cached(cached)
            if table is not None:
                return table
    hands = np.array([random_deal(seed, i)[0] for i in range(n_hands)], np.uint64)
    est = evaluate_hands(hands, EvalGrid.configs(0), strategies, seat=0, n_samples=n_samples, seed=seed, rules=rules)
    values = np.array([EvalGrid.contract_values(est.mean[j], est.se[j], 0)[0] for j in range(n_hands)])
    defender = evaluate_hands(hands, EvalGrid.configs(0), strategies, seat=1, n_samples=n_samples, seed=seed,
                              rules=rules)
    table = ValueTable(values.mean(axis=0), block_values(values), n_hands, n_samples, hands, est.mean.copy(),
                       defender.mean.copy())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, json.dumps(table.to_json()), what="the value-table cache")  # a unique temporary name
    except (OSError, OutputError):
        pass  # an unwritable cache only costs the time to rebuild
    return table
