"""One estimator for the table's hints and for reviews: what every legal card is worth from a position.

:func:`estimate` values every legal card of the seat to play, from that seat's
information only (its hand and what the table showed: the cards played and by whom,
the suits not followed, the passes), with the mc player's own estimator
(:func:`barbu_sim.barbu.players.mc.player.mc_estimates`) at its strongest settings
(:class:`Settings`):

- the rest of the hand is **searched exactly** in every layout once at most ``endgame``
  tricks are left (5 by default: tricks 9 to 13; in Domino once at most 20 cards are left),
  and a rollout from an earlier decision hands over to the exact search when ``tail``
  tricks are left (3): every seat then plays its best card (maxⁿ) with every hand known,
  so no card looks better because the rollout's defenders fail to overtake;
- the rollouts before that are played by ``learned`` at every seat, as ``mc``'s are;
- each layout is weighted by how likely the other seats' plays so far were in it if they
  played like ``learned`` (mc's inference from the play, 70% a play the model would not
  have made).

Layout ``k`` of a decision is drawn from the key ``(seed, the play's number in the deal,
k)`` (:data:`STREAM_REVIEW`), and every card is valued on the same layouts, so the loss of
a card (the best card's estimate minus its own) is a paired difference with a small
standard error; a hint and a review of the same decision, with the same seed and
settings, read the same layouts and give the same numbers.

**Adaptive sampling.** The layouts come in rounds: ``samples`` first, then twice as many
in all, and so on up to ``max_samples``.  After each round the loss of every legal card is
compared with the label thresholds of the contract (:func:`label_thresholds`): a card whose
confidence interval (``NOISE`` standard errors either side) straddles no threshold is
*settled* (more layouts would not change its label) and leaves the race unless it may still
be the best card (its interval reaches 0); the others are valued on the next round's layouts,
and the best card, the reference of every loss, is always among them.
Sampling stops when every card is settled, or at the cap.  The rule does not depend on which
card was played, so a hint (which does not know it) samples exactly as the review does.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.bits import popcount
from ...core.cards import cards_of
from ...core.rng import STREAM_REVIEW, stream_key
from ..players.mc.layouts import W_VALUES, W_WEIGHTS
from ..players.learned import MODEL_WIDTH, model_array
from ..players.mc.params import DEFAULT_INFER, DEFAULT_ROLLOUT as MC_DEFAULT_ROLLOUT, MAX_DEPTH, MAX_SAMPLES, ROLLOUTS
from ..rules.config import DOMINO, Rules
from ..state import STATE_SIZE

NOISE = 2.0  # standard errors either side of an estimate: the confidence interval the labels and the noise rule use
# The labels of a loss, largest first, each from a share of the points the contract deals out (label_thresholds).
LABEL_SHARES = (("blunder", 0.25), ("mistake", 0.10), ("inaccuracy", 0.04))
DEFAULT_SAMPLES = 64  # the first round's layouts
# max_samples defaults to this many times samples (8,192 for 64): learned rollouts cost up to 2.6 times heuristic's
# layout for layout, and 8,192 keeps a block's review within its time with heuristic's 32,768 (docs/review-and-table.md)
ROUNDS_CAP = 128
# A decision searched exactly from 5 tricks left costs about 0.7 ms a layout, some thirty times a layout of rollouts:
# it stops at this share of max_samples.
DEEP_SHARE = 4
DEFAULT_ENDGAME = 5  # tricks left when a decision is searched exactly in every layout (mc's MAX_DEPTH)
# Tricks left when a rollout from an earlier decision hands over to the exact search: 3 costs about 5 µs a card and
# layout, 4 about 35 µs (docs/review-and-table.md): the layouts that buys matter more to a label than the fourth trick.
DEFAULT_TAIL = 3
DEFAULT_ROLLOUT = MC_DEFAULT_ROLLOUT  # mc's: learned (heuristic before; Settings(rollout="heuristic") plays so)
NO_NET = np.zeros((0, MODEL_WIDTH), np.float32)  # the learned player's model, where no rollout reads it


def stakes(rules: Rules, contract: int) -> float:
    """The points one hand of ``contract`` deals out under ``rules`` (their total, without its sign; at least 1)."""
    return float(max(abs(rules.contract_total(contract)), 1))


def label_thresholds(rules: Rules, contract: int) -> tuple:
    """((label, points), ...) largest first: a loss of at least ``points`` earns the label.

    Each threshold is a share of the contract's stakes (:data:`LABEL_SHARES`): with the
    default rules 0.8 / 2 / 5 points in Barbu (20 dealt out), 2.6 / 6.5 / 16.25 in Trumps
    and Domino (65).
    """
    total = stakes(rules, contract)
    return tuple((name, round(share * total, 4)) for name, share in LABEL_SHARES)


def label_of(loss_low: float, thresholds) -> str:
    """The label of a loss whose confidence interval starts at ``loss_low``: the largest threshold it
    reaches, or "" (within the noise, or below every threshold)."""
    for name, low in thresholds:
        if loss_low >= low:
            return name
    return ""


@dataclass(frozen=True)
class Settings:
    """How hard the estimator works: the layouts (``samples`` first, at most ``max_samples``) and the evaluation.

    ``max_samples`` None: ``ROUNDS_CAP`` × ``samples`` (at most ``MAX_SAMPLES``).
    """

    samples: int = DEFAULT_SAMPLES
    max_samples: int | None = None
    endgame: int = DEFAULT_ENDGAME
    tail: int = DEFAULT_TAIL
    infer: int = DEFAULT_INFER
    rollout: str = DEFAULT_ROLLOUT

    def __post_init__(self):
        if not 2 <= self.samples <= MAX_SAMPLES:
            raise ValueError(f"samples must be 2..{MAX_SAMPLES:,}, not {self.samples}")
        if self.max_samples is not None and not self.samples <= self.max_samples <= MAX_SAMPLES:
            raise ValueError(f"the most layouts must be {self.samples}..{MAX_SAMPLES:,} (at least samples), "
                             f"not {self.max_samples}")
        if self.rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, not {self.rollout!r}")
        for name in ("endgame", "tail"):
            if not 0 <= getattr(self, name) <= MAX_DEPTH:
                raise ValueError(f"{name} must be 0..{MAX_DEPTH}, not {getattr(self, name)}")
        if not 1 <= self.infer <= 100:
            raise ValueError(f"infer must be 1..100 (percent), not {self.infer}")

    @property
    def cap(self) -> int:
        return self.max_samples if self.max_samples is not None else min(ROUNDS_CAP * self.samples, MAX_SAMPLES)

    def cap_at(self, pos) -> int:
        """The most layouts for the decision in ``pos``: :attr:`cap`, a ``DEEP_SHARE``-th of it (at least
        ``samples``) when every layout is searched exactly from 5 tricks left."""
        if pos.contract != DOMINO and 13 - pos.trick_no >= 5 and exact_at(pos, self):
            return max(self.samples, self.cap // DEEP_SHARE)
        return self.cap

    def describe(self) -> str:
        """One line for the people reading the numbers."""
        return (f"{self.samples} to {self.cap} layouts, exact search from {self.endgame} tricks left "
                f"(rollouts by {self.rollout} searched from {self.tail} left), inference {self.infer}%")

    def as_dict(self) -> dict:
        return {"samples": self.samples, "max_samples": self.cap, "endgame": self.endgame, "tail": self.tail,
                "infer": self.infer, "rollout": self.rollout}


def exact_at(pos, settings: Settings) -> bool:
    """Whether every layout of the decision in ``pos`` is searched exactly (as mc's ``exact_from`` decides)."""
    depth = max(settings.endgame, settings.tail)
    if pos.contract == DOMINO:
        return 52 - popcount(np.uint64(pos.played)) <= 4 * depth
    return 13 - pos.trick_no <= depth


class Estimate:
    """Every legal card's value from one position, layout by layout, and what follows from them.

    ``values``: (layouts, distinct cards) the seat's own points from here in each layout, a
    column per distinct card in the order of the cards (a card equivalent to a lower one of its
    suit reads that card's column: :attr:`rep_of`); ``weights``: (layouts,) each layout's
    weight (inference from the play); ``counts``: per distinct card, the layouts it was valued on (the
    first ``counts[c]``: a card whose label was settled stops being sampled while the others go on, see
    :func:`estimate`).
    The best card is the best mean among the cards valued on every layout; every other card's
    loss is its paired difference from the best over the layouts of that card.
    """

    def __init__(self, legal: list, rep_of: dict, values: np.ndarray, weights: np.ndarray, counts: dict,
                 lower_is_better: bool, thresholds: tuple, exact: bool, key: int):
        self.legal = legal
        self.rep_of = rep_of
        self.column = {r: i for i, r in enumerate(sorted(set(rep_of.values())))}  # the column of each distinct card
        self.values = values
        self.weights = weights
        self.counts = counts
        self.sign = -1.0 if lower_is_better else 1.0  # best-total=lowest: the lowest own score is the best
        self.thresholds = thresholds
        self.exact = exact
        self.key = key
        n = max(counts.values())
        finalists = [c for c in legal if counts[rep_of[c]] == n]
        self._best = min(finalists, key=lambda c: (-self.sign * self.own_mean(c), c))
        self.estimates = sorted(((c, self.mean(c), self.se(c)) for c in legal),
                                key=lambda e: (self.rep_of[e[0]] != self.rep_of[self._best], -self.sign * e[1], e[0]))

    @property
    def layouts(self) -> int:
        """The layouts of the decision (the best card was valued on all of them)."""
        return max(self.counts.values())

    def _column(self, card: int) -> np.ndarray:
        return self.values[:, self.column[self.rep_of[card]]]

    def _prefix(self, card: int) -> int:
        return self.counts[self.rep_of[card]]

    def _weighted(self, x: np.ndarray) -> tuple[float, float]:
        """The weighted mean of ``x`` over its layouts and its standard error (ratio estimator, n/(n-1)); the same
        value in every layout is its own mean, to the last digit."""
        n = len(x)
        w = self.weights[:n]
        total = w.sum()
        mean = float(x[0] + w @ (x - x[0]) / total)
        if n < 2:
            return mean, 0.0
        var = float(np.sum((w * (x - mean)) ** 2) / total ** 2 * n / (n - 1))
        return mean, float(np.sqrt(max(var, 0.0)))

    def own_mean(self, card: int) -> float:
        """The seat's mean points from here over the layouts ``card`` was valued on."""
        return self._weighted(self._column(card)[:self._prefix(card)])[0]

    def mean(self, card: int) -> float:
        """``card``'s estimate of the seat's points from here: the best card's mean over every layout less
        ``card``'s paired loss (its own mean when it was valued on every layout), so that the estimates of cards
        valued on fewer layouts rank as their losses do."""
        if self._prefix(card) == self.layouts:
            return self.own_mean(card)
        return self.own_mean(self._best) - self.sign * self.loss(card)[0]

    def se(self, card: int) -> float:
        """The standard error of ``card``'s mean over its own layouts."""
        return self._weighted(self._column(card)[:self._prefix(card)])[1]

    def card_layouts(self, card: int) -> int:
        return self._prefix(card)

    @property
    def best(self) -> int:
        return self._best

    def difference(self, a: int, b: int) -> tuple[float, float]:
        """How much better ``a`` is than ``b`` for the seat (its own sense of better), over the layouts both were
        valued on, and the standard error of that paired difference."""
        n = min(self._prefix(a), self._prefix(b))
        d = self.sign * (self._column(a)[:n] - self._column(b)[:n])
        return self._weighted(d)

    def loss(self, card: int) -> tuple[float, float]:
        """(loss, its standard error): the best card's estimate minus ``card``'s, 0 for the best card."""
        if self.rep_of[card] == self.rep_of[self._best]:
            return 0.0, 0.0
        return self.difference(self._best, card)

    def interval(self, card: int) -> tuple[float, float]:
        """The confidence interval of ``card``'s loss (``NOISE`` standard errors either side)."""
        loss, se = self.loss(card)
        return loss - NOISE * se, loss + NOISE * se

    def label(self, card: int) -> str:
        return label_of(self.interval(card)[0], self.thresholds)

    def settled(self, card: int) -> bool:
        """No label threshold inside ``card``'s loss interval: its label would not change with more layouts."""
        low, high = self.interval(card)
        return not any(low < t < high for _, t in self.thresholds)

    def contender(self, card: int) -> bool:
        """``card`` may be the best: its loss interval reaches 0."""
        return self.interval(card)[0] <= 0.0

    def reps(self) -> list:
        """The distinct cards (each the lowest of its run of equivalent cards)."""
        return sorted(set(self.rep_of.values()))


def distinct(pos) -> tuple[list, dict]:
    """The legal cards of the seat to play, and the card whose estimate each takes (the lowest of its run of
    equivalent cards, as mc merges them)."""
    from ..players.mc.player import distinct_cards
    legal = np.uint64(pos.legal())
    reps = int(distinct_cards(legal, np.uint64(pos.hands[pos.seat]), pos.state, np.int64(pos.contract)))
    cards = cards_of(legal)
    rep_of = {}
    for c in cards:
        rep_of[c] = c if reps >> c & 1 else max(r for r in range(c // 13 * 13, c) if reps >> r & 1)
    return cards, rep_of


def layout_values(pos, need, first: int, upto: int, key, settings: Settings, values: np.ndarray,
                  weights: np.ndarray, column: dict) -> None:
    """Value layouts ``first .. upto - 1`` of the decision keyed ``key``, into ``values`` (card ``c`` in column
    ``column[c]``) and ``weights``: mc's estimator on one layout at a time (layout ``k`` from ``stream_key(key,
    k)``), each card of ``need(k)`` (a mask) played in it.  A card's value in a layout does not depend on the
    other cards valued with it: each card's rollouts draw from the layout's stream, and the search is exact."""
    from ..players.mc.player import mc_estimates
    hand = np.uint64(pos.hands[pos.seat])
    state = pos.state
    work = state[STATE_SIZE:]
    weights_now = work[W_WEIGHTS:W_WEIGHTS + 52].view(np.float64)
    last = work[W_VALUES:W_VALUES + 52].view(np.float64)  # each card's value in the layout just valued
    sums = np.zeros(52, np.float64)
    squares = np.zeros(52, np.float64)
    miss = 0.0 if settings.infer >= 100 else settings.infer / 100.0
    rollout, endgame, tail = (np.int64(ROLLOUTS[settings.rollout]), np.int64(settings.endgame),
                              np.int64(settings.tail))
    one = np.int64(1)
    net = model_array() if settings.rollout == "learned" else NO_NET
    for k in range(first, upto):
        cards = need(k)
        if not cards:
            continue
        sums[:] = 0.0
        weights_now[:] = 0.0
        mc_estimates(np.uint64(cards), hand, state, work, np.uint64(stream_key(key, np.uint64(k), STREAM_REVIEW)),
                     one, rollout, endgame, tail, miss, sums, squares, net, np.int64(0), np.int64(0))
        some = (cards & -cards).bit_length() - 1  # every card of a layout has the layout's weight
        w = weights_now[some]
        weights[k] = w
        m = cards
        while m:
            c = (m & -m).bit_length() - 1
            m &= m - 1
            values[k, column[c]] = last[c]


def estimate(pos, seed: int, settings: Settings = Settings(), thresholds=None) -> Estimate:
    """Every legal card's value for the seat to play in ``pos`` (see the module's text); ``thresholds``: the
    labels' (default: the contract's, :func:`label_thresholds`).

    Round by round: the distinct cards still in play are valued on the new layouts; after each
    round only the cards whose label is not settled stay in play, with those that may still be
    the best (the best card is the reference of every loss), so that the layouts go where they
    may change a label.
    """
    if thresholds is None:
        thresholds = label_thresholds(pos.rules, pos.contract)
    legal, rep_of = distinct(pos)
    reps = sorted(set(rep_of.values()))
    key = np.uint64(stream_key(np.uint64(seed), np.uint64(len(pos.plays)), STREAM_REVIEW))
    exact = exact_at(pos, settings)
    cap = settings.cap_at(pos)
    column = {r: i for i, r in enumerate(reps)}
    values = np.zeros((settings.samples, len(reps)), np.float64)
    weights = np.ones(settings.samples, np.float64)
    counts = {c: 0 for c in reps}
    active = list(reps)
    upto = settings.samples
    while True:
        if len(weights) < upto:  # room for this round's layouts
            values = np.concatenate([values, np.zeros((upto - len(weights), len(reps)))])
            weights = np.concatenate([weights, np.ones(upto - len(weights))])
        start = min(counts[c] for c in active)
        owed = {c: counts[c] for c in active}
        layout_values(pos, lambda k: sum(1 << c for c in active if owed[c] <= k), start, upto, key, settings,
                      values, weights, column)
        for c in active:
            counts[c] = upto
        est = Estimate(legal, rep_of, values, weights, dict(counts), pos.rules.lower_is_better, thresholds, exact,
                       int(key))
        if upto >= cap or all(est.settled(c) for c in reps):
            return est
        active = [c for c in reps if not est.settled(c) or est.contender(c)]  # the best card is a contender
        upto = min(2 * upto, cap)


def _estimator_args() -> tuple:
    """The numba types layout_values calls mc's estimator with: those of mc's own call in the engine with mc
    (``first`` given as an int64), so that either compile serves both."""
    from numba import typeof
    u, i, cards, values = np.uint64(0), np.int64(0), np.zeros(1, np.uint64), np.zeros(1, np.float64)
    return tuple(typeof(a) for a in (u, u, cards, cards, u, i, i, i, i, 0.0, values, values, NO_NET, i, i))


def estimator_ready() -> None:
    """Compile mc's estimator, which hints and reviews call, before its first use: from numba's disk cache
    silently, else saying so on stderr (about a minute), as the engines do (:func:`core.compiling.ensure_compiled`)."""
    from ...core import compiling
    from ..players.mc.player import mc_estimates
    compiling.ensure_compiled(mc_estimates, _estimator_args(), "mc's estimator (hints and reviews)", "barbu-one-mc")


def estimator_cached() -> bool:
    """True when :func:`estimator_ready` has nothing to compile: this process has the estimator, or numba's disk
    cache holds it (the table then says nothing about a compile that does not happen)."""
    from ...core.compiling import in_disk_cache
    from ..players.mc.player import mc_estimates
    args = _estimator_args()
    return args in mc_estimates.overloads or in_disk_cache(mc_estimates, args)


__all__ = ["DEFAULT_SAMPLES", "Estimate", "LABEL_SHARES", "NOISE", "Settings", "estimate",
           "estimator_cached", "estimator_ready", "label_of", "label_thresholds", "stakes"]
