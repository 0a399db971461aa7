"""The Monte-Carlo player: rollouts agree with the engine, layouts respect what the table showed,
decisions are reproducible, parameters are checked, --explain tells the truth."""

import numpy as np
import pytest
from numba import njit

from barbu_sim.barbu.api import NO_MODEL, play_batch, play_deal, play_random_deal
from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.review.explain import decisions, format_explain
from barbu_sim.barbu.engine.play_loops import _reset_state, new_state
from barbu_sim.barbu.players.mc.player import MCParams, infer_not_held, parse_mc, sample_layout
from barbu_sim.barbu.rules.play_rules import (
    domino_openers, domino_playable, forced_discard, lead_restriction, legal_mask,
)
from barbu_sim.barbu.players.rollout import domino_playable_now, rollout_domino, rollout_tricks
from barbu_sim.barbu.rules import DOMINO, TRUMPS, Contract, Rules, load_rules, parse_option_pairs
from barbu_sim.barbu.state import S_CARDS_LEFT, S_LEADER, S_NOT_HELD, S_PLAYED, S_SEAT, STATE_SIZE
from barbu_sim.barbu.players.registry import BASIC, HEURISTIC, RANDOM, resolve_strategy
from barbu_sim.core.rng import STREAM_PLAY, stream_key

U1 = np.uint64(1)


@njit(cache=True)
def _rollout_from_start(hands_in, contract, param, declarer, rules, sid, seed, index, net):
    """A whole deal played by :mod:`rollout` from the first card (``first_card=-1``: the rollout
    player chooses it too), with the engine's random stream for the deal (``net``: the learned player's
    model array, for a learned rollout; the state array has its scratch space after the fields).

    The rollouts are called with the very argument types mc's estimator gives them (``first_card``
    and ``stop`` as int64 values, not literals), so that their compiled code is the estimator's,
    loaded from numba's cache, and this test compiles only this small function."""
    state = new_state(rules)
    _reset_state(state, contract, param, declarer)
    state[S_SEAT] = declarer
    state[S_LEADER] = declarer
    rng = np.empty(1, np.uint64)
    rng[0] = stream_key(seed, index, STREAM_PLAY)
    hands = hands_in.copy()
    scores = np.zeros(4, np.int64)
    first = np.int64(-1)
    if contract == DOMINO:
        rollout_domino(hands, param, rules, sid, state, rng, first, scores, net)
    else:
        rollout_tricks(hands, contract, param, rules, sid, state, rng, first, scores, net, np.int64(13))
    return scores


@pytest.mark.parametrize("contract", list(Contract))
@pytest.mark.parametrize("name,sid", [("random", RANDOM), ("heuristic", HEURISTIC), ("basic", BASIC)])
def test_a_rollout_from_the_first_card_plays_the_engines_deal(contract, name, sid):
    rules = Rules()
    for index in range(12):
        hands = random_deal(5, index)
        param = 2 if contract == TRUMPS else (5 if contract == DOMINO else 0)
        declarer = index % 4
        engine = play_deal(hands, int(contract), name, param=param, declarer=declarer, seed=5, index=index)
        rolled = _rollout_from_start(hands, int(contract), param, declarer, rules.to_array(), sid,
                                     np.uint64(5), np.uint64(index), NO_MODEL)
        assert rolled.tolist() == engine.scores.tolist(), (contract.name, name, index)


def test_domino_playable_now_matches_the_card_by_card_update():
    for index in range(5):
        result = play_random_deal(3, index, "domino", "random", param=4 + index)
        playable, down, up = domino_openers(4 + index)
        played = np.uint64(0)
        for card in result.cards:
            if card < 0:
                continue
            b = np.uint64(1 << int(card))
            assert playable & b  # the engine played a playable card
            played |= b
            playable = domino_playable(playable, b, down, up)
            assert domino_playable_now(4 + index, played) == playable


@njit
def _infer(hand, k, led, contract, trump, top_trump, rules, card):
    state = np.zeros(STATE_SIZE, np.uint64)
    infer_not_held(state, 1, card, k, led, lead_restriction(contract, rules), forced_discard(contract, rules),
                   contract, trump, top_trump, rules)
    return state[S_NOT_HELD + 1]


@pytest.mark.parametrize("option", [None, "trumps-overtrump=on", "trumps-void=free", "barbu-forced-discard=on",
                                    "barbu-heart-lead=no-hearts-unless-only-hearts"])
