"""The Clabber results schema: the contract between the engine and the analytics (no numba here).

A run's records (``records/part-*.parquet``), one row per round:

- ``round`` (int64): the round's index in the run (its deal is a pure function of seed and index);
- ``dealer`` (enum N/E/S/W), ``turned`` (enum of the 24 cards), ``turned_suit`` (enum C/D/H/S),
  ``turned_rank`` (enum 9/10/J/Q/K/A);
- ``bid_round`` (uint8): 1 or 2, 0 when all passed twice (thrown in; every later field null or 0);
- ``maker`` (enum N/E/S/W), ``maker_rel`` (the maker's seat relative to the dealer: ``left``,
  ``across``, ``right``, ``dealer``), ``makers`` (team enum NS/EW), ``trump`` (enum C/D/H/S),
  ``maker_trumps`` (int8: trumps the maker was dealt);
- ``card_ns``/``card_ew`` (card points won, the last trick's 10 included), ``meld_ns``/``meld_ew``
  (melds scored after the comparison), ``bell_ns``/``bell_ew``, ``score_ns``/``score_ew`` (what each
  team scores after the makers' rule), all int16;
- ``misplay`` (int8): the seat that played an illegal card under ``misplay=penalty``, else -1;
- ``run_n`` .. ``run_w`` (int8): the longest one-suit run among each player's dealt cards (0..6);
  ``four_n`` .. ``four_w`` (bool): the player was dealt a four of a kind.
"""

from __future__ import annotations

import polars as pl

from ...core.rundir import RunKind
from ...core.seats import SEAT_LETTERS

SCHEMA_VERSION = 1
# What the runs of this game are (their manifest names the game; core.rundir checks and reports them).
RUN_KIND = RunKind("clabber", "Clabber", "rounds", "barbu-sim clabber", SCHEMA_VERSION)
SEAT_ENUM = pl.Enum(list(SEAT_LETTERS))
SUIT_ENUM = pl.Enum(list("CDHS"))
RANK_NAMES = ["9", "10", "J", "Q", "K", "A"]
RANK_ENUM = pl.Enum(RANK_NAMES)
CARD_NAMES = [f"{r}{s}" for s in "CDHS" for r in RANK_NAMES]  # card order: suit, then rank
CARD_ENUM = pl.Enum(CARD_NAMES)
TEAM_ENUM = pl.Enum(["NS", "EW"])
REL_DEALER = ["left", "across", "right", "dealer"]  # seat - dealer = 1, 2, 3, 0
REL_ENUM = pl.Enum(REL_DEALER)
SEAT_SUFFIXES = [s.lower() for s in SEAT_LETTERS]
