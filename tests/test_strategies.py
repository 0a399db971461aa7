"""Strategies: the heuristic beats random play; user plugins load and are policed."""

from pathlib import Path

import numpy as np
import pytest

from barbu_sim.barbu.api import IllegalPlayError, play_batch, play_deal
from barbu_sim.barbu.rules.choices import standard_param
from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.players.registry import basic_strategy, resolve_strategy

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


# Two plugins no built-in and no fallback plays like: the highest legal card, and a card picked by a
# hash of the legal cards and the hand.  Their pure-Python twins below pick the same cards.
PLUGINS = """
import numpy as np
from numba import njit
from barbu_sim.core.bits import highest_bit, nth_set_bit, popcount


@njit
def play_high(legal, hand, state, rng):
    return highest_bit(legal)


@njit
def pick_by_hash(legal, hand, state, rng):
    h = (legal ^ (hand >> np.uint64(1))) * np.uint64(0x9E3779B97F4A7C15)
    return nth_set_bit(legal, int((h >> np.uint64(40)) % np.uint64(popcount(legal))))
"""
MASK64 = (1 << 64) - 1


def high_py(legal, hand, state, rng):
    return int(legal).bit_length() - 1


def hash_py(legal, hand, state, rng):
    legal, hand = int(legal), int(hand)
    cards = [c for c in range(52) if legal >> c & 1]
    h = ((legal ^ (hand >> 1)) * 0x9E3779B97F4A7C15) & MASK64
    return cards[(h >> 40) % len(cards)]


def test_user_plugins_from_a_file_play_their_own_cards(tmp_path):
    from barbu_sim.barbu.engine import reference
    from barbu_sim.barbu.rules import Rules
    from barbu_sim.barbu.players.registry import BUILTINS
    from barbu_sim.core.cards import cards_of
    f = tmp_path / "mine.py"
    f.write_text(PLUGINS)
    assert f.exists()
    specs = [f"{f}:play_high", f"{f}:pick_by_hash", "random", "random"]
    rnd = BUILTINS["random"].func
    plays = not_lowest = 0
    for contract in range(7):
        for i in range(3):
            hands, param, declarer = random_deal(1, i), standard_param(contract), (contract + i) % 4
            r = play_deal(hands, contract, specs, param=param, declarer=declarer, seed=1, index=i)
            if contract == 5:
                assert r.scores.sum() == 65
            lowest = []

            def high_and_note(legal, hand, state, rng):
                lowest.append(int(legal) & -int(legal) != 1 << high_py(legal, hand, state, rng))
                return high_py(legal, hand, state, rng)
            _, _, actions, _ = reference.play([cards_of(h) for h in hands], contract, param, declarer, Rules(),
                                              [high_and_note, hash_py, rnd, rnd], seed=1, index=i)
            assert list(zip(r.seats.tolist(), r.cards.tolist())) == actions, (contract, i)
            plays += sum(1 for seat, card in actions if seat < 2 and card >= 0)
            not_lowest += sum(lowest)
    # Every card of the two plugin seats compared; North's highest card was not its lowest many times.
    assert plays > 300 and not_lowest > 100


def test_plugin_from_module_matches_file_and_builtin_path():
    by_module = resolve_strategy("plugin_examples:play_high")
    by_file = resolve_strategy(f"{Path(__file__).parent / 'plugin_examples.py'}:play_high")
    assert by_module.func is not by_file.func  # two loads of the source: the module, and the file by path
    cfg = [(c, 1, 0) for c in range(7)]
    a = play_batch(2, 0, 200, cfg, by_module)[0]
    b = play_batch(2, 0, 200, cfg, by_file)[0]
    assert (a == b).all() and a.any()
    # A built-in player run as a user plugin (function pointer) equals the built-in switch: basic, whose
    # plugin compiles in a fraction of heuristic's time through the same path, on 300 deals of each contract.
    cfg = [(c, 2, c % 4) for c in range(7)]
    builtin = play_batch(5, 0, 300, cfg, "basic")[0]
    plugin = play_batch(5, 0, 300, cfg, basic_strategy)[0]
    assert builtin.shape == plugin.shape == (300, 7, 4) and (builtin == plugin).all()
    # and the records tell players apart: lowest on the same deals scores otherwise
    assert (builtin != play_batch(5, 0, 300, cfg, "lowest")[0]).any(axis=2).sum() > 1000  # of 2,100 deals


@pytest.mark.parametrize("name,needle", [("plugin_examples:cheat", r"seat E played \w+"),
                                         ("plugin_examples:off_the_table", r"returned 99, which is not a card")])
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


def test_the_engines_write_the_error_codes_that_core_reads():
    """Both games' play loops and core.play_errors, which turns their codes into messages, agree on the codes."""
    from barbu_sim.barbu.engine import play_loops as barbu_loops
    from barbu_sim.clabber.engine import play_loops as clabber_loops
    from barbu_sim.core import play_errors
    for loops in (barbu_loops, clabber_loops):
        assert (loops.NOT_A_CARD, loops.STRATEGY_RAISED) == (play_errors.NOT_A_CARD, play_errors.STRATEGY_RAISED)
