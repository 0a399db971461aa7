"""The paired comparison of two players: one seat of A against B in that seat, on the same deals.

For each deal and contract, player A sits at one seat among three ``opponents``, and so does
player B on the same deal; with A (and B) at each seat in turn and the declarer at each seat in
turn, a deal is played 16 times a contract and its 16 scores are averaged into one number per deal
(the 16 plays of one deal are not independent; the deals are).  The table gives, per contract and
for the total over the contracts compared, A's and B's mean and "A better by" with its 95% CI
over deals: a paired comparison (common random numbers), since deal ``i`` is a pure function of
``(seed, i)``.  The total's CI is that of the per-deal sum over the contracts, every contract being
played on the same deal indices.

Under rules where the lowest total wins (:attr:`Rules.lower_is_better`), "A better by" is B - A,
so that a positive number always means A plays the seat better.

The standard configuration of the contracts with a choice, as ``barbu-sim run`` plays them by
default: Trumps with the declarer's longest suit as trumps, Domino from the default rank (the 7).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from ...core.blocks import timed_blocks
from ...core.cards import RANK_NAMES, SUIT_LETTERS
from ...core.seats import N_SEATS
from ...core.stats import summarize
from ..api import compile_engine, play_batch
from ..players.registry import canonical_strategy, resolve_strategy
from ..rules.choices import DEFAULT_DOMINO_RANK, POLICIES, TRUMP_LONGEST
from ..rules.config import CONTRACTS, DOMINO, TRUMPS, Contract, Rules, parse_contract

# The choice every study plays for the contracts that have one (``run``'s defaults): the kernels' param codes.
STUDY_PARAMS = {int(TRUMPS): TRUMP_LONGEST, int(DOMINO): DEFAULT_DOMINO_RANK}
PLAYS = N_SEATS * N_SEATS  # plays of one deal and contract: every seat of the player, every declarer
DEFAULT_DEALS = 10_000  # a few seconds with heuristic players, about half a minute with learned ones
MAX_DEALS = 100_000_000
TOTAL = "total"  # the table's last row: the sum over the contracts compared
TABLE_COLUMNS = ("contract", "deals", "a_mean", "b_mean", "a_better_by", "se", "ci_low", "ci_high")


@dataclass(frozen=True, eq=False)
class Comparison:
    """A paired comparison of players ``a`` and ``b`` in one seat among three ``opponents``.

    ``table``: one row per contract compared, then the ``total`` row, with the columns of
    :data:`TABLE_COLUMNS` (means are raw scores per deal, averaged over the 16 plays of a deal).
    ``a_scores`` and ``b_scores``: (deals, n_contracts) float64, each deal's mean over its 16 plays.
    """

    a: str
    b: str
    opponents: str
    deals: int
    seed: int
    contracts: tuple[int, ...]
    params: dict
    rules: Rules
    table: pl.DataFrame
    a_scores: np.ndarray = field(repr=False)
    b_scores: np.ndarray = field(repr=False)

    @property
    def lower_is_better(self) -> bool:
        """True when the lowest total wins: "A better by" is then B - A."""
        return self.rules.lower_is_better

    @property
    def better_by(self) -> str:
        """What "A better by" measures: ``A - B``, or ``B - A`` where the lowest total wins."""
        return "B - A" if self.lower_is_better else "A - B"

    @property
    def choices(self) -> dict:
        """The trump suit and domino rank of the contracts compared, in words (``{"trumps": "longest"}``)."""
        return describe_params({c: p for c, p in self.params.items() if c in self.contracts})

    def to_dict(self) -> dict:
        """The comparison as plain data, for a JSON file."""
        return {"a": self.a, "b": self.b, "opponents": self.opponents,
                "players": {k: canonical_strategy(v) for k, v in (("a", self.a), ("b", self.b),
                                                                  ("opponents", self.opponents))},
                "deals": self.deals, "seed": self.seed,
                "contracts": [CONTRACTS[c] for c in self.contracts], "choices": self.choices,
                "rules": self.rules.to_dict(), "a_better_by": self.better_by,
                "method": "one seat of A among three opponents, against B in that seat on the same deals; every "
                          "seat and declarer (16 plays a deal, averaged); 95% normal CI over deals",
                "rows": self.table.to_dicts()}


def describe_params(params: dict) -> dict:
    """``{"trumps": "longest", "domino": "7"}``: the choices of a params dict (contract id -> kernel code) in words."""
    out = {}
    for contract, code in sorted(params.items()):
        if code < 0:
            words = next(name for name, c in POLICIES[contract].items() if c == code)
        else:
            words = SUIT_LETTERS[code] if contract == TRUMPS else RANK_NAMES[code]
        out[CONTRACTS[contract]] = words
    return out


def contract_ids(contracts: Sequence | None) -> list[int]:
    """Contract ids of names (or ids), in the order given; ``None``: all seven.  A contract named twice is refused."""
    if contracts is None:
        return list(range(len(CONTRACTS)))
    ids = [int(Contract(c)) if isinstance(c, (int, np.integer)) else int(parse_contract(c)) for c in contracts]
    if not ids:
        raise ValueError("compare at least one contract")
    for i, c in enumerate(ids):
        if c in ids[:i]:
            raise ValueError(f"contract {CONTRACTS[c]} is given twice: give each contract once")
    return ids


def seat_scores(player: str, opponents: str, contracts: Sequence[int], seed: int, start: int, n: int, *,
                rules: Rules | None = None, params: dict | None = None, models=None,
                _played: dict | None = None) -> np.ndarray:
    """Per deal and contract, ``player``'s mean score at one seat among three ``opponents``.

    Deals ``start .. start + n - 1`` of run ``seed``; the player sits at each seat in turn and the
    declarer at each seat in turn (16 plays per deal and contract).

    Parameters
    ----------
    player, opponents : strategy specs (``heuristic``, ``mc:samples=64``, ``file.py:func``).
    contracts : contract ids.
    params : contract id -> trump suit / domino rank / choice-policy code (default :data:`STUDY_PARAMS`).
    models : the learned players' model array, when not the installed ones (``api.play_batch``).

    Returns
    -------
    scores : (n, len(contracts)) float64
        Each deal's mean raw score of the player's seat over its 16 plays.
    """
    params = STUDY_PARAMS if params is None else params
    configs = [(c, params.get(c, 0), d) for c in contracts for d in range(N_SEATS)]
    k = len(contracts)
    played = {} if _played is None else _played  # line-up -> (n, k, declarer, seat) scores, shared by A and B
    total = np.zeros((n, k))
    for seat in range(N_SEATS):
        line_up = [opponents] * N_SEATS
        line_up[seat] = player
        key = tuple(s.strip() for s in line_up)
        if key not in played:
            scores, _ = play_batch(seed, start, n, configs, line_up, rules=rules, models=models)
            played[key] = scores.reshape(n, k, N_SEATS, N_SEATS)
        total += played[key][:, :, :, seat].sum(axis=2)
    return total / PLAYS


def compare(a: str, b: str, *, opponents: str = "heuristic", contracts: Sequence | None = None,
            deals: int = DEFAULT_DEALS, seed: int = 0, rules: Rules | None = None, params: dict | None = None,
            threads: int | None = None, progress: bool = False,
            on_block: Callable[[int, int], None] | None = None) -> Comparison:
    """Compare player ``a`` with player ``b`` in one seat among three ``opponents``, on the same deals.

    Parameters
    ----------
    a, b, opponents : strategy specs.
    contracts : contract names or ids (default all seven), each once.
    deals : deals ``0 .. deals - 1`` of run ``seed`` (at least 2, for a confidence interval).
    rules : the rules (default the rules as written); where the lowest total wins, "A better by" is B - A.
    params : contract id -> trump suit / domino rank / choice-policy code (default :data:`STUDY_PARAMS`,
        the declarer's longest suit and dominoes from the 7).
    threads : numba threads (default: as set); the numbers do not depend on it.
    progress : show a tqdm progress bar (on stderr).
    on_block : called with (deals done, deals) after each block of deals.

    Returns
    -------
    Comparison
        Its ``table`` has one row per contract and a ``total`` row (:data:`TABLE_COLUMNS`).
    """
    import numba
    from tqdm import tqdm

    a, b, opponents = a.strip(), b.strip(), opponents.strip()  # as shown and recorded

    for role, spec in (("player A", a), ("player B", b), ("the opponents", opponents)):
        try:
            resolve_strategy(spec)  # an unknown player is a ValueError before any deal is played
        except ValueError as e:
            raise ValueError(f"{role}: {e}") from None
    ids = contract_ids(contracts)
    if not 2 <= deals <= MAX_DEALS:
        raise ValueError(f"the number of deals must be at least 2 (a confidence interval needs two) and at most "
                         f"{MAX_DEALS:,}, not {deals:,}")
    if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"--threads must be at least 1 and at most {numba.config.NUMBA_NUM_THREADS} "
                         f"(the cores numba may use here), not {threads}")
    rules = rules or Rules()
    params = dict(STUDY_PARAMS if params is None else params)
    for player in (a, b):
        compile_engine([player] + [opponents] * (N_SEATS - 1), one=False)  # before the bar, not inside it
    a_scores, b_scores = np.zeros((deals, len(ids))), np.zeros((deals, len(ids)))
    before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        with tqdm(total=deals, unit=" deals", disable=not progress, desc="comparing") as bar:
            for lo, n in timed_blocks(deals):
                played: dict = {}
                a_scores[lo:lo + n] = seat_scores(a, opponents, ids, seed, lo, n, rules=rules, params=params,
                                                  _played=played)
                b_scores[lo:lo + n] = seat_scores(b, opponents, ids, seed, lo, n, rules=rules, params=params,
                                                  _played=played)
                bar.update(n)
                if on_block:
                    on_block(lo + n, deals)
    finally:
        numba.set_num_threads(before)
    return Comparison(a=a, b=b, opponents=opponents, deals=deals, seed=seed, contracts=tuple(ids), params=params,
                      rules=rules, table=comparison_table(a_scores, b_scores, ids, rules.lower_is_better),
                      a_scores=a_scores, b_scores=b_scores)


def comparison_table(a_scores: np.ndarray, b_scores: np.ndarray, contracts: Sequence[int],
                     lower_is_better: bool = False) -> pl.DataFrame:
    """One row per contract and a ``total`` row from per-deal scores ((deals, n_contracts) each).

    "A better by" is A - B, or B - A when ``lower_is_better``; the total's CI is that of the
    per-deal sum over the contracts (paired: every contract was played on the same deals).
    """
    columns = [(CONTRACTS[c], a_scores[:, j], b_scores[:, j]) for j, c in enumerate(contracts)]
    columns.append((TOTAL, a_scores.sum(axis=1), b_scores.sum(axis=1)))
    rows = []
    for name, a, b in columns:
        d = summarize((b - a) if lower_is_better else (a - b))  # positive: A plays the seat better
        rows.append({"contract": name, "deals": len(a), "a_mean": float(a.mean()), "b_mean": float(b.mean()),
                     "a_better_by": d["mean"], "se": d["se"], "ci_low": d["ci_low"], "ci_high": d["ci_high"]})
    schema = {"contract": pl.String, "deals": pl.Int64, **{c: pl.Float64 for c in TABLE_COLUMNS[2:]}}
    return pl.DataFrame(rows, schema=schema)
