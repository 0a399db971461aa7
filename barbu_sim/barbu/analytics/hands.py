"""What a hand holds, as polars expressions: the features that answer "with this hand, what is it worth?".

A run's hands live beside its records in ``RUN_DIR/hands.parquet`` (one row per deal: ``deal`` and
``hand_n`` .. ``hand_w``, each a ``uint64`` card mask, bit ``suit * 13 + rank``), written by
``barbu-sim run --hands`` or, for any run, ``barbu-sim hands RUN_DIR``: a deal is a pure function of
the run's seed and its index, so the hands can always be written again.  :func:`with_hands` joins
them to the records and adds the declarer's hand as ``hand``; :data:`FEATURES` are expressions over
it, counts a player can make at the table.  This module does not import numba.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import polars as pl

from ...core.cards import ACE_RANK, HEARTS, KING_RANK, QUEEN_RANK
from ...core.files import read_json
from ...core.rundir import RunError
from ...core.seats import N_SEATS, SEAT_LETTERS

HANDS_FILE = "hands.parquet"
HANDS_INFO = "hands.json"  # the seed and deals the hands were dealt from, and the file's checksum
HAND_COLUMNS = [f"hand_{s.lower()}" for s in SEAT_LETTERS]
BYTES_PER_DEAL = 25  # four 64-bit masks in Parquet: 24.4 MB per million deals (the fourth hand adds little)
LANE = (1 << 13) - 1
HONOUR_RANKS = (9, 10, 11, 12)  # J Q K A


def _mask(cards) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def suit_mask(suit: int) -> int:
    """The card mask of a whole suit."""
    return LANE << (13 * suit)


def rank_mask(ranks) -> int:
    """The card mask of the given ranks (0 = 2 .. 12 = A) in every suit."""
    return _mask(s * 13 + r for s in range(4) for r in ranks)


def count(hand: pl.Expr, mask: int) -> pl.Expr:
    """How many of the cards in ``mask`` the hand holds (an Int32 expression)."""
    return (hand & pl.lit(mask, pl.UInt64)).bitwise_count_ones().cast(pl.Int32)


def _suit_lengths(hand: pl.Expr) -> list[pl.Expr]:
    return [count(hand, suit_mask(s)) for s in range(4)]


def _by_param(column: str, masks: list[int]) -> pl.Expr:
    """A per-row mask chosen by the row's trump suit or domino rank (null where the row has none)."""
    return pl.col(column).to_physical().cast(pl.Int64).replace_strict(
        list(range(len(masks))), masks, return_dtype=pl.UInt64, default=None)


def _domino_far_masks(distance: int = 4) -> list[int]:
    """Per starting rank, the cards at least ``distance`` ranks from it in their suit (they are played last)."""
    return [rank_mask([r for r in range(13) if abs(r - start) >= distance]) for start in range(13)]


@dataclass(frozen=True)
class Feature:
    """A count a player can make on a hand: ``make(hand)`` is its polars expression; ``meaning`` names what is
    counted, as a noun phrase ("queens", "cards in the longest suit"); 0/1 features say so."""

    name: str
    meaning: str
    make: Callable[[pl.Expr], pl.Expr]


_HIGH_HEARTS = _mask(HEARTS * 13 + r for r in range(7, 13))  # 9 .. A
_FEATURE_LIST = [
    *(Feature(name, name, lambda h, s=s: count(h, suit_mask(s)))
      for s, name in enumerate(("clubs", "diamonds", "hearts", "spades"))),
    Feature("hearts_high", "hearts above the 8 (9 to A)", lambda h: count(h, _HIGH_HEARTS)),
    Feature("hearts_low", "hearts from the 2 to the 8", lambda h: count(h, suit_mask(HEARTS) & ~_HIGH_HEARTS)),
    Feature("kh", "the K♥ (1 if held, else 0)", lambda h: count(h, 1 << (HEARTS * 13 + KING_RANK))),
    Feature("ah", "the A♥ (1 if held, else 0)", lambda h: count(h, 1 << (HEARTS * 13 + ACE_RANK))),
    Feature("queens", "queens", lambda h: count(h, rank_mask([QUEEN_RANK]))),
    Feature("aces", "aces", lambda h: count(h, rank_mask([ACE_RANK]))),
    Feature("kings", "kings", lambda h: count(h, rank_mask([KING_RANK]))),
    Feature("honours", "honours (J, Q, K, A)", lambda h: count(h, rank_mask(HONOUR_RANKS))),
    Feature("high", "cards from the 10 up (10, J, Q, K, A)", lambda h: count(h, rank_mask(range(8, 13)))),
    Feature("low", "cards from the 2 to the 5", lambda h: count(h, rank_mask(range(4)))),
    Feature("longest", "cards in the longest suit", lambda h: pl.max_horizontal(_suit_lengths(h))),
    Feature("shortest", "cards in the shortest suit", lambda h: pl.min_horizontal(_suit_lengths(h))),
    Feature("voids", "voids (suits not held)", lambda h: pl.sum_horizontal([(n == 0).cast(pl.Int32)
                                                                    for n in _suit_lengths(h)])),
    Feature("trump_length", "cards in the trump suit (Trumps)",
            lambda h: (h & _by_param("trump", [suit_mask(s) for s in range(4)])).bitwise_count_ones()
            .cast(pl.Int32)),
    Feature("trump_honours", "honours in the trump suit (Trumps)",
            lambda h: (h & _by_param("trump", [suit_mask(s) & rank_mask(HONOUR_RANKS) for s in range(4)]))
            .bitwise_count_ones().cast(pl.Int32)),
    Feature("domino_starters", "cards of the starting rank (Domino)",
            lambda h: (h & _by_param("domino_rank", [rank_mask([r]) for r in range(13)])).bitwise_count_ones()
            .cast(pl.Int32)),
    Feature("domino_far", "cards 4 or more ranks from the starting rank (Domino)",
            lambda h: (h & _by_param("domino_rank", _domino_far_masks())).bitwise_count_ones().cast(pl.Int32)),
    Feature("domino_spread", "the spread: each card's distance in ranks from the starting rank, added up (Domino)",
            lambda h: pl.when(pl.col("domino_rank").is_not_null()).then(pl.sum_horizontal(
                [(h & _by_param("domino_rank", _domino_far_masks(d))).bitwise_count_ones().cast(pl.Int32)
                 for d in range(1, 13)]))),
    Feature("domino_start", "the starting rank, 2 to 14 (J 11, Q 12, K 13, A 14; Domino)",
            lambda h: pl.col("domino_rank").to_physical().cast(pl.Int32) + 2),
]
FEATURES: dict[str, Feature] = {f.name: f for f in _FEATURE_LIST}


