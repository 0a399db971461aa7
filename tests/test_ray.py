"""The Ray backend: the same files and tables as the local backend, retried tasks, resume after a killed driver.

One local Ray instance with 2 CPUs serves the whole module.  The tests that need Ray
skip when it is not installed; the CLI's answer without Ray is tested either way.
"""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from functools import partial
from pathlib import Path

import pytest
from typer.testing import CliRunner

from barbu_sim.cli import app
from barbu_sim.core.backends import BackendError, LocalBackend, make_backend
from barbu_sim.core.runs import fill_chunks, start_run

try:
    import ray
except ImportError:  # the suite without the [ray] extra
    ray = None

ROOT = Path(__file__).resolve().parent.parent
needs_ray = pytest.mark.skipif(ray is None, reason='Ray is not installed (pip install -e ".[ray]")')
runner = CliRunner()


@pytest.fixture(scope="module")
def cluster(ray_instance):
    """The worker's local Ray instance (2 CPUs; see conftest's ``ray_instance``), as a backend."""
    from barbu_sim.core.backends import RayBackend

    # Functions of this module travel to the workers by value (tests/ is not a package), also on an instance an
    # earlier test of this process started (a study run with --backend ray): by reference they would not load there.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    yield RayBackend()


def ledger(run_dir) -> dict:
    """The manifest's record of every chunk: rows, bytes and sha256 of each file."""
    return json.loads((Path(run_dir) / "manifest.json").read_text())["chunks"]


def report_files(run_dir) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((Path(run_dir) / "report").iterdir())}


