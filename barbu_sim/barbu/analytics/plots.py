"""Matplotlib charts of the report tables: each function takes a frame and returns a Figure."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
import polars as pl

from ...core.cards import RANK_NAMES
from ...core.charts import PALETTE, charts_folder, plt, save_figure
from ..rules.config import CONTRACTS
from .schema import REL_SEATS

SEAT_COLOURS = dict(zip(REL_SEATS, PALETTE))


def _contracts_in(df: pl.DataFrame) -> list[str]:
    present = set(df["contract"].cast(pl.String).to_list())
    return [c for c in CONTRACTS if c in present]


CHOOSING_CONTRACTS = ("trumps", "domino")  # the contracts whose declarer names a trump suit / a starting rank


def _group_label(contract: str, choice: str | None, named: str | None) -> str:
    """A bar group's label: the contract, and for Trumps and Domino how the suit (rank) was named."""
    if contract not in CHOOSING_CONTRACTS or choice is None:
        return contract
    if choice != "fixed":
        return f"{contract}\n{choice}"
    values = (named or "").split(",")
    kind = "suit" if contract == "trumps" else "rank"
    if len(values) == 1:
        return f"{contract}\nfixed {kind} {values[0]}"
    return f"{contract}\nfixed {kind}s {','.join(values)}" if len(values) <= 4 else \
        f"{contract}\n{len(values)} fixed {kind}s"


def plot_contract_scores(table: pl.DataFrame) -> plt.Figure:
    """Grouped bars: expected raw score per contract and relative seat, 95% CI error bars.

    ``table``: :func:`~barbu_sim.barbu.analytics.analysis.choice_scores` (one group of bars per contract
    and way its trump suit / domino rank was named: each policy, and the fixed suits or ranks pooled,
    which the label lists), or ``contract_scores`` (one group per contract, everything pooled as played).
    A fixed suit is not one the declarer chose, so a run with both never shows them as one bar.
    """
    if "choice" not in table.columns:
        table = table.with_columns(pl.lit(None, dtype=pl.String).alias("choice"),
                                   pl.lit(None, dtype=pl.String).alias("named"))
    table = table.with_columns(pl.col("contract").cast(pl.String))
    order = {c: i for i, c in enumerate(CONTRACTS)}
    groups = sorted({(r["contract"], r["choice"], r["named"]) for r in table.iter_rows(named=True)},
                    key=lambda g: (order[g[0]], g[1] != "fixed", g[1] or ""))
    by = {(r["contract"], r["choice"], r["rel_seat"]): r for r in table.iter_rows(named=True)}
    fig, ax = plt.subplots(figsize=(max(9.0, 1.3 * len(groups)), 4.8))
    width = 0.2
    x = np.arange(len(groups))
    for i, seat in enumerate(REL_SEATS):
        rows = [by[(c, choice, seat)] for c, choice, _ in groups]
        means = np.array([r["mean"] for r in rows])
        err = np.array([[r["mean"] - r["ci_low"] for r in rows], [r["ci_high"] - r["mean"] for r in rows]])
        ax.bar(x + (i - 1.5) * width, means, width, yerr=err, capsize=2, label=seat, color=SEAT_COLOURS[seat])
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x, [_group_label(*g) for g in groups], fontsize=9)
    ax.set_ylabel("expected raw score (points per hand)")
    split = any(c in CHOOSING_CONTRACTS and choice is not None for c, choice, _ in groups)
    pooled = any(c in CHOOSING_CONTRACTS and choice == "fixed" and "," in (named or "") for c, choice, named in groups)
    ax.set_title("Expected score by contract and seat (relative to the declarer), 95% CI"
                 + ("\nTrumps and Domino by how the suit or rank was named: by a policy from the declarer's hand,"
                    "\nor fixed for every deal, whatever the declarer holds" + ("; fixed ones pooled" if pooled else "")
                    if split else ""), fontsize=11 if split else None)
    # Below the axes: above them it would cover the bars of whichever contracts score positive.
    ax.legend(title="seat", ncols=4, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.16 if split else -0.08))
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
    """Contract x relative seat heatmap of mean raw scores, each contract on its own colour scale.

    The contracts' scores differ far more between contracts (about -8 to +18) than between
    seats, so one scale would paint every negative contract the same colour.  Each row is
    coloured by its cells' distance from that contract's mean over the four seats, scaled by
    the row's largest distance (a diverging scale centred on the row mean); the cells carry the
    scores themselves; the right-hand labels give each contract's mean and the distance from it
    that takes the full colour, so a row's colours are read against its own spread.
    """
    contracts = table["contract"].cast(pl.String).to_list()
    values = table.select(REL_SEATS).to_numpy().astype(np.float64)
    row_mean = values.mean(axis=1, keepdims=True)
    spread = np.abs(values - row_mean).max(axis=1, keepdims=True)
    colour = np.divide(values - row_mean, spread, out=np.zeros_like(values), where=spread > 0)
    fig, ax = plt.subplots(figsize=(7.6, 0.55 * len(contracts) + 1.9))
    im = ax.imshow(colour, cmap="PuOr", vmin=-1, vmax=1, aspect="auto")
    ax.set_xticks(range(4), REL_SEATS)
    ax.set_yticks(range(len(contracts)), contracts)
    ax.tick_params(length=0)
    for i in range(values.shape[0]):
        for j in range(4):
            ax.text(j, i, f"{values[i, j]:+.2f}", ha="center", va="center", fontsize=9,
                    color="white" if abs(colour[i, j]) > 0.6 else "black")
    right = ax.secondary_yaxis("right")
    right.set_yticks(range(len(contracts)), [f"mean {m:+.2f}\nfull colour at ±{d:.2f}"
                                             for m, d in zip(row_mean[:, 0], spread[:, 0])], fontsize=8)
    right.tick_params(length=0)
    right.spines["right"].set_visible(False)
    ax.set_title("Mean raw score per hand: contract x seat\n"
                 "colour: each contract on its own scale, above or below\nits mean over the four seats", fontsize=10)
    bar = fig.colorbar(im, ax=ax, pad=0.2, ticks=[-1, 0, 1], shrink=0.8)
    bar.ax.set_yticklabels(["furthest\nbelow", "contract\nmean", "furthest\nabove"])
    fig.tight_layout()
    return fig


