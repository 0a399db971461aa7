"""The paired comparison of two Clabber card players: one seat of A against B in that seat, on the same rounds.

For each round, player A sits at one seat among three ``opponents`` (its partner is one of them),
and so does player B on the same round; with A (and B) at each seat in turn and the dealer at each
seat in turn, a round is played 16 times.  The measure is the seat's team's net score: its team's
round score minus the other team's.  The bidding is fixed by a policy (default ``accept-first``:
the dealer's left makes with the turned suit, so the contract does not depend on the card play and
the two players meet the same contracts).  A round's plays are averaged by role: the 8 plays where
the seat's team makes, the 8 where it defends, and all 16 (the total); the table gives A's and B's
mean and "A better by" (A - B) with its 95% CI over rounds (a paired comparison: round ``i`` is a
pure function of ``(seed, i)``).  Makers and defenders are apart, as in Clabber's ladder of ``mc``
against ``heuristic``: a player may gain in one role and lose in the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from ...core.blocks import timed_blocks
from ...core.seats import N_SEATS
from ...core.stats import summarize
from ..api import play_rounds, seat_bidding
from ..players.bidding import MC as MC_BIDDING
from ..players.registry import canonical_strategy, resolve_strategy
from ..rules.config import C_MAKER, C_SCORE, N_ROUND_COLUMNS, Rules

DEFAULT_ROUNDS = 10_000  # a few seconds with heuristic players
MAX_ROUNDS = 100_000_000
DEFAULT_BIDDING = "accept-first"
ROLES = ("makers", "defenders", "total")
TABLE_COLUMNS = ("role", "rounds", "a_mean", "b_mean", "a_better_by", "se", "ci_low", "ci_high")
MAKER, DEFENDER, THROWN_IN = 1, 0, -1  # a play's role: the seat's team made, defended, or the round was thrown in


@dataclass(frozen=True, eq=False)
class Comparison:
    """A paired comparison of card players ``a`` and ``b`` in one seat among three ``opponents``.

    ``table``: the rows ``makers``, ``defenders`` and ``total`` with the columns of :data:`TABLE_COLUMNS`
    (means are net scores per round, averaged over the round's plays of that role).
    ``a_net`` and ``b_net``: (rounds, 4, 4) int64, the seat's team's net score, by round, dealer and
    seat; ``roles``: (rounds, 4, 4) int8, :data:`MAKER`, :data:`DEFENDER` or :data:`THROWN_IN`.
    """

    a: str
    b: str
    opponents: str
    rounds: int
    seed: int
    bidding: str
    rules: Rules
    table: pl.DataFrame
    a_net: np.ndarray = field(repr=False)
    b_net: np.ndarray = field(repr=False)
    roles: np.ndarray = field(repr=False)

    def to_dict(self) -> dict:
        """The comparison as plain data, for a JSON file."""
        return {"a": self.a, "b": self.b, "opponents": self.opponents,
                "players": {k: canonical_strategy(v) for k, v in (("a", self.a), ("b", self.b),
                                                                  ("opponents", self.opponents))},
                "rounds": self.rounds, "seed": self.seed,
                "bidding": self.bidding, "rules": self.rules.to_dict(), "a_better_by": "A - B",
                "measure": "the seat's team's net score: its round score minus the other team's",
                "method": "one seat of A among three opponents, against B in that seat on the same rounds; every "
                          "seat and dealer (16 plays a round), averaged by role; 95% normal CI over rounds",
                "rows": self.table.to_dicts()}


def seat_net(rows: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """The net score of ``seat``'s team and its role, per round, from round rows (``play_rounds``).

    Returns
    -------
    net : (n,) int64
        The seat's team's round score minus the other team's.
    role : (n,) int8
        :data:`MAKER`, :data:`DEFENDER`, or :data:`THROWN_IN` (no one made: both score nothing).
    """
    ns = rows[:, C_SCORE].astype(np.int64) - rows[:, C_SCORE + 1]
    net = ns if seat % 2 == 0 else -ns
    maker = rows[:, C_MAKER].astype(np.int64)
    role = np.where(maker < 0, THROWN_IN, np.where(maker % 2 == seat % 2, MAKER, DEFENDER)).astype(np.int8)
    return net, role


def check_players(named: dict[str, str]) -> None:
    """Each card-play spec of ``named`` (its role -> the spec) resolves: an unknown player is a ValueError naming
    its role (``player A: unknown strategy ...``), before any round is played."""
    for role, spec in named.items():
        try:
            resolve_strategy(spec)
        except ValueError as e:
            raise ValueError(f"{role}: {e}") from None


def line_up(player: str, seats, others: str) -> list[str]:
    """The card players of the four seats: ``player`` at each seat of ``seats`` (0..3, N E S W), ``others`` at
    the rest."""
    return [player if seat in seats else others for seat in range(N_SEATS)]


def play_line_up(players: list[str], *, seed: int, rounds: int, dealer: int, bidding: str = DEFAULT_BIDDING,
                 rules: Rules | None = None, threads: int | None = None, block_seconds: float = 1.0,
                 on_block: Callable[[int], None] | None = None) -> np.ndarray:
    """Rounds ``0 .. rounds - 1`` of run ``seed`` with ``dealer``, each seat played by ``players``, in blocks
    of about ``block_seconds`` (:func:`~barbu_sim.core.blocks.timed_blocks`): the rows of ``play_rounds`` in one
    call, and the same (a round is a pure function of ``(seed, i)``).  ``on_block`` is called with each block's
    rounds.  Each call of ``play_rounds`` costs some milliseconds: a caller that times the play takes longer
    blocks."""
    rows = np.empty((rounds, N_ROUND_COLUMNS), np.int16)
    for lo, n in timed_blocks(rounds, block_seconds):
        play_rounds(seed, lo, n, dealer, bidding, players, rules, threads=threads, out=rows[lo:lo + n])
        if on_block:
            on_block(n)
    return rows


def check_same_makers(a_rows: np.ndarray, b_rows: np.ndarray, bidding: str) -> None:
    """Two plays of the same rounds (rows of ``play_rounds``) met the same contracts, so that they pair round by
    round; else a ValueError naming the first round whose maker differs."""
    differ = np.flatnonzero(a_rows[:, C_MAKER] != b_rows[:, C_MAKER])
    if len(differ):
        raise ValueError(f"with bidding {bidding!r} the contract of round {int(differ[0])} differs between the two "
                         "line-ups (the bidding depends on the card play): compare with a bidding that does not, "
                         "such as accept-first")


def compare(a: str, b: str, *, opponents: str = "heuristic", rounds: int = DEFAULT_ROUNDS, seed: int = 0,
            bidding: str = DEFAULT_BIDDING, rules: Rules | None = None, threads: int | None = None,
            progress: bool = False, on_block: Callable[[int, int], None] | None = None) -> Comparison:
    """Compare card player ``a`` with ``b`` in one seat among three ``opponents``, on the same rounds.

    Parameters
    ----------
    a, b, opponents : card-play strategy specs (``heuristic``, ``mc:samples=48``, ``learned``, ``file.py:func``).
    rounds : rounds ``0 .. rounds - 1`` of run ``seed`` (at least 2, for a confidence interval).
    bidding : the bidding policy of every seat (default ``accept-first``); it must not depend on the card
        play, so that A's and B's plays of a round have the same maker.
    rules : Clabber's rule options (default the rules as written).
    threads : worker threads (default all cores); the numbers do not depend on it.
    progress : show a tqdm progress bar (on stderr).
    on_block : called with (rounds done, rounds) after each block of rounds.

    Returns
    -------
    Comparison
        Its ``table`` has the rows makers, defenders and total (:data:`TABLE_COLUMNS`).
    """
    import numba
    from tqdm import tqdm

    a, b, opponents, bidding = a.strip(), b.strip(), opponents.strip(), bidding.strip()  # as shown

    check_players({"player A": a, "player B": b, "the opponents": opponents})
    ids, _ = seat_bidding(bidding)
    if (ids == MC_BIDDING).any() and canonical_strategy(a) != canonical_strategy(b):
        # mc bidding plays sample rounds with the seats' own card players: A's and B's contracts would differ
        raise ValueError(f"bidding {bidding!r} plays sample rounds with each seat's card player, so A and B would "
                         "bid other contracts and the rounds would not be paired: compare with a bidding that does "
                         "not look at the card play (accept-first, random, threshold:X)")
    if not 2 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"the number of rounds must be at least 2 (a confidence interval needs two) and at most "
                         f"{MAX_ROUNDS:,}, not {rounds:,}")
    if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"--threads must be 1..{numba.config.NUMBA_NUM_THREADS}, not {threads}")
    rules = rules or Rules()
    for player in (a, b):  # compile (or load) the engine before the bar, not inside it
        play_rounds(seed, 0, 1, 0, bidding, [player] + [opponents] * (N_SEATS - 1), rules, threads=1)
    shape = (rounds, N_SEATS, N_SEATS)  # round, dealer, seat
    nets = {"a": np.zeros(shape, np.int64), "b": np.zeros(shape, np.int64)}
    roles = {"a": np.zeros(shape, np.int8), "b": np.zeros(shape, np.int8)}
    with tqdm(total=rounds, unit=" rounds", disable=not progress, desc="comparing") as bar:
        for lo, n in timed_blocks(rounds):
            for dealer in range(N_SEATS):
                played: dict = {}  # line-up -> rows: a line-up of one player is played once for its four seats
                for arm, player in (("a", a), ("b", b)):
                    for seat in range(N_SEATS):
                        line_up = [opponents] * N_SEATS
                        line_up[seat] = player
                        key = tuple(s.strip() for s in line_up)
                        if key not in played:
                            played[key] = play_rounds(seed, lo, n, dealer, bidding, line_up, rules, threads=threads)
                        net, role = seat_net(played[key], seat)
                        nets[arm][lo:lo + n, dealer, seat] = net
                        roles[arm][lo:lo + n, dealer, seat] = role
            bar.update(n)
            if on_block:
                on_block(lo + n, rounds)
    differ = np.flatnonzero((roles["a"] != roles["b"]).any(axis=(1, 2)))
    if len(differ):
        raise ValueError(f"with bidding {bidding!r} the contract of round {int(differ[0])} differs between A's and B's "
                         "plays (the bidding depends on the card play): compare with a bidding that does not, "
                         "such as accept-first")
    return Comparison(a=a, b=b, opponents=opponents, rounds=rounds, seed=seed, bidding=bidding, rules=rules,
                      table=comparison_table(nets["a"], nets["b"], roles["a"]), a_net=nets["a"], b_net=nets["b"],
                      roles=roles["a"])


def _role_means(net: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per round, the mean of ``net`` over the plays in ``mask`` ((rounds, 4, 4) each), and which rounds have any."""
    count = mask.sum(axis=(1, 2))
    total = np.where(mask, net, 0).sum(axis=(1, 2))
    has = count > 0
    return total[has] / count[has], has


def comparison_table(a_net: np.ndarray, b_net: np.ndarray, roles: np.ndarray) -> pl.DataFrame:
    """The rows makers, defenders and total from per-play net scores and roles ((rounds, 4, 4) each).

    A role's row is over the rounds with a play in that role (every round under accept-first);
    each round counts once, its plays of that role averaged.
    """
    rows = []
    for role in ROLES:
        mask = np.ones(roles.shape, bool) if role == "total" else roles == (MAKER if role == "makers" else DEFENDER)
        a, has = _role_means(a_net, mask)
        b, _ = _role_means(b_net, mask)
        if len(a) < 2:  # thrown in nearly every round: too few rounds for an interval
            rows.append({"role": role, "rounds": int(has.sum()), "a_mean": None, "b_mean": None,
                         "a_better_by": None, "se": None, "ci_low": None, "ci_high": None})
            continue
        d = summarize(a - b)
        rows.append({"role": role, "rounds": int(has.sum()), "a_mean": float(a.mean()), "b_mean": float(b.mean()),
                     "a_better_by": d["mean"], "se": d["se"], "ci_low": d["ci_low"], "ci_high": d["ci_high"]})
    schema = {"role": pl.String, "rounds": pl.Int64, **{c: pl.Float64 for c in TABLE_COLUMNS[2:]}}
    return pl.DataFrame(rows, schema=schema)
