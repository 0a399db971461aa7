"""Clabber's study commands with tiny sizes: ``barbu-sim clabber ladder`` and ``clabber study headline|strong``.

In-process through typer's ``CliRunner``: the files they write, their numbers against the library's
and ``clabber compare``'s, and an existing output refused before any work unless ``--force``.
"""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
from cli_checks import assert_one_line_error, charts_recorded, invoke

from barbu_sim.cli import clabber_studies as cli
from barbu_sim.clabber.api import play_rounds
from barbu_sim.clabber.players.mc import DEFAULT_SAMPLES
from barbu_sim.clabber.rules.config import C_SCORE
from barbu_sim.clabber.studies import compare, headline, ladder, strong
from barbu_sim.core.stats import summarize

LADDER_TINY = ["--rounds", "40", "--samples", "4", "--threads", "1", "--no-progress"]
HEADLINE_TINY = ["--rounds", "3000", "--games", "60", "--sweep-rounds", "300", "--sweep-games", "40", "--no-progress"]
STRONG_TINY = ["--rounds", "3000", "--games", "40", "--sweep-rounds", "200", "--sweep-games", "20",
               "--thresholds", "50,55,60", "--mc-bid-rounds", "40", "--confirm-rounds", "60", "--no-progress"]


def no_work(monkeypatch, *targets):
    """Make each (module, name) fail the test if it is called: the work must not start."""
    def refuse(*a, **k):
        raise AssertionError("the work started")
    for module, name in targets:
        monkeypatch.setattr(module, name, refuse)


# Each study command: the words that name it, and the step that must not start when its input is refused.
STUDIES = {"ladder": (["ladder"], (ladder, "play_line_up")),
           "headline": (["study", "headline"], (headline, "study_run")),
           "strong": (["study", "strong"], (strong, "study_run"))}


def test_the_help_shows_the_library_defaults():
    assert (cli.LADDER_ROUNDS, cli.LADDER_SEED, cli.MC_SAMPLES) == (ladder.DEFAULT_ROUNDS, ladder.DEFAULT_SEED,
                                                                    DEFAULT_SAMPLES)
    assert cli.HEADLINE == {k: getattr(headline, f"DEFAULT_{k.upper()}") for k in cli.HEADLINE}
    assert {k: v for k, v in cli.STRONG.items() if k != "thresholds"} == {
        k: getattr(strong, f"DEFAULT_{k.upper()}") for k in cli.STRONG if k != "thresholds"}
    assert strong.parse_thresholds(cli.STRONG["thresholds"]) == strong.THRESHOLDS


# ---- the ladder -------------------------------------------------------------------------------------------------

