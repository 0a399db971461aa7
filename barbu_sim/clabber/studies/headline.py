"""Clabber's headline study (``barbu-sim clabber study headline``): the headline runs and games, makers' success by
trump count and turned rank, the best bidding threshold (by round score and by game win rate, paired over the same
deals), the first dealer's advantage, heuristic against random play, and meld frequencies against exact counts.

It writes into a results folder (``results/clabber/``): each headline run's JSON tables and charts, the games'
summaries, ``findings.json`` and ``findings.md``.  The runs themselves go into a folder of run folders.  Its
pieces (:func:`study_run`, :func:`threshold_sweep`, :func:`sweep_markdown`) serve the strong study too
(:mod:`.strong`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

import numpy as np

from ...core.outputs import check_folder_files, copy_file, write_json, write_text
from ...core.stats import summarize
from ...core.tables import to_markdown
from ..analytics.plots import write_plots
from ..analytics.report import build_tables, write_report
from ..api import play_games, play_rounds
from ..game.game import run_games
from ..rules import DECK_CARDS
from ..rules.config import C_SCORE
from ..rules.melds import meld_flags
from ..runs import RunConfig, run

# The study's files in the results folder that are always written: one of them there means an earlier study would
# be replaced.
MARKERS = ("findings.json", "findings.md", "games_accept-first_random.json", "games_accept-first_heuristic.json")
THRESHOLDS = (30, 40, 45, 50, 55, 60, 70, 80, 90)
BASELINE = 60
# The sizes of the published study (results/clabber/).
DEFAULT_ROUNDS = 2_000_000
DEFAULT_GAMES = 200_000
DEFAULT_SWEEP_ROUNDS = 250_000
DEFAULT_SWEEP_GAMES = 50_000
DEFAULT_MC_ROUNDS = 10_000
DEFAULT_MC_GAMES = 2_000
SCORE_NS, SCORE_EW = C_SCORE, C_SCORE + 1


def step_teller(bar, echo: Callable[[str], None] | None) -> Callable[[str], None]:
    """A study's announcer of its steps: each step's name goes on the progress ``bar`` and, with ``echo``,
    above it as a line."""
    def step(name: str) -> None:
        bar.set_description(name)
        if echo:
            with bar.external_write_mode():
                echo(name)
    return step


def study_run(out: Path, name: str, rounds: int, strategy: str, results: Path, bidding: str = "accept-first",
              backend=None, progress: bool = False) -> dict:
    """A run of ``rounds`` (dealer N, seed 1) into ``out/name`` with its report; its JSON tables and charts copied
    to ``results/name``.  Returns the report's tables."""
    run_dir = Path(out) / name
    run(run_dir, RunConfig(rounds=rounds, seed=1, dealer=0, bidding=[bidding] * 4, strategies=[strategy] * 4),
        force=True, progress=progress, backend=backend)
    tables = build_tables(run_dir)
    write_report(run_dir, tables)
    dest = Path(results) / name
    for f in (run_dir / "report").glob("*.json"):
        copy_file(f, dest / f.name)
    write_plots(tables, dest / "charts")
    return tables


def paired(diff: np.ndarray) -> dict:
    """``n``, ``mean``, ``se`` and the 95% CI of paired differences."""
    s = summarize(diff)
    return {k: s[k] for k in ("n", "mean", "se", "ci_low", "ci_high")}


def heuristic_vs_random(n: int) -> dict:
    """Gain of heuristic play over random play, as makers (E+W under accept-first, dealer N) and as defenders."""
    def ew_ns(strats):
        rows = play_rounds(2, 0, n, 0, "accept-first", strats).astype(np.int64)
        return rows[:, SCORE_EW], rows[:, SCORE_NS]
    base_m, base_d = ew_ns("random")
    hm, _ = ew_ns(["random", "heuristic", "random", "heuristic"])
    _, hd = ew_ns(["heuristic", "random", "heuristic", "random"])
    return {"makers": paired(hm - base_m), "defenders": paired(hd - base_d)}


def ns_net(policy, rounds: int, strategy: str = "heuristic") -> np.ndarray:
    """N+S's round score minus E+W's, per round, for each dealer in turn (independent deals per dealer)."""
    nets = []
    for dealer in range(4):
        rows = play_rounds(30 + dealer, 0, rounds, dealer, policy, strategy).astype(np.int64)
        nets.append(rows[:, SCORE_NS] - rows[:, SCORE_EW])
    return np.concatenate(nets)


def ns_wins(policy, games: int, strategy: str = "heuristic") -> np.ndarray:
    """1 for each game N+S win, 0.5 for a draw (games of seed 3, ``strategy`` at every seat)."""
    g = play_games(3, 0, games, policy, strategy)
    return (g[:, 5] == 0).astype(float) + 0.5 * (g[:, 5] == 2)


