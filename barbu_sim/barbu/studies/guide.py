"""The declaring guide study: tables by hand on strong play, the guide fitted from them, and its page.

Two runs with their hands (``runs/guide/cards``: the seven contracts, Trumps naming the longest suit and
Domino the rank held most; ``runs/guide/choices``: Trumps in each suit and Domino from each rank, on the same
deals), ``learned`` at every seat by default.  From them:

- a **score card** per contract (:mod:`barbu_sim.barbu.analytics.guide_fit`): the declarer's expected score
  by the one or two counts of the hand that explain most of its spread;
- a **choice card** for the trump suit (by the suit's length and honours) and the domino rank (by the cards
  of the rank held and those far from it), and what naming by the card gains over naming the longest suit or
  the rank held most, paired on the same deals;
- ``guide.json`` (what the ``guide`` contract policy plays), the tables as CSV and JSON, and the page
  ``docs/guide.md`` with its chart, which also quotes a ``compare-orders`` folder's measurement of the guide.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from ...core import outputs
from ...core.files import write_json, write_text
from ...core.rundir import RunError, read_manifest
from ...core.stats import Z95
from ...core.tables import write_table
from ..analytics.analysis import scan_run
from ..analytics.guide_fit import CARD_CHOICE, fit_card, fit_cards
from ..analytics.hands import scan_hands, with_hands
from ..runs import RunConfig, run, write_hands

DEFAULT_DEALS = 1_000_000
DEFAULT_SEED = 2026
DEFAULT_STRATEGY = "learned"
CHOICE_FEATURES = {"trumps": ["trump_length", "trump_honours"], "domino": ["domino_start", "domino_spread"]}


def run_configs(deals: int, choice_deals: int, seed: int, strategy: str) -> dict[str, RunConfig]:
    """The study's two runs: ``cards`` (the seven contracts as the guide names them) and ``choices``."""
    players = [strategy] * 4
    return {"cards": RunConfig(deals=deals, seed=seed, strategies=players, trump="longest",
                               domino_rank="most-held"),
            "choices": RunConfig(deals=choice_deals, seed=seed, strategies=players, contracts=["trumps", "domino"],
                                 trump="each", domino_rank="each")}


def play_runs(runs_dir, configs: dict[str, RunConfig], progress: bool = True) -> None:
    """Play (or finish, or keep) each run with its hands: a complete run of the same config is kept, an
    interrupted one resumed; a folder holding another run is refused."""
    for name, config in configs.items():
        out = Path(runs_dir) / name
        stored = None
        if (out / "manifest.json").exists():
            manifest = read_manifest(out, "deals")
            stored = RunConfig(**manifest["config"])
            if stored != config:
                raise RunError(f"{out} holds another run than this study's (its deals, seed or players differ): "
                               "give another --runs, or delete it")
            if not manifest["complete"]:
                run(out, resume=True, progress=progress)
        else:
            run(out, config, progress=progress)
        if not (out / "hands.parquet").exists():
            write_hands(out)


def _joined(run_dir) -> pl.LazyFrame:
    return with_hands(scan_run(run_dir), scan_hands(run_dir, read_manifest(run_dir, "deals")))


def choice_gain(joined: pl.LazyFrame, named: pl.LazyFrame, contract: str, card: dict, policy: str) -> dict:
    """What naming the suit / rank the choice card scores highest gains over ``policy``'s on the same deals:
    per deal, the card's pick among the fixed rows of ``joined`` against the ``policy`` row of ``named`` (a run
    of the same seed and players: the same deals, played alike) (``n``, ``mean``, ``ci_low``, ``ci_high`` of
    the paired difference, and ``hindsight``: the best suit / rank of each deal's, known after play)."""
    param = "trump" if contract == "trumps" else "domino_rank"
    features = card["features"]
    lookup = pl.DataFrame(card["cells"]).select(*features, pl.col("mean").alias("card"))
    fixed = joined.filter((pl.col("contract") == contract) & (pl.col("choice") == "fixed")).with_columns(
        *[pl.col(f).clip(*card["clip"][f]) for f in features])
    fixed = fixed.join(lookup.lazy(), on=features, how="left").with_columns(pl.col("card").fill_null(card["average"]))
    score = pl.col("score_n").cast(pl.Int64)  # the runs' declarer is North
    picked = (fixed.sort(["deal", "card", param], descending=[False, True, False])
              .group_by("deal").agg(score.first().alias("picked"), score.max().alias("hindsight")))
    other = named.filter((pl.col("contract") == contract) & (pl.col("choice") == policy)).select(
        "deal", score.alias("policy"))
    both = picked.join(other, on="deal", how="inner").collect()
    diff = (both["picked"] - both["policy"]).cast(pl.Float64)
    n = len(both)
    if n < 2:
        raise ValueError(f"the choices run has no {contract} deals under both the card and {policy}")
    se = float(diff.std()) / n ** 0.5
    return {"n": n, "policy": policy, "mean": float(diff.mean()), "ci_low": float(diff.mean()) - Z95 * se,
            "ci_high": float(diff.mean()) + Z95 * se,
            "hindsight": float((both["hindsight"] - both["policy"]).mean())}


