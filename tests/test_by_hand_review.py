"""Review's verdicts worked out by hand: the labels' boundaries, the noise rule, the points lost
(``barbu/played/review.py``)."""

import pytest

from barbu_sim.barbu.played.review import NOISE, Decision, Review, label_of


def test_labels_start_at_their_own_size():
    assert [label_of(x) for x in (8.0, 7.99, 3.0, 2.99, 1.0, 0.99)] == \
        ["blunder", "mistake", "mistake", "inaccuracy", "inaccuracy", ""]


def decision(seat, loss, loss_se):
    return Decision(0, seat, 1, 0, [(0, 0.0, 0.0)], loss, loss_se)


def test_a_loss_counts_only_above_the_noise():
    assert NOISE == 2.0
    assert decision(0, 3.0, 1.4).counts  # 3 > 2 x 1.4 = 2.8
    assert not decision(0, 3.0, 1.6).counts  # 3 < 2 x 1.6 = 3.2
    assert not decision(0, 0.0, 0.0).counts


def test_points_lost_add_the_losses_that_count():
    ds = [decision(0, 3.0, 1.0), decision(0, 2.0, 1.5), decision(0, 9.0, 0.5), decision(1, 5.0, 0.1)]
    review = Review(None, ds, (0, 1), 10, 0)
    assert review.lost(0) == pytest.approx(12.0)  # 3 + 9; the 2 (2 < 3) is noise
    assert review.lost(1) == pytest.approx(5.0)
    assert [d.loss for d in review.worst(0)] == [9.0, 3.0]
