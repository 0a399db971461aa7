"""What strong play changes in Clabber (``barbu-sim clabber study strong``): the headline study (:mod:`.headline`)
with a strong card player (``learned``) at every seat, next to ``heuristic`` on the same rounds, and the bidding
thresholds under each.

Every run plays rounds of seed 1, dealer N, so round i is the same deal under either player; bidding by
``accept-first`` or ``threshold:55`` does not look at the card play, so the same seat makes the same trumps
and every comparison is paired round by round.  It writes into a results folder (``results/clabber/strong/``):

- ``<bidding>-<player>/``: each headline run's JSON tables and charts (as ``results/clabber/``);
- ``games_accept-first_<player>.json``: games to 500 (seed 1);
- ``strong_vs_heuristic.{json,md}``: per table (accept-first and threshold:55; all rounds, by trump count,
  turned-up rank, bidding round, maker's seat), both players' means and the paired difference with its CI;
- ``sweep.json``: N+S bidding threshold:X (and mc:32 with ``mc_bid_rounds``) against threshold:60, under each player;
- ``strong_vs_confirm.{json,md}``: with ``confirm`` (mc), the strong player against it on the first rounds;
- ``charts/strong_vs_heuristic.{png,svg}``, ``changes.md``, ``findings.{json,md}``; ``timing.json`` (seconds,
  the one file that differs from one run to the next).
"""

from __future__ import annotations

import time
from pathlib import Path

import polars as pl

from ...core.charts import save_figure
from ...core.outputs import atomic, check_folder_files, copy_file, write_json, write_text
from ...core.tables import to_markdown
from ..analytics.analysis import paired_by_group, scan_run
from ..analytics.plots import plot_strong_changes
from ..game.game import run_games
from .compare import check_players
from .headline import BASELINE, step_teller, study_run, sweep_markdown, threshold_sweep

STUDIES = {"accept-first": ("accept-first", (None, "maker_trumps", "turned_rank")),
           "threshold55": ("threshold:55", (None, "maker_trumps", "turned_rank", "bid_round", "maker_rel"))}
# The study's files in the results folder that are always written: one of them there means an earlier study would
# be replaced.
MARKERS = ("strong_vs_heuristic.json", "strong_vs_heuristic.md", "sweep.json", "changes.md", "findings.json",
           "findings.md", "timing.json")
THRESHOLDS = (40, 45, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 60, 65, 70)  # every X near the best
# The sizes of the published study (results/clabber/strong/).
DEFAULT_ROUNDS = 1_000_000
DEFAULT_GAMES = 50_000
DEFAULT_SWEEP_ROUNDS = 100_000
DEFAULT_SWEEP_GAMES = 20_000
DEFAULT_MC_BID_ROUNDS = 20_000
DEFAULT_CONFIRM_ROUNDS = 200_000


def parse_thresholds(text: str) -> tuple[int, ...]:
    """The X of ``--thresholds``: whole numbers separated by commas."""
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise ValueError(f"--thresholds takes whole numbers separated by commas, not {text!r}") from None


def paired_tables(a_dir: Path, b_dir: Path, study: str, keys) -> pl.DataFrame:
    """The paired tables of two runs of one study, stacked: ``study``, ``group``, ``value``, then the columns of
    :func:`paired_by_group`."""
    parts = []
    for key in keys:
        t = paired_by_group(scan_run(a_dir), scan_run(b_dir), key)
        value = pl.col(key) if key else pl.lit("all")
        parts.append(t.select(pl.lit(study).alias("study"), pl.lit(key or "all").alias("group"),
                              value.alias("value"), *[c for c in t.columns if c != key]))
    return pl.concat(parts)


def shown(table: pl.DataFrame, names: tuple[str, str], confirm: bool = False) -> str:
    """The paired table as markdown, each player's column named after it."""
    flag = pl.when(pl.col("moves")).then(pl.lit("NO" if confirm else "moves")).otherwise(
        pl.lit("yes" if confirm else "holds")).alias("confirmed" if confirm else "answer")
    return to_markdown(table.with_columns(flag).drop("moves", "se").rename({"a": names[0], "b": names[1]}),
                       decimals=3)


