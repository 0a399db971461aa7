"""No silent wrong result, no traceback, no corrupted run: each test is one way a user could break things.

The numbers in the comments are the items of the hardening list these tests pin down.
"""

import json
import subprocess
import sys

import polars as pl
import pytest

from barbu_sim.barbu.rules import Rules
from barbu_sim.barbu.runs import RunConfig, run
from barbu_sim.core.runs import RunError
from cli_checks import assert_clean_error, invoke
from interrupting import ENDLESS, ctrl_c_once_entered
from shared_plugins import RAISING


pytestmark = pytest.mark.usefixtures("private_cache")


def small_run(out, deals=3000, chunk=1000, **kwargs):
    return run(out, RunConfig(deals=deals, seed=5, contracts=["no-tricks", "domino"], chunk_deals=chunk, **kwargs),
               progress=False)


# ---------------------------------------------------------------- 1, 11: scores and numbers that do not fit
def test_domino_payouts_that_would_wrap_are_refused(tmp_path):
    with pytest.raises(ValueError, match="domino-payout"):
        Rules(domino_payout=(40000, 0, 0, 0))
    r = invoke("run", "-c", "domino", "-n", "1000", "-o", "domino-payout=40000,0,0,0", "--out", tmp_path / "r",
               "--no-progress")
    assert_clean_error(r, "domino-payout")
    r = invoke("run", "-c", "domino", "-n", "1000", "-o", "domino-payout=99999999999999999999999,0,0,0",
               "--out", tmp_path / "huge", "--no-progress")
    assert_clean_error(r, "domino-payout")
    assert not (tmp_path / "huge").exists() and not (tmp_path / "r").exists()


def test_the_largest_payouts_allowed_are_reported_exactly(tmp_path):
    r = invoke("run", "-c", "domino", "-n", "500", "-o", "domino-payout=10000,0,0,-10000", "--out", tmp_path / "r",
               "--no-progress")
    assert r.exit_code == 0, r.output
    scores = pl.read_parquet(sorted((tmp_path / "r" / "records").glob("*.parquet"))).select(
        pl.concat_list("score_n", "score_e", "score_s", "score_w").alias("s"))["s"].to_list()
    assert all(sorted(s) == [-10000, 0, 0, 10000] for s in scores)


@pytest.mark.parametrize("args,needle", [
    (["play", "--index", str(2**64)], "--index"),
    (["play", "--seed", str(2**64)], "--seed"),
    (["game", "-n", str(10**20), "--no-progress"], "--games"),
    (["game", "--samples", str(10**20), "--no-progress"], "--samples"),
    (["advise", "AKQ.JT9.876.5432", "--samples", str(10**20)], "--samples"),
    (["advise", "AKQ.JT9.876.5432", "--seed", "-1"], "--seed"),
    (["game", "--seed", "-1", "--no-progress"], "--seed"),
    (["compare-orders", "--blocks", str(10**20)], "--blocks"),
    (["compare-orders", "--games", str(10**20)], "--games"),
    (["run", "--seed", str(10**20), "-n", "10", "--no-progress"], "--seed"),
    (["run", "--threads", "999", "-n", "10", "--no-progress"], "--threads"),
    (["play", "--deal", ""], "--deal"),
    (["run", "--out", "", "-n", "10", "--no-progress"], "--out"),
    (["advise", "AKQ.JT9.876.5432", "--remaining", ""], "at least one remaining contract"),
    (["play", "--seat-strategy", "E=random", "--seat-strategy", "e=heuristic"], "twice"),
])
def test_out_of_range_input_is_a_clean_error(tmp_path, monkeypatch, args, needle):  # 10, 11, 15, 18
    monkeypatch.chdir(tmp_path)
    assert_clean_error(invoke(*args), needle)


# ---------------------------------------------------------------- 2, 17: a strategy that raises (shared_plugins)
def test_a_raising_strategy_stops_the_run_with_its_message(tmp_path):
    (tmp_path / "picky.py").write_text(RAISING)
    spec = f"{tmp_path / 'picky.py'}:picky"
    out = tmp_path / "r"
    r = invoke("run", "-n", "2000", "-c", "no-tricks", "--seat-strategy", f"E={spec}", "--out", out, "--no-progress")
    assert_clean_error(r, "picky", "seat E", "no clubs today")
    assert "Exception ignored" not in r.output
    assert (out / "manifest.json").exists()  # the run started (its manifest is written before play)
    assert not json.loads((out / "manifest.json").read_text())["complete"]
    r = invoke("play", "-c", "no-tricks", "--seat-strategy", f"E={spec[:-5]}grumpy", "--seed", "3")
    assert_clean_error(r, "grumpy", "seat E", "not in the mood")
    assert "not a legal card" not in r.output


