"""Matplotlib charts of the report tables: each function takes a frame and returns a Figure."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from ..core.cards import RANK_NAMES
from ..core.charts import PALETTE, plt, save_figure
from .rules import CONTRACTS
from .schema import REL_SEATS

SEAT_COLOURS = dict(zip(REL_SEATS, PALETTE))


def _contracts_in(df: pl.DataFrame) -> list[str]:
    present = set(df["contract"].cast(pl.String).to_list())
    return [c for c in CONTRACTS if c in present]


def plot_contract_scores(table: pl.DataFrame) -> plt.Figure:
    """Grouped bars: expected raw score per contract and relative seat, 95% CI error bars."""
    contracts = _contracts_in(table)
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.2
    x = np.arange(len(contracts))
    for i, seat in enumerate(REL_SEATS):
        rows = table.filter(pl.col("rel_seat") == seat).with_columns(pl.col("contract").cast(pl.String))
        by = {r["contract"]: r for r in rows.to_dicts()}
        means = np.array([by[c]["mean"] for c in contracts])
        err = np.array([[by[c]["mean"] - by[c]["ci_low"] for c in contracts],
                        [by[c]["ci_high"] - by[c]["mean"] for c in contracts]])
        ax.bar(x + (i - 1.5) * width, means, width, yerr=err, capsize=2, label=seat, color=SEAT_COLOURS[seat])
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x, contracts)
    ax.set_ylabel("expected raw score (points per hand)")
    ax.set_title("Expected score by contract and seat (relative to the declarer), 95% CI")
    ax.legend(title="seat", ncols=4, loc="upper left", frameon=False)
    fig.tight_layout()
    return fig


def plot_domino_ranks(table: pl.DataFrame) -> plt.Figure:
    """Domino expected score by starting rank, one line per relative seat, 95% CI bands."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ranks = [r for r in RANK_NAMES if r in set(table["domino_rank"].cast(pl.String).to_list())]
    x = np.arange(len(ranks))
    for seat in REL_SEATS:
        rows = table.filter(pl.col("rel_seat") == seat).with_columns(pl.col("domino_rank").cast(pl.String))
        by = {r["domino_rank"]: r for r in rows.to_dicts()}
        mean = np.array([by[r]["mean"] for r in ranks])
        lo = np.array([by[r]["ci_low"] for r in ranks])
        hi = np.array([by[r]["ci_high"] for r in ranks])
        ax.plot(x, mean, marker="o", label=seat, color=SEAT_COLOURS[seat])
        ax.fill_between(x, lo, hi, color=SEAT_COLOURS[seat], alpha=0.2, linewidth=0)
    ax.set_xticks(x, ranks)
    ax.set_xlabel("starting rank named by the declarer")
    ax.set_ylabel("expected raw score (points per hand)")
    ax.set_title("Domino: expected score by starting rank, 95% CI")
    ax.legend(title="seat", ncols=4, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.14))
    fig.tight_layout()
    return fig


def plot_heatmap(table: pl.DataFrame) -> plt.Figure:
    """Contract x relative seat heatmap of mean raw scores, annotated."""
    contracts = table["contract"].cast(pl.String).to_list()
    values = table.select(REL_SEATS).to_numpy()
    fig, ax = plt.subplots(figsize=(6.5, 4.8))
    lim = np.abs(values).max()
    im = ax.imshow(values, cmap="PuOr", vmin=-lim, vmax=lim, aspect="auto")
    ax.set_xticks(range(4), REL_SEATS)
    ax.set_yticks(range(len(contracts)), contracts)
    for i in range(values.shape[0]):
        for j in range(4):
            ax.text(j, i, f"{values[i, j]:+.2f}", ha="center", va="center", fontsize=9,
                    color="white" if abs(values[i, j]) > 0.6 * lim else "black")
    ax.set_title("Mean raw score per hand: contract x seat")
    fig.colorbar(im, ax=ax, label="points per hand")
    fig.tight_layout()
    return fig


def plot_distributions(table: pl.DataFrame) -> plt.Figure:
    """Score distribution per contract: share of hands at each raw score, one line per seat."""
    contracts = _contracts_in(table)
    cols = 4 if len(contracts) > 4 else len(contracts)
    rows = -(-len(contracts) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.8 * rows), squeeze=False)
    for ax, contract in zip(axes.flat, contracts):
        sub = table.filter(pl.col("contract") == contract)
        for seat in REL_SEATS:
            s = sub.filter(pl.col("rel_seat") == seat).sort("score")
            # Scores are discrete: points joined by thin lines, not bins.
            ax.plot(s["score"].to_numpy(), 100 * s["share"].to_numpy(), marker="o", markersize=3,
                    linewidth=0.8, label=seat, color=SEAT_COLOURS[seat])
        ax.set_ylim(bottom=0)
        ax.set_title(contract)
        ax.set_xlabel("raw score (points)")
        ax.set_ylabel("share of hands (%)")
    for ax in list(axes.flat)[len(contracts):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, title="seat", loc="lower right", frameon=False)
    fig.suptitle("Score distributions per contract and seat")
    fig.tight_layout()
    return fig


def write_plots(tables: dict[str, pl.DataFrame], out_dir) -> list[Path]:
    """Draw every chart the tables allow into ``out_dir`` as PNG and SVG; returns the paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    charts = [("contract_scores", "contract_scores", plot_contract_scores),
              ("domino_ranks", "domino_by_rank", plot_domino_ranks),
              ("heatmap", "contract_seat_heatmap", plot_heatmap),
              ("distribution", "score_distributions", plot_distributions)]
    paths = []
    for table_name, file_name, draw in charts:
        if table_name in tables:
            paths += save_figure(draw(tables[table_name]), out_dir / file_name)
    return paths


def plot_comparison(blocks: pl.DataFrame, score: str = "settled") -> plt.Figure:
    """Bar chart of contract-order policies: the declarer's expected block total per policy, 95% CIs.

    ``blocks``: rows of the ``blocks`` table of ``game.orders.compare_orders`` (``policy``, ``mean``,
    ``ci_low``, ``ci_high``) for one ``score`` (``raw`` or ``settled``), which the labels name.
    A policy label ``"optimal / bayes:5"`` (policy / doubling) is drawn on two lines.
    """
    rows = blocks.to_dicts()
    fig, ax = plt.subplots(figsize=(max(7.0, 1.7 * len(rows)), 4.4))
    x = np.arange(len(rows))
    ax.bar(x, [r["mean"] for r in rows], yerr=[[r["mean"] - r["ci_low"] for r in rows],
                                                  [r["ci_high"] - r["mean"] for r in rows]],
           capsize=4, color=[PALETTE[i % 4] for i in range(len(rows))])
    ax.set_xticks(x, [r["policy"].replace(" / ", "\n") for r in rows])
    ax.set_ylabel(f"declarer's {score} total per 7-hand block")
    ax.set_title(f"Contract-order policies: the declarer's {score} block total, 95% CI")
    fig.tight_layout()
    return fig
