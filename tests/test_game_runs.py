"""One descriptor per game: both games' runs are run, resumed, checked and reported by the same core code.

Each wing declares a :class:`~barbu_sim.core.rundir.RunKind` (its analytics schema) and a
:class:`~barbu_sim.core.runs.GameRuns` (its runs module); these tests hold the two games to the
same behaviour where they used to differ: the manifest names its game, a run of the other game is
refused in one line by report, plot and --resume, and the messages are the same.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from barbu_sim.cli import app
from barbu_sim.core.rundir import settings_stamp

runner = CliRunner()
SMALL = {"barbu": ["run", "-n", "40", "-c", "barbu", "--no-progress"],
         "clabber": ["clabber", "run", "-n", "60", "--no-progress"]}
TITLE = {"barbu": "Barbu", "clabber": "Clabber"}
PREFIX = {"barbu": [], "clabber": ["clabber"]}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A small finished run of each game."""
    root = tmp_path_factory.mktemp("runs")
    made = {}
    for game, args in SMALL.items():
        out = root / game
        result = runner.invoke(app, [*args, "--out", str(out)])
        assert result.exit_code == 0, result.output
        made[game] = out
    return made


@pytest.mark.parametrize("game", ["barbu", "clabber"])
def test_the_manifest_names_its_game(runs, game):
    manifest = json.loads((runs[game] / "manifest.json").read_text())
    assert manifest["game"] == game
    assert manifest["settings_sha256"] == settings_stamp(manifest)  # the name is among the stamped settings


@pytest.mark.parametrize("game,other", [("barbu", "clabber"), ("clabber", "barbu")])
@pytest.mark.parametrize("command", ["report", "plot", "resume"])
def test_a_run_of_the_other_game_is_refused_in_one_line(runs, game, other, command):
    args = ["run", "--resume", "--out", str(runs[other])] if command == "resume" else [command, str(runs[other])]
    result = runner.invoke(app, [*PREFIX[game], *args])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    assert f"holds a {TITLE[other]} run, not a {TITLE[game]} one" in lines[0]
    assert f"barbu-sim {'clabber ' if game == 'clabber' else ''}run" in lines[0]


def test_a_barbu_run_written_before_runs_named_their_game_still_reports_and_resumes(tmp_path):
    out = tmp_path / "old"
    assert runner.invoke(app, [*SMALL["barbu"], "--out", str(out)]).exit_code == 0
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    del manifest["game"]
    manifest["settings_sha256"] = settings_stamp(manifest)  # as such a run was stamped
    path.write_text(json.dumps(manifest))
    report = runner.invoke(app, ["report", str(out)])
    assert report.exit_code == 0, report.output
    assert "40 deals, seed 0" in (out / "report" / "report.md").read_text()
    resumed = runner.invoke(app, ["run", "--resume", "--out", str(out), "--no-progress"])
    assert resumed.exit_code == 0, resumed.output


@pytest.mark.parametrize("game", ["barbu", "clabber"])
def test_both_games_say_the_same_about_a_thread_count_numba_cannot_use(tmp_path, game):
    result = runner.invoke(app, [*SMALL[game], "--threads", "999", "--out", str(tmp_path / "t")])
    assert result.exit_code == 2, result.output
    assert "--threads must be at least 1 and at most" in result.output
    assert "(the cores numba may use here), not 999" in result.output


@pytest.mark.parametrize("game", ["barbu", "clabber"])
def test_a_resume_with_other_settings_is_refused_by_the_shared_check(runs, game):
    flag = "--seed"
    result = runner.invoke(app, [*PREFIX[game], "run", "--resume", "--out", str(runs[game]), flag, "5"])
    assert result.exit_code == 2, result.output
    assert "--resume finishes the run in" in result.output and "--seed 5 (the run has 0)" in result.output