def threshold_sweep(rounds: int, games: int, mc_rounds: int, mc_games: int, strategy: str = "heuristic",
                    thresholds=THRESHOLDS, step=None) -> dict:
    """N+S bid by threshold:X (and mc), E+W by threshold:60; ``strategy`` plays every seat; paired over the
    same deals and games (mc left out when ``mc_rounds`` is 0).  ``step``: called after each policy.

    Deals are the same for every policy (round i depends only on the seed and i, game g's rounds
    only on the seed and g), so each difference from the baseline is a paired one.
    """
    rows = []
    base_net = ns_net([f"threshold:{BASELINE}"] * 4, rounds, strategy)
    base_win = ns_wins([f"threshold:{BASELINE}"] * 4, games, strategy)
    for x in thresholds:
        policy = [f"threshold:{x}", f"threshold:{BASELINE}"] * 2
        net, win = ns_net(policy, rounds, strategy), ns_wins(policy, games, strategy)
        rows.append({"policy": f"threshold:{x}", "round_net": paired(net), "round_vs_baseline": paired(net - base_net),
                     "game_win_rate": paired(win), "game_vs_baseline": paired(win - base_win)})
        if step:
            step()
    base = {"rows": rows, "baseline": BASELINE, "rounds_per_dealer": rounds, "games": games, "strategy": strategy}
    if mc_rounds < 1:
        return base | {"mc_rounds_per_dealer": 0, "mc_games": 0}
    policy = ["mc:32", f"threshold:{BASELINE}"] * 2
    net, win = ns_net(policy, mc_rounds, strategy), ns_wins(policy, mc_games, strategy)
    # The same deals as the baseline's first mc_rounds of each dealer block, and its first mc_games games.
    base_sub = np.concatenate([base_net[d * rounds:d * rounds + mc_rounds] for d in range(4)])
    rows.append({"policy": "mc:32", "round_net": paired(net), "round_vs_baseline": paired(net - base_sub),
                 "game_win_rate": paired(win), "game_vs_baseline": paired(win - base_win[:mc_games])})
    if step:
        step()
    return base | {"mc_rounds_per_dealer": mc_rounds, "mc_games": mc_games}


def sweep_markdown(sweep: dict) -> list[str]:
    """The sweep's table as markdown lines (± the 95% half-width)."""
    md = [f"| N+S policy | N+S net per round | vs threshold:{BASELINE} | N+S game win rate | vs threshold:{BASELINE} |",
          "|---|---|---|---|---|"]
    for r in sweep["rows"]:
        a, b, c, d = r["round_net"], r["round_vs_baseline"], r["game_win_rate"], r["game_vs_baseline"]
        md.append(f"| {r['policy']} | {a['mean']:+.2f} ± {1.96 * a['se']:.2f} | "
                  f"{b['mean']:+.2f} ± {1.96 * b['se']:.2f} | {c['mean']:.4f} ± {1.96 * c['se']:.4f} | "
                  f"{d['mean']:+.4f} ± {1.96 * d['se']:.4f} |")
    return md


def exact_meld_counts() -> dict:
    """How many of the C(24,6) hands hold each meld: a sequence of 3+, 4+, 5 cards, four of a kind."""
    counts = {"seq3plus": 0, "seq4plus": 0, "seq5": 0, "four_of_a_kind": 0}
    for h in combinations(DECK_CARDS, 6):
        f = int(meld_flags(np.uint64(sum(1 << c for c in h))))
        run_len, four = f % 8, f >= 8
        counts["seq3plus"] += run_len >= 3
        counts["seq4plus"] += run_len >= 4
        counts["seq5"] += run_len >= 5
        counts["four_of_a_kind"] += four
    total = math.comb(24, 6)
    return {k: {"count": v, "hands": total, "p": v / total} for k, v in counts.items()}


