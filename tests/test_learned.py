"""The learned player: its features see only what its seat sees, the kernels play it as Python does,
its model file is checked and identified, and the training script makes the same model twice."""

import json

import numpy as np
import pytest

from barbu_sim.barbu.api import play_batch, play_deal
from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.players.features import (
    N_FEATURES,
    domino_card_features,
    trick_card_features,
)
from barbu_sim.barbu.game.evaluation import strategy_fingerprint
from barbu_sim.barbu.players.heuristic import heuristic_strategy
from barbu_sim.barbu.state import PASS
from barbu_sim.barbu.players.learned import (
    MODEL_PATH,
    learned_func,
    load_model,
    model_from_dict,
    model_id,
)
from barbu_sim.barbu.position import Position
from barbu_sim.barbu.rules import BARBU, DOMINO
from barbu_sim.barbu.players.registry import resolve_strategy
from barbu_sim.core.cards import cards_of

PARAMS = {5: 2, 6: 5}  # trumps hearts, dominoes from 7


def _features(pos, legal):
    hand = np.uint64(pos.hands[pos.seat])
    heur = heuristic_strategy(np.uint64(legal), hand, pos.state, pos.rng)
    rows = []
    for c in cards_of(legal):
        x = np.zeros(N_FEATURES, np.float32)  # the engine's own type: its compiled features load from the cache
        fill = domino_card_features if pos.contract == DOMINO else trick_card_features
        fill(np.int64(c), np.uint64(legal), hand, pos.state, np.int64(heur), x)
        rows.append(x)
    return np.array(rows)


def _step(pos, card):
    if card == PASS:
        pos.pass_turn()
    else:
        pos.play(card)


@pytest.mark.parametrize("contract", range(7))
def test_the_kernels_play_the_learned_player_as_python_does_card_by_card(contract):
    checked = 0  # over the three deals: a Barbu deal may end at the first trick, with the K of hearts
    for i in range(3):
        hands, declarer = random_deal(21, i), i % 4
        specs = ["learned", "heuristic", "learned", "random"]
        result = play_deal(hands, contract, specs, param=PARAMS.get(contract, 0), declarer=declarer, seed=21, index=i)
        pos = Position(hands, contract, PARAMS.get(contract, 0), declarer, seed=21, index=i)
        for seat, card in zip(result.seats.tolist(), result.cards.tolist()):
            if card != PASS and specs[seat] == "learned":
                assert learned_func(pos.legal(), pos.hands[seat], pos.state, pos.rng) == card
                checked += 1
            _step(pos, card)
        assert pos.scores.tolist() == result.scores.tolist()
        assert contract == BARBU or checked >= 10 * (i + 1)
    assert checked >= 20


def _swap_pair(hands):
    """A card of East's and one of West's in the same suit: swapping them changes nothing North or South sees."""
    east, west = cards_of(hands[1]), cards_of(hands[3])
    for a in east:
        for b in west:
            if a // 13 == b // 13:
                return a, b
    return None


def _still_legal(pos, card) -> bool:
    legal = int(pos.legal())
    return legal == 0 if card == PASS else bool(legal >> card & 1)


@pytest.mark.parametrize("contract", range(7))
def test_features_see_only_what_the_seat_sees(contract):
    """Two deals that differ only in which of East and West holds two unseen cards of one suit give North and
    South the same legal cards and the same features at every one of their decisions, from the first play up
    to the first divergence: one of the two cards played, or a play of the first deal that the second does
    not allow (a Domino pass).  The learned player plays the first deal; 30 deals, every declarer."""
    compared = deals = 0
    for i in range(30):
        hands, declarer = random_deal(33, i).copy(), i % 4
        pair = _swap_pair(hands)
        if pair is None:
            continue
        a, b = pair
        swapped = hands.copy()
        swapped[1] ^= np.uint64((1 << a) | (1 << b))
        swapped[3] ^= np.uint64((1 << a) | (1 << b))
        param = PARAMS.get(contract, 0)
        result = play_deal(hands, contract, "learned", param=param, declarer=declarer, seed=33, index=i)
        p1 = Position(hands, contract, param, declarer, seed=33, index=i)
        p2 = Position(swapped, contract, param, declarer, seed=33, index=i)
        deals += 1
        for seat, card in zip(result.seats.tolist(), result.cards.tolist()):
            if card in (a, b) or not _still_legal(p2, card):
                break  # from here the two deals' plays may differ
            if seat in (0, 2) and card != PASS:
                legal = p1.legal()
                assert legal == p2.legal(), f"deal {i}: seat {seat}'s legal cards differ"
                assert np.array_equal(_features(p1, legal), _features(p2, legal)), f"deal {i}: seat {seat}"
                compared += 1
            _step(p1, card)
            _step(p2, card)
    assert deals >= 25 and compared >= deals * 5  # 178 to 321 decisions a contract, not the first lead alone


