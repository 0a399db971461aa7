"""Hardening, round two (issue 19): one snapshot per report, atomic outputs, no silent coercion,
no traceback on a full disk.  The number in each test's comment is the item it pins down."""

import errno
import json
import os

import polars as pl
import pytest

from barbu_sim.core import runs as runs_module
from barbu_sim.core.runs import lock_run
from cli_checks import assert_clean_error, invoke, invoke_read_only, read_only
from shared_runs import three_chunk_run


pytestmark = pytest.mark.usefixtures("private_cache")


@pytest.fixture(scope="module")
def three_chunks(tmp_path_factory):
    """A complete run of 3 chunks of 1,000 deals (no-tricks and domino)."""
    return three_chunk_run(tmp_path_factory.mktemp("runs") / "r", "no-tricks", "domino")


def copy_run(src, dst):
    import shutil
    shutil.copytree(src, dst)
    return dst


def cut_manifest(out, chunks: int):
    """The manifest as the writer leaves it after ``chunks`` chunks (the later chunk files stay on disk)."""
    manifest = json.loads((out / "manifest.json").read_text())
    manifest.update(complete=False, deals_done=1000 * chunks, chunks_done=chunks)
    manifest["chunks"] = {k: v for k, v in manifest["chunks"].items() if int(k) < chunks}
    return manifest


def expected_n(out):
    table = pl.read_csv(out / "report" / "expected_scores.csv")
    return set(table["n"].to_list())


# ---------------------------------------------------------------- 1: one snapshot per report
def test_report_of_a_run_being_written_reads_exactly_the_chunks_of_one_manifest(tmp_path, three_chunks):
    out = copy_run(three_chunks, tmp_path / "r")
    (out / "manifest.json").write_text(json.dumps(cut_manifest(out, 1)))  # chunks 1, 2 on disk, not yet recorded
    with lock_run(out):  # the writer holds the lock
        r = invoke("report", out)
    assert r.exit_code == 0, r.output
    assert expected_n(out) == {1000}
    md = (out / "report" / "report.md").read_text()
    for text in (r.output, md):
        assert "still being written" in text and "1,000 of 3,000 deals" in text, text


def test_report_reads_the_manifest_once_while_the_writer_moves_on(tmp_path, three_chunks, monkeypatch):
    out = copy_run(three_chunks, tmp_path / "r")
    (out / "manifest.json").write_text(json.dumps(cut_manifest(out, 1)))
    later = cut_manifest(out, 2)
    real = runs_module.read_manifest

    def read_then_write_on(run_dir, unit=None):  # the writer records a chunk after each reading
        manifest = real(run_dir, unit)
        (out / "manifest.json").write_text(json.dumps(later))
        return manifest

    monkeypatch.setattr(runs_module, "read_manifest", read_then_write_on)
    with lock_run(out):
        r = invoke("report", out)
    assert r.exit_code == 0, r.output
    assert expected_n(out) == {1000}
    assert "1,000 of 3,000 deals" in (out / "report" / "report.md").read_text()
    assert "2,000" not in r.output


# ---------------------------------------------------------------- 3, 7, 13: a failed write keeps the old output
def full_disk(monkeypatch, after: int = 0):
    """Every write of a temporary output file after the first ``after`` fails with ENOSPC."""
    from barbu_sim.core import files as files_module
    real = files_module.temporary_path
    count = {"n": 0}

    def failing(path):
        count["n"] += 1
        if count["n"] > after:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(path)

    monkeypatch.setattr(files_module, "temporary_path", failing)


def test_a_report_on_a_full_disk_keeps_the_old_report_whole(tmp_path, three_chunks, monkeypatch):
    out = copy_run(three_chunks, tmp_path / "r")
    assert invoke("report", out).exit_code == 0
    before = {p.name: p.read_bytes() for p in (out / "report").iterdir()}
    (out / "manifest.json").write_text(json.dumps(cut_manifest(out, 1)))
    (out / "records" / "part-000001.parquet").unlink()
    (out / "records" / "part-000002.parquet").unlink()
    full_disk(monkeypatch, after=5)
    r = invoke("report", out)
    assert_clean_error(r, "No space left on device", "report", code=1)
    assert {p.name: p.read_bytes() for p in (out / "report").iterdir()} == before  # not half old, half new