def test_the_ladder_writes_its_rows_and_its_seat_arm_is_compare_at_north(tmp_path):
    out = tmp_path / "ladder.json"
    result = invoke("clabber", "ladder", *LADDER_TINY, "--out", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert [(r["arm"], r["role"]) for r in data["rows"]] == [("seat", "makers"), ("team", "makers"),
                                                             ("seat", "defenders"), ("team", "defenders")]
    assert all(r["own_diff"]["n"] == 40 and r["rounds_per_s"] > 0 and r["threads"] == 1 for r in data["rows"])
    assert isinstance(data["mc_beats_heuristic"], bool) and "player" not in data["rows"][0]
    assert data["command"] == f"barbu-sim clabber ladder --rounds 40 --samples 4 --threads 1 --out {out}"
    assert (data["seed"], data["samples"], data["bidding"]) == (2026, 4, "accept-first")
    assert len(result.stdout.splitlines()) == 6 and result.stdout.startswith("mc at N   as makers")
    # the own score of the seat arm as makers: North-South's score with mc at North, less with heuristic there
    mc = ["mc:samples=4", "heuristic", "heuristic", "heuristic"]
    own = play_rounds(2026, 0, 40, 3, "accept-first", mc)[:, C_SCORE].astype(np.int64) \
        - play_rounds(2026, 0, 40, 3, "accept-first", "heuristic")[:, C_SCORE]
    assert data["rows"][0]["own_diff"] == summarize(own)
    # its net score: clabber compare's, North's seat with dealer West (North-South the makers)
    c = compare.compare("mc:samples=4", "heuristic", rounds=40, seed=2026, threads=1)
    assert data["rows"][0]["net_diff"] == summarize(c.a_net[:, 3, 0] - c.b_net[:, 3, 0])
    assert data["rows"][2]["net_diff"] == summarize(c.a_net[:, 0, 0] - c.b_net[:, 0, 0])  # dealer North: defenders


def test_the_ladder_of_learned_and_mc_gives_learned_share(tmp_path):
    out = tmp_path / "ladder.json"
    result = invoke("clabber", "ladder", "--players", "learned,mc", *LADDER_TINY, "--out", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert len(data["rows"]) == 8 and {r["player"] for r in data["rows"]} == {"learned", "mc:samples=4"}
    assert data["players"] == ["learned", "mc:samples=4"] and "beats_heuristic" in data
    shares = data["learned_share_of_mc_gain"]
    assert len(shares) == 4 and all(s["ci_low"] <= s["share"] <= s["ci_high"] for s in shares)
    # mc's rows are those of the ladder of mc alone on the same rounds
    alone = ladder.ladder(["mc"], rounds=40, samples=4, threads=1)
    strip = ("player", "rounds_per_s", "rounds_per_s_per_thread")
    assert [{k: v for k, v in r.items() if k not in strip} for r in data["rows"] if r["player"] != "learned"] == \
        [{k: v for k, v in r.items() if k not in strip} for r in alone["rows"]]


def test_the_ladder_refuses_an_existing_out_before_any_work(tmp_path, monkeypatch):
    out = tmp_path / "ladder.json"
    out.write_text('{"rows": []}\n')
    no_work(monkeypatch, (ladder, "play_line_up"))
    assert_one_line_error(invoke("clabber", "ladder", *LADDER_TINY, "--out", out), "exists", "--force")
    assert out.read_text() == '{"rows": []}\n'


def test_the_ladder_on_ctrl_c_writes_nothing(tmp_path, monkeypatch):
    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(ladder, "play_line_up", interrupted)
    result = invoke("clabber", "ladder", *LADDER_TINY, "--out", tmp_path / "l.json")
    assert result.exit_code == 130 and "Interrupted: nothing was written" in result.output
    assert not (tmp_path / "l.json").exists()


# ---- the headline study -------------------------------------------------------------------------------------------

def test_the_headline_study_writes_its_files(tmp_path):
    results = tmp_path / "results"
    result = invoke("clabber", "study", "headline", *HEADLINE_TINY, "--runs", tmp_path / "runs", "--results", results)
    assert result.exit_code == 0, result.output
    findings = json.loads((results / "findings.json").read_text())
    assert findings["exact_meld_counts"]["seq5"]["count"] == 148
    assert [r["policy"] for r in findings["threshold_sweep"]["rows"]] == \
        [f"threshold:{x}" for x in headline.THRESHOLDS] + ["mc:32"]
    assert findings["threshold_sweep"]["mc_rounds_per_dealer"] == 300  # at most the sweep's rounds
    assert findings["heuristic_vs_random"]["makers"]["n"] == 750  # a quarter of the headline rounds
    for run in ("accept-first-random", "accept-first-heuristic", "threshold55-heuristic"):
        assert (results / run / "clabber_scores.json").exists() and any((results / run / "charts").glob("*.png"))
    games = json.loads((results / "games_accept-first_heuristic.json").read_text())
    assert games["config"]["games"] == 60
    assert result.stdout == (results / "findings.md").read_text()
    assert result.stdout.startswith("# Clabber findings\n\nHeadline run: 3,000 rounds")


@pytest.mark.parametrize("study,tiny,old,work", [
    ("headline", HEADLINE_TINY, ("findings.md", "published\n"), "run"),
    ("strong", STRONG_TINY, ("timing.json", "{}\n"), "run_games"),
])
def test_a_study_refuses_its_old_files_before_any_work(tmp_path, monkeypatch, study, tiny, old, work):
    name, text = old
    (tmp_path / name).write_text(text)
    module = STUDIES[study][1][0]
    no_work(monkeypatch, (module, "study_run"), (module, work))
    assert_one_line_error(invoke("clabber", "study", study, *tiny, "--runs", tmp_path / "runs",
                                 "--results", tmp_path), f"holds {name}", "--force")
    assert (tmp_path / name).read_text() == text and not (tmp_path / "runs").exists()


# Each study's refused options, and what its one-line error says.
BAD_INPUT = {"ladder": [(["--players", "lowest"], "--players takes mc, learned or both"),
                        (["--players", "mc,mc"], "--players takes mc, learned or both"),
                        (["--rounds", "1"], "--rounds must be at least 2"),
                        (["--samples", "0"], "--samples must be at least 1"),
                        (["--seed", "-1"], "--seed")],
             "headline": [(["--rounds", "0"], "--rounds must be at least 1"),
                          (["--sweep-games", "0"], "--sweep-games must be at least 1"),
                          (["--mc-rounds", "-1"], "--mc-rounds must be at least 0"),
                          (["--sweep-rounds", "100", "--mc-rounds", "101"], "at most 100, not 101"),
                          (["--sweep-games", "10", "--mc-games", "11"], "at most 10, not 11")],
             "strong": [(["--strategy", "nobody"], "--strategy: unknown strategy 'nobody'"),
                        (["--confirm", "nobody"], "--confirm: unknown strategy 'nobody'"),
                        (["--thresholds", "50,x"], "--thresholds takes whole numbers"),
                        (["--games", "0"], "--games must be at least 1"),
                        (["--sweep-rounds", "100", "--mc-bid-rounds", "101"], "at most 100, not 101")]}


@pytest.mark.parametrize("study,args,needle", [(study, *case) for study, cases in BAD_INPUT.items() for case in cases])
def test_each_study_refuses_bad_input_in_one_line(tmp_path, monkeypatch, study, args, needle):
    words, work = STUDIES[study]
    no_work(monkeypatch, work)
    results = [] if study == "ladder" else ["--results", tmp_path / "r"]  # the ladder writes one file (--out)
    assert_one_line_error(invoke("clabber", *words, *args, *results, "--no-progress"), needle)


# ---- the strong study ---------------------------------------------------------------------------------------------

def strong_files(results: Path) -> dict[str, bytes]:
    """Every file the strong study wrote, but its timing."""
    return {str(p.relative_to(results)): p.read_bytes() for p in sorted(results.rglob("*"))
            if p.is_file() and p.name != "timing.json"}


STRONG_RUNS = ["accept-first-learned", "threshold55-learned", "accept-first-heuristic", "threshold55-heuristic",
               "accept-first-mc"]


def test_the_strong_study_writes_its_files_and_ray_writes_the_same(tmp_path, monkeypatch, request):
    results = tmp_path / "local" / "results"
    # each run's charts are recorded, none drawn: the drawing is the headline study's
    # (test_the_headline_study_writes_its_files) and most of a study run's time
    local_tables = charts_recorded(monkeypatch, headline)
    result = invoke("clabber", "study", "strong", *STRONG_TINY, "--runs", tmp_path / "local", "--results", results)
    assert result.exit_code == 0, result.output
    assert sorted(local_tables) == sorted(results / r / "charts" for r in STRONG_RUNS)  # each run's charts asked for
    assert all(len(t) >= 5 and not t["clabber_scores"].is_empty() for t in local_tables.values())
    table = json.loads((results / "strong_vs_heuristic.json").read_text())
    # two studies; accept-first: 1 + 5..6 trump counts + 6 ranks; threshold:55 adds bid rounds and 4 seats
    rows = {s: [r for r in table if r["study"] == s] for s in ("accept-first", "threshold55")}
    assert all(len(v) % 3 == 0 for v in rows.values())  # three metrics per value
    assert {r["group"] for r in rows["threshold55"]} == {"all", "maker_trumps", "turned_rank", "bid_round",
                                                         "maker_rel"}
    ranks = [r["value"] for r in rows["accept-first"] if r["group"] == "turned_rank" and r["metric"] == "made"]
    assert ranks == ["9", "10", "J", "Q", "K", "A"]
    whole = next(r for r in rows["accept-first"] if r["group"] == "all" and r["metric"] == "made")
    # accept-first: the same rounds are played under both players, so they pair one to one
    played = json.loads((results / "accept-first-learned" / "thrown_in.json").read_text())
    assert whole["n"] == 3000 and played[0]["rounds"] == 3000
    assert abs(whole["difference"] - (whole["a"] - whole["b"])) < 1e-12
    sweep = json.loads((results / "sweep.json").read_text())
    assert set(sweep) == {"learned", "heuristic"}
    assert [r["policy"] for r in sweep["learned"]["rows"]] == ["threshold:50", "threshold:55", "threshold:60", "mc:32"]
    assert (results / "charts" / "strong_vs_heuristic.png").stat().st_size > 10_000
    changes = (results / "changes.md").read_text()
    assert "Best by game win rate" in changes and "On the first 60 rounds" in changes
    confirm = json.loads((results / "strong_vs_confirm.json").read_text())
    assert next(r for r in confirm if r["group"] == "all" and r["metric"] == "made")["n"] == 60
    assert result.stdout == (results / "findings.md").read_text() + "\n"
    if importlib.util.find_spec("ray") is None:  # the Ray half needs the ray extra
        return
    request.getfixturevalue("ray_instance")  # the worker's instance, which the study joins (as the CLI joins one)
    # the same study as Ray tasks writes the same files (one study run serves both checks: it is slow), and hands
    # the same tables to each run's charts
    remote_tables = charts_recorded(monkeypatch, headline)
    done = invoke("clabber", "study", "strong", *STRONG_TINY, "--backend", "ray", "--runs", tmp_path / "ray",
                  "--results", tmp_path / "ray" / "results")
    assert done.exit_code == 0, done.output
    remote_tables = {k.relative_to(tmp_path / "ray"): v for k, v in remote_tables.items()}
    local_tables = {k.relative_to(tmp_path / "local"): v for k, v in local_tables.items()}
    assert local_tables.keys() == remote_tables.keys() and len(local_tables) == len(STRONG_RUNS)
    assert all(local_tables[k].keys() == remote_tables[k].keys() for k in local_tables)
    assert [(k, t) for k in local_tables for t in local_tables[k]
            if not local_tables[k][t].equals(remote_tables[k][t])] == []
    local, remote = (strong_files(tmp_path / b / "results") for b in ("local", "ray"))
    assert len(local) > 40 and local.keys() == remote.keys()
    assert [k for k in local if local[k] != remote[k]] == []


def test_a_study_with_force_replaces_its_old_files(tmp_path, monkeypatch):
    (tmp_path / "findings.md").write_text("published\n")
    calls = []
    monkeypatch.setattr(headline, "study_run", lambda *a, **k: calls.append(a[1]) or (_ for _ in ()).throw(
        KeyboardInterrupt))
    result = invoke("clabber", "study", "headline", *HEADLINE_TINY, "--runs", tmp_path / "runs", "--results",
                    tmp_path, "--force")
    # --force lets the work start (here stopped at once by Ctrl-C: one line, what is kept, how to finish)
    assert calls == ["accept-first-random"] and result.exit_code == 130
    assert "Interrupted:" in result.output and "--force" in result.output