def test_one_feature_marks_the_heuristics_card_and_wins_agrees_with_the_trick():
    for contract in range(6):
        pos = Position(random_deal(5, contract), contract, PARAMS.get(contract, 0), 0)
        for _ in range(20):
            legal = pos.legal()
            x = _features(pos, legal)
            assert x.shape == (int(legal).bit_count(), N_FEATURES)
            assert x[:, 0].sum() == 1  # exactly one card is the heuristic's
            if pos.n_in_trick == 0:
                assert (x[:, 1] == 1).all()  # a lead wins the trick so far
            pos.play(cards_of(legal)[0])


def test_model_file_is_checked_and_identified(tmp_path):
    data = json.loads(MODEL_PATH.read_text())
    model, ident = load_model(str(MODEL_PATH))
    assert model.shape[0] == 7 and ident == model_id() and len(ident) == 12
    changed = json.loads(json.dumps(data))
    changed["contracts"]["barbu"]["w"][3] += 0.5
    path = tmp_path / "m.json"
    path.write_text(json.dumps(changed))
    assert load_model(str(path))[1] != ident
    assert not np.array_equal(load_model(str(path))[0], model)
    del changed["contracts"]["domino"]
    with pytest.raises(ValueError, match="missing"):
        model_from_dict(changed)
    with pytest.raises(ValueError, match="features"):
        model_from_dict({**data, "features": 3})
    assert strategy_fingerprint("learned") == f"learned@{ident}"
    assert resolve_strategy("learned").name == "learned"


def test_learned_batches_are_the_same_on_any_thread_count():
    import numba
    configs = [(c, PARAMS.get(c, 0), 0) for c in range(7)]
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = play_batch(8, 0, 60, configs, "learned", chunk=7)[0]
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = play_batch(8, 0, 60, configs, "learned", chunk=13)[0]
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, two)
    assert one.any()


def test_training_reproduces_the_model_from_its_seed(tmp_path):
    from cli_checks import invoke
    common = ["train", "player", "--deals", "14", "--chunk", "7", "--samples", "4", "--hidden", "2", "--epochs", "1",
              "--no-progress", "--data", tmp_path / "data"]
    assert invoke(*common, "--out", tmp_path / "a.json").exit_code == 0
    assert len(list((tmp_path / "data").glob("chunk-*.npz"))) == 2
    done = invoke(*common, "--fit-only", "--out", tmp_path / "b.json")  # the same data, fitted again
    assert done.exit_code == 0, done.output
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert a["contracts"] == b["contracts"]
    model, ident = load_model(str(tmp_path / "a.json"))
    assert model.shape[0] == 7 and model[:, 0].tolist() == [2.0] * 7  # two hidden units per contract
    assert a["training"]["rows"] > 100 and len(a["training"]["held_out"]) == 7


def test_a_run_records_the_model_and_refuses_another():
    from barbu_sim.barbu.runs import RunConfig
    config = RunConfig(deals=10, strategies=["learned", "heuristic", "learned", "heuristic"])
    assert config.strategies == [f"learned@{model_id()}", "heuristic"] * 2
    assert RunConfig(deals=10, strategies=config.strategies).strategies == config.strategies  # a resumed run
    with pytest.raises(ValueError, match="retrained"):
        RunConfig(deals=10, strategies=["learned@000000000000"] * 4)
    assert resolve_strategy(f"learned@{model_id()}").name == "learned"