@pytest.mark.parametrize("args,names", [
    (("game", "-n", "1", "--samples", "4", "--no-progress"), {"hands.parquet", "summary.json"}),
    (("clabber", "game", "-n", "2"), {"games.parquet", "summary.json"}),
])
def test_game_out_on_a_full_disk_keeps_the_earlier_output(tmp_path, monkeypatch, args, names):
    out = tmp_path / "g"
    args = (*args, "--out", out)
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert set(before) == names
    full_disk(monkeypatch, after=1)  # the second file fails: the first must not replace its old version
    r = invoke(*args[:-1], out)
    assert_clean_error(r, "No space left on device", str(out), code=1)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_every_output_is_written_under_a_temporary_name_and_renamed(tmp_path, three_chunks, monkeypatch):
    out = copy_run(three_chunks, tmp_path / "r")
    renamed = []
    real = os.replace

    def spy(src, dst):
        renamed.append((os.path.basename(str(src)), os.path.basename(str(dst))))
        return real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    assert invoke("report", out).exit_code == 0
    assert invoke("plot", out).exit_code == 0
    targets = {dst for _, dst in renamed}
    written = {p.name for p in (out / "report").iterdir()} | {p.name for p in (out / "plots").iterdir()}
    assert "report.md" in written and "contract_scores.png" in written
    assert written <= targets, written - targets
    assert all(src.startswith(".") and ".tmp" in src for src, dst in renamed if dst in written)


