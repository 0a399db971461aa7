"""The declarer's block on settled points: the DP behind ``optimal``, and the spending rule of compulsory doubles.

A declarer's settled score in a hand is linear in the raw scores: with ``m_p``
doubles between the declarer and opponent ``p`` (1 for a double, 2 with the
redouble) it is ``raw_d + sum_p m_p (raw_d - raw_p)``.  So the expected settled
score of a hand follows from the expected raw score of every seat
(:attr:`evaluation.ValueTable.seat_values`) and from who doubles.

Who doubles depends on the state of the block: the contracts the declarer has
left (their number is the hands left) and the doubles each opponent still owes
(0..2 each, ``owed``, by relative seat left, across, right).  An opponent who owes
as many doubles as hands are left must double; otherwise it doubles at the rate
its policy doubles that contract in that state
(:meth:`doubling.DoublingPolicy.double_rate`): a defender decides on its own
hand, which the declarer does not see, so the declarer cannot tell which of its
hands will be doubled, only how often.  The declarer's own policy says when it
redoubles (:meth:`doubling.DoublingPolicy.predict_redouble`, on its estimate).

:func:`settled_block_values` is the DP ``V[S, owed]``: the expected settled total
of the rest of the block, the mean over sample hands of the best
``hand value + V[S - c, owed']``.  :func:`brute_force_block` checks it in the tests.
"""

from __future__ import annotations

import hashlib
import json
from itertools import product
from pathlib import Path

import numpy as np

from ...core.files import OutputError, atomic_path
from ..rules.config import N_CONTRACTS
from ...core.codestamp import code_stamp
from .evaluation import N_SUBSETS, default_cache_dir

SETTLED_VERSION = 4
N_OWED = 27  # owed doubles of the three opponents, 0..2 each
OWED_STATES = list(product(range(3), repeat=3))  # index = 9 * left + 3 * across + right


def owed_index(owed) -> int:
    """The index of an ``(left, across, right)`` owed-doubles triple."""
    a, b, c = (int(x) for x in owed)
    return 9 * a + 3 * b + c


def popcount(m: int) -> int:
    return bin(m).count("1")


def hand_outcome(e: np.ndarray, contract: int, subset: int, owed, opponents, own):
    """Expected settled value for the declarer, and where the owed doubles go, for sample hands ``e``.

    ``e``: (n, 4) expected raw scores by relative seat in ``contract``; ``subset``:
    the contracts left (``contract`` included); ``opponents``: the three opponents'
    doubling policies (left, across, right); ``own``: the declarer's.  An opponent
    owing as many doubles as hands are left doubles; otherwise it doubles at its
    policy's rate (:meth:`doubling.DoublingPolicy.double_rate`), on what it sees of
    its own hand, which the declarer cannot tell.  The declarer redoubles on its
    own estimate.  Returns ``(value (n,), [(probability, next owed index), ...])``.
    """
    k = popcount(subset)
    value = e[:, 0].astype(float).copy()
    rates = []
    for r in (1, 2, 3):
        o = int(owed[r - 1])
        q = 1.0 if o >= k else float(opponents[r - 1].double_rate(contract, subset, o))
        edge = e[:, r] - e[:, 0]  # the opponent's expected gain from doubling the declarer
        redoubled = np.asarray(own.predict_redouble(-edge), bool)
        value -= q * (1 + redoubled) * edge
        rates.append(q)
    nexts = []
    for doubled in product((False, True), repeat=3):
        w = 1.0
        for q, d in zip(rates, doubled):
            w *= q if d else 1.0 - q
        if w > 0:
            o = [max(int(owed[i]) - 1, 0) if doubled[i] else int(owed[i]) for i in range(3)]
            nexts.append((w, owed_index(o)))
    return value, nexts


def _continuation(V: np.ndarray, rest: int, nexts) -> float:
    return sum(w * V[rest, i] for w, i in nexts)


def settled_block_values(seat_values: np.ndarray, opponents, own) -> np.ndarray:
    """DP over (contracts left, owed doubles): ``V[S, owed]``, the declarer's expected settled total.

    ``seat_values``: (n_hands, 7, 4) expected raw scores of sample hands by relative
    seat.  ``V[S, o] = mean over hands of max_{c in S} (settled value of c + E V[S - c, o'])``;
    states where an opponent owes more doubles than hands are left are ``nan``.
    """
    V = np.full((N_SUBSETS, N_OWED), np.nan)
    V[0, 0] = 0.0
    for S in sorted(range(1, N_SUBSETS), key=popcount):
        k = popcount(S)
        for oi, owed in enumerate(OWED_STATES):
            if max(owed) > k:
                continue
            best = None
            for c in range(N_CONTRACTS):
                if not S >> c & 1:
                    continue
                value, nexts = hand_outcome(seat_values[:, c, :], c, S, owed, opponents, own)
                total = value + _continuation(V, S & ~(1 << c), nexts)
                best = total if best is None else np.maximum(best, total)
            V[S, oi] = best.mean()
    return V


