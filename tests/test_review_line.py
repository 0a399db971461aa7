"""The punishing line of a decision (review/line.py): a legal continuation on a layout the estimate really
dealt, played by the estimate's players, scoring what the review says."""

import re

from test_review_html import DOMINO, NO_TRICKS

from barbu_sim.barbu.formats.deal_file import parse_played_deals
from barbu_sim.barbu.review.line import decision_lines, layout_hands, play_line, representative_layout, step_lines
from barbu_sim.barbu.review.page import review_page_data
from barbu_sim.barbu.review.review import review_deal
from barbu_sim.barbu.review.text import format_review
from barbu_sim.barbu.state import PASS
from barbu_sim.core.cards import parse_card

# West, void in spades, holds K♥ behind South's 6: K♥ wins the trick (-20, the hand is over); any other heart
# lets South win it, and South, with only spades left, leads spades to the end: West throws K♥ on one of them.
KING = """contract: barbu
declarer: N
deal: N:2.5.AKQJT987654. .2..AKQJT9876543 AKQJT9876543.6.. .AKQJT98743.32.2
play:
5H 2H 6H KH
"""


def test_the_king_of_hearts_line_shows_the_trick_and_its_twenty_points():
    deal = parse_played_deals(KING)[0]
    review = review_deal(deal, seats=[3], samples=16)
    [d] = review.decisions
    assert d.card == parse_card("KH") and d.loss == 20.0 and d.label == "blunder"
    lines = decision_lines(deal, d, review.settings)
    assert set(lines) == {"KH", "3H"}
    king, three = lines["KH"], lines["3H"]
    assert [(p["seat"], p["card"], p["won"], p["points"]) for p in king["plays"]] == [("W", "KH", "W", -20)]
    assert "West -20" in king["points"] and three["title"].endswith("West +0 from here")
    assert three["plays"][0] == {"seat": "W", "card": "3H", "first": True, "won": "S", "points": 0}
    reason = "After ♥K West wins the trick with ♥K (-20); after ♥3 South wins it with ♥6."
    assert king["reason"] == three["reason"] == reason
    # the text review: one line; review --step: the two lines and the reason
    assert "       why    After KH West wins the trick with KH (-20); after 3H South wins it with 6H." in \
        format_review(review).splitlines()
    step = step_lines(deal, d, review.settings)
    assert len(step) == 4 and step[1].startswith("         after KH: W:KH>W-20   to the end: N +0 E +0 S +0 W -20")
    assert step[3].startswith("       why    After KH")
    # the page holds both lines under their cards
    shown = review_page_data(review)["decisions"][0]["estimates"]
    assert {e["card"] for e in shown if "line" in e} == {"KH", "3H"}


def _check_exact_lines(text: str) -> int:
    """On every decision searched exactly, the line of the card played and of the best card, in the
    representative layout and the first two, is legal (replayed card by card) and scores, for the seat, the
    layout's own value: what the review averaged."""
    deal = parse_played_deals(text)[0]
    review = review_deal(deal, seats=[2], samples=4)
    checked = 0
    for d in review.decisions:
        if not d.exact:
            continue
        est = d.estimate
        pos = deal.replay(d.play_no)
        for k in sorted({0, 1, representative_layout(est, d.card)}):
            layout = layout_hands(pos, est, k)
            # the layout: the seat's own hand, and the unseen cards dealt out, each once
            assert int(layout[d.seat]) == int(pos.hands[d.seat])
            assert sum(bin(int(h)).count("1") for h in layout) == sum(bin(int(h)).count("1") for h in pos.hands)
            for c in {d.card, d.best}:
                if est.card_layouts(c) <= k:
                    continue
                line = play_line(deal, d.play_no, layout, c, review.settings, True)
                again = deal.replay(d.play_no)
                again.hands = layout.copy()
                for _, card, _, _ in line["plays"]:  # legal: Position refuses an illegal card
                    again.pass_turn() if card == PASS else again.play(card)
                assert again.over
                assert line["points"][d.seat] == est._column(c)[k], (d.play_no, k, c)
                checked += 1
    return checked


def test_exact_lines_score_the_layouts_values_in_a_trick_contract_and_in_domino():
    assert _check_exact_lines(NO_TRICKS) >= 10
    assert _check_exact_lines(DOMINO) >= 4


def test_a_domino_line_names_the_cards_a_card_opens():
    deal = parse_played_deals(DOMINO)[0]
    review = review_deal(deal, seats=[2], samples=4)
    counted = [d for d in review.decisions if d.counts]
    assert counted
    for d in counted:
        lines = decision_lines(deal, d, review.settings)
        reason = next(iter(lines.values()))["reason"]
        assert re.search(r"goes out (1st|2nd|3rd)|is last", reason), reason
