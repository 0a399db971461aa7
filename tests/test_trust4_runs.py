"""Trust, round four (issue 43), run directories: a manifest is read as one checked whole by ``run --resume``,
``report`` and ``plot`` of both games; what a report states is what it verified; no recorded chunk is ever
deleted; a folder that cannot be written is said so.  The number in each test's comment is the item."""

import errno
import json
import os
import shutil

import polars as pl
import pytest

from cli_checks import assert_clean_error, assert_one_line_error, invoke, invoke_read_only
from shared_runs import three_chunk_run


pytestmark = pytest.mark.usefixtures("private_cache")


@pytest.fixture(scope="module")
def barbu_run(tmp_path_factory):
    """A complete Barbu run of 3 chunks of 1,000 deals (no-tricks and barbu)."""
    return three_chunk_run(tmp_path_factory.mktemp("runs") / "b", "no-tricks", "barbu")


@pytest.fixture(scope="module")
def clabber_run(tmp_path_factory):
    """A complete Clabber run of 3 chunks of 1,000 rounds."""
    from barbu_sim.clabber.runs import RunConfig, run
    out = tmp_path_factory.mktemp("runs") / "c"
    run(out, RunConfig(rounds=3000, seed=5, chunk_rounds=1000), progress=False)
    return out


GAMES = {"barbu": ((), "deals"), "clabber": (("clabber",), "rounds")}


@pytest.fixture(params=list(GAMES))
def game(request, barbu_run, clabber_run, tmp_path):
    """(a fresh copy of the game's run, the command prefix, the unit)."""
    src = {"barbu": barbu_run, "clabber": clabber_run}[request.param]
    prefix, unit = GAMES[request.param]
    return shutil.copytree(src, tmp_path / "r"), prefix, unit


def edit(out, change):
    manifest = json.loads((out / "manifest.json").read_text())
    change(manifest)
    (out / "manifest.json").write_text(json.dumps(manifest))


def files_of(out):
    return sorted(p.name for p in (out / "records").iterdir())


def commands(prefix, out):
    return [(*prefix, "report", out), (*prefix, "plot", out),
            (*prefix, "run", "--resume", "--out", out, "--no-progress")]


# ---------------------------------------------------------------- 3: a manifest nested too deeply
def test_a_deeply_nested_manifest_is_a_one_line_error(game):
    out, prefix, _ = game
    (out / "manifest.json").write_text("[" * 200000 + "]" * 200000)
    for args in commands(prefix, out):
        assert_clean_error(invoke(*args), "manifest.json", "nested too deeply")
    # a new run over it: the directory holds a run (it cannot be read as an empty one)
    r = invoke(*prefix, "run", "-n", "10", "--out", out, "--no-progress")
    assert_clean_error(r, "already holds a run")


def test_a_number_past_pythons_digit_limit_in_a_manifest_is_a_one_line_error(game):
    out, prefix, _ = game
    text = (out / "manifest.json").read_text()
    (out / "manifest.json").write_text(text.replace('"seed": ', '"seed": ' + "1" * 5001 + ', "was": ', 1))
    for args in commands(prefix, out):
        assert_clean_error(invoke(*args), "manifest.json", "a number too long to read")


# ---------------------------------------------------------------- 5: whole numbers are ints, in both readers
@pytest.mark.parametrize("value", [1000.0, True, "1000"])
def test_a_chunk_size_that_is_not_an_integer_is_refused_by_resume_and_report(game, value):
    out, prefix, unit = game
    field = f"chunk_{unit}"
    edit(out, lambda m: (m["config"].update({field: value}), m.update(complete=False)))
    before = files_of(out)
    for args in commands(prefix, out):
        assert_clean_error(invoke(*args), f"config.{field}", "integer")
    assert files_of(out) == before


@pytest.mark.parametrize("field", ["seed", "UNIT"])
def test_other_whole_numbers_of_the_config_are_checked_too(game, field):
    out, prefix, unit = game
    field = unit if field == "UNIT" else field
    edit(out, lambda m: m["config"].update({field: float(m["config"][field])}))
    for args in commands(prefix, out):
        assert_clean_error(invoke(*args), f"config.{field}", "integer")


# ---------------------------------------------------------------- 6: a ledger that disagrees with the config
def test_a_config_that_disagrees_with_the_ledger_is_refused_and_no_recorded_chunk_is_deleted(game):
    out, prefix, unit = game
    edit(out, lambda m: (m["config"].update({unit: 2000}), m.update(complete=False)))
    before = files_of(out)
    assert len(before) == 3
    for args in commands(prefix, out):
        r = invoke(*args)
        assert_clean_error(r, "chunk 000002", f"{unit} 2,000", "disagree")
    assert files_of(out) == before  # the ledger's chunks are all still there


