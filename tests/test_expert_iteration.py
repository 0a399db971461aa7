"""Expert iteration: the data taught by mc with the previous model's rollouts, the previous model's own
positions, the data folder's record of its teacher, and the chain of rounds from one command."""

import json

import numpy as np
import pytest

from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.position import Position
from barbu_sim.barbu.players.features import N_FEATURES, trick_card_features
from barbu_sim.barbu.players.heuristic import heuristic_strategy
from barbu_sim.barbu.players.learned import learned1_func, load_model, model_id, model_path
from barbu_sim.barbu.training.training_data import generate_chunk
from cli_checks import assert_clean_error, invoke


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


def _refused(result, needle):
    assert_clean_error(result, needle)


def test_the_data_records_its_teacher_and_refuses_another(tmp_path):
    data = tmp_path / "data"
    common = ["train", "player", "--force", "--deals", "4", "--chunk", "4", "--samples", "2", "--hidden", "2",
              "--epochs", "1", "--no-progress", "--data", data, "--out", tmp_path / "m.json"]  # remade each time
    done = invoke(*common, "--teacher-model", model_path("learned1"), "--learned-share", "0.5")
    assert done.exit_code == 0, done.output
    record = json.loads((data / "config.json").read_text())
    assert record["teacher"] == model_id("learned1") and record["learned_share"] == 0.5
    made = json.loads((tmp_path / "m.json").read_text())["training"]
    assert made["teacher"] == model_id("learned1") and "--teacher-model learned@" in made["command"]
    assert made["command"].startswith("barbu-sim train player --seed 2027 --deals 4")
    _refused(invoke(*common, "--teacher-model", model_path("learned1"), "--learned-share", "0.25"),
             "was made with --learned-share 0.5, not --learned-share 0.25")
    _refused(invoke(*common), "give its file as --teacher-model")  # the chunks are there, the teacher is not named
    for bad, needle in ((["--learned-share", "0.5"], "needs --teacher-model"),
                        (["--teacher-model", model_path(), "--mc-share", "0.8", "--learned-share", "0.5"],
                         "more than 1"),
                        (["--mc-share", "1.5"], "a chance from 0 to 1"),
                        (["--teacher-model", tmp_path / "missing.json"], "missing.json"),
                        (["--teacher-model", "learned@000000000000"], "no installed model has that id")):
        _refused(invoke(*common[:-4], "--data", tmp_path / "other", "--out", tmp_path / "o.json", *bad), needle)


def test_the_chain_runs_a_round_and_measures_it_head_to_head(tmp_path):
    out = tmp_path / "chain.json"
    done = invoke("train", "iterate", "--rounds", "1", "--deals", "7", "--samples", "2", "--check-deals", "8",
                  "--work", tmp_path / "work", "--out", out, "--no-progress")
    assert done.exit_code == 0, done.output
    chain = json.loads(out.read_text())
    assert chain["command"].startswith("barbu-sim train iterate --rounds 1 --seed 2027 --deals 7 --samples 2")
    (only,) = chain["rounds"]
    assert only["round"] == 1 and only["teacher"] == f"mc:rollout=learned on learned@{model_id('learned1')}"
    assert (tmp_path / "work" / "round-1" / "model.json").exists()
    check = only["head_to_head"]
    assert [r["contract"] for r in check["contracts"]] == ["no-tricks", "no-queens", "no-last-two", "no-hearts",
                                                          "barbu", "trumps", "domino"]
    assert check["deals"] == 8 and check["seven"]["ci_low"] <= check["seven"]["difference"] <= check["seven"]["ci_high"]
    assert len(only["held_out"]) == 7
    assert f"round 1: {only['model']} against the previous model" in done.output
    # the round's model met the first one as `train compare` has them meet: the same figures
    again = invoke("train", "compare", tmp_path / "work" / "round-1" / "model.json", model_path("learned1"),
                   "--deals", "8", "--seed", "9101", "--out", tmp_path / "h.json")
    assert again.exit_code == 0, again.output
    assert json.loads((tmp_path / "h.json").read_text())["head_to_head"] == check
    # run again, the chain remakes the round's model to the byte from the chunks kept under --work
    model = (tmp_path / "work" / "round-1" / "model.json").read_bytes()
    refused = invoke("train", "iterate", "--rounds", "1", "--deals", "7", "--samples", "2", "--check-deals", "8",
                     "--work", tmp_path / "work", "--out", out, "--no-progress")
    assert_clean_error(refused, "exists", "--force")
    done = invoke("train", "iterate", "--rounds", "1", "--deals", "7", "--samples", "2", "--check-deals", "8",
                  "--work", tmp_path / "work", "--out", out, "--no-progress", "--force")
    assert done.exit_code == 0 and (tmp_path / "work" / "round-1" / "model.json").read_bytes() == model


