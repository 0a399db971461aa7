"""Issue 43, what the adversarial check of its fixes found in the files and options a user gives: a rules file is
read capped (size and nesting), a dangling link at a script's output is an existing file, advise --double refuses
--doubling and --remaining a contract named twice, a user's model file is not sent to reinstall the package, a
model file's hidden-layer size is checked, and a sheet's edited summary.json is refused naming the field."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from barbu_sim.barbu.players import learned as barbu_learned
from barbu_sim.barbu.rules.config import load_rules
from barbu_sim.clabber.players import learned as clabber_learned
from cli_checks import assert_clean_error, invoke, one_line, refused_model

ROOT = Path(__file__).resolve().parent.parent

GAMES = {"barbu": barbu_learned, "clabber": clabber_learned}




# --- 1: a rules file is read capped: nesting, size, a device that never ends ------------------------------------

@pytest.mark.parametrize("text", ["x = " + "[" * 100_000 + "]" * 100_000 + "\n",
                                  "x = " + "{a=" * 100_000 + "1" + "}" * 100_000 + "\n"], ids=["lists", "tables"])
def test_a_deeply_nested_rules_file_is_one_line_naming_it(tmp_path, text):
    f = tmp_path / "deep.toml"
    f.write_text(text)
    assert_clean_error(invoke("rules", "--rules", f), "deep.toml", "nested too deeply")


def test_a_rules_file_past_the_cap_is_refused_naming_it(tmp_path):
    from barbu_sim.barbu.rules.config import MAX_RULES_BYTES
    f = tmp_path / "huge.toml"
    f.write_bytes(b"trumps-overtrump = true\n" + b"#" * MAX_RULES_BYTES + b"\n")
    assert_clean_error(invoke("rules", "--rules", f), "huge.toml", "larger than 1 MiB")
    f.write_bytes(b"# a comment\n" * 100 + b"trumps-overtrump = true\n")  # a file under the cap is read as before
    assert load_rules(str(f)).trumps_overtrump is True


def test_a_rules_file_that_never_ends_is_refused_at_the_cap(tmp_path):
    """A link to /dev/zero named as a rules file (or in a played deal's rules: line) costs no more than the cap:
    run in a child whose memory is capped, so that the old unbounded read ends in a MemoryError, not the machine's
    memory."""
    link = tmp_path / "z.toml"
    link.symlink_to("/dev/zero")
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30));"
            "from barbu_sim.barbu.rules.config import load_rules\n"
            "try:\n    load_rules(sys.argv[1], base=sys.argv[2])\nexcept ValueError as e:\n    print(e)")
    done = subprocess.run([sys.executable, "-c", code, "z.toml", str(tmp_path)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    one_line(done.stdout.strip(), "z.toml", "not a regular file")  # refused before it is opened


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs are POSIX")
def test_a_rules_file_or_a_model_that_is_a_pipe_is_refused_before_it_is_opened(tmp_path):
    """Opening a FIFO waits for a writer (where not even Ctrl-C reaches the command): refused at once instead."""
    import os
    fifo = tmp_path / "f.toml"
    os.mkfifo(fifo)
    code = ("import sys\nfrom barbu_sim.barbu.rules.config import load_rules\n"
            "try:\n    load_rules(sys.argv[1])\nexcept ValueError as e:\n    print(e)")
    done = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=120)
    one_line(done.stdout.strip(), "f.toml", "not a regular file")
    code = ("import sys\nfrom barbu_sim.core.files import InputError, read_json\n"
            "try:\n    read_json(sys.argv[1])\nexcept InputError as e:\n    print(e)")
    done = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=120)
    one_line(done.stdout.strip(), "f.toml", "not a regular file")


# --- 2: a dangling link at a script's output is a file there -----------------------------------------------------



def _dangling(path: Path) -> Path:
    path.symlink_to(path.parent / "nowhere.json")
    assert path.is_symlink() and not path.exists()
    return path


def test_check_out_refuses_a_link_that_points_nowhere(tmp_path):
    from barbu_sim.core.outputs import check_folder_files, check_out
    link = _dangling(tmp_path / "dang.json")
    with pytest.raises(ValueError) as e:
        check_out(link, False)
    one_line(str(e.value), str(link), "exists", "link", "--force")
    assert check_out(link, True) == link  # --force replaces it, as any file
    with pytest.raises(ValueError) as e:
        check_folder_files(tmp_path, ["dang.json"], False, "--results")
    one_line(str(e.value), "dang.json", "--force")


# --- 3, 4: advise --double with --doubling; a remaining contract named twice ------------------------------------

HAND = "T98.765.AK32.QJ2"


@pytest.mark.parametrize("policy", ["always", "compulsory-only"])
def test_advise_double_refuses_doubling_in_one_line(policy):
    result = invoke("advise", HAND, "--double", "barbu", "--declarer", "W", "--seat", "S", "--samples", "200",
                    "--strategy", "heuristic", "--doubling", policy)
    assert_clean_error(result, "--doubling", "--double", "bayes", "--margin")


@pytest.mark.parametrize("remaining,named", [("barbu,barbu", "barbu"), ("trumps,no-tricks,Trumps", "trumps"),
                                             ("barbu,no king of hearts", "barbu")])
def test_advise_refuses_a_remaining_contract_named_twice(remaining, named):
    result = invoke("advise", HAND, "--remaining", remaining, "--samples", "2", "--strategy", "heuristic")
    assert_clean_error(result, "--remaining", named, "twice")
    result = invoke("advise", HAND, "--double", "barbu", "--remaining", remaining, "--samples", "2",
                    "--strategy", "heuristic")
    assert_clean_error(result, "--remaining", named, "twice")


# --- 5: a user's model file is not sent to reinstall the package --------------------------------------------------



@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("text", ["[" * 200_000 + "]" * 200_000, '{"features": 4', '{"features": ' + "9" * 5001 + "}"],
                         ids=["nested", "cut", "long-number"])
def test_a_users_damaged_model_file_is_not_sent_to_reinstall(tmp_path, game, text):
    path = tmp_path / "mine.json"
    path.write_text(text)
    message = refused_model(GAMES[game], path)
    assert "reinstall" not in message and "damaged" in message and "not a model file" in message, message


@pytest.mark.parametrize("game", GAMES)
def test_a_damaged_packaged_model_is_sent_to_reinstall(game, monkeypatch):
    from barbu_sim.core import files
    module = GAMES[game]
    real = files.read_capped
    packaged = str(module.MODEL_PATH)
    monkeypatch.setattr(files, "read_capped", lambda path, *a, **k: b"{" if str(path) == packaged
                        else real(path, *a, **k))
    message = refused_model(module, packaged)
    assert "reinstall the package" in message, message


# --- 6: hidden, the hidden-layer size, is checked -----------------------------------------------------------------

def _with_hidden(module, value, tmp_path) -> Path:
    data = json.loads(module.MODEL_PATH.read_text())
    if module is barbu_learned:
        data["hidden"]["barbu"] = value
    else:
        data["hidden"] = value
    path = tmp_path / "model.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("value", [-3, 10**9, 0, 2.5, "32", True, None])
def test_a_hidden_size_out_of_range_or_not_the_layers_is_refused(tmp_path, game, value):
    module = GAMES[game]
    path = _with_hidden(module, value, tmp_path)
    one_line(refused_model(module, path), "hidden")


@pytest.mark.parametrize("game", GAMES)
def test_a_hidden_size_that_is_the_layers_is_read(tmp_path, game):
    module = GAMES[game]
    packaged = json.loads(module.MODEL_PATH.read_text())
    rows = len((packaged["contracts"]["barbu"] if module is barbu_learned else packaged["weights"])["W1"])
    path = _with_hidden(module, rows, tmp_path)
    module.load_model.cache_clear()
    try:
        assert module.load_model(str(path))[1] == module.model_id()
    finally:
        module.load_model.cache_clear()


def test_a_barbu_hidden_that_is_not_an_object_of_contracts_is_refused(tmp_path):
    data = json.loads(barbu_learned.MODEL_PATH.read_text())
    data["hidden"] = [32] * 7
    path = tmp_path / "model.json"
    path.write_text(json.dumps(data))
    one_line(refused_model(barbu_learned, path), "hidden")
    data["hidden"] = {**json.loads(barbu_learned.MODEL_PATH.read_text())["hidden"], "spades": 4}
    path.write_text(json.dumps(data))
    one_line(refused_model(barbu_learned, path), "hidden", "spades")


# --- 7: a sheet's edited summary.json ---------------------------------------------------------------------------

def _sheet(out, lines):
    return invoke_input(["sheet", "--out", str(out)], "".join(f"{x}\n" for x in lines))


def invoke_input(args, text):
    from typer.testing import CliRunner

    from barbu_sim.cli import app
    return CliRunner().invoke(app, args, input=text)


@pytest.mark.parametrize("key,value", [("first_declarer", "X"), ("first_declarer", 3), ("first_declarer", "E"),
                                       ("first_declarer", "NE"),
                                       ("hands_entered", 99), ("hands_entered", "1"), ("hands_entered", -1),
                                       ("players", ["Ann", "Bob"]), ("players", {"N": 5, "E": "B", "S": "C", "W": "D"}),
                                       ("rules", "default")])
def test_an_edited_sheet_summary_is_refused_naming_the_field(tmp_path, key, value):
    out = tmp_path / "s"
    assert _sheet(out, ["barbu 0 -20 0 0", "quit"]).exit_code == 0
    summary = out / "summary.json"
    data = json.loads(summary.read_text())
    assert data["first_declarer"] == "N" and data["hands_entered"] == 1
    data[key] = value
    summary.write_text(json.dumps(data))
    result = _sheet(out, ["quit"])
    assert_clean_error(result, "summary.json", key)
    assert len([line for line in result.output.splitlines() if line.strip()]) == 1


def test_an_unedited_sheet_summary_is_taken_up(tmp_path):
    out = tmp_path / "s"
    assert _sheet(out, ["barbu 0 -20 0 0", "quit"]).exit_code == 0
    result = _sheet(out, ["quit"])
    assert result.exit_code == 0 and "Taken up: 1 hands" in result.output, result.output