def declarer_hand(hand_columns=HAND_COLUMNS) -> pl.Expr:
    """The declarer's hand (``uint64``) of each record row, from the four seats' hand columns."""
    d = pl.col("declarer").cast(pl.Int32)
    expr = pl.when(d == 0).then(pl.col(hand_columns[0]))
    for seat in range(1, N_SEATS - 1):
        expr = expr.when(d == seat).then(pl.col(hand_columns[seat]))
    return expr.otherwise(pl.col(hand_columns[-1])).alias("hand")


def feature_expr(text: str) -> tuple[str, pl.Expr]:
    """``(name, expression)`` of a feature given as a user writes it.

    ``text`` is a feature's name (:data:`FEATURES`), or ``NAME=EXPRESSION`` / ``EXPRESSION``: a SQL expression
    over the features (``hearts - hearts_high``, ``least(hearts_high, 3)``, ``queens + kh``), evaluated after
    them.  Raises ValueError with the feature names on an unknown name or an expression polars cannot read.
    """
    text = text.strip()
    if not text:
        raise ValueError("give a feature: " + feature_names())
    if text in FEATURES:
        return text, pl.col(text)
    name, eq, body = text.partition("=")
    if eq and name.strip().isidentifier() and not body.startswith("="):
        name, body = name.strip(), body.strip()
    else:
        name, body = text, text
    try:
        expr = pl.sql_expr(body)
    except Exception as e:  # polars raises several kinds for a bad expression
        raise ValueError(f"cannot read the feature {text!r}: {str(e).splitlines()[0]} (features: "
                         f"{feature_names()})") from None
    unknown = sorted(set(expr.meta.root_names()) - set(FEATURES))
    if unknown:
        raise ValueError(f"unknown feature {', '.join(unknown)} in {text!r}; the features are: {feature_names()}")
    return name, expr.alias(name)


def feature_names() -> str:
    return ", ".join(FEATURES)


def with_features(frame: pl.LazyFrame, hand: pl.Expr | None = None) -> pl.LazyFrame:
    """``frame`` with every feature of :data:`FEATURES` computed on ``hand`` (default the ``hand`` column)."""
    h = pl.col("hand") if hand is None else hand
    return frame.with_columns([f.make(h).alias(f.name) for f in _FEATURE_LIST])


# ---------------------------------------------------------------- the hands file of a run
def hands_path(run_dir) -> Path:
    return Path(run_dir) / HANDS_FILE


def hands_missing_message(run_dir, deals: int) -> str:
    """What a run without hands says, with the command that writes them and what they cost on disk."""
    size = deals * BYTES_PER_DEAL / 1e6
    return (f"{run_dir} keeps no hands (hands.parquet): write them from the run's seed with "
            f"`barbu-sim hands {run_dir}` (about {size:,.1f} MB, a second or so a million deals)")


def scan_hands(run_dir, manifest: dict) -> pl.LazyFrame:
    """The hands of a run's deals (``deal``, ``hand_n`` .. ``hand_w``), checked against the run's seed and
    deal count; a RunError naming the command that writes them if they are missing or not this run's."""
    path, info_path = hands_path(run_dir), Path(run_dir) / HANDS_INFO
    config = manifest["config"]
    if not path.exists() or not info_path.exists():
        raise RunError(hands_missing_message(run_dir, config["deals"]))
    info = read_json(info_path, "the hands' description")
    if not isinstance(info, dict) or info.get("seed") != config["seed"] or info.get("deals") != config["deals"]:
        raise RunError(f"{path} was not dealt from this run's seed and deals (the run was replaced since): "
                       f"write them again with `barbu-sim hands {run_dir} --force`")
    if path.stat().st_size != info.get("bytes"):
        raise RunError(f"{path} is not the file that was written (its size differs: damaged or edited): "
                       f"write it again with `barbu-sim hands {run_dir} --force`")
    return pl.scan_parquet(path)


def with_hands(records: pl.LazyFrame, hands: pl.LazyFrame) -> pl.LazyFrame:
    """The records with each seat's hand joined on ``deal`` and the declarer's as ``hand``, and its features."""
    joined = records.join(hands, on="deal", how="inner").with_columns(declarer_hand())
    return with_features(joined)

