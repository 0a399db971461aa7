"""Review's verdicts worked out by hand: the labels' thresholds and boundaries, the noise rule, when a label is
settled, the points lost and the accuracy (``barbu/played/review.py``, ``barbu/played/estimate.py``)."""

import pytest

from barbu_sim.barbu.review.estimate import label_of, label_thresholds, stakes
from barbu_sim.barbu.review.review import NOISE, Decision, Review, accuracy_of
from barbu_sim.barbu.rules import PRESETS, Rules
from barbu_sim.barbu.rules.config import BARBU, DOMINO, NO_HEARTS, NO_LAST_TWO, NO_QUEENS, NO_TRICKS, TRUMPS

BARBU_T = (("blunder", 5.0), ("mistake", 2.0), ("inaccuracy", 0.8))  # 25%, 10%, 4% of the 20 points Barbu deals out


@pytest.mark.parametrize("contract, dealt, thresholds", [
    (BARBU, 20, (5.0, 2.0, 0.8)),
    (NO_QUEENS, 24, (6.0, 2.4, 0.96)),  # 4 queens at -6
    (NO_TRICKS, 26, (6.5, 2.6, 1.04)),  # 13 tricks at -2
    (NO_LAST_TWO, 30, (7.5, 3.0, 1.2)),  # -10 and -20
    (NO_HEARTS, 30, (7.5, 3.0, 1.2)),  # 12 hearts at -2, the ace -6
    (TRUMPS, 65, (16.25, 6.5, 2.6)),  # 13 tricks at +5
    (DOMINO, 65, (16.25, 6.5, 2.6)),  # 45 + 20 + 5 - 5
])
def test_thresholds_are_shares_of_what_the_contract_deals_out(contract, dealt, thresholds):
    assert stakes(Rules(), contract) == dealt
    assert label_thresholds(Rules(), contract) == tuple(zip(("blunder", "mistake", "inaccuracy"), thresholds))


def test_thresholds_follow_the_rules_in_force():
    # high-hearts-4: 2-9♥ at -2 and 10-A♥ at -4, 36 points dealt out (docs/rules.md); the signs of
    # positive-penalties turn over, the stakes do not
    assert stakes(PRESETS["high-hearts-4"], NO_HEARTS) == 36
    assert label_thresholds(PRESETS["high-hearts-4"], NO_HEARTS)[0] == ("blunder", 9.0)
    assert label_thresholds(PRESETS["positive-penalties"], BARBU) == BARBU_T


def test_labels_start_at_their_own_threshold():
    # the label goes by the low end of the loss's interval
    assert [label_of(x, BARBU_T) for x in (5.0, 4.99, 2.0, 1.99, 0.8, 0.79, -1.0)] == \
        ["blunder", "mistake", "mistake", "inaccuracy", "inaccuracy", "", ""]


def decision(seat, loss, loss_se):
    return Decision(0, seat, 1, 0, [(0, 0.0, 0.0)], loss, loss_se, thresholds=BARBU_T)


def test_a_loss_counts_only_above_the_noise():
    assert NOISE == 2.0
    assert decision(0, 3.0, 1.4).counts  # 3 > 2 x 1.4 = 2.8
    assert not decision(0, 3.0, 1.6).counts  # 3 < 2 x 1.6 = 3.2
    assert not decision(0, 0.0, 0.0).counts


def test_a_label_is_settled_when_no_threshold_lies_in_the_interval():
    assert decision(0, 3.0, 0.4).settled  # 2.2 .. 3.8: between 2 and 5
    assert not decision(0, 2.5, 0.4).settled  # 1.7 .. 3.3 holds 2
    assert decision(0, 0.3, 0.2).settled  # -0.1 .. 0.7: below 0.8
    assert decision(0, 20.0, 0.0).settled


def test_points_lost_add_the_losses_that_count():
    ds = [decision(0, 3.0, 1.0), decision(0, 2.0, 1.5), decision(0, 9.0, 0.5), decision(1, 5.0, 0.1)]
    review = Review(None, ds, (0, 1), 10, 0)
    assert review.lost(0) == pytest.approx(12.0)  # 3 + 9; the 2 (2 < 3) is noise
    assert review.lost(1) == pytest.approx(5.0)
    assert [d.loss for d in review.worst(0)] == [9.0, 3.0]


def test_accuracy_by_hand():
    # Barbu's blunder threshold is 5 points: a loss of 1 that counts leaves 80%, a loss within the noise 100%,
    # a loss of 7 (beyond the blunder threshold) 0%
    ds = [decision(0, 1.0, 0.1), decision(0, 1.0, 0.6), decision(0, 7.0, 0.5), decision(1, 2.5, 0.5)]
    assert [d.accuracy for d in ds] == pytest.approx([80.0, 100.0, 0.0, 50.0])
    review = Review(None, ds, (0, 1, 2), 10, 0)
    assert review.accuracy(0) == pytest.approx(60.0)  # the mean of 80, 100 and 0
    assert review.accuracy(1) == pytest.approx(50.0)
    assert review.accuracy(2) is None  # no decision
    assert accuracy_of(ds) == pytest.approx(57.5)  # over several hands: the mean over every decision
