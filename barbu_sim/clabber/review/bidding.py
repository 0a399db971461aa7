"""Reviewing the bidding of a played Clabber round: every option of each call, valued from the caller's view.

At each call of a reviewed seat, its options are those the rules give it there: in round one pass
or play (the turned suit as trump); in round two pass or name a suit it holds other than the
turned one.  A call with one option (a round-two caller holding only the turned suit) is forced.
:func:`barbu_sim.clabber.engine.bid_values.bid_values_kernel` values every option from the
caller's information only (its hand, the turned card, the calls before it): the unseen cards are
dealt at random around the hand, the turned card with the dealer; a take ends the bidding; after a
pass the rest of the bidding goes on by ``bidding`` (default ``threshold``, the project's default
policy: a played-round file does not say which policy or person made the other calls), the caller's
own later calls included; then ``mc`` plays the round at every seat.  The value is the caller's
team's round score minus the opponents' (what ``mc`` bidding and ``advise`` compare: a pass lets
the opponents make trump and score).  Layout ``k`` is the same for every option, so the loss
(best minus called) is a paired difference with its own standard error, and it is labelled as the
card decisions are (:mod:`labels`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...core.cards import SUIT_LETTERS, SUIT_SYMBOLS
from ...core.rng import STREAM_CLABBER_BID_REVIEW as STREAM_BID_REVIEW, stream_key
from ...core.seats import SEAT_NAMES
from ..players.mc import DEFAULT_SAMPLES, MAX_SAMPLES
from .labels import beyond_noise, label_of, paired
from ..formats.round_file import PASS, PLAY, PlayedRound

DEFAULT_BIDDING = "threshold"  # how the bidding goes on after a pass (the project's default policy)


@dataclass
class BidDecision:
    """One reviewed call: ``call_no`` 0..7 in the bidding, ``call`` -1 pass, 4 play, 0..3 a suit named."""

    call_no: int
    seat: int
    call: int
    estimates: list  # (option, value, se), best first
    loss: float
    loss_se: float
    label: str = ""
    pairs: dict = field(default_factory=dict)  # every option -> (loss, se, vs the call made, se): labels.paired

    @property
    def bid_round(self) -> int:
        return 1 if self.call_no < 4 else 2

    @property
    def counts(self) -> bool:
        return beyond_noise(self.loss, self.loss_se)


@dataclass
class BiddingReview:
    """What the review of a round's calls shows: the reviewed calls, the forced calls per seat, and the
    sizes and policy they were valued with."""

    calls: list
    forced: dict
    samples: int
    play_samples: int = DEFAULT_SAMPLES
    bidding: str = DEFAULT_BIDDING


def review_calls(rnd: PlayedRound, seats=None, samples: int = 100, seed: int = 0, play_samples: int = DEFAULT_SAMPLES,
                 bidding: str = DEFAULT_BIDDING) -> BiddingReview:
    """:func:`review_bidding` with its settings, as ``format_clabber_review`` and ``clabber_review_json`` take it."""
    calls, forced = review_bidding(rnd, seats, samples, seed, play_samples, bidding)
    return BiddingReview(calls, forced, samples, play_samples, bidding)


def call_options(rnd: PlayedRound, call_no: int) -> list[int]:
    """The calls the rules allowed at call ``call_no`` of ``rnd`` (pass first)."""
    seat = rnd.bids[call_no][0]
    if call_no < 4:
        return [PASS, PLAY]
    ts = rnd.turned // 13
    return [PASS] + [s for s in range(4) if s != ts and int(rnd.hands[seat]) >> (13 * s) & 0x1FFF]


def option_name(call: int, symbols: bool = False) -> str:
    """``pass``, ``play``, or the suit named (``H``, or ``♥`` with ``symbols``)."""
    if call == PASS:
        return "pass"
    if call == PLAY:
        return "play"
    return (SUIT_SYMBOLS if symbols else SUIT_LETTERS)[call]


def call_values(rnd: PlayedRound, call_no: int, samples: int, seed: int = 0, play_samples: int = DEFAULT_SAMPLES,
                bidding: str = DEFAULT_BIDDING) -> tuple[list[int], np.ndarray]:
    """``(options, values)`` of call ``call_no``: ``values[k, i]`` the caller's team's net round score on
    layout ``k`` when it makes ``options[i]``; ``seed`` keys the layouts."""
    from ..api import _call, _seed, raise_illegal, seat_bidding
    from ..engine.bid_values import bid_values_kernel
    from ..players.registry import seat_strategies
    from ..state import STATE_ARRAY_SIZE
    seat = rnd.bids[call_no][0]
    options = call_options(rnd, call_no)
    bid_ids, bid_params = seat_bidding(bidding)
    ids, fns, resolved = seat_strategies(f"mc:samples={play_samples}")
    values = np.zeros((samples, len(options)))
    state = np.zeros(STATE_ARRAY_SIZE, np.uint64)
    key = stream_key(_seed(seed), np.uint64(call_no), STREAM_BID_REVIEW)
    code = _call(bid_values_kernel, ids, key, np.uint64(rnd.hands[seat]), seat, rnd.turned, rnd.dealer,
                 1 if call_no < 4 else 2, samples, np.array(options, np.int64), rnd.rules.to_array(), bid_ids,
                 bid_params, ids, fns, values, state)
    if code < 0:
        raise_illegal(code, resolved, "bidding review", state)
    return options, values


def review_bidding(rnd: PlayedRound, seats=None, samples: int = 100, seed: int = 0,
                   play_samples: int = DEFAULT_SAMPLES, bidding: str = DEFAULT_BIDDING) -> tuple[list, dict]:
    """The reviewed calls of ``seats`` (default all) and the forced calls per seat.

    ``samples``: layouts per call (2..100,000); ``play_samples``: the mc card players' layouts per
    decision when an option is played out (1..100,000); ``bidding``: the policy of the calls after
    a pass.  The same round, seats, sizes and seed give the same numbers.
    """
    if not 2 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be 2..{MAX_SAMPLES:,}, not {samples}")
    if not 1 <= play_samples <= MAX_SAMPLES:
        raise ValueError(f"play samples must be 1..{MAX_SAMPLES:,}, not {play_samples}")
    seats = tuple(sorted(set(range(4) if seats is None else seats)))
    decisions, forced = [], {s: 0 for s in seats}
    root_n = np.sqrt(samples)
    for i, (seat, call) in enumerate(rnd.bids):
        if seat not in seats:
            continue
        if len(call_options(rnd, i)) == 1:
            forced[seat] += 1
            continue
        options, values = call_values(rnd, i, samples, seed, play_samples, bidding)
        estimates = sorted(((o, float(values[:, j].mean()), float(values[:, j].std(ddof=1) / root_n))
                            for j, o in enumerate(options)), key=lambda e: (-e[1], options.index(e[0])))
        diff = values[:, options.index(estimates[0][0])] - values[:, options.index(call)]
        d = BidDecision(i, seat, call, estimates, float(diff.mean()), float(diff.std(ddof=1) / root_n))
        d.label = label_of(d.loss, d.loss_se)
        d.pairs = {o: paired(values, options.index(estimates[0][0]), options.index(call), j)
                   for j, o in enumerate(options)}
        decisions.append(d)
    return decisions, forced


def bid_lines(review: BiddingReview, symbols: bool = False) -> list[str]:
    """The reviewed calls as text, in the style of the card decisions."""
    if not review.calls:
        return []
    lines = ["Each call's value: the net round score (own team minus opponents) of the caller's team if it",
             f"makes that call, the rest bidding {review.bidding} and mc (samples={review.play_samples}) playing "
             "every seat,", f"± standard error, over {review.samples} layouts of the unseen cards."]
    for d in review.calls:
        said = {PASS: "passes", PLAY: "plays"}.get(d.call, f"names {option_name(d.call, symbols)}")
        head = f"{SEAT_NAMES[d.seat]:<5}  round {d.bid_round}  {said:<8}"
        best = option_name(d.estimates[0][0], symbols)
        if d.counts:
            head += f"   best {best}, loses {d.loss:.1f}±{d.loss_se:.1f}" + (f"  {d.label.upper()}" if d.label else "")
        elif d.loss > 0:
            head += f"   ({best} looks {d.loss:.1f} better: within the noise)"
        lines.append(head.rstrip())
        lines.append(" " * 7 + "  ".join(f"{option_name(o, symbols):>4} {m:6.1f}±{s:.1f}" for o, m, s in d.estimates))
    return lines


def bid_json(decisions: list) -> list[dict]:
    """The reviewed calls for ``review --json``."""
    return [{"call": d.call_no + 1, "round": d.bid_round, "seat": SEAT_NAMES[d.seat][0], "made": option_name(d.call),
             "best": option_name(d.estimates[0][0]), "loss": round(d.loss, 3), "loss_se": round(d.loss_se, 3),
             "counts": d.counts, "label": d.label or None,
             "estimates": [{"option": option_name(o), "value": round(m, 3), "se": round(s, 3)}
                           for o, m, s in d.estimates]}
            for d in decisions]