def test_counts_that_disagree_with_the_ledger_are_refused_and_resume_recounts_them(game):
    out, prefix, unit = game
    edit(out, lambda m: m.update({f"{unit}_done": 999999}))
    for args in commands(prefix, out)[:2]:
        assert_clean_error(invoke(*args), f"{unit}_done", "999,999", "3,000", "run --resume")
    assert not (out / "report" / "report.md").exists()
    r = invoke(*commands(prefix, out)[2])
    assert r.exit_code == 0 and f"already complete (3,000 {unit})" in r.output, r.output
    assert invoke(*prefix, "report", out).exit_code == 0
    assert f"3,000 {unit}" in (out / "report" / "report.md").read_text()


@pytest.mark.parametrize("key", ["2", "²", "0000002", "00000x"])
def test_a_ledger_key_that_is_not_a_canonical_chunk_number_is_refused(game, key):
    out, prefix, _ = game
    edit(out, lambda m: m["chunks"].update({key: dict(m["chunks"]["000002"])}))
    before = files_of(out)
    for args in commands(prefix, out):
        r = invoke(*args)
        assert_clean_error(r, repr(key), "chunk number")
        assert "invalid literal" not in r.output
    assert files_of(out) == before


def test_a_complete_run_whose_ledger_lacks_a_chunk_is_refused(game):
    out, prefix, unit = game
    edit(out, lambda m: (m["chunks"].pop("000002"), m.update({"chunks_done": 2, f"{unit}_done": 2000})))
    (out / "records" / "part-000002.parquet").unlink()
    for args in commands(prefix, out)[:2]:
        assert_clean_error(invoke(*args), "complete", "2 of its 3 chunks", "run --resume")
    r = invoke(*commands(prefix, out)[2])  # what the report sends the user to: it plays the chunk
    assert r.exit_code == 0 and f"3,000 {unit} in" in r.output, r.output
    assert invoke(*prefix, "report", out).exit_code == 0


# ---------------------------------------------------------------- 8: a report states only what it verified
def test_an_edited_config_is_refused_by_its_stamp(game):
    out, prefix, _ = game
    edit(out, lambda m: m["config"].update(seed=6))
    for args in commands(prefix, out):
        assert_clean_error(invoke(*args), "manifest.json", "stamp", "edited")


def test_rules_edited_into_the_manifest_are_refused(barbu_run, tmp_path):
    out = shutil.copytree(barbu_run, tmp_path / "r")
    edit(out, lambda m: m["config"]["rules"].update({"barbu-king": -30}))
    for args in commands((), out):
        assert_clean_error(invoke(*args), "stamp")
    # without the stamp (as a run of an older barbu-sim has none), the records still give the rules away
    edit(out, lambda m: m.pop("settings_sha256"))
    for args in commands((), out)[:2]:
        assert_clean_error(invoke(*args), "barbu", "-20", "-30", "records")
    assert not (out / "report" / "report.md").exists()


def test_the_report_counts_come_from_the_records(barbu_run, tmp_path):
    out = shutil.copytree(barbu_run, tmp_path / "r")
    r = invoke("report", out)
    assert r.exit_code == 0, r.output
    assert "3,000 deals" in (out / "report" / "report.md").read_text()


# ---------------------------------------------------------------- 15: the Trumps tables and chart say what they hold
def test_the_trumps_table_names_the_policy_and_the_edge_table_says_why_trumps_is_not_there(tmp_path):
    out = tmp_path / "q"
    assert invoke("run", "-n", "300", "-c", "trumps", "-c", "barbu", "--out", out, "--no-progress").exit_code == 0
    r = invoke("report", out)
    assert r.exit_code == 0, r.output
    trumps = json.loads((out / "report" / "trumps.json").read_text())
    assert {row["trump"] for row in trumps} == {"longest"}
    md = (out / "report" / "report.md").read_text()
    trumps_md = md.split("## Trumps")[1].split("##")[0]
    for text in (r.output, md):
        assert "Trumps is not in this table" in text and "named by the longest policy" in text
    for text in (r.output, trumps_md):
        assert "null" not in text and "longest" in text


