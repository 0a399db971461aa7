"""Expert iteration: the data taught by mc with the previous model's rollouts, the previous model's own
positions, the data folder's record of its teacher, and the chain of rounds from one command."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.played.position import Position
from barbu_sim.barbu.played.training_data import generate_chunk
from barbu_sim.barbu.players.features import N_FEATURES, trick_card_features
from barbu_sim.barbu.players.heuristic import heuristic_strategy
from barbu_sim.barbu.players.learned import learned1_func, load_model, model_id, model_path

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
sys.path.insert(0, str(SCRIPTS))


def _model():
    return load_model(str(model_path("learned1")))[0]


def test_the_teacher_with_learned_rollouts_values_the_cards_otherwise():
    first = generate_chunk(41, 0, 3, 4, mc_share=0.0)  # every seat heuristic: the same positions ...
    taught = generate_chunk(41, 0, 3, 4, _model(), mc_share=0.0)  # ... valued by another teacher
    assert first["x"].shape == taught["x"].shape and len(first["y"]) > 100
    assert np.array_equal(first["x"], taught["x"]) and np.array_equal(first["decision"], taught["decision"])
    assert not np.array_equal(first["y"], taught["y"])  # the rollouts are the learned player's
    again = generate_chunk(41, 0, 3, 4, _model(), mc_share=0.0)
    assert all(np.array_equal(taught[k], again[k]) for k in taught)  # a pure function of its arguments


def test_a_learned_seat_plays_the_models_card():
    """Every seat drawn learned: the data's positions are those of the learned players' play (the features of
    each decision the data holds are those of the same decision replayed with learned at every seat)."""
    part = generate_chunk(43, 0, 1, 2, _model(), mc_share=0.0, learned_share=1.0)
    pos = Position(random_deal(43, 0), 0, 0, 0, seed=43, index=0)  # deal 0: No Tricks, North declaring
    held = set((part["decision"] % 64).tolist())
    play_no, compared = 0, 0
    x = np.zeros(N_FEATURES, np.float32)
    while not pos.over and play_no < 12:
        legal, hand = np.uint64(pos.legal()), np.uint64(pos.hands[pos.seat])
        heur = np.int64(heuristic_strategy(legal, hand, pos.state, pos.rng.copy()))
        if play_no in held:
            rows = part["x"][part["decision"] == play_no]
            assert len(rows) == bin(int(legal)).count("1")
            for row, c in zip(rows, [c for c in range(52) if int(legal) >> c & 1]):
                trick_card_features(np.int64(c), legal, hand, pos.state, heur, x)
                assert np.array_equal(row, x)
            compared += 1
        pos.play(learned1_func(legal, hand, pos.state, pos.rng))  # the model the data was made with
        play_no += 1
    assert compared >= 4


def test_learned_seats_need_a_model():
    with pytest.raises(ValueError, match="model"):
        generate_chunk(1, 0, 1, 2, None, learned_share=0.5)


def test_the_data_records_its_teacher_and_refuses_another(tmp_path):
    import train_player
    data = tmp_path / "data"
    common = ["--force", "--deals", "4", "--chunk", "4", "--samples", "2", "--hidden", "2", "--epochs", "1",
              "--no-progress", "--data", str(data), "--out", str(tmp_path / "m.json")]  # m.json: remade each time
    train_player.main([*common, "--teacher-model", str(model_path("learned1")), "--learned-share", "0.5"])
    record = json.loads((data / "config.json").read_text())
    assert record["teacher"] == model_id("learned1") and record["learned_share"] == 0.5
    made = json.loads((tmp_path / "m.json").read_text())["training"]
    assert made["teacher"] == model_id("learned1") and "--teacher-model learned@" in made["command"]
    with pytest.raises(SystemExit, match="was made with --learned-share 0.5, not --learned-share 0.25"):
        train_player.main([*common, "--teacher-model", str(model_path("learned1")), "--learned-share", "0.25"])
    with pytest.raises(SystemExit, match="give its file as --teacher-model"):
        train_player.main(common)  # the chunks are there, but the data's teacher is not named
    for bad, needle in ((["--learned-share", "0.5"], "needs --teacher-model"),
                        (["--teacher-model", str(model_path()), "--mc-share", "0.8", "--learned-share", "0.5"],
                         "more than 1"),
                        (["--mc-share", "1.5"], "a chance from 0 to 1"),
                        (["--teacher-model", str(tmp_path / "missing.json")], "missing.json")):
        with pytest.raises(SystemExit, match=needle):
            train_player.main([*common[:-4], "--data", str(tmp_path / "other"), "--out", str(tmp_path / "o.json"),
                               *bad])


def test_the_chain_runs_a_round_and_measures_it_head_to_head(tmp_path):
    import expert_iteration
    out = tmp_path / "chain.json"
    expert_iteration.main(["--rounds", "1", "--deals", "7", "--samples", "2", "--check-deals", "8",
                           "--work", str(tmp_path / "work"), "--out", str(out), "--no-progress"])
    chain = json.loads(out.read_text())
    (only,) = chain["rounds"]
    assert only["round"] == 1 and only["teacher"] == f"mc:rollout=learned on learned@{model_id('learned1')}"
    assert (tmp_path / "work" / "round-1" / "model.json").exists()
    check = only["head_to_head"]
    assert [r["contract"] for r in check["contracts"]] == ["no-tricks", "no-queens", "no-last-two", "no-hearts",
                                                          "barbu", "trumps", "domino"]
    assert check["deals"] == 8 and check["seven"]["ci_low"] <= check["seven"]["difference"] <= check["seven"]["ci_high"]
    assert len(only["held_out"]) == 7


def test_each_round_takes_its_own_hidden_units(tmp_path):
    import expert_iteration
    assert [expert_iteration.round_hidden(["16,trumps=32", "32"], k) for k in (1, 2, 3)] == \
        ["16,trumps=32", "32", "32"]
    assert expert_iteration.round_hidden(["8"], 4) == "8"
    expert_iteration.main(["--rounds", "1", "--deals", "7", "--samples", "2", "--check-deals", "4", "--hidden", "3",
                           "--hidden", "5", "--work", str(tmp_path / "work"), "--out", str(tmp_path / "c.json"),
                           "--no-progress"])
    made = json.loads((tmp_path / "work" / "round-1" / "model.json").read_text())
    assert set(made["hidden"].values()) == {3}
    assert "--hidden 3 " in made["training"]["command"]
    with pytest.raises(SystemExit, match="unknown contract 'spades'"):
        expert_iteration.main(["--hidden", "16", "--hidden", "16,spades=8", "--work", str(tmp_path / "w2"),
                               "--out", str(tmp_path / "c2.json")])
    assert not (tmp_path / "w2").exists()  # refused before any work


def test_two_model_files_meet_head_to_head(tmp_path, capsys):
    import head_to_head
    out = tmp_path / "h.json"
    head_to_head.main([str(model_path("learned")), str(model_path("learned1")), "--deals", "6", "--seed", "3",
                       "--out", str(out)])
    data = json.loads(out.read_text())
    assert data["models"]["new"]["model"] == f"learned@{model_id()}"
    assert data["models"]["old"]["model"] == f"learned@{model_id('learned1')}"
    assert len(data["models"]["old"]["held_out"]) == 7  # each model's own held-out report travels with it
    check = data["head_to_head"]
    assert check["deals"] == 6 and check["seed"] == 3 and len(check["contracts"]) == 7
    assert check["seven"]["ci_low"] <= check["seven"]["difference"] <= check["seven"]["ci_high"]
    table = capsys.readouterr().out.splitlines()
    assert table[0].startswith("| no-tricks |") and len(table) == 3
    for bad, needle in (([str(tmp_path / "none.json"), str(model_path("learned1"))], "none.json"),
                        ([str(model_path()), str(model_path("learned1")), "--deals", "0"], "at least 1")):
        with pytest.raises(SystemExit, match=needle):
            head_to_head.main(bad)


def test_mc1_is_todays_mc_frozen():
    from barbu_sim.barbu.players.registry import MC1, canonical_strategy, resolve_strategy
    assert resolve_strategy("mc1").name == f"mc:{MC1}" == canonical_strategy("mc1")
    assert resolve_strategy("mc1").builtin_id == resolve_strategy(f"mc:{MC1}").builtin_id
    with pytest.raises(ValueError, match="mc1 takes no parameters"):
        resolve_strategy("mc1:samples=8")
