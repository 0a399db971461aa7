"""The punishing line of a decision: what happens after the card played and after the best card.

A decision's loss is a mean over layouts of the hidden cards.  To show *why* a card loses,
:func:`decision_lines` takes one **representative layout**, the one whose difference (best card's value
less the played card's) is closest to the decision's loss, deals it again exactly as the estimate dealt it
(:func:`layout_hands`: the same key, so the same cards in the same hands), and plays the rest of the hand
from there under each card, with the players the estimate used:

- where the estimate searched exactly (every layout of a decision from 5 tricks left, or a rollout's last
  ``tail`` tricks), each seat plays its maxⁿ card, every hand known (:func:`endgame.solve_cards`; between
  cards worth the same to it, the lowest);
- before that, the rollout player of the estimate's settings (``heuristic``, or the one they name).

A line starts with the card itself; the page shows its first plays (the rest of the trick and the next,
or in Domino the next turns), the points each seat takes from there to the end, and, where one can be
stated from the line, the reason in words: the card that wins the trick and what it takes, or the cards a
Domino card opens and who plays them.  The rollouts of a line draw from the position's own stream, not
the estimate's, so before the exact search a line is one likely continuation, not the estimate's own; in
the exact search it is the estimate's, and its points are the layout's values.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ...core.cards import format_card
from ...core.review_line import SHOWN_TRICKS, first_trick, nearest_layout, page_line, shown_plays, text_cells
from ...core.review_line import trick_sentence
from ...core.review_page import page_code as _code  # the page's spelling of a card, ``TH``
from ...core.rng import STREAM_MC, STREAM_REVIEW, stream_key
from ...core.seats import SEAT_LETTERS, SEAT_NAMES
from ..rules.config import DOMINO
from ..state import PASS

SHOWN_TURNS = 8  # Domino: the turns shown after the card


def representative_layout(est, card: int) -> int:
    """The layout whose difference (the best card's value less ``card``'s) is closest to ``card``'s loss; the
    lowest such layout."""
    n = min(est.card_layouts(card), est.card_layouts(est.best))
    diff = est.sign * (est._column(est.best)[:n] - est._column(card)[:n])
    return nearest_layout(diff, est.loss(card)[0])


def layout_hands(pos, est, k: int) -> np.ndarray:
    """The four hands of layout ``k`` of the decision in ``pos`` (:class:`estimate.Estimate` ``est``), dealt as
    the estimate dealt them: the key of layout ``k`` (:func:`estimate.layout_values`), then mc's own draw."""
    from ..players.mc.layouts import sample_layout
    key = np.uint64(stream_key(np.uint64(est.key), np.uint64(k), STREAM_REVIEW))
    rng = np.array([stream_key(key, np.uint64(0), STREAM_MC)], np.uint64)
    layout, allowed = np.zeros(4, np.uint64), np.zeros(4, np.uint64)
    cap = np.zeros(4, np.int64)
    sample_layout(rng, np.int64(pos.seat), np.uint64(pos.hands[pos.seat]), pos.state, layout, allowed, cap)
    return layout


def _position_in(deal, play_no: int, layout: np.ndarray):
    """The deal's position before play ``play_no`` (0-based), the hidden hands those of ``layout``: each seat
    dealt its layout hand and the cards it played before."""
    played = [0, 0, 0, 0]
    for seat, card in deal.plays[:play_no]:
        if card != PASS:
            played[seat] |= 1 << card
    hands = np.array([int(layout[s]) | played[s] for s in range(4)], np.uint64)
    return dataclasses.replace(deal, hands=hands).replay(play_no)


