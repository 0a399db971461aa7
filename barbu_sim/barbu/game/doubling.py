"""Doubling policies: who a player doubles on their turn of the doubling round.

``choose(player, declarer, contract, param, hand, allowed, forced, rules, situation=None) -> set of seats``;
``situation`` (:class:`Situation`) tells what the table knows of the block.

- ``compulsory-only``: the two required doubles of each declarer, as late as allowed;
- ``always``: every allowed double and redouble;
- ``threshold[:MARGIN]``: double a seat when this hand's expected score (over random
  deals of the unseen cards) beats theirs by MARGIN points; the declarer redoubles likewise;
- ``bayes[:MARGIN]``: estimates the scores *given that the declarer chose this
  contract*: it deals the unseen cards many times, keeps the deals in which the
  declarer's hand would have made this very choice (trump suit or domino rank
  included) under the declarer's contract policy, and plays those out.  It doubles
  a seat when its expected gain beats MARGIN; it spends the compulsory doubles it
  still owes where they gain most (:func:`settled.spend_threshold`, an optimal
  stopping rule over the declarer's contracts left) rather than as late as allowed.
  It does both only in the contracts where its reading of the declarer's choice can
  be trusted: the hand proxy must explain at least ``MIN_R2`` of the declarer's
  advantage on held-out table hands (:func:`proxy.advantage_r2`).  In Domino it
  explains 0.15 (0.3-0.7 in the negative contracts, 0.9 in Trumps): conditioned on
  it, the voluntary Domino doubles of ``bayes:5`` expected +13.5 points of raw gain
  and realised -11.9 (-25.0 settled: declarers redoubled 93% of them; 106 doubles in
  1,000 blocks), so there it makes only the doubles the rules force.  Nor does it act
  when no deal matched the declarer's choice (the estimate is then over random deals).
  The declarer redoubles when its own expected gain beats MARGIN.

Every policy also says how often it doubles a declarer in each contract
(:meth:`DoublingPolicy.double_rate`, calibrated on what defenders expect from their
own hands, :meth:`evaluation.ValueTable.defender_gains`) and when it redoubles
(:meth:`DoublingPolicy.predict_redouble`): the settled DP of ``optimal`` plans with that.
"""

from __future__ import annotations

import math

from dataclasses import dataclass, field

import numpy as np

from ...core.seats import N_SEATS
from ..api import play_deal
from ..rules.config import DOMINO, N_CONTRACTS, TRUMPS
from .evaluation import Evaluator, grid_columns, subset_of
from .proxy import HandProxy, advantage_r2, grid_to_contracts
from .settled import spend_threshold, spending_values


@dataclass
class Situation:
    """What every player knows of the block when a contract has been named."""

    index: int = 0  # the deal's index in its seed's sequence (keys the sampler's random stream)
    remaining: tuple = tuple(range(N_CONTRACTS))  # the declarer's contracts left, the named one included
    owed: tuple = (0, 0, 0)  # doubles each opponent still owes the declarer (left, across, right)
    declarer_policy: object = None  # the declarer's contract policy, if known
    notes: dict = field(default_factory=dict)  # filled by a policy: why it doubled (for studies)


class DoublingPolicy:
    """Base class of the doubling policies."""

    name = "doubling"
    margin = 0.0

    def choose(self, player, declarer, contract, param, hand, allowed, forced, rules, situation=None):
        raise NotImplementedError

    def double_rate(self, contract, subset, owed) -> float:
        """How often a defender owing ``owed`` doubles, not forced, doubles the declarer in ``contract``
        (``subset``: the declarer's contracts left)."""
        return 0.0

    def predict_redouble(self, gain):
        """Would the declarer redouble a doubler with expected gain ``gain`` (n,)?  (n,) bools."""
        return np.zeros(len(gain), bool)

    def cache_name(self) -> str:
        """What the settled DP's cache key needs of this policy: everything its double rates depend on
        besides the value table."""
        return self.name


class CompulsoryOnly(DoublingPolicy):
    """Only the two required doubles of each declarer, as late in the block as allowed."""

    name = "compulsory-only"

    def choose(self, player, declarer, contract, param, hand, allowed, forced, rules, situation=None):
        return {declarer} if forced else set()


class Always(DoublingPolicy):
    """Every allowed double; the declarer redoubles whoever doubled them."""

    name = "always"

    def choose(self, player, declarer, contract, param, hand, allowed, forced, rules, situation=None):
        return set(allowed)

    def double_rate(self, contract, subset, owed) -> float:
        return 1.0

    def predict_redouble(self, gain):
        return np.ones(len(gain), bool)


