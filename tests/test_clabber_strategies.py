"""Clabber strategies: plugins through function pointers, illegal cards, the misplay penalty,
bidding policies, and heuristic play against random play (paired, on the same deals)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from numba import njit

import clabber_reference as ref
from barbu_sim.clabber.api import IllegalPlayError, StrategyError, play_round, play_rounds
from barbu_sim.clabber.players.bidding import parse_bidding
from barbu_sim.clabber.rules import ROUND_COLUMNS, Rules
from barbu_sim.core.bits import highest_bit, lowest_bit, nth_set_bit, popcount

COL = {c: i for i, c in enumerate(ROUND_COLUMNS)}


@njit
def play_high(legal, hand, state, rng):
    return highest_bit(legal)


@njit
def play_low(legal, hand, state, rng):
    return lowest_bit(legal)


@njit
def renege(legal, hand, state, rng):
    # Plays a held card that is not legal whenever there is one.
    other = hand & ~legal
    if other:
        return lowest_bit(other)
    return lowest_bit(legal)


@njit
def grumpy(legal, hand, state, rng):
    if hand & np.uint64(1 << 12):  # holds the ace of clubs
        raise ValueError("no aces")
    return lowest_bit(legal)


@njit
def wrong_shape(legal, hand):
    return 0


@njit
def pick_by_hash(legal, hand, state, rng):
    # A card picked by a hash of the legal cards and the hand: like no built-in and not the fallback.
    h = (legal ^ (hand >> np.uint64(1))) * np.uint64(0x9E3779B97F4A7C15)
    return nth_set_bit(legal, int((h >> np.uint64(40)) % np.uint64(popcount(legal))))


def highest_py(legal, hand, view, rng):
    return max(legal)


def lowest_py(legal, hand, view, rng):
    return min(legal)


def hash_py(legal, hand, view, rng):
    legal_mask = sum(1 << c for c in legal)
    hand_mask = sum(1 << c for c in hand)
    h = ((legal_mask ^ (hand_mask >> 1)) * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
    return sorted(legal)[(h >> 40) % len(legal)]


def test_plugins_play_like_the_reference():
    # The engine's plays, seat by seat, equal those of the reference calling the plugins' pure-Python twins.
    compared = differ_from_lowest = 0
    for index in range(10):
        engine = play_round(2, index, 0, "accept-first", [play_high, pick_by_hash, play_high, pick_by_hash])
        hands, turned = ref.deal(2, index, 0)
        out = ref.play_round(hands, turned, 0, [("accept-first",)] * 4, [highest_py, hash_py] * 2, seed=2,
                             round_index=index)
        assert engine.plays == out["plays"] and [engine.row["score_ns"], engine.row["score_ew"]] == out["scores"]
        low = ref.play_round(hands, turned, 0, [("accept-first",)] * 4, [lowest_py] * 4, seed=2, round_index=index)
        compared += len(engine.plays)
        differ_from_lowest += engine.plays != low["plays"]
    assert compared == 10 * 24 and differ_from_lowest == 10


def test_plugin_by_file_spec_and_per_seat(tmp_path):
    # North: the highest legal card (a plugin loaded from this file by path), East random, South the
    # heuristic, West the lowest.  Replay the round through the reference, where North and West choose
    # with their pure-Python twins and East and South replay what the engine played.
    here = __file__
    rounds = plays_checked = north_not_lowest = 0
    for index in range(6):
        mixed = play_round(1, index, 0, "accept-first", [f"{here}:play_high", "random", "heuristic", play_low])
        assert len(mixed.plays) == 24
        queue = {s: [c for seat, c in mixed.plays if seat == s] for s in (1, 2)}

        def replay(seat):
            return lambda legal, hand, view, rng: queue[seat].pop(0)
        north = []

        def high_noted(legal, hand, view, rng):
            north.append(max(legal) != min(legal))
            return max(legal)
        hands, turned = ref.deal(1, index, 0)
        out = ref.play_round(hands, turned, 0, [("accept-first",)] * 4, [high_noted, replay(1), replay(2), lowest_py],
                             seed=1, round_index=index)
        assert mixed.plays == out["plays"]
        assert queue == {1: [], 2: []}
        rounds += 1
        plays_checked += len(out["plays"])
        north_not_lowest += sum(north)
    assert rounds == 6 and plays_checked == 6 * 24 and north_not_lowest > 6


def test_illegal_card_names_strategy_seat_and_card():
    with pytest.raises(IllegalPlayError, match=r"strategy 'renege' at seat [NESW] played \w+, which is not a legal"):
        for index in range(50):
            play_round(0, index, 0, "accept-first", renege)
    with pytest.raises(IllegalPlayError, match="renege"):
        play_rounds(0, 0, 200, strategies=["random", renege, "random", "random"])


@njit
def minus_seven(legal, hand, state, rng):
    return -7


def test_a_value_that_is_not_a_card_is_shown():
    with pytest.raises(IllegalPlayError, match=r"strategy 'minus_seven' at seat E returned -7, which is not a card"):
        play_round(0, 0, 0, "accept-first", ["random", minus_seven, "random", "random"])
    with pytest.raises(IllegalPlayError, match=r"returned -7, which is not a card"):
        play_rounds(0, 0, 100, strategies=["random", minus_seven, "random", "random"])


def test_misplay_penalty_ends_the_round():
    rules = Rules(misplay="penalty")
    rows = play_rounds(0, 0, 200, strategies=["random", renege, "random", "random"], rules=rules)
    bad = rows[rows[:, COL["misplay"]] >= 0]
    assert len(bad) > 0 and (bad[:, COL["misplay"]] == 1).all()
    assert (bad[:, COL["score_ew"]] == 0).all() and (bad[:, COL["score_ns"]] >= 162).all()


@pytest.mark.parametrize("misplay", ["error", "penalty"])
def test_a_raising_strategy_is_an_error_under_either_misplay_rule(misplay):
    strategies = ["random", grumpy, "random", "random"]
    with pytest.raises(StrategyError, match="'grumpy' at seat E raised ValueError: no aces") as err:
        play_rounds(0, 0, 300, strategies=strategies, rules=Rules(misplay=misplay))
    assert not isinstance(err.value, IllegalPlayError)
    assert "round" in str(err.value) and "seed 0" in str(err.value)


@pytest.mark.parametrize("where", ["round", "games", "mc bidding", "advise"])
def test_a_raising_strategy_is_named_with_its_message_everywhere(where):
    from barbu_sim.clabber.game.advice import advise
    from barbu_sim.clabber.api import play_games
    strategies = ["random", grumpy, "random", "random"]
    calls = {"round": lambda: [play_round(0, i, 0, "accept-first", strategies) for i in range(40)],
             "games": lambda: play_games(0, 0, 8, strategies=strategies),
             "mc bidding": lambda: play_rounds(0, 0, 20, bidding="mc:4", strategies=strategies),
             "advise": lambda: advise("JS 9S AS KH 10D 9D", "QS", 1, 40, strategies=strategies)}
    with pytest.raises(StrategyError, match="'grumpy' at seat E raised ValueError: no aces"):
        calls[where]()


def test_an_illegal_card_in_hand_evaluation_is_an_error():
    from barbu_sim.clabber.game.advice import advise
    with pytest.raises(IllegalPlayError, match="'renege' at seat E played .* \\(hand evaluation\\)"):
        advise("JS 9S AS KH 10D 9D", "QS", 1, 40, strategies=["random", renege, "random", "random"])


def test_wrong_signature_is_a_clear_error():
    with pytest.raises(ValueError, match="strategy signature"):
        play_round(0, 0, 0, "accept-first", wrong_shape)
    with pytest.raises(ValueError, match="unknown strategy"):
        play_round(0, 0, 0, "accept-first", "cleverest")


@pytest.mark.parametrize("spec,needle", [
    ("greedy", "unknown bidding policy 'greedy': use accept-first, random, threshold"),
    ("threshold:x", "'x' is not an integer"),
    ("random:3", "bidding policy random takes no parameter"),
    ("mc:0", "samples must be 1..100000"),
    ("threshold:-5", "the threshold must be 0..1000"),
])
def test_bad_bidding_policies(spec, needle):
    with pytest.raises(ValueError, match=needle):
        parse_bidding(spec)


def test_bidding_policies_shape_the_rounds():
    first = play_rounds(5, 0, 2000, dealer=3, bidding="accept-first", strategies="random")
    assert (first[:, COL["bid_round"]] == 1).all() and (first[:, COL["maker"]] == 0).all()
    high = play_rounds(5, 0, 2000, bidding="threshold:90", strategies="random")
    assert (high[:, COL["bid_round"]] == 0).mean() > 0.3
    rnd = play_rounds(5, 0, 2000, bidding="random", strategies="random")
    assert 0.4 < (rnd[:, COL["maker"]] == 1).mean() < 0.6  # the first speaker accepts half the time


def test_heuristic_beats_random_as_makers_and_as_defenders():
    n = 20_000
    base = play_rounds(8, 0, n, bidding="accept-first", strategies="random").astype(np.int64)
    # Makers are E+W (E speaks first with dealer N).
    makers_h = play_rounds(8, 0, n, bidding="accept-first",
                           strategies=["random", "heuristic", "random", "heuristic"]).astype(np.int64)
    defenders_h = play_rounds(8, 0, n, bidding="accept-first",
                              strategies=["heuristic", "random", "heuristic", "random"]).astype(np.int64)
    gain_m = makers_h[:, COL["score_ew"]] - base[:, COL["score_ew"]]
    gain_d = defenders_h[:, COL["score_ns"]] - base[:, COL["score_ns"]]
    for gain in (gain_m, gain_d):
        assert gain.mean() - 4 * gain.std() / np.sqrt(n) > 0


def test_mc_bidding_is_reproducible_and_prefers_strong_hands():
    a = play_rounds(12, 0, 40, dealer=0, bidding="mc:16", strategies="heuristic", threads=1)
    b = play_rounds(12, 0, 40, dealer=0, bidding="mc:16", strategies="heuristic", threads=2, chunk=7)
    assert np.array_equal(a, b)
    played = a[a[:, COL["bid_round"]] > 0]
    assert len(played) > 10
    # Makers chosen by Monte Carlo hold more trumps than a random seat's share (1.5 of 6).
    assert played[:, COL["maker_trumps"]].mean() > 2
    one = play_round(12, 3, 0, "mc:16", "heuristic")
    assert [one.row[c] for c in ROUND_COLUMNS] == a[3].tolist()


def test_the_api_asks_for_mc_bidding_only_when_a_seat_bids_mc(monkeypatch):
    """The kernels' mc-bidding marker, resolved from the seats: None (the kernel compiled without mc
    bidding) unless a seat bids mc.  Nothing is compiled here: the compiling calls are stood in for."""
    from numba import types
    from barbu_sim.clabber import api
    from barbu_sim.clabber.engine.round_kernels import rounds_batch_kernel
    from barbu_sim.clabber.players.registry import seat_strategies
    from barbu_sim.core.compiling import LazyKernel
    asked = []
    monkeypatch.setattr(api, "ensure_compiled", lambda dispatcher, args, what, key: asked.append((args, what)) or what)
    monkeypatch.setattr(LazyKernel, "compiled", lambda kernel: "the default kernel")
    ids = seat_strategies("heuristic")[0]
    for bidding in ("accept-first", "threshold", "random"):
        assert api._engine(rounds_batch_kernel, ids, api.seat_bidding(bidding)[0]) == ("the default kernel",
                                                                                      (None, None))
    one_mc = api.seat_bidding(["threshold", "mc:4", "threshold", "threshold"])[0]
    assert api._engine(rounds_batch_kernel, ids, one_mc) == ("the Clabber batch engine with mc bidding",
                                                             (api._MC_BIDS, None))
    assert asked[-1][0] == rounds_batch_kernel.args[:-2] + (types.uint64[::1], types.none)
    mc_play = seat_strategies("mc")[0]
    what, trailing = api._engine(rounds_batch_kernel, mc_play, one_mc)
    assert what == "the Clabber batch engine with the mc player and mc bidding"
    assert trailing == (api._MC_BIDS, api._MC_PROTO)
    assert asked[-1][0] == rounds_batch_kernel.args[:-2] + (types.uint64[::1], types.uint64[::1])
    learned = seat_strategies("learned")[0]
    what, trailing = api._engine(rounds_batch_kernel, learned, api.seat_bidding("threshold")[0])
    assert what == "the Clabber batch engine with the learned player"
    assert trailing[0] is None and trailing[1].dtype == np.float32
    assert asked[-1][0] == rounds_batch_kernel.args[:-2] + (types.none, types.float32[::1])


def test_bidding_without_mc_compiles_no_mc_bidding(tmp_path):
    """The bidding of a kernel without mc bidding (its workspace None) never compiles mc_bid (half of the
    default engine's compile time).  In a fresh process with an empty cache, so that bid_into compiles."""
    code = textwrap.dedent("""
        import numpy as np
        from barbu_sim.clabber.api import deal_round, seat_bidding
        from barbu_sim.clabber.engine.mc_bidding import mc_bid
        from barbu_sim.clabber.engine.round_kernels import bid_into
        from barbu_sim.clabber.players.registry import seat_strategies
        from barbu_sim.clabber.rules import Rules
        from barbu_sim.clabber.state import STATE_ARRAY_SIZE
        hands, turned = deal_round(5, 0, 0)
        ids, fns, _ = seat_strategies("heuristic")
        bid_ids, bid_params = seat_bidding("threshold")
        code = bid_into(hands, turned, 0, bid_ids, bid_params, np.ones(1, np.uint64), np.bool_(False),
                        np.zeros((8, 2), np.int64), np.uint64(5), np.uint64(0), Rules().to_array(), ids, fns, None,
                        np.zeros(STATE_ARRAY_SIZE, np.uint64), np.zeros((1, 2), np.int64), np.zeros(1, np.int64))
        print(code >= 0, len(bid_into.signatures), len(mc_bid.signatures))
    """)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    root = Path(__file__).resolve().parent.parent  # this checkout's package, whatever is installed
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "1", "0"]


def test_misplay_penalty_matches_the_reference():
    def renege_py(legal, hand, view, rng):
        other = hand - legal
        return min(other) if other else min(legal)
    rules = Rules(misplay="penalty")
    seen = 0
    for index in range(30):
        engine = play_round(4, index, 0, "accept-first", ["random", renege, "random", "random"], rules)
        hands, turned = ref.deal(4, index, 0)
        out = ref.play_round(hands, turned, 0, [("accept-first",)] * 4,
                             [ref.random_strategy, renege_py, ref.random_strategy, ref.random_strategy],
                             seed=4, round_index=index, misplay="penalty")
        assert [engine.row["score_ns"], engine.row["score_ew"]] == out["scores"]
        assert engine.row["misplay"] == out.get("misplay", -1)
        seen += engine.row["misplay"] >= 0
    assert seen > 5