def plot_distributions(table: pl.DataFrame) -> plt.Figure:
    """Score distribution per contract: the share of hands at each raw score, as bars side by side per seat.

    Scores are discrete, so each score a contract can give is one group of four bars (one per seat,
    relative to the declarer), with no lines joining values that cannot occur between them.
    """
    contracts = _contracts_in(table)
    cols = 4 if len(contracts) > 4 else len(contracts)
    rows = -(-len(contracts) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.0 * cols, 3.1 * rows), squeeze=False)
    for ax, contract in zip(axes.flat, contracts):
        sub = table.filter(pl.col("contract").cast(pl.String) == contract)
        scores = np.array(sorted(set(sub["score"].to_list())))
        gap = np.diff(scores).min() if len(scores) > 1 else 1  # the bars of one score fill 80% of the closest gap
        width = 0.8 * gap / len(REL_SEATS)
        for i, seat in enumerate(REL_SEATS):
            s = sub.filter(pl.col("rel_seat").cast(pl.String) == seat)
            share = dict(zip(s["score"].to_list(), s["share"].to_list()))
            ax.bar(scores + (i - (len(REL_SEATS) - 1) / 2) * width, [100 * share.get(v, 0.0) for v in scores.tolist()],
                   width, label=seat, color=SEAT_COLOURS[seat], linewidth=0)
        if len(scores) <= 8:  # few values: label each one
            ax.set_xticks(scores, [f"{v:+d}" if v else "0" for v in scores])
        ax.set_title(contract)
        ax.set_xlabel("raw score (points)")
        ax.set_ylabel("share of hands (%)")
    for ax in list(axes.flat)[len(contracts):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    legend_kw = {"title": "seat (relative to the declarer)", "frameon": False}
    if len(contracts) < rows * cols:  # the legend fills the first empty panel
        axes.flat[len(contracts)].legend(handles, labels, loc="center", **legend_kw)
        fig.suptitle("Score distributions per contract and seat: share of hands at each score")
        fig.tight_layout()
    else:
        fig.suptitle("Score distributions per contract and seat: share of hands at each score")
        fig.tight_layout(rect=(0, 0.08, 1, 1))
        fig.legend(handles, labels, loc="lower center", ncols=4, **legend_kw)
    return fig


def mark_lower_is_better(fig: plt.Figure) -> plt.Figure:
    """Say on each score axis of ``fig`` that lower is better (rules where the lowest total wins)."""
    for ax in fig.axes:
        label = ax.get_ylabel()
        if "score" in label and "lower is better" not in label:
            ax.set_ylabel(f"{label}\n(lower is better)")
    return fig


def write_plots(tables: dict[str, pl.DataFrame], out_dir, lower_is_better: bool = False) -> list[Path]:
    """Draw every chart the tables allow into ``out_dir`` as PNG and SVG; returns the paths.

    ``lower_is_better``: the run's rules make the lowest total win; every score axis says so.
    """
    out_dir = charts_folder(out_dir)
    # By contract and way of naming the suit or rank where the tables have it (never fixed suits and a policy pooled).
    scores = "choice_scores" if "choice_scores" in tables else "contract_scores"
    charts = [(scores, "contract_scores", plot_contract_scores),
              ("domino_ranks", "domino_by_rank", plot_domino_ranks),
              ("heatmap", "contract_seat_heatmap", plot_heatmap),
              ("distribution", "score_distributions", plot_distributions)]
    paths = []
    for table_name, file_name, draw in charts:
        if table_name in tables:
            fig = draw(tables[table_name])
            paths += save_figure(mark_lower_is_better(fig) if lower_is_better else fig, out_dir / file_name)
    return paths


def policy_colours(policies: list[str]) -> dict[str, str]:
    """One distinct colour per contract-order policy, in the order given (the palette, then tab20)."""
    extra = [matplotlib.colors.to_hex(c) for c in plt.get_cmap("tab20").colors]
    colours = list(PALETTE) + [c for c in extra if c not in PALETTE]
    return {p: colours[i % len(colours)] for i, p in enumerate(policies)}


def _title_counts(values: list[int], unit: str) -> str:
    lo, hi = min(values), max(values)
    return f"{lo:,} {unit}" if lo == hi else f"{lo:,}-{hi:,} {unit}"


def plot_comparison(blocks: pl.DataFrame, score: str = "settled", win_rates: pl.DataFrame | None = None,
                    players: str | None = None) -> plt.Figure:
    """Bar chart of contract-order policies: the declarer's expected block total per policy, 95% CIs.

    ``blocks``: rows of the ``blocks`` table of ``game.orders.compare_orders`` (``doubling``, ``policy``,
    ``n``, ``mean``, ``ci_low``, ``ci_high``) for one ``score`` (``raw`` or ``settled``), which the
    labels name.  Each policy has its own colour; with several doubling policies the bars are grouped
    by doubling policy.  The title names the doubling policy (or policies) and the number of blocks.
    ``win_rates`` (optional, the ``win_rates`` table): a second panel with each policy's share of
    games won and its 95% Wilson interval, as in the table.  ``players``: the play strategy at every
    seat, for the title.
    """
    if "doubling" not in blocks.columns:
        blocks = blocks.with_columns(pl.lit("").alias("doubling"))
    policies = blocks["policy"].unique(maintain_order=True).to_list()
    doublings = blocks["doubling"].unique(maintain_order=True).to_list()
    colours = policy_colours(policies)
    panels = [("blocks", blocks)]
    if win_rates is not None and not win_rates.is_empty():
        panels.append(("wins", win_rates))
    width_per = max(1.0, 0.9 * len(policies)) * len(doublings) + 1.5
    fig, axes = plt.subplots(1, len(panels), figsize=(max(7.0, 1.1 * width_per * len(panels)), 4.6), squeeze=False,
                             width_ratios=[1.6, 1][:len(panels)])
    for ax, (kind, table) in zip(axes[0], panels):
        if "doubling" not in table.columns:
            table = table.with_columns(pl.lit("").alias("doubling"))
        by = {(r["doubling"], r["policy"]): r for r in table.to_dicts()}
        scale = 100 if kind == "wins" else 1
        bar_w = 0.8 / len(policies)
        for i, p in enumerate(policies):
            rows = [(g, by[(d, p)]) for g, d in enumerate(doublings) if (d, p) in by]
            x = np.array([g for g, _ in rows]) + (i - (len(policies) - 1) / 2) * bar_w
            ax.bar(x, [scale * r["mean"] for _, r in rows], bar_w * 0.92, color=colours[p], label=p,
                   yerr=[[scale * (r["mean"] - r["ci_low"]) for _, r in rows],
                         [scale * (r["ci_high"] - r["mean"]) for _, r in rows]], capsize=3)
        if len(doublings) > 1:
            ax.set_xticks(range(len(doublings)), [f"doubling {d}" for d in doublings])
        else:
            ax.set_xticks((np.arange(len(policies)) - (len(policies) - 1) / 2) * bar_w, policies,
                          rotation=20 if len(policies) > 6 else 0, ha="right" if len(policies) > 6 else "center")
        ax.axhline(0, color="black", linewidth=0.8)
        if kind == "wins":
            ax.set_ylim(0, 100)
            ax.set_ylabel("games won (%, ties shared)")
            games = _title_counts(table["seat_games"].to_list(), "seat-games per policy")
            ax.set_title(f"Games won, 95% Wilson CI\n({games})", fontsize=10)
        else:
            ax.set_ylabel(f"declarer's {score} total per 7-hand block")
            ax.set_title(f"Declarer's {score} block total, 95% CI\n({_title_counts(table['n'].to_list(), 'blocks')}, "
                         "same deals for every policy)", fontsize=10)
    dbl = ", ".join(d for d in doublings if d)
    label = "doubling policy" if len(doublings) == 1 else "doubling policies"
    n_blocks = _title_counts(blocks["n"].to_list(), "blocks of 7 hands")
    played = f", {players} at every seat" if players else ""
    fig.suptitle(f"Contract-order policies, {label} {dbl} ({n_blocks}{played})" if dbl
                 else f"Contract-order policies ({n_blocks}{played})")
    if len(doublings) > 1:  # the ticks name the doubling policies; a legend names the contract orders
        handles, labels = axes[0, 0].get_legend_handles_labels()
        fig.tight_layout(rect=(0, 0.13, 1, 1))
        fig.legend(handles, labels, title="contract-order policy", frameon=False, loc="lower center",
                   ncols=min(len(policies), 6))
    else:
        fig.tight_layout()
    return fig
