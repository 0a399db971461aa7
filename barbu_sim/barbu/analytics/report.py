"""``barbu-sim report``: the analytics tables of a run, in the terminal and as Markdown, CSV, JSON."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl

from ...core.files import ensure_writable, replace_set
from ...core.rundir import RunError, Snapshot, incomplete_note as run_note, snapshot_run
from ...core.seats import SEAT_LETTERS
from ...core.stats import STAT_COLUMNS
from ...core.tables import plain, report_head, shown_small_n, table_writers, terminal_table, write_report_set
from ..rules.config import CONTRACTS, Rules, parse_contract
from ..rules.text import preset_changes
from .analysis import (
    by_domino_rank, by_trump, choice_scores, contract_scores, declarer_edge, domino_rank_differences, expected_scores,
    heatmap_table, policy_scores, score_distribution,
)
from .hand_tables import CONFIG_KEYS, by_features, explained_share
from .hands import scan_hands, with_hands
from .schema import RUN_KIND, SCORE_COLUMNS

# The expected-scores JSON: a list of records with exactly these fields.
EXPECTED_FIELDS = ["contract", "trump", "domino_rank", "rel_seat", "n", "mean", "std", "se", "ci_low", "ci_high"]


def snapshot(run_dir) -> Snapshot:
    """One reading of a run: its manifest, read once, and exactly the chunks it lists (see
    :func:`barbu_sim.core.rundir.snapshot_run`); a report's tables, counts and notes all come from it."""
    if isinstance(run_dir, Snapshot):
        return run_dir
    snap = snapshot_run(run_dir, RUN_KIND)
    check_points(snap)
    return snap


def check_points(snap: Snapshot) -> None:
    """Refuse a run whose records were not played under the point values its manifest names.

    The ledger's checksums vouch for the records, not for the rules beside them; but every hand of a
    contract shares out the same total under given rules (:meth:`Rules.contract_total`), so the records
    themselves say whether the manifest's points are theirs: a report never prints one rule over
    records played under another.  (The rules of play, overtrumping say, leave no such trace: the
    manifest's settings stamp covers them.)
    """
    rules = run_rules(snap)
    total = pl.sum_horizontal(pl.col(c).cast(pl.Int64) for c in SCORE_COLUMNS)
    shared = snap.records.group_by("contract").agg(total.min().alias("low"), total.max().alias("high")).collect()
    for contract, low, high in shared.with_columns(pl.col("contract").cast(pl.String)).iter_rows():
        expected = rules.contract_total(parse_contract(contract))
        if low != expected or high != expected:
            got = f"{low:+}" if low == high else f"{low:+} to {high:+}"
            raise RunError(f"{snap.run_dir}: its records' {contract} hands share out {got} points each, but the "
                           f"rules in its manifest give {expected:+}: those are not the rules the records were "
                           "played under (the manifest was edited or damaged: restore it, or start the run "
                           "again with --force)")


def run_rules(run) -> Rules:
    """The rules a run was played under, from its manifest (a run written before an option existed
    played that option's default)."""
    stored = snapshot(run).manifest["config"].get("rules")
    return Rules().with_options(**stored) if stored else Rules()


def rules_note(rules: Rules) -> str:
    """One line on the rules of a run: the options that differ from the defaults, and which total is best."""
    line = f"Rules: {preset_changes(rules)}."
    if rules.lower_is_better:
        line += (" Penalties are positive points and the lowest total wins: lower is better in every table"
                 " (the best domino rank is the lowest mean).")
    return line


def build_tables(run) -> dict[str, pl.DataFrame]:
    """Every report table of a run (a directory or a :func:`snapshot`), by name (empty tables are left out).

    The rules come from the run's manifest: with ``best-total=lowest`` the best domino starting rank
    is the one with the lowest mean.
    """
    snap = snapshot(run)
    lf = snap.records
    rules = run_rules(snap)
    expected = expected_scores(lf)
    pooled = contract_scores(lf)
    tables = {
        "expected_scores": expected.select(EXPECTED_FIELDS),
        "contract_scores": pooled,
        "heatmap": heatmap_table(pooled),
        "declarer_edge": declarer_edge(lf.filter(pl.col("choice") == "fixed")),
        "domino_ranks": by_domino_rank(lf),
        "domino_rank_differences": domino_rank_differences(lf, lower_is_better=rules.lower_is_better),
        "trumps": by_trump(lf),
        "policies": policy_scores(lf),
        "distribution": score_distribution(lf),
        "choice_scores": choice_scores(lf),  # the chart's: not written to the report (see CHART_ONLY)
    }
    return {name: t for name, t in tables.items() if not t.is_empty()}