def test_a_full_disk_while_running_is_a_one_line_error_and_resume_finishes(tmp_path, monkeypatch):
    args = ("run", "-n", "3000", "--seed", "5", "-c", "no-tricks", "-c", "domino", "--no-progress", "--out")
    assert invoke(*args, tmp_path / "whole").exit_code == 0
    out = tmp_path / "r"
    real = type(out).write_bytes
    calls = {"n": 0}

    def write_bytes(self, data):
        calls["n"] += 1
        if calls["n"] == 1:
            self.write_text("partial")  # the disk fills part-way through the chunk
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(self, data)

    monkeypatch.setattr(type(out), "write_bytes", write_bytes)
    r = invoke(*args, out)
    assert_clean_error(r, "part-000000.parquet", "No space left on device", "--resume", code=1)
    assert not list((out / "records").iterdir())  # no partial chunk, under any name
    monkeypatch.undo()
    r = invoke("run", "--resume", "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    assert [p.read_bytes() for p in sorted((out / "records").iterdir())] == \
        [p.read_bytes() for p in sorted((tmp_path / "whole" / "records").iterdir())]


# ---------------------------------------------------------------- 10: a damaged chunk ledger
@pytest.mark.parametrize("damage,field", [
    (lambda m: m["chunks"]["000000"].pop("bytes"), "chunks.000000.bytes"),
    (lambda m: m.update(chunks=[1]), "chunks"),
    (lambda m: m["chunks"].update({"000001": "x"}), "chunks.000001"),
    (lambda m: m.update(deals_done="3000"), "deals_done"),
])
def test_a_damaged_manifest_is_named_by_its_field(tmp_path, three_chunks, damage, field):
    out = copy_run(three_chunks, tmp_path / "r")
    manifest = json.loads((out / "manifest.json").read_text())
    damage(manifest)
    (out / "manifest.json").write_text(json.dumps(manifest))
    for args in (("report", out), ("run", "--resume", "--out", out, "--no-progress")):
        assert_clean_error(invoke(*args), f"field {field}", "manifest.json")


# ---------------------------------------------------------------- 8: an unwritable --out is said before the work
@pytest.mark.parametrize("args", [
    ("clabber", "game", "-n", "1"),
    ("game", "-n", "1", "--samples", "4", "--no-progress"),
])
def test_an_unwritable_out_is_refused_before_any_game_is_played(tmp_path, monkeypatch, args):
    import barbu_sim.barbu.game.game_runs as barbu_io
    import barbu_sim.clabber.game.game as clabber_game
    out = tmp_path / "ro"
    read_only(out, monkeypatch)
    played = []
    monkeypatch.setattr(barbu_io, "play_games_chunk", lambda *a: played.append(a))
    monkeypatch.setattr(clabber_game, "play_games_chunk", lambda *a: played.append(a))
    try:
        r = invoke(*args, "--out", out)
    finally:
        out.chmod(0o755)
    assert_clean_error(r, str(out), code=1)
    assert not played


# ---------------------------------------------------------------- 4, 14: rule files are typed, and named
@pytest.mark.parametrize("line,option,expected", [
    ("domino-payout = [1.5, 2, 3, 4]", "domino-payout", "a list of four integers"),
    ("domino-payout = [true, false, 0, 0]", "domino-payout", "a list of four integers"),
    ("trumps-overtrump = 1", "trumps-overtrump", "true or false"),
    ('trumps-overtrump = "on"', "trumps-overtrump", "true or false"),
    ("trumps-void = 2", "trumps-void", "a string"),
])
def test_a_rules_file_with_a_wrong_type_is_refused(tmp_path, line, option, expected):
    f = tmp_path / "bad.toml"
    f.write_text(line + "\n")
    assert_clean_error(invoke("rules", "--rules", f), "bad.toml", option, expected)


def test_a_float_payout_is_not_truncated_by_the_library_either():
    from barbu_sim.barbu.rules import Rules
    with pytest.raises(ValueError, match="domino-payout"):
        Rules(domino_payout=(1.5, 2, 3, 4))
    with pytest.raises(ValueError, match="domino-payout"):
        Rules(domino_payout=(True, False, 0, 0))
    assert Rules(domino_payout=(1, 2, 3, 4)).domino_payout == (1, 2, 3, 4)


def test_a_rules_file_that_is_not_utf8_is_named(tmp_path):
    f = tmp_path / "latin.toml"
    f.write_bytes(b'trumps-void = "free" # \xff\n')
    assert_clean_error(invoke("rules", "--rules", f), "latin.toml", "UTF-8")


# ---------------------------------------------------------------- 6: no float option takes nan or inf
@pytest.mark.parametrize("args", [
    ("advise", "T98.765.AK32.QJ2", "--double", "barbu", "--seat", "E", "--margin", "nan", "--samples", "4"),
    ("advise", "T98.765.AK32.QJ2", "--double", "barbu", "--seat", "E", "--margin", "inf", "--samples", "4"),
    ("advise", "T98.765.AK32.QJ2", "--doubling", "threshold:nan", "--samples", "4"),
    ("game", "-n", "1", "--doubling", "bayes:-inf", "--samples", "4", "--no-progress"),
])
def test_nan_and_inf_are_refused(args):
    assert_clean_error(invoke(*args), "finite")


# ---------------------------------------------------------------- 12: --resume with --force
@pytest.mark.parametrize("prefix", [(), ("clabber",)])
def test_resume_with_force_is_refused(tmp_path, three_chunks, prefix):
    r = invoke(*prefix, "run", "--resume", "--force", "--out", three_chunks, "--no-progress")
    assert_clean_error(r, "--resume", "--force")
    assert json.loads((three_chunks / "manifest.json").read_text())["complete"]


# ---------------------------------------------------------------- 5, 15: verify-games checks types and names places
@pytest.fixture(scope="module")
def game_record(tmp_path_factory):
    d = tmp_path_factory.mktemp("games")
    r = invoke("game", "-n", "1", "--contract-policy", "fixed", "--samples", "4", "--out", d / "g", "--no-progress")
    assert r.exit_code == 0, r.output
    df = pl.read_parquet(d / "g" / "hands.parquet")
    assert df.height == 28
    return df


def verify(tmp_path, df):
    path = tmp_path / "bad.parquet"
    df.write_parquet(path)
    return invoke("verify-games", path)


def test_verify_games_accepts_the_good_record(tmp_path, game_record):
    r = verify(tmp_path, game_record)
    assert r.exit_code == 0 and "1 game(s)" in r.output, r.output


def half_points(df):
    """+0.5 on one seat and -0.5 on another of hand 3: the totals still add up."""
    bump = pl.when(pl.int_range(pl.len()) == 3)
    return df.with_columns(
        (pl.col("score_n").cast(pl.Float64) + bump.then(0.5).otherwise(0.0)).alias("score_n"),
        (pl.col("score_e").cast(pl.Float64) - bump.then(0.5).otherwise(0.0)).alias("score_e"))


@pytest.mark.parametrize("change,needles", [
    (half_points, ["column score_n", "integers", ".5 in game 0, hand 3"]),
    (lambda df: df.with_columns(pl.col("declarer").cast(pl.Float64) + 0.4), ["column declarer", "integers"]),
    (lambda df: df.with_columns(pl.col("game").cast(pl.String)), ["column game", "integers"]),
    (lambda df: df.with_columns(pl.lit("x").alias("doubles_on_declarer")), ["column doubles_on_declarer", "'x'"]),
    (lambda df: df.head(0), ["no hands"]),
    (lambda df: df.with_columns(pl.when(pl.col("hand") == 5).then(28).otherwise(pl.col("hand")).alias("hand")),
     ["hand 5 is missing", "has 28 instead"]),
])
def test_verify_games_refuses_what_cannot_be_and_says_where(tmp_path, game_record, change, needles):
    assert_clean_error(verify(tmp_path, change(game_record)), *needles)


# ---------------------------------------------------------------- 19: caches write through unique temporary names
def spy_replace(monkeypatch):
    sources = []
    real = os.replace

    def spy(src, dst):
        sources.append((str(src), str(dst)))
        return real(src, dst)
    monkeypatch.setattr(os, "replace", spy)
    return sources


def test_the_settled_dp_cache_writes_through_a_unique_temporary_name(tmp_path, monkeypatch):
    import numpy as np

    from barbu_sim.barbu.game import settled

    class Policy:
        def cache_name(self):
            return "always"

    class Table:
        grid_mean = np.arange(6.0)
        seat_values = None

    values = np.ones((settled.N_SUBSETS, settled.N_OWED))
    monkeypatch.setattr(settled, "settled_block_values", lambda *a: values)
    sources = spy_replace(monkeypatch)
    path = settled.block_values_path(Table(), [Policy()] * 3, Policy(), tmp_path)
    for _ in range(2):  # two processes (or calls) filling the same cache file
        path.unlink(missing_ok=True)
        assert (settled.cached_block_values(Table(), [Policy()] * 3, Policy(), tmp_path) == values).all()
    temporaries = [src for src, dst in sources if dst == str(path)]
    assert len(temporaries) == 2 and len(set(temporaries)) == 2, temporaries
    assert all(os.path.dirname(t) == str(tmp_path) and str(os.getpid()) in t for t in temporaries)
    assert (np.load(path) == values).all()


def test_the_value_table_cache_writes_through_a_unique_temporary_name(tmp_path, monkeypatch):
    from barbu_sim.barbu.game.evaluation import value_table, value_table_path
    from barbu_sim.barbu.rules import Rules
    sources = spy_replace(monkeypatch)
    path = value_table_path(["random"] * 4, Rules(), n_hands=6, n_samples=4)
    for _ in range(2):
        path.unlink(missing_ok=True)
        value_table(["random"] * 4, Rules(), n_hands=6, n_samples=4)
    temporaries = [src for src, dst in sources if dst == str(path)]
    assert len(temporaries) == 2 and len(set(temporaries)) == 2, temporaries
    assert json.loads(path.read_text())["n_hands"] == 6


# ---------------------------------------------------------------- 13: OS errors name the path and what was written
def test_plot_into_a_read_only_folder_names_it(tmp_path, three_chunks, monkeypatch):
    charts = tmp_path / "charts"
    r = invoke_read_only(charts, monkeypatch, "plot", three_chunks, "--out", charts)
    assert_clean_error(r, str(charts), code=1)
    assert "Errno" not in r.output


# ---------------------------------------------------------------- 11: clabber report says a run is incomplete
def test_clabber_report_of_a_killed_run_says_so_in_the_terminal(tmp_path):
    from barbu_sim.clabber.runs import RunConfig as ClabberConfig, run as clabber_run
    out = tmp_path / "c"
    clabber_run(out, ClabberConfig(rounds=6000, chunk_rounds=1000), progress=False)
    manifest = json.loads((out / "manifest.json").read_text())
    # as a run killed half-way leaves it: three chunks recorded, the manifest's counts with them
    manifest.update(complete=False, rounds_done=3000, chunks_done=3)
    manifest["chunks"] = {k: v for k, v in manifest["chunks"].items() if int(k) < 3}
    for k in range(3, 6):
        (out / "records" / f"part-{k:06d}.parquet").unlink()
    (out / "manifest.json").write_text(json.dumps(manifest))
    r = invoke("clabber", "report", out)
    assert r.exit_code == 0, r.output
    note = "Run incomplete: 3,000 of 6,000 rounds; finish it with: barbu-sim clabber run --resume"
    assert r.output.count(note) == 2, r.output  # before the tables and after them
    assert note in (out / "report" / "report.md").read_text()


# ---------------------------------------------------------------- 2: the value-table cache follows imported helpers
def test_the_value_table_cache_key_follows_the_modules_a_plugin_imports(tmp_path, monkeypatch):
    from barbu_sim.barbu.game.evaluation import value_table_path
    from barbu_sim.barbu.rules import Rules
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "deeper_helper.py").write_text("SHIFT = 0\n")
    (tmp_path / "helper_mod.py").write_text("import os\nfrom deeper_helper import SHIFT\nLOW = 0\n")
    plugin = tmp_path / "usehelper.py"
    plugin.write_text("import numpy as np\nfrom numba import njit\nimport helper_mod\n\n"
                      "@njit\ndef s(legal, hand, state, rng):\n    return helper_mod.LOW\n")
    spec = [f"{plugin}:s"] * 4

    def key():
        return value_table_path(spec, Rules(), n_hands=4, n_samples=3)

    first = key()
    assert key() == first  # stable while nothing changes
    (tmp_path / "helper_mod.py").write_text("import os\nfrom deeper_helper import SHIFT\nLOW = 1\n")
    second = key()
    assert second != first
    (tmp_path / "deeper_helper.py").write_text("SHIFT = 2\n")
    assert key() not in (first, second)
    from barbu_sim.core.codestamp import user_module_files
    assert [p.name for p in user_module_files(plugin)] == ["usehelper.py", "deeper_helper.py", "helper_mod.py"]


