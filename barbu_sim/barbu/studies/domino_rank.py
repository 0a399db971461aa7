"""Which Domino starting rank should the declarer name? A paired check at every seat of one player.

The strong study names the best fixed rank from a million deals of a fast player; this checks the
ranks that matter with the strongest (and slowest) player, on deals of a seed the studies never
used.  Every deal is played from each rank asked for with one player at all four seats, North
declaring; the declarer's score from each rank is paired per deal with its score from the first
rank, and each difference gets a 95% CI over deals.  It answers "is rank A better than rank B for
the declarer under strong play", which the study's single best rank cannot.

Blocks of deals are kept in a work folder as they finish: an interrupted check loses at most the
blocks in flight, and the same call goes on from there (a block depends only on the seed and its
deals, so the figures are the same however often it stops).
"""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import numpy as np

from ...core.cards import RANK_NAMES, parse_rank
from ...core.stats import summarize
from ..api import play_batch
from ..players.registry import canonical_strategy
from ..rules import DOMINO

DEFAULT_SEED = 3031  # a seed no study of the project used
DEFAULT_DEALS = 2000
DEFAULT_BLOCK = 500
DECLARER = 0  # North; every seat is the same player, so one declarer seat is enough
METHOD = ("Domino, the same player at every seat, North declaring; each deal played from every rank; "
          "the declarer's score from each rank minus its score from the first rank, paired per deal; "
          "95% normal CI over deals (barbu-sim study domino-rank)")


def block_scores(strategy: str, ranks: tuple[int, ...], seed: int, lo: int, n: int) -> np.ndarray:
    """Deals ``lo .. lo + n - 1``: the declarer's score from each rank, ``(n, len(ranks))`` (a pure function)."""
    configs = [(DOMINO, r, DECLARER) for r in ranks]
    scores, _ = play_batch(seed, lo, n, configs, strategy)
    return scores[:, :, DECLARER].astype(np.int16)


def parse_ranks(text: str) -> tuple[int, ...]:
    """``2,8,A`` -> rank numbers (0 = 2 .. 12 = A), at least two and none twice."""
    ranks = tuple(parse_rank(t.strip()) for t in text.split(",") if t.strip())
    if len(ranks) < 2 or len(set(ranks)) != len(ranks):
        raise ValueError(f"--ranks needs two or more different ranks (2,8 or 2,A,8), not {text!r}")
    return ranks


def default_work(strategy: str, seed: int, runs="runs") -> Path:
    """Where the blocks of a check are kept by default: ``runs/domino-rank-check/STRATEGY-SEED``."""
    folder = re.sub(r"[^A-Za-z0-9@.-]+", "_", canonical_strategy(strategy))  # mc's parameters hold = and ,
    return Path(runs) / "domino-rank-check" / f"{folder}-{seed}"


def table(rows: list[dict]) -> str:
    """The figures as a Markdown table."""
    out = ["| rank | declarer's mean (95% CI) | minus the first rank (95% CI) |", "|---|---:|---:|"]
    for r in rows:
        diff = "" if r["difference"] is None else \
            f"{r['difference']:+.2f} ({r['difference_ci_low']:+.2f} .. {r['difference_ci_high']:+.2f})"
        out.append(f"| {r['rank']} | {r['mean']:+.2f} ({r['ci_low']:+.2f} .. {r['ci_high']:+.2f}) | {diff} |")
    return "\n".join(out)


def summary(scores: np.ndarray, ranks: tuple[int, ...]) -> list[dict]:
    """One row per rank: the declarer's mean and, from the second rank on, its paired difference from the first."""
    rows = []
    for j, r in enumerate(ranks):
        s = summarize(scores[:, j])
        d = summarize(scores[:, j].astype(np.float64) - scores[:, 0]) if j else None
        rows.append({"rank": RANK_NAMES[r], "mean": s["mean"], "ci_low": s["ci_low"], "ci_high": s["ci_high"],
                     "difference": d and d["mean"], "difference_ci_low": d and d["ci_low"],
                     "difference_ci_high": d and d["ci_high"]})
    return rows


