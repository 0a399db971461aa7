"""Charts of the Clabber report tables: each function takes a frame and returns a Figure (no numba)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from ...core.charts import PALETTE, charts_folder, plt, save_figure
from .analysis import GROUPINGS
from ..rules.config import BELL_POINTS

# What each score part is called on the charts (the tables' columns are card_points, ...).
METRIC_LABELS = {"card_points": "card points\n(last trick's 10 included)", "meld_points": "melds",
                 "bell_points": f"bell\n(K+Q of trumps, {BELL_POINTS})",
                 "round_score": "round score\n(after the makers' rule)"}


def plot_grouping(table: pl.DataFrame, key: str) -> plt.Figure:
    """Makers' success rate and both teams' expected round score per value of ``key``, 95% CIs."""
    order = table[key].unique(maintain_order=True).to_list()
    x = np.arange(len(order))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    made = {r[key]: r for r in table.filter(pl.col("metric") == "made").to_dicts()}
    ax1.bar(x, [100 * made[k]["mean"] for k in order],
            yerr=[[100 * (made[k]["mean"] - made[k]["ci_low"]) for k in order],
                  [100 * (made[k]["ci_high"] - made[k]["mean"]) for k in order]],
            capsize=3, color=PALETTE[0])
    ax1.set_xticks(x, order)
    ax1.set_ylim(0, 100)
    ax1.set_ylabel("makers scored (% of rounds)")
    ax1.set_xlabel(GROUPINGS[key])
    width = 0.38
    for i, (metric, label) in enumerate((("makers_score", "makers"), ("defenders_score", "defenders"))):
        rows = {r[key]: r for r in table.filter(pl.col("metric") == metric).to_dicts()}
        ax2.bar(x + (i - 0.5) * width, [rows[k]["mean"] for k in order], width,
                yerr=[[rows[k]["mean"] - rows[k]["ci_low"] for k in order],
                      [rows[k]["ci_high"] - rows[k]["mean"] for k in order]],
                capsize=2, label=label, color=PALETTE[1 + i])
    ax2.set_xticks(x, order)
    for ax in (ax1, ax2):  # a grouping with one or two values keeps bars of ordinary width
        ax.set_xlim(min(-0.6, (len(order) - 1) / 2 - 1.5), max(len(order) - 0.4, (len(order) - 1) / 2 + 1.5))
    ax2.set_ylabel("expected round score (points)")
    ax2.set_xlabel(GROUPINGS[key])
    ax2.set_ylim(0, 1.18 * ax2.get_ylim()[1])  # room for the legend above the bars
    ax2.legend(frameon=False, ncols=2, loc="upper center")
    ax1.set_title("makers' success", fontsize=10)
    ax2.set_title("each team's round score", fontsize=10)
    fig.suptitle(f"Clabber: makers' success and round score by {GROUPINGS[key]}, 95% CI")
    fig.tight_layout()
    return fig


def plot_scores(table: pl.DataFrame) -> plt.Figure:
    """Makers' and defenders' expected points, part by part (card points, melds, bell, round score)."""
    metrics = ["card_points", "meld_points", "bell_points", "round_score"]
    x = np.arange(len(metrics))
    fig, ax = plt.subplots(figsize=(7.5, 4.4))
    for i, team in enumerate(("makers", "defenders")):
        rows = {r["metric"]: r for r in table.filter(pl.col("team") == team).to_dicts()}
        ax.bar(x + (i - 0.5) * 0.38, [rows[m]["mean"] for m in metrics], 0.38,
               yerr=[[rows[m]["mean"] - rows[m]["ci_low"] for m in metrics],
                     [rows[m]["ci_high"] - rows[m]["mean"] for m in metrics]],
               capsize=2, label=team, color=PALETTE[1 + i])
    ax.set_xticks(x, [METRIC_LABELS[m] for m in metrics], fontsize=9)
    ax.set_xlabel("part of the round score")
    ax.set_ylabel("points per played round")
    ax.set_title("Clabber: each team's expected points, 95% CI")
    ax.set_ylim(0, 1.12 * ax.get_ylim()[1])
    ax.legend(frameon=False, ncols=2, loc="upper center")
    fig.tight_layout()
    return fig


def write_plots(tables: dict[str, pl.DataFrame], out_dir) -> list[Path]:
    """Draw every chart into ``out_dir`` as PNG and SVG; returns the paths."""
    out_dir = charts_folder(out_dir)
    paths = save_figure(plot_scores(tables["clabber_scores"]), out_dir / "clabber_scores")
    for key in GROUPINGS:
        if not tables[f"by_{key}"].is_empty():
            paths += save_figure(plot_grouping(tables[f"by_{key}"], key), out_dir / f"by_{key}")
    return paths


def plot_strong_changes(by_trumps: pl.DataFrame, by_rank: pl.DataFrame, sweeps: dict[str, list[dict]],
                        names: tuple[str, str]) -> plt.Figure:
    """Where strong play moves Clabber's answers: makers' success by trump count and by turned-up rank
    (paired tables of :func:`~barbu_sim.clabber.analytics.analysis.paired_by_group` with the grouping's
    values in ``value``; ``a`` = ``names[0]``),
    and N+S's game win rate by bidding threshold under each player (``sweeps``: player -> rows of
    ``threshold``, ``mean``, ``half``)."""
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.4))
    for ax, table, label in ((axes[0], by_trumps, "trumps dealt to the maker"),
                             (axes[1], by_rank, "rank of the turned-up card")):
        made = table.filter(pl.col("metric") == "made")
        order = made["value"].to_list()
        x = np.arange(len(order))
        for i, (col, name) in enumerate((("b", names[1]), ("a", names[0]))):
            ax.bar(x + (i - 0.5) * 0.38, 100 * made[col].to_numpy(), 0.38, label=name, color=PALETTE[1 + i])
        for j, r in enumerate(made.to_dicts()):
            ax.annotate(f"{100 * r['difference']:+.1f}", (j, 100 * max(r["a"], r["b"]) + 1.5), ha="center",
                        fontsize=8, color="black" if r["moves"] else "grey")
        ax.set_xticks(x, order)
        ax.set_ylim(0, 112)
        ax.set_xlabel(label)
        ax.set_ylabel("makers scored (% of rounds)")
        ax.legend(frameon=False, ncols=2, loc="upper left", fontsize=8)
    axes[0].set_title("makers' success by trump count\n(labels: change in points of %, paired)", fontsize=10)
    axes[1].set_title("makers' success by turned-up rank\n(labels: change in points of %, paired)", fontsize=10)
    ax = axes[2]
    for name, rows in sweeps.items():  # each player in its colour of the bars, set a little apart to be seen
        strong = name.split(":")[0] == names[0]
        xs = [r["threshold"] + (0.3 if strong else -0.3) for r in rows]
        ax.errorbar(xs, [r["mean"] for r in rows], yerr=[r["half"] for r in rows], marker="o" if strong else "s",
                    capsize=3, label=name, color=PALETTE[2 if strong else 1], ls="-" if strong else "--")
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.set_xlabel("N+S bid by threshold:X (E+W by threshold:60)")
    ax.set_ylabel("N+S game win rate")
    ax.set_title("bidding threshold, games to 500", fontsize=10)
    ax.legend(frameon=False, fontsize=8)
    fig.suptitle(f"Clabber: {names[0]} card play at every seat against {names[1]}, same rounds, 95% CIs")
    fig.tight_layout()
    return fig