def test_what_a_play_shows_is_never_held(option):
    """Sound: no card inferred absent is in the hand that legally played; and a card not followed shows the suit
    void."""
    rules = load_rules(None, parse_option_pairs([option])) if option else Rules()
    ra = rules.to_array()
    rng = np.random.default_rng(1)
    showed_a_void = 0
    for _ in range(1500):
        contract = int(rng.integers(0, 6))
        cards = rng.permutation(52)
        hand = 0
        for c in cards[:int(rng.integers(1, 14))]:
            hand |= 1 << int(c)
        k = int(rng.integers(0, 4))
        led = int(rng.integers(0, 4))
        trump = int(rng.integers(0, 4))
        top = int(rng.choice([-1, trump * 13 + int(rng.integers(0, 13))])) if contract == TRUMPS else -1
        legal = int(legal_mask(np.uint64(hand), k, led, lead_restriction(contract, ra), forced_discard(contract, ra),
                               contract, trump, top, ra))
        for card in range(52):
            if legal >> card & 1:
                known = int(_infer(np.uint64(hand), k, led, contract, trump, top, ra, card))
                assert known & hand & ~(1 << card) == 0
                if k > 0 and card // 13 != led:
                    assert known >> (13 * led) & 0x1FFF == 0x1FFF
                    showed_a_void += 1
    assert showed_a_void > 100


@njit(cache=True)
def _layouts(hand, played, not_held, cards_left, n, seed):
    # mc's own argument types (the seat as an int64 value), so that sample_layout loads from numba's cache
    state = np.zeros(STATE_SIZE, np.uint64)
    state[S_PLAYED] = played
    for j in range(4):
        state[S_NOT_HELD + j] = not_held[j]
        state[S_CARDS_LEFT + j] = cards_left[j]
    rng = np.empty(1, np.uint64)
    rng[0] = seed
    out = np.empty((n, 4), np.uint64)
    layout = np.empty(4, np.uint64)
    allowed = np.empty(4, np.uint64)
    cap = np.empty(4, np.int64)
    for i in range(n):
        sample_layout(rng, np.int64(0), hand, state, layout, allowed, cap)
        out[i] = layout
    return out


def test_layouts_deal_every_unseen_card_once_and_respect_what_each_seat_cannot_hold():
    rng = np.random.default_rng(7)
    for trial in range(40):
        truth = random_deal(11, trial).astype(np.uint64)
        # Sound knowledge: a random part of what each other seat does not hold (heavy, to work Hall's check).
        not_held = np.zeros(4, np.uint64)
        for j in (1, 2, 3):
            absent = [c for c in range(52) if not int(truth[j]) >> c & 1]
            keep = rng.random(len(absent)) < 0.6
            not_held[j] = np.uint64(sum(1 << c for c, k in zip(absent, keep) if k))
        cards_left = np.array([13, 13, 13, 13], np.int64)
        out = _layouts(truth[0], np.uint64(0), not_held, cards_left, 50, np.uint64(trial))
        unseen = ((1 << 52) - 1) & ~int(truth[0])
        for layout in out:
            assert int(layout[0]) == int(truth[0])
            assert [bin(int(h)).count("1") for h in layout] == [13, 13, 13, 13]
            assert int(layout[1]) | int(layout[2]) | int(layout[3]) == unseen
            for j in (1, 2, 3):
                assert int(layout[j]) & int(not_held[j]) == 0


def test_unconstrained_layouts_spread_cards_evenly():
    hand = np.uint64(random_deal(2, 0)[0])
    out = _layouts(hand, np.uint64(0), np.zeros(4, np.uint64), np.array([13, 13, 13, 13], np.int64), 3000,
                   np.uint64(9))
    unseen = [c for c in range(52) if not int(hand) >> c & 1]
    for c in unseen[:10]:
        shares = [np.mean([(int(layout[j]) >> c) & 1 for layout in out]) for j in (1, 2, 3)]
        assert all(abs(s - 1 / 3) < 0.05 for s in shares), shares