def test_the_contract_chart_does_not_pool_trump_suits_with_policies(tmp_path):
    from barbu_sim.barbu.analytics.plots import plot_contract_scores
    from barbu_sim.barbu.analytics.report import build_tables
    from barbu_sim.core.charts import plt
    out = tmp_path / "s"
    r = invoke("run", "-n", "300", "-c", "trumps", "-c", "barbu", "--trump", "each,longest", "--out", out,
               "--no-progress")
    assert r.exit_code == 0, r.output
    tables = build_tables(out)
    fig = plot_contract_scores(tables["choice_scores"])
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels[0] == "barbu"
    assert any("longest" in label for label in labels) and any("fixed" in label for label in labels)
    assert "trumps" not in labels  # never the suits and the policy pooled as one bar
    # the longest suit's bar is the declarer's edge the report shows for it
    policy = tables["policies"].filter((pl.col("contract") == "trumps") & (pl.col("rel_seat") == "declarer"))
    heights = [round(p.get_height(), 6) for c in ax.containers for p in getattr(c, "patches", [])]
    assert round(policy["mean"][0], 6) in heights
    plt.close(fig)
    r = invoke("plot", out)
    assert r.exit_code == 0, r.output


# ---------------------------------------------------------------- 17: the probe, a read-only run, records as a file
def test_the_probe_is_removed_when_its_write_fails(tmp_path, monkeypatch):
    from barbu_sim.core import files
    real_open = open

    class Full:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def write(self, data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files, "open", lambda path, mode="r", *a, **k: Full(real_open(path, mode, *a, **k)),
                        raising=False)
    with pytest.raises(files.OutputError, match="No space left"):
        files.ensure_writable(tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("flag", ["--force", "--resume"])
def test_a_read_only_run_directory_is_said_so_not_sent_to_resume(game, monkeypatch, flag):
    out, prefix, unit = game
    before = files_of(out)
    args = (*prefix, "run", *(["-n", "3000"] if flag == "--force" else []), flag, "--out", out, "--no-progress")
    r = invoke_read_only(out, monkeypatch, *args)
    assert_clean_error(r, str(out), "cannot be written", code=1)
    assert "finish the run" not in r.output
    assert files_of(out) == before and (out / "manifest.json").exists()


def test_records_that_are_a_file_are_a_one_line_error(game):
    out, prefix, _ = game
    shutil.rmtree(out / "records")
    (out / "records").write_text("not a folder")
    for args in commands(prefix, out):
        assert_clean_error(invoke(*args), "records", "not a folder")
    assert (out / "records").read_text() == "not a folder"


# ---------------------------------------------------------------- round four's retest
# 1: a config edited to a fraction of a one-chunk run: the rows a chunk holds follow from the config alone
@pytest.mark.parametrize("name", list(GAMES))
def test_a_config_edited_to_halve_a_one_chunk_run_is_refused_and_resume_keeps_the_counts(name, tmp_path):
    prefix, unit = GAMES[name]
    out = tmp_path / "one"
    contracts = ("-c", "no-tricks", "-c", "barbu") if name == "barbu" else ()
    r = invoke(*prefix, "run", "-n", "200", *contracts, "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    assert files_of(out) == ["part-000000.parquet"]
    edit(out, lambda m: (m.pop("settings_sha256"), m["config"].update({unit: 100})))
    before = (out / "manifest.json").read_text()
    for args in commands(prefix, out):
        r = invoke(*args)
        assert_clean_error(r, "ledger", "chunk 000000", f"{unit} 100", "disagree")
        assert "already complete" not in r.output and "run --resume" not in r.output
    assert (out / "manifest.json").read_text() == before  # --resume never rewrites the counts to the edit
    assert files_of(out) == ["part-000000.parquet"]


def test_a_barbu_manifest_whose_configs_were_cut_is_refused(tmp_path):
    out = tmp_path / "one"
    assert invoke("run", "-n", "200", "-c", "no-tricks", "-c", "barbu", "--out", out, "--no-progress").exit_code == 0
    edit(out, lambda m: (m.pop("settings_sha256"), m["configs"].pop()))
    for args in commands((), out):
        assert_clean_error(invoke(*args), "ledger", "1 configuration", "disagree")


# 2: the first table leaves the cells that do not apply empty, and says why Trumps is not there
def test_the_first_report_table_writes_no_null_and_says_why_trumps_is_not_there(tmp_path):
    out = tmp_path / "q"
    r = invoke("run", "-n", "300", "-c", "trumps", "-c", "barbu", "-c", "domino", "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    assert invoke("report", out).exit_code == 0
    md = (out / "report" / "report.md").read_text()
    first = md.split("## Expected raw score per contract, trump suit")[1].split("\n## ")[0]
    assert "null" not in first and "| barbu " in first and "—" in first
    assert "Trumps is not in this table" in first and "named by the longest policy" in first
    assert "null" not in md
    # the CSV and JSON, for tools, keep their nulls
    assert json.loads((out / "report" / "expected_scores.json").read_text())[0]["trump"] is None


def test_a_null_cell_is_a_dash_in_markdown_and_in_the_terminal():
    from barbu_sim.core.tables import terminal_table, to_markdown
    df = pl.DataFrame({"contract": ["barbu", "domino"], "domino_rank": [None, "7"], "mean": [1.5, None]})
    for text in (to_markdown(df), terminal_table(df)):
        assert "null" not in text and text.count("—") == 2 and "1.5" in text


@pytest.mark.parametrize("name", list(GAMES))
def test_the_terminal_tables_of_both_games_write_no_null(name, barbu_run, clabber_run):
    if name == "barbu":
        from barbu_sim.barbu.analytics.report import build_tables, terminal_summary
    else:
        from barbu_sim.clabber.analytics.report import build_tables, terminal_summary
    tables = build_tables({"barbu": barbu_run, "clabber": clabber_run}[name])
    shown = "contract_scores" if name == "barbu" else "clabber_scores"  # the first table each prints
    column = tables[shown].columns[0]
    tables[shown] = tables[shown].with_columns(pl.when(pl.int_range(pl.len()) == 0).then(None)
                                               .otherwise(pl.col(column).cast(pl.String)).alias(column))
    summary = terminal_summary(tables)
    assert "null" not in summary and "—" in summary


# 3: a read-only run: the tables still printed, one line on the files, no temporary name nor "(os error N)"
def test_an_output_error_from_polars_gives_the_reason_alone():
    from barbu_sim.core.files import OutputError
    e = OutputError("r/report/x.csv", "the run's report",
                    OSError("Read-only file system (os error 30): r/report/.x.21862-56d810e4.tmp.csv"))
    assert str(e) == "cannot write r/report/x.csv (the run's report): Read-only file system"
    e = OutputError("r/p.parquet", "", pl.exceptions.ComputeError("No space left on device (os error 28)"))
    assert str(e) == "cannot write r/p.parquet: No space left on device"


def report_title(prefix):
    return "Each team's score, part by part" if prefix else "Expected raw score per contract and seat"


def test_report_of_a_read_only_run_prints_its_tables_then_one_line(game, monkeypatch):
    out, prefix, _ = game
    r = invoke_read_only(out / "report", monkeypatch, *prefix, "report", out)
    assert_clean_error(r, f"cannot write {out / 'report'} (the run's report)", "no report file was written", code=1)
    assert report_title(prefix) in r.output  # the tables came first
    assert list((out / "report").iterdir()) == []


def test_report_on_a_disk_filling_inside_polars_names_no_temporary_file(game, monkeypatch):
    out, prefix, _ = game

    def full(self, path, *args, **kwargs):
        raise OSError(f"No space left on device (os error 28): {path}")

    monkeypatch.setattr(pl.DataFrame, "write_csv", full)
    r = invoke(*prefix, "report", out)
    assert_clean_error(r, "cannot write", "No space left on device", "no report file was written", code=1)
    assert ".tmp" not in r.output and "os error" not in r.output
    assert report_title(prefix) in r.output


def test_plot_of_a_read_only_run_names_the_charts(game, monkeypatch):
    out, prefix, _ = game
    r = invoke_read_only(out / "plots", monkeypatch, *prefix, "plot", out)
    assert_clean_error(r, f"cannot write {out / 'plots'} (the charts)", code=1)
    assert list((out / "plots").iterdir()) == []


def test_resume_refuses_a_barbu_config_whose_contracts_are_not_its_configs(barbu_run, tmp_path):
    out = shutil.copytree(barbu_run, tmp_path / "r")
    edit(out, lambda m: (m.pop("settings_sha256"), m["config"].update(contracts=["no-tricks", "no-queens"])))
    before = (out / "manifest.json").read_text()
    assert_clean_error(invoke("run", "--resume", "--out", out, "--no-progress"), "configs", "disagree")
    assert (out / "manifest.json").read_text() == before and len(files_of(out)) == 3


@pytest.mark.parametrize("command", [("run", "-n", "10"), ("clabber", "run", "-n", "10"), ("game",)])
def test_an_out_folder_under_a_file_is_the_users_mistake(tmp_path, command):
    (tmp_path / "afile").write_text("a file")
    r = invoke(*command, "--out", tmp_path / "afile" / "x")
    assert_one_line_error(r, "afile is a file, not a folder")
    assert "Permission denied" not in r.output and (tmp_path / "afile").read_text() == "a file"
