import os
import tempfile
import time
from pathlib import Path

import pytest

TESTS = Path(__file__).parent


# --- compiling the engines once, split between the workers -------------------------------------
#
# Nearly all of a fresh clone's suite time is numba compiling the engines, and every test file
# needs most of them. Left alone, both workers compile the same engines at the same time (each
# kernel is compiled twice, on two cores, while the other engines wait). When the whole suite runs
# on two or more workers, each worker first compiles its share of the engines, in the same calls
# the tests make, and waits for the others' share to reach numba's disk cache; then every test
# loads the engines it needs from there. A single file or a -k selection compiles only what its
# tests need, as before.

def _barbu(strategies):
    from barbu_sim.barbu.api import compile_engine
    return lambda: compile_engine(strategies)


def _barbu_estimator():
    from barbu_sim.barbu.table.deal import estimator_ready
    estimator_ready()


def _barbu_bots():
    """The built-in players called from Python on a position, as the table, the review and their tests call
    them, and the learned player's one-card features, as the training data calls them."""
    import numpy as np
    from barbu_sim.barbu.engine.deals import random_deal
    from barbu_sim.barbu.position import Position
    from barbu_sim.barbu.table.deal import Bot
    from barbu_sim.barbu.players.features import N_FEATURES, domino_card_features, trick_card_features
    pos = Position(random_deal(0, 0), 0, 0, 0)
    for spec in ("heuristic", "basic", "random", "lowest", "learned"):
        Bot(spec).choose(pos)
    legal, hand = np.uint64(pos.legal()), np.uint64(pos.hands[pos.seat])
    card = np.int64(int(legal).bit_length() - 1)
    for features in (trick_card_features, domino_card_features):
        features(card, legal, hand, pos.state, card, np.zeros(N_FEATURES, np.float32))


def _clabber(strategies):
    def run():
        from barbu_sim.clabber.api import play_games, play_round, play_rounds
        play_round(0, 0, strategies=strategies)
        play_rounds(0, 0, 2, strategies=strategies, threads=1)
        play_games(0, 0, 1, strategies=strategies, threads=1)
    return run


# Two shares of about the same compile time (each share in one process, its engines one after another, from an
# empty cache on the 2-core machine, both shares at once: mc's engine 49 s, which compiles the estimator too, and
# Clabber's learned engine 18 s, 67 s in all; Barbu's heuristic and learned engines 18 and 7 s, Clabber's
# heuristic and mc 12 and 14 s, the bots 9 s, 60 s in all).
SHARES = (
    (("barbu-mc", _barbu(["mc:samples=2", "heuristic", "heuristic", "heuristic"])),
     ("barbu-estimator", _barbu_estimator),
     ("clabber-learned", _clabber("learned"))),
    (("barbu-heuristic", _barbu("heuristic")),
     ("barbu-learned", _barbu("learned")),
     ("clabber-heuristic", _clabber("heuristic")),
     ("clabber-mc", _clabber(["mc:samples=2", "heuristic", "heuristic", "heuristic"])),
     ("barbu-bots", _barbu_bots)),
)
WAIT_S = 1200  # the longest wait for the other workers' share (then tests compile what they lack)


def _whole_suite(session) -> bool:
    """Every test file of the suite is in this run (not one file, a -k selection or a directory part)."""
    collected = {Path(str(item.fspath)).name for item in session.items}
    return {p.name for p in TESTS.glob("test_*.py")} <= collected


