"""Bidding policies: who accepts the turned suit in round one, who names which suit in round two.

Built-in policies, given on the command line as text:

- ``accept-first``: the first player to speak accepts in round one (so every round is played
  with the turned suit as trump, by the dealer's left-hand opponent's team: results are
  checkable against known figures).  In round two (never reached) it names its lowest held suit.
- ``random``: round one, play with probability 1/2; round two, uniformly one of "pass" and each
  suit it may name.
- ``threshold[:X]`` (default X = 60): the hand-strength score of a candidate trump suit is the
  trump card points held (J 20, 9 14, A 11, 10 10, K 4, Q 3) + 10 per trump held + 10 per ace
  of another suit.  Round one: play when the turned suit's score reaches X; round two: name the
  suit with the highest score (ties: the lower suit, C < D < H < S) when it reaches X.
- ``mc[:samples]`` (default 64): accept when the Monte-Carlo expected round score as makers beats
  passing, on ``samples`` deals of the unseen cards (see :mod:`barbu_sim.clabber.engine.mc_bidding`).
"""

from __future__ import annotations

import numpy as np
from ...core.jit import njit

from ...core.bits import popcount
from ...core.rng import rand_below
from ..rules.melds import lane6
from ..rules.play_rules import suit_bits
from ..rules.config import ACE, TRUMP_POINTS

ACCEPT_FIRST, RANDOM, THRESHOLD, MC = 0, 1, 2, 3  # the kernels' policy ids
POLICIES = ("accept-first", "random", "threshold", "mc")
DEFAULT_THRESHOLD = 60
DEFAULT_MC_SAMPLES = 64
ACES = np.uint64(sum(1 << (s * 13 + ACE) for s in range(4)))


def _lane_strength() -> np.ndarray:
    out = np.zeros(64, np.int64)
    for lane in range(64):
        out[lane] = sum(int(TRUMP_POINTS[7 + b]) + 10 for b in range(6) if lane >> b & 1)
    return out


LANE_STRENGTH = _lane_strength()


def parse_bidding(spec: str) -> tuple[int, int]:
    """``(policy id, parameter)`` of a policy spec: ``accept-first``, ``random``, ``threshold[:X]``, ``mc[:N]``.

    >>> parse_bidding("threshold:75"), parse_bidding("accept-first")
    ((2, 75), (0, 0))
    """
    name, _, arg = spec.strip().lower().partition(":")
    if name not in POLICIES:
        raise ValueError(f"unknown bidding policy {spec!r}: use accept-first, random, threshold[:X] or mc[:samples]")
    pid = POLICIES.index(name)
    if pid in (ACCEPT_FIRST, RANDOM):
        if arg:
            raise ValueError(f"bidding policy {name} takes no parameter (got {spec!r})")
        return pid, 0
    if not arg:
        return pid, DEFAULT_THRESHOLD if pid == THRESHOLD else DEFAULT_MC_SAMPLES
    try:
        value = int(arg)
    except ValueError:
        raise ValueError(f"bidding policy {spec!r}: {arg!r} is not an integer") from None
    if pid == MC and not 1 <= value <= 100_000:
        raise ValueError(f"bidding policy {spec!r}: samples must be 1..100000")
    if pid == THRESHOLD and not 0 <= value <= 1000:
        raise ValueError(f"bidding policy {spec!r}: the threshold must be 0..1000")
    return pid, value


@njit(inline="always", cache=True)
def hand_strength(hand, suit):
    """The ``threshold`` score of ``hand`` with ``suit`` as trumps (see the module docstring)."""
    return LANE_STRENGTH[lane6(hand, suit)] + 10 * popcount(hand & ACES & ~suit_bits(suit))


@njit(inline="always", cache=True)
def accepts(policy, param, hand, suit, rng):
    """Round one: does a player with ``hand`` say "play" to the turned ``suit``?"""
    if policy == ACCEPT_FIRST:
        return True
    if policy == RANDOM:
        return rand_below(rng, 2) == 1
    return hand_strength(hand, suit) >= param


@njit(inline="always", cache=True)
def names(policy, param, hand, turned_suit, rng):
    """Round two: the suit a player names (held, not the turned one), or -1 to pass."""
    n_allowed = 0
    for s in range(4):
        if s != turned_suit and hand & suit_bits(s):
            n_allowed += 1
    if n_allowed == 0:
        return -1
    if policy == RANDOM:
        k = rand_below(rng, n_allowed + 1)
        if k == 0:
            return -1
        for s in range(4):
            if s != turned_suit and hand & suit_bits(s):
                k -= 1
                if k == 0:
                    return s
    best, best_score = -1, -1
    for s in range(4):
        if s != turned_suit and hand & suit_bits(s):
            if policy == ACCEPT_FIRST:
                return s
            score = hand_strength(hand, s)
            if score > best_score:
                best, best_score = s, score
    return best if best_score >= param else -1
