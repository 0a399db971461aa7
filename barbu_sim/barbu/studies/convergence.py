"""The published answers under each level of play: do they hold as the players get stronger?

Reads the tables of studies of the same deals, one per level of play at every seat (the
headline study's tables and ``compare-orders``' tables of each level), and gives, per answer,
its value at each level with its 95% CI:

- the best fixed domino starting rank (the declarer's mean; the ranks within the CI of the best);
- the best trump policy (longest suit, strongest suit, a fixed suit);
- the declarer's value per contract (its mean raw score; its edge over the mean of the other three);
- the best contract-order policy, on settled and on raw points per 7-hand block (``compare-orders``).

An answer is *stable* across the last two levels when the choice is the same (ranks, policies),
or each level's best rank is within the CI of the other level's best (tied: the order of two
ranks within the noise is no answer), or the two values' difference is within its 95% CI
(values; the studies are not paired in the tables, so the CI is the unpaired one: a
conservative test).  Nothing is played: the study reads files.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

# What the answers are (results/convergence.json's "method").
METHOD = ("- the best fixed domino starting rank (the declarer's mean; the ranks within the CI of the best); "
          "- the best trump policy (longest suit, strongest suit, a fixed suit); "
          "- the declarer's value per contract (its mean raw score; its edge over the mean of the other three); "
          "- the best contract-order policy, on settled and on raw points per 7-hand block (`compare-orders`).")
CONTRACTS = ("no-tricks", "no-queens", "no-last-two", "no-hearts", "barbu", "trumps", "domino")
Z = 1.959963984540054
RANK_VERDICT = {"same": "yes", "tied": "yes: the two best ranks are tied at both levels", "moved": "no"}


@dataclass(frozen=True)
class Level:
    """One level of play: its name, the folder of its headline-study tables and that of its ``compare-orders``
    tables."""

    name: str
    folder: Path
    orders: Path


def published_levels(results="results") -> list[Level]:
    """The four levels published in ``results``: ``heuristic`` (the headline study), the first learned model,
    round 1 of expert iteration and the packaged model (the strong study), each with its orders tables."""
    r = Path(results)
    return [Level("heuristic", r, r / "orders"),
            Level("learned1", r / "strong-learned1", r / "strong-learned1" / "orders"),
            Level("round 1", r / "strong-round1", r / "strong-round1" / "orders"),
            Level("learned", r / "strong", r / "orders" / "strong")]


def parse_level(text: str) -> Level:
    """``NAME=FOLDER`` or ``NAME=FOLDER,ORDERS`` (default ORDERS: ``FOLDER/orders``) -> a :class:`Level`."""
    name, eq, where = text.partition("=")
    folders = [p.strip() for p in where.split(",")]
    if not eq or not name.strip() or not folders[0] or len(folders) > 2 or "" in folders:
        raise ValueError(f"--level {text!r} must be NAME=FOLDER or NAME=FOLDER,ORDERS_FOLDER (e.g. "
                         "heuristic=results,results/orders)")
    folder = Path(folders[0])
    return Level(name.strip(), folder, Path(folders[1]) if len(folders) == 2 else folder / "orders")


def _load(folder: Path, name: str) -> list[dict]:
    path = folder / f"{name}.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise ValueError(f"cannot read {path} ({e}): make that study first (docs/studies.md)") from None


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise ValueError(message)


def _player(folder: Path) -> str:
    manifest = _load(folder, "manifest")
    strategies = manifest.get("config", manifest).get("strategies", manifest.get("strategy"))
    return strategies[0] if isinstance(strategies, list) else str(strategies)


def best_domino_rank(folder: Path) -> dict:
    """The best fixed domino starting rank for the declarer, and the ranks within its CI."""
    rows = [r for r in _load(folder, "domino_ranks") if r["rel_seat"] == "declarer"]
    _check(len(rows) == 13, f"{folder}: {len(rows)} declarer rows of domino ranks, not 13")
    best = max(rows, key=lambda r: r["mean"])
    close = [r["domino_rank"] for r in rows if r["ci_high"] >= best["ci_low"] and r is not best]
    return {"answer": best["domino_rank"], "mean": best["mean"], "ci_low": best["ci_low"], "ci_high": best["ci_high"],
            "within_ci": close}


def best_trump_policy(folder: Path) -> dict:
    """The declarer's best way to name trumps: a policy or a fixed suit."""
    policies = [r for r in _load(folder, "policies") if r["contract"] == "trumps" and r["rel_seat"] == "declarer"]
    fixed = [r for r in _load(folder, "trumps") if r["choice"] == "fixed" and r["rel_seat"] == "declarer"]
    _check(len(policies) >= 2 and len(fixed) == 4, f"{folder}: {len(policies)} policies, {len(fixed)} fixed suits")
    rows = [(r["choice"], r) for r in policies] + [(f"fixed {r['trump']}", r) for r in fixed]
    name, best = max(rows, key=lambda nr: nr[1]["mean"])
    return {"answer": name, "mean": best["mean"], "ci_low": best["ci_low"], "ci_high": best["ci_high"],
            "others": {n: round(r["mean"], 3) for n, r in rows if r is not best}}


def declarer_values(folder: Path) -> dict:
    """Per contract, the declarer's mean raw score and its edge over the other three, with their standard errors."""
    scores = {r["contract"]: r for r in _load(folder, "contract_scores") if r["rel_seat"] == "declarer"}
    edges = {r["contract"]: r for r in _load(folder, "declarer_edge")}
    _check(set(scores) == set(CONTRACTS) and set(edges) == set(CONTRACTS), f"{folder}: a contract is missing")
    return {c: {"mean": scores[c]["mean"], "se": scores[c]["se"], "edge": edges[c]["mean"], "edge_se": edges[c]["se"]}
            for c in CONTRACTS}


