"""What strong play changes: the headline study with a strong player at every seat, next to a baseline.

The headline study's 25 configurations (:mod:`.headline`: every contract, every trump suit and
both trump-choice policies, every domino starting rank and ``most-held``, North declaring) are
played with the strong player at all four seats on the first deals of the seed, and again with
the baseline (``heuristic``) at all four seats on those same deals; with a confirming player
(meant: ``mc``), that player at every seat on the first few of them.  Three run folders go under
one folder (``strong/``, ``baseline/``, ``confirm/``), each chunked and resumable, and extended
when asked for more deals; the tables go to a results folder (``results/strong/``):

- the strong run's report tables, charts, manifest and ``timing.json`` (as the headline study's);
- ``strong_vs_heuristic.{json,csv,md}``: per configuration and seat relative to the declarer, both
  players' means with 95% CIs and their paired difference (strong - baseline) with its CI;
- ``charts/strong_vs_heuristic.{png,svg}``: where the answers change;
- ``changes.md``: which answers change (best domino rank, best trump choice, the seats that move);
- with a confirming player, ``strong_vs_confirm.{json,csv,md}``: the strong player's table against
  the confirming one's, and whether each CI of the difference includes 0.

The steps, each a function: :func:`plan_strong` (every check, before any deal is played),
:func:`play_runs` (the strong and confirming runs), :func:`play_baseline` and :func:`write_tables`.
"""

from __future__ import annotations

import resource
import signal
import sys
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import polars as pl

from ...core import outputs
from ...core.cards import RANK_NAMES
from ...core.rundir import RunError, part_path, read_manifest, settings_stamp
from ...core.runs import lock_run, write_json
from ...core.stats import with_ci
from ...core.tables import to_markdown, write_table
from ..analytics.analysis import domino_rank_differences, relative_scores, scan_run
from ..analytics.compare_plots import CHART_NAME, best_label, declarer_rows, write_comparison_chart
from ..analytics.report import build_tables
from ..analytics.schema import REL_ENUM, REL_SEATS
from ..players.ids import is_mc
from ..players.registry import resolve_strategy
from ..runs import RunConfig, run
from .headline import DEFAULT_SEED, headline_config, publish_report, stored_config

# The study's files in the results folder that are always written: one of them there means an earlier study
# would be replaced.
MARKERS = ("manifest.json", "timing.json", "changes.md", "strong_vs_heuristic.json", "strong_vs_heuristic.md")
SLOW_CHUNK = 25  # mc, pimc: a deal takes seconds, so Ctrl-C and --resume stay close to the work
FAST_CHUNK = 20_000  # any other player: 1,000,000 deals in 50 files of 500,000 records
KEYS = ["contract", "choice", "trump", "domino_rank"]
COMPARE_BLOCK = 100_000  # deals joined at a time when two runs are paired (2.5 M records a side)
DEFAULT_DEALS = 20_000
DEFAULT_STRATEGY = "mc"
DEFAULT_CONFIRM_DEALS = 1000


def _say(message: str) -> None:
    print(message, file=sys.stderr)


def _out_of_time(signum, frame):
    raise KeyboardInterrupt


def default_chunk(strategy: str) -> int:
    """Deals per chunk for a run with ``strategy`` at every seat: small for the Monte-Carlo players."""
    return SLOW_CHUNK if is_mc(resolve_strategy(strategy).builtin_id) else FAST_CHUNK


def study_config(deals: int, seed: int, strategy: str, chunk: int = 0) -> RunConfig:
    """The headline study's configurations with ``strategy`` at every seat (``chunk`` 0: :func:`default_chunk`)."""
    return headline_config(deals, seed, strategy, chunk or default_chunk(strategy))


