"""What doubling the declarer is worth, and how the doubling policies do: writes results/doubling/.

North declares ``--blocks`` blocks of 7 hands with the contract policy ``optimal``
(which plans with the doubling policies in force) and redoubles with
``threshold``; the deals and their scores in every contract are the same for
every doubling policy studied (paired).  East doubles with the policy studied,
South and West make only their compulsory doubles.

Tables (CSV, JSON and doubling.md):

- ``gain_by_contract_hand``: the gain of one double on the declarer (``raw_p - raw_d``
  for a defender ``p``), by contract and by hand of the block, over every defender
  and hand of the ``compulsory-only`` run: what a double there is worth on average;
- ``voluntary_gains``: per doubling policy and contract, East's doubles of the
  declarer that no rule forced (for ``bayes`` split into those made on the margin
  and the compulsory ones spent early, ``planned``), and the settlement they realised;
- ``policies``: East's settled points per block under each doubling policy, and the
  paired difference from ``compulsory-only`` and from ``threshold``.

    python scripts/doubling_study.py --force                          # 1000 blocks, 2-6 minutes on 2 cores
    python scripts/doubling_study.py --blocks 20 --out /tmp/doubling   # a smoke run
    python scripts/doubling_study.py --seed 1 --rows /tmp/seed1.parquet --out /tmp/d1   # rows to pool with others
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import polars as pl

from barbu_sim.barbu.game.doubling import CompulsoryOnly, make_doubling_policy
from barbu_sim.barbu.game.evaluation import Evaluator, value_table
from barbu_sim.barbu.game.orders import block_deals, block_hands
from barbu_sim.barbu.game.policies import make_contract_policy
from barbu_sim.barbu.rules import CONTRACTS, N_CONTRACTS, Rules
from barbu_sim.core.stats import summarize
from barbu_sim.core.tables import to_markdown

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from barbu_sim.core.outputs import (add_force, check_folder_files, fail, json_writer, refuse_existing,  # noqa: E402
                          text_writer, write_set)

EAST = 1
# The study's tables: each written to --out as NAME.csv and NAME.json
TABLES = ("gain_by_contract_hand", "gain_by_contract", "voluntary_gains", "policies")


def run_policy(spec, evaluator, table_factory, deals, actual, blocks, rules):
    """Play every block with East doubling by ``spec``; one row per hand and defender."""
    east = make_doubling_policy(spec, evaluator, table_factory)
    redoubler = make_doubling_policy("threshold", evaluator, table_factory)
    seats = [redoubler, east, CompulsoryOnly(), CompulsoryOnly()]
    declarer = make_contract_policy("optimal", evaluator, table_factory, (seats[1:], redoubler))
    rows = []
    for b in range(blocks):
        for h in block_hands(declarer, seats, deals, actual, b, rules):
            for p in (1, 2, 3):
                doubled = bool(h["doubles"][p][0])
                note = h["notes"].get(p, {})
                reason = ("forced" if p in h["forced"] else note.get("reasons", {}).get(0, "voluntary")) \
                    if doubled else ""
                rows.append({"policy": east.name, "block": b, "hand": h["hand"] + 1,
                             "contract": CONTRACTS[h["contract"]], "defender": p, "doubled": doubled,
                             "reason": reason, "redoubled": bool(h["doubles"][0][p]),
                             "gain": int(h["raw"][p] - h["raw"][0]),
                             "realised": int(h["settled"][p] - h["raw"][p]) if p == EAST else 0,
                             "predicted": note.get("gain", {}).get(0),  # bayes: its estimate of the gain
                             "level": note.get("level"),  # bayes: how its deals were conditioned
                             "settled": int(h["settled"][p])})
    return pl.DataFrame(rows, schema_overrides={"predicted": pl.Float64, "level": pl.Int64}), east.name


def summary_rows(frame: pl.DataFrame, keys: list[str], value: str) -> list[dict]:
    out = []
    for group in frame.group_by(keys, maintain_order=True):
        key, part = group
        if part.height > 1:
            out.append({**dict(zip(keys, key)), **summarize(part[value].to_numpy())})
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--blocks", type=int, default=1000, help="blocks of 7 hands (default 1000: results/doubling)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--samples", type=int, default=100, help="Monte Carlo deals per hand evaluation")
    ap.add_argument("--policies", default="compulsory-only,threshold,bayes,bayes:0,always")
    ap.add_argument("--table-hands", type=int, default=400, help="sample hands of the value table")
    ap.add_argument("--out", default=str(ROOT / "results" / "doubling"))
    ap.add_argument("--rows", default=None,
                    help="also write every defender's decision on every hand here (Parquet), e.g. to pool seeds")
    add_force(ap, "replace the files of --out (and --rows) if they exist (without it, an existing one is refused "
                  "before any work)")
    args = ap.parse_args(argv)
    try:
        check_folder_files(args.out, [f"{n}.{ext}" for n in TABLES for ext in ("csv", "json")]
                           + ["doubling.md", "study.json"], args.force, "--out")
    except ValueError as e:
        fail(str(e))
    if args.rows:
        refuse_existing(args.rows, args.force, "--rows")
    t0 = time.perf_counter()
    rules = Rules()
    strategies = ["heuristic"] * 4
    evaluator = Evaluator(strategies, rules, args.samples, args.seed)
    tables = {}

    def table_factory():
        if "t" not in tables:
            tables["t"] = value_table(strategies, rules, n_hands=args.table_hands, n_samples=args.samples)
        return tables["t"]

    deals, actual = block_deals(args.blocks, args.seed, evaluator)
    frames, names = [], []
    for spec in [p.strip() for p in args.policies.split(",") if p.strip()]:
        frame, name = run_policy(spec, evaluator, table_factory, deals, actual, args.blocks, rules)
        frames.append(frame)
        names.append(name)
        print(f"{name}: {time.perf_counter() - t0:.0f} s", flush=True)
    hands = pl.concat(frames)
    if args.rows:
        write_set({args.rows: hands.with_columns(pl.lit(args.seed).alias("seed")).write_parquet})
    base = hands.filter(pl.col("policy") == names[0])
    gain_by = summary_rows(base.sort("hand"), ["contract", "hand"], "gain")
    gain_by_contract = summary_rows(base, ["contract"], "gain")
    east = hands.filter((pl.col("defender") == EAST) & pl.col("doubled") & (pl.col("reason") != "forced"))
    voluntary = summary_rows(east, ["policy", "reason", "contract"], "realised")
    voluntary_all = summary_rows(east.with_columns(pl.lit("all").alias("contract")), ["policy", "reason", "contract"],
                                 "realised")
    per_block = (hands.filter(pl.col("defender") == EAST).group_by(["policy", "block"])
                 .agg(pl.col("settled").sum()).sort(["policy", "block"]))
    totals = {n: per_block.filter(pl.col("policy") == n)["settled"].to_numpy() for n in names}
    policy_rows = []
    for n in names:
        row = {"policy": n, **summarize(totals[n])}
        for ref in (names[0], "threshold:5"):  # paired differences (None for the policy itself or a missing one)
            d = summarize(totals[n] - totals[ref]) if ref in totals and ref != n else {}
            row[f"vs_{ref}"], row[f"vs_{ref}_low"], row[f"vs_{ref}_high"] = (d.get("mean"), d.get("ci_low"),
                                                                             d.get("ci_high"))
        doubles = hands.filter((pl.col("policy") == n) & (pl.col("defender") == EAST) & pl.col("doubled"))
        row["doubles_per_block"] = doubles.height / args.blocks
        policy_rows.append(row)
    out = Path(args.out)
    results = {"gain_by_contract_hand": gain_by, "gain_by_contract": gain_by_contract,
               "voluntary_gains": voluntary_all + voluntary, "policies": policy_rows}
    text = [f"Doubling study: {args.blocks} blocks, seed {args.seed}, {args.samples} Monte Carlo deals per estimate; "
            f"{time.perf_counter() - t0:.0f} s"]
    assert tuple(results) == TABLES
    writers = {}  # the study's files, written together (all or none)
    for name, rows in results.items():
        frame = pl.DataFrame(rows)
        writers[out / f"{name}.csv"] = frame.write_csv
        writers[out / f"{name}.json"] = json_writer(rows, indent=1)
        text += ["", name, to_markdown(frame, 2)]
    wide = (pl.DataFrame(gain_by).select("contract", "hand", "mean")
            .pivot(on="hand", index="contract", values="mean"))
    text += ["", "gain of one double on the declarer, by contract (rows) and hand of the block (columns)",
             to_markdown(wide, 1)]
    writers[out / "doubling.md"] = text_writer("\n".join(text) + "\n")
    writers[out / "study.json"] = json_writer({"blocks": args.blocks, "seed": args.seed, "samples": args.samples,
                                               "policies": names, "contracts": N_CONTRACTS,
                                               "seconds": round(time.perf_counter() - t0, 1)}, indent=1)
    write_set(writers, "the doubling study")
    print("\n".join(text))


if __name__ == "__main__":
    main()
