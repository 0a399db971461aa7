"""Issue 43, the model and results files: a model file's faults are one-line errors naming the file (nested
JSON, weights that are strings or booleans, a number too long to read; a byte-order mark is read), a repeated
option in a player string is refused, and the scripts' model and results files are refused when they exist
(unless --force, or a merge flag), checked before the work, and written atomically."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from barbu_sim.barbu.players import learned as barbu_learned
from barbu_sim.barbu.players.registry import resolve_strategy
from barbu_sim.clabber.players import learned as clabber_learned
from barbu_sim.clabber.players.registry import resolve_strategy as resolve_clabber
from cli_checks import one_line, refused_model, stopped

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
sys.path.insert(0, str(SCRIPTS))

GAMES = {"barbu": barbu_learned, "clabber": clabber_learned}






def _packaged(module) -> dict:
    return json.loads(module.MODEL_PATH.read_text())


def _weights(module, data) -> dict:
    """The entry of ``data`` that holds a ``w`` list (Barbu: one contract's; Clabber: the one)."""
    return data["contracts"]["barbu"] if module is barbu_learned else data["weights"]


# --- item 3: nesting deep enough to break Python's JSON parser ----------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_a_deeply_nested_model_file_is_one_line_naming_it(tmp_path, game):
    path = tmp_path / "nested.json"
    path.write_text("[" * 200_000 + "]" * 200_000)
    message = one_line(refused_model(GAMES[game], path), "nested too deeply", "not a model file")
    assert "reinstall" not in message  # a user's own file: the package is not at fault (test_trust4_inputs.py)


# --- item 17: weights that are not numbers, a number too long to read, a byte-order mark -------------------------

@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("value,shown", [("0.5", "string"), (True, "true"), (False, "false"), (None, "null")])
def test_a_weight_that_is_not_a_number_is_refused_naming_the_key(tmp_path, game, value, shown):
    module = GAMES[game]
    data = _packaged(module)
    _weights(module, data)["w"][3] = value
    path = tmp_path / "model.json"
    path.write_text(json.dumps(data))
    one_line(refused_model(module, path), " w ", shown, "not a number")


@pytest.mark.parametrize("game", GAMES)
def test_a_hidden_weight_that_is_a_string_is_refused_naming_the_key(tmp_path, game):
    module = GAMES[game]
    data = _packaged(module)
    _weights(module, data)["W1"][0][0] = "1"
    path = tmp_path / "model.json"
    path.write_text(json.dumps(data))
    one_line(refused_model(module, path), "W1", "string")


@pytest.mark.parametrize("game", GAMES)
def test_a_features_count_of_5001_digits_is_refused_naming_the_file(tmp_path, game):
    module = GAMES[game]
    data = _packaged(module)
    text = json.dumps(data).replace(f'"features": {data["features"]}', '"features": ' + "9" * 5001)
    assert "9" * 5001 in text
    path = tmp_path / "model.json"
    path.write_text(text)
    one_line(refused_model(module, path), "too long")


@pytest.mark.parametrize("game", GAMES)
def test_a_model_file_with_a_byte_order_mark_is_read_as_without(tmp_path, game):
    module = GAMES[game]
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + module.MODEL_PATH.read_bytes())
    module.load_model.cache_clear()
    model, ident = module.load_model(str(path))
    assert ident == module.model_id() and (model == module.model_array()[:len(model)]).all()


def test_the_packaged_models_keep_their_ids():
    barbu_learned.load_model.cache_clear()
    assert barbu_learned.model_id() == "01636fa16800"
    assert resolve_strategy("learned@01636fa16800").name == "learned"


# --- item 17: a repeated option in a player string --------------------------------------------------------------

@pytest.mark.parametrize("spec,key", [("mc:samples=64,samples=8", "samples"), ("mc:infer=70,rollout=basic,infer=policy",
                                                                              "infer"),
                                      ("pimc:rollout=basic, rollout=heuristic", "rollout"),
                                      ("mc:rollout=learned,model=abc,model=abc", "model")])
def test_a_barbu_player_string_that_repeats_an_option_is_refused(spec, key):
    with pytest.raises(ValueError) as e:
        resolve_strategy(spec)
    one_line(str(e.value), key, "twice")


def test_a_clabber_player_string_that_repeats_an_option_is_refused():
    with pytest.raises(ValueError) as e:
        resolve_clabber("mc:samples=64,samples=8")
    one_line(str(e.value), "samples", "twice")
    assert resolve_clabber("mc:samples=8").name == "mc:samples=8"  # once is as before


