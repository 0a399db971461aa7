"""A slow, readable statement of the settlement model the declarer's block DP plans with.

It restates :func:`barbu_sim.barbu.game.settled.hand_outcome` from the rules
(docs/rules.md, "Doubling"), one sample hand and one way the doubles fall at a
time, without sharing its arithmetic:

- each opponent, in turn left, across, right, doubles the declarer with certainty
  when it owes as many compulsory doubles as hands are left in the block, and
  otherwise at its policy's ``double_rate``;
- the declarer redoubles a doubler when its policy's ``predict_redouble`` says so
  for the declarer's own expected gain over that doubler;
- a doubled pair settles ``|a - b|`` to the higher raw score, a redoubled one
  ``2 |a - b|``; the declarer's hand value is its raw score plus its settlements;
- a double on the declarer pays off one owed double (never below zero).

:func:`hand_outcome` returns the expected value per sample hand and the
probabilities of the next owed-doubles state as a dict ``{(left, across, right): p}``.
:func:`block_value` is the best expected settled total of a block by recursion
over the hands, on top of it.
"""

from functools import lru_cache
from itertools import product


def pair_settlement(mine: float, theirs: float, multiplier: int) -> float:
    """What a player gains from one pair's settlement: the difference times the multiplier, to the
    higher scorer, and the same lost by the lower one."""
    if multiplier == 0 or mine == theirs:
        return 0.0
    amount = multiplier * abs(mine - theirs)
    return amount if mine > theirs else -amount


def hands_left(subset: int) -> int:
    return sum(1 for c in range(7) if subset >> c & 1)


def double_probabilities(contract, subset, owed, opponents):
    """Each opponent's probability of doubling the declarer in this hand (left, across, right)."""
    k = hands_left(subset)
    probs = []
    for policy, still_owed in zip(opponents, owed):
        if still_owed >= k:  # the rules force the double
            probs.append(1.0)
        else:
            probs.append(float(policy.double_rate(contract, subset, still_owed)))
    return probs


def hand_outcome(e, contract, subset, owed, opponents, own):
    """``(values, next_owed)``: the declarer's expected settled score for each sample hand in ``e``
    (rows of four expected raw scores: declarer, left, across, right) and ``{next owed triple: p}``."""
    probs = double_probabilities(contract, subset, owed, opponents)
    values = []
    for row in e:
        declarer = float(row[0])
        expected = 0.0
        for doubled in product((False, True), repeat=3):
            weight = 1.0
            settled = declarer
            for i in range(3):
                weight *= probs[i] if doubled[i] else 1.0 - probs[i]
                if doubled[i]:
                    opponent = float(row[i + 1])
                    redoubles = bool(own.predict_redouble([declarer - opponent])[0])
                    settled += pair_settlement(declarer, opponent, 2 if redoubles else 1)
            expected += weight * settled
        values.append(expected)
    next_owed = {}
    for doubled in product((False, True), repeat=3):
        weight = 1.0
        for i in range(3):
            weight *= probs[i] if doubled[i] else 1.0 - probs[i]
        if weight == 0:
            continue
        after = tuple(max(owed[i] - 1, 0) if doubled[i] else owed[i] for i in range(3))
        next_owed[after] = next_owed.get(after, 0.0) + weight
    return values, next_owed


def block_value(seat_values, subset, owed, opponents, own):
    """The declarer's best expected settled total over the contracts ``subset`` left, owing ``owed``:
    at each hand every sample hand is equally likely, and the declarer, seeing it, names the contract
    with the best value plus expected future."""
    n = len(seat_values)

    @lru_cache(maxsize=None)
    def best(subset, owed):
        if subset == 0:
            return 0.0
        total = 0.0
        for h in range(n):
            choices = []
            for c in range(7):
                if subset >> c & 1:
                    values, nexts = hand_outcome([seat_values[h][c]], c, subset, owed, opponents, own)
                    rest = subset & ~(1 << c)
                    choices.append(values[0] + sum(p * best(rest, o) for o, p in nexts.items()))
            total += max(choices)
        return total / n

    return best(subset, tuple(owed))
