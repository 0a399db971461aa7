"""The learned player's guards: the rules its advice is refused on, its model file's checks, its spec's parameters,
and the training command's checks of its arguments and its data folder.  Everything here is refused before
any kernel runs (nothing compiles)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from barbu_sim.barbu.players.learned import MODEL_PATH, load_model, model_id
from barbu_sim.barbu.players.registry import resolve_strategy
from cli_checks import assert_clean_error, invoke

HAND = "AKQ.JT9.876.5432"


def one_line_error(result) -> str:
    """The CLI's whole output is one ``Error:`` line (exit code 2): that line."""
    assert_clean_error(result)
    lines = [line for line in result.output.splitlines() if line.strip() and not line.startswith("compil")]
    assert len(lines) == 1, result.output
    return lines[0]


# --- the advice maximises the score: refused where the lowest total wins, whatever the player -----------

def test_advise_game_and_compare_orders_refuse_those_rules_in_one_line():
    """advise defaults to learned: under best-total=lowest it says so in one line (the advice maximises)."""
    for args in (("advise", HAND), ("advise", HAND, "--strategy", "learned"), ("game", "-n", "1", "--strategy",
                 "learned"), ("compare-orders", "--blocks", "2", "--games", "0", "--strategy", "learned")):
        line = one_line_error(invoke(*args, "--rules", "positive-penalties"))
        assert "best-total=lowest" in line


# --- item 15: the model file, and the spec's parameters ---------------------------------------------------

def _model_file(tmp_path, change) -> str:
    data = json.loads(MODEL_PATH.read_text())
    change(data)
    path = tmp_path / "learned.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_a_truncated_model_file_is_refused_naming_the_file(tmp_path):
    path = tmp_path / "learned.json"
    path.write_text(MODEL_PATH.read_text()[:5000])
    with pytest.raises(ValueError) as e:
        load_model(str(path))
    assert str(path) in str(e.value) and "JSON" in str(e.value) and "\n" not in str(e.value)
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match="not a learned-player model") as e:
        load_model(str(path))
    assert str(path) in str(e.value)


@pytest.mark.parametrize("what,change", [
    ("w", lambda d: d["contracts"]["barbu"]["w"].pop()),
    ("w", lambda d: d["contracts"]["barbu"]["w"].extend([0.5, 0.5])),
    ("W1", lambda d: d["contracts"]["trumps"]["W1"][3].pop()),
    ("b1", lambda d: d["contracts"]["no-hearts"]["b1"].pop()),
    ("w2", lambda d: d["contracts"]["domino"]["w2"].append(1.0)),
    ("hidden unit", lambda d: d["contracts"]["trumps"].update(W1=[[0.0] * 42] * 40, b1=[0.0] * 40, w2=[0.0] * 40)),
    ("W1", lambda d: d["contracts"]["trumps"].pop("W1")),
    ("number", lambda d: d["contracts"]["barbu"]["w"].__setitem__(2, "x")),
])
def test_a_model_of_the_wrong_shape_is_refused_naming_the_file_and_the_contract(tmp_path, what, change):
    path = _model_file(tmp_path, change)
    with pytest.raises(ValueError) as e:
        load_model(path)
    message = str(e.value)
    assert path in message and what in message and "contract " in message and "\n" not in message, message
    assert "reshape" not in message and "broadcast" not in message


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), 1e39])
def test_a_model_with_weights_that_are_not_finite_is_refused(tmp_path, value):
    def change(d):
        d["contracts"]["no-queens"]["W1"][0][5] = value
    path = _model_file(tmp_path, change)
    with pytest.raises(ValueError, match="finite") as e:
        load_model(path)
    assert path in str(e.value) and "no-queens" in str(e.value)


def test_the_output_sum_is_in_order_or_a_tree_and_part_of_the_id(tmp_path):
    def drop(d):
        d.pop("output_sum")
    in_order, in_order_id = load_model(_model_file(tmp_path, drop))
    tree, tree_id = load_model(str(MODEL_PATH))
    # the same weights; only the output layer's order of sums differs, and with it the id
    assert (in_order[:, 1:] == tree[:, 1:]).all() and (tree[:, 0] - in_order[:, 0] == 64).all()
    assert in_order_id == "76692096909b" != tree_id  # the chain's round 2, as results/expert_iteration.json has it
    (tmp_path / "bad").mkdir()
    bad = _model_file(tmp_path / "bad", lambda d: d.update(output_sum="sideways"))
    with pytest.raises(ValueError, match="output_sum must be in-order or tree, not 'sideways'") as e:
        load_model(bad)
    assert bad in str(e.value) and "\n" not in str(e.value)


