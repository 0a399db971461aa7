"""Review and hints: one estimator (exact search near the end, adaptive layouts), the positions shown, the Domino
numbering, the accuracy, the JSON keys, and ``review --step`` (``barbu/played/estimate.py``, ``review.py``,
``review_text.py``, ``review_step.py``)."""

import json
from pathlib import Path

import pytest
from cli_checks import assert_clean_error, invoke
from interrupting import interrupt, start_command, wait_until
from typer.testing import CliRunner

from barbu_sim.barbu.formats.deal_file import parse_played_deals, read_played_deals
from barbu_sim.barbu.review.estimate import ROUNDS_CAP, Settings, estimate
from barbu_sim.barbu.review.review import review_deal, review_deals, review_json
from barbu_sim.barbu.review.text import format_review
from barbu_sim.barbu.review.stability import block
from barbu_sim.barbu.table.deal import hint_text
from barbu_sim.barbu.rules.config import DOMINO, NO_QUEENS
from barbu_sim.barbu.state import PASS
from barbu_sim.cli import app
from barbu_sim.core.cards import format_card, parse_card

TRICK_10 = Path(__file__).parent / "review_deals" / "trumps-trick-10.txt"
EXAMPLE = """contract: barbu
declarer: N
deal: N:2.5.AKQJT987654. .2..AKQJT9876543 AKQJT9876543.6.. .AKQJT98743.32.2
play:
5H 2H 6H KH
"""
# review's first settings (100 layouts, rollouts to the end of the hand, the last two tricks searched only at the
# decision, no inference): the settings of the players' report
OLD = Settings(samples=100, max_samples=100, endgame=2, tail=0, infer=100, rollout="heuristic")


def _south_at_trick_10(settings):
    """South's estimate at trick 10 (the deal's last play, 8S) under ``settings``: the decision as review values it."""
    deal = read_played_deals(TRICK_10)[0]
    pos = deal.replay(len(deal.plays) - 1)
    assert pos.trick_no + 1 == 10 and pos.seat == 2 and deal.plays[-1] == (2, parse_card("8S"))
    return estimate(pos, 0, settings)


def test_the_trumps_trick_10_report_is_no_longer_flagged():
    played = parse_card("8S")
    old = _south_at_trick_10(OLD)
    # the report, reproduced: the rollout defenders fail to overtake the 10D, which looks 1.40 better
    loss, se = old.loss(played)
    assert format_card(old.best) == "10D" and (round(loss, 2), round(se, 2)) == (1.40, 0.23) and loss > 2 * se
    new = _south_at_trick_10(Settings())
    assert new.exact and new.loss(played) == (0.0, 0.0) and not new.label(played) and new.layouts == 64
    # searched exactly in every layout, each of the four cards wins three of the four tricks left: +15
    assert {format_card(c): (m, s) for c, m, s in new.estimates} == {c: (15.0, 0.0) for c in ("8S", "9S", "AD", "10D")}
    text = invoke("review", TRICK_10, "--seat", "S", "--max-samples", 256).output
    trick_10 = next(line for line in text.splitlines() if "trick 10" in line)
    assert trick_10.rstrip() == "South  trick 10  plays  8S"


def test_a_hint_and_the_review_read_the_same_layouts_and_give_the_same_numbers():
    deal = block(1, 2, "basic", contracts=[NO_QUEENS])[0]
    review = review_deal(deal, [2], samples=16, seed=5)
    several = [d for d in review.decisions if d.layouts > 16]  # sampled in more than one round
    assert several
    for d in several[:2]:
        pos = deal.replay(d.play_no)
        hint = hint_text(pos, 16, 5)
        assert f" ± standard error, over {d.layouts} layouts" in hint.splitlines()[1]
        for c, m, s in d.estimates:  # every card's value, with its ±, as the review shows it
            assert f"{format_card(c):>3} {m:+6.2f}±{s:.2f}" in hint
        assert estimate(pos, 5, Settings(samples=16)).estimates == d.estimates


