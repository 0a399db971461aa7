"""The training commands (``barbu-sim train player|iterate|compare|temperatures``, ``barbu-sim clabber train``):
an existing output is refused before any work unless --force, no default output is a packaged model, a failed
write leaves the old file whole, and the temperatures' fit runs tiny."""

import json
import os

import numpy as np
import pytest

from barbu_sim.barbu.players import learned as barbu_learned
from barbu_sim.clabber.players import learned as clabber_learned
from cli_checks import assert_clean_error, invoke

MODEL = str(barbu_learned.MODEL_PATH)


def test_the_help_screens_defaults_are_the_librarys():
    from barbu_sim.barbu.training import iterate, player, temperatures, training_data
    from barbu_sim.cli import train
    from barbu_sim.clabber.training import player as clabber_player
    assert (train.DEFAULT_SEED, train.DEFAULT_DEALS, train.DEFAULT_HIDDEN, train.DEFAULT_DATA, train.DEFAULT_OUT) == (
        player.DEFAULT_SEED, player.DEFAULT_DEALS, player.DEFAULT_HIDDEN, player.DEFAULT_DATA, player.DEFAULT_OUT)
    assert train.MC_SHARE == training_data.MC_SHARE
    assert (train.CHECK_SEED, train.CHECK_DEALS, train.SHARE, train.ITERATE_WORK, train.ITERATE_OUT) == (
        iterate.CHECK_SEED, iterate.DEFAULT_CHECK_DEALS, iterate.DEFAULT_SHARE, iterate.DEFAULT_WORK,
        iterate.DEFAULT_OUT)
    assert (train.TEMPERATURE_DEALS, train.TEMPERATURE_OUT, train.TABLES) == (
        temperatures.DEFAULT_DEALS, temperatures.DEFAULT_OUT, temperatures.TABLES)
    assert (train.CLABBER_SEED, train.CLABBER_SAMPLES, train.CLABBER_CHUNK) == tuple(clabber_player.DEFAULTS.values())
    assert (train.CLABBER_ROUNDS, train.CLABBER_DATA, train.CLABBER_OUT) == (
        clabber_player.DEFAULT_ROUNDS, clabber_player.DEFAULT_DATA, clabber_player.DEFAULT_OUT)
    assert (train.MAX_HIDDEN, train.CLABBER_MAX_HIDDEN) == (barbu_learned.MAX_HIDDEN, clabber_learned.MAX_HIDDEN)


def test_the_listings_show_the_training_commands():
    listing = invoke("train", "--help").output
    for name in ("player", "iterate", "compare", "temperatures"):
        assert name in listing
    assert "train" in invoke("clabber", "--help").output
    assert "train" in invoke("--help").output


# Every training command, with arguments that name an existing --out (OUT): refused before any work unless --force.
REFUSED = [
    ("train", "player", "--out", "OUT"),
    ("train", "player", "--fit-only", "--out", "OUT"),
    ("train", "iterate", "--out", "OUT"),
    ("train", "compare", MODEL, MODEL, "--out", "OUT"),
    ("train", "temperatures", "--out", "OUT"),
    ("clabber", "train", "--out", "OUT"),
]


@pytest.mark.parametrize("args", REFUSED, ids=[" ".join(a[:2]) + f"-{i}" for i, a in enumerate(REFUSED)])
def test_a_command_refuses_an_existing_output_before_any_work(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)  # the default data and work folders would be made here
    out = tmp_path / "old.json"
    out.write_text('{"rows": []}\n')
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    result = invoke(*[str(out) if a == "OUT" else a for a in args])
    assert_clean_error(result, "--force", "exists", str(out))
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # nothing written, nothing made


def test_a_dangling_link_at_out_is_an_existing_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    link = tmp_path / "dang.json"
    os.symlink(tmp_path / "nowhere.json", link)
    for args in (("train", "player", "--fit-only", "--hidden", "0", "--data", tmp_path / "no-data"),
                 ("train", "compare", MODEL, MODEL, "--deals", "2")):
        assert_clean_error(invoke(*args, "--out", link), "exists", "--force", str(link))
        assert link.is_symlink() and not (tmp_path / "nowhere.json").exists()


def test_no_default_output_is_a_packaged_model():
    """Training writes models under runs/ by default: a packaged model is replaced only by copying a file over it."""
    from barbu_sim.barbu.training import player
    from barbu_sim.clabber.training import player as clabber_player
    package = barbu_learned.MODEL_PATH.parents[3]
    for default in (player.DEFAULT_OUT, clabber_player.DEFAULT_OUT):
        assert default.startswith("runs/")
        assert package not in (package.parent / default).resolve().parents