def best(sweep: dict, field: str) -> str:
    """The policy with the highest mean of ``field`` (``game_win_rate`` or ``round_net``) in a sweep."""
    return max(sweep["rows"], key=lambda r: r[field]["mean"])["policy"]


def close_to_best(sweep: dict, field: str, vs: str) -> list[str]:
    """Policies whose paired difference from threshold:60 (``vs``) has a CI overlapping the best one's."""
    rows = {r["policy"]: r for r in sweep["rows"]}
    top = rows[best(sweep, field)][vs]
    return [p for p, r in rows.items() if r[vs]["ci_high"] >= top["ci_low"]]


def changes_text(table: pl.DataFrame, names, sweeps: dict, games: dict, rounds: int, confirm: str | None) -> str:
    """``changes.md``: which answers of results/clabber/ move from the baseline to the strong player."""
    a, b = names
    out = [f"# What changes in Clabber with {a} card play at every seat instead of {b}", "",
           f"The same {rounds:,} rounds of seed 1, dealer N, paired round by round; 95% CIs. Chart: "
           "[charts/strong_vs_heuristic.png](charts/strong_vs_heuristic.png); every number: "
           "[strong_vs_heuristic.md](strong_vs_heuristic.md).", "", "## Makers' success and scores", ""]
    for study in STUDIES:
        t = table.filter(pl.col("study") == study)
        made = t.filter(pl.col("metric") == "made")
        allr = made.filter(pl.col("group") == "all").row(0, named=True)
        out.append(f"- **{study}**: makers score in {100 * allr['b']:.2f}% of played rounds under {b}, "
                   f"{100 * allr['a']:.2f}% under {a} ({100 * allr['difference']:+.2f} points of %, "
                   f"[{100 * allr['ci_low']:+.2f}, {100 * allr['ci_high']:+.2f}]); "
                   f"{int(t['moves'].sum())} of {t.height} table values move beyond the CI.")
        for group in STUDIES[study][1][1:]:
            g = made.filter(pl.col("group") == group)
            worst = [g.sort(col)["value"][0] for col in ("b", "a")]
            out.append(f"  - lowest success by {group}: {worst[0]} under {b}, {worst[1]} under {a}: "
                       + ("the same." if worst[0] == worst[1] else "**it changes.**"))
    out += ["", "## Bidding threshold (N+S threshold:X against E+W threshold:60)", ""]
    for field, what, vs in (("game_win_rate", "game win rate", "game_vs_baseline"),
                            ("round_net", "net points per round", "round_vs_baseline")):
        tops = {p: best(s, field) for p, s in sweeps.items()}
        out.append(f"- **Best by {what}**: " + "; ".join(
            f"{tops[p]} under {p} (within the CI of it: {', '.join(close_to_best(s, field, vs))})"
            for p, s in sweeps.items()) + (": the same." if len(set(tops.values())) == 1 else ": **it changes.**"))
    out += ["", "## Games to 500 (accept-first)", ""]
    for p, s in games.items():
        w = s["first_dealer_team_wins"]
        out.append(f"- {p}: first dealer's team wins {w['mean']:.4f} ± {1.96 * w['se']:.4f}, rounds per game "
                   f"{s['rounds_per_game']['mean']:.3f} (n = {w['n']:,})")
    if confirm:
        out += ["", "## Confirmation", "", f"See [strong_vs_confirm.md](strong_vs_confirm.md): {a} against {confirm} "
                "at every seat on the first rounds of the same runs."]
    return "\n".join(out) + "\n"


def check_strong(results, *, strategy: str, baseline: str, confirm: str | None, sizes, force: bool) -> None:
    """The strong study's checks before any work (ValueError): known players, sizes of at least 1, and a results
    folder without the study's files unless ``force``."""
    check_players({"--strategy": strategy, "--baseline": baseline, **({"--confirm": confirm} if confirm else {})})
    if min(sizes) < 1:
        raise ValueError("--rounds, --games, --sweep-rounds and --sweep-games must be at least 1")
    check_folder_files(results, MARKERS, force, "--results")


