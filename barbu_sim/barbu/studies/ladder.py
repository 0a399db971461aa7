"""The strength ladder: how much better each rung plays than the one below it, per contract (``barbu-sim ladder``).

For a pair STRONG:WEAK and each contract, the strong player sits at one seat among three weak
ones; its score is compared with the weak player's score in that same seat on the same deals (all
four seats weak), with the declarer at each seat in turn and the strong player at each seat in turn
(16 plays per deal).  A deal's 16 differences are averaged into one number, and a row gives the
mean over the deals with a 95% CI (deals are independent; the 16 plays of one deal are not).

This is :func:`.compare.compare_each` with the weak player as both B and the opponents, in the
standard configuration (:data:`.compare.STUDY_PARAMS`: Trumps with the declarer's longest suit,
Domino from the 7).  What is the ladder's own: pairs of players, a deal count per pair, the rows of
a results file kept in the ladder's order (rungs from the bottom), and merging into that file so
that a slow rung can be added later.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from ...core.backends import LocalBackend
from ...core.outputs import check_out, read_rows, write_json
from ..rules.config import CONTRACTS
from .compare import MAX_DEALS, PLAYS, STUDY_PARAMS, check_players, compare_each, contract_ids, describe_params

DEFAULT_PAIRS = (("basic", "random"), ("heuristic", "basic"))
DEFAULT_DEALS = 200_000
DEFAULT_SEED = 11
DEFAULT_BLOCK = 50_000
DEFAULT_OUT = "results/ladder.json"
RUNGS = ["random", "basic", "heuristic", "learned1", "learned", "pimc", "mc1", "mc"]
ROW_KEY = ("strong", "weak", "contract")
METHOD = ("one seat of the stronger player among three of the weaker, against the weaker player in that seat on the "
          "same deals; every seat and declarer position; per-deal mean of the 16 plays; 95% normal CI over deals")


def _rung(spec: str) -> int:
    """Where a strategy stands on the ladder (unknown names last), for the order of the rows."""
    name = spec.split(":")[0]
    return RUNGS.index(name) if name in RUNGS else len(RUNGS)


def _specs(text: str) -> list[str]:
    """``a:b:k=v,k=v:c`` → strategy specs: a segment holding ``=`` is the previous name's parameters,
    and a ``file.py`` segment takes the function name after it."""
    out: list[str] = []
    for seg in text.split(":"):
        if out and ("=" in seg or out[-1].endswith(".py")):
            out[-1] += ":" + seg
        else:
            out.append(seg)
    return [s.strip() for s in out]


def parse_pairs(text: str) -> list[tuple[str, str]]:
    """``"heuristic:basic,mc:samples=64,rollout=basic:heuristic"``
    → ``[("heuristic", "basic"), ("mc:...", "heuristic")]``.

    Pairs are separated by commas; a comma followed by ``key=value`` continues the
    parameters of the strategy before it.
    """
    pieces: list[str] = []
    for tok in text.split(","):
        if pieces and "=" in tok.split(":")[0]:
            pieces[-1] += "," + tok
        else:
            pieces.append(tok)
    pairs = []
    for piece in pieces:
        specs = _specs(piece)
        if len(specs) != 2 or not all(specs):
            raise ValueError(f"a pair is STRONG:WEAK (e.g. heuristic:basic), not {piece.strip()!r}")
        pairs.append((specs[0], specs[1]))
    if not pairs:
        raise ValueError("give at least one pair")
    return pairs


def deal_counts(counts: Sequence[int], n_pairs: int) -> list[int]:
    """The deals of each pair: one count for every pair, or one per pair in order."""
    counts = list(counts)
    if len(counts) == 1:
        counts *= n_pairs
    if len(counts) != n_pairs:
        raise ValueError(f"--deals gives {len(counts)} counts for {n_pairs} pairs: give one, or one per pair")
    for n in counts:
        if not 2 <= n <= MAX_DEALS:
            raise ValueError(f"--deals must be at least 2 and at most {MAX_DEALS:,}, not {n:,}")
    return counts


def measure(strong: str, weak: str, contracts: Sequence, deals: int, seed: int, block: int = DEFAULT_BLOCK, *,
            backend=None, threads: int | None = None, progress: bool = False) -> list[dict]:
    """One row per contract: the strong player's mean gain over the weak one in the same seat (paired).

    ``backend`` (:mod:`barbu_sim.core.backends`; default this process) plays blocks of ``block`` deals; the
    rows are the same.  ``seconds`` is the pair's wall time.
    """
    start = time.perf_counter()
    (result,) = compare_each([strong], weak, opponents=weak, contracts=contracts, deals=deals, seed=seed,
                             params=STUDY_PARAMS, threads=threads, progress=progress, desc=f"{strong} vs {weak}",
                             backend=backend, block=block)
    seconds = round(time.perf_counter() - start, 1)
    rows = []
    for r in result.table.to_dicts()[:-1]:  # the contracts, not their total
        rows.append({"strong": result.a, "weak": result.b, "contract": r["contract"], "deals": deals,
                     "plays": deals * PLAYS, "strong_mean": r["a_mean"], "weak_mean": r["b_mean"],
                     "difference": r["a_better_by"], "se": r["se"], "ci_low": r["ci_low"], "ci_high": r["ci_high"],
                     "seconds": seconds})
    return rows


def markdown(rows: list[dict]) -> str:
    """The rows as a Markdown table."""
    lines = ["| stronger | weaker | contract | deals | stronger seat | weaker seat | difference (95% CI) |",
             "|---|---|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| `{r['strong']}` | `{r['weak']}` | {r['contract']} | {r['deals']:,} | "
                     f"{r['strong_mean']:+.2f} | {r['weak_mean']:+.2f} | "
                     f"{r['difference']:+.3f} ({r['ci_low']:+.3f} .. {r['ci_high']:+.3f}) |")
    return "\n".join(lines)


def ordered(rows: list[dict]) -> list[dict]:
    """The rows in the ladder's order: by the weaker rung, then the stronger, then the contract."""
    return sorted(rows, key=lambda r: (_rung(r["weak"]), _rung(r["strong"]), r["weak"], r["strong"],
                                       CONTRACTS.index(r["contract"])))


