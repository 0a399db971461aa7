"""Clabber in review: the played-round file, read through the rules, and each decision's values."""

import json
import re

import numpy as np
import pytest
from cli_checks import assert_clean_error, invoke

from barbu_sim.clabber.api import play_round
from barbu_sim.clabber.review.review import review_round
from barbu_sim.clabber.formats.round_file import format_round_log, parse_rounds, round_of
from barbu_sim.clabber.rules import Rules, parse_rule_options
from barbu_sim.core.cards import cards_of

# Dealer W, turned 9C (West's): North, on the dealer's left, plays in round one, so clubs are trump.
TYPED = """game: clabber
dealer: W
deal: N:AKQJT9... .AKQJT9.. ..AKQJT9. ...AKQJT9
turned: 9C
bidding: play
play:
AS AH AD AC
"""


def parse(text):
    return parse_rounds(text, "round.txt", ValueError)


@pytest.mark.parametrize("seed, index, dealer, options", [(3, 0, 0, []), (3, 1, 2, ["partner-excuse=on"]),
                                                          (5, 2, 1, []), (8, 3, 3, ["partner-excuse=on"])])
def test_engine_rounds_read_back_card_for_card(seed, index, dealer, options):
    rules = parse_rule_options(options)
    result = play_round(seed, index, dealer, "threshold", ["heuristic", "random", "heuristic", "random"], rules)
    text = format_round_log(round_of(result, rules))
    back = parse(text)
    assert len(back) == 1
    rnd = back[0]
    assert rnd.bids == result.bids and rnd.plays == result.plays and rnd.turned == result.turned
    if result.row["maker"] >= 0:
        assert rnd.scores() == (result.row["score_ns"], result.row["score_ew"])
    else:
        assert rnd.plays == [] and "bidding: " + " ".join(["pass"] * 8) in text


@pytest.mark.parametrize("change, needle", [
    (("AS AH AD AC", "AH"), "North does not hold AH (East does)"),
    (("AS AH AD AC", "AS AS"), "AS was already played"),
    (("AS AH AD AC", "AS 8H"), "8H is not a Clabber card"),
    (("AS AH AD AC", "AS AH AD"), "the play stops after 3 cards"),
    (("bidding: play", "bidding: play pass"), "follows the end of the bidding"),
    (("bidding: play", "bidding: pass pass pass pass C"), "names clubs, the turned suit"),
    (("bidding: play", "bidding: pass pass pass pass H"), "North names hearts and holds none"),
    (("bidding: play", "bidding: S"), "call 1 (North) is in round one: 'play' or 'pass'"),
    (("bidding: play", "bidding: pass pass"), "the bidding stops after 2 call(s)"),
    (("bidding: play", "bidding: " + " ".join(["pass"] * 8)), "the cards were thrown in"),
    (("turned: 9C", "turned: 9H"), "the turned card 9H must be one of the dealer's cards"),
    (("dealer: W\n", ""), "no 'dealer:' line"),
])
def test_impossible_rounds_are_refused_in_one_line(tmp_path, change, needle):
    path = tmp_path / "round.txt"
    path.write_text(TYPED.replace(*change), encoding="utf-8")
    assert_clean_error(invoke("review", path, "--samples", 2), needle)


RULES_DEAL = "N:AKQJT9... .AKQJT..A ..AKQJT9. .9..KQJT9"  # clubs trump: East holds the A, West K Q J 10 9


@pytest.mark.parametrize("play, needle", [
    ("AS AH", "play 2 (East): East may not play AH: void in spades and holding a trump: play a trump"),
    ("AS AC AD KC", "play 4 (West): West may not play KC: a trump that beats the highest trump in the trick"),
])
def test_the_rules_of_play_are_named(play, needle):
    text = TYPED.replace("N:AKQJT9... .AKQJT9.. ..AKQJT9. ...AKQJT9", RULES_DEAL).replace("AS AH AD AC", play)
    with pytest.raises(ValueError, match=re.escape(needle)):
        parse(text)
    assert parse(text.rsplit(" ", 1)[0] + "\nunfinished: yes\n")  # the same cards up to there are legal