def test_the_cli_says_a_repeated_option_in_one_line():
    done = subprocess.run([sys.executable, "-m", "barbu_sim", "play", "--strategy", "mc:samples=64,samples=8"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "samples" in done.stderr and "twice" in done.stderr


# --- item 2: the scripts' model and results files -----------------------------------------------------------------

def _script(name: str):
    """The script ``scripts/NAME.py`` as a module (its ``main`` takes the arguments)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"t4_{name}", SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module




MODEL = str(barbu_learned.MODEL_PATH)
# Every script that writes a model or results file, with arguments that name an existing --out (OUT) or results
# folder (DIR): each is refused before any work, unless --force.
REFUSED = [
    ("advise_check", ["--out", "OUT"]), ("bench", ["--out", "OUT"]), ("bench", ["--mc", "--out", "OUT"]),
    ("bench", ["--game", "clabber", "--out", "OUT"]), ("clabber_ab", ["--out", "OUT"]),
    ("clabber_bench", ["--out", "OUT"]), ("clabber_bid_review_time", ["--out", "OUT"]),
    ("clabber_ladder", ["--out", "OUT"]), ("convergence", ["--out", "OUT"]), ("domino_rank_check", ["--out", "OUT"]),
    ("expert_iteration", ["--out", "OUT"]), ("fit_policy_temperature", ["--out", "OUT"]),
    ("head_to_head", [MODEL, MODEL, "--out", "OUT"]), ("heuristic_vs_random", ["--out", "OUT"]),
    ("ladder", ["--out", "OUT"]), ("mc_bench", ["--out", "OUT"]),
    ("mc_learned", ["--opponents", "basic", "--out", "OUT"]),
    ("mutation_check", ["--out", "OUT"]), ("preset_study", ["--out", "OUT"]), ("ray_bench", ["--out", "OUT"]),
    ("review_stability", ["--out", "OUT"]), ("seat_ab", ["heuristic", "basic", "--out", "OUT"]),
    ("train_player", ["--out", "OUT"]), ("train_clabber_player", ["--out", "OUT"]),
    ("doubling_study", ["--out", "DIR"]), ("doubling_study", ["--out", "DIR/new", "--rows", "OUT"]),
    ("make_results", ["--out", "DIR/run", "--results", "DIR"]), ("clabber_results", ["--results", "DIR"]),
    ("clabber_strong_results", ["--results", "DIR"]), ("strong_results", ["--results", "DIR", "--out", "DIR/runs"]),
]
FOLDER_FILES = ("study.json", "findings.json", "manifest.json", "timing.json", "changes.md")


@pytest.mark.parametrize("name,args", REFUSED, ids=[f"{n}-{i}" for i, (n, _) in enumerate(REFUSED)])
def test_a_script_refuses_an_existing_output_before_any_work(tmp_path, capsys, monkeypatch, name, args):
    out = tmp_path / "old.json"
    out.write_text('{"rows": []}\n')
    for f in FOLDER_FILES:
        (tmp_path / f).write_text("{}\n")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    argv = [a.replace("OUT", str(out)).replace("DIR", str(tmp_path)) for a in args]
    module = _script(name)
    if name == "compile_times":
        monkeypatch.setattr(sys, "argv", [name, *argv])
    message = stopped(module.main, argv, capsys)
    assert "--force" in message and ("exists" in message or "holds" in message), message
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # nothing written, nothing made


def test_compile_times_refuses_an_existing_output_too(tmp_path, capsys, monkeypatch):
    out = tmp_path / "old.json"
    out.write_text("{}\n")
    monkeypatch.setattr(sys, "argv", ["compile_times.py", "--out", str(out)])
    message = stopped(lambda argv: _script("compile_times").main(), None, capsys)
    assert "--force" in message and str(out) in message and out.read_text() == "{}\n"


def _fake_data(folder: Path):
    """A tiny data folder as train_player.py makes it (test_learned_guards' helper)."""
    from test_learned_guards import _fake_data as make
    make(folder, {"seed": 5, "samples": 4, "chunk": 7})


def test_training_replaces_an_existing_model_only_with_force(tmp_path, capsys):
    import train_player
    data, out = tmp_path / "data", tmp_path / "model.json"
    out.write_text("the old model\n")
    argv = ["--no-progress", "--fit-only", "--hidden", "0", "--data", str(data), "--out", str(out)]
    # refused before the work: the data folder is not even read (it does not exist), the model is untouched
    message = stopped(train_player.main, argv, capsys)
    assert "exists" in message and "--force" in message and str(out) in message
    assert out.read_text() == "the old model\n"
    _fake_data(data)
    train_player.main([*argv, "--force"])
    assert json.loads(out.read_text())["features"] == barbu_learned.N_FEATURES
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


def test_the_default_out_of_training_is_the_packaged_model_and_is_refused():
    """The packaged model is refused as any file: learned@01636fa16800 stays as it is."""
    before = barbu_learned.MODEL_PATH.read_bytes()
    done = subprocess.run([sys.executable, str(SCRIPTS / "train_player.py"), "--fit-only", "--no-progress",
                           "--data", "/nonexistent-data-folder"], capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "exists" in done.stderr and "--force" in done.stderr and str(barbu_learned.MODEL_PATH) in done.stderr
    assert barbu_learned.MODEL_PATH.read_bytes() == before


def test_a_model_whose_write_fails_leaves_the_old_one_whole(tmp_path, monkeypatch):
    """A write that fails halfway (here: text that cannot be encoded, as a full disk would fail) leaves the old
    model as it was and no temporary file, not a cut file."""
    import train_player
    data, out = tmp_path / "data", tmp_path / "model.json"
    _fake_data(data)
    out.write_text("the old model\n")
    dumps = json.dumps

    def failing(obj, *a, **k):
        text = dumps(obj, *a, **k)
        return text + "\ud800" if isinstance(obj, dict) and "contracts" in obj else text
    monkeypatch.setattr(json, "dumps", failing)
    with pytest.raises(UnicodeEncodeError):
        train_player.main(["--no-progress", "--fit-only", "--hidden", "0", "--data", str(data), "--out", str(out),
                           "--force"])
    assert out.read_text() == "the old model\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "model.json"]


def test_head_to_head_checks_its_out_before_playing(tmp_path, capsys, monkeypatch):
    import expert_iteration
    import head_to_head

    def played(*args, **kwargs):
        raise AssertionError("the deals were played before --out was checked")
    monkeypatch.setattr(expert_iteration, "head_to_head", played)
    out = tmp_path / "h.json"
    out.write_text("{}\n")
    message = stopped(head_to_head.main, [MODEL, MODEL, "--deals", "2", "--out", str(out)], capsys)
    assert "exists" in message and "--force" in message and out.read_text() == "{}\n"
    (tmp_path / "folder.json").mkdir()
    message = stopped(head_to_head.main, [MODEL, MODEL, "--deals", "2", "--out", str(tmp_path / "folder.json")],
                       capsys)
    assert "folder" in message


def test_head_to_head_reads_a_model_with_a_byte_order_mark(tmp_path, monkeypatch):
    import expert_iteration
    import head_to_head
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + barbu_learned.MODEL_PATH.read_bytes())
    fake = {"contracts": [], "seven": {"difference": 0.0, "ci_low": 0.0, "ci_high": 0.0}}
    monkeypatch.setattr(expert_iteration, "head_to_head", lambda *a, **k: fake)
    out = tmp_path / "h.json"
    head_to_head.main([str(bom), MODEL, "--deals", "2", "--out", str(out)])
    assert json.loads(out.read_text())["models"]["new"]["model"] == f"learned@{barbu_learned.model_id()}"


def test_merging_into_a_results_file_needs_the_merge_flag(tmp_path, capsys):
    """ladder.py and mc_learned.py add rows to their file only with --merge; a damaged file is refused before any
    play, in one line."""
    ladder, mc_learned = _script("ladder"), _script("mc_learned")
    out = tmp_path / "rows.json"
    out.write_text('{"seed": 11, "rows": [')
    for main, args in ((ladder.main, ["--pairs", "heuristic:basic", "--deals", "2", "-c", "barbu"]),
                       (mc_learned.main, ["--opponents", "basic", "-c", "barbu", "-n", "2"])):
        message = stopped(main, [*args, "--out", str(out)], capsys)
        assert "--merge" in message and "--force" in message
        message = stopped(main, [*args, "--out", str(out), "--merge"], capsys)
        assert str(out) in message and "JSON" in message
    assert out.read_text() == '{"seed": 11, "rows": ['
