"""The review of Clabber bidding: every option of each call, played out by mc from the caller's view."""

import json

import numpy as np
import pytest
from cli_checks import assert_clean_error, invoke

from barbu_sim.clabber.api import play_dealt, play_round
from barbu_sim.clabber.engine.deals import deal_around_into
from barbu_sim.clabber.review.bidding import BiddingReview, call_options, call_values, review_bidding
from barbu_sim.clabber.review.review import LABELS, NOISE, format_clabber_review, review_round
from barbu_sim.clabber.formats.round_file import PASS, PLAY, format_round_log, parse_rounds, round_of
from barbu_sim.core.rng import STREAM_CLABBER_BID_REVIEW, stream_key

# Dealer W, turned 9C: North holds no club, no ace, no jack, and says "play" (clubs trump) in round one.
HOPELESS = """game: clabber
dealer: W
deal: N:T9.T9.Q9. AKQ.AK.A. J.QJ.KJT. ...AKQJT9
turned: 9C
bidding: {bidding}
unfinished: yes
play:
"""
SMALL = {"samples": 8, "play_samples": 4}


def parse(text):
    return parse_rounds(text, "round.txt", ValueError)[0]


def test_taking_with_a_hopeless_hand_is_a_blunder_and_passing_is_not():
    took = parse(HOPELESS.format(bidding="play"))
    calls, forced = review_bidding(took, **SMALL)
    assert len(calls) == 1 and forced == {0: 0, 1: 0, 2: 0, 3: 0}
    d = calls[0]
    assert (d.seat, d.call, d.bid_round, d.call_no) == (0, PLAY, 1, 0)
    assert [o for o, _, _ in d.estimates] == [PASS, PLAY]  # passing is worth more
    assert d.counts and d.loss > NOISE * d.loss_se and d.loss >= LABELS[0][1] and d.label == "blunder"
    passed = parse(HOPELESS.format(bidding="pass pass pass play"))
    calls, _ = review_bidding(passed, seats=[0], **SMALL)
    assert len(calls) == 1 and calls[0].call == PASS and calls[0].loss == 0 and calls[0].label == ""
    assert calls[0].estimates == d.estimates  # the same hand, turned card and position: the same values


def test_the_values_are_the_rounds_mc_plays_on_each_layout():
    # Layout k of a call, dealt again here and played by play_dealt with the call's contract imposed and mc
    # at every seat on the same play stream, scores what the review recorded for that option.
    rnd = parse(HOPELESS.format(bidding="play"))
    options, values = call_values(rnd, 0, 3, seed=5, play_samples=4)
    assert options == [PASS, PLAY] and values.shape == (3, 2)
    key = np.uint64(stream_key(np.uint64(5), np.uint64(0), STREAM_CLABBER_BID_REVIEW))  # uint64, as the kernel has it
    for k in range(3):
        dealt = np.empty(4, np.uint64)
        deal_around_into(key, k, np.uint64(rnd.hands[0]), 0, rnd.turned, rnd.dealer, np.empty(24, np.int64), dealt,
                         np.empty(1, np.uint64))
        assert dealt[0] == rnd.hands[0] and int(dealt[3]) >> rnd.turned & 1
        result = play_dealt(dealt, rnd.turned, rnd.dealer, strategies="mc:samples=4", forced=(1, 0, 0),
                            seed=int(key), index=k)
        assert values[k, 1] == result.row["score_ns"] - result.row["score_ew"]


def test_the_last_pass_throws_the_cards_in_and_is_worth_nothing():
    rnd = round_of(play_round(1, 0, 0, "threshold:1000", "heuristic"))  # eight passes
    assert rnd.thrown_in and len(rnd.bids) == 8
    options, values = call_values(rnd, 7, 4, play_samples=2)
    assert options[0] == PASS and options == call_options(rnd, 7) and len(options) >= 2
    assert (values[:, 0] == 0).all() and (values[:, 1:] != 0).any()


