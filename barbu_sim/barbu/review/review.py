"""Reviewing a played deal: what every legal card was worth at every decision, the loss, its label and the accuracy.

Each decision is replayed through :class:`position.Position`, which keeps the state
array the engine keeps, and valued by the estimator the table's hints use
(:func:`estimate.estimate`: mc's estimator with exact search near the end, adaptive
layouts).  It sees what the deciding seat saw and nothing more: its own hand and what the
table showed (the cards played and by whom, the suits not followed...); the other hands
are sampled, as when mc plays.

The **loss** of a decision is the best card's estimate minus the played card's, a paired
difference with its own standard error.  It **counts** when it is larger than ``NOISE``
standard errors; it is **labelled** when its confidence interval (``NOISE`` standard
errors either side) lies above a label's threshold, a share of the points the contract
deals out (:func:`estimate.label_thresholds`), with the largest such label.  A decision's
**accuracy** is 100% less its loss (when it counts) as a share of the contract's blunder
threshold, and 0% from a blunder on; a seat's accuracy in a hand, or over several hands,
is the mean over its decisions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...core.rng import STREAM_REVIEW  # noqa: F401  (the stream of review's layouts, drawn in estimate.py)
from ...core.seats import SEAT_LETTERS
from ..rules.config import DOMINO
from ..state import PASS, S_DOMINO_HIGH, S_DOMINO_LOW, S_VOIDS
from ..formats.deal_file import PlayedDeal
from .estimate import (
    DEFAULT_ROLLOUT, DEFAULT_SAMPLES, LABEL_SHARES, NOISE, Estimate, Settings, estimate, label_of, label_thresholds,
    stakes,
)

# The labels, largest first (their thresholds are shares of each contract's stakes: LABEL_SHARES).
LABELS = tuple(name for name, _ in LABEL_SHARES)


@dataclass
class Decision:
    """One decision of a seat: the card played and what every legal card was worth from there."""

    play_no: int  # 0-based position of the play in the deal (passes included)
    seat: int
    trick: int | None  # 1-based trick number; None in Domino
    card: int
    estimates: list  # (card, mean, se) for every legal card, best first
    loss: float  # best mean - played card's mean (0 when the played card is the best)
    loss_se: float  # standard error of that paired difference
    label: str = ""  # "", or a label of LABELS: the loss is above its threshold beyond the noise
    turn: int = 0  # the seat's card number in the hand (1-based): the trick, or the seat's n-th card in Domino
    layouts: int = 0  # the layouts the decision was valued on
    exact: bool = False  # every layout searched exactly to the end of the hand
    thresholds: tuple = ()  # ((label, points), ...) largest first
    view: dict = field(default_factory=dict)  # what the seat saw: see seat_view
    estimate: Estimate | None = field(default=None, repr=False, compare=False)

    @property
    def counts(self) -> bool:
        """The loss is larger than the noise."""
        return self.loss > 0 and self.loss > NOISE * self.loss_se

    @property
    def best(self) -> int:
        return self.estimates[0][0]

    @property
    def interval(self) -> tuple[float, float]:
        """The loss's confidence interval: ``NOISE`` standard errors either side."""
        return self.loss - NOISE * self.loss_se, self.loss + NOISE * self.loss_se

    @property
    def settled(self) -> bool:
        """No label threshold lies inside the loss's interval: more layouts would not change the label."""
        low, high = self.interval
        return not any(low < t < high for _, t in self.thresholds)

    @property
    def blunder(self) -> float:
        return self.thresholds[0][1]

    @property
    def accuracy(self) -> float:
        """100% less the loss (when it counts) as a share of the blunder threshold; 0% from a blunder on."""
        lost = self.loss if self.counts else 0.0
        return 100.0 * (1.0 - min(lost, self.blunder) / self.blunder)


@dataclass
class Review:
    """The review of one deal: its decisions (those with a real choice) and the seats reviewed."""

    deal: PlayedDeal
    decisions: list
    seats: tuple
    samples: int
    seed: int
    forced: dict = field(default_factory=dict)  # seat -> plays with no real choice (one card, or equivalent ones)
    settings: Settings = field(default_factory=Settings)
    thresholds: tuple = ()

    def lost(self, seat: int) -> float:
        """Total points ``seat`` lost by the decisions whose loss counts."""
        return float(sum(d.loss for d in self.decisions if d.seat == seat and d.counts))

    def worst(self, seat: int, n: int = 3) -> list:
        """The decisions of ``seat`` that cost most (losses that count), largest first."""
        return sorted((d for d in self.decisions if d.seat == seat and d.counts), key=lambda d: -d.loss)[:n]

    def accuracy(self, seat: int) -> float | None:
        """``seat``'s accuracy in this hand: the mean of its decisions' (None without a decision)."""
        return accuracy_of([d for d in self.decisions if d.seat == seat])


def accuracy_of(decisions) -> float | None:
    """The mean accuracy of ``decisions`` (None for none): a seat's accuracy in a hand, or over several."""
    decisions = list(decisions)
    return float(np.mean([d.accuracy for d in decisions])) if decisions else None