CHART_ONLY = ("choice_scores",)  # tables plot draws from that the report does not write


# What each table of fixed choices only says of itself, after naming a contract it leaves out.
FIXED_ONLY = {
    "expected_scores": "This table gives the seats' scores under fixed choices only: the choice policies table "
                       "gives each seat's score under a policy.",
    "declarer_edge": "This table compares the seats over fixed choices only: the choice policies table gives "
                     "each seat's score under a policy.",
}


def edge_note(tables: dict[str, pl.DataFrame], name: str = "declarer_edge") -> str | None:
    """Why a contract played in the run is not in table ``name`` (one of :data:`FIXED_ONLY`: the declarer
    edge, the expected scores): its suit (rank) was named by a policy in every deal, and that table holds
    fixed choices only; else ``None``."""
    if name not in tables or "policies" not in tables:
        return None
    shown = set(tables[name]["contract"].cast(pl.String).to_list())
    policies = plain(tables["policies"]).select("contract", "choice").unique(maintain_order=True)
    missing: dict[str, list[str]] = {}
    for contract, choice in policies.iter_rows():
        if contract not in shown:
            missing.setdefault(contract, []).append(choice)
    if not missing:
        return None
    what = {"trumps": "trump suit", "domino": "domino rank"}
    parts = [f"{c.capitalize()} is not in this table: its {what.get(c, 'choice')} was named by the "
             f"{' or the '.join(chosen)} {'policy' if len(chosen) == 1 else 'policies'} (from the declarer's hand) "
             "in every deal of this run, never fixed" for c, chosen in missing.items()]
    return "; ".join(parts) + ". " + FIXED_ONLY[name]


def titles(tables: dict[str, pl.DataFrame]) -> dict[str, str]:
    """Each table's title for this run: :data:`TITLES`, those of fixed choices only with :func:`edge_note`."""
    out = dict(TITLES)
    for name in FIXED_ONLY:
        note = edge_note(tables, name)
        if note:
            out[name] = f"{TITLES[name]}\n\n{note}"
    return out


TITLES = {
    "expected_scores": "Expected raw score per contract, trump suit, domino rank and seat (relative to the declarer)",
    "contract_scores": "Expected raw score per contract and seat (trump suits, ranks and policies pooled as played)",
    "heatmap": "Mean raw score, contract x seat",
    "declarer_edge": "Declarer's score minus the mean of the other three seats (paired per deal; fixed choices)",
    "domino_ranks": "Domino: expected score per starting rank",
    "domino_rank_differences": "Domino: declarer's paired difference from the best starting rank",
    "trumps": "Trumps: expected score per trump suit and choice policy (trump: the suit, or the policy that named it)",
    "policies": "Choice policies (trump suit / domino rank named from the declarer's hand)",
    "distribution": "Score distributions",
}


def write_report(run, tables: dict[str, pl.DataFrame] | None = None) -> list[Path]:
    """The Barbu run's report in ``run_dir/report`` (:func:`~barbu_sim.core.tables.write_report_set`: the tables
    as CSV and JSON, and ``report.md`` headed by the deals, seats, choices and rules, the distributions left to
    the charts); returns the paths.  ``run``: a run directory or the :func:`snapshot` the ``tables`` come from.
    """
    snap = snapshot(run)
    tables = tables if tables is not None else build_tables(snap)
    manifest, cfg, rules = snap.manifest, snap.manifest["config"], run_rules(snap)
    facts = (f"{manifest['deals_done']:,} deals, seed {cfg['seed']}, strategies {', '.join(cfg['strategies'])}, "
             f"declarer seat {SEAT_LETTERS[cfg['declarer']]}, trump choice `{cfg['trump']}`, "
             f"domino rank `{cfg['domino_rank']}`, barbu-sim {manifest['package_version']}.")
    rules_line = [rules_note(rules)] if rules != Rules() else []  # a run under the default rules reads as before
    head = report_head(f"barbu-sim report: {snap.run_dir.name}", facts, incomplete_note(snap), *rules_line,
                       "Scores are raw contract scores; CIs are 95% normal intervals (mean ± 1.96 se).")
    written = {name: t for name, t in tables.items() if name not in CHART_ONLY}
    return write_report_set(snap.run_dir / "report", head, written, titles(tables), not_in_markdown=("distribution",))


