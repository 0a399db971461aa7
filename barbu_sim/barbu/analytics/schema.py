"""The Barbu results schema: the contract between the engine and the analytics.

A run's records (``records/part-*.parquet``): one row per deal and configuration,
columns ``deal`` (int64), ``contract`` (enum of :data:`CONTRACTS`), ``trump``
(enum C/D/H/S, Trumps only), ``domino_rank`` (enum 2..A, Domino only), ``choice``
(enum ``fixed``/``longest``/``strongest``/``most-held``), ``declarer`` (uint8 seat),
``score_n`` .. ``score_w`` (int16 raw scores by seat), ``tricks_n`` .. ``tricks_w``
(int8).  Game records (``hands.parquet`` of ``barbu-sim game``) use the same
enums.  This module does not import numba.
"""

from __future__ import annotations

import polars as pl

from ...core.cards import RANK_NAMES, SUIT_LETTERS
from ...core.rundir import RunKind
from ...core.seats import SEAT_LETTERS
from ..rules.choices import CHOICE_LABELS
from ..rules.config import CONTRACTS

SCHEMA_VERSION = 1
# What the runs of this game are (their manifest names the game; core.rundir checks and reports them).
RUN_KIND = RunKind("barbu", "Barbu", "deals", "barbu-sim", SCHEMA_VERSION)
CONTRACT_ENUM = pl.Enum(list(CONTRACTS))
SUIT_ENUM = pl.Enum(list(SUIT_LETTERS))  # enum order = suit index
RANK_ENUM = pl.Enum(list(RANK_NAMES))
CHOICE_ENUM = pl.Enum(list(CHOICE_LABELS))
SCORE_COLUMNS = [f"score_{s.lower()}" for s in SEAT_LETTERS]
TRICK_COLUMNS = [f"tricks_{s.lower()}" for s in SEAT_LETTERS]
SETTLED_COLUMNS = [f"settled_{s.lower()}" for s in SEAT_LETTERS]
# Seats as the results speak of them: relative to the declarer.
REL_SEATS = ["declarer", "left", "across", "right"]
REL_ENUM = pl.Enum(REL_SEATS)