def test_layouts_are_added_only_where_a_label_is_in_doubt():
    deal = block(1, 2, "basic", contracts=[NO_QUEENS])[0]
    review = review_deal(deal, [2], samples=16, max_samples=512, seed=0)
    for d in review.decisions:
        est = d.estimate
        if d.layouts < 512:  # stopped before the cap: every card's label is settled
            assert all(est.settled(c) for c in est.reps())
        assert est.card_layouts(d.best) == d.layouts  # the best card, the reference, was valued on every layout
        assert all(16 <= est.card_layouts(c) <= d.layouts for c, _, _ in d.estimates)
    assert {d.layouts for d in review.decisions} > {16}


def test_the_position_is_shown_at_a_flagged_decision():
    text = format_review(review_deal(parse_played_deals(EXAMPLE)[0], [3], samples=8))
    lines = text.splitlines()
    k = lines.index("West   trick  1  plays  KH   best  3H, loses 20.00±0.00  BLUNDER")
    assert lines[k + 1:k + 6] == [
        "       hand   S -  H A K Q J 10 9 8 7 4 3  D 3 2  C 2",
        "       trick  North 5H, East 2H, South 6H",
        "       out    nothing yet",
        "       voids  none shown",
        "       scores N +0  E +0  S +0  W +0   (8 layouts, rollouts, the last tricks searched exactly)",
    ]
    summary = lines[lines.index("Costliest decisions:") - 3:lines.index("Costliest decisions:") - 1]
    assert summary == ["seat   decisions  forced  points lost  accuracy  inaccuracies      mistakes      blunders",
                       "West           1       0        20.00      0.0%             0             0             1"]


def test_domino_decisions_are_numbered_per_seat():
    deal = block(1, 2, "basic", contracts=[DOMINO])[0]
    review = review_deal(deal, [2], samples=8, max_samples=8)
    for d in review.decisions:  # the seat's n-th card is its decision n
        assert d.turn == sum(1 for s, c in deal.plays[:d.play_no + 1] if s == 2 and c != PASS)
    assert [d.turn for d in review.decisions][:3] == [1, 2, 5]
    text = format_review(review)
    assert "South  card  5  plays" in text and "play " not in text
    data = review_json(review)
    assert [d["turn"] for d in data["decisions"]] == [d.turn for d in review.decisions]
    first = data["decisions"][0]
    assert first["trick"] is None and first["position"]["columns"] == {"C": None, "D": None, "H": None, "S": None}