# ---------------------------------------------------------------- 18: which Ray cluster a run joined
class FakeRay:
    """Just enough of ``ray`` to see how a backend connects: no cluster is started."""

    def __init__(self, gcs_address):
        self.inits, self.gcs_address = [], gcs_address

    def is_initialized(self):
        return bool(self.inits)

    def init(self, address=None, **kwargs):
        self.inits.append(address)

    def get_runtime_context(self):
        return type("Context", (), {"gcs_address": self.gcs_address})()

    def remote(self, fn):
        return type("Remote", (), {"options": lambda self, **kw: self})()


@pytest.mark.parametrize("address,asked,shown", [
    (None, "local", "a new local instance at 127.0.0.1:6380"),  # never whatever cluster happens to run here
    ("auto", "auto", "joined the cluster at 10.1.2.3:6379, from --ray-address auto"),
])
def test_a_ray_backend_names_the_cluster_it_joined(monkeypatch, address, asked, shown):
    from barbu_sim.core import backends
    fake = FakeRay("127.0.0.1:6380" if address is None else "10.1.2.3:6379")
    monkeypatch.setattr(backends, "import_ray", lambda: fake)
    backend = backends.RayBackend(address)
    backend.connect()
    assert fake.inits == [asked]
    assert backend.describe() == f"ray ({shown})"


