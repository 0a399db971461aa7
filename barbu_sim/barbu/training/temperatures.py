"""The temperatures of mc's policy inference (``mc:infer=policy``), fitted by maximum likelihood on held-out plays
(``barbu-sim train temperatures``).

The policy model says a seat plays card ``c`` of its legal cards ``L`` with probability

    p(c) = (1 - eps) * exp(v_c / T) / sum_{d in L} exp(v_d / T) + eps / |L|

where ``v`` are the learned player's card scores (:func:`barbu_sim.barbu.players.learned.learned_scores`)
from that seat's view.  For each table type (four ``learned``, four ``heuristic`` or four ``basic``
players) and each contract, deals of that table are played through, every play of a seat with more
than one legal card is kept with its scores, ``T`` and ``eps`` are fitted on the even deals (a grid:
the likeliest pair) and the log-likelihood per play is reported on the odd deals (held out), beside
that of a uniform choice among the legal cards.  The fitted pairs are the table of
``barbu_sim.barbu.players.mc.params.POLICY_TEMPERATURE`` / ``POLICY_EPSILON`` (a test checks they agree).

The deals are those of seed 9091 (not the learned player's training seeds, nor any measurement's).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ...core.files import write_json
from ...core.outputs import check_out
from ..engine.deals import random_deal
from ..position import Position
from ..players.learned import LEARNED_WORK_SIZE, learned_scores, model_array, model_id
from ..players.registry import resolve_strategy
from ..rules import CONTRACTS, DOMINO, N_CONTRACTS, TRUMPS
from ..state import STATE_SIZE

TABLES = ("learned", "heuristic", "basic")  # in the order of the policy field's values 1, 2, 3 (mc.params)
TEMPERATURES = np.exp(np.linspace(np.log(0.01), np.log(50.0), 75))  # points of the contract's score
EPSILONS = np.array([0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3])
SEED = 9091
DEFAULT_DEALS = 2100
MIN_DEALS = 2 * N_CONTRACTS  # an even and an odd deal per contract
DEFAULT_OUT = "results/policy_temperature.json"
METHOD = ("maximum likelihood on the even deals over a grid of T (75 steps, log-spaced 0.01..50) and eps; "
          "log-likelihood per play on the odd deals")


def table_plays(table: str, deals: int, seed: int = SEED, progress: bool = False) -> dict:
    """Every play with a choice in ``deals`` deals of four ``table`` players: contract, deal, the legal cards'
    scores (rows padded with -inf to 13), and the column of the card played (``progress``: a bar of the deals)."""
    from tqdm import tqdm
    func = resolve_strategy(table).func
    model = model_array()
    scores = np.zeros(52, np.float64)
    work = np.zeros(STATE_SIZE + LEARNED_WORK_SIZE, np.uint64)
    rows, chosen, contracts, deal_no = [], [], [], []
    for i in tqdm(range(deals), desc=f"{table} tables", unit=" deals", disable=not progress):
        contract = i % N_CONTRACTS
        param = (i // N_CONTRACTS) % 4 if contract == TRUMPS else (5 if contract == DOMINO else 0)
        pos = Position(random_deal(seed, i), contract, param, (i // N_CONTRACTS) % 4, seed=seed, index=i)
        for legal, hand in pos.turns():
            cards = [c for c in range(52) if int(legal) >> c & 1]
            if len(cards) > 1:
                work[:STATE_SIZE] = pos.state[:STATE_SIZE]
                learned_scores(legal, hand, work, pos.rng.copy(), model, np.int64(STATE_SIZE), scores)
            card = int(func(legal, hand, pos.state, pos.rng))
            if len(cards) > 1:
                row = np.full(13, -np.inf)
                row[:len(cards)] = scores[cards]
                rows.append(row)
                chosen.append(cards.index(card))
                contracts.append(contract)
                deal_no.append(i)
            pos.play(card)
    return {"scores": np.array(rows), "chosen": np.array(chosen), "contract": np.array(contracts),
            "deal": np.array(deal_no)}


def log_likelihood(scores: np.ndarray, chosen: np.ndarray, t: float, eps: float) -> float:
    """The mean log-probability of the cards played under the policy model with temperature ``t`` and ``eps``."""
    z = scores / t
    z = z - z.max(axis=1, keepdims=True)  # log-space: no overflow, the best card's term is 1
    e = np.exp(z)
    soft = e[np.arange(len(chosen)), chosen] / e.sum(axis=1)
    n = np.isfinite(scores).sum(axis=1)
    return float(np.mean(np.log((1.0 - eps) * soft + eps / n)))


def fit(scores: np.ndarray, chosen: np.ndarray) -> tuple[float, float, float]:
    """The grid's likeliest (T, eps) and its mean log-likelihood per play."""
    best = (np.nan, np.nan, -np.inf)
    for t in TEMPERATURES:
        for eps in EPSILONS:
            ll = log_likelihood(scores, chosen, t, eps)
            if ll > best[2]:
                best = (float(t), float(eps), ll)
    return best