def review_deal(deal: PlayedDeal, seats=None, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                rollout: str = DEFAULT_ROLLOUT, max_samples: int | None = None,
                settings: Settings | None = None, threads: int | None = None) -> Review:
    """Review the decisions of ``seats`` (default: all four) in ``deal``, ``threads`` decisions at a time (default:
    numba's thread count; the same review on any).

    ``samples``: the layouts of the unseen cards of each decision's first round, ``max_samples``
    the most (default 16 × ``samples``; see :mod:`estimate`); ``settings`` replaces the three.
    ``seed`` keys the layouts, so the same deal, seats, settings and seed give the same numbers.
    """
    if settings is None:
        settings = Settings(samples=samples, max_samples=max_samples, rollout=rollout)
    return review_deals([deal], seats, settings, seed, threads)[0]


def _seats(seats) -> tuple:
    return tuple(sorted(set(range(4) if seats is None else seats)))


def is_decision(pos) -> bool:
    """The seat to play has a real choice: legal cards that are not all equivalent."""
    from .estimate import distinct
    return len(set(distinct(pos)[1].values())) > 1


def forced_plays(deal: PlayedDeal, seats=None) -> dict:
    """seat -> its plays with no real choice (one legal card, or only equivalent ones)."""
    seats = _seats(seats)
    forced = {s: 0 for s in seats}
    pos = deal.position()
    for seat, card in deal.plays:
        if card == PASS:
            pos.pass_turn()
            continue
        if seat in seats and not is_decision(pos):
            forced[seat] += 1
        pos.play(card)
    return forced


def review_deals(deals, seats=None, settings: Settings | None = None, seed: int = 0,
                 threads: int | None = None) -> list[Review]:
    """:func:`review_deal` of each of ``deals``, their decisions valued ``threads`` at a time (default: numba's
    thread count).  Each decision's layouts are keyed by ``seed`` and its play number alone, so the reviews are
    the same on any thread count."""
    settings = settings or Settings()
    decisions = [[] for _ in deals]
    points = ((i, *point) for i, deal in enumerate(deals) for point in choices(deal, seats))
    for i, d in _decide_all(points, settings, seed, _threads(threads)):
        decisions[i].append(d)
    return [Review(deal, found, _seats(seats), settings.samples, seed, forced_plays(deal, seats), settings,
                   label_thresholds(deal.rules, deal.contract)) for deal, found in zip(deals, decisions)]


def _threads(threads: int | None) -> int:
    if threads is None:
        from numba import get_num_threads
        return get_num_threads()
    return max(1, int(threads))


def _decide_all(points, settings: Settings, seed: int, threads: int):
    """(tag, :class:`Decision`) for each (tag, position, card, play_no, turn) of ``points``, in their order.

    With several threads each decision is valued on its own copy of the position (mc's estimator runs without
    the GIL and uses the position's state as its scratch space), at most a few decisions ahead of the one
    handed back, so that a long session is not copied whole.  On Ctrl-C the decisions not begun are dropped."""
    if threads <= 1:
        for tag, pos, card, play_no, turn in points:
            yield tag, decide(pos, card, play_no, settings, seed, turn)
        return
    import copy
    from collections import deque
    from concurrent.futures import ThreadPoolExecutor
    pool = ThreadPoolExecutor(threads, thread_name_prefix="barbu-sim-review")
    ahead: deque = deque()
    try:
        for tag, pos, card, play_no, turn in points:
            ahead.append((tag, pool.submit(decide, copy.deepcopy(pos), card, play_no, settings, seed, turn)))
            if len(ahead) >= 4 * threads:
                tag_done, future = ahead.popleft()
                yield tag_done, future.result()
        while ahead:
            tag_done, future = ahead.popleft()
            yield tag_done, future.result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def walk(deal: PlayedDeal, seats, settings: Settings, seed: int):
    """The :class:`Decision` of each real choice of ``seats`` in ``deal``, in the order of play, one at a time."""
    for _, d in positions(deal, seats, settings, seed):
        yield d


def positions(deal: PlayedDeal, seats, settings: Settings, seed: int):
    """(the position, its :class:`Decision`) at each real choice of ``seats``, one at a time (the position is the
    deal's own, moved on after the next one is asked for: read it before)."""
    for pos, card, play_no, turn in choices(deal, seats):
        yield pos, decide(pos, card, play_no, settings, seed, turn)


def choices(deal: PlayedDeal, seats):
    """(the position, the card played, its play number, the seat's turn) at each real choice of ``seats`` in
    ``deal``, in the order of play (the position is the deal's own, moved on after the next one is asked for)."""
    seats = _seats(seats)
    pos = deal.position()
    turns = [0, 0, 0, 0]
    for play_no, (seat, card) in enumerate(deal.plays):
        if card == PASS:
            pos.pass_turn()
            continue
        turns[seat] += 1
        if seat in seats and is_decision(pos):
            yield pos, card, play_no, turns[seat]
        pos.play(card)