# ------------------------------------------------------------------ without Ray
def test_ray_backend_without_ray_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    result = runner.invoke(app, ["clabber", "run", "-n", "100", "--backend", "ray", "--out", str(tmp_path / "r")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == \
        'Error: --backend ray needs Ray, which is not installed: pip install -e ".[ray]"'
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("args, message", [
    (["--backend", "spark"], "--backend must be one of local, ray, not 'spark'"),
    (["--ray-address", "auto"], "--ray-address goes with --backend ray"),
])
def test_backend_flags_are_checked(args, message, tmp_path):
    result = runner.invoke(app, ["run", "-n", "100", "--out", str(tmp_path / "r"), *args])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == f"Error: {message}"


def test_local_backend_keeps_order():
    assert list(LocalBackend().imap(lambda a, b: a * b, [(1, 2), (3, 4)])) == [2, 12]
    with pytest.raises(BackendError):
        make_backend("local", "10.0.0.1:6379")


def test_a_chunk_played_in_parts_encodes_as_the_whole():
    # The Parquet writer cuts pages where a frame's memory chunks end: parts must be made contiguous.
    import numpy as np
    import polars as pl

    from barbu_sim.core.runs import encode_frame, encode_parts
    n = 300_000
    frame = pl.DataFrame({"deal": np.arange(n, dtype=np.int64),
                          "score": (np.arange(n) * 7919 % 26 - 13).astype(np.int16),
                          "suit": pl.Series(["CDHS"[i % 4] for i in range(n)], dtype=pl.Enum(list("CDHS")))})
    for cut in (1000, 100_001):
        assert encode_parts([frame[:cut], frame[cut:]]) == (encode_frame(frame), n)


# ------------------------------------------------------------------ with Ray
def slow_first(lo: int, n: int):
    """Chunk records whose first chunks take longest, so that Ray tasks finish out of order."""
    import polars as pl
    time.sleep(0.3 if lo == 0 else 0.0)
    return pl.DataFrame({"item": list(range(lo, lo + n))})


def barbu_settings(config) -> dict:
    """What a Barbu run's manifest holds of its settings (the rows a chunk holds follow from its configs)."""
    from dataclasses import asdict
    return {"config": asdict(config), "configs": [c.row() for c in config.configs()]}


@needs_ray
def test_chunks_are_written_in_index_order_whatever_order_tasks_finish(cluster, tmp_path, monkeypatch):
    manifest = start_run(tmp_path / "run", 1, {"config": {}}, unit="items")
    order = []
    real_replace = os.replace

    def spy(src, dst):
        order.append(Path(dst).name)
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    summary = fill_chunks(tmp_path / "run", manifest, 50, 10, slow_first, unit="items", progress=False,
                          backend=cluster)
    monkeypatch.undo()
    parts = [n for n in order if n.startswith("part-")]
    assert parts == [f"part-{k:06d}.parquet" for k in range(5)]
    assert summary.complete and summary.done == 50


@needs_ray
def test_barbu_run_records_and_report_identical(cluster, tmp_path):
    from barbu_sim.barbu.analytics.report import write_report
    from barbu_sim.barbu.runs import RunConfig, run
    config = RunConfig(deals=2400, seed=11, contracts=["barbu", "trumps", "domino"], trump="each",
                       domino_rank="each", chunk_deals=500)
    run(tmp_path / "local" / "run", config, progress=False)
    run(tmp_path / "ray" / "run", config, progress=False, backend=cluster)
    assert len(ledger(tmp_path / "local" / "run")) == 5
    assert ledger(tmp_path / "ray" / "run") == ledger(tmp_path / "local" / "run")
    write_report(tmp_path / "local" / "run")
    write_report(tmp_path / "ray" / "run")
    assert report_files(tmp_path / "ray" / "run") == report_files(tmp_path / "local" / "run")


@needs_ray
def test_clabber_run_from_the_cli_identical(cluster, tmp_path):
    base = ["clabber", "run", "-n", "3000", "--seed", "5", "--bidding", "threshold", "--no-progress"]
    for name, extra in (("local", []), ("ray", ["--backend", "ray"])):
        result = runner.invoke(app, [*base, "--out", str(tmp_path / name / "run"), *extra])
        assert result.exit_code == 0, result.output
        result = runner.invoke(app, ["clabber", "report", str(tmp_path / name / "run")])
        assert result.exit_code == 0, result.output
    assert ledger(tmp_path / "ray" / "run") == ledger(tmp_path / "local" / "run")
    assert report_files(tmp_path / "ray" / "run") == report_files(tmp_path / "local" / "run")


def kill_worker_once(marker: str, at: int, play, lo: int, n: int):
    """``play(lo, n)``, except that the first time chunk ``at`` is played its worker process dies."""
    if lo == at and not os.path.exists(marker):
        Path(marker).touch()
        os._exit(1)  # the worker dies without a word, as on a lost machine
    return play(lo, n)


@needs_ray
def test_a_task_whose_worker_dies_is_retried(cluster, tmp_path):
    from barbu_sim.barbu.runs import RunConfig, play_chunk, run
    config = RunConfig(deals=2000, seed=4, contracts=["no-tricks", "barbu"], chunk_deals=400)
    run(tmp_path / "local" / "run", config, progress=False)
    marker = tmp_path / "killed"
    fn = partial(kill_worker_once, str(marker), 800, partial(play_chunk, config))
    manifest = start_run(tmp_path / "ray" / "run", 1, barbu_settings(config), unit="deals")
    summary = fill_chunks(tmp_path / "ray" / "run", manifest, config.deals, config.chunk_deals, fn, unit="deals",
                          progress=False, backend=cluster)
    assert marker.exists()  # the worker did die
    assert summary.complete
    assert ledger(tmp_path / "ray" / "run") == ledger(tmp_path / "local" / "run")
    assert sorted(p.name for p in (tmp_path / "ray" / "run" / "records").iterdir()) == \
        [f"part-{k:06d}.parquet" for k in range(5)]


@needs_ray
def test_a_task_lost_beyond_its_retries_keeps_the_chunks_before_it(cluster, tmp_path):
    from barbu_sim.barbu.runs import RunConfig, play_chunk, run
    from barbu_sim.core.backends import RayBackend
    config = RunConfig(deals=2000, seed=4, contracts=["no-tricks"], chunk_deals=400)
    marker = tmp_path / "killed"
    fn = partial(kill_worker_once, str(marker), 800, partial(play_chunk, config))
    run_dir = tmp_path / "ray" / "run"
    manifest = start_run(run_dir, 1, barbu_settings(config), unit="deals")
    with pytest.raises(BackendError, match=r"the chunk \(800, 400\) was lost"):
        fill_chunks(run_dir, manifest, config.deals, config.chunk_deals, fn, unit="deals", progress=False,
                    backend=RayBackend(max_retries=0, max_in_flight=1))
    assert sorted(ledger(run_dir)) == ["000000", "000001"]
    summary = fill_chunks(run_dir, manifest, config.deals, config.chunk_deals, fn, unit="deals", progress=False,
                          backend=RayBackend())  # the marker is there: chunk 2 plays this time
    run(tmp_path / "local" / "run", config, progress=False)
    assert summary.complete and ledger(run_dir) == ledger(tmp_path / "local" / "run")


DRIVER = textwrap.dedent("""
    import os, sys, time
    from functools import partial
    from barbu_sim.barbu import runs
    from barbu_sim.core.backends import RayBackend

    run_dir, address, gate = sys.argv[1:4]
    play = runs.play_chunk

    def stall(config, lo, n):  # chunks from the fourth on wait for the gate: the driver is mid-run when killed
        deadline = time.time() + 60
        while lo >= 3 * config.chunk_deals and not os.path.exists(gate) and time.time() < deadline:
            time.sleep(0.05)
        return play(config, lo, n)

    runs.play_chunk = stall
    config = runs.RunConfig(deals=3000, seed=9, contracts=["no-queens", "domino"], chunk_deals=300)
    runs.run(run_dir, config, progress=False, backend=RayBackend(address))
""")


@needs_ray
def test_a_killed_driver_resumes_with_identical_records(cluster, tmp_path):
    from barbu_sim.barbu.runs import RunConfig, run
    run_dir, gate = tmp_path / "ray" / "run", tmp_path / "gate"
    cluster.connect()
    address = ray.get_runtime_context().gcs_address
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    driver = subprocess.Popen([sys.executable, "-c", DRIVER, str(run_dir), address, str(gate)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.time() + 120
        while time.time() < deadline and driver.poll() is None:
            manifest = run_dir / "manifest.json"
            if manifest.exists() and json.loads(manifest.read_text()).get("chunks_done", 0) >= 3:
                break
            time.sleep(0.05)
        assert driver.poll() is None, driver.stderr.read().decode()[-2000:]
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait()
    finally:
        gate.touch()  # lets a stalled task of the dead driver end, should Ray not have stopped it
        if driver.poll() is None:
            driver.kill()
    assert 3 <= json.loads((run_dir / "manifest.json").read_text())["chunks_done"] < 10
    summary = run(run_dir, resume=True, progress=False, backend=cluster)
    config = RunConfig(deals=3000, seed=9, contracts=["no-queens", "domino"], chunk_deals=300)
    run(tmp_path / "local" / "run", config, progress=False)
    assert summary.complete
    assert ledger(run_dir) == ledger(tmp_path / "local" / "run")


def outputs_local_and_ray(args: list, tmp_path) -> dict:
    """The command's output with ``--backend local`` and ``--backend ray``, each writing to
    ``tmp_path/<backend>`` (that path masked in the output)."""
    outputs = {}
    for name, extra in (("local", []), ("ray", ["--backend", "ray"])):
        result = runner.invoke(app, [*args, "--out", str(tmp_path / name), *extra])
        assert result.exit_code == 0, result.output
        outputs[name] = result.output.replace(str(tmp_path / name), "OUT")
    return outputs


@needs_ray
@pytest.mark.parametrize("args, files", [
    (["game", "-n", "5", "--seed", "3", "--contract-policy", "myopic", "--seat-doubling", "E=threshold",
      "--samples", "8", "--show", "4", "--no-progress"], ("hands.parquet", "summary.json")),
    # Clabber on ray: 3 tasks of 10,000 games at most
    (["clabber", "game", "-n", "25000", "--seed", "2", "--bidding", "threshold"], ("games.parquet", "summary.json")),
], ids=["barbu", "clabber-in-any-chunks"])
def test_games_identical(cluster, tmp_path, args, files):
    outputs = outputs_local_and_ray(args, tmp_path)
    assert outputs["ray"] == outputs["local"]
    for f in files:
        assert (tmp_path / "ray" / f).read_bytes() == (tmp_path / "local" / f).read_bytes()


@needs_ray
def test_compare_orders_identical(cluster, tmp_path):
    args = ["compare-orders", "--policies", "fixed,myopic", "--doubling", "compulsory-only,always",
            "--blocks", "40", "--games", "3", "--samples", "6"]  # 280 deals: two Ray tasks
    outputs = outputs_local_and_ray(args, tmp_path)
    assert outputs["ray"] == outputs["local"]
    files = sorted(f.name for f in (tmp_path / "local").iterdir())
    assert "orders_differences.csv" in files and sorted(f.name for f in (tmp_path / "ray").iterdir()) == files
    for name in files:  # the tables, orders.md and the chart
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes(), name


@needs_ray
def test_ladder_rows_identical(cluster):
    from barbu_sim.barbu.studies.ladder import measure
    args = ("heuristic", "random", [0, 4], 300, 5)

    def timeless(rows):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]
    local = measure(*args, block=100)
    assert timeless(measure(*args, block=100, backend=cluster)) == timeless(local)
    assert len(local) == 2


@needs_ray
def test_ray_bench_script_runs(cluster, tmp_path):
    # run as a script (its own functions travel to the workers by value, as __main__'s), joining this module's
    # instance rather than starting a second one
    out = tmp_path / "rb.json"
    address = str(ray.get_runtime_context().gcs_address)
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "ray_bench.py"), "--deals", "3000", "--mc-deals",
                           "0", "--repeats", "1", "--tasks", "5", "--ray-address", address, "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["heuristic"]["records_identical"] is True
    assert result["heuristic"]["deals"] == 3000 and result["task_overhead"]["tasks"] == 5


@needs_ray
def test_learned_player_training_data_identical(cluster):
    from barbu_sim.barbu.training.training_data import generate_chunk
    items = [(5, 0, 3, 4), (5, 3, 4, 4)]  # (seed, first deal, deals, layouts per decision)
    local = [generate_chunk(*item) for item in items]  # compiled here first: the workers load it from the cache
    remote = list(cluster.imap(generate_chunk, items, what="chunk"))
    assert len(remote) == 2
    for a, b in zip(local, remote):
        assert a.keys() == b.keys() and len(a["y"]) > 20
        for key in a:
            assert a[key].tobytes() == b[key].tobytes(), key
