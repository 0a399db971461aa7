"""``run --resume`` from the command line: a complete run says so and is left as it was; an unfinished one is
finished."""

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from barbu_sim.cli import app

runner = CliRunner()

# (game, the run command, the unit, the command that reports a run, a small run's flags)
GAMES = [
    ("barbu", ["run"], "deals", "barbu-sim", ["-n", "3000", "-c", "barbu", "-c", "domino"]),
    ("clabber", ["clabber", "run"], "rounds", "barbu-sim clabber", ["-n", "3000", "--bidding", "threshold"]),
]


def snapshot(run_dir: Path) -> dict[str, str]:
    """Every file of a run directory (but its lock) by name, as a checksum."""
    return {str(p.relative_to(run_dir)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(run_dir.rglob("*")) if p.is_file() and p.name != ".lock"}


@pytest.mark.parametrize("game,command,unit,prog,flags", GAMES, ids=[g[0] for g in GAMES])
def test_resume_of_a_complete_run_says_so(tmp_path, game, command, unit, prog, flags):
    out = tmp_path / "done"
    first = runner.invoke(app, [*command, *flags, "--out", str(out), "--no-progress"])
    assert first.exit_code == 0, first.output
    before = snapshot(out)
    assert len([k for k in before if k.startswith("records/")]) >= 1
    result = runner.invoke(app, [*command, "--resume", "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert result.output == (f"{out} is already complete (3,000 {unit}); nothing to do. "
                             f"Next: {prog} report {out}   and   {prog} plot {out}\n")
    assert snapshot(out) == before  # nothing rewritten, the timing kept
    # the same with the run's own flags given again
    again = runner.invoke(app, [*command, *flags, "--resume", "--out", str(out), "--no-progress"])
    assert again.exit_code == 0 and "already complete" in again.output


@pytest.mark.parametrize("game,command,unit,prog,flags", GAMES, ids=[g[0] for g in GAMES])
def test_resume_of_an_unfinished_run_plays_the_rest(tmp_path, game, command, unit, prog, flags):
    out = tmp_path / "cut"
    assert runner.invoke(app, [*command, *flags, "--out", str(out), "--no-progress"]).exit_code == 0
    whole = snapshot(out)
    parts = sorted((out / "records").glob("part-*.parquet"))
    parts[-1].unlink()  # as if the run had stopped before its last chunk
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["chunks"][parts[-1].name[5:11]]
    manifest.update({"complete": False, "chunks_done": manifest["chunks_done"] - 1})
    (out / "manifest.json").write_text(json.dumps(manifest))
    result = runner.invoke(app, [*command, "--resume", "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "already complete" not in result.output
    assert f"3,000 {unit} in" in result.output and f"Next: {prog} report {out}" in result.output
    after = snapshot(out)
    assert {k: v for k, v in after.items() if k.startswith("records/")} == \
        {k: v for k, v in whole.items() if k.startswith("records/")}
    assert json.loads((out / "manifest.json").read_text())["complete"] is True


def _cut_last_chunk(out: Path) -> dict:
    """Remove a finished run's last chunk, as if it had stopped before it; return the manifest."""
    parts = sorted((out / "records").glob("part-*.parquet"))
    parts[-1].unlink()
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["chunks"][parts[-1].name[5:11]]
    manifest.update({"complete": False, "chunks_done": manifest["chunks_done"] - 1})
    return manifest


@pytest.mark.parametrize("game,command,unit,prog,flags", GAMES, ids=[g[0] for g in GAMES])
@pytest.mark.parametrize("changed", ["code", "player"])
def test_resume_refuses_a_run_begun_by_another_version_of_a_player(tmp_path, game, command, unit, prog, flags,
                                                                   changed):
    out = tmp_path / "cut"
    assert runner.invoke(app, [*command, *flags, "--out", str(out), "--no-progress"]).exit_code == 0
    manifest = _cut_last_chunk(out)
    players = manifest["players"]
    assert len(players) == 4 and players[0]["player"] == "heuristic" and len(players[0]["code"]) == 16
    # as if the run had been begun by an older heuristic (another code stamp), or with other parameters
    old = {"code": "0123456789abcdef", "player": "heuristic:old"}[changed]
    now = players[2][changed]
    players[2][changed] = old
    (out / "manifest.json").write_text(json.dumps(manifest))
    before = snapshot(out)
    result = runner.invoke(app, [*command, "--resume", "--out", str(out), "--no-progress"])
    assert result.exit_code != 0
    message = " ".join(result.output.split())
    assert message.startswith("Error: ") and f"seat S: {changed} {old} then, {now} now" in message
    assert "one version of each player" in message and "Traceback" not in result.output
    assert snapshot(out) == before  # nothing played


def test_a_run_records_each_seat_fully_resolved():
    from barbu_sim.barbu.players.mc.params import MCParams
    from barbu_sim.barbu.runs import RunConfig, seat_players
    from barbu_sim.clabber.runs import seat_players as clabber_players

    from barbu_sim.barbu.players.learned import model_id

    full = MCParams().spec("mc")
    assert full.startswith("mc:samples=") and "infer=" in full and "early=" in full
    config = RunConfig(deals=10, strategies=["mc", "heuristic", "pimc:samples=8", "learned"])
    # mc's rollouts are learned's: the model's id is part of the player
    assert config.strategies[0] == f"{full},model={model_id()}" and "rollout=learned" in full
    assert config.strategies[2] == "pimc:samples=8,rollout=heuristic"
    assert config.strategies[3].startswith("learned@")
    players = seat_players(config.strategies)
    assert [p["player"] for p in players] == config.strategies
    assert players[0]["code"] == players[2]["code"] != players[1]["code"]  # mc and pimc: one player's code
    seats = clabber_players(["mc", "heuristic", "heuristic", "random"], ["threshold", "mc", "accept-first", "random"])
    assert seats[0]["player"].startswith("mc:samples=") and seats[0]["bidding"].startswith("threshold:")
    assert seats[1]["code"] == seats[2]["code"] != seats[3]["code"]


def test_resume_takes_a_player_by_the_name_the_run_was_started_with(tmp_path):
    """The manifest records ``learned@<id>``; ``--strategy learned`` names the same player, so it is not a
    difference (and another player still is)."""
    out = tmp_path / "run"
    runner = CliRunner()
    first = runner.invoke(app, ["run", "-n", "300", "-c", "barbu", "--strategy", "learned", "--no-progress",
                                "--out", str(out)])
    assert first.exit_code == 0, first.output
    again = runner.invoke(app, ["run", "--resume", "--strategy", "learned", "--out", str(out)])
    assert again.exit_code == 0 and "already complete" in again.output, again.output
    other = runner.invoke(app, ["run", "--resume", "--strategy", "heuristic", "--out", str(out)])
    assert other.exit_code == 2 and "--strategy" in other.output, other.output
