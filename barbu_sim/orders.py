"""Comparing contract-order policies on the same deal sequences (paired), and advising a hand."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from .analysis import Z95
from .cards import RANK_NAMES, SUIT_LETTERS, random_deal
from .engine import evaluate_hands, play_batch
from .game import play_game
from .policies import (
    Evaluator, contract_values, eval_configs, make_contract_policy, make_players, value_table,
)
from .rules import CONTRACTS, DOMINO, TRUMPS, Rules


def config_index(contract: int, param: int) -> int:
    """Column of ``(contract, param)`` in :func:`policies.eval_configs`."""
    if contract == TRUMPS:
        return 5 + param
    if contract == DOMINO:
        return 9 + param
    return contract


def _stats(x: np.ndarray) -> dict:
    n = len(x)
    mean = float(x.mean())
    std = float(x.std(ddof=1)) if n > 1 else 0.0
    se = std / np.sqrt(n)
    return {"n": n, "mean": mean, "std": std, "se": se, "ci_low": mean - Z95 * se, "ci_high": mean + Z95 * se}


@dataclass
class OrderComparison:
    blocks: pl.DataFrame  # per policy: the declarer's total per 7-hand block
    differences: pl.DataFrame  # per policy: paired difference from the baseline
    win_rates: pl.DataFrame  # per policy: share of games won when the seats use different policies
    totals: dict  # policy -> (n_blocks,) block totals, for charts


def compare_orders(policies: list[str], *, blocks: int = 300, games: int = 40, seed: int = 0,
                   strategy: str = "heuristic", rules: Rules | None = None, n_samples: int = 100,
                   table_kwargs: dict | None = None, progress=None) -> OrderComparison:
    """Pit contract-order policies against each other.

    Blocks: ``blocks`` sequences of 7 deals, North declaring all 7; every policy
    sees the same hands in the same order, and the score of each choice is the
    one played on that very deal (paired).  Games: ``games`` full games in which
    the seats use different policies (rotated so each policy sits at each seat),
    with compulsory doubles only; a tie for first counts as a shared win.
    """
    if len(policies) < 2:
        raise ValueError("compare at least two policies")
    if blocks < 2 or games < 0:
        raise ValueError("--blocks must be at least 2 and --games non-negative")
    rules = rules or Rules()
    strategies = [strategy] * 4
    evaluator = Evaluator(strategies, rules, n_samples, seed)
    table = None

    def table_factory():
        nonlocal table
        if table is None:
            table = value_table(strategies, rules, **(table_kwargs or {}))
        return table

    built = [make_contract_policy(p, evaluator, table_factory) for p in policies]
    n = 7 * blocks
    hands = np.array([random_deal(seed, i)[0] for i in range(n)], np.uint64)
    est = evaluate_hands(hands, eval_configs(0), strategies, seat=0, n_samples=n_samples, seed=seed, rules=rules)
    for j in range(n):  # every policy decides from the same estimates
        evaluator.preload(hands[j], 0, contract_values(est.mean[j], est.se[j], 0))
    actual, _ = play_batch(seed, 0, n, eval_configs(0), strategies, rules=rules)
    totals = {}
    for name, pol in zip(policies, built):
        t = np.zeros(blocks)
        for b in range(blocks):
            remaining = list(range(7))
            for k in range(7):
                j = 7 * b + k
                c, p = pol.choose(hands[j], remaining, 0, rules)
                remaining.remove(c)
                t[b] += actual[j, config_index(c, p), 0]
        totals[name] = t
        if progress:
            progress(name)
    base = policies[0]
    block_rows = [{"policy": p, **_stats(totals[p])} for p in policies]
    diff_rows = [{"policy": p, "baseline": base, **_stats(totals[p] - totals[base])} for p in policies[1:]]
    wins = {p: [] for p in policies}
    for g in range(games):
        seats = [policies[(s + g) % len(policies)] for s in range(4)]
        players = make_players(strategies, seats, ["compulsory-only"] * 4, rules=rules, n_samples=n_samples,
                               seed=seed, table_kwargs=table_kwargs)
        result = play_game(seed + 1, g, players, rules=rules)
        share = 1.0 / len(result.winners)
        for s in range(4):
            wins[seats[s]].append(share if s in result.winners else 0.0)
    win_rows = [{"policy": p, "seat_games": len(w), **{k: v for k, v in _stats(np.array(w)).items() if k != "n"}}
                for p, w in wins.items() if len(w) > 1]
    return OrderComparison(pl.DataFrame(block_rows), pl.DataFrame(diff_rows),
                           pl.DataFrame(win_rows) if win_rows else pl.DataFrame(), totals)


def plot_comparison(cmp: OrderComparison):
    """Bar chart: the declarer's expected block total per policy with 95% CIs."""
    import matplotlib.pyplot as plt

    from .plots import SEAT_COLOURS
    colours = list(SEAT_COLOURS.values())
    rows = cmp.blocks.to_dicts()
    fig, ax = plt.subplots(figsize=(7, 4))
    x = np.arange(len(rows))
    ax.bar(x, [r["mean"] for r in rows], yerr=[[r["mean"] - r["ci_low"] for r in rows],
                                                  [r["ci_high"] - r["mean"] for r in rows]],
           capsize=4, color=[colours[i % 4] for i in range(len(rows))])
    ax.set_xticks(x, [r["policy"] if len(r["policy"]) < 20 else r["policy"][:18] + "…" for r in rows])
    ax.set_ylabel("declarer's total per 7-hand block (points)")
    ax.set_title("Contract-order policies: expected block total, 95% CI")
    fig.tight_layout()
    return fig


@dataclass
class Advice:
    rows: pl.DataFrame  # contract, choice, expected, ci_low, ci_high, optimal score
    recommended: str


def advise(hand, remaining=None, *, strategy: str = "heuristic", rules: Rules | None = None,
           n_samples: int = 2000, seed: int = 0, table_kwargs: dict | None = None) -> Advice:
    """Expected declarer score of each remaining contract for ``hand`` and the ``optimal`` policy's call."""
    rules = rules or Rules()
    remaining = sorted(set(remaining if remaining is not None else range(7)))
    if not remaining:
        raise ValueError("give at least one remaining contract")
    evaluator = Evaluator([strategy] * 4, rules, n_samples, seed)
    values, params, se = evaluator.values(hand, 0)
    table = value_table([strategy] * 4, rules, **(table_kwargs or {}))
    optimal = make_contract_policy("optimal", evaluator, lambda: table)
    scores = optimal.scores(values, remaining)
    best, best_param = optimal.choose(hand, remaining, 0, rules)
    rows = []
    for c in remaining:
        choice = SUIT_LETTERS[params[c]] if c == TRUMPS else RANK_NAMES[params[c]] if c == DOMINO else ""
        rows.append({"contract": CONTRACTS[c], "name": choice, "expected": values[c],
                     "ci_low": values[c] - Z95 * se[c], "ci_high": values[c] + Z95 * se[c],
                     "average_hand": table.average[c], "optimal_value": scores[c]})
    label = CONTRACTS[best] + (f" {SUIT_LETTERS[best_param]}" if best == TRUMPS else
                               f" from {RANK_NAMES[best_param]}" if best == DOMINO else "")
    return Advice(pl.DataFrame(rows).sort("optimal_value", descending=True), label)