def headline_study(runs, results, *, rounds: int = DEFAULT_ROUNDS, games: int = DEFAULT_GAMES,
                   sweep_rounds: int = DEFAULT_SWEEP_ROUNDS, sweep_games: int = DEFAULT_SWEEP_GAMES,
                   mc_rounds: int = DEFAULT_MC_ROUNDS, mc_games: int = DEFAULT_MC_GAMES, force: bool = False,
                   progress: bool = False, echo=None) -> str:
    """Play the headline study: its runs into the folder ``runs`` (each run folder replaced), its tables, charts
    and findings into the folder ``results``; returns ``findings.md``'s text.

    Parameters
    ----------
    rounds : rounds of each headline run (seed 1, dealer N): accept-first with random and with heuristic play,
        threshold:55 with heuristic play; a quarter as many for heuristic against random.
    games : games to 500 (seed 1, accept-first) with random and with heuristic play.
    sweep_rounds, sweep_games : rounds per dealer and games per N+S bidding policy of the threshold sweep.
    mc_rounds, mc_games : the same for the ``mc:32`` bidding policy (at most the sweep's).
    force : replace the study's files in ``results``; without it, one of :data:`MARKERS` there is a ValueError
        before any work.
    progress : show a progress bar over the study's steps.
    echo : called with the name of each step as it starts.
    """
    from tqdm import tqdm

    if min(rounds, games, sweep_rounds, sweep_games) < 1 or min(mc_rounds, mc_games) < 0:
        raise ValueError("the rounds and games of the study must be at least 1 (the mc ones at least 0)")
    check_folder_files(results, MARKERS, force, "--results")
    out, results = Path(runs), Path(results)
    t0 = time.perf_counter()
    steps = 7 + len(THRESHOLDS) + (mc_rounds > 0)
    with tqdm(total=steps, unit=" steps", disable=not progress, desc="headline study") as bar:
        step = step_teller(bar, echo)

        def done() -> None:
            bar.update(1)

        step("accept-first, random play")
        random_tables = study_run(out, "accept-first-random", rounds, "random", results)
        done()
        step("accept-first, heuristic play")
        heuristic_tables = study_run(out, "accept-first-heuristic", rounds, "heuristic", results)
        done()
        step("threshold:55, heuristic play")
        bidding_tables = study_run(out, "threshold55-heuristic", rounds, "heuristic", results, "threshold:55")
        done()
        summaries = {}
        for strategy in ("random", "heuristic"):
            step(f"games, {strategy} play")
            summaries[strategy] = run_games(games, 1, "accept-first", strategy, out=out / f"games-{strategy}")
            copy_file(out / f"games-{strategy}" / "summary.json", results / f"games_accept-first_{strategy}.json")
            done()
        step("heuristic against random")
        hvr = heuristic_vs_random(rounds // 4)
        done()
        step("bidding threshold sweep")
        sweep = threshold_sweep(sweep_rounds, sweep_games, min(mc_rounds, sweep_rounds), min(mc_games, sweep_games),
                                step=done)
        step("exact meld counts")
        exact = exact_meld_counts()
        done()
    findings = {"heuristic_vs_random": hvr, "threshold_sweep": sweep, "exact_meld_counts": exact,
                "wall_seconds": time.perf_counter() - t0}
    write_json(results / "findings.json", findings, indent=1)
    md = findings_markdown(rounds, random_tables, heuristic_tables, bidding_tables, exact, summaries, hvr, sweep)
    write_text(results / "findings.md", md)
    return md


def findings_markdown(rounds, random_tables, heuristic_tables, bidding_tables, exact, summaries, hvr, sweep) -> str:
    """``findings.md``: the headline runs' tables, the exact meld counts, the games, heuristic against random
    and the bidding sweep."""
    md = ["# Clabber findings", "",
          f"Headline run: {rounds:,} rounds, dealer N, seed 1, `accept-first` bidding.", ""]
    for name, tables in (("random play", random_tables), ("heuristic play", heuristic_tables)):
        md += [f"## Team scores, {name}", "", to_markdown(tables["clabber_scores"]), "",
               f"### Makers by trump count ({name})", "", to_markdown(tables["by_maker_trumps"]), "",
               f"### Makers by turned-up rank ({name})", "", to_markdown(tables["by_turned_rank"]), ""]
    md += ["## Bidding by `threshold:55`, heuristic play (same deals)", "",
           "### Team scores", "", to_markdown(bidding_tables["clabber_scores"]), "",
           "### Rounds thrown in", "", to_markdown(bidding_tables["thrown_in"]), ""]
    for key in ("bid_round", "maker_rel", "maker_trumps", "turned_rank"):
        md += [f"### Makers by {key}", "", to_markdown(bidding_tables[f"by_{key}"]), ""]
    md += ["## Meld frequencies (random run) against exact counts over all C(24,6) hands", "",
           to_markdown(random_tables["meld_frequencies"]), "",
           "| meld | exact hands | exact p |", "|---|---|---|",
           *[f"| {k} | {v['count']:,} / {v['hands']:,} | {v['p']:.6f} |" for k, v in exact.items()], ""]
    md += ["## Games to 500 (`accept-first`, seed 1)", ""]
    for strategy, s in summaries.items():
        md.append(f"- {strategy}: first dealer's team wins {s['first_dealer_team_wins']['mean']:.4f} "
                  f"± {1.96 * s['first_dealer_team_wins']['se']:.4f}, draws {s['draw']['mean']:.5f}, "
                  f"rounds per game {s['rounds_per_game']['mean']:.3f} ± {1.96 * s['rounds_per_game']['se']:.3f} "
                  f"(n = {s['draw']['n']:,})")
    md += ["", "## Heuristic against random play (paired, same deals; points per round)", ""]
    for side, r in hvr.items():
        md.append(f"- as {side}: {r['mean']:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}] (n = {r['n']:,})")
    md += ["", f"## Bidding policy for N+S (E+W bid threshold:{BASELINE}; heuristic play; paired)", "",
           f"Rounds: {sweep['rounds_per_dealer']:,} per dealer seat (mc: {sweep['mc_rounds_per_dealer']:,}); games: "
           f"{sweep['games']:,} (mc: {sweep['mc_games']:,}). ± is the 95% half-width.", "", *sweep_markdown(sweep)]
    return "\n".join(md) + "\n"