def test_learned_takes_no_parameters_and_says_so():
    for spec in ("learned:samples=3", "learned:"):
        with pytest.raises(ValueError) as e:
            resolve_strategy(spec)
        message = str(e.value)
        assert "No module" not in message and "takes no parameters" in message, message
        assert f"learned@{model_id()}" in message  # the one thing it takes: a model version
    with pytest.raises(ValueError, match="heuristic takes no parameters"):
        resolve_strategy("heuristic:samples=3")
    line = one_line_error(invoke("play", "--strategy", "learned:samples=3"))
    assert "takes no parameters" in line


# --- items 6 and 14: the training command -------------------------------------------------------------------

def _train(*args):
    """``barbu-sim train player ARGS`` in this process: its one-line error (None when it finished)."""
    result = invoke("train", "player", "--no-progress", *args)
    if result.exit_code == 0:
        return None
    return one_line_error(result)


def _refused(message, *needles):
    assert message is not None and message.startswith("Error: ") and "\n" not in message, message
    for needle in needles:
        assert needle in message, message
    return message


def test_the_command_says_a_refusal_in_one_line_on_stderr(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "barbu_sim.cli", "train", "player", "--deals", "0",
                           "--data", str(tmp_path / "d")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert [line for line in proc.stderr.splitlines() if line.strip()] == [
        "Error: --deals must be at least 1 and at most 1,099,511,627,776, not 0"]


@pytest.mark.parametrize("args,needle", [
    (["--deals", "0"], "--deals"), (["--deals", "-3"], "--deals"), (["--samples", "0"], "--samples"),
    (["--chunk", "0"], "--chunk"), (["--epochs", "0"], "--epochs"), (["--seed", "-1"], "--seed"),
    (["--hidden", "16,spades=8"], "unknown contract 'spades'"), (["--hidden", "33"], "0..32"),
])
def test_training_refuses_nonsense_arguments(tmp_path, args, needle):
    _refused(_train(*args, "--data", tmp_path / "data", "--out", tmp_path / "m.json"), needle)
    assert not (tmp_path / "data").exists() and not (tmp_path / "m.json").exists()


def _fake_data(folder: Path, config: dict | None, chunks=((0, 7), (7, 7))):
    """A data folder as `barbu-sim train player` makes it: a config record and chunks of random rows."""
    from barbu_sim.barbu.players.features import N_FEATURES
    folder.mkdir(parents=True)
    if config is not None:
        (folder / "config.json").write_text(json.dumps(config) + "\n")
    rng = np.random.default_rng(0)
    for lo, n in chunks:
        rows = 40 * n
        decision = np.repeat(np.arange(lo, lo + n) * 64, 40) + np.tile(np.repeat(np.arange(10), 4), n)
        np.savez(folder / f"chunk-{lo:08d}-{n}.npz", x=rng.random((rows, N_FEATURES)).astype(np.float32),
                 y=rng.random(rows).astype(np.float32), decision=decision.astype(np.int64),
                 contract=np.repeat(np.arange(lo, lo + n) % 7, 40).astype(np.int8))


def test_training_refuses_a_data_folder_made_with_other_settings(tmp_path):
    data = tmp_path / "data"
    record = {"seed": 5, "samples": 4, "chunk": 7}
    _fake_data(data, record)
    before = (data / "config.json").read_text()
    line = _refused(_train("--deals", "14", "--chunk", "7", "--samples", "8", "--seed", "5", "--data", data,
                           "--out", tmp_path / "m.json"), "--samples 8", "4")
    assert "--seed" not in line and "--chunk" not in line  # only the settings that differ
    _refused(_train("--deals", "14", "--chunk", "5", "--samples", "4", "--seed", "6", "--data", data,
                    "--out", tmp_path / "m.json"), "--seed", "--chunk")
    _refused(_train("--fit-only", "--samples", "8", "--data", data, "--out", tmp_path / "m.json"), "--samples")
    assert (data / "config.json").read_text() == before  # the data's record is never overwritten
    assert not (tmp_path / "m.json").exists()


def test_a_refit_records_the_datas_own_settings(tmp_path):
    data = tmp_path / "data"
    _fake_data(data, {"seed": 5, "samples": 4, "chunk": 7})
    assert _train("--fit-only", "--hidden", "0", "--data", data, "--out", tmp_path / "m.json") is None
    training = json.loads((tmp_path / "m.json").read_text())["training"]
    assert (training["seed"], training["samples"], training["deals"]) == (5, 4, 14)
    assert "--chunk 7" in training["command"]


def test_training_refuses_chunks_without_a_record_and_a_damaged_chunk(tmp_path):
    _fake_data(tmp_path / "bare", None)
    _refused(_train("--fit-only", "--data", tmp_path / "bare", "--out", tmp_path / "m.json"), "config.json")
    data = tmp_path / "data"
    _fake_data(data, {"seed": 5, "samples": 4, "chunk": 7})
    chunk = data / "chunk-00000007-7.npz"
    chunk.write_bytes(chunk.read_bytes()[:300])
    _refused(_train("--fit-only", "--data", data, "--out", tmp_path / "m.json"), str(chunk))
    assert not (tmp_path / "m.json").exists()