def strong_study(runs, results, *, strategy: str = "learned", baseline: str = "heuristic",
                 rounds: int = DEFAULT_ROUNDS, games: int = DEFAULT_GAMES, sweep_rounds: int = DEFAULT_SWEEP_ROUNDS,
                 sweep_games: int = DEFAULT_SWEEP_GAMES, mc_bid_rounds: int = DEFAULT_MC_BID_ROUNDS,
                 thresholds=THRESHOLDS, confirm: str | None = "mc", confirm_rounds: int = DEFAULT_CONFIRM_ROUNDS,
                 backend=None, force: bool = False, progress: bool = False, echo=None) -> str:
    """Play the strong study: its runs into the folder ``runs`` (each run folder replaced), its tables, charts and
    findings into the folder ``results``; returns ``findings.md``'s text.

    Parameters
    ----------
    strategy : the strong card player, at every seat; ``baseline`` the player it is set against.
    rounds : rounds of each headline run (seed 1, dealer N; accept-first and threshold:55 bidding).
    games : games to 500 (seed 1, accept-first) under each player.
    sweep_rounds, sweep_games : rounds per dealer and games per N+S bidding policy of the threshold sweeps.
    mc_bid_rounds : rounds per dealer for the mc:32 bidding policy, and a fifth as many games (0: left out).
    thresholds : the X of the sweeps.
    confirm : the reference card player of the confirmation (None: none), on the first ``confirm_rounds``.
    backend : where the runs and games are played (:mod:`barbu_sim.core.backends`; default this process).
    force : replace the study's files in ``results``; without it, one of :data:`MARKERS` there is a ValueError
        before any work.
    progress : show a progress bar over the study's steps.
    echo : called with the name of each step as it starts.
    """
    from tqdm import tqdm

    confirm = confirm or None
    check_strong(results, strategy=strategy, baseline=baseline, confirm=confirm,
                 sizes=(rounds, games, sweep_rounds, sweep_games), force=force)
    out, results = Path(runs), Path(results)
    names = (strategy.split(":")[0], baseline.split(":")[0])
    players = (strategy, baseline)
    t0, timing = time.perf_counter(), {}
    steps = len(players) * (len(STUDIES) + 2) + bool(confirm)  # the runs, the games, the sweeps, the confirmation
    with tqdm(total=steps, unit=" steps", disable=not progress, desc="strong study") as bar:
        step = step_teller(bar, echo)

        for player in players:
            for study, (bidding, _) in STUDIES.items():
                step(f"{study}, {player} play")
                t = time.perf_counter()
                study_run(out, f"{study}-{player}", rounds, player, results, bidding, backend)
                timing[f"{study}-{player}"] = time.perf_counter() - t
                bar.update(1)
        table = pl.concat([paired_tables(out / f"{s}-{strategy}", out / f"{s}-{baseline}", s, keys)
                           for s, (_, keys) in STUDIES.items()])
        with atomic(results / "strong_vs_heuristic.json") as tmp:
            table.write_json(tmp)
        write_text(results / "strong_vs_heuristic.md",
                   f"# {strategy} against {baseline} card play (each at every seat), the same {rounds:,} rounds\n\n"
                   f"Paired per round; difference = {names[0]} - {names[1]}, 95% CI; `moves`: the CI excludes 0.\n\n"
                   + shown(table, names) + "\n")
        games_done = {}
        for player in players:
            step(f"games, {player} play")
            games_done[player] = run_games(games, 1, "accept-first", player, out=out / f"games-{player}",
                                           backend=backend)
            copy_file(out / f"games-{player}" / "summary.json", results / f"games_accept-first_{player}.json")
            bar.update(1)
        sweeps = {}
        for player in players:
            step(f"bidding threshold sweep, {player} play")
            t = time.perf_counter()
            sweeps[player] = threshold_sweep(sweep_rounds, sweep_games, min(mc_bid_rounds, sweep_rounds),
                                             min(mc_bid_rounds // 5, sweep_games), player, thresholds)
            timing[f"sweep-{player}"] = time.perf_counter() - t
            bar.update(1)
        write_json(results / "sweep.json", sweeps, indent=1)
        curves = {p: [{"threshold": int(r["policy"].split(":")[1]), "mean": r["game_win_rate"]["mean"],
                       "half": 1.96 * r["game_win_rate"]["se"]} for r in s["rows"]
                      if r["policy"].startswith("threshold")]
                  for p, s in sweeps.items()}
        first = table.filter(pl.col("study") == "accept-first")
        fig = plot_strong_changes(first.filter(pl.col("group") == "maker_trumps"),
                                  first.filter(pl.col("group") == "turned_rank"), curves, names)
        (results / "charts").mkdir(parents=True, exist_ok=True)
        save_figure(fig, results / "charts" / "strong_vs_heuristic")
        text = changes_text(table, names, sweeps, games_done, rounds, confirm)
        if confirm:
            step(f"confirmation, {confirm} play")
            n = min(confirm_rounds, rounds)
            t = time.perf_counter()
            study_run(out, f"accept-first-{confirm}", n, confirm, results, "accept-first", backend)
            timing[f"accept-first-{confirm}"] = time.perf_counter() - t
            text += confirmation(out, results, strategy, baseline, confirm, n, names, first)
            bar.update(1)
    write_text(results / "changes.md", text)
    findings = {"rounds": rounds, "players": list(names), "games": games_done, "sweep_thresholds": list(thresholds),
                "best_threshold": {p: {f: best(s, f) for f in ("game_win_rate", "round_net")}
                                   for p, s in sweeps.items()},
                "confirm": confirm, "confirm_rounds": min(confirm_rounds, rounds) if confirm else 0}
    write_json(results / "findings.json", findings, indent=1)
    timing["wall_seconds"] = time.perf_counter() - t0
    write_json(results / "timing.json", timing, indent=1)
    md = [text, f"## The sweeps (N+S against E+W threshold:{BASELINE})", ""]
    for player, s in sweeps.items():
        md += [f"### {player} card play: {s['rounds_per_dealer']:,} rounds per dealer, {s['games']:,} games", "",
               *sweep_markdown(s), ""]
    findings_md = "\n".join(md)
    write_text(results / "findings.md", findings_md)
    return findings_md


def confirmation(out: Path, results: Path, strategy: str, baseline: str, confirm: str, n: int, names,
                 first: pl.DataFrame) -> str:
    """Write ``strong_vs_confirm.{json,md}`` (the strong player against ``confirm`` on the first ``n`` accept-first
    rounds) and return the paragraph ``changes.md`` ends with."""
    keys = STUDIES["accept-first"][1]
    conf = paired_tables(out / f"accept-first-{strategy}", out / f"accept-first-{confirm}", "accept-first", keys)
    base = paired_tables(out / f"accept-first-{confirm}", out / f"accept-first-{baseline}", "accept-first", keys)
    with atomic(results / "strong_vs_confirm.json") as tmp:
        conf.write_json(tmp)
    c_names = (names[0], confirm.split(":")[0])
    moved = first.filter(pl.col("moves")).select("group", "value", "metric", pl.col("difference").alias("d_strong"))
    agree = moved.join(base.select("group", "value", "metric", pl.col("difference").alias("d_confirm"),
                                   pl.col("ci_low").alias("c_low"), pl.col("ci_high").alias("c_high")),
                       on=["group", "value", "metric"], how="inner")
    same_sign = agree.filter((pl.col("d_strong") > 0) == (pl.col("d_confirm") > 0))
    write_text(results / "strong_vs_confirm.md",
               f"# {strategy} against {confirm} card play (each at every seat), accept-first, the first {n:,} rounds"
               f"\n\nPaired per round; difference = {c_names[0]} - {c_names[1]}; confirmed where the 95% CI "
               "includes 0.\n\n"
               + shown(conf, c_names, confirm=True) + "\n\n"
               f"## The moves of {names[0]} over {names[1]}, seen by {c_names[1]}\n\n"
               f"{confirm} - {names[1]} on the same {n:,} rounds, for each value that moves under {names[0]}:\n\n"
               + to_markdown(agree, decimals=3) + "\n")
    return (f"\nOn the first {n:,} rounds (accept-first): {int((~conf['moves']).sum())} of {conf.height} values of "
            f"{names[0]} lie within the 95% CI of {confirm}'s; of the {moved.height} values that move from "
            f"{names[1]} to {names[0]}, {same_sign.height} move the same way from {names[1]} to {confirm}.\n")
