"""What doubling the declarer is worth, and how the doubling policies do (``results/doubling/``).

North declares blocks of 7 hands with the contract policy ``optimal`` (which plans with the
doubling policies in force) and redoubles with ``threshold``; the deals and their scores in
every contract are the same for every doubling policy studied (paired).  East doubles with the
policy studied, South and West make only their compulsory doubles.

Tables (each as CSV and JSON, and all in ``doubling.md``):

- ``gain_by_contract_hand``: the gain of one double on the declarer (``raw_p - raw_d`` for a
  defender ``p``), by contract and by hand of the block, over every defender and hand of the
  first policy's run (``compulsory-only``): what a double there is worth on average;
- ``gain_by_contract``: the same by contract;
- ``voluntary_gains``: per doubling policy and contract, East's doubles of the declarer that no
  rule forced (for ``bayes`` split into those made on the margin and the compulsory ones spent
  early, ``planned``), and the settlement they realised;
- ``policies``: East's settled points per block under each doubling policy, and the paired
  difference from the first policy and from ``threshold``.
"""

from __future__ import annotations

import time
from pathlib import Path

import polars as pl

from ...core.outputs import json_writer, text_writer, write_set
from ...core.stats import summarize
from ...core.tables import to_markdown
from ..game.doubling import CompulsoryOnly, check_doubling_spec, make_doubling_policy
from ..game.evaluation import Evaluator, value_table
from ..game.orders import block_deals, block_hands
from ..game.policies import make_contract_policy
from ..rules import CONTRACTS, N_CONTRACTS, Rules

EAST = 1
# The study's tables: each written as NAME.csv and NAME.json
TABLES = ("gain_by_contract_hand", "gain_by_contract", "voluntary_gains", "policies")
FILES = tuple(f"{n}.{ext}" for n in TABLES for ext in ("csv", "json")) + ("doubling.md", "study.json")
DEFAULT_POLICIES = "compulsory-only,threshold,bayes,bayes:0,always"
DEFAULT_BLOCKS = 1000
DEFAULT_SAMPLES = 100
DEFAULT_TABLE_HANDS = 400


def run_policy(spec, evaluator, table_factory, deals, actual, blocks, rules, on_block=None):
    """Play every block with East doubling by ``spec``; one row per hand and defender (and the policy's name).

    ``on_block``: called after each block."""
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
        if on_block:
            on_block()
    return pl.DataFrame(rows, schema_overrides={"predicted": pl.Float64, "level": pl.Int64}), east.name


def summary_rows(frame: pl.DataFrame, keys: list[str], value: str) -> list[dict]:
    """Per group of ``keys`` (two rows or more), :func:`~barbu_sim.core.stats.summarize` of ``value``."""
    out = []
    for group in frame.group_by(keys, maintain_order=True):
        key, part = group
        if part.height > 1:
            out.append({**dict(zip(keys, key)), **summarize(part[value].to_numpy())})
    return out


def policy_specs(text: str) -> list[str]:
    """The comma-separated doubling policies, at least one."""
    specs = [p.strip() for p in text.split(",") if p.strip()]
    if not specs:
        raise ValueError(f"--policies names no doubling policy: {text!r}")
    for spec in specs:  # every one before any block is played, not when its turn comes
        check_doubling_spec(spec)
    if len(set(specs)) != len(specs):
        raise ValueError(f"--policies names a policy twice: {text!r}")
    return specs


def play_hands(*, blocks: int = DEFAULT_BLOCKS, seed: int = 0, samples: int = DEFAULT_SAMPLES,
               policies: str = DEFAULT_POLICIES, table_hands: int = DEFAULT_TABLE_HANDS,
               progress: bool = False, say=None) -> tuple[pl.DataFrame, list[str]]:
    """Play the blocks under each policy; every defender's decision on every hand, and the policies' names.

    ``say``: called with a line after each policy (its name and the time so far)."""
    from tqdm import tqdm

    specs = policy_specs(policies)
    t0 = time.perf_counter()
    rules = Rules()
    strategies = ["heuristic"] * 4
    evaluator = Evaluator(strategies, rules, samples, seed)
    tables = {}

    def table_factory():
        if "t" not in tables:
            tables["t"] = value_table(strategies, rules, n_hands=table_hands, n_samples=samples)
        return tables["t"]

    deals, actual = block_deals(blocks, seed, evaluator)
    frames, names = [], []
    with tqdm(total=blocks * len(specs), unit=" blocks", disable=not progress, desc="doubling") as bar:
        for spec in specs:
            frame, name = run_policy(spec, evaluator, table_factory, deals, actual, blocks, rules,
                                     on_block=lambda: bar.update(1))
            frames.append(frame)
            names.append(name)
            if say:
                say(f"{name}: {time.perf_counter() - t0:.0f} s")
    return pl.concat(frames), names


def doubling_tables(hands: pl.DataFrame, names: list[str], blocks: int) -> dict[str, list[dict]]:
    """The study's tables (:data:`TABLES`) from :func:`play_hands`' rows."""
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
        row["doubles_per_block"] = doubles.height / blocks
        policy_rows.append(row)
    results = {"gain_by_contract_hand": gain_by, "gain_by_contract": gain_by_contract,
               "voluntary_gains": voluntary_all + voluntary, "policies": policy_rows}
    assert tuple(results) == TABLES
    return results


def write_study(out, results: dict[str, list[dict]], *, blocks: int, seed: int, samples: int, names: list[str],
                started: float) -> str:
    """Write the study's files (:data:`FILES`) into ``out``, all or none; returns ``doubling.md``'s text.

    ``started``: the ``time.perf_counter()`` at which the study began (for the seconds it took)."""
    out = Path(out)
    text = [f"Doubling study: {blocks} blocks, seed {seed}, {samples} Monte Carlo deals per estimate; "
            f"{time.perf_counter() - started:.0f} s"]
    writers = {}  # the study's files, written together (all or none)
    for name, rows in results.items():
        frame = pl.DataFrame(rows)
        writers[out / f"{name}.csv"] = frame.write_csv
        writers[out / f"{name}.json"] = json_writer(rows, indent=1)
        text += ["", name, to_markdown(frame, 2)]
    wide = (pl.DataFrame(results["gain_by_contract_hand"]).select("contract", "hand", "mean")
            .pivot(on="hand", index="contract", values="mean"))
    text += ["", "gain of one double on the declarer, by contract (rows) and hand of the block (columns)",
             to_markdown(wide, 1)]
    writers[out / "doubling.md"] = text_writer("\n".join(text) + "\n")
    writers[out / "study.json"] = json_writer({"blocks": blocks, "seed": seed, "samples": samples,
                                               "policies": names, "contracts": N_CONTRACTS,
                                               "seconds": round(time.perf_counter() - started, 1)}, indent=1)
    write_set(writers, "the doubling study")
    return "\n".join(text)


def write_rows(path, hands: pl.DataFrame, seed: int) -> None:
    """Every defender's decision on every hand, with the seed (a column, to pool seeds), as Parquet at ``path``."""
    write_set({path: hands.with_columns(pl.lit(seed).alias("seed")).write_parquet})
