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


def charts_folder(out_dir) -> Path:
    """``out_dir``, made if need be, for a run's charts; a folder that cannot be written (a read-only run) is
    an :class:`~barbu_sim.core.files.OutputError` naming it, before any chart is drawn."""
    from .files import OutputError, ensure_writable
    out_dir = Path(out_dir)
    ensure_writable(out_dir, "the charts")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(out_dir, "the charts", e) from None
    return out_dir


def laid_out(fig):
    """``fig`` with its layout kept as it stands: after ``fig.tight_layout()``, which has placed the axes, the figure
    keeps a placeholder layout engine, and with one set every ``savefig`` lays out and measures every artist once
    more before drawing it (a sixth of the time charts take).  The saved files are the same, byte for byte."""
    from matplotlib.layout_engine import PlaceHolderLayoutEngine
    if isinstance(fig.get_layout_engine(), PlaceHolderLayoutEngine):
        fig.set_layout_engine(None)
    return fig


def save_figure(fig, stem) -> list[Path]:
    """Save ``fig`` as ``stem.png`` and ``stem.svg``, close it, and return the two paths.

    The SVG carries no date, so the same data gives byte-identical files in any process.  Both
    are written under temporary names and renamed as a pair (:func:`barbu_sim.core.files.replace_set`).
    """
    from .files import replace_set
    laid_out(fig)

    def writer(ext):
        return lambda p: fig.savefig(p, format=ext, dpi=130 if ext == "png" else None,
                                     metadata={"Date": None} if ext == "svg" else None)
    try:
        return replace_set({Path(f"{stem}.{ext}"): writer(ext) for ext in ("png", "svg")},
                           what=f"the chart {Path(stem).name}")
    finally:
        plt.close(fig)