def test_mc_names_and_parameters():
    assert resolve_strategy("mc").name == \
        "mc:samples=64,rollout=learned,endgame=2,tail=0,halving=on,infer=70,early=off"  # learned rollouts (issue 45)
    assert resolve_strategy("mc1").name == \
        "mc:samples=64,rollout=heuristic,endgame=2,tail=0,halving=on,infer=70,early=off"  # mc as it was
    assert resolve_strategy("mc:samples=200,rollout=basic").name == \
        "mc:samples=200,rollout=basic,endgame=2,tail=0,halving=on,infer=70,early=off"
    assert resolve_strategy("pimc").name == "pimc:samples=64,rollout=heuristic"
    assert parse_mc(" samples = 8 ") == MCParams(samples=8, rollout="learned", endgame=2, tail=0, halving=True,
                                                 infer=70)
    assert parse_mc("samples=8", "pimc") == MCParams(samples=8, rollout="heuristic", endgame=0, tail=0, halving=False,
                                                     infer=100, early=0)
    # pimc is mc without exact endgames, with heuristic rollouts: the same id, so the same play
    assert resolve_strategy("pimc:samples=8").builtin_id == \
        resolve_strategy("mc:samples=8,rollout=heuristic,endgame=0,tail=0,halving=off,infer=100").builtin_id
    for bad, needle in [("mc:samples=0", "samples must be a whole number from 1 to 100,000, not '0'"),
                        ("mc:samples=x", "samples must be a whole number from 1 to 100,000, not 'x'"),
                        ("mc:rollout=mc", "rollout must be one of heuristic, basic, random, learned, not 'mc'"),
                        ("mc:depth=3", "unknown mc parameter 'depth'"),
                        ("mc:samples", "'samples' is not NAME=VALUE"),
                        ("mc:endgame=6", "endgame must be a whole number of tricks from 0 to 5, not '6'"),
                        ("pimc:tail=2", "unknown pimc parameter 'tail'")]:
        with pytest.raises(ValueError, match=needle):
            resolve_strategy(bad)


def test_mc_is_reproducible_on_any_thread_count_and_alone_or_in_a_batch():
    from numba import get_num_threads, set_num_threads
    seats = ["mc:samples=4", "heuristic", "heuristic", "heuristic"]
    configs = [(c, 2 if c == TRUMPS else (5 if c == DOMINO else 0), d) for c in (0, 4, 5, 6) for d in (0, 2)]
    threads = get_num_threads()
    try:
        set_num_threads(1)
        one, _ = play_batch(3, 10, 6, configs, seats)
        set_num_threads(threads)
        many, _ = play_batch(3, 10, 6, configs, seats)
    finally:
        set_num_threads(threads)
    assert np.array_equal(one, many)
    c, p, d = configs[3]
    alone = play_deal(random_deal(3, 12), c, seats, param=p, declarer=d, seed=3, index=12)
    assert alone.scores.tolist() == one[2, 3].tolist()


def test_explain_lists_each_mc_decision_with_the_card_played_best():
    result = play_random_deal(1, 0, "barbu", ["heuristic", "mc:samples=16", "heuristic", "heuristic"], explain=True)
    rows = decisions(result)
    assert rows and all(r["seat"] == 1 for r in rows)
    plays = {int(i): int(c) for i, c in enumerate(result.cards) if result.seats[i] == 1}
    for r in rows:
        assert plays[r["cards_played"]] == r["card"]
        assert len(r["estimates"]) >= 2
        assert r["estimates"][0][0] == r["card"]  # best first, and the best is what was played
        assert all(se >= 0 for _, _, se in r["estimates"])
    text = format_explain(result)
    assert "East" in text and "±" in text


def test_explain_without_mc_says_so():
    result = play_random_deal(1, 0, "no-tricks", "heuristic", explain=True)
    assert "No mc decision" in format_explain(result)


def test_cli_play_explain_and_bad_mc_parameters():
    from typer.testing import CliRunner

    from barbu_sim.cli import app
    runner = CliRunner()
    out = runner.invoke(app, ["play", "-c", "trumps", "--trump", "S", "--seat-strategy", "S=mc:samples=8", "--explain"])
    assert out.exit_code == 0, out.output
    assert "mc decisions" in out.output and "South" in out.output
    bad = runner.invoke(app, ["play", "--strategy", "mc:samples=-3"])
    assert bad.exit_code == 2 and "Error" in bad.output and "samples" in bad.output


def test_cli_run_with_an_mc_seat_uses_small_chunks(tmp_path):
    import json

    from typer.testing import CliRunner

    from barbu_sim.barbu.players.learned import model_id
    from barbu_sim.cli import app
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["run", "--deals", "3", "-c", "no-queens", "-c", "barbu",
                                   "--seat-strategy", "E=mc:samples=2", "--out", str(out)])
    assert res.exit_code == 0, res.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["chunk_deals"] == 1000  # 2000 // 2 configurations, not 1,000,000 rows' worth
    # every parameter recorded, and the model its learned rollouts read
    full = f"mc:samples=2,rollout=learned,endgame=2,tail=0,halving=on,infer=70,early=off,model={model_id()}"
    assert manifest["config"]["strategies"] == ["heuristic", full, "heuristic", "heuristic"]
    assert [p["player"] for p in manifest["players"]] == manifest["config"]["strategies"]
    assert CliRunner().invoke(app, ["report", str(out)]).exit_code == 0


