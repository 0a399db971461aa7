"""Two players' tables side by side: the chart of where the answers change, and what it rests on.

Every function takes a *paired table*: two runs of the same configurations on the
same deals (``scripts/strong_results.py``: a strong player at every seat, then
``heuristic`` at every seat), one row per configuration (``contract``, ``choice``,
``trump``, ``domino_rank``; the last two null under a choice policy) and seat
relative to the declarer (``rel_seat``), with ``n`` deals, each player's mean and
95% CI (``a_mean``, ``a_ci_low``, ``a_ci_high``, the same with ``b_``) and the
paired difference a - b (``difference``, ``ci_low``, ``ci_high``).
This module does not import numba.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.transforms import ScaledTranslation

from ...core.cards import RANK_NAMES, SUIT_LETTERS
from ...core.charts import PALETTE, plt, save_figure
from .plots import SEAT_COLOURS
from ..rules.config import CONTRACTS
from .schema import REL_SEATS

PLAYER_COLOURS = (PALETTE[0], PALETTE[1])  # player a (strong), player b (baseline)
SUIT_SYMBOLS = dict(zip(SUIT_LETTERS, "♣♦♥♠"))
CHART_NAME = "strong_vs_heuristic"


def declarer_rows(table: pl.DataFrame, contract: str) -> list[dict]:
    """The declarer's rows of one contract, as dicts with ``label`` (the suit or rank, else the policy):
    fixed choices in suit / rank order first, then the choice policies."""
    rows = (table.filter((pl.col("contract").cast(pl.String) == contract) & (pl.col("rel_seat").cast(pl.String)
                                                                               == "declarer"))
            .with_columns(pl.col("choice", "trump", "domino_rank").cast(pl.String)).to_dicts())
    order = list(SUIT_LETTERS) + list(RANK_NAMES)
    for r in rows:
        r["label"] = (r["trump"] or r["domino_rank"] or r["contract"]) if r["choice"] == "fixed" else r["choice"]
    fixed = sorted((r for r in rows if r["choice"] == "fixed"),
                   key=lambda r: order.index(r["label"]) if r["label"] in order else -1)
    return fixed + [r for r in rows if r["choice"] != "fixed"]


def best_label(rows: list[dict], player: str, lower_is_better: bool = False, fixed_only: bool = False) -> str | None:
    """The label of the row with the best mean for ``player`` (``a`` or ``b``): the highest, or the lowest
    under rules where the lowest total wins.  ``fixed_only``: among fixed suits / ranks only."""
    rows = [r for r in rows if r["choice"] == "fixed"] if fixed_only else rows
    if not rows:
        return None
    pick = min if lower_is_better else max
    return pick(rows, key=lambda r: r[f"{player}_mean"])["label"]


def _pretty(label: str) -> str:
    return SUIT_SYMBOLS.get(label, label)


def _error(rows: list[dict], prefix: str) -> np.ndarray:
    return np.array([[r[f"{prefix}mean"] - r[f"{prefix}ci_low"] for r in rows],
                     [r[f"{prefix}ci_high"] - r[f"{prefix}mean"] for r in rows]])


def _choice_panel(ax, rows: list[dict], names: tuple[str, str], lower_is_better: bool, title: str,
                  xlabel: str, fixed_only: bool) -> None:
    """Both players' declarer means (95% CI) per fixed suit / rank and per policy; a star on each one's best
    (``fixed_only``: the best fixed suit / rank)."""
    x = np.arange(len(rows), dtype=float)
    x[[i for i, r in enumerate(rows) if r["choice"] != "fixed"]] += 0.6  # a gap before the policies
    for k, (player, name) in enumerate(zip("ab", names)):
        offset = (k - 0.5) * 0.3
        ax.errorbar(x + offset, [r[f"{player}_mean"] for r in rows], yerr=_error(rows, f"{player}_"), fmt="o",
                    color=PLAYER_COLOURS[k], capsize=3, markersize=5, label=name)
        best = best_label(rows, player, lower_is_better, fixed_only)
        i = [r["label"] for r in rows].index(best)
        lift = ScaledTranslation(0, 7 / 72, ax.figure.dpi_scale_trans)  # just above the CI's cap
        ax.plot(x[i] + offset, rows[i][f"{player}_ci_high"], transform=ax.transData + lift, marker="*",
                markersize=13, color=PLAYER_COLOURS[k],
                markeredgecolor="black", markeredgewidth=0.6, linestyle="none", clip_on=False,
                label=f"best under {name}: {_pretty(best)}")
    ax.set_xticks(x, [_pretty(r["label"]).replace("-", "-\n") for r in rows])
    ax.set_xlabel(xlabel)
    ax.set_ylabel("declarer's expected score (points per hand)")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(frameon=False, fontsize=8, ncols=2, loc="upper center", bbox_to_anchor=(0.5, -0.24))


def seat_configs(table: pl.DataFrame, lower_is_better: bool = False) -> list[tuple[str, str | None]]:
    """The configuration shown per contract in the seats panel: the contract itself, or for Trumps and
    Domino the choice policy best for the declarer under player a (the one a strong declarer would use)."""
    out = []
    present = set(table["contract"].cast(pl.String).to_list())
    for contract in (c for c in CONTRACTS if c in present):
        policies = [r for r in declarer_rows(table, contract) if r["choice"] != "fixed"]
        out.append((contract, best_label(policies, "a", lower_is_better) if policies else None))
    return out


def _seat_panel(ax, table: pl.DataFrame, names: tuple[str, str], lower_is_better: bool) -> None:
    """The paired difference a - b per contract and seat, 95% CI bars."""
    configs = seat_configs(table, lower_is_better)
    rows = table.with_columns(pl.col("contract", "choice", "rel_seat").cast(pl.String)).to_dicts()
    by = {(r["contract"], r["choice"], r["rel_seat"]): r for r in rows
          if r["choice"] != "fixed" or r["contract"] not in ("trumps", "domino")}
    width = 0.2
    x = np.arange(len(configs))
    for i, seat in enumerate(REL_SEATS):
        cells = [by[(c, p or "fixed", seat)] for c, p in configs]
        means = np.array([r["difference"] for r in cells])
        err = np.array([[r["difference"] - r["ci_low"] for r in cells],
                        [r["ci_high"] - r["difference"] for r in cells]])
        ax.bar(x + (i - 1.5) * width, means, width, yerr=err, capsize=2, label=seat, color=SEAT_COLOURS[seat])
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x, [c if p is None else f"{c}\n({p})" for c, p in configs])
    ax.set_ylabel(f"{names[0]} - {names[1]} (points per hand)")
    ax.set_title(f"(c) Each seat's value per contract: the paired difference {names[0]} - {names[1]}, 95% CI\n"
                 "(a bar whose CI misses 0 is a seat whose value moves)", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title="seat (relative to the declarer)", ncols=4, frameon=False, loc="upper center",
              bbox_to_anchor=(0.5, -0.16), fontsize=8, title_fontsize=8)


def plot_strong_vs_baseline(table: pl.DataFrame, names: tuple[str, str], seed: int,
                            lower_is_better: bool = False) -> plt.Figure:
    """Where the answers change between player a and player b (``names``), on the same deals.

    (a) Domino: the declarer's expected score per starting rank and under ``most-held``, both
    players, 95% CIs, a star on each player's best; (b) Trumps: the same per trump suit and
    policy; (c) each seat's paired difference a - b per contract.  Panels without their
    contract in the table are left out.
    """
    present = set(table["contract"].cast(pl.String).to_list())
    top = [c for c in ("domino", "trumps") if c in present]
    if top:
        fig = plt.figure(figsize=(13, 10.5))
        grid = fig.add_gridspec(2, len(top), height_ratios=[1, 1.05], hspace=0.7, wspace=0.22)
        axes_top = [fig.add_subplot(grid[0, i]) for i in range(len(top))]
        ax_seats = fig.add_subplot(grid[1, :])
    else:
        fig, ax_seats = plt.subplots(figsize=(13, 5.5))
        axes_top = []
    for ax, contract in zip(axes_top, top):
        rows = declarer_rows(table, contract)
        if contract == "domino":
            _choice_panel(ax, rows, names, lower_is_better, "(a) Domino: the declarer's score by starting rank, 95% CI",
                          "starting rank named by the declarer (most-held: a policy)", fixed_only=True)
        else:
            _choice_panel(ax, rows, names, lower_is_better,
                          "(b) Trumps: the declarer's score by trump suit and policy, 95% CI",
                          "trump suit named by the declarer (longest, strongest: policies)", fixed_only=False)
    _seat_panel(ax_seats, table, names, lower_is_better)
    n = table["n"].min()
    fig.suptitle(f"What changes with {names[0]} at every seat instead of {names[1]}: "
                 f"the same {n:,} deals of seed {seed}, North declaring", fontsize=12)
    fig.subplots_adjust(left=0.07, right=0.98, top=0.92, bottom=0.12)
    return fig


def write_comparison_chart(table: pl.DataFrame, names: tuple[str, str], seed: int, out_dir,
                           lower_is_better: bool = False, name: str = CHART_NAME) -> list[Path]:
    """Draw :func:`plot_strong_vs_baseline` into ``out_dir/name.png`` and ``.svg``; returns the paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    return save_figure(plot_strong_vs_baseline(table, names, seed, lower_is_better), out_dir / name)