def block_files(ranks: tuple[int, ...], deals: int, block: int, work) -> dict[tuple[int, int], Path]:
    """The check's blocks ``(first deal, deals)``, in order, each with its file in ``work`` (there or not yet)."""
    tag = "-".join(RANK_NAMES[r] for r in ranks)
    blocks = [(lo, min(block, deals - lo)) for lo in range(0, deals, block)]
    return {b: Path(work) / f"ranks-{tag}-{b[0]:08d}-{b[1]}.npy" for b in blocks}


def check_work(work, strategy: str, seed: int) -> None:
    """The work folder's blocks are of one player and seed: ``work/settings.json`` records them when the first
    block is played, and a check by another player or seed is refused (ValueError) rather than given the
    blocks of the first, which its block files' names do not tell apart."""
    from ...core.files import read_json, write_json
    settings = {"strategy": str(canonical_strategy(strategy)), "seed": int(seed)}
    path = Path(work) / "settings.json"
    if not path.exists():
        write_json(path, settings, what="the work folder's settings")
        return
    stored = read_json(path, str(path))
    if stored != settings:
        was = (f"{stored.get('strategy')} with seed {stored.get('seed')}" if isinstance(stored, dict)
               else "another check")
        raise ValueError(f"the blocks in {work} were played by {was}, not {settings['strategy']} with seed {seed}: "
                         "name another --work folder")


def check_ranks(strategy: str, ranks: tuple[int, ...], *, deals: int = DEFAULT_DEALS, seed: int = DEFAULT_SEED,
                block: int = DEFAULT_BLOCK, work, backend=None, progress: bool = False) -> list[dict]:
    """Play the check (the blocks not yet in ``work``) and return :func:`summary`'s rows.

    Parameters
    ----------
    strategy : the player at every seat.
    ranks : rank numbers (:func:`parse_ranks`); each is compared with the first.
    deals, seed : deals ``0 .. deals - 1`` of ``seed`` (at least 2).
    block : deals per block kept on disk, as ``work/ranks-<ranks>-<first deal>-<deals>.npy``.
    backend : where blocks are played (:mod:`barbu_sim.core.backends`; default this process).
    progress : a tqdm bar over the deals (on stderr).

    A ``KeyboardInterrupt`` leaves every finished block in ``work``.
    """
    from tqdm import tqdm

    from ...core.backends import make_backend
    if deals < 2 or block < 1:
        raise ValueError("--deals must be at least 2 and --block at least 1")
    backend = backend or make_backend("local")
    Path(work).mkdir(parents=True, exist_ok=True)
    check_work(work, strategy, seed)
    path = block_files(ranks, deals, block, work)
    blocks = list(path)
    todo = [b for b in blocks if not path[b].exists()]
    with tqdm(total=deals, initial=deals - sum(n for _, n in todo), unit=" deals", disable=not progress,
              desc="domino ranks") as bar:
        done = backend.imap(partial(block_scores, strategy, ranks, seed), todo, what="block of deals")
        for b, scores in zip(todo, done):
            tmp = path[b].with_suffix(".tmp.npy")
            np.save(tmp, scores)
            tmp.replace(path[b])  # a block is on disk whole or not at all
            bar.update(b[1])
    scores = np.concatenate([np.load(path[b]) for b in blocks])
    if len(scores) != deals:
        raise ValueError(f"the blocks in {work} hold {len(scores):,} deals, not {deals:,}")
    return summary(scores, ranks)


def check_file(rows: list[dict], strategy: str, seed: int, deals: int, command: str) -> dict:
    """What the check's JSON file holds (``results/domino_rank_check.json``)."""
    return {"strategy": canonical_strategy(strategy), "seed": seed, "deals": deals, "declarer": "N",
            "method": METHOD, "command": command, "rows": rows}
