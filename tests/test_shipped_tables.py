"""The value tables shipped with the package: this code's, read on first use, never read for other code."""

import numpy as np
import pytest

from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.game import evaluation
from barbu_sim.barbu.game.evaluation import (
    SHIPPED_STRATEGIES, SHIPPED_TABLES, shipped_tables, value_table,
)


class Built(Exception):
    """Raised instead of building a table: the test wants it read."""


def _no_building(monkeypatch):
    def refuse(*args, **kwargs):
        raise Built
    monkeypatch.setattr(evaluation, "evaluate_hands", refuse)


def test_the_shipped_tables_are_this_codes():
    want = set(shipped_tables().values())
    have = set(SHIPPED_TABLES.glob("*.gz"))
    assert len(want) == len(SHIPPED_STRATEGIES) == 2
    assert have == want, (
        "the value tables shipped in barbu_sim/barbu/game/value_tables/ are not this code's (a change to the "
        "players, the engine or the rules makes new ones): run python scripts/ship_value_tables.py")


def test_a_first_use_reads_the_shipped_table_and_builds_no_other(tmp_path, monkeypatch):
    monkeypatch.setenv("BARBU_SIM_CACHE", str(tmp_path))
    _no_building(monkeypatch)
    hands = np.array([random_deal(12345, i)[0] for i in range(400)], np.uint64)
    for strategy in SHIPPED_STRATEGIES:
        table = value_table(strategy)
        assert (table.n_hands, table.n_samples) == (400, 100)
        assert np.array_equal(table.hands, hands)  # the hands the table's key says: seed 12345
        assert table.grid_mean.shape == (400, evaluation.EvalGrid.SIZE, 4)
        assert np.isfinite(table.subset_value).all() and table.subset_value[0] == 0
    assert list(tmp_path.iterdir()) == []  # read from the package: nothing built, nothing written
    with pytest.raises(Built):  # another configuration is built as before
        value_table("heuristic", n_hands=399)


def test_a_shipped_table_is_never_read_for_other_code(tmp_path, monkeypatch):
    monkeypatch.setenv("BARBU_SIM_CACHE", str(tmp_path))
    _no_building(monkeypatch)
    monkeypatch.setattr(evaluation, "engine_stamp", lambda: "another version of the players")
    with pytest.raises(Built):
        value_table("learned")
