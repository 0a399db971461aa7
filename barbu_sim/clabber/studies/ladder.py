"""Clabber's card-play ladder: ``mc`` (or ``learned``) against ``heuristic``, paired on the same rounds, as makers
and as defenders (``barbu-sim clabber ladder``).

Every arm plays rounds ``0 .. N-1`` of one seed twice: once with every seat ``heuristic`` (the
baseline) and once with the player at North (``seat``) or at North and South (``team``), the other
seats ``heuristic``.  Bidding is ``accept-first``, so the contract does not depend on the card play:
the dealer's left makes with the turned suit, and the two plays of a round differ only by
North-South's cards.  Dealer West puts North-South in as makers, dealer North as defenders.

Each row gives the paired per-round differences (the player's arm minus the baseline) of
North-South's round score (what ``mc`` maximises) and of North-South's net score (theirs minus
East-West's), each with its 95% CI, how often the makers made it in each arm, and the speed of the
player's arm (rounds/s, and per thread).  With ``learned`` and ``mc`` both laddered, on the same
rounds, each arm also gives learned's share of mc's gain in North-South's round score, with a 95% CI
(the delta method on the paired per-round gains), and the paired difference
``learned gain - 0.6 x mc gain`` with its CI: above zero, learned recovers at least 60% of mc's gain.

A use of :mod:`.compare`: the ladder's arms are line-ups played on the same rounds
(:func:`~.compare.play_line_up`), checked to meet the same contracts (:func:`~.compare.check_same_makers`),
their net scores those of :func:`~.compare.seat_net`.  Unlike ``clabber compare`` (one seat among
three opponents, every seat and dealer), an arm may seat the player's partner too (``team``).
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable

import numpy as np

from ...core.stats import summarize
from ..api import play_rounds
from ..players.mc import DEFAULT_SAMPLES, MAX_SAMPLES
from ..rules.config import C_MAKER, C_SCORE
from .compare import check_players, check_same_makers, line_up, play_line_up, seat_net

DEFAULT_ROUNDS = 40_000
DEFAULT_SEED = 2026
PLAYERS = ("mc", "learned")  # the players a ladder climbs: the strong card players
BASELINE = "heuristic"
BIDDING = "accept-first"
ARMS = (("seat", "N", (0,)), ("team", "N+S", (0, 2)))  # (arm, its seats as shown, its seats)
ROLES = (("makers", 3), ("defenders", 0))  # (role of North-South, dealer)
SHARE_TARGET = 0.6
TIMED_BLOCK_SECONDS = 5.0  # the timed arms' blocks: few calls of play_rounds, whose milliseconds each are timed too
WHAT = ("mc card play against heuristic, paired on the same deals: per-round differences of North-South's "
        "round score (own) and net score (own minus opponents), mc arm minus all-heuristic baseline")


def parse_players(text: str) -> list[str]:
    """The players of ``--players`` (``mc``, ``learned`` or both, comma-separated, in the order given)."""
    players = [p.strip() for p in text.split(",") if p.strip()]
    if not players or any(p not in PLAYERS for p in players) or len(set(players)) < len(players):
        raise ValueError(f"--players takes mc, learned or both (comma-separated, each once), not {text!r}")
    return players


def share_of(gain: np.ndarray, reference: np.ndarray) -> dict:
    """``mean(gain) / mean(reference)`` of paired per-round gains, with a 95% CI by the delta method, and the
    paired difference ``gain - SHARE_TARGET * reference`` summarized."""
    ratio = float(gain.mean() / reference.mean())
    se = float(np.std(gain - ratio * reference, ddof=1) / np.sqrt(len(gain)) / abs(reference.mean()))
    return {"share": ratio, "ci_low": ratio - 1.96 * se, "ci_high": ratio + 1.96 * se,
            f"gain_less_{SHARE_TARGET}_reference": summarize(gain - SHARE_TARGET * reference)}


def made(rows: np.ndarray) -> float:
    """Share of rounds the makers made (scored more than nothing), from round rows."""
    maker_team = rows[:, C_MAKER].astype(np.int64) & 1
    score = np.where(maker_team == 0, rows[:, C_SCORE], rows[:, C_SCORE + 1])
    return float((score > 0).mean())


def row_text(name: str, row: dict) -> str:
    """One arm's line as the ladder prints it while it runs."""
    own, net = row["own_diff"], row["net_diff"]
    return (f"{name} at {row['mc_seats']:<3} as {row['role']:<9}  own {own['mean']:+6.2f} "
            f"[{own['ci_low']:+.2f}, {own['ci_high']:+.2f}]  net {net['mean']:+6.2f} [{net['ci_low']:+.2f}, "
            f"{net['ci_high']:+.2f}]  made {row['made_share_mc']:.3f} vs {row['made_share_heuristic']:.3f}  "
            f"{row['rounds_per_s']:,.0f} rounds/s")


