"""The paired comparison of two players: one seat of A against B in that seat, on the same deals.

For each deal and contract, player A sits at one seat among three ``opponents``, and so does
player B on the same deal; with A (and B) at each seat in turn and the declarer at each seat in
turn, a deal is played 16 times a contract and its 16 scores are averaged into one number per deal
(the 16 plays of one deal are not independent; the deals are).  The table gives, per contract and
for the total over the contracts compared, A's and B's mean and "A better by" with its 95% CI
over deals: a paired comparison (common random numbers), since deal ``i`` is a pure function of
``(seed, i)``.  The total's CI is that of the per-deal sum over the contracts, every contract being
played on the same deal indices.

Under rules where the lowest total wins (:attr:`Rules.lower_is_better`), "A better by" is B - A,
so that a positive number always means A plays the seat better.

The standard configuration of the contracts with a choice, as ``barbu-sim run`` plays them by
default: Trumps with the declarer's longest suit as trumps, Domino from the default rank (the 7).

- :func:`compare`: A against B (``barbu-sim compare A B``).
- :func:`compare_each`: several players A, each against one B on the same deals; B's plays are
  played once and shared (``barbu-sim compare A1 A2 B``).  Its blocks of deals may be played by a
  :mod:`~barbu_sim.core.backends` backend (Ray): the numbers are the same.
- :func:`compare_grid`: those comparisons among each of several opponents and under each of several
  rules, their rows written to one results file as they are done (``--out``), or merged into an
  existing one (``--merge``): rows of the same A, B, opponents, rules and contract are replaced,
  the others kept.  The strength ladder (:mod:`.ladder`) is a use of :func:`compare_each`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import polars as pl

from ...core.blocks import timed_blocks
from ...core.cards import RANK_NAMES, SUIT_LETTERS
from ...core.outputs import check_out, read_rows, write_json
from ...core.seats import N_SEATS
from ...core.stats import summarize
from ..api import compile_engine, play_batch
from ..players.registry import canonical_strategy, resolve_strategy
from ..rules.choices import DEFAULT_DOMINO_RANK, POLICIES, TRUMP_LONGEST
from ..rules.config import CONTRACTS, DOMINO, TRUMPS, Contract, Rules, parse_contract

# The choice every study plays for the contracts that have one (``run``'s defaults): the kernels' param codes.
STUDY_PARAMS = {int(TRUMPS): TRUMP_LONGEST, int(DOMINO): DEFAULT_DOMINO_RANK}
PLAYS = N_SEATS * N_SEATS  # plays of one deal and contract: every seat of the player, every declarer
DEFAULT_DEALS = 10_000  # a few seconds with heuristic players, about half a minute with learned ones
MAX_DEALS = 100_000_000
TOTAL = "total"  # the table's last row: the sum over the contracts compared
TABLE_COLUMNS = ("contract", "deals", "a_mean", "b_mean", "a_better_by", "se", "ci_low", "ci_high")
OPPONENTS_FIELD = "{OPPONENTS}"  # in a player's spec: the opponents it sits among (mc:infer=policy:{OPPONENTS})
ROW_KEY = ("a", "b", "opponents", "rules", "contract")  # what names a row of a results file
METHOD = ("one seat of A among three opponents, against B in that seat on the same deals; every seat and declarer "
          "(16 plays a deal, averaged); 95% normal CI over deals")


@dataclass(frozen=True, eq=False)
class Comparison:
    """A paired comparison of players ``a`` and ``b`` in one seat among three ``opponents``.

    ``table``: one row per contract compared, then the ``total`` row, with the columns of
    :data:`TABLE_COLUMNS` (means are raw scores per deal, averaged over the 16 plays of a deal).
    ``a_scores`` and ``b_scores``: (deals, n_contracts) float64, each deal's mean over its 16 plays.
    ``a_seconds``, ``b_seconds``: the time A's and B's plays took, per contract (contracts played together
    share theirs equally; B's is shared by every A compared with it at once).
    """

    a: str
    b: str
    opponents: str
    deals: int
    seed: int
    contracts: tuple[int, ...]
    params: dict
    rules: Rules
    table: pl.DataFrame
    a_scores: np.ndarray = field(repr=False)
    b_scores: np.ndarray = field(repr=False)
    a_seconds: tuple[float, ...] = field(default=(), repr=False)
    b_seconds: tuple[float, ...] = field(default=(), repr=False)

    @property
    def lower_is_better(self) -> bool:
        """True when the lowest total wins: "A better by" is then B - A."""
        return self.rules.lower_is_better

    @property
    def better_by(self) -> str:
        """What "A better by" measures: ``A - B``, or ``B - A`` where the lowest total wins."""
        return "B - A" if self.lower_is_better else "A - B"

    @property
    def choices(self) -> dict:
        """The trump suit and domino rank of the contracts compared, in words (``{"trumps": "longest"}``)."""
        return describe_params({c: p for c, p in self.params.items() if c in self.contracts})

    def to_dict(self) -> dict:
        """The comparison as plain data, for a JSON file."""
        return {"a": self.a, "b": self.b, "opponents": self.opponents,
                "players": {k: canonical_strategy(v) for k, v in (("a", self.a), ("b", self.b),
                                                                  ("opponents", self.opponents))},
                "deals": self.deals, "seed": self.seed,
                "contracts": [CONTRACTS[c] for c in self.contracts], "choices": self.choices,
                "rules": self.rules.to_dict(), "a_better_by": self.better_by, "method": METHOD,
                "rows": self.table.to_dicts()}

    def rows(self, rules: str = "default", total: bool = True) -> list[dict]:
        """The table as rows of a results file: each names its A, B, opponents and ``rules`` (a label, such as
        the preset's name), says what "A better by" measures, and gives A's and B's seconds.  The ``total``
        row (unless ``total`` is false) names the contracts it sums."""
        out = []
        for j, row in enumerate(self.table.to_dicts()):
            is_total = j == len(self.contracts)
            if is_total and not total:
                break
            seconds = (sum(self.a_seconds), sum(self.b_seconds)) if is_total else \
                (self.a_seconds[j], self.b_seconds[j]) if j < len(self.a_seconds) else (0.0, 0.0)
            out.append({"a": self.a, "b": self.b, "opponents": self.opponents, "rules": rules, **row,
                        "better_by": self.better_by,
                        **({"contracts": [CONTRACTS[c] for c in self.contracts]} if is_total else {}),
                        "a_seconds": round(seconds[0], 1), "b_seconds": round(seconds[1], 1)})
        return out


def describe_params(params: dict) -> dict:
    """``{"trumps": "longest", "domino": "7"}``: the choices of a params dict (contract id -> kernel code) in words."""
    out = {}
    for contract, code in sorted(params.items()):
        if code < 0:
            words = next(name for name, c in POLICIES[contract].items() if c == code)
        else:
            words = SUIT_LETTERS[code] if contract == TRUMPS else RANK_NAMES[code]
        out[CONTRACTS[contract]] = words
    return out


def contract_ids(contracts: Sequence | None) -> list[int]:
    """Contract ids of names (or ids), in the order given; ``None``: all seven.  A contract named twice is refused."""
    if contracts is None:
        return list(range(len(CONTRACTS)))
    ids = [int(Contract(c)) if isinstance(c, (int, np.integer)) else int(parse_contract(c)) for c in contracts]
    if not ids:
        raise ValueError("compare at least one contract")
    for i, c in enumerate(ids):
        if c in ids[:i]:
            raise ValueError(f"contract {CONTRACTS[c]} is given twice: give each contract once")
    return ids


def seat_scores(player: str, opponents: str, contracts: Sequence[int], seed: int, start: int, n: int, *,
                rules: Rules | None = None, params: dict | None = None, models=None,
                _played: dict | None = None) -> np.ndarray:
    """Per deal and contract, ``player``'s mean score at one seat among three ``opponents``.

    Deals ``start .. start + n - 1`` of run ``seed``; the player sits at each seat in turn and the
    declarer at each seat in turn (16 plays per deal and contract).

    Parameters
    ----------
    player, opponents : strategy specs (``heuristic``, ``mc:samples=64``, ``file.py:func``).
    contracts : contract ids.
    params : contract id -> trump suit / domino rank / choice-policy code (default :data:`STUDY_PARAMS`).
    models : the learned players' model array, when not the installed ones (``api.play_batch``).

    Returns
    -------
    scores : (n, len(contracts)) float64
        Each deal's mean raw score of the player's seat over its 16 plays.
    """
    params = STUDY_PARAMS if params is None else params
    configs = [(c, params.get(c, 0), d) for c in contracts for d in range(N_SEATS)]
    k = len(contracts)
    played = {} if _played is None else _played  # line-up -> (n, k, declarer, seat) scores, shared by A and B
    total = np.zeros((n, k))
    for seat in range(N_SEATS):
        line_up = [opponents] * N_SEATS
        line_up[seat] = player
        key = tuple(s.strip() for s in line_up)
        if key not in played:
            scores, _ = play_batch(seed, start, n, configs, line_up, rules=rules, models=models)
            played[key] = scores.reshape(n, k, N_SEATS, N_SEATS)
        total += played[key][:, :, :, seat].sum(axis=2)
    return total / PLAYS


def block_scores(players: Sequence[str], b: str, opponents: str, contracts: Sequence[int], seed: int, lo: int, n: int,
                 rules: Rules | None = None, params: dict | None = None):
    """Deals ``lo .. lo + n - 1``: each player's (then B's) :func:`seat_scores`, the line-ups they share played
    once.  A pure function of its arguments, so that any process may play it (a Ray task).

    Returns
    -------
    a : (len(players), n, len(contracts)) float64
    b : (n, len(contracts)) float64
    seconds : (len(players) + 1,) float64, the time each player's plays took (B's last)
    """
    played: dict = {}
    a = np.zeros((len(players), n, len(contracts)))
    seconds = np.zeros(len(players) + 1)
    for i, player in enumerate([*players, b]):
        start = time.perf_counter()
        scores = seat_scores(player, opponents, contracts, seed, lo, n, rules=rules, params=params, _played=played)
        seconds[i] = time.perf_counter() - start
        if i < len(players):
            a[i] = scores
    return a, scores, seconds


def check_players(players: Sequence[str], b: str, opponents: str) -> None:
    """Every spec must name a player: an unknown one is a ValueError before any deal is played."""
    named = [(f"player A{'' if len(players) == 1 else f' {spec!r}'}", spec) for spec in players]
    for role, spec in (*named, ("player B", b), ("the opponents", opponents)):
        try:
            resolve_strategy(spec)
        except ValueError as e:
            raise ValueError(f"{role}: {e}") from None


def compare_each(players: Sequence[str], b: str, *, opponents: str = "heuristic", contracts: Sequence | None = None,
                 deals: int = DEFAULT_DEALS, seed: int = 0, rules: Rules | None = None, params: dict | None = None,
                 threads: int | None = None, progress: bool = False, desc: str = "comparing",
                 on_block: Callable[[int, int], None] | None = None,
                 on_contract: Callable[[list[Comparison]], None] | None = None,
                 backend=None, block: int = 50_000) -> list[Comparison]:
    """Compare each of ``players`` with player ``b`` in one seat among three ``opponents``, on the same deals.

    Deals ``0 .. deals - 1`` are played in blocks, every contract at once (with ``on_contract``, one
    contract after the other); B's plays (and any line-up two players share) are played once per block.
    The numbers depend neither on the blocks, the threads, the backend, nor on which contracts are played
    together: deal ``i`` is a pure function of ``(seed, i)``.

    Parameters
    ----------
    players : the players A (strategy specs), each compared with ``b``.
    b, opponents : strategy specs.
    contracts : contract names or ids (default all seven), each once.
    deals : deals ``0 .. deals - 1`` of run ``seed`` (at least 2, for a confidence interval).
    rules : the rules (default the rules as written); where the lowest total wins, "A better by" is B - A.
    params : contract id -> trump suit / domino rank / choice-policy code (default :data:`STUDY_PARAMS`,
        the declarer's longest suit and dominoes from the 7).
    threads : numba threads here (default: as set); the numbers do not depend on it.
    progress : show a tqdm progress bar (on stderr), ``desc`` its label.
    on_block : called with (deal-contracts done, deals x contracts) after each block of deals.
    on_contract : called after each contract with the comparisons of the contracts done so far.
    backend : a :mod:`~barbu_sim.core.backends` backend to play the blocks (default: here, in blocks sized
        by time); it plays blocks of ``block`` deals.

    Returns
    -------
    list of Comparison
        One per player A, in order; each ``table`` has one row per contract and a ``total`` row.
    """
    import numba
    from tqdm import tqdm

    players, b, opponents = [p.strip() for p in players], b.strip(), opponents.strip()  # as shown and recorded
    if not players:
        raise ValueError("give at least one player A")
    check_players(players, b, opponents)
    ids = contract_ids(contracts)
    if not 2 <= deals <= MAX_DEALS:
        raise ValueError(f"the number of deals must be at least 2 (a confidence interval needs two) and at most "
                         f"{MAX_DEALS:,}, not {deals:,}")
    if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(f"--threads must be at least 1 and at most {numba.config.NUMBA_NUM_THREADS} "
                         f"(the cores numba may use here), not {threads}")
    if block < 1:
        raise ValueError(f"a block holds at least 1 deal, not {block:,}")
    rules = rules or Rules()
    params = dict(STUDY_PARAMS if params is None else params)
    for player in dict.fromkeys([*players, b]):
        compile_engine([player] + [opponents] * (N_SEATS - 1), one=False)  # before the bar, not inside it
    a_scores = np.zeros((len(players), deals, len(ids)))
    b_scores = np.zeros((deals, len(ids)))
    seconds = np.zeros((len(players) + 1, len(ids)))

    def results(k: int) -> list[Comparison]:
        table = partial(comparison_table, contracts=ids[:k], lower_is_better=rules.lower_is_better)
        return [Comparison(a=a, b=b, opponents=opponents, deals=deals, seed=seed, contracts=tuple(ids[:k]),
                           params=params, rules=rules, table=table(a_scores[i, :, :k], b_scores[:, :k]),
                           a_scores=a_scores[i, :, :k].copy(), b_scores=b_scores[:, :k].copy(),
                           a_seconds=tuple(seconds[i, :k]), b_seconds=tuple(seconds[-1, :k]))
                for i, a in enumerate(players)]

    before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        with tqdm(total=deals * len(ids), unit=" deals", disable=not progress, desc=desc) as bar:
            # every contract in one call (fastest), or one after the other when each is to be kept as it is done
            for first, group in (((j, (c,)) for j, c in enumerate(ids)) if on_contract else [(0, tuple(ids))]):
                cols = slice(first, first + len(group))
                play = partial(block_scores, tuple(players), b, opponents, group, seed, rules=rules, params=params)
                if backend is None:
                    parts = ((lo, n, play(lo, n)) for lo, n in timed_blocks(deals))  # sized by time, played here
                else:
                    blocks = [(lo, min(block, deals - lo)) for lo in range(0, deals, block)]
                    parts = ((lo, n, part) for (lo, n), part in zip(blocks, backend.imap(
                        play, blocks, what="block of deals")))
                for lo, n, (a_part, b_part, secs) in parts:
                    a_scores[:, lo:lo + n, cols] = a_part
                    b_scores[lo:lo + n, cols] = b_part
                    seconds[:, cols] += secs[:, None] / len(group)  # contracts played together share the time
                    bar.update(n * len(group))
                    if on_block:
                        on_block(first * deals + (lo + n) * len(group), deals * len(ids))
                if on_contract:
                    on_contract(results(first + 1))
    finally:
        numba.set_num_threads(before)
    return results(len(ids))


def compare(a: str, b: str, *, opponents: str = "heuristic", contracts: Sequence | None = None,
            deals: int = DEFAULT_DEALS, seed: int = 0, rules: Rules | None = None, params: dict | None = None,
            threads: int | None = None, progress: bool = False,
            on_block: Callable[[int, int], None] | None = None) -> Comparison:
    """Compare player ``a`` with player ``b`` in one seat among three ``opponents``, on the same deals.

    Parameters
    ----------
    a, b, opponents : strategy specs.
    contracts : contract names or ids (default all seven), each once.
    deals : deals ``0 .. deals - 1`` of run ``seed`` (at least 2, for a confidence interval).
    rules : the rules (default the rules as written); where the lowest total wins, "A better by" is B - A.
    params : contract id -> trump suit / domino rank / choice-policy code (default :data:`STUDY_PARAMS`,
        the declarer's longest suit and dominoes from the 7).
    threads : numba threads (default: as set); the numbers do not depend on it.
    progress : show a tqdm progress bar (on stderr).
    on_block : called with (deal-contracts done, deals x contracts) after each block of deals.

    Returns
    -------
    Comparison
        Its ``table`` has one row per contract and a ``total`` row (:data:`TABLE_COLUMNS`).
    """
    return compare_each([a], b, opponents=opponents, contracts=contracts, deals=deals, seed=seed, rules=rules,
                        params=params, threads=threads, progress=progress, on_block=on_block)[0]


def comparison_table(a_scores: np.ndarray, b_scores: np.ndarray, contracts: Sequence[int],
                     lower_is_better: bool = False) -> pl.DataFrame:
    """One row per contract and a ``total`` row from per-deal scores ((deals, n_contracts) each).

    "A better by" is A - B, or B - A when ``lower_is_better``; the total's CI is that of the
    per-deal sum over the contracts (paired: every contract was played on the same deals).
    """
    columns = [(CONTRACTS[c], a_scores[:, j], b_scores[:, j]) for j, c in enumerate(contracts)]
    columns.append((TOTAL, a_scores.sum(axis=1), b_scores.sum(axis=1)))
    rows = []
    for name, a, b in columns:
        d = summarize((b - a) if lower_is_better else (a - b))  # positive: A plays the seat better
        rows.append({"contract": name, "deals": len(a), "a_mean": float(a.mean()), "b_mean": float(b.mean()),
                     "a_better_by": d["mean"], "se": d["se"], "ci_low": d["ci_low"], "ci_high": d["ci_high"]})
    schema = {"contract": pl.String, "deals": pl.Int64, **{c: pl.Float64 for c in TABLE_COLUMNS[2:]}}
    return pl.DataFrame(rows, schema=schema)


# ---- several comparisons, one results file ------------------------------------------------------------------------

def for_opponents(spec: str, opponents: str) -> str:
    """``spec`` with ``{OPPONENTS}`` replaced by the opponents it sits among (``mc:infer=policy:{OPPONENTS}``)."""
    return spec.replace(OPPONENTS_FIELD, opponents.strip())


def _words(value) -> str:
    """A seed, or choices as ``trumps D, domino 7``, for a message."""
    return ", ".join(f"{k} {v}" for k, v in value.items()) if isinstance(value, dict) else str(value)


class ResultsFile:
    """The results file of :func:`compare_grid`: its rows named by :data:`ROW_KEY`, written whole each time.

    With ``merge``, an existing file is read first (before any deal is played): it must be a results
    file of this seed and these choices, and under a rules label the same rules; its rows are kept
    unless a row of the same key is written, which replaces it in place, and so are its other entries
    (a ``note``, the ``commands`` behind the rows).
    """

    def __init__(self, path, *, seed: int, params: dict, force: bool = False, merge: bool = False):
        self.path = check_out(path, force or merge, merge="--merge")
        self.seed, self.choices = seed, describe_params(params)
        self.old: dict = {"rows": []}
        self.rows: dict[tuple, dict] = {}
        self.players: dict[str, str] = {}
        self.rules: dict[str, dict] = {}
        if merge and not force:
            if self.path.is_symlink() and not self.path.exists():
                raise ValueError(f"--out {path} is a link that points nowhere: --merge has no rows to add to; give "
                                 "--force to replace it, or name another file")
            if self.path.exists():
                self.old = read_rows(self.path, ROW_KEY)
                for what, theirs, mine in (("seed", self.old.get("seed"), seed),
                                           ("choices", self.old.get("choices"), self.choices)):
                    if theirs != mine:
                        raise ValueError(f"--out {path} holds rows of {what} {_words(theirs)}, not {_words(mine)}: "
                                         "--merge adds rows of the same seed and choices (--seed, --trump); give "
                                         "--force to replace it, or name another file")
                self.players = dict(self.old.get("players", {}))
                self.rules = dict(self.old.get("rules", {}))

    def check_rules(self, label: str, rules: Rules) -> None:
        """A rules label of the file must name the same rules in every row."""
        if self.rules.get(label, rules.to_dict()) != rules.to_dict():
            raise ValueError(f"--out {self.path} holds rows under rules {label!r} that are not these rules: give "
                             "--force to replace it, or name another file")

    def add(self, comparison: Comparison, label: str, total: bool = True) -> None:
        """Add (or replace) ``comparison``'s rows under the rules label ``label``, and write the file."""
        self.rules[label] = comparison.rules.to_dict()
        for spec in (comparison.a, comparison.b, comparison.opponents):
            self.players[spec] = canonical_strategy(spec)
        for row in comparison.rows(label, total):
            self.rows[tuple(row[k] for k in ROW_KEY)] = row
        self.write()

    def write(self) -> None:
        old = [self.rows.get(tuple(r[k] for k in ROW_KEY), r) for r in self.old["rows"]]
        seen = {tuple(r[k] for k in ROW_KEY) for r in self.old["rows"]}
        rows = old + [r for key, r in self.rows.items() if key not in seen]
        data = {"seed": self.seed, "choices": self.choices, "method": METHOD, "players": self.players,
                "rules": self.rules}
        data.update({k: v for k, v in self.old.items() if k not in data and k != "rows"})  # its notes, commands...
        data["rows"] = rows
        write_json(self.path, data, what="the comparison")


def compare_grid(players: Sequence[str], b: str, *, opponents: Sequence[str] = ("heuristic",),
                 rules: Mapping[str, Rules] | None = None, contracts: Sequence | None = None,
                 deals: int = DEFAULT_DEALS, seed: int = 0, params: dict | None = None, threads: int | None = None,
                 progress: bool = False, out=None, force: bool = False, merge: bool = False,
                 on_result: Callable[[str, list[Comparison]], None] | None = None) -> list[tuple[str, Comparison]]:
    """:func:`compare_each` under each rules of ``rules`` (label -> Rules, default ``{"default": Rules()}``) and
    among each of ``opponents``, in that order; ``{OPPONENTS}`` in a player's spec stands for the opponents.

    Everything is checked before any deal is played: the players, the contracts, the size, and ``out``
    (an existing file is refused unless ``force``, or ``merge``: see :class:`ResultsFile`).  The rows of
    ``out`` are written after each contract (without the total, which follows its comparison's last
    contract), so that Ctrl-C loses at most the contract being played.

    Returns
    -------
    list of (rules label, Comparison)
        In the order played; ``on_result`` is called with the label and the comparisons of each (rules,
        opponents) as they are done.
    """
    rules = dict(rules or {"default": Rules()})
    params = dict(STUDY_PARAMS if params is None else params)
    opponents = [o.strip() for o in opponents]
    if not opponents or not rules:
        raise ValueError("give at least one opponent and one rules")
    for i, a in enumerate(players):  # as the file keeps one row per A, the table shows each A once
        if a.strip() in [p.strip() for p in players[:i]]:
            raise ValueError(f"the player {a.strip()!r} is given twice as A: give each once")
    for i, o in enumerate(opponents):
        if o in opponents[:i]:
            raise ValueError(f"the opponents {o!r} are given twice: give each once")
        check_players([for_opponents(p, o) for p in players], for_opponents(b, o), o)
    contract_ids(contracts)
    if not 2 <= deals <= MAX_DEALS:
        raise ValueError(f"the number of deals must be at least 2 (a confidence interval needs two) and at most "
                         f"{MAX_DEALS:,}, not {deals:,}")
    results_file = None if out is None else ResultsFile(out, seed=seed, params=params, force=force, merge=merge)
    if results_file:
        for label, the_rules in rules.items():
            results_file.check_rules(label, the_rules)
    done: list[tuple[str, Comparison]] = []
    for label, the_rules in rules.items():
        for o in opponents:
            def save(partial_results: list[Comparison], label: str = label) -> None:
                for comparison in partial_results:
                    results_file.add(comparison, label, total=False)

            desc = ", ".join(x for x in (label if len(rules) > 1 else "", o if len(opponents) > 1 else "") if x)
            results = compare_each([for_opponents(p, o) for p in players], for_opponents(b, o), opponents=o,
                                   contracts=contracts, deals=deals, seed=seed, rules=the_rules, params=params,
                                   threads=threads, progress=progress, desc=desc or "comparing",
                                   on_contract=save if results_file else None)
            for comparison in results:
                if results_file:
                    results_file.add(comparison, label)
                done.append((label, comparison))
            if on_result:
                on_result(label, results)
    return done

