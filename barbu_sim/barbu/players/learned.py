"""``learned``: a fast player that plays the card a small model predicts ``mc`` would value most.

For each legal card the model reads the card's features (:mod:`barbu_sim.barbu.players.features`:
what its seat can see) and predicts the card's value to the seat as ``mc`` estimates it;
the player plays the card with the highest prediction (ties: the lowest card).  The model is
one small network per contract: a linear part plus ``hidden`` rectified units, trained by
``barbu-sim train player`` on ``mc``'s own estimates (docs/learned-player.md, docs/training.md).

The weights live in JSON files under the package, one per model (:data:`MODEL_NAMES`: ``learned``, the
packaged model, at :data:`MODEL_PATH`; ``learned1``, the first model, where expert iteration starts, kept playable so
that the ladder shows each step and old runs replay).  They are loaded once per process into one
float32 array of 7 rows (one per contract) per model, model after model (:func:`model_array`), and
travel to the kernels as an argument, so a retrained model never meets a stale compiled kernel; a
seat's strategy id says which model's rows it reads (:func:`barbu_sim.barbu.players.ids.learned_slot`).
A model's id (:func:`model_id`, a hash of its weights) is part of the strategy's name in manifests
and cache keys: ``learned`` resolves to ``learned@<id>``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
from ...core.jit import njit
from ...core.model_files import check_hidden, read_model_file, weights_array

from ...core.bits import lowest_bit, popcount
from ...core.fields import ArrayFields
from .features import N_FEATURES, domino_context, domino_fill, trick_context, trick_fill
from .heuristic import heuristic_domino_card, heuristic_trick_card
from .vector_sums import LANES, add_scaled16, copy16, relu_dot16
from ..rules.config import CONTRACTS, DOMINO, N_CONTRACTS
from ..state import S_CONTRACT, STATE_SIZE

MODEL_NAMES = ("learned", "learned1")  # the models' slots in the model array; each a file models/<name>.json
MODEL_PATH = Path(__file__).with_name("models") / "learned.json"  # the packaged model, slot 0
MAX_HIDDEN = 32
# How a model's output layer adds its units (the model file's "output_sum"; absent: "in-order"): one after
# another, or 16 at a time as a tree (predict).  The order is part of the model: it rounds the values.
OUTPUT_SUMS = ("in-order", "tree")
TREE_OUTPUT = 64  # added to a row's H when its output layer adds as a tree (H <= MAX_HIDDEN < TREE_OUTPUT)
# One contract's row of the model array; units past the row's H are unused.
MODEL_ROW = ArrayFields([
    ("hidden", 1),  # H, the hidden units it uses (plus TREE_OUTPUT for a tree-summed output layer)
    ("linear", N_FEATURES),  # the linear weights
    ("input", N_FEATURES * MAX_HIDDEN),  # the input weights feature by feature (F blocks of MAX_HIDDEN: the weights
    # of feature i into each unit, side by side, so that the units' sums run as one vector loop)
    ("bias", MAX_HIDDEN),  # the units' biases
    ("output", MAX_HIDDEN),  # the units' output weights
])
W_LINEAR, W_INPUT = MODEL_ROW.offset("linear"), MODEL_ROW.offset("input")
W_BIAS, W_OUTPUT = MODEL_ROW.offset("bias"), MODEL_ROW.offset("output")
MODEL_WIDTH = MODEL_ROW.size
assert MAX_HIDDEN == 2 * LANES  # the units' sums run as two vector operations of LANES (predict)
# The player's scratch space, which the kernels give it in the state array after the fields
# (barbu_sim.barbu.players.full_state): the features of one card (N_FEATURES float32 in the first half of the
# field, the slots of the nonzero ones as int32 in the second), then the hidden units' sums (float32).
LEARNED_WORK = ArrayFields([("features", N_FEATURES), ("units", MAX_HIDDEN)])
L_FEATURES, L_UNITS = LEARNED_WORK.offset("features"), LEARNED_WORK.offset("units")
LEARNED_WORK_SIZE = LEARNED_WORK.size


@njit(cache=True, _nrt=False)
def predict(row, x, a, nonzero):
    """The value one contract's model row predicts for the feature vector ``x`` (``a``: MAX_HIDDEN float32 scratch,
    ``nonzero``: N_FEATURES int32 scratch).

    Only the card's nonzero features are read (most are 0), each adding its weights into the
    hidden units' sums 16 at a time (:func:`add_scaled16`).  Every sum runs in float32 in the one
    order the model defines, so that a card's value does not depend on how the loops are laid out:
    the linear part and the units' sums add the features in slot order; the output layer adds the
    rectified units onto the linear part one after another ("in-order"), or, in a model whose file
    says "output_sum": "tree", 16 at a time as a tree (:func:`relu_dot16`: four adds deep a block
    instead of 16 or 32 in a row, the largest part of the network's time), units 16 to 31 after units
    0 to 15, then onto the linear part.
    """
    code = np.int64(row[0])
    n = code & (TREE_OUTPUT - 1)
    # The slots of the nonzero features, in order, listed without a branch: which of a card's features are 0
    # changes from card to card, and a branch per feature would be mispredicted more than the sums cost.
    nz = 0
    for i in range(N_FEATURES):
        nonzero[nz] = i
        nz += x[i] != np.float32(0.0)
    copy16(a, 0, row, W_BIAS)  # the biases (past H, 0: the units past H have zero weights and stay 0)
    copy16(a, LANES, row, W_BIAS + LANES)
    v = np.float32(0.0)
    for j in range(nz):
        i = np.int64(nonzero[j])
        xi = x[i]
        v += row[W_LINEAR + i] * xi
        add_scaled16(a, 0, row, W_INPUT + i * MAX_HIDDEN, xi)
        if n > LANES:
            add_scaled16(a, LANES, row, W_INPUT + i * MAX_HIDDEN + LANES, xi)
    if code >= TREE_OUTPUT:
        # The units past H have zero weights and sums of 0: they add 0 to the tree.
        out = relu_dot16(a, 0, row, W_OUTPUT)
        if n > LANES:
            out += relu_dot16(a, LANES, row, W_OUTPUT + LANES)
        return v + out
    for h in range(n):
        # A unit at or below 0 adds 0 (a select, not a branch): v is unchanged but for the sign of a zero,
        # which no comparison of values sees.
        ah = a[h]
        v += row[W_OUTPUT + h] * (ah if ah > np.float32(0.0) else np.float32(0.0))
    return v


@njit(cache=True, _nrt=False)
def learned_choose(legal, hand, state, rng, model, work_at, slot):
    """The legal card with the highest predicted value (see the module doc) by the model in ``slot`` of the model
    array ``model``; ``state[work_at:]`` is scratch.

    Callers pass ``work_at`` and ``slot`` as int64 values, never literals, so that one compiled version
    serves every caller (a literal argument compiles a version of its own).
    """
    if popcount(legal) == 1:
        return lowest_bit(legal)
    row = model[slot * N_CONTRACTS + np.int64(state[S_CONTRACT])]
    return card_values(legal, hand, state, rng, row, work_at, state[0:0].view(np.float64))  # no values kept


@njit(cache=True, _nrt=False)
def learned_scores(legal, hand, state, rng, model, work_at, out):
    """Every legal card's predicted value, as :func:`learned_choose` computes it with the packaged model (slot 0),
    into ``out[card]`` ((52,) float64; the other entries are left as they are); ``state[work_at:]`` is scratch
    (``work_at`` an int64 value, as for :func:`learned_choose`).

    The policy model of the mc player's inference (:func:`barbu_sim.barbu.players.mc.layouts.policy_weight`)
    reads them: the softmax of these values is how likely the learned player's model makes each card.
    """
    card_values(legal, hand, state, rng, model[np.int64(state[S_CONTRACT])], work_at, out)


@njit(cache=True, _nrt=False)
def card_values(legal, hand, state, rng, row, work_at, out):
    """The legal card with the highest value by the model row ``row`` (the lowest such card), each card's value
    also written to ``out[card]`` when ``out`` has room ((52,) float64; a size-0 array keeps none).

    The one place the learned player values cards: :func:`learned_choose` and :func:`learned_scores` call it,
    so that the network's code is compiled once for both.
    """
    keep = out.shape[0] > 0
    domino = np.int64(state[S_CONTRACT]) == DOMINO
    heur = heuristic_domino_card(legal, hand, state, rng) if domino else heuristic_trick_card(legal, hand, state, rng)
    # float32 throughout: the network's sums run twice as wide in the vector units as in float64.
    x = state[work_at + L_FEATURES:work_at + L_FEATURES + N_FEATURES].view(np.float32)[:N_FEATURES]
    units = state[work_at + L_UNITS:work_at + L_UNITS + MAX_HIDDEN].view(np.float32)[:MAX_HIDDEN]
    nonzero = state[work_at + L_FEATURES:work_at + L_FEATURES + N_FEATURES].view(np.int32)[N_FEATURES:]
    best, best_v = -1, np.float32(-np.inf)
    m = legal
    # What belongs to the position is read once (the context); each card's vector is filled from it.
    if domino:
        dctx = domino_context(hand, state)
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            domino_fill(c, dctx, legal, hand, heur, x)
            v = predict(row, x, units, nonzero)
            if keep:
                out[c] = np.float64(v)
            if v > best_v:
                best, best_v = c, v
    else:
        tctx = trick_context(legal, hand, state)
        while m:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            trick_fill(c, tctx, legal, hand, state, heur, x)
            v = predict(row, x, units, nonzero)
            if keep:
                out[c] = np.float64(v)
            if v > best_v:
                best, best_v = c, v
    return best


def model_row(weights: dict, where: str = "a contract", tree: bool = False) -> np.ndarray:
    """One contract's row of the model array from its JSON entry (``w``, and ``W1``, ``b1``, ``w2`` if hidden),
    its output layer summed as a tree when ``tree``; raises ValueError, naming ``where`` and the entry, when a
    shape or a weight is wrong."""
    if not isinstance(weights, dict):
        raise ValueError(f"{where} is not an object of weights (w, W1, b1, w2)")
    row = np.zeros(MODEL_WIDTH, np.float32)
    row[0] = TREE_OUTPUT if tree else 0
    row[W_LINEAR:W_LINEAR + N_FEATURES] = weights_array(weights, "w", (N_FEATURES,), where)
    hidden = [k for k in ("W1", "b1", "w2") if weights.get(k)]
    if not hidden:
        return row
    if len(hidden) < 3:
        raise ValueError(f"{where}: hidden units need W1, b1 and w2 together, not {', '.join(hidden)} alone")
    h = len(weights["W1"]) if isinstance(weights["W1"], list) else 0  # one row of W1 per unit
    if not 0 < h <= MAX_HIDDEN:
        raise ValueError(f"{where}: W1 must hold one row per hidden unit, 1 to {MAX_HIDDEN} of them, not {h}")
    w1 = weights_array(weights, "W1", (h, N_FEATURES), where)
    row[0] += h
    for i in range(N_FEATURES):
        row[W_INPUT + i * MAX_HIDDEN:W_INPUT + i * MAX_HIDDEN + h] = w1[:, i]
    row[W_BIAS:W_BIAS + h] = weights_array(weights, "b1", (h,), where)
    row[W_OUTPUT:W_OUTPUT + h] = weights_array(weights, "w2", (h,), where)
    return row


def model_from_dict(data: dict) -> np.ndarray:
    """The (7, MODEL_WIDTH) float32 model array of a model file's contents; raises ValueError when it is not one."""
    if not isinstance(data, dict) or not isinstance(data.get("contracts"), dict) or "features" not in data:
        missing = "its contents are not an object" if not isinstance(data, dict) else \
            f"missing {'features' if 'features' not in data else 'contracts'}"
        raise ValueError(f"not a learned-player model file ({missing})")
    if data["features"] != N_FEATURES:
        raise ValueError(f"it was trained on {data['features']} features, this version computes {N_FEATURES}")
    missing = [name for name in CONTRACTS if name not in data["contracts"]]
    if missing:
        raise ValueError(f"not a learned-player model file (missing the contract(s) {', '.join(missing)})")
    output_sum = data.get("output_sum", "in-order")
    if output_sum not in OUTPUT_SUMS:
        raise ValueError(f"output_sum must be {' or '.join(OUTPUT_SUMS)}, not {output_sum!r}")
    rows = [model_row(data["contracts"][name], f"contract {name}", output_sum == "tree") for name in CONTRACTS]
    if "hidden" in data:  # the units of each contract's layer, as training wrote them: they must be W1's
        hidden = data["hidden"]
        if not isinstance(hidden, dict):
            raise ValueError(f"hidden must be an object of each contract's hidden units, not {json.dumps(hidden)[:40]}")
        odd = [name for name in hidden if name not in CONTRACTS]
        if odd:
            raise ValueError(f"hidden names {odd[0][:40]!r}, which is not a contract (contracts: "
                             f"{', '.join(CONTRACTS)})")
        for name, row in zip(CONTRACTS, rows):
            if name in hidden:
                check_hidden(hidden[name], int(row[0]) % TREE_OUTPUT, MAX_HIDDEN, f"hidden.{name}")
    model = np.ascontiguousarray(np.stack(rows))
    assert model.shape == (N_CONTRACTS, MODEL_WIDTH)
    return model


@cache
def load_model(path: str = str(MODEL_PATH)) -> tuple[np.ndarray, str]:
    """The model array of the model file at ``path`` and its id (the first 12 hex digits of its weights' sha256).

    Any fault of the file (unreadable, not JSON, a missing contract, a wrong shape, a weight that is
    not a finite number) is a one-line ValueError that names the file.
    """
    return read_model_file(path, f"the learned player's model {path}", model_from_dict)


def model_path(name: str = "learned") -> Path:
    """The file of the model named ``name`` (one of :data:`MODEL_NAMES`)."""
    return MODEL_PATH.with_name(f"{name}.json")


@cache
def model_array() -> np.ndarray:
    """Every installed model, as the kernels take them: 7 rows per model, in the order of :data:`MODEL_NAMES`."""
    return np.ascontiguousarray(np.concatenate([load_model(str(model_path(name)))[0] for name in MODEL_NAMES]))


def model_id(name: str = "learned") -> str:
    """The id of the model named ``name`` (the packaged one by default): it changes whenever a weight does."""
    return load_model(str(model_path(name)))[1]


def _learned_func(slot: int):
    def learned_func(legal, hand, state, rng):
        """The learned player called from Python on a position (the table, reviews).

        ``state``: the ``STATE_SIZE`` fields (as a plugin sees them) or more; the player reads the
        fields from a copy with its own scratch space after them, so the caller's array is never
        written.
        """
        work = np.concatenate([np.asarray(state, np.uint64)[:STATE_SIZE], np.zeros(LEARNED_WORK_SIZE, np.uint64)])
        return learned_choose(np.uint64(legal), np.uint64(hand), work, rng, model_array(), np.int64(STATE_SIZE),
                              np.int64(slot))
    learned_func.__name__ = f"{MODEL_NAMES[slot]}_func"
    return learned_func


learned_func = _learned_func(0)  # the packaged model
learned1_func = _learned_func(1)  # the first model