def table_rows(table: str, deals: int, seed: int = SEED, progress: bool = False) -> list[dict]:
    """One row per contract for the ``table`` type: the fitted (T, eps), and the held-out log-likelihood beside a
    uniform choice's and the share of plays that were the learned player's top card."""
    data = table_plays(table, deals, seed, progress)
    rows = []
    for c in range(N_CONTRACTS):
        mine = data["contract"] == c
        train = mine & (data["deal"] % 2 == 0)
        held = mine & (data["deal"] % 2 == 1)
        t, eps, train_ll = fit(data["scores"][train], data["chosen"][train])
        held_ll = log_likelihood(data["scores"][held], data["chosen"][held], t, eps)
        uniform = float(np.mean(-np.log(np.isfinite(data["scores"][held]).sum(axis=1))))
        argmax = float(np.mean(np.argmax(data["scores"][held], axis=1) == data["chosen"][held]))
        rows.append({"table": table, "contract": CONTRACTS[c], "temperature": round(t, 4), "epsilon": eps,
                     "train_plays": int(train.sum()), "held_out_plays": int(held.sum()),
                     "train_log_likelihood": round(train_ll, 4), "held_out_log_likelihood": round(held_ll, 4),
                     "uniform_log_likelihood": round(uniform, 4), "held_out_top_card_share": round(argmax, 4)})
    return rows


def fit_temperatures(out=DEFAULT_OUT, *, deals: int = DEFAULT_DEALS, tables: Sequence[str] | None = None,
                     force: bool = False, progress: bool = False,
                     on_table: Callable[[str, list[dict]], None] | None = None) -> dict:
    """Fit (T, eps) per table type and contract on ``deals`` deals of each table, and write them to ``out``.

    ``tables``: some of :data:`TABLES` (default all three, in that order); ``out`` is refused before any
    deal is played when it exists, unless ``force``; ``progress``: a bar of each table's deals;
    ``on_table`` is called with each table's rows.
    Returns the file's content: ``{"seed", "deals", "model", "method", "rows"}``.
    """
    check_out(out, force)
    if deals < MIN_DEALS:
        raise ValueError(f"--deals must be at least {MIN_DEALS} (an even and an odd deal per contract)")
    tables = list(tables or TABLES)
    if len(set(tables)) != len(tables):  # the second fit of a table would only replace the first
        raise ValueError(f"--table {next(t for t in tables if tables.count(t) > 1)} is given twice: name each "
                         "table type once")
    for table in tables:
        if table not in TABLES:
            raise ValueError(f"--table must be one of {', '.join(TABLES)}, not {table!r}")
    rows = []
    for table in tables:
        rows += table_rows(table, deals, progress=progress)
        if on_table:
            on_table(table, rows[-N_CONTRACTS:])
    data = {"seed": SEED, "deals": deals, "model": model_id(), "method": METHOD, "rows": rows}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    write_json(out, data, what="the policy temperatures")
    return data