def brute_force_block(seat_values: np.ndarray, subset: int, owed, opponents, own) -> float:
    """The expected settled total by plain recursion over every hand sequence and every way the doubles
    fall (for tests: tiny inputs only).  At each hand every sample hand is equally likely; the declarer,
    seeing it, tries every contract left and keeps the best continuation."""
    if subset == 0:
        return 0.0
    total = 0.0
    n = seat_values.shape[0]
    for h in range(n):
        best = -np.inf
        for c in range(N_CONTRACTS):
            if subset >> c & 1:
                value, nexts = hand_outcome(seat_values[h:h + 1, c, :], c, subset, owed, opponents, own)
                future = sum(w * brute_force_block(seat_values, subset & ~(1 << c), OWED_STATES[i], opponents, own)
                             for w, i in nexts)
                best = max(best, float(value[0]) + future)
        total += best
    return total / n


def best_order_total(values: np.ndarray, owed, opponents, own) -> float:
    """For one hand-made (7, 4) value table and policies that double with rate 0 or 1: the best settled
    total over every order of the seven contracts."""
    from itertools import permutations
    best = -np.inf
    for order in permutations(range(N_CONTRACTS)):
        S, o, total = (1 << N_CONTRACTS) - 1, tuple(owed), 0.0
        for c in order:
            value, nexts = hand_outcome(values[None, c, :], c, S, o, opponents, own)
            (w, i), = nexts  # deterministic doubles: one way only
            total += float(value[0])
            S &= ~(1 << c)
            o = OWED_STATES[i]
        best = max(best, total)
    return best


# ---------------------------------------------------------------- the spending rule of compulsory doubles
def spending_values(gains: np.ndarray, blocked=()) -> np.ndarray:
    """``W[S, o]``: a defender's expected gain from spending ``o`` owed doubles over the contracts ``S``
    the declarer has left, spending each where it gains most (optimal stopping).

    ``gains``: (n, 7) samples of the gain of doubling the declarer in each contract.
    ``blocked``: contracts where the defender spends a double only when forced.
    The next contract is taken as equally likely to be any of ``S``; with as many
    doubles owed as hands left every double is forced.
    """
    blocked = set(blocked)
    mean_gain = gains.mean(axis=0)
    W = np.full((N_SUBSETS, 3), np.nan)
    W[:, 0] = 0.0
    for S in sorted(range(1, N_SUBSETS), key=popcount):
        k = popcount(S)
        for o in (1, 2):
            if o > k:
                continue
            if o == k:
                W[S, o] = sum(mean_gain[c] for c in range(N_CONTRACTS) if S >> c & 1)
                continue
            parts = []
            for c in range(N_CONTRACTS):
                if S >> c & 1:
                    rest = S & ~(1 << c)
                    if c in blocked:  # not forced here (o < k): keep the doubles for later
                        parts.append(W[rest, o])
                    else:
                        parts.append(np.maximum(gains[:, c] + W[rest, o - 1], W[rest, o]).mean())
            W[S, o] = float(np.mean(parts))
    return W


def spend_threshold(W: np.ndarray, subset: int, contract: int, owed: int) -> float:
    """The least gain for which a defender owing ``owed`` doubles spends one now on ``contract``
    (``subset``: the declarer's contracts left, this one included); ``-inf`` when forced."""
    rest = subset & ~(1 << contract)
    if owed <= 0:
        return np.inf
    if owed >= popcount(subset):
        return -np.inf
    return float(W[rest, owed] - W[rest, owed - 1])


# ---------------------------------------------------------------- cache
def block_values_path(table, opponents, own, cache_dir=None) -> Path:
    """The cache file of a settled DP: keyed by the value table's content and the four doubling policies
    (:meth:`doubling.DoublingPolicy.cache_name`: the name, and for ``bayes`` the contracts it acts in), and the
    code of the settlement and the policies (a :func:`~barbu_sim.core.codestamp.code_stamp`)."""
    digest = hashlib.sha1(np.ascontiguousarray(table.grid_mean, float).tobytes()).hexdigest()
    key = json.dumps({"table": digest, "opponents": [p.cache_name() for p in opponents], "own": own.cache_name(),
                      "version": SETTLED_VERSION, "code": code_stamp(__file__)}, sort_keys=True)
    return Path(cache_dir or default_cache_dir()) / f"settled-{hashlib.sha1(key.encode()).hexdigest()[:16]}.npy"


def cached_block_values(table, opponents, own, cache_dir=None) -> np.ndarray:
    """:func:`settled_block_values` of ``table``, read from or written to the cache."""
    path = block_values_path(table, opponents, own, cache_dir)
    if path.exists():
        try:
            V = np.load(path)
            if V.shape == (N_SUBSETS, N_OWED):
                return V
        except (OSError, ValueError):
            pass  # a damaged file is rebuilt
    V = settled_block_values(table.seat_values, opponents, own)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(path, "the settled-DP cache") as tmp:  # a unique temporary name per process and call
            np.save(tmp, V)
    except (OSError, OutputError):
        pass
    return V