def test_the_caller_s_information_only_and_the_same_seed_gives_the_same_numbers():
    rnd = parse(HOPELESS.format(bidding="pass pass pass play"))
    first, _ = review_bidding(rnd, seats=[1], seed=3, **SMALL)
    again, _ = review_bidding(rnd, seats=[1], seed=3, **SMALL)
    assert len(first) == 1 and [d.estimates for d in again] == [d.estimates for d in first]
    other, _ = review_bidding(rnd, seats=[1], seed=4, **SMALL)
    assert [d.estimates for d in other] != [d.estimates for d in first]
    # North and South swap hands: East (the caller) sees the same, so its values stay as they were
    swapped = parse(HOPELESS.format(bidding="pass pass pass play").replace(
        "N:T9.T9.Q9. AKQ.AK.A. J.QJ.KJT.", "N:J.QJ.KJT. AKQ.AK.A. T9.T9.Q9."))
    moved, _ = review_bidding(swapped, seats=[1], seed=3, **SMALL)
    assert [d.estimates for d in moved] == [d.estimates for d in first]


def test_a_call_within_the_noise_carries_no_label():
    rnd = round_of(play_round(4, 0, 0, "threshold", "heuristic"))
    calls, _ = review_bidding(rnd, samples=4, play_samples=2)
    assert len(calls) == len(rnd.bids) == 6
    for d in calls:  # the rule of the card decisions: a label only beyond the noise, by the loss
        assert d.counts == (d.loss > 0 and d.loss > NOISE * d.loss_se)
        assert d.label == (next((n for n, low in LABELS if d.loss >= low), "") if d.counts else "")
    noisy = [d for d in calls if 0 < d.loss <= NOISE * d.loss_se]
    assert noisy and all(d.label == "" for d in noisy)
    text = format_clabber_review(rnd, [], {s: 0 for s in range(4)}, 4, bids=BiddingReview(calls, {}, 4, 2))
    assert "the rest bidding threshold and mc (samples=2)" in text
    assert text.count("within the noise") == len(noisy)


def test_review_shows_the_calls_and_counts_them(tmp_path):
    path = tmp_path / "round.txt"
    result = play_round(4, 0, 0, "threshold", "heuristic")
    path.write_text(format_round_log(round_of(result)), encoding="utf-8")
    out = invoke("review", path, "--samples", 4, "--play-samples", 2)
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert max(len(line) for line in lines) <= 100
    calls = [line for line in lines if line.split()[:1] in (["North"], ["East"], ["South"], ["West"])
             and " round " in line]
    assert len(calls) == len(result.bids) == 6
    assert calls[-1].startswith("South  round 2  names H")
    rnd = parse(path.read_text())
    cards, _ = review_round(rnd, samples=4)
    bids, forced_calls = review_bidding(rnd, samples=4, play_samples=2)
    summary = lines[lines.index(next(line for line in lines if line.startswith("seat "))) + 1:][:4]
    for line, seat in zip(summary, range(4)):
        cells = line.split()
        assert int(cells[1]) == sum(d.seat == seat for d in cards) + sum(d.seat == seat for d in bids)
        assert int(cells[2]) == sum(d.seat == seat for d in bids)
    data = json.loads(invoke("review", path, "--samples", 4, "--play-samples", 2, "--json").output)[0]
    assert data["play_samples"] == 2 and data["bidding_policy"] == "threshold" and len(data["bidding_decisions"]) == 6
    assert [c["made"] for c in data["bidding_decisions"]] == ["pass"] * 5 + ["H"]
    assert sum(s["bidding_decisions"] for s in data["seats"].values()) == 6
    assert sum(s["decisions"] for s in data["seats"].values()) == 6 + len(cards) == 6 + len(data["decisions"])
    assert data["bidding_decisions"][0]["estimates"][0]["value"] == pytest.approx(bids[0].estimates[0][1], abs=1e-3)


@pytest.mark.parametrize("args, needle", [
    (["--play-samples", "0"], "--play-samples must be at least 1"),
    (["--play-samples", "100001"], "--play-samples must be at least 1 and at most 100,000"),
])
def test_a_bad_play_samples_is_a_one_line_error(tmp_path, args, needle):
    path = tmp_path / "round.txt"
    path.write_text(HOPELESS.format(bidding="play"), encoding="utf-8")
    assert_clean_error(invoke("review", path, "--samples", 4, *args), needle)


def test_play_samples_is_refused_for_a_barbu_deal(tmp_path):
    path = tmp_path / "deal.txt"
    r = invoke("play", "-c", "no-queens", "--seed", 3, "--record", path)
    assert r.exit_code == 0, r.output
    assert_clean_error(invoke("review", path, "--samples", 4, "--play-samples", 4), "a Barbu deal has no bidding")