def ladder(players=("mc",), *, rounds: int = DEFAULT_ROUNDS, seed: int = DEFAULT_SEED, samples: int = DEFAULT_SAMPLES,
           threads: int | None = None, command: str = "", progress: bool = False,
           echo: Callable[[str], None] | None = None) -> dict:
    """Ladder ``players`` (``mc``, ``learned`` or both) against ``heuristic`` on rounds ``0 .. rounds - 1`` of
    ``seed``: each alone at North and with its partner at South, as makers and as defenders.

    Parameters
    ----------
    players : the players laddered, from :data:`PLAYERS`, in the order they are played.
    rounds : rounds per arm (at least 2, for a confidence interval).
    samples : ``mc``'s layouts per decision.
    threads : worker threads (default all cores); the numbers do not depend on it, the speeds do.
    command : the command that made the ladder, recorded in it.
    progress : show a tqdm progress bar (on stderr) over every round played.
    echo : called with each arm's line (and each share's) as it is done.

    Returns
    -------
    dict
        The ladder as plain data (``results/clabber/ladder.json``): ``rows`` (one per arm and role), whether
        every arm beats heuristic, and with both players ``learned_share_of_mc_gain``.
    """
    import numba
    from tqdm import tqdm

    players = list(players)
    if not players or any(p not in PLAYERS for p in players) or len(set(players)) < len(players):
        raise ValueError(f"the players laddered are mc, learned or both, each once, not {players}")
    if rounds < 2:
        raise ValueError(f"the ladder needs at least 2 rounds (a confidence interval needs two), not {rounds:,}")
    if not 1 <= samples <= MAX_SAMPLES:
        raise ValueError(f"--samples must be at least 1 and at most {MAX_SAMPLES:,}, not {samples:,}")
    if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"--threads must be 1..{numba.config.NUMBA_NUM_THREADS}, not {threads}")
    threads = threads or numba.get_num_threads()
    specs = {p: (f"mc:samples={samples}" if p == "mc" else p) for p in players}
    check_players(specs)
    rows, shares = [], []
    total = len(ROLES) * (1 + len(ARMS) * len(players)) * rounds
    with tqdm(total=total, unit=" rounds", disable=not progress, desc="ladder") as bar:
        def say(line: str) -> None:
            if echo:
                with bar.external_write_mode():
                    echo(line)

        for role, dealer in ROLES:
            bar.set_description(f"heuristic as {role}")
            base = play_line_up([BASELINE] * 4, seed=seed, rounds=rounds, dealer=dealer, bidding=BIDDING,
                                threads=threads, on_block=bar.update)
            if not (base[:, C_MAKER] == (dealer + 1) % 4).all():  # accept-first: the dealer's left makes
                raise RuntimeError("accept-first bidding did not make the dealer's left the maker")
            base_net, _ = seat_net(base, 0)
            for arm, who, seats in ARMS:
                gains = {}
                for name, spec in specs.items():
                    bar.set_description(f"{name} at {who} as {role}")
                    seated = line_up(spec, seats, BASELINE)
                    play_rounds(seed + 1, 0, 8, dealer, BIDDING, seated, threads=1)  # compile or load, untimed
                    start = time.perf_counter()
                    test = play_line_up(seated, seed=seed, rounds=rounds, dealer=dealer, bidding=BIDDING,
                                        threads=threads, block_seconds=TIMED_BLOCK_SECONDS, on_block=bar.update)
                    seconds = time.perf_counter() - start
                    check_same_makers(test, base, BIDDING)  # the same contracts: a paired comparison
                    own = test[:, C_SCORE].astype(np.int64) - base[:, C_SCORE]
                    net = seat_net(test, 0)[0] - base_net
                    gains[name] = own
                    row = {"mc_seats": who, "arm": arm, "role": role, "rounds": rounds,
                           "own_diff": summarize(own), "net_diff": summarize(net),
                           "made_share_mc": made(test), "made_share_heuristic": made(base),
                           "rounds_per_s": rounds / seconds, "threads": threads,
                           "rounds_per_s_per_thread": rounds / seconds / threads}
                    if players != ["mc"]:
                        row = {"player": spec, **row}
                    rows.append(row)
                    say(row_text(name, row))
                if "learned" in gains and "mc" in gains:
                    share = {"arm": arm, "role": role, **share_of(gains["learned"], gains["mc"])}
                    shares.append(share)
                    say(f"learned's share of mc's gain at {who:<3} as {role:<9} {share['share']:.0%} "
                        f"[{share['ci_low']:.0%}, {share['ci_high']:.0%}]")
    data = {
        "what": WHAT, "command": command, "seed": seed, "samples": samples, "bidding": BIDDING,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_average_at_end": [round(x, 2) for x in os.getloadavg()]},
        "rows": rows,
        "mc_beats_heuristic": all(r["own_diff"]["ci_low"] > 0 for r in rows),
    }
    if players != ["mc"]:
        data["what"] = data["what"].replace("mc card play", " and ".join(players) + " card play")
        data["beats_heuristic"] = data.pop("mc_beats_heuristic")
        data["players"] = [specs[p] for p in players]
    if shares:
        data["learned_share_of_mc_gain"] = shares
    return data
