"""Full Clabber games to 500: batches of games, their summary, and one game's score sheet.

A game is played by :mod:`barbu_sim.clabber.engine.game_kernels`: the first dealer is drawn at random,
the deal passes left after every round (thrown-in rounds included), and the game ends after the
round in which a team reaches 500; the higher total wins, equal totals draw.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import numpy as np
import polars as pl

from ...core.seats import SEAT_NAMES
from ...core.stats import summarize
from ..api import game_sheet, play_games
from ..rules.config import GAME_COLUMNS, RESULTS, ROUND_COLUMNS, Rules


def games_frame(start: int, games: np.ndarray) -> pl.DataFrame:
    """One row per game: ``game``, the kernel's ``GAME_COLUMNS`` (``result`` as text)."""
    frame = pl.DataFrame({c: games[:, i] for i, c in enumerate(GAME_COLUMNS)})
    return frame.select(pl.int_range(start, start + games.shape[0], dtype=pl.Int64).alias("game"),
                        *[pl.col(c) for c in GAME_COLUMNS if c != "result"],
                        pl.col("result").replace_strict(list(range(4)), list(RESULTS), return_dtype=pl.String))


def summarize_games(frame: pl.DataFrame) -> dict:
    """``first_dealer_team_wins``, ``draw``, ``rounds_per_game``, each ``{mean, se, n}``, plus counts."""
    first_team = frame["first_dealer"].to_numpy() % 2
    result = frame["result"].to_list()
    wins = np.array([(r == "ns" and t == 0) or (r == "ew" and t == 1) for r, t in zip(result, first_team)], float)
    draws = np.array([r == "draw" for r in result], float)
    out = {}
    for name, values in (("first_dealer_team_wins", wins), ("draw", draws),
                         ("rounds_per_game", frame["rounds"].to_numpy().astype(float))):
        s = summarize(values)
        out[name] = {"mean": s["mean"], "se": s["se"], "n": s["n"]}
    out["ns_wins"] = int(sum(r == "ns" for r in result))
    out["ew_wins"] = int(sum(r == "ew" for r in result))
    out["unfinished"] = int(sum(r == "unfinished" for r in result))
    out["thrown_in_per_game"] = float(frame["thrown_in"].mean())
    return out


def play_games_chunk(seed: int, bidding, strategies, rules: Rules | None, threads: int | None, lo: int,
                     n: int) -> pl.DataFrame:
    """The rows of games ``lo .. lo + n - 1`` (a pure function: any process may play it)."""
    return games_frame(lo, play_games(seed, lo, n, bidding, strategies, rules, threads))


def run_games(games: int, seed: int = 0, bidding="accept-first", strategies="heuristic", rules: Rules | None = None,
              out=None, threads: int | None = None, chunk: int = 100_000, progress: bool = False,
              backend=None) -> dict:
    """Play ``games`` games; write ``games.parquet`` and ``summary.json`` into ``out`` if given.

    ``backend`` (:mod:`barbu_sim.core.backends`; default this process) plays the chunks of
    ``chunk`` games (10,000 on a remote backend, so that every worker gets some); the results
    are the same with any backend and chunk.
    """
    from ...core.backends import LocalBackend
    if games < 1:
        raise ValueError("--games must be at least 1")
    backend = backend or LocalBackend()
    if backend.name != "local":
        chunk, threads = min(chunk, 10_000), None  # a task's threads are the backend's
    fn = partial(play_games_chunk, seed, bidding, strategies, rules, threads)
    parts = list(backend.imap(fn, [(lo, min(chunk, games - lo)) for lo in range(0, games, chunk)],
                              what="chunk of games"))
    frame = pl.concat(parts)
    summary = summarize_games(frame)
    if out is not None:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        config = {"games": games, "seed": seed, "bidding": bidding, "strategies": strategies,
                  "rules": (rules or Rules()).to_dict()}
        text = json.dumps({**summary, "config": config}, indent=2) + "\n"
        from ...core.files import replace_set
        replace_set({out / "games.parquet": frame.write_parquet,
                     out / "summary.json": lambda p: p.write_text(text, encoding="utf-8")},
                    what="the games' records")
    return summary


def score_sheet(seed: int, game: int, bidding="accept-first", strategies="heuristic",
                rules: Rules | None = None) -> str:
    """Game ``game`` of ``seed`` as a score sheet: one line per round, running totals."""
    rows, result = game_sheet(seed, game, bidding, strategies, rules)
    col = {c: i for i, c in enumerate(ROUND_COLUMNS)}
    lines = [f"Game {game} of seed {seed}: first dealer {SEAT_NAMES[result[0]]}", "",
             f"{'round':>5}  {'dealer':<6} {'trump':<5} {'maker':<6} {'bid':>3}  {'N+S':>4} {'E+W':>4}  "
             f"{'total N+S':>9} {'total E+W':>9}  makers"]
    t0 = t1 = 0
    for r, row in enumerate(rows):
        t0 += row[col["score_ns"]]
        t1 += row[col["score_ew"]]
        if row[col["bid_round"]] == 0:
            lines.append(f"{r + 1:>5}  {SEAT_NAMES[row[col['dealer']]]:<6} thrown in")
            continue
        lines.append(f"{r + 1:>5}  {SEAT_NAMES[row[col['dealer']]]:<6} {'CDHS'[row[col['trump']]]:<5} "
                     f"{SEAT_NAMES[row[col['maker']]]:<6} {row[col['bid_round']]:>3}  {row[col['score_ns']]:>4} "
                     f"{row[col['score_ew']]:>4}  {t0:>9} {t1:>9}  "
                     f"{'made' if row[col['score_ns'] + row[col['maker']] % 2] > 0 else 'failed'}")
    verdict = {0: "N+S win", 1: "E+W win", 2: "drawn", 3: "unfinished"}[int(result[5])]
    lines += ["", f"Final: N+S {t0}, E+W {t1}: {verdict} after {len(rows)} rounds."]
    return "\n".join(lines)