class _Players:
    """The players of a line: maxⁿ with every hand known where the estimate searched exactly, else the rollout."""

    def __init__(self, settings, exact: bool, me: int):
        from ..players.endgame import TT_WORDS
        from ..players.registry import resolve_strategy
        self.exact_from_start, self.me = exact, me
        self.tail = settings.tail
        self.rollout = resolve_strategy(settings.rollout).func
        self.tt = np.zeros(TT_WORDS, np.uint64)
        self.values = np.zeros(52, np.float64)

    def exact(self, pos) -> bool:
        if self.exact_from_start:
            return True
        return not pos.domino and 13 - pos.trick_no <= self.tail

    def choose(self, pos) -> int:
        legal = np.uint64(pos.legal())
        if not self.exact(pos):
            return int(self.rollout(legal, np.uint64(pos.hands[pos.seat]), pos.state, pos.rng))
        return self._maxn(pos, legal)

    def _maxn(self, pos, legal) -> int:
        """The seat's maxⁿ card as the exact search chooses it: the most points for itself; between cards worth
        the same to it, the one worst for the reviewed seat (the search's cautious tie-break), then the lowest."""
        from ..players import endgame as eg
        from ..players.rollout import trick_so_far
        from ..rules.play_rules import domino_ace_low, domino_position, forced_discard, lead_restriction
        from ..state import S_LEADER, S_N_IN_TRICK, S_PLAYED, S_TRICK
        rules = pos.rules_array.astype(np.int64)
        better = eg._better(rules)
        seat, me, i64, u64 = pos.seat, self.me, np.int64, np.uint64
        best, best_own, best_me = None, None, None
        for c in range(52):
            if not int(legal) >> c & 1:
                continue
            eg.new_search(self.tt)
            hands, only = pos.hands.copy(), u64(1 << c)
            if pos.domino:
                masks = domino_position(i64(pos.start), pos.state[S_PLAYED], domino_ace_low(rules))
                v = eg.domino_search(hands, *(u64(m) for m in masks), i64(seat), rules, i64(me), i64(better), self.tt,
                                     only, self.values)
            else:
                contract, trump = i64(pos.contract), i64(pos.param)
                k0, leader = i64(pos.state[S_N_IN_TRICK]), i64(pos.state[S_LEADER]) & 3
                trick, *rest = trick_so_far(pos.state, k0, leader, contract, trump)
                # the types the search is compiled for (as solve_cards calls it): numba reads Python ints as int64
                v = eg.search(hands, i64(pos.state[S_TRICK]), leader, k0, u64(trick), *(i64(x) for x in rest),
                              contract, trump, u64(lead_restriction(contract, rules)),
                              u64(forced_discard(contract, rules)), rules, i64(me), i64(better), self.tt, only,
                              self.values)
            own, mine = better * v[seat], better * v[me]
            if best is None or own > best_own or (own == best_own and seat != me and mine < best_me):
                best, best_own, best_me = c, own, mine
        return best


def play_line(deal, play_no: int, layout: np.ndarray, card: int, settings, exact: bool) -> dict:
    """The rest of the hand after ``card`` at play ``play_no`` in ``layout``: ``plays`` [(seat, card or PASS,
    winner or None, points)], ``points`` each seat's points from the decision to the end, ``finished`` (Domino:
    the order of going out) and ``over``."""
    pos = _position_in(deal, play_no, layout)
    before = pos.scores.copy()
    on_table = [] if pos.domino else [(int(s), int(c)) for s, c in pos.trick_so_far()]
    players = _Players(settings, exact, pos.seat)
    plays = []
    nxt = card
    while not pos.over:
        seat = pos.seat
        if pos.domino and pos.must_pass():
            pos.pass_turn()
            plays.append((seat, PASS, None, 0))
            continue
        if nxt is None:
            nxt = players.choose(pos)
        tricks, scores = len(getattr(pos, "trick_winners", [])), pos.scores.copy()
        pos.play(nxt)
        won, points = None, 0
        if not pos.domino and len(pos.trick_winners) > tricks:
            won = pos.trick_winners[-1]
            points = int(pos.scores[won] - scores[won])
        plays.append((seat, nxt, won, points))
        nxt = None
    return {"plays": plays, "points": [int(a - b) for a, b in zip(pos.scores, before)], "on_table": on_table,
            "finished": list(getattr(pos, "finished", []))}


def _shown(plays: list, domino: bool) -> list:
    """The first plays of a line: the rest of the trick and the next one, or the next Domino turns."""
    return plays[:SHOWN_TURNS + 1] if domino else shown_plays(plays, SHOWN_TRICKS)


def _card(c: int, symbols: bool = True) -> str:
    return format_card(c, symbols=symbols)


def _domino_reason(line: dict, card: int, me: int, symbols: bool = True) -> str:
    """The cards a Domino card opens, and who plays them in the line."""
    suit, rank = card // 13, card % 13
    opened = {suit * 13 + r for r in (rank - 1, rank + 1) if 0 <= r < 13}
    takers = [(s, c) for s, c, _, _ in line["plays"][1:] if c in opened and s != me]
    if not takers:
        return ""
    return (f"{_card(card, symbols)} opens "
            + " and ".join(f"{_card(c, symbols)} for {SEAT_NAMES[s]}" for s, c in takers))


def _place(line: dict, me: int) -> str:
    order = line["finished"]
    if me in order:
        return f"{SEAT_NAMES[me]} goes out {['1st', '2nd', '3rd', '4th'][order.index(me)]}"
    return f"{SEAT_NAMES[me]} is last"


