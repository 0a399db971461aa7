"""Fitting the declaring guide: per contract, the declarer's expected score by the counts that explain it most.

From a run's records joined to their hands (:func:`barbu_sim.barbu.analytics.hands.with_hands`), each
contract gets a **score card**: the one or two features of the declarer's hand (:data:`FEATURES`) whose
groups explain the most of the spread of the declarer's score, each clipped to the values held often
enough (rarer values pooled into the end value: "4 or more"), and the declarer's mean score in every cell
with its 95% CI and count.  Trumps is fitted on the rows where the declarer named its longest suit and
Domino on those where it named the rank it held most: the guide names them so.  A pair of features is kept
only where it explains clearly more than the best one alone (:data:`PAIR_GAIN`).  This module does not
import numba.
"""

from __future__ import annotations

import polars as pl

from ...core.stats import with_ci
from ..rules.config import CONTRACTS
from .hand_tables import explained_share
from .hands import FEATURES

# The choice each contract's card is fitted on: the rows of a run with --trump longest --domino-rank most-held.
CARD_CHOICE = {"trumps": "longest", "domino": "most-held"}
CANDIDATES = 5  # features alone that go on to be tried in pairs
PAIR_GAIN = 0.02  # a pair is kept where it explains at least this much more of the spread than one feature
MIN_CELL = 2000  # a feature value held by fewer declarers is pooled into its neighbour towards the middle


def card_rows(joined: pl.LazyFrame, contract: str) -> pl.LazyFrame:
    """The records a contract's card is fitted on (its fixed rows, or for Trumps and Domino :data:`CARD_CHOICE`)."""
    return joined.filter((pl.col("contract") == contract) & (pl.col("choice") == CARD_CHOICE.get(contract, "fixed")))


def clip_range(rows: pl.LazyFrame, feature: str, min_cell: int = MIN_CELL) -> tuple[int, int]:
    """The values of ``feature`` kept apart: from the lowest to the highest held by at least ``min_cell``
    declarers (values outside are pooled into the ends)."""
    counts = rows.group_by(feature).len().collect().sort(feature)
    common = counts.filter(pl.col("len") >= min_cell)[feature]
    if common.is_empty():
        raise ValueError(f"too few deals to fit a card on {feature}: no value is held by {min_cell:,} declarers")
    return int(common.min()), int(common.max())


def choose_features(rows: pl.LazyFrame) -> tuple[list[str], float, list[dict]]:
    """The feature, or pair, whose groups explain most of the spread of the declarer's score on ``rows``:
    ``(features, share, every share tried)``."""
    singles = explained_share(rows, list(FEATURES), keys=["contract"]).filter(pl.col("n") > 0)
    singles = singles.select("feature", "share").sort(["share", "feature"], descending=[True, False])
    top = singles["feature"].head(CANDIDATES).to_list()
    pairs = [[a, b] for i, a in enumerate(top) for b in top[i + 1:]]
    tried = [{"features": [f], "share": s} for f, s in singles.head(CANDIDATES).iter_rows()]
    best_pair, pair_share = None, -1.0
    if pairs:
        for feature, share in explained_share(rows, pairs, keys=["contract"]).select("feature", "share").iter_rows():
            tried.append({"features": feature.split(" & "), "share": share})
            if share > pair_share:
                best_pair, pair_share = feature.split(" & "), share
    best_single, single_share = [top[0]], float(singles["share"][0])
    if best_pair is not None and pair_share >= single_share + PAIR_GAIN:
        return best_pair, float(pair_share), tried
    return best_single, single_share, tried


def fit_card(joined: pl.LazyFrame, contract: str, features: list[str] | None = None,
             min_cell: int = MIN_CELL) -> dict:
    """The score card of ``contract``: ``features``, ``share`` (of the spread they explain), ``clip`` (the
    range kept apart per feature), ``average`` (the declarer's mean), ``n`` and ``cells`` (per clipped feature
    values: ``n``, ``mean``, ``ci_low``, ``ci_high``).  ``features``: chosen from the data when not given."""
    rows = card_rows(joined, contract)
    tried: list[dict] = []
    if features is None:
        features, share, tried = choose_features(rows)
    else:
        share = float(explained_share(rows, [features], keys=["contract"])["share"].item())
    clip = {f: clip_range(rows, f, min_cell) for f in features}
    v = pl.col("score_declarer").cast(pl.Int64)
    clipped = rows.with_columns(
        pl.when(pl.col("declarer") == 0).then(pl.col("score_n")).when(pl.col("declarer") == 1).then(pl.col("score_e"))
        .when(pl.col("declarer") == 2).then(pl.col("score_s")).otherwise(pl.col("score_w")).alias("score_declarer"),
        *[pl.col(f).clip(lo, hi).alias(f) for f, (lo, hi) in clip.items()])
    cells = clipped.group_by(features).agg(pl.len().alias("n"), v.sum().alias("total"),
                                           (v * v).sum().alias("squares")).collect()
    cells = with_ci(cells, "n", "total", "squares").sort(features)
    n, total = int(cells["n"].sum()), int(cells["total"].sum())
    return {"contract": contract, "choice": CARD_CHOICE.get(contract, "fixed"), "features": features,
            "share": share, "clip": {f: list(r) for f, r in clip.items()}, "n": n, "average": total / n,
            "cells": cells.select(*features, "n", "mean", "ci_low", "ci_high").to_dicts(), "tried": tried}


def fit_cards(joined: pl.LazyFrame, min_cell: int = MIN_CELL, features: dict | None = None) -> dict[str, dict]:
    """A score card per contract (see :func:`fit_card`), in contract order; ``features``: contract -> the
    features to use instead of those the data picks."""
    return {c: fit_card(joined, c, (features or {}).get(c), min_cell) for c in CONTRACTS}
