"""Hands in the records: the hands file of a run, the features of a hand, and ``report --by``."""

import json

import numpy as np
import polars as pl
import pytest

from barbu_sim.barbu.analytics.hand_tables import by_features, declarer_by_features, explained_share
from barbu_sim.barbu.analytics.hands import (
    FEATURES, HAND_COLUMNS, feature_expr, scan_hands, with_features, with_hands,
)
from barbu_sim.barbu.analytics.schema import RANK_ENUM, SUIT_ENUM
from barbu_sim.barbu.analytics.analysis import scan_run
from barbu_sim.core.cards import parse_hand
from barbu_sim.core.rundir import read_manifest
from cli_checks import assert_clean_error, assert_one_line_error, invoke

# Hands written in PBN order (spades.hearts.diamonds.clubs), each feature counted by hand.
BY_HAND = [
    ("AKQ.JT9.876.5432", "H", "7",
     dict(spades=3, hearts=3, diamonds=3, clubs=4, hearts_high=3, hearts_low=0, kh=0, ah=0, queens=1, aces=1,
          kings=1, honours=4, high=5, low=4, longest=4, shortest=3, voids=0, trump_length=3, trump_honours=1,
          domino_starters=1, domino_far=6, domino_spread=43, domino_start=7)),
    (".AKQJT98765432..", "S", "A",
     dict(spades=0, hearts=13, diamonds=0, clubs=0, hearts_high=6, hearts_low=7, kh=1, ah=1, queens=1, aces=1,
          kings=1, honours=4, high=5, low=4, longest=13, shortest=0, voids=3, trump_length=0, trump_honours=0,
          domino_starters=1, domino_far=9, domino_spread=78, domino_start=14)),
    ("QJ.K8.QJ97.QJ987", "D", "2",
     dict(spades=2, hearts=2, diamonds=4, clubs=5, hearts_high=1, hearts_low=1, kh=1, ah=0, queens=3, aces=0,
          kings=1, honours=7, high=7, low=0, longest=5, shortest=2, voids=0, trump_length=4, trump_honours=2,
          domino_starters=0, domino_far=13, domino_spread=104, domino_start=2)),
]


def test_every_feature_counts_what_it_says_on_hands_counted_by_hand():
    cases = BY_HAND
    frame = pl.DataFrame({
        "hand": np.array([parse_hand(h) for h, *_ in cases], np.uint64),
        "trump": pl.Series([t for _, t, *_ in cases], dtype=SUIT_ENUM),
        "domino_rank": pl.Series([r for _, _, r, _ in cases], dtype=RANK_ENUM),
    })
    got = with_features(frame.lazy()).collect()
    assert len(got) == len(cases)
    for row, (text, _, _, expected) in zip(got.iter_rows(named=True), cases):
        assert set(expected) == set(FEATURES)
        assert {name: row[name] for name in FEATURES} == expected, text


def test_trump_and_domino_features_are_empty_outside_their_contract():
    frame = pl.DataFrame({"hand": np.array([parse_hand("AKQ.JT9.876.5432")], np.uint64),
                          "trump": pl.Series([None], dtype=SUIT_ENUM),
                          "domino_rank": pl.Series([None], dtype=RANK_ENUM)})
    row = with_features(frame.lazy()).collect().row(0, named=True)
    assert [row[n] for n in ("trump_length", "trump_honours", "domino_starters", "domino_far", "domino_spread",
                             "domino_start")] == [None] * 6
    assert row["hearts"] == 3


def test_a_feature_is_a_name_or_a_sql_expression_over_the_features():
    assert feature_expr("hearts")[0] == "hearts"
    name, expr = feature_expr("low_hearts = hearts - hearts_high")
    frame = pl.DataFrame({"hand": np.array([parse_hand(".AKQJT98765432..")], np.uint64),
                          "trump": pl.Series([None], dtype=SUIT_ENUM),
                          "domino_rank": pl.Series([None], dtype=RANK_ENUM)})
    assert name == "low_hearts"
    assert with_features(frame.lazy()).select(expr).collect().item() == 7
    assert feature_expr("queens + kh")[0] == "queens + kh"
    with pytest.raises(ValueError, match="unknown feature spadez"):
        feature_expr("spadez")
    with pytest.raises(ValueError, match="cannot read the feature"):
        feature_expr("hearts +* 2")


@pytest.fixture(scope="module")
def run_with_hands(tmp_path_factory):
    out = tmp_path_factory.mktemp("hands") / "run"
    result = invoke("run", "-n", 600, "--seed", 11, "-c", "no-hearts", "-c", "trumps", "-c", "domino",
                    "--trump", "longest", "--domino-rank", "each", "--hands", "--no-progress", "--out", out)
    assert result.exit_code == 0, result.output
    return out


