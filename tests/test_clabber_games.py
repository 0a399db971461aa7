"""Games to 500: reproducible per (seed, game) on any thread count, score sheets that add up, the end rule."""

import numpy as np

from barbu_sim.clabber.api import game_sheet, play_games
from barbu_sim.clabber.rules import GAME_COLUMNS, GAME_TARGET, ROUND_COLUMNS

G = {c: i for i, c in enumerate(GAME_COLUMNS)}
R = {c: i for i, c in enumerate(ROUND_COLUMNS)}


def test_games_are_the_same_on_one_and_two_threads_and_in_any_batch():
    a = play_games(5, 0, 400, "threshold:55", "heuristic", threads=1, chunk=50)
    b = play_games(5, 0, 400, "threshold:55", "heuristic", threads=2, chunk=7)
    c = play_games(5, 100, 50, "threshold:55", "heuristic", threads=2)
    assert np.array_equal(a, b) and np.array_equal(a[100:150], c)


def test_score_sheets_add_up_and_the_game_ends_at_500():
    games = play_games(6, 0, 60, "threshold:50", "random")
    for g in range(60):
        sheet, result = game_sheet(6, g, "threshold:50", "random")
        assert np.array_equal(result, games[g])
        totals = sheet[:, [R["score_ns"], R["score_ew"]]].sum(axis=0)
        assert list(totals) == [result[G["score_ns"]], result[G["score_ew"]]]
        running = np.cumsum(sheet[:, [R["score_ns"], R["score_ew"]]], axis=0)
        assert (running[:-1] < GAME_TARGET).all() and (running[-1] >= GAME_TARGET).any()
        dealers = sheet[:, R["dealer"]]
        assert dealers[0] == result[G["first_dealer"]] and ((np.diff(dealers) % 4) == 1).all()
        winner = {0: totals[0] > totals[1], 1: totals[1] > totals[0], 2: totals[0] == totals[1]}
        assert winner[int(result[G["result"]])]
        assert result[G["thrown_in"]] == (sheet[:, R["bid_round"]] == 0).sum()
