"""advise in words: the sentence that says why a contract is recommended, and the screen a player reads.

The sentence is derived from the numbers the advice computes; these tests give it hand-made numbers
(no value table, no play), so every case is cheap and its expected words can be worked out by hand.
"""

import polars as pl
import pytest

from barbu_sim.barbu.game.advice import Advice, contract_words, explain, format_advice
from barbu_sim.barbu.rules.config import BARBU, DOMINO, NO_HEARTS, NO_LAST_TWO, NO_QUEENS, NO_TRICKS, TRUMPS, CONTRACTS

HEARTS, SPADES = 2, 3


def row(contract, expected, average, optimal, raw, settled=None, param=0):
    """One remaining contract as the advice computes it (``settled``: this hand's settled score, by default
    its raw score: no double on this hand)."""
    return {"contract": contract, "label": contract_words(contract, param), "expected": expected,
            "average_hand": average, "settled": expected if settled is None else settled,
            "optimal_value": optimal, "raw_optimal_value": raw}


# The hand 52.AKQJ97.A83.K4 at the start of a block, as advise values it (learned play, 2,000 deals):
# Trumps ♥ is 15.6 above an average hand, the most of any contract, and the best on raw scores over the
# block (55.95), but No Last Two now is the best settled (126.75).
START = [row(NO_LAST_TWO, -3.12, -6.60, 126.75, 47.74), row(BARBU, -2.90, -4.88, 125.27, 46.33),
         row(NO_TRICKS, -9.10, -6.30, 121.67, 42.86), row(NO_HEARTS, -10.29, -6.78, 119.75, 40.65),
         row(NO_QUEENS, -10.56, -5.61, 119.28, 40.51), row(TRUMPS, 38.76, 23.18, 113.35, 55.95, param=HEARTS),
         row(DOMINO, 20.70, 26.58, 70.57, 31.53, param=8)]


def test_keeping_trumps_for_the_compulsory_doubles_is_said_with_its_worth():
    # With No Last Two now the doubles over the block are worth 126.75 - 47.74 = 79.01, with Trumps now
    # 113.35 - 55.95 = 57.40: +21.6 for keeping Trumps; Trumps now gains 55.95 - 47.74 = 8.21 on raw scores.
    assert explain(START, NO_LAST_TWO, hand_no=1, owed=(2, 2, 2)) == (
        "Play No Last Two now and keep Trumps for hands 6–7: the compulsory doubles there make that worth "
        "about +22, more than the 8.2 points Trumps ♥ would gain now.")


def test_the_hands_named_follow_the_doubles_owed_and_the_doubling_policy():
    # Hand 6, two contracts left: whoever owes two doubles doubles now and in hand 7; keeping means hand 7.
    late = [row(NO_QUEENS, -4.0, -5.6, 60.0, 20.0), row(TRUMPS, 30.0, 23.2, 50.0, 26.0, param=SPADES)]
    text = explain(late, NO_QUEENS, hand_no=6, owed=(2, 1, 1))
    assert text.startswith("Play No Queens now and keep Trumps for hand 7, the last of the block: the compulsory "
                           "doubles there make that worth about +16, more than the 6.0 points Trumps ♠ would gain now.")
    # One double owed each: it falls in hand 7 only.
    assert "keep Trumps for hand 7, the last" in explain(START, NO_LAST_TWO, hand_no=1, owed=(1, 1, 0))
    # Under a policy that doubles by the cards, the hands cannot be named.
    assert explain(START, NO_LAST_TWO, hand_no=1, owed=(2, 2, 2), doubling="threshold:5") == (
        "Play No Last Two now and keep Trumps for a later hand: the doubles expected later in the block make that "
        "worth about +22, more than the 8.2 points Trumps ♥ would gain now.")


def test_the_best_contract_now_is_said_with_its_edge_over_an_average_hand():
    rows = [dict(r) for r in START]
    rows[5]["optimal_value"] = 130.0  # now Trumps is the best settled too
    assert explain(rows, TRUMPS, hand_no=1, owed=(2, 2, 2)) == (
        "Play Trumps ♥ now: this hand scores 38.8, 15.6 above an average hand's 23.2, more above average than in "
        "any other contract left.")
    weak = [row(NO_QUEENS, -8.0, -5.6, 40.0, 30.0), row(DOMINO, 20.0, 26.6, 35.0, 25.0, param=7)]
    assert explain(weak, NO_QUEENS, hand_no=6, owed=(0, 0, 0)) == (
        "Play No Queens now: this hand scores -8.0, 2.4 below an average hand's -5.6, less below average than in "
        "any other contract left.")


def test_the_last_contract_is_played_and_its_choice_named():
    last = [row(DOMINO, 31.0, 26.6, 40.0, 31.0, param=6)]
    assert explain(last, DOMINO, hand_no=7, owed=(1, 1, 1)) == (
        "Play Domino from 8: it is the only contract left (this hand scores 31.0, 4.4 above an average hand's 26.6).")


