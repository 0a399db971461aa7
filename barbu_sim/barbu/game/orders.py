"""Comparing contract-order policies on the same deal sequences (paired), raw and settled, and in full games."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import polars as pl

from ...core.backends import LocalBackend
from ...core.seats import N_SEATS
from ...core.stats import summarize, wilson_interval
from ..api import evaluate_hands, play_batch
from ..engine.deals import random_deal
from ..rules.config import CONTRACTS, N_CONTRACTS, Rules
from .doubling import Situation, make_doubling_policy
from .evaluation import EvalGrid, Evaluator, value_table
from .game import play_game
from .policies import make_contract_policy, make_players
from .rules import GameReferee, allowed_targets, doubling_order, no_doubles, settle


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
    """What :func:`compare_orders` measured: three tables and the block totals.

    Every table has a ``doubling`` column (the doubling policy every seat used);
    ``blocks`` and ``differences`` also ``score``: ``raw`` (contract scores only) or
    ``settled`` (with the settlements of the doubles).
    """

    blocks: pl.DataFrame  # per doubling policy, policy and score: the declarer's total per 7-hand block
    differences: pl.DataFrame  # the same, as a paired difference from the baseline (the first policy)
    win_rates: pl.DataFrame  # per doubling policy and policy: share of games won when the seats use different policies
    totals: dict  # (doubling, policy, score) -> (n_blocks,) block totals, for charts


def block_hands(policy, doubling, deals, actual, block: int, rules: Rules) -> list[dict]:
    """Play block ``block``: North declares its 7 deals with ``policy``; the seats double with ``doubling``
    (one policy for every seat, or a list of four by seat).

    ``deals``: (n, 4) the deals; ``actual``: (n, EvalGrid.SIZE, 4) their scores in every
    configuration.  Returns one dict per hand: ``hand`` (0..6), ``index``, ``contract``,
    ``param``, ``doubles`` (4x4), ``forced`` (seats forced to double), ``raw``,
    ``settled`` (four scores each) and ``notes`` (what the doubling policy said).
    """
    referee = GameReferee(Rules(), 0)  # the bookkeeping of one declarer-block: contracts, owed doubles
    by_seat = list(doubling) if isinstance(doubling, (list, tuple)) else [doubling] * N_SEATS
    rows = []
    for k in range(N_CONTRACTS):
        j = N_CONTRACTS * block + k
        remaining, owed = referee.remaining(0), referee.owed(0)
        c, p = policy.choose(deals[j][0], remaining, 0, rules, owed)
        referee.declare(0, c, p, who=policy.name)
        situation = Situation(j, tuple(remaining), owed, policy)
        doubles, forced = no_doubles(), []
        for s in doubling_order(0):
            must = referee.must_double(s, 0, k)
            if must:
                forced.append(s)
            targets = by_seat[s].choose(s, 0, c, p, deals[j][s], allowed_targets(s, 0, c, doubles), must, rules,
                                        situation)
            referee.double(k, s, targets, 0, c, doubles)
        raw = actual[j, EvalGrid.column(c, p), :].astype(np.int64)
        rows.append({"hand": k, "index": j, "contract": c, "param": p, "doubles": doubles, "forced": forced,
                     "raw": raw, "settled": raw + settle(raw, doubles), "notes": situation.notes})
    return rows


def deals_chunk(seed: int, strategies, n_samples: int, rules: Rules, lo: int, n: int):
    """Deals ``lo .. lo + n - 1`` of a comparison: ``(deals, North's estimates (mean, se), actual scores)``.

    A pure function (a hand's Monte Carlo deals depend only on the seed, the hand and the seat):
    any process may compute it, in chunks of any size.
    """
    deals = np.array([random_deal(seed, i) for i in range(lo, lo + n)], np.uint64)
    est = evaluate_hands(deals[:, 0], EvalGrid.configs(0), strategies, seat=0, n_samples=n_samples, seed=seed,
                         rules=rules)
    actual, _ = play_batch(seed, lo, n, EvalGrid.configs(0), strategies, rules=rules)
    return deals, est.mean, est.se, actual


def block_deals(blocks: int, seed: int, evaluator: Evaluator, backend=None):
    """The deals of ``blocks`` blocks (North declaring) and their scores in every configuration:
    ``(deals (n, 4) uint64, actual (n, EvalGrid.SIZE, 4))``; North's hands are evaluated into ``evaluator``
    (every policy decides from the same estimates).  ``backend``: where (:mod:`barbu_sim.core.backends`;
    a remote one gets chunks of 256 deals); the result is the same."""
    n = N_CONTRACTS * blocks
    chunk = n if backend is None or backend.name == "local" else 256
    fn = partial(deals_chunk, seed, evaluator.strategies, evaluator.n_samples, evaluator.rules)
    parts = list((backend or LocalBackend()).imap(fn, [(lo, min(chunk, n - lo)) for lo in range(0, n, chunk)],
                                                  what="chunk of deals"))
    deals, mean, se, actual = (np.concatenate([part[i] for part in parts]) for i in range(4))
    for j in range(n):
        evaluator.preload(deals[j, 0], 0, mean[j], se[j])
    return deals, actual


def order_game_winners(seed: int, strategies, seats, doubling: str, rules: Rules, n_samples: int,
                       table_kwargs: dict | None, g: int) -> list[int]:
    """The winners of game ``g`` of a comparison, the seats using contract policies ``seats``."""
    players = make_players(strategies, seats, [doubling] * 4, rules=rules, n_samples=n_samples, seed=seed,
                           table_kwargs=table_kwargs)
    return play_game(seed + 1, g, players, rules=rules).winners


def win_rate_row(doubling: str, policy: str, shares) -> dict:
    """A row of the win-rate table: ``seat_games``, ``mean`` (the share of games won), ``std``, ``se``,
    and the 95% Wilson interval ``ci_low .. ci_high`` (inside [0, 1], unlike ``mean ± 1.96 se``).

    ``shares``: per seat-game, 1 for a win, 1/k for a win shared by k seats, 0 otherwise.
    """
    s = summarize(np.asarray(shares, dtype=np.float64))
    low, high = wilson_interval(s["mean"], s["n"])
    return {"doubling": doubling, "policy": policy, "seat_games": s["n"], "mean": s["mean"], "std": s["std"],
            "se": s["se"], "ci_low": low, "ci_high": high}


def compare_orders(policies: list[str], *, doublings=("compulsory-only",), blocks: int = 300, games: int = 40,
                   seed: int = 0, strategy: str = "heuristic", rules: Rules | None = None, n_samples: int = 100,
                   table_kwargs: dict | None = None, progress=None, backend=None) -> OrderComparison:
    """Pit contract-order policies against each other, under each doubling policy.

    Blocks: ``blocks`` sequences of 7 deals, North declaring all 7; every policy
    sees the same hands in the same order, and the score of each choice is the
    one played on that very deal (paired).  The other seats double with the
    doubling policy (the compulsory doubles included), North redoubles with it, and
    the block is scored raw and settled.  Games: ``games`` full games per doubling
    policy in which the seats use different contract policies (rotated so each
    policy sits at each seat), every seat doubling with it; a tie for first counts
    as a shared win.  ``backend`` (:mod:`barbu_sim.core.backends`) plays the deals and
    games; the tables are the same with any.
    """
    if len(policies) < 2:
        raise ValueError("compare at least two policies")
    if blocks < 2 or games < 0:
        raise ValueError("--blocks must be at least 2 and --games non-negative")
    if not doublings:
        raise ValueError("give at least one doubling policy")
    rules = rules or Rules()
    strategies = [strategy] * N_SEATS
    evaluator = Evaluator(strategies, rules, n_samples, seed)
    table = None

    def table_factory():
        nonlocal table
        if table is None:
            table = value_table(strategies, rules, **(table_kwargs or {}))
        return table

    deals, actual = block_deals(blocks, seed, evaluator, backend)
    totals, block_rows, diff_rows, win_rows = {}, [], [], []
    base = policies[0]
    for dspec in doublings:
        dbl = make_doubling_policy(dspec, evaluator, table_factory)
        for name in policies:
            pol = make_contract_policy(name, evaluator, table_factory, ([dbl] * 3, dbl))
            raw, settled = np.zeros(blocks), np.zeros(blocks)
            for b in range(blocks):
                for row in block_hands(pol, dbl, deals, actual, b, rules):
                    raw[b] += row["raw"][0]
                    settled[b] += row["settled"][0]
            totals[(dbl.name, name, "raw")], totals[(dbl.name, name, "settled")] = raw, settled
            if progress:
                progress(f"{dbl.name} {name}")
        for score in ("raw", "settled"):
            block_rows += [{"doubling": dbl.name, "policy": p, "score": score,
                            **summarize(totals[(dbl.name, p, score)])}
                           for p in policies]
            diff_rows += [{"doubling": dbl.name, "policy": p, "baseline": base, "score": score,
                           **summarize(totals[(dbl.name, p, score)] - totals[(dbl.name, base, score)])}
                          for p in policies[1:]]
        wins = {p: [] for p in policies}
        seating = [[policies[(s + g) % len(policies)] for s in range(N_SEATS)] for g in range(games)]
        games_args = [(seed, strategies, seating[g], dspec, rules, n_samples, table_kwargs, g) for g in range(games)]
        for g, winners in enumerate((backend or LocalBackend()).imap(order_game_winners, games_args, what="game")):
            share = 1.0 / len(winners)
            for s in range(N_SEATS):
                wins[seating[g][s]].append(share if s in winners else 0.0)
        win_rows += [win_rate_row(dbl.name, p, w) for p, w in wins.items() if len(w) > 1]
    return OrderComparison(pl.DataFrame(block_rows), pl.DataFrame(diff_rows),
                           pl.DataFrame(win_rows) if win_rows else pl.DataFrame(), totals)
