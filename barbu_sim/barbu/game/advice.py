"""Which contract to declare with a hand: the expected score of each remaining contract and the call."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from ...core.seats import N_SEATS
from ...core.stats import Z95
from ..choices import param_name
from ..rules import CONTRACTS, DOMINO, N_CONTRACTS, Rules
from .evaluation import Evaluator, value_table
from .policies import make_contract_policy


@dataclass
class Advice:
    """The advisor's answer: one row per remaining contract, and the call it recommends."""

    rows: pl.DataFrame  # contract, name, expected, ci_low, ci_high, average_hand, optimal_value
    recommended: str


def advise(hand, remaining=None, *, strategy: str = "heuristic", rules: Rules | None = None,
           n_samples: int = 2000, seed: int = 0, table_kwargs: dict | None = None) -> Advice:
    """Expected declarer score of each remaining contract for ``hand`` and the ``optimal`` policy's call."""
    rules = rules or Rules()
    remaining = sorted(set(remaining if remaining is not None else range(N_CONTRACTS)))
    if not remaining:
        raise ValueError("give at least one remaining contract")
    evaluator = Evaluator([strategy] * N_SEATS, rules, n_samples, seed)
    values, params, se = evaluator.values(hand, 0)
    table = value_table([strategy] * N_SEATS, rules, **(table_kwargs or {}))
    optimal = make_contract_policy("optimal", evaluator, lambda: table)
    scores = optimal.scores(values, remaining)
    best, best_param = optimal.choose(hand, remaining, 0, rules)
    rows = []
    for c in remaining:
        rows.append({"contract": CONTRACTS[c], "name": param_name(c, int(params[c])) or "", "expected": values[c],
                     "ci_low": values[c] - Z95 * se[c], "ci_high": values[c] + Z95 * se[c],
                     "average_hand": table.average[c], "optimal_value": scores[c]})
    name = param_name(best, best_param)
    label = CONTRACTS[best] + ("" if name is None else f" from {name}" if best == DOMINO else f" {name}")
    return Advice(pl.DataFrame(rows).sort("optimal_value", descending=True), label)