def test_learned1_is_the_model_before_the_packaged_one_and_old_runs_name_it_by_id():
    from barbu_sim.barbu.players.learned import MODEL_NAMES, model_path
    from barbu_sim.barbu.players.registry import canonical_strategy
    assert MODEL_NAMES == ("learned", "learned1")
    old = model_id("learned1")
    assert load_model(str(model_path("learned1")))[1] == old
    assert old == "ae1c04aaf97e" != model_id()  # the first model, before expert iteration's round 1
    assert canonical_strategy("learned1") == f"learned@{old}"
    # a run recorded as learned@<id> replays with the model of that id, whichever slot holds it now
    assert resolve_strategy(f"learned@{old}").func(*_first_decision()) == resolve_strategy("learned1").func(
        *_first_decision())
    assert strategy_fingerprint("learned1") == f"learned@{old}"


def _first_decision():
    pos = Position(random_deal(3, 0), 1, 0, 0, seed=3, index=0)
    return pos.legal(), pos.hands[pos.seat], pos.state, pos.rng.copy()


@pytest.mark.parametrize("contract", [0, 6])
def test_each_learned_seat_reads_the_rows_of_its_own_model(monkeypatch, contract):
    """learned and learned1 at one table: each seat plays by its own slot of the model array (a second model
    that plays differently stands in for learned1)."""
    import barbu_sim.barbu.api as api
    from barbu_sim.barbu.players.full_state import LEARNED_AT
    from barbu_sim.barbu.players.learned import learned_choose, model_array
    first = model_array()[:7]
    other = first.copy()
    other[:, 1:] *= -1.0  # every prediction turned over (the hidden-unit count in column 0 kept)
    both = np.ascontiguousarray(np.concatenate([first, other]))
    monkeypatch.setattr(api, "model_array", lambda: both)
    specs = ["learned", "learned1", "learned1", "learned"]
    differ = 0
    for i in range(3):
        hands = random_deal(31, i)
        result = play_deal(hands, contract, specs, param=PARAMS.get(contract, 0), declarer=i, seed=31, index=i)
        pos = Position(hands, contract, PARAMS.get(contract, 0), i, seed=31, index=i)
        for seat, card in zip(result.seats.tolist(), result.cards.tolist()):
            if card != PASS and popcount_of(pos.legal()) > 1:
                slot = 1 if specs[seat] == "learned1" else 0
                state = pos.state.copy()
                mine = learned_choose(np.uint64(pos.legal()), np.uint64(pos.hands[seat]), state, pos.rng.copy(), both,
                                      np.int64(LEARNED_AT), np.int64(slot))
                theirs = learned_choose(np.uint64(pos.legal()), np.uint64(pos.hands[seat]), state, pos.rng.copy(),
                                        both, np.int64(LEARNED_AT), np.int64(1 - slot))
                assert card == mine
                differ += mine != theirs
            _step(pos, card)
        assert pos.scores.tolist() == result.scores.tolist()
    assert differ >= 10  # the two models disagree often, so the seat's slot is what decided


def test_models_given_to_a_batch_are_checked():
    from barbu_sim.barbu.players.learned import model_array
    one = model_array()[:7]
    with pytest.raises(ValueError, match="a seat plays the one in slot 1"):
        play_batch(1, 0, 2, [(0, 0, 0)], ["learned1", "learned", "learned", "learned"], models=one)
    with pytest.raises(ValueError, match="7 rows of"):
        play_batch(1, 0, 2, [(0, 0, 0)], "learned", models=one[:5])
    with pytest.raises(ValueError, match="7 rows of"):
        play_batch(1, 0, 2, [(0, 0, 0)], "learned", models=one[:, :10])
    # the installed models given explicitly play as the default
    assert np.array_equal(play_batch(1, 0, 20, [(3, 0, 1)], "learned1", models=model_array())[0],
                          play_batch(1, 0, 20, [(3, 0, 1)], "learned1")[0])


def popcount_of(mask) -> int:
    return bin(int(mask)).count("1")


def test_advice_says_on_which_play_its_numbers_rest():
    from barbu_sim.cli.games import _played_by
    assert _played_by("learned").startswith(f"Numbers from learned@{model_id()} play at every seat")
    assert "--strategy heuristic" in _played_by("learned")
    assert _played_by("heuristic") == "Numbers from heuristic play at every seat."