def test_a_run_records_the_cluster_in_its_manifest(tmp_path, monkeypatch):
    from barbu_sim.core import backends
    from barbu_sim.core.runs import fill_chunks, start_run
    monkeypatch.setattr(backends, "import_ray", lambda: FakeRay("10.1.2.3:6379"))
    backend = backends.RayBackend("auto")
    monkeypatch.setattr(backend, "imap_chunks", lambda play, merge, items, what="chunk": (
        merge([play(lo, n)]) for lo, n in items))
    manifest = start_run(tmp_path / "r", 1, {"config": {}}, unit="items")
    fill_chunks(tmp_path / "r", manifest, 4, 2, lambda lo, n: pl.DataFrame({"i": list(range(lo, lo + n))}),
                unit="items", progress=False, backend=backend)
    stored = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert stored["backend"] == "ray (joined the cluster at 10.1.2.3:6379, from --ray-address auto)"
    assert stored["complete"] and stored["items_done"] == 4


# ---------------------------------------------------------------- 9, 17: plugins that misplay or always raise
MISBEHAVING = '''
from numba import njit


@njit
def big(legal, hand, state, rng):
    return 200


@njit
def always(legal, hand, state, rng):
    raise ValueError("never in the mood")
'''


def test_clabber_play_prints_a_round_ended_by_a_misplaying_plugin(tmp_path):
    (tmp_path / "illegal.py").write_text(MISBEHAVING)
    r = invoke("clabber", "play", "--seat-strategy", f"E={tmp_path / 'illegal.py'}:big", "--bidding", "accept-first",
               "-o", "misplay=penalty")
    assert r.exit_code == 0, r.output
    assert "Misplay by East" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("prefix", [(), ("clabber",)])