def extend_run(run_dir: Path, deals: int) -> None:
    """Plan ``deals`` deals for the run in ``run_dir``, which planned fewer.

    A deal is a pure function of the seed and its index, so the run's whole chunks are the
    first chunks of the longer run; a last, shorter chunk is dropped and played again whole.
    """
    with lock_run(run_dir, create=False):
        manifest = read_manifest(run_dir, "deals")
        config = manifest["config"]
        chunk, old = config["chunk_deals"], config["deals"]
        if old % chunk:
            manifest["chunks"].pop(f"{old // chunk:06d}", None)
        config["deals"] = deals
        manifest["complete"] = False
        if "settings_sha256" in manifest:  # the run's own settings change here, so its stamp follows them
            manifest["settings_sha256"] = settings_stamp(manifest)
        write_json(run_dir / "manifest.json", manifest)


def play(run_dir: Path, config: RunConfig, *, reuse: bool, backend, progress: bool, what: str) -> None:
    """Play ``config`` into ``run_dir``.

    With ``reuse``, a run found there that differs from ``config`` in its number of deals
    only is kept: extended when it planned fewer, resumed as it is when it planned as many
    or more (nothing to play when it holds enough deals).  Anything else is started afresh.
    """
    stored = stored_config(run_dir) if reuse else None
    if stored is not None and asdict(replace(stored, deals=config.deals)) == asdict(config):
        done = int(read_manifest(run_dir, "deals")["deals_done"])
        if done >= config.deals:
            return
        if stored.deals < config.deals:
            extend_run(run_dir, config.deals)
        _say(f"{what}: {config.strategies[0]} at every seat, deals {done:,} .. {max(stored.deals, config.deals):,} "
             f"(resumed), {config.chunk_deals:,} a chunk -> {run_dir}")
        run(run_dir, resume=True, progress=progress, backend=backend)
        return
    _say(f"{what}: {config.strategies[0]} at every seat, {config.deals:,} deals, {config.chunk_deals:,} a chunk "
         f"-> {run_dir}")
    run(run_dir, config, force=True, progress=progress, backend=backend)