class Threshold(DoublingPolicy):
    """Double a seat when this hand's expected score beats that seat's by ``margin`` points."""

    def __init__(self, evaluator: Evaluator, margin: float = 5.0, gains=None):
        self.evaluator, self.margin = evaluator, margin
        self.name = f"threshold:{margin:g}"
        self._gains = gains  # per contract, samples of a defender's expected gain (or a function giving them)

    def gain_samples(self, contract: int) -> np.ndarray:
        if callable(self._gains):
            self._gains = self._gains()
        return np.asarray(self._gains[contract] if self._gains is not None else [0.0])

    def choose(self, player, declarer, contract, param, hand, allowed, forced, rules, situation=None):
        chosen = {declarer} if forced else set()
        if allowed:
            means = self.evaluator.seat_means(hand, player, contract, param, declarer)
            chosen |= {t for t in allowed if means[player] - means[t] > self.margin}
        return chosen

    def double_rate(self, contract, subset, owed) -> float:
        return float((self.gain_samples(contract) > self.margin).mean())

    def predict_redouble(self, gain):
        return np.asarray(gain) > self.margin


def _masks(cards: np.ndarray) -> np.ndarray:
    """(n,) uint64 masks of (n, 13) card arrays."""
    return np.bitwise_or.reduce(np.left_shift(np.uint64(1), cards.astype(np.uint64)), axis=1)


class Bayes(DoublingPolicy):
    """Doubles on the scores expected given the declarer's choice; spends owed doubles where they gain most."""

    MIN_KEPT = 8
    MIN_R2 = 0.25  # below this share of the declarer's advantage explained, the estimate is not acted on

    def __init__(self, evaluator: Evaluator, table, margin: float = 5.0, *, n_candidates: int = 1000,
                 max_kept: int = 16):
        self.evaluator, self.table, self.margin = evaluator, table, margin
        self.n_candidates, self.max_kept = n_candidates, max_kept
        self.name = f"bayes:{margin:g}"
        self._memo: dict = {}
        self.proxy = HandProxy.from_table(table)
        self.reliability = advantage_r2(table.hands, table.grid_mean)  # (7,) per contract
        self.gains = table.defender_gains()
        g = table.defender_grid[:, :, 1] - table.defender_grid[:, :, 0]
        rows = np.arange(len(g))
        by_contract = np.zeros((len(g), N_CONTRACTS))  # one trump suit / domino rank per sample hand
        for c in range(N_CONTRACTS):
            cols = np.array(grid_columns(c))
            by_contract[:, c] = g[rows, cols[rows % len(cols)]]
        untrusted = [c for c in range(N_CONTRACTS) if not self.trusts(c)]
        self.spending = spending_values(by_contract, blocked=untrusted)  # no early spending where it cannot read

    # -- what the declarer would have done
    def assumed_choices(self, declarer_hands, situation: Situation):
        """``(contract (n,), param (n,))`` the declarer's policy names with each of ``declarer_hands``,
        judged on the proxy's estimates."""
        values, params, seat_values = grid_to_contracts(self.proxy.predict(declarer_hands))
        policy = situation.declarer_policy
        remaining = list(situation.remaining)
        if policy is not None and callable(getattr(policy, "choose_many", None)):
            return policy.choose_many(declarer_hands, values, params, seat_values, remaining, situation.owed)
        scores = np.full(values.shape, -np.inf)  # unknown policy: assume the raw-score block DP
        S = subset_of(remaining)
        for c in remaining:
            scores[:, c] = values[:, c] + self.table.subset_value[S & ~(1 << c)]
        best = np.argmax(scores, axis=1)
        return best, params[np.arange(len(best)), best]

    def consistent_deals(self, hand, player: int, declarer: int, contract: int, param: int,
                         situation: Situation, seed: int = 0):
        """Deals of the cards ``player`` cannot see in which the declarer would have named
        ``contract`` (and ``param`` for Trumps / Domino).

        Returns ``(deals (m, 4) uint64, level)``: level 0 when at least MIN_KEPT deals
        match the choice exactly, 1 when only the contract is matched, 2 when no
        conditioning was possible (random deals).  At most ``max_kept`` deals.
        """
        rng = np.random.default_rng([seed % 2**63, situation.index % 2**63, player, 0xBA4E5])
        unseen = np.array([c for c in range(52) if not int(hand) >> c & 1], np.int64)
        perm = rng.permuted(np.tile(unseen, (self.n_candidates, 1)), axis=1)
        deals = np.zeros((self.n_candidates, N_SEATS), np.uint64)
        deals[:, player] = np.uint64(int(hand))
        for k in range(3):
            deals[:, (player + 1 + k) % N_SEATS] = _masks(perm[:, 13 * k:13 * (k + 1)])
        chosen_c, chosen_p = self.assumed_choices(deals[:, declarer], situation)
        same_contract = chosen_c == contract
        exact = same_contract & ((chosen_p == param) if contract in (TRUMPS, DOMINO) else True)
        for level, keep in enumerate((exact, same_contract)):
            if keep.sum() >= self.MIN_KEPT:
                return deals[keep][:self.max_kept], level
        return deals[:self.max_kept], 2

    # -- the decision
    def cache_name(self) -> str:
        return f"{self.name}/acts-in:{''.join('1' if self.trusts(c) else '0' for c in range(N_CONTRACTS))}"

    def trusts(self, contract: int) -> bool:
        """Does the proxy read the declarer's choice well enough in ``contract`` to act on the estimate?"""
        return bool(self.reliability[contract] >= self.MIN_R2)

    def choose(self, player, declarer, contract, param, hand, allowed, forced, rules, situation=None):
        situation = situation or Situation()
        if player != declarer and not self.trusts(contract):  # nothing to estimate: only what is forced
            reasons = {declarer: "forced"} if forced else {}
            situation.notes[player] = {"gain": {}, "level": None, "kept": 0, "reasons": reasons, "trusted": False}
            return set(reasons)
        if player == declarer:  # redouble on the declarer's own estimate
            if not allowed:
                return set()
            means = self.evaluator.seat_means(hand, player, contract, param, declarer)
            return {t for t in allowed if means[player] - means[t] > self.margin}
        key = (situation.index, player, declarer, contract, param, situation.remaining, situation.owed,
               frozenset(allowed), forced, int(hand), getattr(situation.declarer_policy, "name", None))
        if key in self._memo:  # the same decision again (another contract policy made the same call)
            situation.notes[player] = self._memo[key]
            return set(self._memo[key]["reasons"])
        raw, level = self.estimate(hand, player, declarer, contract, param, rules, situation)
        gain = {t: float((raw[:, player] - raw[:, t]).mean()) for t in allowed}
        owed = int(situation.owed[(player - declarer) % N_SEATS - 1])
        reasons = self.decide(gain, declarer, forced, owed, subset_of(situation.remaining), contract, level)
        situation.notes[player] = self._memo[key] = {"gain": gain, "level": level, "kept": len(raw),
                                                     "reasons": reasons}
        return set(reasons)

    def estimate(self, hand, player, declarer, contract, param, rules, situation: Situation):
        """The raw scores (m, 4) of the deals consistent with the declarer's choice, played out; and the level
        of :meth:`consistent_deals`."""
        deals, level = self.consistent_deals(hand, player, declarer, contract, param, situation, self.evaluator.seed)
        raw = np.array([play_deal(d, contract, self.evaluator.strategies, param=param, declarer=declarer,
                                  rules=rules, seed=self.evaluator.seed, index=situation.index).scores
                        for d in deals], float)
        return raw, level

    def decide(self, gain: dict, declarer: int, forced: bool, owed: int, subset: int, contract: int,
               level: int = 0) -> dict:
        """Whom to double, and why (``margin``, ``forced`` or ``planned``), from the expected gains by target.

        ``level``: that of :meth:`consistent_deals`.  At level 2 no deal matched the declarer's
        choice (a rare choice, such as Trumps named early in the block by a declarer who keeps it
        for the last hands): the gains are those of random deals, blind to the choice, and only
        what is forced is doubled.
        """
        if not self.trusts(contract) or level >= 2:
            return {declarer: "forced"} if forced and declarer in gain else {}
        reasons = {t: "margin" for t, g in gain.items() if g > self.margin}
        if declarer in gain and declarer not in reasons:
            if forced:
                reasons[declarer] = "forced"
            elif gain[declarer] >= spend_threshold(self.spending, subset, contract, owed):
                reasons[declarer] = "planned"
        return reasons

    def double_rate(self, contract, subset, owed) -> float:
        if not self.trusts(contract):
            return 0.0
        s = self.gains[contract]
        return float(((s > self.margin) | (s >= spend_threshold(self.spending, subset, contract, owed))).mean())

    def predict_redouble(self, gain):
        return np.asarray(gain) > self.margin