def decide(pos, card: int, play_no: int, settings: Settings, seed: int, turn: int) -> Decision:
    """The :class:`Decision` of the seat to play in ``pos``, who played ``card`` as its ``turn``-th card."""
    est = estimate(pos, seed, settings)
    loss, loss_se = est.loss(card)
    trick = None if pos.contract == DOMINO else pos.trick_no + 1
    d = Decision(play_no, pos.seat, trick, card, est.estimates, loss, loss_se, turn=turn, layouts=est.layouts,
                 exact=est.exact, thresholds=est.thresholds, view=seat_view(pos), estimate=est)
    assert play_no == len(pos.plays)  # the key hints use: the same layouts for the same decision
    d.label = label_of(d.interval[0], d.thresholds) if d.counts else ""
    return d


def seat_view(pos) -> dict:
    """What the seat to play saw, for the text: its hand, the trick so far (or the Domino columns), the cards
    out, what the others have shown (voids, passes, cards left) and the scores so far."""
    seat = pos.seat
    view = {"hand": int(pos.hands[seat]), "scores": [int(v) for v in pos.scores]}
    if pos.domino:
        view["columns"] = [(int(pos.state[S_DOMINO_LOW + s]), int(pos.state[S_DOMINO_HIGH + s])) for s in range(4)]
        view["cards_left"] = [bin(int(h)).count("1") for h in pos.hands]
        view["passes"] = [sum(1 for s, c in pos.plays if s == k and c == PASS) for k in range(4)]
        view["out"] = int(pos.played)
        return view
    trick = pos.trick_so_far()
    on_table = sum(1 << c for _, c in trick)
    view["trick"] = [(int(s), int(c)) for s, c in trick]
    view["out"] = int(pos.played) & ~on_table
    view["voids"] = [[s for s in range(4) if int(pos.state[S_VOIDS + k]) >> s & 1] for k in range(4)]
    return view


def review_json(review: Review) -> dict:
    """The review as plain data (what ``barbu-sim review --json`` prints: one per deal, the same for the same deal
    in any file).  A seat's accuracy over several deals is the mean of its ``seats[X].accuracy`` weighted by its
    ``seats[X].decisions``: the mean over all its decisions."""
    from ...core.cards import RANK_NAMES, cards_of, format_card
    deal = review.deal

    def view(d: Decision) -> dict:
        v = d.view
        out = {"hand": [format_card(c) for c in cards_of(v["hand"])],
               "out": [format_card(c) for c in cards_of(v["out"])],
               "scores": {SEAT_LETTERS[s]: x for s, x in enumerate(v["scores"])}}
        if "trick" in v:
            out["trick"] = [{"seat": SEAT_LETTERS[s], "card": format_card(c)} for s, c in v["trick"]]
            out["voids"] = {SEAT_LETTERS[s]: ["CDHS"[x] for x in suits] for s, suits in enumerate(v["voids"]) if suits}
        else:
            out["columns"] = {"CDHS"[s]: None if low == 13 else [RANK_NAMES[low], RANK_NAMES[high]]
                              for s, (low, high) in enumerate(v["columns"])}
            out["cards_left"] = {SEAT_LETTERS[s]: n for s, n in enumerate(v["cards_left"])}
            out["passes"] = {SEAT_LETTERS[s]: n for s, n in enumerate(v["passes"])}
        return out

    return {
        "contract": deal.position().describe_contract(), "declarer": SEAT_LETTERS[deal.declarer],
        "samples": review.samples, "max_samples": review.settings.cap, "seed": review.seed,
        "evaluation": review.settings.as_dict(), "noise_standard_errors": NOISE,
        "stakes": stakes(deal.rules, deal.contract),
        "labels": {name: low for name, low in review.thresholds},
        "decisions": [{"play": d.play_no + 1, "seat": SEAT_LETTERS[d.seat], "trick": d.trick, "turn": d.turn,
                       "card": format_card(d.card), "best": format_card(d.best), "loss": round(d.loss, 3),
                       "loss_se": round(d.loss_se, 3), "loss_interval": [round(x, 3) for x in d.interval],
                       "counts": d.counts, "label": d.label or None, "settled": d.settled,
                       "accuracy": round(d.accuracy, 1), "layouts": d.layouts, "exact": d.exact,
                       "estimates": [{"card": format_card(c), "mean": round(m, 3), "se": round(s, 3),
                                      **({"layouts": d.estimate.card_layouts(c)} if d.estimate else {})}
                                     for c, m, s in d.estimates],
                       "position": view(d)} for d in review.decisions],
        "seats": {SEAT_LETTERS[s]: {"decisions": sum(1 for d in review.decisions if d.seat == s),
                                    "forced_plays": review.forced[s], "points_lost": round(review.lost(s), 3),
                                    "labels": {name: sum(1 for d in review.decisions if d.seat == s and d.label == name)
                                               for name in LABELS},
                                    "accuracy": _round(review.accuracy(s))}
                  for s in review.seats},
        "scores": {SEAT_LETTERS[s]: int(v) for s, v in enumerate(deal.replay().scores)},
        "unfinished": deal.unfinished,
    }


def _round(x):
    return None if x is None else round(x, 1)