def best_orders(folder: Path) -> dict:
    """The best contract-order policy (``compulsory-only`` doubling), on settled and on raw points a block."""
    rows = [r for r in _load(folder, "orders_blocks") if r["doubling"] == "compulsory-only"]
    out = {}
    for score in ("settled", "raw"):
        mine = [r for r in rows if r["score"] == score]
        _check(len(mine) >= 2, f"{folder}: {len(mine)} {score} rows")
        best = max(mine, key=lambda r: r["mean"])
        out[score] = {"answer": best["policy"], "mean": best["mean"], "ci_low": best["ci_low"],
                      "ci_high": best["ci_high"], "blocks": best["n"]}
    return out


def _same_value(a: float, sa: float, b: float, sb: float) -> tuple[float, float, bool]:
    half = Z * math.hypot(sa, sb)
    return b - a, half, abs(b - a) <= half


def choice_moves(last: dict, new: dict) -> str:
    """``same`` (the same best rank), ``tied`` (each level's best is within the CI of the other level's best:
    the two levels tie the same ranks, only their order within the noise differs) or ``moved``."""
    if last["answer"] == new["answer"]:
        return "same"
    if last["answer"] in new["within_ci"] and new["answer"] in last["within_ci"]:
        return "tied"
    return "moved"


def convergence(levels: list[Level]) -> dict:
    """Every answer at every level, and which answers are stable over the last two (``results/convergence.json``).

    A table that is missing or not what the study wrote is a ValueError naming it.
    """
    if len(levels) < 2:
        raise ValueError(f"give at least two levels to compare, not {len(levels)}")
    names = [lv.name for lv in levels]
    if len(set(names)) != len(names):
        raise ValueError(f"a level is named twice: {', '.join(names)}")
    found = [{"level": lv.name, "folder": str(lv.folder), "player": _player(lv.folder),
              "domino_rank": best_domino_rank(lv.folder), "trump_policy": best_trump_policy(lv.folder),
              "declarer": declarer_values(lv.folder), "orders": best_orders(lv.orders)} for lv in levels]
    last, new = found[-2], found[-1]
    rank_how = choice_moves(last["domino_rank"], new["domino_rank"])
    stable = {"domino_rank": rank_how != "moved", "domino_rank_how": rank_how,
              "trump_policy": last["trump_policy"]["answer"] == new["trump_policy"]["answer"],
              **{f"order_{score}": last["orders"][score]["answer"] == new["orders"][score]["answer"]
                 for score in ("settled", "raw")}}
    moves = {}
    for c in CONTRACTS:
        a, b = last["declarer"][c], new["declarer"][c]
        d, half, same = _same_value(a["mean"], a["se"], b["mean"], b["se"])
        de, half_e, same_e = _same_value(a["edge"], a["edge_se"], b["edge"], b["edge_se"])
        moves[c] = {"value_change": round(d, 4), "value_ci": round(half, 4), "value_stable": same,
                    "edge_change": round(de, 4), "edge_ci": round(half_e, 4), "edge_stable": same_e}
    return {"method": METHOD, "levels": found, "stable_last_two": stable, "declarer_last_two": moves}


def markdown_table(data: dict) -> str:
    """The answers as a Markdown table, one column per level (docs/findings.md holds it)."""
    levels, stable = data["levels"], data["stable_last_two"]
    head = [f"`{lv['level']}`" + (f" (`{lv['player']}`)" if lv["player"] != lv["level"] else "") for lv in levels]
    out = ["| answer | " + " | ".join(head) + " | stable over the last two |",
           "|---|" + "---:|" * len(levels) + "---|"]

    def ci(r):
        return f"{r['mean']:+.2f} ({r['ci_low']:+.2f} .. {r['ci_high']:+.2f})"

    out.append("| best fixed domino rank | " + " | ".join(
        f"{lv['domino_rank']['answer']}: {ci(lv['domino_rank'])}"
        + (f"; within the CI: {', '.join(lv['domino_rank']['within_ci'])}" if lv["domino_rank"]["within_ci"] else "")
        for lv in levels) + f" | {RANK_VERDICT[stable['domino_rank_how']]} |")
    out.append("| best trump policy | " + " | ".join(f"{lv['trump_policy']['answer']}: {ci(lv['trump_policy'])}"
                                                  for lv in levels)
               + f" | {'yes' if stable['trump_policy'] else 'no'} |")
    for score in ("settled", "raw"):
        out.append(f"| best contract order, {score} points a block | " + " | ".join(
            f"{lv['orders'][score]['answer']}: {ci(lv['orders'][score])}" for lv in levels)
            + f" | {'yes' if stable['order_' + score] else 'no'} |")
    for c in CONTRACTS:
        cells = [f"{lv['declarer'][c]['mean']:+.2f} ± {Z * lv['declarer'][c]['se']:.2f} "
                 f"(edge {lv['declarer'][c]['edge']:+.2f})" for lv in levels]
        m = data["declarer_last_two"][c]
        verdict = ("yes" if m["value_stable"] else f"no ({m['value_change']:+.2f} ± {m['value_ci']:.2f})")
        out.append(f"| declarer's value, {c} | " + " | ".join(cells) + f" | {verdict} |")
    return "\n".join(out)