def reason(lines: dict, played: int, best: int, me: int, domino: bool, symbols: bool = True) -> str:
    """A plain reason for the loss, from the two lines (``lines``: card -> :func:`play_line`), or ""."""
    a, b = lines[played], lines[best]
    p, q = _card(played, symbols), _card(best, symbols)
    if domino:
        opens = _domino_reason(a, played, me, symbols)
        place = (f"after {p} {_place(a, me)} ({a['points'][me]:+d}), "
                 f"after {q} {_place(b, me)} ({b['points'][me]:+d}).")
        return f"{opens}; {place}" if opens else place[0].upper() + place[1:]
    ra, rb = first_trick(a), first_trick(b)
    if not ra or not rb or (ra[0], ra[2]) == (rb[0], rb[2]):  # the same winner taking the same: no reason there
        return ""
    return trick_sentence(p, q, ra, rb, lambda s: SEAT_NAMES[s], lambda c: _card(c, symbols),
                          lambda w, x: f" ({x:+d})" if x else "")


def _page_line(line: dict, card: int, title: str, domino: bool) -> dict:
    points = ", ".join(f"{SEAT_NAMES[s]} {v:+d}" for s, v in enumerate(line["points"]))
    return page_line(line, _shown(line["plays"], domino), title, "Points from here to the end: " + points,
                     lambda s: SEAT_LETTERS[s], lambda c: None if c == PASS else _code(c))


def _lines(deal, d, settings) -> tuple:
    """(the representative layout's number, card -> :func:`play_line`) for the card played and the best."""
    k = representative_layout(d.estimate, d.card)
    layout = layout_hands(deal.replay(d.play_no), d.estimate, k)
    return k, {c: play_line(deal, d.play_no, layout, c, settings, d.exact) for c in (d.card, d.best)}


def decision_lines(deal, d, settings) -> dict:
    """The page's lines of decision ``d`` (a :class:`review.Decision` whose loss counts) of the deal: card ->
    {title, plays, points, reason}, for the card played and the best card, on the representative layout; {} when
    the decision has no estimate."""
    if d.estimate is None or not d.counts:
        return {}
    k, lines = _lines(deal, d, settings)
    domino = deal.contract == DOMINO
    said = reason(lines, d.card, d.best, d.seat, domino)
    out = {}
    for c, what in ((d.card, "played"), (d.best, "best")):
        title = (f"After {_card(c)} ({what}), in layout {k + 1} of {d.layouts:,} (its loss the nearest to the mean, "
                 f"{d.loss:.2f}): {SEAT_NAMES[d.seat]} {lines[c]['points'][d.seat]:+d} from here")
        out[_code(c)] = _page_line(lines[c], c, title, domino)
        if said:
            out[_code(c)]["reason"] = said
    return out


def step_lines(deal, d, settings, symbols: bool = False) -> list[str]:
    """``review --step``'s lines of decision ``d`` (whose loss counts): the layout, each card's first plays with
    the points each seat takes from there, and the reason in words where there is one; [] otherwise."""
    if d.estimate is None or not d.counts:
        return []
    k, lines = _lines(deal, d, settings)
    out = [f"       line   in layout {k + 1} of {d.layouts:,}, its loss the nearest to the mean:"]
    for c in (d.card, d.best):
        shown = _shown(lines[c]["plays"], deal.contract == DOMINO)
        plays = " ".join(f"{SEAT_LETTERS[s]}:{'-' if x == PASS else _card(x, symbols)}"
                         + (f">{SEAT_LETTERS[w]}{p:+d}" if w is not None and p else "") for s, x, w, p in shown)
        more = " ..." if len(shown) < len(lines[c]["plays"]) else ""
        points = " ".join(f"{SEAT_LETTERS[s]} {v:+d}" for s, v in enumerate(lines[c]["points"]))
        out.append(f"         after {_card(c, symbols)}: {plays}{more}   to the end: {points}")
    said = reason(lines, d.card, d.best, d.seat, deal.contract == DOMINO, symbols)
    return out + ([f"       why    {said}"] if said else [])


def text_line(deal, d, settings, symbols: bool = False) -> str:
    """One short line for the text review: the reason in words, else each line's first plays; "" for a decision
    whose loss does not count."""
    if d.estimate is None or not d.counts:
        return ""
    _, lines = _lines(deal, d, settings)
    said = reason(lines, d.card, d.best, d.seat, deal.contract == DOMINO, symbols)
    if said:
        return "why    " + said
    return "line   " + text_cells(lines, (d.card, d.best), lambda c: "-" if c == PASS else _card(c, symbols))




def review_lines(review) -> dict:
    """The lines of every decision of ``review`` whose loss counts: play number (1-based) -> card -> line (what
    :func:`page.review_page_data` takes)."""
    return {d.play_no + 1: decision_lines(review.deal, d, review.settings) for d in review.decisions if d.counts}


__all__ = ["decision_lines", "layout_hands", "play_line", "reason", "representative_layout", "review_lines",
           "step_lines", "text_line"]
