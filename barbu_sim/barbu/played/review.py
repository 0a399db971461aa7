"""Reviewing a played deal: the mc player's estimate of every legal card at every decision, and the loss.

Each decision is replayed through :class:`position.Position`, which keeps the state
array the engine keeps, and the mc player's own estimator (:func:`players.mc.player.mc_estimates`)
rolls out every legal card from there.  It sees what the deciding seat saw and
nothing more: its own hand and what the table showed (the cards played and by whom,
the suits not followed...); the other hands are sampled, as when mc plays.

Every layout is drawn from its own key (``seed``, the play's number, the layout's
number), and every card is rolled out on the same layouts, so the loss of a card
(best estimate minus the played card's) is a paired difference whose standard error
is small.  A loss counts only when it is larger than ``NOISE`` standard errors; it is
then labelled by its size (:data:`LABELS`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...core.bits import popcount
from ...core.rng import STREAM_REVIEW, stream_key
from ...core.seats import SEAT_LETTERS
from ..state import PASS, STATE_SIZE
from ..players.mc.player import DEFAULT_ENDGAME, DEFAULT_TAIL, MAX_SAMPLES, ROLLOUTS, distinct_cards, mc_estimates
from .deal_file import PlayedDeal
from ..rules.config import DOMINO

NOISE = 2.0  # a loss counts when it exceeds this many standard errors of the paired difference
# The labels of a loss that counts, by size in points (at least the first number of its row).
LABELS = (("blunder", 8.0), ("mistake", 3.0), ("inaccuracy", 1.0))
DEFAULT_SAMPLES = 100


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
    label: str = ""  # "", or a label of LABELS when the loss counts

    @property
    def counts(self) -> bool:
        """The loss is larger than the noise."""
        return self.loss > 0 and self.loss > NOISE * self.loss_se

    @property
    def best(self) -> int:
        return self.estimates[0][0]


@dataclass
class Review:
    """The review of one deal: its decisions (those with a real choice) and the seats reviewed."""

    deal: PlayedDeal
    decisions: list
    seats: tuple
    samples: int
    seed: int
    forced: dict = field(default_factory=dict)  # seat -> plays with no real choice (one card, or equivalent ones)

    def lost(self, seat: int) -> float:
        """Total points ``seat`` lost by the decisions whose loss counts."""
        return float(sum(d.loss for d in self.decisions if d.seat == seat and d.counts))

    def worst(self, seat: int, n: int = 3) -> list:
        """The decisions of ``seat`` that cost most (losses that count), largest first."""
        return sorted((d for d in self.decisions if d.seat == seat and d.counts), key=lambda d: -d.loss)[:n]


def label_of(loss: float) -> str:
    """The label of a loss that counts: blunder, mistake, inaccuracy, or "" below the smallest."""
    for name, low in LABELS:
        if loss >= low:
            return name
    return ""


def review_deal(deal: PlayedDeal, seats=None, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                rollout: str = "heuristic") -> Review:
    """Review the decisions of ``seats`` (default: all four) in ``deal``.

    ``samples``: layouts of the unseen cards per decision (2..``players.mc.player.MAX_SAMPLES``); ``seed``
    keys them, so the same deal, seats, samples and seed give the same numbers.
    """
    if not 2 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be 2..{MAX_SAMPLES:,}, not {samples}")
    if rollout not in ROLLOUTS:
        raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
    seats = tuple(sorted(set(range(4) if seats is None else seats)))
    pos = deal.position()
    decisions, forced = [], {s: 0 for s in seats}
    for play_no, (seat, card) in enumerate(deal.plays):
        if card == PASS:
            pos.pass_turn()
            continue
        if seat in seats:
            d = decide(pos, card, play_no, samples, seed, ROLLOUTS[rollout])
            if d is None:
                forced[seat] += 1
            else:
                decisions.append(d)
        pos.play(card)
    return Review(deal, decisions, seats, samples, seed, forced)


def card_values(pos, cards, samples: int, key, rollout: int) -> np.ndarray:
    """(samples, 52) own scores from here of each card of ``cards`` (a mask) for the seat to play.

    Layout ``k`` is mc's estimator run on one layout keyed by ``stream_key(key, k)``: the
    layouts are independent, and every card is rolled out on each.
    """
    hand = np.uint64(pos.hands[pos.seat])
    state = pos.state
    work = state[STATE_SIZE:]
    sums = np.zeros(52, np.float64)
    squares = np.zeros(52, np.float64)
    out = np.zeros((samples, 52), np.float64)
    for k in range(samples):
        sums[:] = 0.0
        mc_estimates(np.uint64(cards), hand, state, work, np.uint64(stream_key(key, np.uint64(k), STREAM_REVIEW)),
                     np.int64(1), np.int64(rollout), np.int64(DEFAULT_ENDGAME), np.int64(DEFAULT_TAIL), 0.0, sums, squares)
        out[k] = sums
    return out


def decide(pos, card: int, play_no: int, samples: int, seed: int, rollout: int) -> Decision | None:
    """The :class:`Decision` of the seat to play in ``pos``, who played ``card``; None without a real choice."""
    legal = np.uint64(pos.legal())
    hand = np.uint64(pos.hands[pos.seat])
    reps = np.uint64(distinct_cards(legal, hand, pos.state, np.int64(pos.contract)))
    if popcount(reps) <= 1:
        return None
    key = np.uint64(stream_key(np.uint64(seed), np.uint64(play_no), STREAM_REVIEW))
    values = card_values(pos, reps, samples, key, rollout)
    legal_cards = [c for c in range(52) if int(legal) >> c & 1]
    rep_of = {}
    for c in legal_cards:  # a card equivalent to a lower one takes its estimate, as mc does
        rep_of[c] = c if int(reps) >> c & 1 else max(r for r in range(c // 13 * 13, c) if int(reps) >> r & 1)
    n = samples
    means = {c: float(values[:, rep_of[c]].mean()) for c in legal_cards}
    ses = {c: float(values[:, rep_of[c]].std(ddof=1) / np.sqrt(n)) for c in legal_cards}
    sign = -1 if pos.rules.lower_is_better else 1  # best-total=lowest: the lowest own score is the best
    estimates = sorted(((c, means[c], ses[c]) for c in legal_cards), key=lambda e: (-sign * e[1], e[0]))
    best = estimates[0][0]
    diff = sign * (values[:, rep_of[best]] - values[:, rep_of[card]])
    loss = float(diff.mean())
    loss_se = float(diff.std(ddof=1) / np.sqrt(n))
    trick = None if pos.contract == DOMINO else pos.trick_no + 1
    d = Decision(play_no, pos.seat, trick, card, estimates, loss, loss_se)
    d.label = label_of(loss) if d.counts else ""
    return d


def review_json(review: Review) -> dict:
    """The review as plain data (what ``barbu-sim review --json`` prints)."""
    from ...core.cards import format_card
    deal = review.deal
    return {
        "contract": deal.position().describe_contract(), "declarer": SEAT_LETTERS[deal.declarer],
        "samples": review.samples, "seed": review.seed, "noise_standard_errors": NOISE,
        "labels": {name: low for name, low in LABELS},
        "decisions": [{"play": d.play_no + 1, "seat": SEAT_LETTERS[d.seat], "trick": d.trick,
                       "card": format_card(d.card), "best": format_card(d.best), "loss": round(d.loss, 3),
                       "loss_se": round(d.loss_se, 3), "counts": d.counts, "label": d.label or None,
                       "estimates": [{"card": format_card(c), "mean": round(m, 3), "se": round(s, 3)}
                                     for c, m, s in d.estimates]} for d in review.decisions],
        "seats": {SEAT_LETTERS[s]: {"decisions": sum(1 for d in review.decisions if d.seat == s),
                                    "forced_plays": review.forced[s], "points_lost": round(review.lost(s), 3),
                                    "labels": {name: sum(1 for d in review.decisions if d.seat == s and d.label == name)
                                               for name, _ in LABELS}}
                  for s in review.seats},
        "scores": {SEAT_LETTERS[s]: int(v) for s, v in enumerate(deal.replay().scores)},
        "unfinished": deal.unfinished,
    }
