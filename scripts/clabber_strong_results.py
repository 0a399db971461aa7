"""What strong play changes in Clabber: the study of scripts/clabber_results.py with a strong card player
(`learned`) at every seat, next to `heuristic` on the same rounds, and the bidding thresholds under each.

Every run plays rounds of seed 1, dealer N, so round i is the same deal under either player; bidding by
`accept-first` or `threshold:55` does not look at the card play, so the same seat makes the same trumps
and every comparison is paired round by round.  Writes into results/clabber/strong/:

  <bidding>-<player>/: each headline run's JSON tables and charts (as results/clabber/);
  games_accept-first_<player>.json: games to 500 (seed 1);
  strong_vs_heuristic.{json,md}: per table (accept-first and threshold:55; all rounds, by trump count,
    turned-up rank, bidding round, maker's seat), both players' means and the paired difference with its CI;
  sweep.json: N+S bidding threshold:X (and mc:32 when --mc-bid-rounds) against threshold:60, under each player;
  strong_vs_confirm.{json,md}: with --confirm mc, the strong player against mc on the first --confirm-rounds;
  charts/strong_vs_heuristic.{png,svg}, changes.md, findings.{json,md}; timing.json (seconds, the one file
  that differs from one run to the next).

    python scripts/clabber_strong_results.py --force               # results/clabber/strong/ (4 minutes on 2 cores)
    python scripts/clabber_strong_results.py --rounds 3000 --games 60 --sweep-rounds 300 --sweep-games 40 \\
        --confirm-rounds 40 --out /tmp/cs --results /tmp/cs/results
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from clabber_results import BASELINE, study_run, sweep_markdown, threshold_sweep  # noqa: E402
from barbu_sim.clabber.analytics.analysis import paired_by_group, scan_run  # noqa: E402
from barbu_sim.clabber.analytics.plots import plot_strong_changes  # noqa: E402
from barbu_sim.clabber.game.game import run_games  # noqa: E402
from barbu_sim.clabber.players.registry import resolve_strategy  # noqa: E402
from barbu_sim.core.backends import make_backend  # noqa: E402
from barbu_sim.core.charts import save_figure  # noqa: E402
from barbu_sim.core.tables import to_markdown  # noqa: E402
from barbu_sim.core.outputs import add_force, atomic, check_folder_files, copy_file, write_json, write_text  # noqa: E402

STUDIES = {"accept-first": ("accept-first", (None, "maker_trumps", "turned_rank")),
           "threshold55": ("threshold:55", (None, "maker_trumps", "turned_rank", "bid_round", "maker_rel"))}
# The study's files in --results that are always written: one of them there means an earlier study would be replaced.
MARKERS = ("strong_vs_heuristic.json", "strong_vs_heuristic.md", "sweep.json", "changes.md", "findings.json",
           "findings.md", "timing.json")
THRESHOLDS = (40, 45, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 60, 65, 70)  # every X near the best


def compare(a_dir: Path, b_dir: Path, study: str, keys) -> pl.DataFrame:
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


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--strategy", default="learned", help="the strong card player, at every seat")
    p.add_argument("--baseline", default="heuristic")
    p.add_argument("--rounds", type=int, default=1_000_000)
    p.add_argument("--games", type=int, default=50_000)
    p.add_argument("--sweep-rounds", type=int, default=100_000, help="rounds per dealer per threshold")
    p.add_argument("--sweep-games", type=int, default=20_000)
    p.add_argument("--mc-bid-rounds", type=int, default=20_000, help="rounds per dealer for the mc:32 bidding "
                   "policy, and a fifth as many games (0: left out)")
    p.add_argument("--thresholds", default=",".join(map(str, THRESHOLDS)), help="the X of the sweep, comma-separated")
    p.add_argument("--confirm", default="mc", help="the reference card player of the confirmation ('' for none)")
    p.add_argument("--confirm-rounds", type=int, default=200_000)
    p.add_argument("--out", default=str(ROOT / "runs" / "clabber-strong"))
    p.add_argument("--results", default=str(ROOT / "results" / "clabber" / "strong"))
    p.add_argument("--backend", default="local", help="local, or ray: every run's chunks as Ray tasks (same files)")
    add_force(p, "replace the study's files in --results if they exist (without it, they are refused before any "
                 "work)")
    args = p.parse_args(argv)
    try:
        for s in (args.strategy, args.baseline, *([args.confirm] if args.confirm else [])):
            resolve_strategy(s)
        try:
            thresholds = tuple(int(x) for x in args.thresholds.split(","))
        except ValueError:
            raise ValueError(f"--thresholds takes whole numbers separated by commas, not {args.thresholds!r}") from None
        if min(args.rounds, args.games, args.sweep_rounds, args.sweep_games) < 1:
            raise ValueError("--rounds, --games, --sweep-rounds and --sweep-games must be at least 1")
        check_folder_files(args.results, MARKERS, args.force, "--results")
        backend = make_backend(args.backend, None)
    except ValueError as e:
        print(f"Error: {e}", file=sys.stderr)
        sys.exit(2)
    out, results = Path(args.out), Path(args.results)
    names = (args.strategy.split(":")[0], args.baseline.split(":")[0])
    t0, timing = time.perf_counter(), {}
    for player in (args.strategy, args.baseline):
        for study, (bidding, _) in STUDIES.items():
            t = time.perf_counter()
            study_run(out, f"{study}-{player}", args.rounds, player, results, bidding, backend)
            timing[f"{study}-{player}"] = time.perf_counter() - t
    table = pl.concat([compare(out / f"{s}-{args.strategy}", out / f"{s}-{args.baseline}", s, keys)
                       for s, (_, keys) in STUDIES.items()])
    with atomic(results / "strong_vs_heuristic.json") as tmp:
        table.write_json(tmp)
    write_text(results / "strong_vs_heuristic.md",
        f"# {args.strategy} against {args.baseline} card play (each at every seat), the same {args.rounds:,} rounds\n\n"
        f"Paired per round; difference = {names[0]} - {names[1]}, 95% CI; `moves`: the CI excludes 0.\n\n"
        + shown(table, names) + "\n")
    games = {}
    for player in (args.strategy, args.baseline):
        games[player] = run_games(args.games, 1, "accept-first", player, out=out / f"games-{player}", backend=backend)
        copy_file(out / f"games-{player}" / "summary.json", results / f"games_accept-first_{player}.json")
    sweeps = {}
    for player in (args.strategy, args.baseline):
        t = time.perf_counter()
        sweeps[player] = threshold_sweep(args.sweep_rounds, args.sweep_games,
                                         min(args.mc_bid_rounds, args.sweep_rounds),
                                         min(args.mc_bid_rounds // 5, args.sweep_games), player, thresholds)
        timing[f"sweep-{player}"] = time.perf_counter() - t
    write_json(results / "sweep.json", sweeps, indent=1)
    curves = {p: [{"threshold": int(r["policy"].split(":")[1]), "mean": r["game_win_rate"]["mean"],
                   "half": 1.96 * r["game_win_rate"]["se"]} for r in s["rows"] if r["policy"].startswith("threshold")]
              for p, s in sweeps.items()}
    first = table.filter(pl.col("study") == "accept-first")
    fig = plot_strong_changes(first.filter(pl.col("group") == "maker_trumps"),
                              first.filter(pl.col("group") == "turned_rank"), curves, names)
    (results / "charts").mkdir(parents=True, exist_ok=True)
    save_figure(fig, results / "charts" / "strong_vs_heuristic")
    confirm = args.confirm or None
    text = changes_text(table, names, sweeps, games, args.rounds, confirm)
    if confirm:
        n = min(args.confirm_rounds, args.rounds)
        t = time.perf_counter()
        study_run(out, f"accept-first-{confirm}", n, confirm, results, "accept-first", backend)
        timing[f"accept-first-{confirm}"] = time.perf_counter() - t
        keys = STUDIES["accept-first"][1]
        conf = compare(out / f"accept-first-{args.strategy}", out / f"accept-first-{confirm}", "accept-first", keys)
        base = compare(out / f"accept-first-{confirm}", out / f"accept-first-{args.baseline}", "accept-first", keys)
        with atomic(results / "strong_vs_confirm.json") as tmp:
            conf.write_json(tmp)
        c_names = (names[0], confirm.split(":")[0])
        moved = first.filter(pl.col("moves")).select("group", "value", "metric", pl.col("difference").alias("d_strong"))
        agree = moved.join(base.select("group", "value", "metric", pl.col("difference").alias("d_confirm"),
                                       pl.col("ci_low").alias("c_low"), pl.col("ci_high").alias("c_high")),
                           on=["group", "value", "metric"], how="inner")
        same_sign = agree.filter((pl.col("d_strong") > 0) == (pl.col("d_confirm") > 0))
        write_text(results / "strong_vs_confirm.md",
            f"# {args.strategy} against {confirm} card play (each at every seat), accept-first, the first {n:,} rounds"
            f"\n\nPaired per round; difference = {c_names[0]} - {c_names[1]}; confirmed where the 95% CI "
            "includes 0.\n\n"
            + shown(conf, c_names, confirm=True) + "\n\n"
            f"## The moves of {names[0]} over {names[1]}, seen by {c_names[1]}\n\n"
            f"{confirm} - {names[1]} on the same {n:,} rounds, for each value that moves under {names[0]}:\n\n"
            + to_markdown(agree, decimals=3) + "\n")
        text += (f"\nOn the first {n:,} rounds (accept-first): {int((~conf['moves']).sum())} of {conf.height} "
                 "values of "
                 f"{names[0]} lie within the 95% CI of {confirm}'s; of the {moved.height} values that move from "
                 f"{names[1]} to {names[0]}, {same_sign.height} move the same way from {names[1]} to {confirm}.\n")
    write_text(results / "changes.md", text)
    findings = {"rounds": args.rounds, "players": list(names), "games": games, "sweep_thresholds": list(thresholds),
                "best_threshold": {p: {f: best(s, f) for f in ("game_win_rate", "round_net")}
                                   for p, s in sweeps.items()},
                "confirm": confirm, "confirm_rounds": min(args.confirm_rounds, args.rounds) if confirm else 0}
    write_json(results / "findings.json", findings, indent=1)
    timing["wall_seconds"] = time.perf_counter() - t0
    write_json(results / "timing.json", timing, indent=1)
    md = [text, f"## The sweeps (N+S against E+W threshold:{BASELINE})", ""]
    for player, s in sweeps.items():
        md += [f"### {player} card play: {s['rounds_per_dealer']:,} rounds per dealer, {s['games']:,} games", "",
               *sweep_markdown(s), ""]
    write_text(results / "findings.md", "\n".join(md))
    print("\n".join(md))


if __name__ == "__main__":
    main()