def test_the_default_out_is_refused_when_it_exists(tmp_path, monkeypatch):
    from barbu_sim.barbu.training.player import DEFAULT_OUT
    monkeypatch.chdir(tmp_path)
    (tmp_path / DEFAULT_OUT).parent.mkdir(parents=True)
    (tmp_path / DEFAULT_OUT).write_text("the old model\n")
    assert_clean_error(invoke("train", "player", "--fit-only", "--data", "/nonexistent-data-folder"),
                       "exists", "--force", DEFAULT_OUT)
    assert (tmp_path / DEFAULT_OUT).read_text() == "the old model\n"


def _fake_data(folder):
    from test_learned_guards import _fake_data as make
    make(folder, {"seed": 5, "samples": 4, "chunk": 7})


def test_training_replaces_an_existing_model_only_with_force(tmp_path):
    data, out = tmp_path / "data", tmp_path / "model.json"
    out.write_text("the old model\n")
    argv = ["train", "player", "--no-progress", "--fit-only", "--hidden", "0", "--data", data, "--out", out]
    # refused before the work: the data folder is not even read (it does not exist), the model is untouched
    assert_clean_error(invoke(*argv), "exists", "--force", str(out))
    assert out.read_text() == "the old model\n"
    _fake_data(data)
    done = invoke(*argv, "--force")
    assert done.exit_code == 0, done.output
    assert json.loads(out.read_text())["features"] == barbu_learned.N_FEATURES
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


def test_a_model_whose_write_fails_leaves_the_old_one_whole(tmp_path, monkeypatch):
    """A write that fails halfway (here: text that cannot be encoded, as a full disk would fail) leaves the old
    model as it was and no temporary file, not a cut file."""
    data, out = tmp_path / "data", tmp_path / "model.json"
    _fake_data(data)
    out.write_text("the old model\n")
    dumps = json.dumps

    def failing(obj, *a, **k):
        text = dumps(obj, *a, **k)
        return text + "\ud800" if isinstance(obj, dict) and "contracts" in obj else text
    monkeypatch.setattr(json, "dumps", failing)
    result = invoke("train", "player", "--no-progress", "--fit-only", "--hidden", "0", "--data", data, "--out", out,
                    "--force")
    assert result.exit_code != 0 and "codec can't encode" in result.output  # one line, no traceback
    assert out.read_text() == "the old model\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "model.json"]


def test_compare_checks_its_out_before_playing(tmp_path, monkeypatch):
    from barbu_sim.barbu.training import iterate

    def played(*args, **kwargs):
        raise AssertionError("the deals were played before --out was checked")
    monkeypatch.setattr(iterate, "head_to_head", played)
    out = tmp_path / "h.json"
    out.write_text("{}\n")
    assert_clean_error(invoke("train", "compare", MODEL, MODEL, "--deals", "2", "--out", out), "exists", "--force")
    assert out.read_text() == "{}\n"
    assert_clean_error(invoke("train", "compare", MODEL, MODEL, "--deals", "2", "--out", tmp_path), "folder")


def test_compare_reads_a_model_with_a_byte_order_mark(tmp_path, monkeypatch):
    from barbu_sim.barbu.training import iterate
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + barbu_learned.MODEL_PATH.read_bytes())
    fake = {"contracts": [], "seven": {"difference": 0.0, "ci_low": 0.0, "ci_high": 0.0}}
    monkeypatch.setattr(iterate, "head_to_head", lambda *a, **k: fake)
    out = tmp_path / "h.json"
    done = invoke("train", "compare", bom, MODEL, "--deals", "2", "--out", out)
    assert done.exit_code == 0, done.output
    assert json.loads(out.read_text())["models"]["new"]["model"] == f"learned@{barbu_learned.model_id()}"


def test_the_temperatures_fit_runs_tiny(tmp_path):
    out = tmp_path / "t.json"
    done = invoke("train", "temperatures", "--deals", "14", "--table", "heuristic", "--out", out, "--no-progress")
    assert done.exit_code == 0, done.output
    data = json.loads(out.read_text())
    rows = data["rows"]
    assert data["seed"] == 9091 and data["deals"] == 14 and data["model"] == barbu_learned.model_id()
    assert [r["table"] for r in rows] == ["heuristic"] * 7 and all(r["held_out_plays"] > 0 for r in rows)
    assert all(0.01 <= r["temperature"] <= 50.0 and 0.0 < r["epsilon"] < 1.0 for r in rows)
    assert all(r["train_log_likelihood"] <= 0.0 for r in rows)
    assert len([line for line in done.output.splitlines() if line.startswith("heuristic ")]) == 7
    assert_clean_error(invoke("train", "temperatures", "--deals", "13", "--out", tmp_path / "u.json"),
                       "--deals must be at least 14")
    assert_clean_error(invoke("train", "temperatures", "--table", "mc", "--out", tmp_path / "u.json"), "--table")
    assert_clean_error(invoke("train", "temperatures", "--table", "basic", "--table", "basic", "--out",
                              tmp_path / "u.json"), "--table basic is given twice")
    assert not (tmp_path / "u.json").exists()


