"""How much the answers change between the rule presets, paired on the same deals (``results/preset_study.json``).

For each preset, the same deals are played with one player (``heuristic``) at every seat, North
declaring: the five negative contracts, Trumps in the standard configuration of the studies (the
declarer's longest suit, :data:`~.compare.STUDY_PARAMS`), and Domino from each of the 13
starting ranks.  Per preset and contract: the declarer's mean raw score (the contract's value to
the declarer) and its paired difference from the default rules on the same deals (95% CI); for
Domino, the best starting rank (the declarer's highest mean) and its value.

Left out: ``every-dealer`` (it changes who declares in a game, not a hand) and
``positive-penalties`` (the default game with every score's sign turned over: the same numbers,
negated).
"""

from __future__ import annotations

import time

import numpy as np

from ...core.cards import RANK_NAMES
from ...core.stats import summarize
from ..api import play_batch
from ..rules import CONTRACTS, DOMINO, NEGATIVE_CONTRACTS, PRESETS, TRUMPS
from .compare import STUDY_PARAMS

STUDIED = [name for name in PRESETS if name not in ("every-dealer", "positive-penalties")]
# North declares: each negative contract, Trumps (longest suit), Domino from each rank.
CONFIGS = ([(c, 0, 0) for c in NEGATIVE_CONTRACTS] + [(TRUMPS, STUDY_PARAMS[int(TRUMPS)], 0)]
           + [(DOMINO, r, 0) for r in range(13)])
DOMINO_FROM = len(NEGATIVE_CONTRACTS) + 1
DEFAULT_DEALS = 200_000
DEFAULT_SEED = 22


def declarer_columns(scores: np.ndarray) -> tuple[np.ndarray, int, np.ndarray]:
    """(n, 7) declarer scores per contract, Domino at its best starting rank; that rank; the 13 ranks' means."""
    north = scores[:, :, 0].astype(np.int64)
    domino = north[:, DOMINO_FROM:]
    sums = domino.sum(axis=0)  # integer sums: the same best rank on every machine
    best = int(np.argmax(sums))
    return np.column_stack([north[:, :DOMINO_FROM], domino[:, best]]), best, sums / len(north)


def preset_study(deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED, strategy: str = "heuristic", *,
                 progress: bool = False) -> dict:
    """Play the study: ``deals`` deals of ``seed`` under every preset of :data:`STUDIED`, ``strategy`` at every
    seat; returns what ``results/preset_study.json`` holds (``rows``: one per preset and contract)."""
    from tqdm import tqdm

    play_batch(seed, 0, 1, CONFIGS, strategy)  # compile first: the time below is play only
    t0 = time.perf_counter()
    columns = {}
    rows = []
    for name in tqdm(STUDIED, unit=" presets", disable=not progress, desc="presets"):
        rules = PRESETS[name]
        scores, _ = play_batch(seed, 0, deals, CONFIGS, strategy, rules=rules)
        values, best, rank_means = declarer_columns(scores)
        if rules.fixed_domino_start is not None:
            best = rules.fixed_domino_start  # every column played from it: the rank named changes nothing
        columns[name] = values
        for c in range(7):
            value = summarize(values[:, c])
            diff = summarize(values[:, c] - columns["default"][:, c])
            rows.append({"preset": name, "contract": CONTRACTS[c], "total": rules.contract_total(c),
                         "declarer_mean": value["mean"], "declarer_se": value["se"],
                         "difference": diff["mean"], "ci_low": diff["ci_low"], "ci_high": diff["ci_high"],
                         "domino_best_rank": RANK_NAMES[best] if c == DOMINO else None,
                         "domino_rank_means": ({RANK_NAMES[r]: round(float(m), 3) for r, m in enumerate(rank_means)}
                                               if c == DOMINO else None)})
    seconds = time.perf_counter() - t0
    return {"deals": deals, "seed": seed, "strategy": strategy, "declarer": "N", "trumps": "longest",
            "seconds": round(seconds, 1), "presets": STUDIED, "rows": rows}


def markdown_table(rows: list[dict]) -> str:
    """One line per preset: the declarer's mean per contract and, where it moves, the paired change."""
    head = "| preset | " + " | ".join(CONTRACTS) + " | best domino rank |"
    lines = [head, "|---|" + "---:|" * 8]
    for name in dict.fromkeys(r["preset"] for r in rows):
        cells = []
        for r in (r for r in rows if r["preset"] == name):
            cell = f"{r['declarer_mean']:+.2f}"
            if r["ci_low"] > 0 or r["ci_high"] < 0:  # a change the deals can tell from none
                cell += f" ({r['difference']:+.2f})"
            cells.append(cell)
            if r["domino_best_rank"] is not None:
                best = r["domino_best_rank"]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {best} |")
    return "\n".join(lines)