def test_value_tables_of_mc_seats_are_built_with_the_rollout_player():
    from barbu_sim.barbu.game.evaluation import table_strategy, value_table_path
    assert table_strategy("mc") == "learned" and table_strategy("mc1") == table_strategy("pimc") == "heuristic"
    assert table_strategy("mc:samples=9,rollout=basic") == "basic"
    assert table_strategy("random") == "random"
    assert value_table_path("mc:rollout=basic") == value_table_path("basic")
    assert value_table_path("mc") != value_table_path("basic")
    assert value_table_path("mc") == value_table_path("learned") and value_table_path("mc1") == value_table_path()


def _bits(*cards):
    from barbu_sim.core.cards import parse_card
    return np.uint64(sum(1 << parse_card(c) for c in cards))


@pytest.mark.parametrize("contract,hand,played,trick,expected", [
    (0, ["2C", "3C", "5C"], [], [], ["2C", "5C"]),            # 4C still out: 3C and 5C differ
    (0, ["2C", "3C", "5C"], ["4C"], [], ["2C"]),               # 4C gone: one run
    (0, ["3C", "5C"], ["4C"], ["4C"], ["3C", "5C"]),           # 4C on the table: one loses to it, one beats it
    (1, ["JC", "QC"], [], [], ["JC", "QC"]),                   # No Queens: the queen costs more
    (3, ["5H", "6H"], [], [], ["5H"]),                         # No Hearts: two hearts cost the same
    (3, ["KH", "AH"], [], [], ["KH", "AH"]),                   # ... but the ace costs more
    (6, ["2C", "3C"], [], [], ["2C", "3C"]),                   # Domino: no runs
])
def test_distinct_cards(contract, hand, played, trick, expected):
    from barbu_sim.barbu.players.mc.player import distinct_cards
    from barbu_sim.barbu.state import S_N_IN_TRICK, S_RULES, S_TRICK_CARDS
    from barbu_sim.core.cards import parse_card
    state = np.zeros(STATE_SIZE, np.uint64)
    state[S_RULES:] = Rules().to_array().astype(np.uint64)  # the point values in force, as the engine copies them
    state[S_PLAYED] = _bits(*played)
    for k, c in enumerate(trick):
        state[S_TRICK_CARDS + k] = parse_card(c)
    state[S_N_IN_TRICK] = len(trick)
    h = _bits(*hand)
    assert distinct_cards(h, h, state, contract) == _bits(*expected)


@pytest.mark.parametrize("contract,player", [("no-tricks", "mc:samples=8"), ("barbu", "mc:samples=8"),
                                             ("no-queens", "mc:samples=16,early=1.5")])
def test_mc_decides_the_same_when_two_unseen_cards_swap_between_opponents(contract, player):
    """The swap test: two deals that look the same from the mc seat give the same decisions, bit for bit.

    A card of North and a card of West of the same suit change hands; until the play of the two
    deals first differs, everything the mc seat (East) has seen is the same, so every decision it
    made before then (the card and every estimate) must be too."""
    seats = ["heuristic", player, "heuristic", "heuristic"]
    compared = 0
    for index in range(6):
        hands = random_deal(21, index).astype(np.uint64)
        base = play_deal(hands, contract, seats, declarer=index % 4, seed=21, index=index, explain=True)
        order = [(int(s), int(c)) for s, c in zip(base.seats, base.cards)]
        north = [c for c in range(52) if int(hands[0]) >> c & 1]
        west = [c for c in range(52) if int(hands[3]) >> c & 1]
        pairs = [(x, y) for x in north for y in west if x // 13 == y // 13]
        for x, y in pairs[:6]:
            swapped = hands.copy()
            swapped[0] ^= np.uint64((1 << x) | (1 << y))
            swapped[3] ^= np.uint64((1 << x) | (1 << y))
            other = play_deal(swapped, contract, seats, declarer=index % 4, seed=21, index=index, explain=True)
            same = 0
            for a, b in zip(order, [(int(s), int(c)) for s, c in zip(other.seats, other.cards)]):
                if a != b:
                    break
                same += 1
            before = [r for r in decisions(base) if r["cards_played"] < same]
            after_swap = [r for r in decisions(other) if r["cards_played"] < same]
            assert before == after_swap
            compared += len(before)
    assert compared >= 40
