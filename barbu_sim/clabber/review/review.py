"""Reviewing a played Clabber round: each call's options (:mod:`.bid_review`), then mc's value of every legal
card at each decision.

Each decision with more than one legal card is replayed from the table's view, as
:mod:`mc_review` does (:func:`players.mc.replay_into`: the cards played, the turned card, the
melds declared, what each play showed), and the Clabber mc player's own estimator
(:func:`players.mc.mc_estimates`) values every legal card from the deciding seat's information
only: the mean round score of the seat's team when it plays that card now and every seat then
plays ``heuristic``.  Layout ``k`` is that estimator run on one layout keyed by ``k``, so every
card is valued on the same layouts and the loss (best minus played) is a paired difference with
its own standard error, as in the Barbu review.  Clabber's points run larger than Barbu's (a round
is worth 162 card points and the melds), and so do its labels (:data:`LABELS`); the calls of the
bidding get the same labels and noise rule.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

import numpy as np

from ...core.cards import SUIT_LETTERS, format_card
from ...core.review_line import nearest_layout
from ...core.seats import SEAT_NAMES
from ..players.mc import MAX_SAMPLES
from ..players.rollout import legal_now, step
from .labels import LABELS, NOISE, beyond_noise, label_of, paired
from ..formats.round_file import PLAY, PlayedRound, start_state
from .mc import layout_values

WIDTH = 100


@dataclass
class ClabberDecision:
    play_no: int
    seat: int
    card: int
    estimates: list  # (card, value, se), best first
    loss: float
    loss_se: float
    label: str = ""
    # every legal card -> (loss against the best, its se, difference from the card played, its se): paired
    # differences over the same layouts, what the page shows for a card clicked
    pairs: dict = field(default_factory=dict)
    # the punishing line's layout (:mod:`.line`): the one whose difference (best less played) is the nearest to the
    # loss, of the layouts keyed by ``seed`` and the play
    layout: int = 0
    seed: int = 0
    samples: int = 0

    @property
    def counts(self) -> bool:
        return beyond_noise(self.loss, self.loss_se)


def review_round(rnd: PlayedRound, seats=None, samples: int = 100, seed: int = 0) -> tuple[list, dict]:
    """The decisions of ``seats`` (default all) and the forced plays per seat; ``seed`` keys the layouts."""
    if not 2 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be 2..{MAX_SAMPLES:,}, not {samples}")
    seats = tuple(sorted(set(range(4) if seats is None else seats)))
    decisions, forced = [], {s: 0 for s in seats}
    if rnd.thrown_in:  # eight passes: no card was played, nothing to review
        return decisions, forced
    state, hands = start_state(rnd)
    for i, (seat, card) in enumerate(rnd.plays):
        legal = int(legal_now(np.uint64(hands[seat]), state))
        if seat in seats:
            if bin(legal).count("1") == 1:
                forced[seat] += 1
            else:
                where, mask, values = layout_values(rnd, i, samples, seed)
                assert where == seat and mask == legal, "the replay follows the record"
                cards = [c for c in range(52) if legal >> c & 1]
                root_n = np.sqrt(samples)
                estimates = sorted(((c, float(values[:, c].mean()), float(values[:, c].std(ddof=1) / root_n))
                                    for c in cards), key=lambda e: (-e[1], e[0]))
                diff = values[:, estimates[0][0]] - values[:, card]
                d = ClabberDecision(i, seat, card, estimates, float(diff.mean()), float(diff.std(ddof=1) / root_n))
                d.label = label_of(d.loss, d.loss_se)
                d.pairs = {c: paired(values, estimates[0][0], card, c) for c in cards}
                d.layout, d.seed, d.samples = nearest_layout(diff, d.loss), seed, samples
                decisions.append(d)
        step(state, hands, np.int64(card))
    return decisions, forced


def bidding_text(rnd: PlayedRound) -> str:
    calls = ", ".join(f"{SEAT_NAMES[s]} "
                      + ("plays" if b == PLAY else "passes" if b < 0 else f"names {SUIT_LETTERS[b]}")
                      for s, b in rnd.bids)
    row = rnd.row
    end = (f"trump {SUIT_LETTERS[row['trump']]}, makers {SEAT_NAMES[row['maker']]} and partner"
           if row["maker"] >= 0 else "thrown in")
    return f"Bidding (turned {format_card(rnd.turned)}): {calls}: {end}"


def format_clabber_review(rnd: PlayedRound, decisions: list, forced: dict, samples: int, symbols: bool = False,
                          bids=None) -> str:
    """The review as text: the bidding, each reviewed call with every option's value, each card decision with
    every legal card's value, a summary per seat.

    ``bids``: the :class:`bid_review.BiddingReview` of the round's calls, or None (no call reviewed).
    """
    from .bidding import bid_lines
    from .line import text_line
    calls, forced_calls = (bids.calls, bids.forced) if bids is not None else ([], {})

    def wrap(cells):
        lines, line = [], ""
        for cell in cells:
            if line and 7 + len(line) + 2 + len(cell) > WIDTH:
                lines.append(" " * 7 + line)
                line = ""
            line = f"{line}  {cell}" if line else cell
        return lines + ([" " * 7 + line] if line else [])

    scores = rnd.scores()
    lines = [f"Review: clabber, dealer {SEAT_NAMES[rnd.dealer]}" + (f" ({rnd.title})" if rnd.title else ""),
             *textwrap.wrap(bidding_text(rnd), WIDTH, subsequent_indent=" " * 7),
             ("Thrown in: eight passes, no card played, no score" if rnd.thrown_in
              else f"Scores: N+S {scores[0]}  E+W {scores[1]}" if scores else "Unfinished: the play stopped early"),
             f"Labels by loss (counted above {NOISE:g} standard errors): "
             + ", ".join(f"{name} {low:g}+" for name, low in reversed(LABELS)) + " points", ""]
    if calls:
        lines += bid_lines(bids, symbols) + ([""] if decisions else [])
    if decisions:
        lines += ["mc's value of each legal card: the round score of the seat's team if it plays that card now,",
                  f"± standard error, over {samples} layouts of the unseen cards."]
    for d in decisions:
        head = f"{SEAT_NAMES[d.seat]:<5}  trick {d.play_no // 4 + 1}  plays {format_card(d.card, symbols=symbols):>3}"
        if d.counts:
            head += f"   best {format_card(d.estimates[0][0], symbols=symbols):>3}, loses {d.loss:.1f}±{d.loss_se:.1f}"
            head += f"  {d.label.upper()}" if d.label else ""
        elif d.loss > 0:
            head += (f"   ({format_card(d.estimates[0][0], symbols=symbols)} looks {d.loss:.1f} better: "
                     "within the noise)")
        lines.append(head)
        lines += wrap([f"{format_card(c, symbols=symbols):>3} {m:6.1f}±{s:.1f}" for c, m, s in d.estimates])
        if d.counts:  # the punishing line, in one short line: the reason in words, else the first plays
            lines += textwrap.wrap(text_line(rnd, d, symbols), WIDTH, initial_indent=" " * 7,
                                   subsequent_indent=" " * 14)
    lines += ["", f"{'seat':<6}{'decisions':>10}{'calls':>7}{'forced':>8}{'points lost':>13}"
              + "".join(f"{n:>14}" for n in ("inaccuracies", "mistakes", "blunders"))]
    for s in sorted(forced):
        mine = [d for d in decisions if d.seat == s] + [c for c in calls if c.seat == s]
        lost = sum(d.loss for d in mine if d.counts)
        counts = [sum(1 for d in mine if d.label == n) for n in ("inaccuracy", "mistake", "blunder")]
        n_calls = sum(1 for c in calls if c.seat == s)
        lines.append(f"{SEAT_NAMES[s]:<6}{len(mine):>10}{n_calls:>7}"
                     f"{forced[s] + forced_calls.get(s, 0):>8}{lost:>13.1f}"
                     + "".join(f"{c:>14}" for c in counts))
    lines.append("(decisions: the calls and the cards; forced: the calls and the plays with one option)")
    return "\n".join(lines)


def clabber_review_json(rnd: PlayedRound, decisions: list, forced: dict, samples: int, bids=None) -> dict:
    """The review for ``review --json``; ``bids`` as for :func:`format_clabber_review`."""
    from .bidding import bid_json
    calls, forced_calls = (bids.calls, bids.forced) if bids is not None else ([], {})
    scores = rnd.scores()

    def seat_summary(s: int, n: int) -> dict:
        mine = [d for d in decisions if d.seat == s]
        said = [c for c in calls if c.seat == s]
        return {"decisions": len(mine) + len(said), "bidding_decisions": len(said), "forced_plays": n,
                "forced_calls": forced_calls.get(s, 0),
                "points_lost": round(sum(d.loss for d in mine + said if d.counts), 3),
                "points_lost_bidding": round(sum(c.loss for c in said if c.counts), 3)}
    return {"game": "clabber", "dealer": SEAT_NAMES[rnd.dealer][0], "turned": format_card(rnd.turned),
            "bidding": [{"seat": SEAT_NAMES[s][0],
                         "call": "play" if b == PLAY else "pass" if b < 0 else SUIT_LETTERS[b]}
                        for s, b in rnd.bids],
            "samples": samples, "play_samples": bids.play_samples if bids else None,
            "bidding_policy": bids.bidding if bids else None, "noise_standard_errors": NOISE,
            "labels": {name: low for name, low in LABELS},
            "thrown_in": rnd.thrown_in, "scores": None if scores is None else {"NS": scores[0], "EW": scores[1]},
            "bidding_decisions": bid_json(calls),
            "decisions": [{"play": d.play_no + 1, "seat": SEAT_NAMES[d.seat][0], "card": format_card(d.card),
                           "best": format_card(d.estimates[0][0]), "loss": round(d.loss, 3),
                           "loss_se": round(d.loss_se, 3), "counts": d.counts, "label": d.label or None,
                           "estimates": [{"card": format_card(c), "value": round(m, 3), "se": round(s, 3)}
                                         for c, m, s in d.estimates]} for d in decisions],
            "seats": {SEAT_NAMES[s][0]: seat_summary(s, n) for s, n in forced.items()}}