def test_the_packaged_models_record_the_scripts_that_made_them():
    """The packaged models stay as they were made (the model id hashes the weights, not the command): their
    recorded commands name the scripts of their day; `barbu-sim train player` and `clabber train` take the same
    options (docs/training.md)."""
    for path in (barbu_learned.model_path("learned"), barbu_learned.model_path("learned1"),
                 clabber_learned.MODEL_PATH):
        command = json.loads(path.read_text())["training"]["command"]
        assert command.startswith(("python scripts/train_player.py ", "python scripts/train_clabber_player.py "))


def test_ctrl_c_keeps_the_chunks_made_and_says_how_to_go_on(tmp_path, monkeypatch):
    from barbu_sim.barbu.training import player
    calls = []

    def chunk(seed, lo, n, *args):
        if calls:
            raise KeyboardInterrupt
        calls.append(lo)
        return {"x": np.zeros((1, barbu_learned.N_FEATURES), np.float32), "y": np.zeros(1, np.float32),
                "decision": np.zeros(1, np.int64), "contract": np.zeros(1, np.int8)}
    monkeypatch.setattr(player, "generate_chunk", chunk)
    data = tmp_path / "data"
    result = invoke("train", "player", "--deals", "4", "--chunk", "2", "--no-progress", "--data", data,
                    "--out", tmp_path / "m.json")
    assert result.exit_code == 130 and f"the data chunks made are kept in {data}" in result.output
    assert sorted(p.name for p in data.iterdir()) == ["chunk-00000000-2.npz", "config.json"]
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize("args, flag", [(["train", "compare", "a.json", "b.json", "--deals", "1"], "--deals"),
                                        (["train", "iterate", "--rounds", "1", "--deals", "20", "--samples", "2",
                                          "--check-deals", "1"], "--check-deals")])
def test_a_head_to_head_needs_two_deals_for_its_interval(tmp_path, args, flag):
    assert_clean_error(invoke(*args, "--out", tmp_path / "x.json"), flag, "at least 2")
    assert not (tmp_path / "x.json").exists()


def test_a_data_folder_of_the_other_game_is_named_as_such(tmp_path):
    """Training data records its features per card: the other game's folder is refused, saying what it may be."""
    from barbu_sim.barbu.players.features import N_FEATURES as BARBU_FEATURES
    from barbu_sim.barbu.training import player as barbu_player
    from barbu_sim.clabber.players.features import N_FEATURES as CLABBER_FEATURES
    from barbu_sim.clabber.training import player as clabber_player
    assert BARBU_FEATURES != CLABBER_FEATURES
    barbu_data, clabber_data = tmp_path / "barbu", tmp_path / "clabber"
    for folder, settings in ((barbu_data, {**barbu_player.DEFAULTS, **barbu_player.TEACHER_DEFAULTS,
                                           "features": BARBU_FEATURES}),
                             (clabber_data, {**clabber_player.DEFAULTS, "features": CLABBER_FEATURES})):
        folder.mkdir()
        (folder / "config.json").write_text(json.dumps(settings))
    with pytest.raises(ValueError, match=f"not this version's Clabber training data: it has {BARBU_FEATURES} "
                                         "features per card.*Barbu's data"):
        clabber_player.data_settings(barbu_data, {})
    with pytest.raises(ValueError, match=f"not this version's Barbu training data: it has {CLABBER_FEATURES} "
                                         "features per card.*Clabber's data"):
        barbu_player.data_settings(clabber_data, {})
    assert clabber_player.data_settings(clabber_data, {})["features"] == CLABBER_FEATURES


def test_round_0_of_expert_iteration_takes_a_packaged_model_by_its_name(tmp_path, monkeypatch):
    from barbu_sim.barbu.training.iterate import first_model_path
    assert first_model_path(None) == barbu_learned.model_path("learned1")
    assert first_model_path("learned") == barbu_learned.model_path("learned")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "learned").write_text("{}")  # a file of that name is the file
    assert first_model_path("learned") == tmp_path.joinpath("learned").relative_to(tmp_path)
    assert first_model_path("mine.json").name == "mine.json"
