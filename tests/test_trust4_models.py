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
from cli_checks import existing_outputs, files_in, one_line, refused_model

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"

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

def _script(name: str, argv: list[str]) -> subprocess.CompletedProcess:
    """``python scripts/NAME.py ARGV`` in a fresh process: a script is run, never imported."""
    return subprocess.run([sys.executable, str(SCRIPTS / f"{name}.py"), *argv], capture_output=True, text=True,
                          timeout=300)


def _refused(name: str, argv: list[str]) -> str:
    """The one-line error with which ``scripts/NAME.py ARGV`` stops (on stderr, with a non-zero exit status)."""
    done = _script(name, argv)
    assert done.returncode != 0, (name, done.stdout[-2000:])
    return one_line(done.stderr.strip(), "Error: ")


# Every script that writes a model or results file, with arguments that name an existing --out (OUT) or results
# folder (DIR): each is refused before any work, unless --force.
REFUSED = [
    ("advise_check", ["--out", "OUT"]), ("bench", ["--out", "OUT"]),
    ("bench", ["--game", "clabber", "--out", "OUT"]), ("ab_compare", ["--game", "clabber", "--out", "OUT"]),
    ("clabber_bid_review_time", ["--out", "OUT"]), ("mc_bench", ["--out", "OUT"]),
    ("mutation_check", ["--out", "OUT"]), ("ray_bench", ["--out", "OUT"]),
    ("review_stability", ["--out", "OUT"]),
]
FOLDER_FILES = ("study.json", "findings.json", "manifest.json", "timing.json", "changes.md")


@pytest.mark.parametrize("name,args", REFUSED, ids=[f"{n}-{i}" for i, (n, _) in enumerate(REFUSED)])
def test_a_script_refuses_an_existing_output_before_any_work(tmp_path, name, args):
    argv = existing_outputs(tmp_path, FOLDER_FILES, args)
    before = files_in(tmp_path)
    message = _refused(name, argv)
    assert "--force" in message and ("exists" in message or "holds" in message), message
    assert files_in(tmp_path) == before  # nothing written, nothing made


def test_compile_times_refuses_an_existing_output_too(tmp_path):
    out = tmp_path / "old.json"
    out.write_text("{}\n")
    message = _refused("compile_times", ["--out", str(out)])
    assert "--force" in message and str(out) in message and out.read_text() == "{}\n"