def test_each_round_takes_its_own_hidden_units(tmp_path):
    from barbu_sim.barbu.training.iterate import round_hidden
    assert [round_hidden(["16,trumps=32", "32"], k) for k in (1, 2, 3)] == ["16,trumps=32", "32", "32"]
    assert round_hidden(["8"], 4) == "8"
    done = invoke("train", "iterate", "--rounds", "1", "--deals", "7", "--samples", "2", "--check-deals", "4",
                  "--hidden", "3", "--hidden", "5", "--work", tmp_path / "work", "--out", tmp_path / "c.json",
                  "--no-progress")
    assert done.exit_code == 0, done.output
    made = json.loads((tmp_path / "work" / "round-1" / "model.json").read_text())
    assert set(made["hidden"].values()) == {3}
    assert "--hidden 3 " in made["training"]["command"]
    assert "--hidden 3 --hidden 5 " in json.loads((tmp_path / "c.json").read_text())["command"]
    _refused(invoke("train", "iterate", "--hidden", "16", "--hidden", "16,spades=8", "--work", tmp_path / "w2",
                    "--out", tmp_path / "c2.json"), "unknown contract 'spades'")
    assert not (tmp_path / "w2").exists()  # refused before any work
    _refused(invoke("train", "iterate", "--rounds", "0", "--work", tmp_path / "w2", "--out", tmp_path / "c2.json"),
             "--rounds must be at least 1")


def test_two_model_files_meet_head_to_head(tmp_path):
    out = tmp_path / "h.json"
    done = invoke("train", "compare", model_path("learned"), model_path("learned1"), "--deals", "6", "--seed", "3",
                  "--out", out)
    assert done.exit_code == 0, done.output
    data = json.loads(out.read_text())
    assert data["models"]["new"]["model"] == f"learned@{model_id()}"
    assert data["models"]["old"]["model"] == f"learned@{model_id('learned1')}"
    assert len(data["models"]["old"]["held_out"]) == 7  # each model's own held-out report travels with it
    assert data["command"].startswith("barbu-sim train compare ") and data["command"].endswith("--deals 6 --seed 3")
    check = data["head_to_head"]
    assert check["deals"] == 6 and check["seed"] == 3 and len(check["contracts"]) == 7
    assert check["seven"]["ci_low"] <= check["seven"]["difference"] <= check["seven"]["ci_high"]
    table = done.output.splitlines()
    assert table[0].startswith("| no-tricks |") and len(table) == 3
    for bad, needle in (([tmp_path / "none.json", model_path("learned1")], "none.json"),
                        ([model_path(), model_path("learned1"), "--deals", "0"], "at least 1")):
        _refused(invoke("train", "compare", *bad), needle)


def test_head_to_head_is_the_paired_comparison_of_the_installed_models(tmp_path):
    """The packaged model against learned1's file, head to head, is `compare learned learned1 --opponents
    learned1`: the comparison library's figures, to the fourth decimal the file keeps."""
    from barbu_sim.barbu.studies.compare import compare
    done = invoke("train", "compare", model_path("learned"), model_path("learned1"), "--deals", "9", "--seed", "5",
                  "--out", tmp_path / "h.json")
    assert done.exit_code == 0, done.output
    check = json.loads((tmp_path / "h.json").read_text())["head_to_head"]
    table = compare("learned", "learned1", opponents="learned1", deals=9, seed=5).table.to_dicts()
    for row, mine in zip(table, [*check["contracts"], check["seven"]]):
        assert round(row["a_better_by"], 4) == mine["difference"]
        assert round(row["ci_low"], 4) == mine["ci_low"] and round(row["ci_high"], 4) == mine["ci_high"]


def test_mc1_is_todays_mc_frozen():
    from barbu_sim.barbu.players.registry import MC1, canonical_strategy, resolve_strategy
    assert resolve_strategy("mc1").name == f"mc:{MC1}" == canonical_strategy("mc1")
    assert resolve_strategy("mc1").builtin_id == resolve_strategy(f"mc:{MC1}").builtin_id
    with pytest.raises(ValueError, match="mc1 takes no parameters"):
        resolve_strategy("mc1:samples=8")
