"""The review of a played Clabber round as one self-contained web page, to share.

:func:`round_html` turns a round and its review (the card decisions of :func:`.review.review_round`
and the calls of :func:`.bidding.review_calls`) into one HTML file, drawn as Barbu's page is, with the
kit both pages share (:mod:`barbu_sim.core.review_page`): the round stepped through call by call and
then card by card, seen from one seat (its hand, the turned card, the cards played, the voids and the
melds the others declared; a switch shows the four hands), at each reviewed call every option and at
each reviewed card every legal card with its value and its difference from the best (a click on one
shows it against the best and the one chosen), the hand's graph of the seat's team's expected score,
and each seat's decisions, points lost and labels as the text review counts them.  The address keeps
the step (``#call-N``, ``#play-N``).  Nothing is loaded from elsewhere: no server, no network.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import numpy as np

from ...core.cards import SUIT_LETTERS, SUIT_SYMBOLS, cards_of
from ...core.review_page import STYLE as SHARED_STYLE, page_code, review_page_html
from ...core.seats import SEAT_LETTERS, SEAT_NAMES
from ..formats.round_file import PASS, PLAY, PlayedRound, start_state
from ..players.mc import meld_cards
from ..players.rollout import step
from ..rules.config import BELL_POINTS, KING, QUEEN
from ..rules.melds import hand_melds_ranked, meld_ranking, team_melds
from ..state import S_LEADER, S_TEAM_POINTS, S_TRICK
from .bidding import DEFAULT_BIDDING, BiddingReview, option_name
from .labels import LABELS, NOISE

SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")


_code = page_code  # the page's spelling of a card, ``TH``


def _r(x: float) -> float:
    return round(float(x), 3)


def _rows(estimates, pairs, key, samples: int, lines: dict | None = None) -> list[dict]:
    """A decision's options, best first, as the page reads them: value, se, loss against the best, its label,
    difference from the option chosen (paired over the same ``samples`` layouts), and its line where there is
    one (``lines``: the option as the page spells it -> :func:`.line.decision_lines`' line)."""
    from .labels import label_of
    out = []
    for option, mean, se in estimates:
        row = {"card": key(option), "mean": _r(mean), "se": _r(se), "layouts": samples}
        if option in pairs:
            loss, loss_se, vs, vs_se = pairs[option]
            row.update(loss=_r(loss), loss_se=_r(loss_se), label=label_of(loss, loss_se) or None,
                       vs_played=_r(vs), vs_played_se=_r(vs_se))
        if lines and row["card"] in lines:
            row["line"] = lines[row["card"]]
        out.append(row)
    return out


def _plays(rnd: PlayedRound) -> list[dict]:
    """Every card of the round with its trick, and at a trick's last card its winner, its points (card
    points, the last trick's 10 included) and each team's card points so far."""
    if rnd.thrown_in:
        return []
    state, hands = start_state(rnd)
    out = []
    for seat, card in rnd.plays:
        trick = int(state[S_TRICK])
        before = [int(state[S_TEAM_POINTS]), int(state[S_TEAM_POINTS + 1])]
        step(state, hands, np.int64(card))
        row = {"seat": SEAT_LETTERS[seat], "card": _code(card), "trick": trick + 1, "winner": None, "points": None}
        if int(state[S_TRICK]) > trick:
            w = int(state[S_LEADER])
            row["winner"], row["points"] = SEAT_LETTERS[w], int(state[S_TEAM_POINTS + (w & 1)]) - before[w & 1]
        row["team_points"] = [int(state[S_TEAM_POINTS]), int(state[S_TEAM_POINTS + 1])]
        out.append(row)
    return out


def _melds(rnd: PlayedRound) -> dict:
    """Each seat's melds as dealt (their cards and points), each team's meld points after the comparison,
    the bell's team, and when the melds are shown (``meld-show``)."""
    if rnd.thrown_in:
        return {"seats": {}, "scored": [0, 0], "bell": None, "show": rnd.rules.meld_show}
    trump, rules = rnd.row["trump"], rnd.rules.to_array()
    hands = np.ascontiguousarray(rnd.hands, np.uint64)
    seats = {}
    for s in range(4):
        points, _ = hand_melds_ranked(hands[s], np.int64(trump), meld_ranking(rules))
        if points:
            seats[SEAT_LETTERS[s]] = {"cards": [_code(c) for c in reversed(cards_of(int(meld_cards(hands[s]))))],
                                      "points": int(points)}
    m0, m1, _, _ = team_melds(hands, np.int64(trump), rules)
    pair = (1 << (13 * trump + KING)) | (1 << (13 * trump + QUEEN))
    bell = next((SEAT_LETTERS[s] for s in range(4) if int(hands[s]) & pair == pair), None)
    return {"seats": seats, "scored": [int(m0), int(m1)], "bell": bell, "show": rnd.rules.meld_show}


def _call_text(seat: int, call: int) -> str:
    said = {PASS: "passes", PLAY: "plays"}.get(call) or f"names {SUIT_WORDS[call]}"
    return f"{SEAT_NAMES[seat]} {said}"


def _summary(decisions: list, calls: list, forced: dict, forced_calls: dict) -> dict:
    """Each reviewed seat's line of the text review's summary: decisions (the calls and the cards), calls,
    forced, points lost (the losses beyond the noise) and the labels."""
    out = {}
    for s in sorted(forced):
        mine = [d for d in decisions if d.seat == s] + [c for c in calls if c.seat == s]
        out[SEAT_LETTERS[s]] = {
            "decisions": len(mine), "calls": sum(1 for c in calls if c.seat == s),
            "forced": forced[s] + forced_calls.get(s, 0),
            "points_lost": round(sum(d.loss for d in mine if d.counts), 1),
            "labels": {name: sum(1 for d in mine if d.label == name) for name, _ in LABELS}}
    return out


def round_page_data(rnd: PlayedRound, decisions: list, forced: dict, samples: int, bids: BiddingReview | None = None,
                    view: int | None = None, seed: int = 0, session: dict | None = None,
                    lines: dict | None = None) -> dict:
    """The data the page renders, as plain JSON-able values (what :func:`round_html` embeds).

    Keys: ``title``, ``dealer``, ``turned`` (cards spelt ``AS``, ``TH``), ``trump`` (a suit letter, None when
    thrown in), ``maker``, ``bid_round``, ``thrown_in``, ``unfinished``, ``scores`` (``NS``, ``EW``; None
    unfinished), ``hands`` (as dealt), ``calls`` (``seat``, ``call``: ``pass``, ``play`` or a suit letter),
    ``plays`` (``seat``, ``card``, ``trick``, ``winner``, ``points``, ``team_points``), ``melds`` (per seat its
    meld cards and points, the teams' scored melds, the bell's seat, ``show``), ``decisions`` (``kind``
    ``call`` or ``card``, ``step`` the page's step, ``seat``, ``card`` the option chosen, ``best``, ``loss``,
    ``loss_se``, ``counts``, ``label``, and every option's ``mean``, ``se``, ``loss``, ``loss_se``, ``label``,
    ``vs_played``, ``vs_played_se``, and at a card decision whose loss counts its ``line``: :mod:`.line`),
    ``seats`` (the summary of the text review), ``reviewed``, ``labels``,
    ``noise``, ``samples``, ``play_samples``, ``bidding``, ``seed``, ``view`` and ``show_all`` (the seat the
    page opens on: ``view``, else the one seat reviewed, else South with every hand shown), ``session``.
    ``lines``: play number (1-based) -> card (``KH``) -> its line; default :func:`.line.review_lines`.
    """
    calls, forced_calls = (bids.calls, bids.forced) if bids is not None else ([], {})
    if lines is None:
        from .line import review_lines
        lines = review_lines(rnd, decisions)
    reviewed = sorted(forced)
    n_calls = len(rnd.bids)
    row = rnd.row
    scores = rnd.scores()
    if view is not None:
        seat, show_all = view, False
    elif len(reviewed) == 1:
        seat, show_all = reviewed[0], False
    else:
        seat, show_all = (2 if 2 in reviewed or not reviewed else reviewed[0]), True
    out = [{"kind": "call", "step": c.call_no + 1, "seat": SEAT_LETTERS[c.seat], "call_no": c.call_no + 1,
            "round": c.bid_round, "card": option_name(c.call), "best": option_name(c.estimates[0][0]),
            "loss": _r(c.loss), "loss_se": _r(c.loss_se), "counts": c.counts, "label": c.label or None,
            "estimates": _rows(c.estimates, c.pairs, option_name, bids.samples)} for c in calls]
    out += [{"kind": "card", "step": n_calls + d.play_no + 1, "play": d.play_no + 1, "seat": SEAT_LETTERS[d.seat],
             "trick": d.play_no // 4 + 1, "card": _code(d.card), "best": _code(d.estimates[0][0]),
             "loss": _r(d.loss), "loss_se": _r(d.loss_se), "counts": d.counts, "label": d.label or None,
             "estimates": _rows(d.estimates, d.pairs, _code, samples, lines.get(d.play_no + 1))} for d in decisions]
    return {
        "title": rnd.title, "dealer": SEAT_LETTERS[rnd.dealer], "turned": _code(rnd.turned),
        "trump": SUIT_LETTERS[row["trump"]] if row["maker"] >= 0 else None,
        "maker": SEAT_LETTERS[row["maker"]] if row["maker"] >= 0 else None, "bid_round": row["bid_round"],
        "thrown_in": rnd.thrown_in, "unfinished": scores is None,
        "scores": None if scores is None else {"NS": scores[0], "EW": scores[1]},
        "hands": {SEAT_LETTERS[s]: [_code(c) for c in cards_of(int(rnd.hands[s]))] for s in range(4)},
        "calls": [{"seat": SEAT_LETTERS[s], "call": option_name(b), "text": _call_text(s, b)} for s, b in rnd.bids],
        "plays": _plays(rnd), "melds": _melds(rnd), "bell_points": BELL_POINTS,
        "decisions": sorted(out, key=lambda d: d["step"]),
        "seats": _summary(decisions, calls, forced, forced_calls), "reviewed": [SEAT_LETTERS[s] for s in reviewed],
        "labels": [[name, low] for name, low in LABELS], "noise": NOISE, "samples": samples,
        "play_samples": bids.play_samples if bids else None, "bidding": bids.bidding if bids else DEFAULT_BIDDING,
        "call_samples": bids.samples if bids else None, "seed": seed,
        "view": SEAT_LETTERS[seat], "show_all": show_all, "session": session,
    }


def page_title(data: dict) -> str:
    """The page's title: the round's title, then what it was (``Clabber review: trump ♥, dealer West``)."""
    what = (f"trump {SUIT_SYMBOLS[SUIT_LETTERS.index(data['trump'])]}" if data["trump"] else "thrown in")
    title = f"Clabber review: {what}, dealer {SEAT_NAMES[SEAT_LETTERS.index(data['dealer'])]}"
    return f"{data['title']} ({title})" if data["title"] else title


def round_html(rnd: PlayedRound, decisions: list, forced: dict, samples: int, bids: BiddingReview | None = None,
               view: int | None = None, seed: int = 0, session: dict | None = None) -> str:
    """The review of one played Clabber round as one self-contained HTML page (a string).

    ``decisions``, ``forced``: what :func:`.review.review_round` returns for ``rnd``, valued on ``samples``
    layouts with ``seed``; ``bids``: :func:`.bidding.review_calls` (None: no call reviewed); ``view``: the seat
    the page opens on (:func:`round_page_data`); ``session``: None, or the links of a file's rounds (``number``,
    ``count``, ``prev``, ``next``).  The page steps through the calls and then the cards (arrow keys, Home/End,
    PageUp/PageDown for the decisions, buttons); ``#call-N`` or ``#play-N`` at the end of its address opens it
    there, and the address follows the page.  The data is embedded as JSON, escaped so that no text of the
    round can end its element.
    """
    data = round_page_data(rnd, decisions, forced, samples, bids, view, seed, session)
    return review_page_html(page_title(data), SHARED_STYLE + STYLE, SCRIPT, data, "round", FOOTER)


def write_round_html(rnd: PlayedRound, decisions: list, forced: dict, samples: int, path,
                     bids: BiddingReview | None = None, view: int | None = None, seed: int = 0,
                     session: dict | None = None) -> Path:
    """Write :func:`round_html` to ``path`` (UTF-8, replaced whole, atomically); return the path.

    A folder that cannot be written is an :class:`~barbu_sim.core.files.OutputError` naming the path.
    """
    from ...core.files import write_text
    return write_text(Path(path), round_html(rnd, decisions, forced, samples, bids, view, seed, session),
                      what="the review page")


# The page's script: page.js, a package data file beside this module (it runs after the shared kit).
SCRIPT = files(__package__).joinpath("page.js").read_text(encoding="utf-8")

FOOTER = """Keys: &#x2190; &#x2192; one call or card, Home / End the deal and the end, Page Up / Page Down the
previous and next decision; a click on a card or a call of the values shows its value. Written by barbu-sim;
this page loads nothing from elsewhere."""

# Clabber's own rules after the shared sheet: the turned card and the bidding on the felt, the calls.
STYLE = """
.bidding { display: flex; flex-direction: column; align-items: center; gap: 6px; }
.bidding .turned { font-size: 13px; text-align: center; }
.bidding .card { margin-top: 3px; }
.calls { display: flex; flex-wrap: wrap; justify-content: center; gap: 3px 8px; font-size: 13px; max-width: 250px; }
.calls span.now { font-weight: 700; text-decoration: underline; }
.opt { display: inline-block; font-weight: 600; border: 1px solid #9aa4ad; border-radius: 4px; padding: 0 5px;
  line-height: 1.25; background: #fff; color: var(--ink); } .opt.red { color: var(--red); }
#table .trump-note .red { color: #ffb3b3; }
.trump-note { font-size: 13px; opacity: .9; text-align: center; }
.seat .melds { font-size: 12px; color: #ffe082; margin-top: 2px; }
.calls-record { display: flex; flex-wrap: wrap; gap: 3px; margin-bottom: 8px; }
.calls-record span[data-step] { background: #fff; border: 1px solid var(--line); border-radius: 4px; padding: 0 5px;
  font-size: 13px; cursor: pointer; } .calls-record span.now { border-color: #1565c0; }
.calls-record .future { opacity: .35; }
.result .breakdown { font-size: 12px; color: var(--muted); margin-top: 3px; }
"""