def test_review_values_every_legal_card_from_the_seats_information(tmp_path):
    result = play_round(4, 0, 0, "threshold", "heuristic")
    path = tmp_path / "round.txt"
    path.write_text(format_round_log(round_of(result)), encoding="utf-8")
    out = invoke("review", path, "--samples", 12)
    assert out.exit_code == 0, out.output
    assert "Bidding (turned " in out.output and max(len(line) for line in out.output.splitlines()) <= 100
    data = json.loads(invoke("review", path, "--samples", 12, "--json").output)[0]  # a list, one entry per round
    assert data["game"] == "clabber" and len(data["bidding"]) == len(result.bids)
    assert data["scores"] == {"NS": result.row["score_ns"], "EW": result.row["score_ew"]}
    rnd = parse(path.read_text())[0]
    decisions, forced = review_round(rnd, samples=12)
    assert len(decisions) + sum(forced.values()) == 24 and decisions
    for d in decisions:  # every legal card is valued, the played one among them, best first
        values = [m for _, m, _ in d.estimates]
        assert values == sorted(values, reverse=True) and d.card in [c for c, _, _ in d.estimates]
        assert d.loss == pytest.approx(d.estimates[0][1] - next(m for c, m, _ in d.estimates if c == d.card))
    again, _ = review_round(rnd, samples=12)
    assert [d.estimates for d in again] == [d.estimates for d in decisions]  # reproducible
    north, _ = review_round(rnd, seats=[0], samples=12)
    assert [d.estimates for d in north] == [d.estimates for d in decisions if d.seat == 0]


def test_the_opening_lead_does_not_see_the_other_hands():
    # The seat on the dealer's left leads first: dealing the other 17 unseen cards otherwise (the turned
    # card staying with the dealer) leaves every estimate as it was.
    rnd = parse(format_round_log(round_of(play_round(6, 0, 3, "threshold", "heuristic"))))[0]
    leader, dealer = 0, 3
    unseen = [c for c in cards_of(int(rnd.hands[1]) | int(rnd.hands[2]) | int(rnd.hands[3])) if c != rnd.turned]
    moved = list(reversed(unseen))
    hands = np.zeros(4, np.uint64)
    hands[leader] = rnd.hands[leader]
    sizes = {1: 6, 2: 6, 3: 5}
    for seat in (1, 2, 3):
        for _ in range(sizes[seat]):
            hands[seat] |= np.uint64(1 << moved.pop())
    hands[dealer] |= np.uint64(1 << rnd.turned)
    assert not np.array_equal(hands, rnd.hands)
    other = rnd.__class__(hands, rnd.dealer, rnd.turned, rnd.bids, [rnd.plays[0]], Rules(), rnd.seed, rnd.index,
                          unfinished=True)
    if any(b >= 0 and b != 4 and not int(hands[s]) & (0x1FFF << 13 * b) for s, b in rnd.bids):
        pytest.skip("the bidding names a suit the new hand lacks")
    first = review_round(rnd, seats=[leader], samples=8)[0][:1]
    moved_review = review_round(other, seats=[leader], samples=8)[0][:1]
    assert first and [d.estimates for d in first] == [d.estimates for d in moved_review]


def test_the_docs_example_is_a_legal_round():
    from pathlib import Path
    page = (Path(__file__).resolve().parent.parent / "docs" / "review-and-table.md").read_text(encoding="utf-8")
    block = page.split("### Clabber rounds", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    rnd = parse(block)[0]
    assert rnd.unfinished and [c for _, c in rnd.plays] == [cards_of(1 << c)[0] for _, c in rnd.plays]
    assert len(rnd.plays) == 4 and rnd.row["trump"] == 0 and rnd.row["maker"] == 0


def test_a_thrown_in_round_the_tool_recorded_is_reviewed(tmp_path):
    # eight passes: the record has no card, and review says so instead of crashing
    path = tmp_path / "tn.txt"
    r = invoke("clabber", "play", "--seed", 1, "--bidding", "threshold:1000", "--record", path)
    assert r.exit_code == 0, r.output
    rnd = parse(path.read_text())[0]
    assert rnd.row["maker"] == -1 and rnd.plays == [] and rnd.scores() == (0, 0)
    assert review_round(rnd, samples=4) == ([], {0: 0, 1: 0, 2: 0, 3: 0})
    out = invoke("review", path, "--samples", 4)
    assert out.exit_code == 0, out.output
    assert "Thrown in: eight passes, no card played, no score" in out.output
    data = json.loads(invoke("review", path, "--samples", 4, "--json").output)
    assert data[0]["scores"] == {"NS": 0, "EW": 0} and data[0]["decisions"] == [] and data[0]["thrown_in"]