def test_doubles_on_this_hand_are_said_when_they_decide():
    # Hand 6, every opponent owes two: all double now. Doubled, No Queens settles 20 - 5 = 15 better than
    # Trumps; Trumps now gains 3 on raw scores; later both are doubled alike (10 each).
    rows = [row(NO_QUEENS, -2.0, -5.6, 70.0, 40.0, settled=18.0), row(TRUMPS, 30.0, 23.2, 58.0, 43.0, settled=35.0,
                                                                       param=HEARTS)]
    assert explain(rows, NO_QUEENS, hand_no=6, owed=(2, 2, 2)) == (
        "Play No Queens now, while the compulsory doubles fall on this hand: doubled, it settles about 15 points "
        "better than Trumps ♥ would, more than the 3.0 points Trumps ♥ now would gain otherwise.")


def test_waiting_for_a_hand_that_suits_a_contract_is_said_when_raw_scores_decide():
    # No Hearts is 1.6 above average, No Tricks 1.0; yet No Tricks now is 2.0 ahead on raw scores over the
    # block: keeping No Hearts is worth 2.0 + 0.6 = 2.6. The doubles are worth the same either way (+70).
    rows = [row(NO_TRICKS, -5.3, -6.3, 122.0, 52.0), row(NO_HEARTS, -5.18, -6.78, 120.0, 50.0),
            row(BARBU, -5.0, -4.9, 110.0, 45.0)]
    assert explain(rows, NO_TRICKS, hand_no=1, owed=(2, 2, 2)) == (
        "Play No Tricks now and keep No Hearts for a later hand: this hand suits No Hearts 0.6 points better than "
        "No Tricks against an average hand, but waiting for a hand that suits No Hearts is worth 2.6, so No Tricks "
        "now comes out 2.0 points ahead over the block on raw scores.")


def test_a_close_call_names_the_runner_up():
    rows = [dict(r) for r in START]
    rows[1]["optimal_value"] = 126.45  # Barbu now 0.3 behind No Last Two
    text = explain(rows, NO_LAST_TWO, hand_no=1, owed=(2, 2, 2))
    assert text.endswith(" A close call: Barbu now is only 0.3 points behind over the block.")
    assert "A close call" not in explain(START, NO_LAST_TWO, hand_no=1, owed=(2, 2, 2))  # 1.5 ahead: no


def test_the_screen_lists_every_trump_suit_and_domino_rank_and_hides_the_technical_columns():
    rows = pl.DataFrame([{"contract": CONTRACTS[r["contract"]],
                          "name": {TRUMPS: "H", DOMINO: "10"}.get(r["contract"], ""),
                          "expected": r["expected"], "ci_low": r["expected"] - 0.3, "ci_high": r["expected"] + 0.3,
                          "average_hand": r["average_hand"], "settled": r["settled"],
                          "optimal_value": r["optimal_value"], "raw_optimal_value": r["raw_optimal_value"]}
                         for r in START])
    choices = pl.DataFrame([{"contract": "trumps", "name": s, "expected": 10.0 + i, "ci_low": 9.0, "ci_high": 11.0}
                            for i, s in enumerate("CDHS")]
                           + [{"contract": "domino", "name": n, "expected": float(i), "ci_low": 0.0, "ci_high": 1.0}
                              for i, n in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
                                                     "A"])])
    advice = Advice(rows, "no-last-two", (2, 1, 0), "Play No Last Two now.", choices, 1)
    text = format_advice(advice, declarer=1)  # East declares: the doubles are owed by S, W, N
    assert text.splitlines()[0] == ("Hand 1 of E's block: 7 contracts left, doubles owed to E: S 2, W 1, N 0; "
                                    "doubling compulsory-only.")
    assert "Play No Last Two now." in text
    assert "| trumps      | ♥      | 38.8      | 38.5 to 39.1   | 23.2         | 113.4       |" in text
    assert "   ♠   13.0    ♥   12.0    ♦   11.0    ♣   10.0" in text  # spades first, as PBN lists suits
    assert "   2    0.0    3    1.0" in text and "   A   12.0" in text
    assert "optimal_value" not in text and all(len(line) <= 100 for line in text.splitlines())
    verbose = format_advice(advice, declarer=1, verbose=True)
    assert verbose.startswith(text) and "raw_optimal_value" in verbose and "| 126.75" in verbose
    fixed = format_advice(Advice(rows, "no-last-two", (2, 2, 2), "Play No Last Two now.", choices, 1, fixed_domino=5))
    assert "Domino: every hand starts from 7 under these rules (an average hand 26.6)." in fixed
    assert "   2    0.0" not in fixed


@pytest.mark.parametrize("contract, param, words", [
    (NO_TRICKS, 0, "No Tricks"), (BARBU, 0, "Barbu"), (TRUMPS, SPADES, "Trumps ♠"), (DOMINO, 8, "Domino from 10"),
])
def test_contracts_in_words(contract, param, words):
    assert contract_words(contract, param) == words
