"""The game referee's end-of-game checks (game/rules.py, GameReferee.finish), on hand-made tallies.

In a played or verified game the forced doubles are already enforced hand by hand
(verify_doubles), so these checks are reached only by a referee whose tallies are wrong; they
are what a game's record must hold at the end: seven contracts per declarer, and every player's
two compulsory doubles of every declarer.
"""

import pytest

from barbu_sim.barbu.game.rules import COMPULSORY_DOUBLES, GameReferee
from barbu_sim.barbu.rules import N_CONTRACTS, Rules


def referee_after_a_full_game(doubles=COMPULSORY_DOUBLES):
    """A referee that saw every declarer name the seven contracts, each other player doubling each
    declarer ``doubles`` times."""
    ref = GameReferee(Rules(), first=0)
    for d in range(4):
        for c in range(N_CONTRACTS):
            ref.declare(d, c, 0)
        for p in range(4):
            if p != d:
                ref.doubles_on[p, d] = doubles
    return ref


def test_referee_finish_accepts_a_complete_game():
    referee_after_a_full_game().finish()
    referee_after_a_full_game(doubles=5).finish()  # more than the compulsory doubles is allowed


@pytest.mark.parametrize("made", [0, 1])
def test_referee_finish_refuses_too_few_compulsory_doubles(made):
    ref = referee_after_a_full_game()
    ref.doubles_on[1, 0] = made  # East doubled North fewer than twice
    with pytest.raises(ValueError, match=rf"E doubled declarer N {made} time\(s\), fewer than the 2 compulsory"):
        ref.finish()


def test_referee_finish_refuses_a_declarer_short_of_contracts():
    ref = referee_after_a_full_game()
    ref.used[2].discard(3)  # South named only six contracts
    with pytest.raises(ValueError, match="S declared 6 contracts, not 7"):
        ref.finish()


def test_referee_counts_the_doubles_still_owed():
    ref = referee_after_a_full_game(doubles=0)
    ref.doubles_on[1, 0], ref.doubles_on[2, 0] = 1, 2  # East once, South twice, West never
    assert ref.owed(0) == (1, 0, 2)  # left (East), across (South), right (West)
    ref.doubles_on[3, 0] = 4
    assert ref.owed(0) == (1, 0, 0)  # never below zero