def ladder(pairs: Sequence[tuple[str, str]] = DEFAULT_PAIRS, deals: Sequence[int] = (DEFAULT_DEALS,), *,
           contracts: Sequence | None = None, seed: int = DEFAULT_SEED, out=DEFAULT_OUT, force: bool = False,
           merge: bool = False, block: int = DEFAULT_BLOCK, backend=None, threads: int | None = None,
           progress: bool = False, on_pair: Callable[[list[dict]], None] | None = None) -> list[dict]:
    """Measure each pair (STRONG, WEAK) on its deals and write the ladder's results file ``out``.

    Parameters
    ----------
    pairs : (strong, weak) strategy specs.
    deals : one count for every pair, or one per pair.
    contracts : contract names or ids (default all seven).
    out : the results file; an existing one is refused before any play unless ``force`` (replace it) or
        ``merge``: its rows of the same seed are kept, except those of the pairs and contracts played
        again; a file of another seed is refused.  The file is written after each pair.
    block, backend, threads : deals per backend task, the backend (default this process), numba threads.
    on_pair : called with each pair's rows as it is done.

    Returns
    -------
    list of dict
        This run's rows (:func:`measure`'s), in the order played.
    """
    pairs = [(s.strip(), w.strip()) for s, w in pairs]
    if not pairs:
        raise ValueError("give at least one pair")
    for i, pair in enumerate(pairs):  # the file keeps one row per pair and contract: one measure of each
        if pair in pairs[:i]:
            raise ValueError(f"the pair {pair[0]}:{pair[1]} is given twice: give each once")
    counts = deal_counts(deals, len(pairs))
    ids = contract_ids(contracts)
    if block < 1:
        raise ValueError(f"--block must be at least 1, not {block:,}")
    for strong, weak in pairs:
        check_players([strong], weak, weak)
    path = check_out(out, force or merge, merge="--merge")
    kept: list[dict] = []
    if merge and not force:
        if path.is_symlink() and not path.exists():
            raise ValueError(f"--out {out} is a link that points nowhere: --merge has no rows to add to; give "
                             "--force to replace it, or name another file")
        if path.exists():
            old = read_rows(path, ROW_KEY)
            if old.get("seed") != seed:
                raise ValueError(f"--out {out} holds the ladder of seed {old.get('seed')}, not {seed}: --merge adds "
                                 "rows of the same seed; give --force to replace it, or name another file")
            kept = old["rows"]
    if backend is not None:
        backend.connect()
    backend = None if isinstance(backend, LocalBackend) else backend
    choices = describe_params(STUDY_PARAMS)
    rows: list[dict] = []
    for (strong, weak), n in zip(pairs, counts):
        new = measure(strong, weak, ids, n, seed, block, backend=backend, threads=threads, progress=progress)
        rows += new
        done = {tuple(r[k] for k in ROW_KEY) for r in rows}
        write_json(path, {"seed": seed, "trumps": choices["trumps"], "domino_rank": choices["domino"],
                          "method": METHOD,
                          "rows": ordered([r for r in kept if tuple(r[k] for k in ROW_KEY) not in done] + rows)},
                   what="the ladder")
        if on_pair:
            on_pair(new)
    return rows
