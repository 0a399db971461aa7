"""Comparing contract-order policies on the same deal sequences (paired), and in full games."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from ...core.seats import N_SEATS
from ...core.stats import summarize
from ..api import evaluate_hands, play_batch
from ..deals import random_deal
from ..rules import CONTRACTS, N_CONTRACTS, Rules
from .evaluation import EvalGrid, Evaluator, value_table
from .game import play_game
from .policies import make_contract_policy, make_players


def split_policies(text: str) -> list[str]:
    """Policy names from a comma list, where a fixed order keeps its own commas.

    >>> split_policies("fixed,fixed:domino,trumps,barbu,no-hearts,no-last-two,no-queens,no-tricks,optimal")
    ['fixed', 'fixed:domino,trumps,barbu,no-hearts,no-last-two,no-queens,no-tricks', 'optimal']
    """
    names: list[str] = []
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        # A contract name is never a policy: it continues the fixed order before it.
        if names and names[-1].startswith("fixed:") and item.lower().replace("_", "-") in CONTRACTS:
            names[-1] += "," + item
        else:
            names.append(item)
    return names


@dataclass
class OrderComparison:
    """What :func:`compare_orders` measured: three tables and the raw block totals."""

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
    strategies = [strategy] * N_SEATS
    evaluator = Evaluator(strategies, rules, n_samples, seed)
    table = None

    def table_factory():
        nonlocal table
        if table is None:
            table = value_table(strategies, rules, **(table_kwargs or {}))
        return table

    built = [make_contract_policy(p, evaluator, table_factory) for p in policies]
    n = N_CONTRACTS * blocks
    hands = np.array([random_deal(seed, i)[0] for i in range(n)], np.uint64)
    est = evaluate_hands(hands, EvalGrid.configs(0), strategies, seat=0, n_samples=n_samples, seed=seed, rules=rules)
    for j in range(n):  # every policy decides from the same estimates
        evaluator.preload(hands[j], 0, est.mean[j], est.se[j])
    actual, _ = play_batch(seed, 0, n, EvalGrid.configs(0), strategies, rules=rules)
    totals = {}
    for name, pol in zip(policies, built):
        t = np.zeros(blocks)
        for b in range(blocks):
            remaining = list(range(N_CONTRACTS))
            for k in range(N_CONTRACTS):
                j = N_CONTRACTS * b + k
                c, p = pol.choose(hands[j], remaining, 0, rules)
                remaining.remove(c)
                t[b] += actual[j, EvalGrid.column(c, p), 0]
        totals[name] = t
        if progress:
            progress(name)
    base = policies[0]
    block_rows = [{"policy": p, **summarize(totals[p])} for p in policies]
    diff_rows = [{"policy": p, "baseline": base, **summarize(totals[p] - totals[base])} for p in policies[1:]]
    wins = {p: [] for p in policies}
    for g in range(games):
        seats = [policies[(s + g) % len(policies)] for s in range(N_SEATS)]
        players = make_players(strategies, seats, ["compulsory-only"] * 4, rules=rules, n_samples=n_samples,
                               seed=seed, table_kwargs=table_kwargs)
        result = play_game(seed + 1, g, players, rules=rules)
        share = 1.0 / len(result.winners)
        for s in range(N_SEATS):
            wins[seats[s]].append(share if s in result.winners else 0.0)
    win_rows = [{"policy": p, "seat_games": len(w), **{k: v for k, v in summarize(np.array(w)).items() if k != "n"}}
                for p, w in wins.items() if len(w) > 1]
    return OrderComparison(pl.DataFrame(block_rows), pl.DataFrame(diff_rows),
                           pl.DataFrame(win_rows) if win_rows else pl.DataFrame(), totals)
