"""The labels of a Clabber review, one rule for the card decisions and the bidding calls.

A decision's loss (the best option's value minus the one chosen, a paired difference over the
same layouts) counts only when it is above :data:`NOISE` standard errors; it is then labelled by
its size (:data:`LABELS`, points of a round: Clabber's points run larger than Barbu's).
"""

from __future__ import annotations

import numpy as np

NOISE = 2.0
LABELS = (("blunder", 30.0), ("mistake", 15.0), ("inaccuracy", 5.0))


def beyond_noise(loss: float, loss_se: float) -> bool:
    """True when the loss is positive and above :data:`NOISE` standard errors."""
    return loss > 0 and loss > NOISE * loss_se


def label_of(loss: float, loss_se: float) -> str:
    """The label of a loss with its standard error ("" within the noise or below every threshold)."""
    if not beyond_noise(loss, loss_se):
        return ""
    return next((name for name, low in LABELS if loss >= low), "")


def paired(values: np.ndarray, best, chosen, option) -> tuple[float, float, float, float]:
    """``(loss, se, vs, se)`` of ``option``: the best's value minus its own, and its own minus the one chosen,
    each the mean over the layouts (the columns of ``values``, one row per layout) with its standard error."""
    root_n = np.sqrt(len(values))
    loss = values[:, best] - values[:, option]
    vs = values[:, option] - values[:, chosen]
    return (float(loss.mean()), float(loss.std(ddof=1) / root_n), float(vs.mean()), float(vs.std(ddof=1) / root_n))
