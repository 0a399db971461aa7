"""The published answers under each level of play: do they hold as the players get stronger?

Reads the tables of four studies of the same deals (seed 2026, the first 1,000,000), one per level:
`heuristic` at every seat (`results/`), the first learned model (`results/strong-learned1/`), round 1
of expert iteration (`results/strong-round1/`) and the packaged model (`results/strong/`), and writes,
per answer, its value at each level with the 95% CI:

- the best fixed domino starting rank (the declarer's mean; the ranks within the CI of the best);
- the best trump policy (longest suit, strongest suit, a fixed suit);
- the declarer's value per contract (its mean raw score; its edge over the mean of the other three);
- the best contract-order policy, on settled and on raw points per 7-hand block (`compare-orders`).

An answer is *stable* across the last two levels when the choice is the same (ranks, policies), or
each level's best rank is within the CI of the other level's best (tied: the order of two ranks
within the noise is no answer), or the two values' difference is within its 95% CI (values; the studies
are not paired in the tables, so the CI is the unpaired one: a conservative test).  Results go to
`--out` (JSON) and a Markdown
table is printed (docs/findings.md holds it).

    python scripts/convergence.py --force
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from barbu_sim.core.outputs import add_force, refuse_existing, write_json  # noqa: E402
LEVELS = (("heuristic", ROOT / "results"), ("learned1", ROOT / "results" / "strong-learned1"),
          ("round 1", ROOT / "results" / "strong-round1"), ("learned", ROOT / "results" / "strong"))
ORDERS = {"heuristic": ROOT / "results" / "orders", "learned1": ROOT / "results" / "strong-learned1" / "orders",
          "round 1": ROOT / "results" / "strong-round1" / "orders",
          "learned": ROOT / "results" / "orders" / "strong"}  # compare-orders' tables at each level
CONTRACTS = ("no-tricks", "no-queens", "no-last-two", "no-hearts", "barbu", "trumps", "domino")
Z = 1.959963984540054


def _load(folder: Path, name: str) -> list[dict]:
    path = folder / f"{name}.json"
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise SystemExit(f"Error: cannot read {path} ({e}): make that study first (docs/findings.md)") from None


def _player(folder: Path) -> str:
    manifest = json.loads((folder / "manifest.json").read_text())
    strategies = manifest.get("config", manifest).get("strategies", manifest.get("strategy"))
    return strategies[0] if isinstance(strategies, list) else str(strategies)


def best_domino_rank(folder: Path) -> dict:
    rows = [r for r in _load(folder, "domino_ranks") if r["rel_seat"] == "declarer"]
    assert len(rows) == 13, f"{folder}: {len(rows)} declarer rows of domino ranks, not 13"
    best = max(rows, key=lambda r: r["mean"])
    close = [r["domino_rank"] for r in rows if r["ci_high"] >= best["ci_low"] and r is not best]
    return {"answer": best["domino_rank"], "mean": best["mean"], "ci_low": best["ci_low"], "ci_high": best["ci_high"],
            "within_ci": close}


def best_trump_policy(folder: Path) -> dict:
    policies = [r for r in _load(folder, "policies") if r["contract"] == "trumps" and r["rel_seat"] == "declarer"]
    fixed = [r for r in _load(folder, "trumps") if r["choice"] == "fixed" and r["rel_seat"] == "declarer"]
    assert len(policies) >= 2 and len(fixed) == 4, f"{folder}: {len(policies)} policies, {len(fixed)} fixed suits"
    rows = [(r["choice"], r) for r in policies] + [(f"fixed {r['trump']}", r) for r in fixed]
    name, best = max(rows, key=lambda nr: nr[1]["mean"])
    return {"answer": name, "mean": best["mean"], "ci_low": best["ci_low"], "ci_high": best["ci_high"],
            "others": {n: round(r["mean"], 3) for n, r in rows if r is not best}}


def declarer_values(folder: Path) -> dict:
    scores = {r["contract"]: r for r in _load(folder, "contract_scores") if r["rel_seat"] == "declarer"}
    edges = {r["contract"]: r for r in _load(folder, "declarer_edge")}
    assert set(scores) == set(CONTRACTS) and set(edges) == set(CONTRACTS), f"{folder}: a contract is missing"
    return {c: {"mean": scores[c]["mean"], "se": scores[c]["se"], "edge": edges[c]["mean"], "edge_se": edges[c]["se"]}
            for c in CONTRACTS}


def best_orders(folder: Path) -> dict:
    rows = [r for r in _load(folder, "orders_blocks") if r["doubling"] == "compulsory-only"]
    out = {}
    for score in ("settled", "raw"):
        mine = [r for r in rows if r["score"] == score]
        assert len(mine) >= 2, f"{folder}: {len(mine)} {score} rows"
        best = max(mine, key=lambda r: r["mean"])
        out[score] = {"answer": best["policy"], "mean": best["mean"], "ci_low": best["ci_low"],
                      "ci_high": best["ci_high"], "blocks": best["n"]}
    return out


def _same_value(a: float, sa: float, b: float, sb: float) -> tuple[float, float, bool]:
    half = Z * math.hypot(sa, sb)
    return b - a, half, abs(b - a) <= half


RANK_VERDICT = {"same": "yes", "tied": "yes: the two best ranks are tied at both levels", "moved": "no"}


def _choice_moves(last: dict, new: dict) -> str:
    """``same`` (the same best rank), ``tied`` (each level's best is within the CI of the other level's best:
    the two levels tie the same ranks, only their order within the noise differs) or ``moved``."""
    if last["answer"] == new["answer"]:
        return "same"
    if last["answer"] in new["within_ci"] and new["answer"] in last["within_ci"]:
        return "tied"
    return "moved"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "results" / "convergence.json"))
    add_force(ap)
    args = ap.parse_args(argv)
    refuse_existing(args.out, args.force)
    levels = [{"level": name, "folder": str(folder.relative_to(ROOT)), "player": _player(folder),
               "domino_rank": best_domino_rank(folder), "trump_policy": best_trump_policy(folder),
               "declarer": declarer_values(folder), "orders": best_orders(ORDERS[name])} for name, folder in LEVELS]
    last, new = levels[-2], levels[-1]
    rank_how = _choice_moves(last["domino_rank"], new["domino_rank"])
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
    out = {"method": __doc__.split("\n\n")[2].replace("\n", " "), "levels": levels, "stable_last_two": stable,
           "declarer_last_two": moves}
    write_json(args.out, out, indent=1)

    names = [lv["level"] for lv in levels]
    head = [f"`{lv['level']}`" + (f" (`{lv['player']}`)" if lv["player"] != lv["level"] else "") for lv in levels]
    print("| answer | " + " | ".join(head) + " | stable over the last two |")
    print("|---|" + "---:|" * len(levels) + "---|")
    ci = lambda r: f"{r['mean']:+.2f} ({r['ci_low']:+.2f} .. {r['ci_high']:+.2f})"  # noqa: E731
    print("| best fixed domino rank | " + " | ".join(
        f"{lv['domino_rank']['answer']}: {ci(lv['domino_rank'])}"
        + (f"; within the CI: {', '.join(lv['domino_rank']['within_ci'])}" if lv["domino_rank"]["within_ci"] else "")
        for lv in levels) + f" | {RANK_VERDICT[rank_how]} |")
    print("| best trump policy | " + " | ".join(f"{lv['trump_policy']['answer']}: {ci(lv['trump_policy'])}"
                                              for lv in levels) + f" | {'yes' if stable['trump_policy'] else 'no'} |")
    for score in ("settled", "raw"):
        print(f"| best contract order, {score} points a block | " + " | ".join(
            f"{lv['orders'][score]['answer']}: {ci(lv['orders'][score])}" for lv in levels)
            + f" | {'yes' if stable['order_' + score] else 'no'} |")
    for c in CONTRACTS:
        cells = [f"{lv['declarer'][c]['mean']:+.2f} ± {Z * lv['declarer'][c]['se']:.2f} "
                 f"(edge {lv['declarer'][c]['edge']:+.2f})" for lv in levels]
        m = moves[c]
        verdict = ("yes" if m["value_stable"] else f"no ({m['value_change']:+.2f} ± {m['value_ci']:.2f})")
        print(f"| declarer's value, {c} | " + " | ".join(cells) + f" | {verdict} |")
    print(f"\nlevels: {', '.join(names)}; written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