def test_the_json_keeps_its_keys_and_adds_the_new_ones(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text(EXAMPLE)
    data = json.loads(invoke("review", path, "--samples", 8, "--json").output)[0]
    assert {"contract", "declarer", "samples", "seed", "decisions", "seats", "scores", "unfinished"} <= set(data)
    d = next(x for x in data["decisions"] if x["seat"] == "W")
    assert {"play", "seat", "trick", "card", "best", "loss", "loss_se", "counts", "label", "estimates"} <= set(d)
    assert {"card", "mean", "se"} <= set(d["estimates"][0])
    assert {"turn", "accuracy", "layouts", "exact", "settled", "loss_interval", "position"} <= set(d)
    assert d["position"]["hand"][:3] == ["2C", "2D", "3D"] and len(d["position"]["hand"]) == 13
    assert d["position"]["trick"] == [{"seat": "N", "card": "5H"}, {"seat": "E", "card": "2H"},
                                      {"seat": "S", "card": "6H"}] and d["position"]["voids"] == {}
    assert data["labels"] == {"blunder": 5.0, "mistake": 2.0, "inaccuracy": 0.8} and data["stakes"] == 20
    assert data["seats"]["W"]["accuracy"] == 0.0 and data["max_samples"] == 8 * ROUNDS_CAP == 1024


def test_a_file_of_several_deals_shows_each_seat_s_accuracy_over_the_file(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(EXAMPLE + "---\n" + EXAMPLE)
    text = invoke("review", path, "--samples", 4, "--seat", "W").output
    assert text.rstrip().splitlines()[-1] == "Accuracy over the 2 deals: West 0.0% (2 decisions)"
    data = json.loads(invoke("review", path, "--samples", 4, "--seat", "W", "--json").output)
    assert [(x["seats"]["W"]["accuracy"], x["seats"]["W"]["decisions"]) for x in data] == [(0.0, 1)] * 2


# ---------------------------------------------------------------- review --step

def step(path, text, *args):
    return CliRunner().invoke(app, ["review", str(path), "--step", "--samples", "8", *args], input=text)


def test_step_walks_the_decisions_and_values_a_card_typed(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text(EXAMPLE)
    result = step(path, "3h\nAS\n2C\nzz\n\n", "--seat", "W")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "West   trick  1  plays  KH   best  3H, loses 20.00±0.00  BLUNDER" in out
    assert "       trick  North 5H, East 2H, South 6H" in out  # the position, at every decision
    assert "3H: +0.00±0.00 over 8 layouts" in out
    assert "  against the card played, KH -20.00: better by 20.00±0.00" in out and "  it is the best card" in out
    assert "AS could not be played here: West does not hold AS (South does)" in out
    assert "2C could not be played here: West may not play 2C: hearts were led and a heart is held" in out
    assert "Not understood" in out
    assert out.rstrip().endswith("End of the review.") and "Costliest decisions:" in out


def test_step_stops_at_q_and_at_the_end_of_the_input(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text(EXAMPLE)
    for text in ("q\n", ""):
        result = step(path, text, "--seat", "W")
        assert result.exit_code == 0, result.output
        assert result.output.rstrip().endswith("Stopped.") and "End of the review." not in result.output
    assert "(end of input)" in step(path, "").output


def test_step_ctrl_c_stops_cleanly(tmp_path, monkeypatch):
    from barbu_sim.barbu.review import step as review_step
    path = tmp_path / "deal.txt"
    path.write_text(EXAMPLE)

    def interrupt(prompt, write):
        raise KeyboardInterrupt
    monkeypatch.setattr(review_step, "read_line", interrupt)
    result = step(path, "", "--seat", "W")
    assert result.exit_code == 130 and "Interrupted: the review stopped" in result.output
    assert "Traceback" not in result.output


def test_step_does_not_go_with_json(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text(EXAMPLE)
    assert_clean_error(step(path, "", "--json"), "--step", "--json")
    assert_clean_error(invoke("review", path, "--samples", 8, "--max-samples", 4), "--max-samples")


@pytest.mark.parametrize("card, answer", [("KH", "  it is the card played"),
                                          ("4H", "  equivalent to the best card, 3H")])
def test_step_answers_for_the_card_played_and_equivalent_cards(tmp_path, card, answer):
    path = tmp_path / "deal.txt"
    path.write_text(EXAMPLE)
    out = step(path, f"{card}\n\n", "--seat", "W").output
    assert answer in out and parse_card(card) >= 0


def test_a_review_is_the_same_on_any_thread_count():
    deals = block(3, 2, "basic", contracts=[NO_QUEENS, DOMINO])
    settings = Settings(samples=8, max_samples=32)
    one = review_deals(deals, [2], settings, seed=4, threads=1)
    two = review_deals(deals, [2], settings, seed=4, threads=3)
    assert len(one) == len(two) == 2 and sum(len(r.decisions) for r in one) >= 8
    assert [review_json(r) for r in one] == [review_json(r) for r in two]
    # and each deal's review is the one review_deal gives on its own
    assert review_json(review_deal(deals[1], [2], settings=settings, seed=4, threads=2)) == review_json(one[1])


def test_threads_is_checked(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text(EXAMPLE)
    assert_clean_error(invoke("review", path, "--threads", 0), "--threads")


# Touches MARKER when a decision has been valued: the compiles are then behind, the review's work under way.
FIRST_DECISION = """
from pathlib import Path
from barbu_sim.barbu.review import review
valued = review.decide
def decide(*args):
    decision = valued(*args)
    Path({marker!r}).touch()
    return decision
review.decide = decide
"""


def test_ctrl_c_stops_a_review_on_several_threads(tmp_path):
    marker = tmp_path / "valued"
    proc = start_command(["review", TRICK_10, "--samples", "4000", "--threads", "2"],
                         FIRST_DECISION.format(marker=str(marker)))
    wait_until(marker.exists, proc, "a decision valued")
    out, err = interrupt(proc)
    assert "Interrupted: no review printed" in err and "Traceback" not in err and out == ""
