"""Running many games and writing their records; writing order comparisons."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl

from .cards import SEAT_LETTERS
from .choices import param_name
from .game import play_game, score_sheet
from .policies import make_players
from .report import to_markdown
from .rules import CONTRACTS, Rules
from .simulate import CONTRACT_ENUM, RANK_ENUM, SUIT_ENUM


def hand_rows(result) -> list[dict]:
    """One record per hand: the same conventions as ``barbu-sim run`` plus doubles and settled scores."""
    rows = []
    for h in result.hands:
        marks = [f"{SEAT_LETTERS[a]}>{SEAT_LETTERS[b]}" for a in range(4) for b in range(4) if h.doubles[a][b]]
        row = {"game": result.game, "hand": h.hand_no, "contract": CONTRACTS[h.contract],
               "trump": param_name(h.contract, h.param) if h.contract == 5 else None,
               "domino_rank": param_name(h.contract, h.param) if h.contract == 6 else None,
               "declarer": h.declarer, "dealer": h.dealer, "cutter": h.cutter, "doubles": ",".join(marks),
               "doubles_on_declarer": sum(1 for a in range(4) if h.doubles[a][h.declarer])}
        for s, letter in enumerate("nesw"):
            row[f"score_{letter}"] = int(h.raw[s])
        for s, letter in enumerate("nesw"):
            row[f"settled_{letter}"] = int(h.final[s])
        rows.append(row)
    return rows


def run_games(games: int, seed: int, strategies, contract_policies, doubling_policies, rules: Rules,
              samples: int, out, show, progress: bool):
    """Play ``games`` games; write hands.parquet and summary.json to ``out``; return (summary text, sheet)."""
    from tqdm import tqdm
    players = make_players(strategies, contract_policies, doubling_policies, rules=rules, n_samples=samples, seed=seed)
    rows, totals, wins, sheet = [], [], np.zeros(4), ""
    for g in tqdm(range(games), unit=" games", disable=not progress, desc="games"):
        result = play_game(seed, g, players, rules=rules)
        rows += hand_rows(result)
        totals.append(result.totals)
        for w in result.winners:
            wins[w] += 1 / len(result.winners)
        if show == g:
            sheet = score_sheet(result)
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
        frame.write_parquet(out / "hands.parquet")
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    lines = [f"{games} game{'s' if games != 1 else ''}, seed {seed}", "seat  contract policy              doubling          mean total  win rate"]
    for s in range(4):
        lines.append(f"{SEAT_LETTERS[s]:<5} {players[s].contract_policy.name[:26]:<27} "
                     f"{players[s].doubling_policy.name:<17} {totals[:, s].mean():>+10.1f}  {wins[s] / games:>7.1%}")
    if out:
        lines.append(f"Wrote {Path(out) / 'hands.parquet'} and summary.json")
    return "\n".join(lines), sheet


def write_comparison(result, out) -> str:
    """The comparison as Markdown text; with ``out``, also CSV / JSON tables and a chart there."""
    parts = ["Declarer's total per 7-hand block (same deals for every policy)", to_markdown(result.blocks, 2), "",
             f"Paired difference from {result.differences['baseline'][0]}", to_markdown(result.differences, 2)]
    if not result.win_rates.is_empty():
        parts += ["", "Share of games won (seats using different policies; ties shared)",
                  to_markdown(result.win_rates, 3)]
    text = "\n".join(parts)
    if out:
        from .orders import plot_comparison
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        for name in ("blocks", "differences", "win_rates"):
            table = getattr(result, name)
            if not table.is_empty():
                table.write_csv(out / f"orders_{name}.csv")
                (out / f"orders_{name}.json").write_text(json.dumps(table.to_dicts(), indent=1) + "\n")
        (out / "orders.md").write_text(text + "\n")
        fig = plot_comparison(result)
        for ext in ("png", "svg"):
            fig.savefig(out / f"orders.{ext}", dpi=130 if ext == "png" else None,
                        metadata={"Date": None} if ext == "svg" else None)
    return text


def verify_records(frame: pl.DataFrame, rules: Rules | None = None) -> int:
    """Check game records (the ``hands.parquet`` of ``barbu-sim game``) against the rules.

    Every game must have 28 hands; each declarer names each contract once; dealer
    and cutter sit right and across of the declarer; every double is legal (only
    the declarer in Trumps and Domino, the declarer only redoubles, two doubles
    of each declarer by each other player); settled scores equal raw scores plus
    the pair-by-pair settlement.  Returns the number of games; raises ``ValueError``
    naming the game, the hand and the broken rule.
    """
    from .game import settle
    from .rules import POSITIVE_CONTRACTS
    rules = rules or Rules()
    needed = {"game", "hand", "contract", "declarer", "dealer", "cutter", "doubles",
              *[f"score_{x}" for x in "nesw"], *[f"settled_{x}" for x in "nesw"]}
    missing = needed - set(frame.columns)
    if missing:
        raise ValueError(f"not a game record: missing columns {', '.join(sorted(missing))}")
    games = 0
    for (g,), rows in frame.sort("game", "hand").group_by("game", maintain_order=True):
        games += 1
        rows = rows.to_dicts()
        if [r["hand"] for r in rows] != list(range(28)):
            raise ValueError(f"game {g}: a game has hands 0..27, not {len(rows)} hands")
        used = {s: set() for s in range(4)}
        on_declarer = np.zeros((4, 4), np.int64)
        for r in rows:
            where = f"game {g}, hand {r['hand'] + 1}"
            d, c = int(r["declarer"]), CONTRACTS.index(str(r["contract"]))
            if (r["dealer"], r["cutter"]) != ((d + 3) % 4, (d + 2) % 4):
                raise ValueError(f"{where}: the dealer sits right of the declarer and the cutter across")
            if c in used[d]:
                raise ValueError(f"{where}: {SEAT_LETTERS[d]} declares {CONTRACTS[c]} a second time")
            used[d].add(c)
            doubles = [[False] * 4 for _ in range(4)]
            for mark in filter(None, str(r["doubles"] or "").split(",")):
                a, b = SEAT_LETTERS.index(mark[0]), SEAT_LETTERS.index(mark[-1])
                doubles[a][b] = True
            for a in range(4):
                for b in range(4):
                    if not doubles[a][b]:
                        continue
                    if a == b:
                        raise ValueError(f"{where}: {SEAT_LETTERS[a]} doubles themselves")
                    if a == d and not doubles[b][d]:
                        raise ValueError(f"{where}: the declarer {SEAT_LETTERS[d]} doubles {SEAT_LETTERS[b]}, "
                                         "who did not double them (the declarer only redoubles)")
                    if a != d and c in POSITIVE_CONTRACTS and b != d:
                        raise ValueError(f"{where}: in {CONTRACTS[c]} {SEAT_LETTERS[a]} may only double the declarer")
                    if b == d:
                        on_declarer[a, d] += 1
            raw = [int(r[f"score_{x}"]) for x in "nesw"]
            settled = [int(r[f"settled_{x}"]) for x in "nesw"]
            if sum(raw) != rules.contract_total(c):
                raise ValueError(f"{where}: raw scores add up to {sum(raw)}, not {rules.contract_total(c)}")
            if (np.array(raw) + settle(raw, doubles)).tolist() != settled:
                raise ValueError(f"{where}: settled scores do not match the doubles")
        for d in range(4):
            if len(used[d]) not in (0, 7):
                raise ValueError(f"game {g}: {SEAT_LETTERS[d]} declared {len(used[d])} contracts, not 7")
            for p in range(4):
                if p != d and on_declarer[p, d] < 2:
                    raise ValueError(f"game {g}: {SEAT_LETTERS[p]} doubled declarer {SEAT_LETTERS[d]} "
                                     f"{on_declarer[p, d]} time(s), fewer than the two compulsory doubles")
    return games