def _paired_side(run_dir: Path, chunk: int, lo: int, hi: int, prefix: str) -> pl.LazyFrame:
    """Deals ``lo .. hi - 1`` of a run (read from the chunks that hold them): relative scores keyed by deal and
    configuration, a policy's chosen suit / rank left out (both players' policies name the same one)."""
    fixed = pl.col("choice") == "fixed"
    parts = [part_path(run_dir, k) for k in range(lo // chunk, (hi - 1) // chunk + 1)]
    for p in parts:
        if not p.exists():
            raise RunError(f"{run_dir} lacks {p.name} (deals before its last are missing): finish it with --resume")
    records = pl.scan_parquet(parts).filter(pl.col("deal").is_between(lo, hi - 1))
    return relative_scores(records).select(
        "deal", "contract", "choice", pl.when(fixed).then(pl.col("trump")).alias("trump"),
        pl.when(fixed).then(pl.col("domino_rank")).alias("domino_rank"),
        *[pl.col(f"rel_{s}").alias(f"{prefix}{s}") for s in REL_SEATS])


def compare_runs(a_dir: Path, b_dir: Path) -> pl.DataFrame:
    """Two runs of the same configurations, paired on the deals both hold (the first deals of the seed).

    Per configuration (``contract, choice, trump, domino_rank``; the last two null under a
    choice policy) and seat relative to the declarer: ``n``, each run's mean and 95% CI
    (``a_*``, ``b_*``) and the paired difference a - b (``difference, se, ci_low, ci_high``),
    from exact integer sums (reproducible).  The deals are joined a block at a time, so
    memory stays flat however many deals the runs hold.
    """
    manifests = [read_manifest(d, "deals") for d in (a_dir, b_dir)]
    same = ("seed", "contracts", "trump", "domino_rank", "declarer", "rules")
    if any(manifests[0]["config"].get(k) != manifests[1]["config"].get(k) for k in same):
        raise RunError(f"{a_dir} and {b_dir} are not runs of the same configurations and seed: "
                       "their deals cannot be paired")
    for d in (a_dir, b_dir):
        scan_run(d)  # every chunk checked against its manifest: a damaged one is a clear error
    below = min(int(m["deals_done"]) for m in manifests)
    chunks = [int(m["config"]["chunk_deals"]) for m in manifests]
    block = max(*chunks, COMPARE_BLOCK // max(*chunks) * max(*chunks))
    aggs = [pl.len().alias("n")]
    for s in REL_SEATS:
        a, b = pl.col(f"a_{s}").cast(pl.Int64), pl.col(f"b_{s}").cast(pl.Int64)
        for name, v in (("a", a), ("b", b), ("d", a - b)):
            aggs += [v.sum().alias(f"{name}_sum_{s}"), (v * v).sum().alias(f"{name}_sq_{s}")]
    sums = []
    for lo in range(0, below, block):
        hi = min(below, lo + block)
        joined = _paired_side(a_dir, chunks[0], lo, hi, "a_").join(
            _paired_side(b_dir, chunks[1], lo, hi, "b_"), on=["deal", *KEYS], how="inner", nulls_equal=True)
        sums.append(joined.group_by(KEYS).agg(aggs).collect())
    if not sums:
        raise RunError(f"{a_dir} and {b_dir} share no deals")
    wide = pl.concat(sums).group_by(KEYS).agg(pl.exclude(KEYS).sum())  # integer sums: exact in any order
    parts = []
    for s in REL_SEATS:
        part = wide.select(*KEYS, "n", *[pl.col(f"{x}_{kind}_{s}").alias(f"{x}_{kind}") for x in "abd"
                                        for kind in ("sum", "sq")])
        for x in "ab":
            part = with_ci(part, "n", f"{x}_sum", f"{x}_sq").rename(
                {"mean": f"{x}_mean", "ci_low": f"{x}_ci_low", "ci_high": f"{x}_ci_high"}).drop("std", "se")
        part = with_ci(part, "n", "d_sum", "d_sq").rename({"mean": "difference"})
        parts.append(part.select(*KEYS, pl.lit(s).cast(REL_ENUM).alias("rel_seat"), "n", "a_mean", "a_ci_low",
                                 "a_ci_high", "b_mean", "b_ci_low", "b_ci_high", "difference", "se", "ci_low",
                                 "ci_high", ((pl.col("ci_low") <= 0) & (pl.col("ci_high") >= 0))
                                 .alias("ci_includes_0")))
    return pl.concat(parts).sort(*KEYS, "rel_seat", nulls_last=False)


def named(table: pl.DataFrame, names: tuple[str, str]) -> pl.DataFrame:
    """The paired table with each player's columns named after it (``mc``, ``mc_ci_low``...)."""
    rename = {}
    for prefix, name in zip(("a_", "b_"), names):
        rename |= {c: name if c == f"{prefix}mean" else name + c[1:] for c in table.columns if c.startswith(prefix)}
    return table.rename(rename)


def player_names(a: str, b: str) -> tuple[str, str]:
    """Column names for two players: their strategy names, with parameters when the names alone clash."""
    short = (a.split(":")[0], b.split(":")[0])
    return short if short[0] != short[1] else (a, b)


def write_paired(table: pl.DataFrame, names: tuple[str, str], results: Path, name: str, title: str,
                 confirm: bool = False) -> None:
    """``name.{json,csv}`` (every configuration) and ``name.md`` (fixed choices and policies, rounded)."""
    write_table(named(table, names), results, name)
    shown = table.with_columns(pl.when(pl.col("choice") == "fixed").then(pl.lit(""))
                               .otherwise(pl.col("choice").cast(pl.String)).alias("policy"))
    if confirm:
        shown = shown.with_columns(pl.when(pl.col("ci_includes_0")).then(pl.lit("yes")).otherwise(pl.lit("NO"))
                                   .alias("confirmed"))
    shown = named(shown.select("contract", "trump", "domino_rank", "policy", "rel_seat", "n", "a_mean", "b_mean",
                               "difference", "ci_low", "ci_high", *(["confirmed"] if confirm else [])), names)
    shown = shown.with_columns(pl.col("trump", "domino_rank").cast(pl.String).fill_null(""))
    outputs.write_text(results / f"{name}.md", f"# {title}\n\nMeans relative to the declarer; difference = "
                       f"{names[0]} - {names[1]}, paired per deal, with a 95% CI.\n\n"
                       + to_markdown(shown, decimals=2) + "\n")


def changes_text(table: pl.DataFrame, names: tuple[str, str], deals: int, seed: int,
                 domino_close: tuple[list[str], list[str]]) -> str:
    """``changes.md``: which answers of the study change from player b to player a."""
    out = [f"# What changes with {names[0]} at every seat instead of {names[1]}", "",
           (f"The same {deals:,} deals of seed {seed}, North declaring; paired 95% CIs. "
            f"Chart: [charts/{CHART_NAME}.png](charts/{CHART_NAME}.png); every number: "
            "[strong_vs_heuristic.md](strong_vs_heuristic.md)."), ""]
    for contract, what, fixed_only in (("domino", "domino starting rank", True), ("trumps", "trump choice", False)):
        rows = declarer_rows(table, contract)
        if not rows:
            continue
        best = [best_label(rows, p, fixed_only=fixed_only) for p in "ab"]
        by = {r["label"]: r for r in rows}
        line = (f"- **Best {what}**: {best[1]} ({by[best[1]]['b_mean']:+.2f}) under {names[1]}, "
                f"{best[0]} ({by[best[0]]['a_mean']:+.2f}) under {names[0]}: "
                + ("the same." if best[0] == best[1] else "**it changes.**"))
        if contract == "domino":
            line += (f" Ranks whose paired difference from the best includes 0: {', '.join(domino_close[1]) or '-'} "
                     f"under {names[1]}; {', '.join(domino_close[0]) or '-'} under {names[0]}.")
        out.append(line)
    moved = table.filter(~pl.col("ci_includes_0"))
    out += [(f"- **Seats whose value moves beyond the 95% CI**: {moved.height} of {table.height} "
             "(configuration x seat). The largest moves:"), ""]
    top = (moved.with_columns(pl.col("difference").abs().alias("size")).sort("size", descending=True).head(12)
           .with_columns(pl.when(pl.col("choice") == "fixed").then(pl.lit("")).otherwise(
               pl.col("choice").cast(pl.String)).alias("policy")))
    top = top.with_columns(pl.col("trump", "domino_rank").cast(pl.String).fill_null(""))
    out += [to_markdown(named(top.select("contract", "trump", "domino_rank", "policy", "rel_seat", "a_mean",
                                         "b_mean", "difference", "ci_low", "ci_high"), names), decimals=2), ""]
    return "\n".join(out)


@dataclass(frozen=True)
class StrongPlan:
    """What one invocation of the study plays and writes, every check passed (:func:`plan_strong`)."""

    out: Path  # the run folders' folder
    results: Path
    strong: RunConfig  # the strong run (the stored one's settings when it goes on with it)
    baseline: str
    confirm: str | None
    confirm_deals: int
    names: tuple[str, str]  # the strong player's and the baseline's column names
    reuse: bool  # go on with the runs found under ``out`` (--resume)
    tables_only: bool

    @property
    def strong_dir(self) -> Path:
        return self.out / "strong"

    @property
    def baseline_dir(self) -> Path:
        return self.out / "baseline"

    @property
    def confirm_dir(self) -> Path:
        return self.out / "confirm"


def plan_strong(out, results, *, deals: int | None = None, seed: int = DEFAULT_SEED, strategy: str | None = None,
                baseline: str = "heuristic", chunk: int | None = None, confirm: str | None = None,
                confirm_deals: int | None = None, resume: bool = False, tables_only: bool = False,
                force: bool = False) -> StrongPlan:
    """Every check of the study, before any deal is played (ValueError or RunError, one line).

    With ``resume`` or ``tables_only``, the strong run in ``out/strong`` keeps its settings (a
    ``strategy`` that differs is refused; a larger ``deals`` extends it) and the confirmation in
    ``out/confirm`` is kept unless another ``confirm`` player is named.  Otherwise: ``deals``
    (default 20,000) of ``strategy`` (default ``mc``) in chunks of ``chunk`` (default
    :func:`default_chunk`).  The results folder may hold an earlier study, and ``out`` its runs, only with
    ``force``; ``resume`` needs the strong run in ``out``.
    """
    out, results = Path(out), Path(results)
    runs = [name for name in ("strong", "baseline", "confirm") if (out / name / "manifest.json").exists()]
    if resume and "strong" not in runs:
        raise ValueError(f"--resume: no run to finish in {out / 'strong'}: leave --resume out to start the study")
    if runs and not (resume or tables_only or force):  # hours of mc play: never replaced without being asked
        raise ValueError(f"--out {out} holds the study's runs ({', '.join(runs)}): give --resume to go on with them, "
                         "--force to replace them, or name another folder")
    stored = stored_config(out / "strong") if resume or tables_only else None
    if stored is not None:  # the stored run's settings win; a larger --deals extends it
        if strategy is not None and [strategy] * 4 != stored.strategies:
            raise ValueError(f"the run in {out / 'strong'} is of {stored.strategies[0]}, not {strategy}: leave "
                             "--strategy out, or start afresh without --resume")
        strong_cfg = replace(stored, deals=max(stored.deals, deals or 0))
    else:
        strong_cfg = study_config(DEFAULT_DEALS if deals is None else deals, seed, strategy or DEFAULT_STRATEGY,
                                  chunk or 0)
    planned_confirm = DEFAULT_CONFIRM_DEALS if confirm_deals is None else confirm_deals
    kept = stored_config(out / "confirm") if resume or tables_only else None
    if kept is not None and confirm in (None, kept.strategies[0]):  # go on with the stored confirmation
        confirm, planned_confirm = kept.strategies[0], max(kept.deals, confirm_deals or 0)
    names = player_names(strong_cfg.strategies[0], baseline)
    resolve_strategy(baseline)
    if confirm is not None:
        resolve_strategy(confirm)
        if confirm == strong_cfg.strategies[0] or planned_confirm < 1:
            raise ValueError("--confirm needs a player other than the strong one and --confirm-deals of at least 1")
    outputs.check_folder_files(results, MARKERS, force, "--results")
    if tables_only and stored is None:
        raise ValueError(f"no run to make tables from in {out / 'strong'}")
    return StrongPlan(out, results, strong_cfg, baseline, confirm, planned_confirm, names, resume, tables_only)


def play_runs(plan: StrongPlan, *, minutes: float = 0, backend=None, progress: bool = True) -> bool:
    """Play the strong run, then the confirming one (none with ``tables_only``); returns whether play stopped
    early (Ctrl-C, or the end of ``minutes``: at the end of a chunk, every finished chunk kept)."""
    stopped = plan.tables_only
    if minutes > 0:  # the budget ends the strong and confirm runs like Ctrl-C: at the end of a chunk
        signal.signal(signal.SIGALRM, _out_of_time)
        signal.alarm(max(1, int(minutes * 60)))
    try:
        confirm_cfg = plan.confirm and study_config(plan.confirm_deals, plan.strong.seed, plan.confirm)
        for what, run_dir, cfg in (("strong", plan.strong_dir, plan.strong), ("confirm", plan.confirm_dir,
                                                                               confirm_cfg)):
            if cfg and stopped and not plan.tables_only:
                _say(f"{what}: not played this time (the run stopped first); --resume plays it")
            elif cfg and not stopped:
                try:
                    play(run_dir, cfg, reuse=plan.reuse, backend=backend, progress=progress, what=what)
                except KeyboardInterrupt:
                    stopped = True
                    _say("Stopped: the tables are made from the deals done; go on later with --resume")
    finally:
        if minutes > 0:
            signal.alarm(0)
    return stopped


def deals_done(plan: StrongPlan) -> int:
    """The deals the strong run has finished (RunError when it cannot be read)."""
    return int(read_manifest(plan.strong_dir, "deals")["deals_done"])


def play_baseline(plan: StrongPlan, done: int, *, backend=None, progress: bool = True) -> None:
    """Bring the baseline run up to the strong run's ``done`` deals (extended or resumed where it can be)."""
    play(plan.baseline_dir, study_config(done, plan.strong.seed, plan.baseline),
         reuse=plan.reuse or plan.tables_only, backend=backend, progress=progress, what="baseline")


def write_tables(plan: StrongPlan, done: int) -> dict:
    """Write the study's files into the results folder from the runs on disk; returns ``timing.json``'s content."""
    strong_dir, base_dir, confirm_dir, results = plan.strong_dir, plan.baseline_dir, plan.confirm_dir, plan.results
    strong_cfg, names, confirm = plan.strong, plan.names, plan.confirm
    started = time.perf_counter()
    tables = build_tables(strong_dir)
    publish_report(strong_dir, results, tables)
    report_seconds = time.perf_counter() - started
    comparison = compare_runs(strong_dir, base_dir)
    seed = strong_cfg.seed
    write_paired(comparison, names, results, "strong_vs_heuristic",
                 f"{strong_cfg.strategies[0]} at every seat against {plan.baseline} at every seat, "
                 f"on the same {done:,} deals of seed {seed}")
    write_comparison_chart(comparison, names, seed, results / "charts")
    base_ranks = domino_rank_differences(scan_run(base_dir).filter(pl.col("deal") < done))
    close = tuple(sorted(t.filter(pl.col("ci_high") >= 0)["domino_rank"].to_list(), key=RANK_NAMES.index)
                  if not t.is_empty() else [] for t in (tables.get("domino_rank_differences", pl.DataFrame()),
                                                         base_ranks))
    text = changes_text(comparison, names, done, seed, close)
    timing = {"deals": done, "deals_planned": strong_cfg.deals, "configurations": len(strong_cfg.configs()),
              "strategy": strong_cfg.strategies[0], "chunk_deals": strong_cfg.chunk_deals}
    for what, run_dir in (("strong", strong_dir), ("baseline", base_dir), ("confirm", confirm_dir)):
        if (run_dir / "manifest.json").exists() and (what != "confirm" or confirm):
            m = read_manifest(run_dir, "deals")
            timing[what] = {"strategy": m["config"]["strategies"][0], "deals": m["deals_done"],
                            "wall_seconds": m["wall_seconds"],
                            "deals_per_second": m["deals_done"] / m["wall_seconds"] if m["wall_seconds"] else None}
    if confirm and (confirm_dir / "manifest.json").exists():
        confirmed = compare_runs(strong_dir, confirm_dir)
        c_names = player_names(strong_cfg.strategies[0], confirm)
        n = int(confirmed["n"].min())
        write_paired(confirmed, c_names, results, "strong_vs_confirm",
                     f"{strong_cfg.strategies[0]} against {confirm} (each at every seat) on the same first {n:,} "
                     f"deals of seed {seed}: confirmed where the CI of the difference includes 0", confirm=True)
        ok = int(confirmed["ci_includes_0"].sum())
        text += (f"\n## Confirmation\n\nOn the first {n:,} deals, {confirm} at every seat: {ok} of {confirmed.height} "
                 f"configuration x seat values of {c_names[0]} are within the 95% CI of {c_names[1]}'s "
                 "([strong_vs_confirm.md](strong_vs_confirm.md)).\n")
    outputs.write_text(results / "changes.md", text)
    timing["tables_seconds"] = time.perf_counter() - started
    timing["report_seconds"] = report_seconds
    timing["peak_memory_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    outputs.write_json(results / "timing.json", timing)
    return timing