def test_the_hands_are_the_deals_the_records_were_played_with(run_with_hands):
    from barbu_sim.barbu.api import resolve_choice
    from barbu_sim.barbu.rules.choices import TRUMP_LONGEST, Choice
    from barbu_sim.barbu.rules.config import TRUMPS
    manifest = read_manifest(run_with_hands)
    hands = scan_hands(run_with_hands, manifest).collect()
    assert hands.columns == ["deal", *HAND_COLUMNS] and len(hands) == 600
    assert all(h.dtype == pl.UInt64 for h in hands.select(HAND_COLUMNS).iter_columns())
    # every deal is 52 different cards in four hands of 13
    masks = hands.select(HAND_COLUMNS).to_numpy()
    assert (np.bitwise_or.reduce(masks, axis=1) == np.uint64((1 << 52) - 1)).all()
    assert all(bin(int(m)).count("1") == 13 for m in masks.ravel())
    # the trump suit the engine named by "longest" is the one the declarer's joined hand gives
    trumps = with_hands(scan_run(run_with_hands).filter(pl.col("contract") == "trumps"),
                        pl.scan_parquet(run_with_hands / "hands.parquet")).collect()
    assert len(trumps) == 600
    for row in trumps.iter_rows(named=True):
        named = resolve_choice(Choice(TRUMPS, TRUMP_LONGEST), np.uint64(row["hand"]))
        assert "CDHS"[named] == row["trump"]
        assert row["trump_length"] == row["longest"]


def test_tables_by_feature_cover_every_record_once(run_with_hands):
    joined = with_hands(scan_run(run_with_hands), pl.scan_parquet(run_with_hands / "hands.parquet"))
    table = declarer_by_features(joined.filter(pl.col("contract") == "no-hearts"), ["hearts", "ah"])
    assert table["n"].sum() == 600 and table["contract"].unique().to_list() == ["no-hearts"]
    manual = joined.filter(pl.col("contract") == "no-hearts").collect()
    for row in table.iter_rows(named=True):
        cell = manual.filter((pl.col("hearts") == row["hearts"]) & (pl.col("ah") == row["ah"]))
        assert len(cell) == row["n"]
        assert row["mean"] == pytest.approx(cell["score_n"].cast(pl.Float64).mean())
    every_seat = by_features(joined.filter(pl.col("contract") == "domino"), ["domino_starters"])
    assert every_seat["n"].sum() == 4 * 13 * 600  # four seats, thirteen ranks


def test_explained_share_is_the_between_group_share_of_the_variance(run_with_hands):
    joined = with_hands(scan_run(run_with_hands).filter(pl.col("contract") == "no-hearts"),
                        pl.scan_parquet(run_with_hands / "hands.parquet"))
    share = explained_share(joined, ["hearts"])
    assert len(share) == 1
    frame = joined.collect()
    y = frame["score_n"].cast(pl.Float64).to_numpy()
    groups = frame["hearts"].to_numpy()
    between = sum((groups == g).sum() * (y[groups == g].mean() - y.mean()) ** 2 for g in np.unique(groups))
    assert share["share"].item() == pytest.approx(between / ((y - y.mean()) ** 2).sum())
    assert 0 < share["share"].item() < 1


def test_report_by_prints_the_declarers_table_and_writes_every_seats(run_with_hands):
    result = invoke("report", run_with_hands, "--by", "hearts_high", "-c", "no-hearts")
    assert result.exit_code == 0, result.output
    assert "The declarer's score by hearts_high" in result.output and "Share of the spread" in result.output
    rows = json.loads((run_with_hands / "report" / "by_hearts_high.json").read_text())
    assert {r["rel_seat"] for r in rows} == {"declarer", "left", "across", "right"}
    assert sum(r["n"] for r in rows if r["rel_seat"] == "declarer") == 600
    result = invoke("report", run_with_hands, "--by", "long=least(hearts, 4)", "-c", "no-hearts")
    assert result.exit_code == 0, result.output
    assert (run_with_hands / "report" / "by_long.csv").exists()


def test_report_by_refuses_what_it_cannot_group(run_with_hands, tmp_path):
    assert_one_line_error(invoke("report", run_with_hands, "--by", "spadez"), "unknown feature spadez", "hearts_high")
    assert_one_line_error(invoke("report", run_with_hands, "-c", "barbu"), "--contract goes with --by")
    assert_one_line_error(invoke("report", run_with_hands, "--by", "hearts", "-c", "barbu"),
                          "no records of barbu")
    assert_one_line_error(invoke("hands", run_with_hands), "hands.parquet exists", "--force")


def test_a_run_without_hands_says_how_to_write_them(tmp_path):
    out = tmp_path / "plain"
    assert invoke("run", "-n", 200, "-c", "barbu", "--no-progress", "--out", out).exit_code == 0
    result = invoke("report", out, "--by", "kh")
    assert_one_line_error(result, "keeps no hands", f"barbu-sim hands {out}")
    result = invoke("hands", out)
    assert result.exit_code == 0 and "Wrote" in result.output, result.output
    assert invoke("report", out, "--by", "kh").exit_code == 0
    # hands of another seed (the run was replaced since) are refused, not joined
    info = json.loads((out / "hands.json").read_text())
    (out / "hands.json").write_text(json.dumps({**info, "seed": info["seed"] + 1}))
    assert_clean_error(invoke("report", out, "--by", "kh"), "not dealt from this run's seed", "--force")
    assert invoke("hands", out, "--force").exit_code == 0
    assert invoke("report", out, "--by", "kh").exit_code == 0
    assert_one_line_error(invoke("hands", tmp_path / "nowhere"), "is not a directory")


def test_the_cli_lists_every_feature():
    from barbu_sim.cli.barbu import FEATURE_NAMES
    assert FEATURE_NAMES.split(", ") == list(FEATURES)