def test_a_plugin_that_always_raises_is_reported_with_its_exception(tmp_path, prefix):
    (tmp_path / "illegal.py").write_text(MISBEHAVING)
    r = invoke(*prefix, "play", "--seat-strategy", f"E={tmp_path / 'illegal.py'}:always")
    assert_clean_error(r, "always", "ValueError: never in the mood")
    assert "does not compile" not in r.output


def test_a_writer_failing_inside_polars_keeps_the_old_set(tmp_path):
    from barbu_sim.core.files import OutputError, replace_set
    (tmp_path / "a.json").write_text("old a")
    (tmp_path / "b.parquet").write_text("old b")

    def full(path):
        path.write_bytes(b"x" * 100)  # part-way through
        raise pl.exceptions.ComputeError("No space left on device (os error 28)")

    with pytest.raises(OutputError, match=r"b\.parquet.*No space left on device"):
        replace_set({tmp_path / "a.json": lambda p: p.write_text("new a"), tmp_path / "b.parquet": full})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.parquet"]  # no temporary file left
    assert (tmp_path / "a.json").read_text() == "old a" and (tmp_path / "b.parquet").read_text() == "old b"


def test_a_full_disk_when_taking_the_run_lock_is_a_one_line_error(tmp_path, monkeypatch):
    from barbu_sim.core import runs
    real = os.write

    def write(fd, data):
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".lock"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(runs.os, "write", write)
    r = invoke("clabber", "run", "-n", "100", "--out", tmp_path / "c", "--no-progress")
    assert_clean_error(r, ".lock", "No space left on device", "once that is fixed, run the command again", code=1)


@pytest.mark.parametrize("prefix", [(), ("clabber",)])
def test_a_run_into_a_read_only_folder_is_an_environment_error_naming_it(tmp_path, monkeypatch, prefix):
    from barbu_sim.core import runs
    out = tmp_path / "ro"
    out.mkdir()
    real = os.open

    def refuse(path, *args, **kwargs):
        if str(path).startswith(str(out)):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(runs.os, "open", refuse)
    r = invoke(*prefix, "run", "-n", "100", "--out", out, "--no-progress")
    assert_clean_error(r, str(out), "Read-only file system", code=1)