def min_cell(deals: int) -> int:
    """The fewest declarers a feature value is kept apart for: 2,000 on a million deals, at least 20."""
    return max(20, deals // 500)


def fit_guide(runs_dir, with_choices: bool = True) -> dict:
    """The guide from the study's runs: the cards, the choice cards and their gains, where they came from."""
    cards_dir = Path(runs_dir) / "cards"
    manifest = read_manifest(cards_dir, "deals")
    joined = _joined(cards_dir)
    guide = {"source": {"deals": manifest["deals_done"], "seed": manifest["config"]["seed"],
                        "players": manifest["config"]["strategies"]},
             "rules": manifest["config"]["rules"], "cards": fit_cards(joined, min_cell(manifest["deals_done"])),
             "choices": {}}
    if with_choices:
        choices_manifest = read_manifest(Path(runs_dir) / "choices", "deals")
        if [choices_manifest["config"][k] for k in ("seed", "strategies", "rules")] != \
                [manifest["config"][k] for k in ("seed", "strategies", "rules")]:
            raise RunError(f"{runs_dir}/choices and {runs_dir}/cards are not the same deals and players: "
                           "play them again with this study")
        choices = _joined(Path(runs_dir) / "choices")
        for contract, features in CHOICE_FEATURES.items():
            rows = choices.filter(pl.col("choice") == "fixed")
            card = fit_card(rows.with_columns(pl.lit(CARD_CHOICE[contract]).alias("choice")), contract, features,
                            min_cell(choices_manifest["deals_done"]))
            card["choice"] = "fixed"
            card["gain"] = choice_gain(choices, joined, contract, card, CARD_CHOICE[contract])
            guide["choices"][contract] = card
        guide["source"]["choice_deals"] = read_manifest(Path(runs_dir) / "choices", "deals")["deals_done"]
    return guide


def card_table(card: dict) -> pl.DataFrame:
    """A card's cells as a table (the features, ``n``, ``mean``, ``ci_low``, ``ci_high``, ``edge``)."""
    table = pl.DataFrame(card["cells"])
    return table.with_columns((pl.col("mean") - card["average"]).alias("edge"))


def write_results(guide: dict, results, guide_file=None) -> list[Path]:
    """The guide (``guide.json``, and ``guide_file`` too if given) and each card's table as CSV and JSON in
    ``results``."""
    results = Path(results)
    results.mkdir(parents=True, exist_ok=True)
    paths = [write_json(path, guide, "the declaring guide", indent=1)
             for path in [results / "guide.json", *([Path(guide_file)] if guide_file else [])]]
    shares = [{"contract": c, "features": " & ".join(card["features"]), "share": card["share"], "n": card["n"]}
              for c, card in guide["cards"].items()]
    paths += write_table(pl.DataFrame(shares), results, "shares")
    tried = [{"contract": c, "features": " & ".join(t["features"]), "share": t["share"]}
             for c, card in guide["cards"].items() for t in card["tried"]]
    paths += write_table(pl.DataFrame(tried), results, "shares_tried")
    for c, card in guide["cards"].items():
        paths += write_table(card_table(card), results, f"card_{c}")
    for c, card in guide.get("choices", {}).items():
        paths += write_table(card_table(card), results, f"choice_{c}")
    return paths


def check_outputs(results, page, guide_file, force: bool) -> None:
    """Refuse to replace an earlier study's results, page or guide without ``force`` (ValueError, one line)."""
    outputs.check_folder_files(results, ("guide.json", "shares.csv"), force, "--results")
    if page:
        outputs.check_out(page, force, "--page")
    if guide_file:
        outputs.check_out(guide_file, force, "--guide")


def guide_study(runs_dir, results, *, deals: int = DEFAULT_DEALS, choice_deals: int | None = None,
                seed: int = DEFAULT_SEED, strategy: str = DEFAULT_STRATEGY, guide_file=None, page=None,
                orders_dir=None, command: str = "barbu-sim study guide --force", progress: bool = True) -> dict:
    """The whole study: play (or finish, or reuse) the two runs, fit the guide, write its results, and the page
    with its chart (in ``images/`` beside it).  Returns the guide."""
    orders = load_orders(orders_dir)  # a wrong folder is refused before any play
    configs = run_configs(deals, deals if choice_deals is None else choice_deals, seed, strategy)
    play_runs(runs_dir, configs if configs["choices"].deals else {"cards": configs["cards"]}, progress)
    guide = fit_guide(runs_dir, with_choices=bool(configs["choices"].deals))
    write_results(guide, results, guide_file)
    if page:
        from .guide_page import CHART, guide_page, write_chart
        page = Path(page)
        (page.parent / "images").mkdir(parents=True, exist_ok=True)
        write_chart(guide, page.parent / "images" / CHART)
        write_text(page, guide_page(guide, orders, CHART, command), "the guide's page")
    return guide


def load_orders(orders_dir) -> dict | None:
    """The block totals and paired differences of a ``compare-orders --out`` folder (``None`` if none given)."""
    if not orders_dir:
        return None
    folder = Path(orders_dir)
    try:
        blocks = json.loads((folder / "orders_blocks.json").read_text())
        diffs = json.loads((folder / "orders_differences.json").read_text())
    except OSError:
        raise ValueError(f"--orders {orders_dir}: no orders_blocks.json and orders_differences.json there (a "
                         "compare-orders --out folder holds them)") from None
    except ValueError:
        raise ValueError(f"--orders {orders_dir}: its orders tables are not JSON (write them again with "
                         "compare-orders --out)") from None
    return {"blocks": blocks, "differences": diffs, "folder": str(orders_dir)}
