"""The chart style every game's plots share, and saving a figure reproducibly as PNG and SVG.

Importing this module selects matplotlib's non-interactive Agg backend.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

# Okabe-Ito: distinguishable with every common colour-vision deficiency.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442", "#000000")

# A fixed salt for the ids inside SVGs (random by default), so the same data gives byte-identical charts.
plt.rcParams.update({"figure.dpi": 110, "font.size": 10, "axes.spines.top": False, "axes.spines.right": False,
                     "svg.hashsalt": "barbu-sim"})


def save_figure(fig, stem) -> list[Path]:
    """Save ``fig`` as ``stem.png`` and ``stem.svg``, close it, and return the two paths.

    The SVG carries no date, so the same data gives byte-identical files in any process.  Both
    are written under temporary names and renamed as a pair (:func:`barbu_sim.core.files.replace_set`).
    """
    from .files import replace_set

    def writer(ext):
        return lambda p: fig.savefig(p, format=ext, dpi=130 if ext == "png" else None,
                                     metadata={"Date": None} if ext == "svg" else None)
    try:
        return replace_set({Path(f"{stem}.{ext}"): writer(ext) for ext in ("png", "svg")},
                           what=f"the chart {Path(stem).name}")
    finally:
        plt.close(fig)
