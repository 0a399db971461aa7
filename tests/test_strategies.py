"""Strategies: the heuristic beats random play; user plugins load and are policed."""

from pathlib import Path

import numpy as np
import pytest

from barbu_sim.barbu.api import IllegalPlayError, play_batch, play_deal
from barbu_sim.barbu.choices import standard_param
from barbu_sim.barbu.deals import random_deal
from barbu_sim.barbu.strategies import heuristic_strategy, resolve_strategy

N = 3000


def seat_means(contract, strategies):
    """Mean raw score of each seat, declarer at each seat in turn (12,000 plays per seat)."""
    cfg = [(contract, standard_param(contract), d) for d in range(4)]
    scores, _ = play_batch(21, 0, N, cfg, strategies)
    return scores.astype(np.float64).mean(axis=(0, 1)), scores.astype(np.float64).std(axis=(0, 1))


@pytest.mark.parametrize("contract", range(7))
def test_one_heuristic_seat_beats_a_random_seat(contract):
    base, sd = seat_means(contract, "random")
    for seat in range(4):
        mix = ["random"] * 4
        mix[seat] = "heuristic"
        mean, _ = seat_means(contract, mix)
        se = sd[seat] / np.sqrt(4 * N)
        assert mean[seat] > base[seat] + 4 * se, (contract, seat, mean[seat], base[seat])


def test_user_plugin_from_file(tmp_path):
    f = tmp_path / "mine.py"
    f.write_text(
        "from numba import njit\n"
        "from barbu_sim.core.bits import highest_bit\n\n"
        "@njit\n"
        "def play_high(legal, hand, state, rng):\n"
        "    return highest_bit(legal)\n"
    )
    s = resolve_strategy(f"{f}:play_high")
    r = play_deal(random_deal(1, 1), "trumps", [s, "random", "random", "random"], param=0)
    assert r.scores.sum() == 65


def test_plugin_from_module_matches_file_and_builtin_path():
    by_module = resolve_strategy("plugin_examples:play_high")
    by_file = resolve_strategy(f"{Path(__file__).parent / 'plugin_examples.py'}:play_high")
    assert by_module.func is not by_file.func  # two loads of the source: the module, and the file by path
    cfg = [(c, 1, 0) for c in range(7)]
    a = play_batch(2, 0, 200, cfg, by_module)[0]
    b = play_batch(2, 0, 200, cfg, by_file)[0]
    assert (a == b).all() and a.any()
    # The heuristic run as a user plugin (function pointer) equals the built-in switch.
    builtin = play_batch(5, 0, 300, [(c, 2, c % 4) for c in range(7)], "heuristic")[0]
    plugin = play_batch(5, 0, 300, [(c, 2, c % 4) for c in range(7)], heuristic_strategy)[0]
    assert (builtin == plugin).all()


@pytest.mark.parametrize("name,needle", [("plugin_examples:cheat", r"seat E played \w+"),
                                         ("plugin_examples:off_the_table", "not a card")])
def test_illegal_cards_are_stopped_with_names(name, needle):
    with pytest.raises(IllegalPlayError, match=needle) as err:
        play_batch(1, 0, 50, [(0, 0, 0)], ["heuristic", name, "heuristic", "heuristic"])
    assert name in str(err.value)
    with pytest.raises(IllegalPlayError, match="seat E"):
        play_deal(random_deal(1, 0), 0, ["heuristic", name, "heuristic", "heuristic"])


@pytest.mark.parametrize("spec,needle", [
    ("nope", "unknown strategy"),
    ("plugin_examples:missing", "no function"),
    ("no_such_module_xyz:f", "cannot import"),
    ("/no/such/file.py:f", "does not exist"),
])
def test_bad_strategy_specs(spec, needle):
    with pytest.raises(ValueError, match=needle):
        resolve_strategy(spec)


def test_wrong_signature_is_a_clear_error():
    with pytest.raises(ValueError, match="strategy signature"):
        play_batch(1, 0, 5, [(0, 0, 0)], "plugin_examples:wrong_shape")


def test_file_that_fails_to_load(tmp_path):
    f = tmp_path / "broken.py"
    f.write_text("raise RuntimeError('boom')\n")
    with pytest.raises(ValueError, match="failed to load: RuntimeError: boom"):
        resolve_strategy(f"{f}:x")