def incomplete_note(run) -> str | None:
    """For a run not yet complete: how far it got and the command that finishes it (or that it is still
    being written); else ``None``.  ``run``: a run directory or a :func:`snapshot`."""
    return run_note(snapshot(run), RUN_KIND)


def terminal_summary(tables: dict[str, pl.DataFrame]) -> str:
    """The headline tables, compact, for the terminal."""
    parts, titled = [], titles(tables)
    for name in ("contract_scores", "declarer_edge", "domino_ranks", "trumps", "policies"):
        if name not in tables:
            continue
        t = plain(tables[name]).drop("std", "se", strict=False).with_columns(pl.col(pl.Float64).round(2))
        t = shown_small_n(t, 2)  # one value: no interval
        if name == "domino_ranks":
            t = t.filter(pl.col("rel_seat") == "declarer")
        parts.append(f"{titled[name]}\n{terminal_table(t)}")
    return "\n\n".join(parts)


def by_hand_tables(run, features: list[str], contracts: list[str] | None = None) -> dict[str, pl.DataFrame]:
    """The expected scores of a run by what the declarer's hand holds (``report --by``): ``by_NAME`` (every
    seat relative to the declarer, per configuration and feature value) and ``by_NAME_share`` (how much of the
    spread of the declarer's score each feature explains).  Needs the run's hands (``barbu-sim hands``)."""
    snap = snapshot(run)
    records = snap.records
    if contracts:
        records = records.filter(pl.col("contract").is_in([CONTRACTS[parse_contract(c)] for c in contracts]))
    joined = with_hands(records, scan_hands(snap.run_dir, snap.manifest))
    table = by_features(joined, features)
    names = [c for c in table.columns if c not in (*CONFIG_KEYS, "rel_seat", *STAT_COLUMNS)]
    slug = "_".join(re.sub(r"\W+", "-", n).strip("-") for n in names)
    return {f"by_{slug}": table, f"by_{slug}_share": explained_share(joined, [features, *features]
                                                                     if len(features) > 1 else features)}


def by_hand_summary(tables: dict[str, pl.DataFrame]) -> str:
    """The declarer's rows of a ``report --by`` table, compact, for the terminal, and what each feature explains."""
    (name, table), (_, share) = tables.items()
    t = plain(table.filter(pl.col("rel_seat") == "declarer")).drop("rel_seat", "std", "se")
    t = t.drop([c for c in ("trump", "domino_rank") if t[c].null_count() == len(t)])
    t = shown_small_n(t.with_columns(pl.col(pl.Float64).round(2)), 2)
    s = plain(share).with_columns(pl.col("share").round(3))
    s = s.drop([c for c in ("trump", "domino_rank") if s[c].null_count() == len(s)])
    return (f"The declarer's score by {name.removeprefix('by_')}\n{terminal_table(t)}\n\n"
            f"Share of the spread of the declarer's score each explains\n{terminal_table(s)}")


def write_by_hand(run, tables: dict[str, pl.DataFrame]) -> list[Path]:
    """Write the ``report --by`` tables as CSV and JSON into ``RUN_DIR/report`` (as a set); returns the paths."""
    out_dir = snapshot(run).run_dir / "report"
    ensure_writable(out_dir, "the run's report")
    out_dir.mkdir(exist_ok=True)
    writers = {}
    for name, table in tables.items():
        writers.update(table_writers(table, out_dir, name))
    return replace_set(writers, what="the tables by hand")
