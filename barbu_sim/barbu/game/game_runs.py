"""Game records and comparison tables on disk: running many games into ``hands.parquet`` and
``summary.json``, writing an order comparison.  Verifying records is :mod:`game.verify_games`' job."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import numpy as np
import polars as pl

from ...core.seats import N_SEATS, SEAT_LETTERS
from ..api import compile_engine
from ..rules.choices import param_name
from ...core.files import replace_set
from ...core.tables import table_writers, to_markdown
from ..rules.config import CONTRACTS, DOMINO, TRUMPS, Rules
from ..analytics.schema import CONTRACT_ENUM, RANK_ENUM, SCORE_COLUMNS, SETTLED_COLUMNS, SUIT_ENUM
from .game import play_game, score_sheet
from .policies import make_players


def hand_rows(result) -> list[dict]:
    """One record per hand: the same conventions as ``barbu-sim run`` plus doubles and settled scores."""
    rows = []
    for h in result.hands:
        marks = [f"{SEAT_LETTERS[a]}>{SEAT_LETTERS[b]}" for a in range(N_SEATS) for b in range(N_SEATS)
                 if h.doubles[a][b]]
        row = {"game": result.game, "hand": h.hand_no, "contract": CONTRACTS[h.contract],
               "trump": param_name(h.contract, h.param) if h.contract == TRUMPS else None,
               "domino_rank": param_name(h.contract, h.param) if h.contract == DOMINO else None,
               "declarer": h.declarer, "dealer": h.dealer, "cutter": h.cutter, "doubles": ",".join(marks),
               "doubles_on_declarer": sum(1 for a in range(N_SEATS) if h.doubles[a][h.declarer])}
        for s, col in enumerate(SCORE_COLUMNS):
            row[col] = int(h.raw[s])
        for s, col in enumerate(SETTLED_COLUMNS):
            row[col] = int(h.final[s])
        rows.append(row)
    return rows


GAMES_PER_CHUNK = 4  # games per backend task: a game costs far more than a task
_players_memo: dict = {}  # one set of players per process, reused by every chunk of a run


def _players(spec: dict):
    key = repr(spec)
    if key not in _players_memo:
        _players_memo.clear()
        _players_memo[key] = make_players(spec["strategies"], spec["contract_policies"], spec["doubling_policies"],
                                          rules=spec["rules"], n_samples=spec["samples"], seed=spec["seed"])
    return _players_memo[key]


def play_games_chunk(spec: dict, lo: int, n: int) -> list[tuple]:
    """Games ``lo .. lo + n - 1``: for each, its hand rows, totals, winners and (game ``show`` only) score sheet.

    A pure function of ``spec`` (seed, strategies, policies, rules, samples, show): any process may play it.
    """
    players = _players(spec)
    out = []
    for g in range(lo, lo + n):
        result = play_game(spec["seed"], g, players, rules=spec["rules"])
        out.append((hand_rows(result), result.totals, result.winners, score_sheet(result) if spec["show"] == g else ""))
    return out


def run_games(*, games: int, seed: int, strategies, contract_policies, doubling_policies, rules: Rules,
              samples: int = 100, out=None, show: int | None = None, progress: bool = True, backend=None):
    """Play ``games`` games; with ``out``, write hands.parquet and summary.json there.

    ``backend`` (:mod:`barbu_sim.core.backends`; default this process) plays the games
    in chunks; the results are the same with any.  Returns ``(summary text, score sheet
    of game show or "")``.
    """
    from tqdm import tqdm

    from ...core.backends import LocalBackend
    spec = {"seed": seed, "strategies": list(strategies), "contract_policies": list(contract_policies),
            "doubling_policies": list(doubling_policies), "rules": rules, "samples": samples, "show": show}
    players = _players(spec)
    backend = backend or LocalBackend()
    chunks = [(lo, min(GAMES_PER_CHUNK, games - lo)) for lo in range(0, games, GAMES_PER_CHUNK)]
    rows, totals, wins, sheet = [], [], np.zeros(N_SEATS), ""
    if isinstance(backend, LocalBackend):  # the kernels of the deals and of the hands' estimates compile
        compile_engine(strategies)        # here, not inside the progress bar
    with tqdm(total=games, unit=" games", disable=not progress, desc="games") as bar:
        for chunk in backend.imap(partial(play_games_chunk, spec), chunks, what="chunk of games"):
            for game_rows, game_totals, winners, game_sheet in chunk:
                rows += game_rows
                totals.append(game_totals)
                for w in winners:
                    wins[w] += 1 / len(winners)
                sheet = sheet or game_sheet
            bar.update(len(chunk))
    totals = np.array(totals)
    summary = {"games": games, "seed": seed, "strategies": list(map(str, strategies)),
               "contract_policies": [p.contract_policy.name for p in players],
               "doubling_policies": [p.doubling_policy.name for p in players], "rules": rules.to_dict(),
               "mean_total": totals.mean(axis=0).tolist(), "wins": wins.tolist(),
               "win_rate": (wins / games).tolist()}
    if out:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        frame = pl.DataFrame(rows).with_columns(pl.col("contract").cast(CONTRACT_ENUM),
                                                pl.col("trump").cast(SUIT_ENUM), pl.col("domino_rank").cast(RANK_ENUM))
        text = json.dumps(summary, indent=2) + "\n"
        replace_set({out / "hands.parquet": frame.write_parquet,
                     out / "summary.json": lambda p: p.write_text(text, encoding="utf-8")},
                    what="the games' records")
    lines = [f"{games} game{'s' if games != 1 else ''}, seed {seed}",
             "seat  contract policy              doubling          mean total  win rate"]
    for s in range(N_SEATS):
        lines.append(f"{SEAT_LETTERS[s]:<5} {players[s].contract_policy.name[:26]:<27} "
                     f"{players[s].doubling_policy.name:<17} {totals[:, s].mean():>+10.1f}  {wins[s] / games:>7.1%}")
    if out:
        lines.append(f"Wrote {Path(out) / 'hands.parquet'} and summary.json")
    return "\n".join(lines), sheet


def write_comparison(result, out, players: str | None = None) -> str:
    """The comparison as Markdown text; with ``out``, also CSV / JSON tables and a chart there.

    ``players``: the play strategy at every seat, named in the text and the chart's title.
    """
    base = result.differences["baseline"][0]
    played = f", {players} play at every seat" if players else ""
    parts = [f"Declarer's total per 7-hand block (same deals for every policy{played}; raw: contract scores, "
             "settled: with the settlements of the doubles)", to_markdown(result.blocks, 2), "",
             f"Paired difference from {base}", to_markdown(result.differences, 2)]
    if not result.win_rates.is_empty():
        parts += ["", "Share of games won (seats using different policies; ties shared; 95% Wilson intervals)",
                  to_markdown(result.win_rates, 3)]
    text = "\n".join(parts)
    if out:
        from ...core.charts import save_figure
        from ..analytics.plots import plot_comparison
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        writers = {}
        for name in ("blocks", "differences", "win_rates"):
            table = getattr(result, name)
            if not table.is_empty():
                writers.update(table_writers(table, out, f"orders_{name}"))
        writers[out / "orders.md"] = lambda p: p.write_text(text + "\n", encoding="utf-8")
        replace_set(writers, what="the comparison's tables")
        save_figure(plot_comparison(result.blocks.filter(pl.col("score") == "settled"), "settled", result.win_rates,
                                    players), out / "orders")
    return text
