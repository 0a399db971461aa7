"""The punishing line of a Clabber card decision (clabber/review/line.py): a legal continuation on a layout the
review really dealt, played by the review's players, scoring what the review says; on a hand-made endgame
whose loss is known exactly, the trick it gives away and its points in words."""

import numpy as np
import pytest
from shared_deals import CLABBER_ENDGAME, CLABBER_ROUND

from barbu_sim.clabber.formats.round_file import parse_rounds, start_state
from barbu_sim.clabber.players.rollout import legal_now, round_scores, step
from barbu_sim.clabber.review.line import decision_lines, layout_at, play_line, text_line
from barbu_sim.clabber.review.page import round_page_data
from barbu_sim.clabber.review.mc import layout_values
from barbu_sim.clabber.review.review import format_clabber_review, review_round
from barbu_sim.clabber.state import S_SEAT
from barbu_sim.core.cards import parse_card

SAMPLES = 12


def _round(text):
    return parse_rounds(text, "round", ValueError)[0]


def _check_line(rnd, d, card, line, at) -> None:
    """The line is legal from the layout's hands, card by card, to the end of the round, and its round score
    is the one the layout's hands as dealt give."""
    state, hands = at["state"].copy(), at["layout"].copy()
    assert line["plays"][0][:2] == (d.seat, card)
    for seat, c, _, _ in line["plays"]:
        assert seat == int(state[S_SEAT])
        assert int(legal_now(np.uint64(hands[seat]), state)) >> c & 1, (seat, c)
        step(state, hands, np.int64(c))
    assert not hands.any() and len(line["plays"]) == 24 - d.play_no
    assert line["scores"] == [int(v) for v in round_scores(state, at["dealt"])]


def test_the_endgame_line_gives_away_the_trick_and_its_seventeen_points():
    rnd = _round(CLABBER_ENDGAME)
    decisions, _ = review_round(rnd, [2], samples=SAMPLES)
    [d] = [d for d in decisions if d.counts]
    spade_ace, spade_nine = parse_card("AS"), parse_card("9S")
    assert (d.play_no, d.card, d.estimates[0][0]) == (19, spade_nine, spade_ace)
    assert d.loss == 17.0 and d.loss_se == 0.0 and d.label == "mistake"  # the same 17 on every layout
    lines = decision_lines(rnd, d)
    assert set(lines) == {"AS", "9S"}  # every legal card: South holds two
    nine, ace = lines["9S"], lines["AS"]
    assert nine["plays"][0] == {"seat": "S", "card": "9S", "first": True, "won": "E", "points": 17}
    assert ace["plays"][0] == {"seat": "S", "card": "AS", "first": True, "won": "S", "points": 28}
    # trick 6 goes to North's trump in both: with ♠A (11) in it after ♠9, with ♠9 (0) after ♠A, the last 10 too
    assert nine["plays"][-1]["won"] == ace["plays"][-1]["won"] == "N" and len(nine["plays"]) == 5
    assert [p["points"] for p in nine["plays"] if p["won"]] == [17, 44]
    assert [p["points"] for p in ace["plays"] if p["won"]] == [28, 33]
    assert "the round: N+S 169, E+W 33" in nine["points"] and "the round: N+S 186, E+W 16" in ace["points"]
    assert nine["title"].endswith("N+S 169 in the round") and "(played)" in nine["title"]
    reason = "After ♠9 East wins the trick with ♠10 (+17 for E+W); after ♠A South wins it with ♠A (+28 for N+S)."
    assert nine["reason"] == ace["reason"] == reason
    # the text review: one short line under the decision
    text = format_clabber_review(rnd, decisions, _, SAMPLES).splitlines()
    at = text.index(next(t for t in text if t.startswith("South  trick 5  plays  9S")))
    assert text[at + 2].startswith("       why    After 9S East wins the trick with 10S (+17 for E+W)")
    assert text_line(rnd, d).startswith("why    After 9S")
    # the page holds the lines under the cards
    shown = next(x for x in round_page_data(rnd, decisions, _, SAMPLES)["decisions"] if x.get("play") == 20)
    assert {e["card"] for e in shown["estimates"] if "line" in e} == {"AS", "9S"}


@pytest.mark.parametrize("text", [CLABBER_ENDGAME, CLABBER_ROUND], ids=["endgame", "seed-3"])
def test_every_line_is_legal_and_scores_the_layouts_value(text):
    """At every decision of every seat (those whose loss counts or not), each legal card's line on the
    representative layout: legal, and its team's round score is that layout's value of the card, to the point;
    the layout's difference is the nearest to the loss."""
    rnd = _round(text)
    decisions, _ = review_round(rnd, samples=SAMPLES, seed=1)
    assert len(decisions) >= 4
    for d in decisions:
        at = layout_at(rnd, d)
        values = layout_values(rnd, d.play_no, SAMPLES, 1)[2]
        best = d.estimates[0][0]
        diff = values[:, best] - values[:, d.card]
        assert abs(diff[d.layout] - d.loss) == pytest.approx(np.abs(diff - d.loss).min())
        cards = [c for c, _, _ in d.estimates]
        assert [c for c in range(52) if at["legal"] >> c & 1] == sorted(cards)
        for c in cards:
            line = play_line(at["state"], at["layout"], at["dealt"], c)
            _check_line(rnd, d, c, line, at)
            assert line["scores"][d.seat & 1] == values[d.layout, c] == at["values"][c], (d.play_no, c)
    # the layouts' hands: South's own, and the rest the cards South cannot see, each dealt once
    state, hands = start_state(rnd)
    at = layout_at(rnd, decisions[0])
    assert sum(bin(int(h)).count("1") for h in at["layout"]) == 24 - decisions[0].play_no
    assert int(np.bitwise_or.reduce(at["dealt"])) == int(np.bitwise_or.reduce(hands))  # the whole pack


def test_no_line_where_the_loss_does_not_count():
    rnd = _round(CLABBER_ENDGAME)
    decisions, _ = review_round(rnd, [2], samples=SAMPLES)
    quiet = [d for d in decisions if not d.counts]
    assert quiet and all(decision_lines(rnd, d) == {} and text_line(rnd, d) == "" for d in quiet)