@pytest.fixture(scope="session", autouse=True)
def _engines_compiled_once(request):
    workerinput = getattr(request.config, "workerinput", None)
    if workerinput is None or os.environ.get("BARBU_SIM_NO_SHARED_COMPILE"):
        yield
        return
    workers = int(workerinput["workercount"])
    if workers < 2 or not _whole_suite(request.session):
        yield
        return
    me = int(workerinput["workerid"].removeprefix("gw"))
    done = Path(tempfile.gettempdir()) / f"barbu-sim-compiled-{workerinput['testrunuid']}"
    done.mkdir(exist_ok=True)
    for share in SHARES[me::workers]:
        for name, compile_it in share:
            try:
                compile_it()
            except Exception:  # the tests that need this engine report it; never hold the others up
                pass
            (done / name).touch()
    names = [name for share in SHARES for name, _ in share]
    deadline = time.monotonic() + WAIT_S
    while not all((done / n).exists() for n in names) and time.monotonic() < deadline:
        time.sleep(0.5)
    yield


# --- one value-table cache for the run -----------------------------------------------------------------

@pytest.fixture(scope="session", autouse=True)
def _value_tables_shared(request):
    """``BARBU_SIM_CACHE`` for the whole run, shared by its workers: the value tables that game, compare-orders,
    advise and the studies build once per configuration are built once per run, not once per file that needs
    them, and the suite writes nothing under the user's ``~/.cache``. Kept between runs in pytest's cache
    folder (``.pytest_cache``) when there is one; a test that wants an empty cache of its own asks for
    ``private_cache``. A ``BARBU_SIM_CACHE`` set by the caller is left as it is."""
    if os.environ.get("BARBU_SIM_CACHE"):
        yield
        return
    cache = getattr(request.config, "cache", None)  # absent under -p no:cacheprovider
    if cache is not None:
        path = cache.mkdir("barbu-sim-tables")
    else:
        workerinput = getattr(request.config, "workerinput", None)
        run = workerinput["testrunuid"] if workerinput else str(os.getpid())
        path = Path(tempfile.gettempdir()) / f"barbu-sim-tables-{run}"
        path.mkdir(exist_ok=True)
    os.environ["BARBU_SIM_CACHE"] = str(path)
    yield
    os.environ.pop("BARBU_SIM_CACHE", None)


# --- the order of the files -----------------------------------------------------------------------------
#
# The workers take whole files (--dist loadfile), handed out by pytest-xdist with the files of most tests first
# (its default order): test_cli_help.py, the help examples, goes first, and the smallest files come last, which
# leaves neither worker alone with a long file at the end. The docs examples (test_docs.py) then start after the
# help examples have filled the caches both use (the Clabber mc-bidding engines, advise's value table): handed
# out first as well, the two files compiled and built the same things at the same time (docs/clabber.md's
# examples took 51 s instead of 15 s, the README's 29 s instead of 7 s).


# --- fixtures some test files ask for --------------------------------------------------------------

@pytest.fixture(scope="session")
def ray_instance():
    """A local Ray instance with 2 CPUs, started by the first test of this worker that asks for it and kept
    until the worker ends (None without the ray extra). Starting one costs seconds, and its worker processes load
    the engines again; a ``--backend ray`` run joins the instance already started, as the CLI does."""
    try:
        import ray
    except ImportError:
        yield None
        return
    started = not ray.is_initialized()
    if started:
        saved = os.environ.get("RAY_worker_niceness")
        os.environ["RAY_worker_niceness"] = "0"  # as RayBackend starts a local instance
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
        if saved is None:
            del os.environ["RAY_worker_niceness"]
        else:
            os.environ["RAY_worker_niceness"] = saved
    yield ray
    if started:
        ray.shutdown()


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    """A cache folder of this test's own (files that want it for every test: ``pytestmark = usefixtures``)."""
    monkeypatch.setenv("BARBU_SIM_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def compile_calls(monkeypatch):
    """The (dispatcher, args, what) of every ``core.compiling.ensure_compiled`` call, which still compiles."""
    from barbu_sim.core import compiling
    calls = []
    real = compiling.ensure_compiled

    def spy(dispatcher, args, what, key):
        calls.append((dispatcher, args, what))
        return real(dispatcher, args, what, key)

    monkeypatch.setattr(compiling, "ensure_compiled", spy)
    return calls
