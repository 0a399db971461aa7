"""The punishing line of a Clabber card decision: what happens after the card played and after the best card.

A decision's loss is a mean over layouts of the unseen cards (:func:`.review.layout_values`).  To show *why*
a card loses, :func:`decision_lines` takes the decision's **representative layout**, the one whose
difference (best less played) is the nearest to the loss (:attr:`.review.ClabberDecision.layout`), deals it
again exactly as the review dealt it (mc's estimator on the same key: the same cards in the same hands), and
plays the rest of the round under each legal card with the players the estimate used: the card, then
``heuristic`` at every seat (deterministic: the line is the estimate's own rollout).  So a line's round score
for the seat's team is that layout's value of the card, to the point.

A line shows its first plays (the rest of the trick and the next), the card points each team takes from
there and the round's score (melds, the bell, the makers' rule); where one can be stated, the reason in
words: the team that wins the trick under each card and what it takes, the makers falling short.
"""

from __future__ import annotations

import numpy as np

from ...core.cards import format_card
from ...core.review_line import first_trick, page_line, shown_plays, text_cells, trick_sentence
from ...core.review_page import page_code
from ...core.seats import SEAT_LETTERS, SEAT_NAMES
from ..players.heuristic import heuristic_strategy
from ..players.mc import W_DEALT, W_LAYOUT, W_SUMS
from ..players.rollout import legal_now, round_scores, step
from ..state import S_LEADER, S_MAKER, S_N_IN_TRICK, S_SEAT, S_TEAM_POINTS, S_TRICK, S_TRICK_CARDS
from .mc import layout_key, replay, value_layout

TEAMS = ("N+S", "E+W")


def layout_at(rnd, d) -> dict:
    """Layout ``d.layout`` of decision ``d`` (a :class:`.review.ClabberDecision`) of ``rnd``, dealt as the review
    dealt it: ``state`` (before the play), ``layout`` (the four hands now), ``dealt`` (the hands as dealt in that
    layout: what the melds are counted on) and ``values`` (52,), each legal card's value there."""
    state, hands, mcw = replay(rnd, d.play_no)
    legal = value_layout(state, hands, mcw, layout_key(d.seed, d.play_no, d.layout))
    return {"state": state, "layout": mcw[W_LAYOUT:W_LAYOUT + 4].copy(), "dealt": mcw[W_DEALT:W_DEALT + 4].copy(),
            "values": mcw[W_SUMS:W_SUMS + 52].view(np.float64).copy(), "legal": int(legal)}


def play_line(state, layout, dealt, card: int) -> dict:
    """The rest of the round from ``state`` with the hands ``layout``: ``card``, then ``heuristic`` at every seat.
    ``plays`` [(seat, card, winner or None, the trick's points)], ``on_table`` (the trick before ``card``),
    ``taken`` (each team's card points from here), ``scores`` (N+S, E+W: the round's score on ``dealt``)."""
    state, hands = state.copy(), np.ascontiguousarray(layout, np.uint64).copy()
    k, leader = int(state[S_N_IN_TRICK]), int(state[S_LEADER])
    on_table = [((leader + i) & 3, int(state[S_TRICK_CARDS + i])) for i in range(k)]
    before = [int(state[S_TEAM_POINTS]), int(state[S_TEAM_POINTS + 1])]
    plays, nxt = [], card
    while int(state[S_TRICK]) < 6:
        seat = int(state[S_SEAT])
        if nxt is None:
            hand = np.uint64(hands[seat])
            nxt = int(heuristic_strategy(np.uint64(legal_now(hand, state)), hand, state, hands[:0]))
        trick, points = int(state[S_TRICK]), [int(state[S_TEAM_POINTS]), int(state[S_TEAM_POINTS + 1])]
        step(state, hands, np.int64(nxt))
        won, x = None, 0
        if int(state[S_TRICK]) > trick:
            won = int(state[S_LEADER])
            x = int(state[S_TEAM_POINTS + (won & 1)]) - points[won & 1]
        plays.append((seat, nxt, won, x))
        nxt = None
    scores = round_scores(state, np.ascontiguousarray(dealt, np.uint64))
    return {"plays": plays, "on_table": on_table, "maker": int(state[S_MAKER]),
            "taken": [int(state[S_TEAM_POINTS + t]) - before[t] for t in (0, 1)], "scores": [int(v) for v in scores]}