# ---------------------------------------------------------------- 3, 4: missing or damaged chunks
def test_a_missing_chunk_is_refused_by_report_and_redone_by_resume(tmp_path):
    out = tmp_path / "r"
    small_run(out)
    whole = invoke("report", out).output
    (out / "records" / "part-000001.parquet").unlink()
    for command in ("report", "plot"):
        assert_clean_error(invoke(command, out), "part-000001", "--resume")
    r = invoke("run", "--resume", "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    assert invoke("report", out).output == whole


def test_a_truncated_chunk_is_named_and_redone(tmp_path):
    out = tmp_path / "r"
    small_run(out)
    whole = invoke("report", out).output
    part = out / "records" / "part-000002.parquet"
    part.write_bytes(part.read_bytes()[:500])
    assert_clean_error(invoke("report", out), "part-000002", "barbu-sim run --resume --out")
    r = invoke("run", "--resume", "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    assert invoke("report", out).output == whole


# ---------------------------------------------------------------- 5: one process per run directory
def test_a_run_directory_in_use_is_refused(tmp_path):
    from barbu_sim.core.runs import lock_run
    out = tmp_path / "r"
    small_run(out, deals=1000)
    with lock_run(out):
        r = invoke("run", "--resume", "--out", out, "--no-progress")
        assert_clean_error(r, "in use")
        with pytest.raises(RunError, match="in use"):
            run(out, RunConfig(deals=10), force=True, progress=False)
    r = invoke("run", "--resume", "--out", out, "--no-progress")  # released: fine again
    assert r.exit_code == 0, r.output


def test_the_lock_is_released_when_its_process_dies(tmp_path):
    from barbu_sim.core.runs import lock_run
    out = tmp_path / "r"
    out.mkdir()
    code = (f"from barbu_sim.core.runs import lock_run\nimport os\n"
            f"with lock_run({str(out)!r}):\n    os._exit(1)\n")
    subprocess.run([sys.executable, "-c", code])
    with lock_run(out):
        pass


# ---------------------------------------------------------------- 6, 19: replacing and reusing directories
def test_force_clears_every_output_of_the_old_run(tmp_path, monkeypatch):
    from barbu_sim.barbu.analytics import plots
    from barbu_sim.core.charts import charts_folder

    # `plot` makes its folder and a file there as it does, without drawing: what --force must clear is the folder
    # `plot` writes into (the drawing is test_run.py's test_run_report_plot_end_to_end and
    # test_charts_are_byte_identical_across_processes)
    def write_plots(tables, out_dir, lower_is_better=False):
        assert not tables["contract_scores"].is_empty()
        chart = charts_folder(out_dir) / "contract_scores.png"
        chart.write_bytes(b"not drawn")
        return [chart]
    monkeypatch.setattr(plots, "write_plots", write_plots)
    out = tmp_path / "r"
    small_run(out)
    assert invoke("report", out).exit_code == 0 and invoke("plot", out).exit_code == 0
    assert [p.name for p in (out / "plots").iterdir()] == ["contract_scores.png"]
    r = invoke("run", "-n", "500", "-c", "barbu", "--out", out, "--force", "--no-progress")
    assert r.exit_code == 0, r.output
    assert not (out / "report").exists() and not (out / "plots").exists()
    assert len(list((out / "records").iterdir())) == 1


def test_a_run_that_fails_at_once_does_not_block_the_next(tmp_path):
    (tmp_path / "picky.py").write_text(RAISING)
    out = tmp_path / "r"
    r = invoke("run", "-n", "500", "-c", "no-tricks", "--strategy", f"{tmp_path / 'picky.py'}:picky", "--out", out,
               "--no-progress")
    assert r.exit_code == 2
    r = invoke("run", "-n", "500", "-c", "no-tricks", "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output


# ---------------------------------------------------------------- 7: resume with other settings
def test_resume_refuses_flags_that_differ_from_the_run(tmp_path):
    out = tmp_path / "r"
    small_run(out, deals=1000)
    r = invoke("run", "--resume", "--out", out, "--seed", "6", "-n", "2000", "--strategy", "random", "-c", "barbu",
               "-o", "trumps-overtrump=on", "--no-progress")
    assert_clean_error(r, "--seed", "--deals", "--strategy", "--contract", "--option")
    r = invoke("run", "--resume", "--out", out, "--seed", "5", "-n", "1000", "-c", "no-tricks", "-c", "domino",
               "--no-progress")
    assert r.exit_code == 0, r.output


# ---------------------------------------------------------------- 8, 14: the value-table cache
def test_value_table_cache_follows_the_plugins_code(tmp_path):
    from barbu_sim.barbu.game.evaluation import value_table_path
    f = tmp_path / "mine.py"
    f.write_text("from numba import njit\n\n@njit\ndef low(legal, hand, state, rng):\n    return 0\n")
    before = value_table_path([f"{f}:low"] * 4, Rules(), n_hands=4, n_samples=3)
    f.write_text(f.read_text() + "# edited\n")
    after = value_table_path([f"{f}:low"] * 4, Rules(), n_hands=4, n_samples=3)
    assert before != after
    assert value_table_path(["heuristic"] * 4, Rules(), n_hands=4, n_samples=3) == \
        value_table_path(["heuristic"] * 4, Rules(), n_hands=4, n_samples=3)


def test_a_corrupt_value_table_cache_is_rebuilt_with_a_warning(tmp_path):
    from barbu_sim.barbu.game.evaluation import value_table, value_table_path
    path = value_table_path(["random"] * 4, Rules(), n_hands=6, n_samples=4)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json")
    with pytest.warns(UserWarning, match=str(path.name)):
        table = value_table(["random"] * 4, Rules(), n_hands=6, n_samples=4)
    assert table.subset_value.shape == (128,)
    assert json.loads(path.read_text())["n_hands"] == 6


def test_a_manifest_with_missing_keys_is_a_clean_error(tmp_path):
    out = tmp_path / "r"
    small_run(out, deals=1000)
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["config"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert_clean_error(invoke("report", out), "manifest")
    assert_clean_error(invoke("run", "--resume", "--out", out, "--no-progress"), "manifest")


# ---------------------------------------------------------------- 9, 14: verify-games
@pytest.fixture(scope="module")
def game_record(tmp_path_factory):
    d = tmp_path_factory.mktemp("games")
    r = invoke("game", "-n", "2", "--doubling", "always", "--contract-policy", "fixed", "--samples", "10",
               "--out", d / "g", "--no-progress")
    assert r.exit_code == 0, r.output
    return pl.read_parquet(d / "g" / "hands.parquet")


def row_of(df, contract):
    return df.with_row_index().filter(pl.col("contract") == contract)["index"][0]


def set_cell(df, row, column, value):
    return df.with_columns(pl.when(pl.int_range(pl.len()) == row).then(pl.lit(value, dtype=df[column].dtype))
                           .otherwise(pl.col(column)).alias(column))


def verify(tmp_path, df):
    path = tmp_path / "bad.parquet"
    df.write_parquet(path)
    return invoke("verify-games", path)


def test_verify_games_catches_every_impossible_record(tmp_path, game_record):
    df = game_record
    nt = row_of(df, "no-tricks")
    scores = [int(df[c][nt]) for c in ("score_n", "score_e", "score_s", "score_w")]
    odd = df
    # A score no-tricks cannot produce (-3: tricks cost 2 each), with the total kept.
    seat_a, seat_b = (0, 1) if scores[0] <= -2 else (1, 0)
    odd = set_cell(odd, nt, ("score_n", "score_e")[seat_a], scores[seat_a] - 1)
    odd = set_cell(odd, nt, ("score_n", "score_e")[seat_b], scores[seat_b] + 1)
    settled = ["settled_n", "settled_e", "settled_s", "settled_w"]
    cases = [
        (odd, "cannot score"),
        (set_cell(df, nt, "doubles", df["doubles"][nt] + "," + df["doubles"][nt].split(",")[0]), "twice"),
        (set_cell(df, nt, "doubles_on_declarer", int(df["doubles_on_declarer"][nt]) + 1), "doubles_on_declarer"),
        (set_cell(df, row_of(df, "trumps"), "trump", None), "trump"),
        (set_cell(df, nt, "trump", "S"), "trump"),
        (set_cell(df, row_of(df, "domino"), "domino_rank", None), "domino"),
        (df.with_columns(pl.when(pl.col("game") == 1).then(5).otherwise(pl.col("game")).alias("game")), "game"),
        (set_cell(df, 3, "doubles", "garbage"), "not a double"),
        (set_cell(df, 4, settled[0], None), "missing"),
    ]
    for bad, needle in cases:
        assert_clean_error(verify(tmp_path, bad), needle)
    assert invoke("verify-games", tmp_path / "none.parquet").exit_code == 2


def test_verify_games_names_hands_as_the_column_does(tmp_path, game_record):
    df = set_cell(game_record, 9, "settled_n", int(game_record["settled_n"][9]) + 1)
    assert_clean_error(verify(tmp_path, df), "hand 9:")


# ---------------------------------------------------------------- 12: outputs that cannot be written
@pytest.mark.parametrize("command", [
    ["run", "-n", "100", "-c", "barbu", "--no-progress"],
    ["run", "-n", "100", "-c", "barbu", "--force", "--no-progress"],
    ["game", "-n", "1", "--contract-policy", "fixed", "--samples", "4", "--no-progress"],
    ["compare-orders", "--policies", "fixed,myopic", "--blocks", "2", "--games", "0", "--samples", "4"],
])
def test_an_out_that_is_a_file_is_a_clean_error(tmp_path, command):
    f = tmp_path / "a-file"
    f.write_text("keep me")
    assert_clean_error(invoke(*command, "--out", f), str(f))
    assert f.read_text() == "keep me"


def test_plot_out_that_is_a_file_is_a_clean_error(tmp_path):
    small_run(tmp_path / "r", deals=1000)
    f = tmp_path / "a-file"
    f.write_text("keep me")
    assert_clean_error(invoke("plot", tmp_path / "r", "--out", f), str(f))


# ---------------------------------------------------------------- 13, 18: contract-policy plugins
@pytest.mark.parametrize("body,needle", [
    ("return 99", "99"),
    ("return None", "None"),
    ("raise RuntimeError('policy broke')", "policy broke"),
])
def test_broken_contract_policies_are_clean_errors(tmp_path, body, needle):
    f = tmp_path / "pol.py"
    f.write_text(f"def choose(values, remaining):\n    {body}\n")
    r = invoke("game", "-n", "1", "--contract-policy", f"{f}:choose", "--samples", "4", "--no-progress")
    assert_clean_error(r, "pol.py:choose", needle)


def test_contract_policy_with_the_wrong_signature_or_file(tmp_path):
    f = tmp_path / "pol.py"
    f.write_text("def choose(values):\n    return 0\n")
    assert_clean_error(invoke("game", "-n", "1", "--contract-policy", f"{f}:choose", "--samples", "4",
                              "--no-progress"), "pol.py:choose")
    assert_clean_error(invoke("game", "-n", "1", "--contract-policy", f"{tmp_path / 'nofile.py'}:f",
                              "--no-progress"), "contract policy file")


# ---------------------------------------------------------------- 20, 21
def test_report_of_an_incomplete_run_says_so(tmp_path):
    out = tmp_path / "r"
    small_run(out)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest.update(complete=False, deals_done=2000, chunks_done=2)
    manifest["chunks"].pop("000002")
    (out / "manifest.json").write_text(json.dumps(manifest))
    (out / "records" / "part-000002.parquet").unlink()
    r = invoke("report", out)
    assert r.exit_code == 0, r.output
    assert "incomplete" in r.output.lower() and "2,000 of 3,000" in r.output


def test_compare_orders_takes_fixed_orders(tmp_path):
    order = "fixed:domino,trumps,barbu,no-hearts,no-last-two,no-queens,no-tricks"
    r = invoke("compare-orders", "--policies", f"fixed,{order}", "--blocks", "3", "--games", "0", "--samples", "4",
               "--out", tmp_path / "o")
    assert r.exit_code == 0, r.output
    rows = json.loads((tmp_path / "o" / "orders_blocks.json").read_text())
    assert [row["policy"] for row in rows if row["score"] == "raw"] == ["fixed", order]


# ---------------------------------------------------------------- 16: Ctrl-C with a strategy that never returns


@pytest.mark.parametrize("command", [["play", "-c", "no-tricks"], ["run", "-n", "5000", "-c", "no-tricks",
                                                                     "--no-progress"]])
def test_ctrl_c_stops_a_strategy_that_never_returns(tmp_path, command):
    f = tmp_path / "endless.py"
    f.write_text(ENDLESS)
    args = command + ["--strategy", f"{f}:spin"] + (["--out", str(tmp_path / "r")] if command[0] == "run" else [])
    err = ctrl_c_once_entered(args, f)
    assert "Traceback" not in err and "Interrupted" in err


def test_errors_in_a_rules_file_name_the_file(tmp_path):  # 18
    f = tmp_path / "house.toml"
    f.write_text('domino-payout = "50,20,0"\n')
    assert_clean_error(invoke("rules", "--rules", f), "house.toml", "domino-payout")
    f.write_text("trumps-overtrump = \n")
    assert_clean_error(invoke("rules", "--rules", f), "house.toml")
    assert_clean_error(invoke("rules", "--rules", tmp_path / "missing.toml"), "missing.toml")


def test_a_strategy_raising_during_hand_evaluation_is_named_with_its_message(tmp_path):
    import importlib.util

    from barbu_sim.barbu.api import StrategyError, evaluate_hands
    from barbu_sim.barbu.engine.deals import random_deal
    (tmp_path / "picky.py").write_text(RAISING)
    spec = f"{tmp_path / 'picky.py'}:picky"
    hands = [random_deal(2, i)[0] for i in range(4)]
    with pytest.raises(StrategyError, match="no clubs today") as err:
        evaluate_hands(hands, [(0, 0, 0)], ["random", spec, "random", "random"], n_samples=6)
    assert "seat E" in str(err.value) and "hand evaluation" in str(err.value)
    assert importlib.util.find_spec("barbu_sim")  # the package is still importable: nothing was left half-done
