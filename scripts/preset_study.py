"""How much the answers change between the rule presets, paired on the same deals.

For each preset, the same deals are played with heuristic players at every seat, North declaring:
the five negative contracts, Trumps with the declarer's longest suit, and Domino from each of the 13
starting ranks.  Per preset and contract it reports the declarer's mean raw score (the contract's
value to the declarer) and its paired difference from the default rules on the same deals (95% CI);
for Domino the best starting rank (the declarer's highest mean) and its value.

Left out: ``every-dealer`` (it changes who declares in a game, not a hand) and
``positive-penalties`` (the default game with every score's sign turned over: the same numbers,
negated).  Writes results/preset_study.json and prints a Markdown table.

    python scripts/preset_study.py --force              # 200,000 deals per preset (about a minute or two on 2 cores)
    python scripts/preset_study.py --deals 500 --out /tmp/ps.json
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from barbu_sim.barbu.api import play_batch
from barbu_sim.barbu.rules.choices import TRUMP_LONGEST
from barbu_sim.barbu.rules import CONTRACTS, DOMINO, NEGATIVE_CONTRACTS, PRESETS, TRUMPS
from barbu_sim.core.cards import RANK_NAMES
from barbu_sim.core.stats import summarize

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from barbu_sim.core.outputs import add_force, refuse_existing, write_json  # noqa: E402
STUDIED = [name for name in PRESETS if name not in ("every-dealer", "positive-penalties")]
# North declares: each negative contract, Trumps (longest suit), Domino from each rank.
CONFIGS = [(c, 0, 0) for c in NEGATIVE_CONTRACTS] + [(TRUMPS, TRUMP_LONGEST, 0)] + [(DOMINO, r, 0) for r in range(13)]
DOMINO_FROM = len(NEGATIVE_CONTRACTS) + 1


def declarer_columns(scores: np.ndarray) -> tuple[np.ndarray, int, np.ndarray]:
    """(n, 7) declarer scores per contract, Domino at its best starting rank; that rank; the 13 ranks' means."""
    north = scores[:, :, 0].astype(np.int64)
    domino = north[:, DOMINO_FROM:]
    sums = domino.sum(axis=0)  # integer sums: the same best rank on every machine
    best = int(np.argmax(sums))
    return np.column_stack([north[:, :DOMINO_FROM], domino[:, best]]), best, sums / len(north)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--strategy", default="heuristic")
    ap.add_argument("--out", default=str(ROOT / "results" / "preset_study.json"))
    add_force(ap)
    args = ap.parse_args(argv)
    refuse_existing(args.out, args.force)
    play_batch(args.seed, 0, 1, CONFIGS, args.strategy)  # compile first: the time below is play only
    t0 = time.perf_counter()
    columns = {}
    rows = []
    for name in STUDIED:
        rules = PRESETS[name]
        scores, _ = play_batch(args.seed, 0, args.deals, CONFIGS, args.strategy, rules=rules)
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
    out = Path(args.out)
    write_json(out, {"deals": args.deals, "seed": args.seed, "strategy": args.strategy,
                     "declarer": "N", "trumps": "longest", "seconds": round(seconds, 1),
                     "presets": STUDIED, "rows": rows})
    print(markdown_table(rows))
    print(f"\n{args.deals:,} deals per preset, {len(STUDIED)} presets, {seconds:.0f} s -> {out}")


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


if __name__ == "__main__":
    main()