def _card(c: int, symbols: bool = True) -> str:
    return format_card(c, symbols=symbols)


def _short(line: dict) -> bool:
    """Whether the makers fall short in the line: they score nothing, their total not above the defenders'."""
    return line["scores"][line["maker"] & 1] == 0


def reason(lines: dict, played: int, best: int, symbols: bool = True) -> str:
    """A plain reason for the loss from the two lines (``lines``: card -> :func:`play_line`), or "": the trick of
    the card where it goes to the other team or takes other points, the makers falling short under one card."""
    a, b = lines[played], lines[best]
    p, q = _card(played, symbols), _card(best, symbols)
    said = []
    ra, rb = first_trick(a), first_trick(b)
    if ra and rb and (ra[0] & 1, ra[2]) != (rb[0] & 1, rb[2]):
        said.append(trick_sentence(p, q, ra, rb, lambda s: SEAT_NAMES[s], lambda c: _card(c, symbols),
                                   lambda w, x: f" (+{x} for {TEAMS[w & 1]})" if x else ""))
    makers = TEAMS[a["maker"] & 1]
    if _short(a) and not _short(b):
        said.append(f"After {p} the makers ({makers}) fall short and score nothing; after {q} they score "
                    f"{b['scores'][b['maker'] & 1]}.")
    elif _short(b) and not _short(a):
        said.append(f"After {q} the makers ({makers}) would fall short and score nothing.")
    return " ".join(said)


def _lines(rnd, d, cards=None) -> tuple[dict, dict]:
    """(the representative layout, card -> :func:`play_line`) for ``cards`` of decision ``d`` (default: every legal
    card)."""
    at = layout_at(rnd, d)
    if cards is None:
        cards = [c for c in range(52) if at["legal"] >> c & 1]
    lines = {c: play_line(at["state"], at["layout"], at["dealt"], c) for c in cards}
    return at, lines


def _points(line: dict) -> str:
    taken, scores = line["taken"], line["scores"]
    text = (f"Card points from here to the end: N+S +{taken[0]}, E+W +{taken[1]} (the last trick's 10 included); "
            f"the round: N+S {scores[0]}, E+W {scores[1]}")
    return text + (" (the makers fall short: they score nothing)." if _short(line) else ".")


def decision_lines(rnd, d) -> dict:
    """The page's lines of decision ``d`` (a :class:`.review.ClabberDecision` whose loss counts) of ``rnd``: card
    (``KH``) -> {title, plays, points, reason} for every legal card, on the representative layout; the reason
    under the card played and the best; {} when the loss does not count."""
    if not d.counts:
        return {}
    at, lines = _lines(rnd, d)
    best = d.estimates[0][0]
    said = reason(lines, d.card, best)
    team = TEAMS[d.seat & 1]
    out = {}
    for c, line in lines.items():
        what = " (played)" if c == d.card else " (best)" if c == best else ""
        title = (f"After {_card(c)}{what}, in layout {d.layout + 1} of {d.samples:,} (its loss the nearest to the "
                 f"mean, {d.loss:.2f}): {team} {line['scores'][d.seat & 1]} in the round")
        out[page_code(c)] = page_line(line, shown_plays(line["plays"]), title, _points(line), lambda s: SEAT_LETTERS[s],
                                      page_code)
        if said and c in (d.card, best):
            out[page_code(c)]["reason"] = said
    return out


def text_line(rnd, d, symbols: bool = False) -> str:
    """One short line for the text review: the reason in words, else each line's first plays; "" for a decision
    whose loss does not count."""
    if not d.counts:
        return ""
    best = d.estimates[0][0]
    _, lines = _lines(rnd, d, (d.card, best))  # the text names only these two
    said = reason(lines, d.card, best, symbols)
    if said:
        return "why    " + said
    return "line   " + text_cells(lines, (d.card, best), lambda c: _card(c, symbols))


def review_lines(rnd, decisions: list) -> dict:
    """The lines of every decision whose loss counts: play number (1-based) -> card -> line (what
    :func:`.page.round_page_data` takes)."""
    return {d.play_no + 1: decision_lines(rnd, d) for d in decisions if d.counts}


__all__ = ["decision_lines", "layout_at", "play_line", "reason", "review_lines", "text_line"]
