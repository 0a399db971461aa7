"""``learned``: Clabber card play by a small network fitted to the ``mc`` player's own estimates.

At each decision with more than one legal card the player fills one feature vector per legal card
from its seat's view (:mod:`barbu_sim.clabber.players.features`), predicts each card's value to its
team with the network, and plays the card predicted best (ties: the lowest card).  The network is a
linear part plus up to ``MAX_HIDDEN`` rectified units, summed in float32 in one order (the features
in slot order, then the units in order), so that the kernels and a plain-Python reference agree to
the bit.

The weights reach the kernels as an argument (the model array, :func:`model_array`), never compiled
in: a new model needs no recompiling.  The model file is ``models/learned.json`` beside this module;
its id is the first 12 hex digits of the sha256 of the model array, and a run's manifest records the
player as ``learned@<id>``.  ``barbu-sim clabber train`` makes the model (``docs/training.md``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from ...core.bits import lowest_bit, popcount
from ...core.jit import njit
from ...core.model_files import check_hidden, read_model_file, weights_array
from .features import N_FEATURES, fill_features
from .heuristic import heuristic_strategy

MODEL_PATH = Path(__file__).with_name("models") / "learned.json"
MAX_HIDDEN = 64
# The model array (float32): the number of hidden units, the linear weights, the units' biases and output
# weights, then each feature's MAX_HIDDEN input weights.
W_LINEAR = 1
W_BIAS = W_LINEAR + N_FEATURES
W_OUTPUT = W_BIAS + MAX_HIDDEN
W_INPUT = W_OUTPUT + MAX_HIDDEN
MODEL_WIDTH = W_INPUT + N_FEATURES * MAX_HIDDEN
MAX_LEGAL = 6  # a Clabber hand holds at most six cards: the feature rows a decision needs


@njit(cache=True, _nrt=False)
def predict(model, x, units):
    """The network's value of one card's feature vector ``x`` (float32, ``N_FEATURES``); ``units``: float32
    scratch of ``MAX_HIDDEN``.  Only nonzero features are read; every sum is float32, in slot order."""
    h = np.int64(model[0])
    for j in range(h):
        units[j] = model[W_BIAS + j]
    v = np.float32(0.0)
    for i in range(N_FEATURES):
        xi = x[i]
        if xi != np.float32(0.0):
            v += model[W_LINEAR + i] * xi
            base = W_INPUT + i * MAX_HIDDEN
            for j in range(h):
                units[j] += model[base + j] * xi
    for j in range(h):
        a = units[j]
        if a > np.float32(0.0):
            v += model[W_OUTPUT + j] * a
    return v


@njit(cache=True, _nrt=False)
def learned_choose(legal, hand, state, know, model, xs, units):
    """The card a learned seat plays (see the module doc).

    ``know``: the table's knowledge (the mc array, :mod:`barbu_sim.clabber.players.features`);
    ``model``: the model array; ``xs`` (MAX_LEGAL, N_FEATURES) and ``units`` (MAX_HIDDEN) float32 scratch.
    """
    if popcount(legal) == 1:
        return lowest_bit(legal)
    heur = heuristic_strategy(legal, hand, state, state[:0])
    n = fill_features(legal, hand, state, know, heur, xs)
    best, best_v = -1, np.float32(-np.inf)
    m = legal
    for i in range(n):
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        v = predict(model, xs[i], units)
        if v > best_v:
            best, best_v = c, v
    return best


def model_from_dict(data: dict) -> np.ndarray:
    """The model array of a model file's contents; ValueError (one line) when it is not one."""
    if not isinstance(data, dict) or not isinstance(data.get("weights"), dict):
        raise ValueError("not a Clabber learned-player model file (no weights)")
    if data.get("features") != N_FEATURES:
        raise ValueError(f"it was trained on {data.get('features')} features, this version computes {N_FEATURES}")
    weights = data["weights"]
    model = np.zeros(MODEL_WIDTH, np.float32)
    model[W_LINEAR:W_LINEAR + N_FEATURES] = weights_array(weights, "w", (N_FEATURES,), "weights")
    w1 = weights.get("W1") or []
    h = len(w1) if isinstance(w1, list) else -1
    if not 0 <= h <= MAX_HIDDEN:
        raise ValueError(f"weights: W1 must hold one row per hidden unit, 0 to {MAX_HIDDEN} of them")
    if h:
        w1 = weights_array(weights, "W1", (h, N_FEATURES), "weights")
        model[0] = h
        for i in range(N_FEATURES):
            model[W_INPUT + i * MAX_HIDDEN:W_INPUT + i * MAX_HIDDEN + h] = w1[:, i]
        model[W_BIAS:W_BIAS + h] = weights_array(weights, "b1", (h,), "weights")
        model[W_OUTPUT:W_OUTPUT + h] = weights_array(weights, "w2", (h,), "weights")
    if "hidden" in data:  # the layer's units, as training wrote them: they must be W1's
        check_hidden(data["hidden"], h, MAX_HIDDEN, "hidden")
    return model


@cache
def load_model(path: str = str(MODEL_PATH)) -> tuple[np.ndarray, str]:
    """The model array of the file at ``path`` and its id (12 hex digits of the array's sha256); any fault
    of the file is a one-line ValueError naming it."""
    return read_model_file(path, f"the Clabber learned player's model {path}", model_from_dict)


def model_array() -> np.ndarray:
    """The packaged model, as the kernels take it."""
    return load_model()[0]


def model_id() -> str:
    """The packaged model's id: it changes whenever a weight does."""
    return load_model()[1]