DOUBLING_NAMES = "compulsory-only, always, threshold[:MARGIN] or bayes[:MARGIN]"


def _margin(spec: str) -> float:
    if ":" not in spec:
        return 5.0
    try:
        margin = float(spec.split(":", 1)[1])
    except ValueError:
        raise ValueError(f"{spec.split(':')[0]} margin must be a number: {spec!r}") from None
    if not math.isfinite(margin):
        raise ValueError(f"{spec.split(':')[0]} margin must be a finite number, "
                         f"not {spec.split(':', 1)[1]!r}: {spec!r}")
    return margin


def check_doubling_spec(spec: str) -> None:
    """Raise the ValueError :func:`make_doubling_policy` would raise for ``spec``, before any work is done."""
    s = spec.strip()
    if s in ("compulsory-only", "always"):
        return
    for name in ("threshold", "bayes"):
        if s == name or s.startswith(name + ":"):
            _margin(s)
            return
    raise ValueError(f"unknown doubling policy {spec!r}: use {DOUBLING_NAMES}")


def make_doubling_policy(spec: str, evaluator: Evaluator, table_factory=None) -> DoublingPolicy:
    """A doubling policy from its name (``table_factory()`` gives the value table ``bayes`` needs)."""
    spec = spec.strip()
    if spec == "compulsory-only":
        return CompulsoryOnly()
    if spec == "always":
        return Always()
    if spec == "threshold" or spec.startswith("threshold:"):
        gains = (lambda: table_factory().defender_gains()) if table_factory is not None else None
        return Threshold(evaluator, _margin(spec), gains)
    if spec == "bayes" or spec.startswith("bayes:"):
        if table_factory is None:
            raise ValueError("bayes doubling needs the value table")
        return Bayes(evaluator, table_factory(), _margin(spec))
    raise ValueError(f"unknown doubling policy {spec!r}: use {DOUBLING_NAMES}")
