"""``mc``: a determinized Monte-Carlo player.

At each decision with more than one legal card it samples layouts of the cards it
cannot see, consistent with everything the table has shown (its own hand, every
card played and by whom, every card a seat is known not to hold: a suit not
followed, a trump not played or not overtrumped when the rules demanded it, a
Domino pass), plays each legal card in each layout, finishes the deal with a
rollout player at all four seats (:mod:`barbu_sim.barbu.rollout`), and plays the
card with the best mean own score.  Every candidate card is rolled out on the
same layouts with the same random numbers (common random numbers), so the
comparison between cards carries little sampling noise.

Its randomness is one draw from the deal's play stream per decision, so a deal
with ``mc`` seats is a pure function of ``(seed, deal)`` like any other.

Name and parameters: ``mc``, ``mc:samples=64``, ``mc:samples=200,rollout=basic``
(rollout: ``heuristic``, ``basic`` or ``random``).  The kernels receive them packed
into the seat's strategy id (:func:`mc_id`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..core.bits import highest_bit, lowest_bit, nth_set_bit, popcount
from ..core.rng import next_u64, rand_below, stream_key
from .play_rules import above, below, legal_mask, suit_bits, trick_value
from .endgame import TT_WORDS, new_search, solve_cards, solve_from_trick
from .rollout import rollout_domino, rollout_tricks
from .rules import DOMINO, R_BEST_TOTAL, RULES_ARRAY_SIZE
from .state import (
    S_CARDS_LEFT, S_CONTRACT, S_LEADER, S_N_IN_TRICK, S_NOT_HELD, S_PARAM, S_PLAYED, S_RULES, S_SEAT, S_TRICK,
    S_TRICK_CARDS, S_VOIDS, STATE_SIZE,
)
from .strategy_ids import BASIC, HEURISTIC, RANDOM

U0 = np.uint64(0)
U1 = np.uint64(1)
ALL_CARDS = np.uint64((1 << 52) - 1)
STREAM_MC = np.uint64(0x510E527FADE682D1)  # the layouts and rollouts of one mc decision

MC = 5  # the low four bits of an mc seat's strategy id
DEFAULT_SAMPLES = 64
MAX_SAMPLES = 100_000
DEFAULT_ENDGAME = 3  # tricks left when the decisions are searched exactly (see MCParams)
DEFAULT_TAIL = 2  # tricks left when the rollouts hand over to the exact search
MAX_DEPTH = 5  # a 6-trick search takes tens of milliseconds per layout
ROLLOUTS = {"heuristic": HEURISTIC, "basic": BASIC, "random": RANDOM}

# The explain buffer (``barbu-sim play --explain``): row 0 holds the number of rows
# used; each later row is one decision: seat, card played, cards played before it,
# then each card's mean score from here and its standard error (NaN: not a candidate).
EX_SEAT, EX_CARD, EX_PLAYED, EX_MEAN, EX_SE = 0, 1, 2, 3, 55
EXPLAIN_WIDTH = 107
EXPLAIN_ROWS = 1 + 52

# The mc player's scratch space: the engine allocates it after the state array
# (entries STATE_SIZE on), because the play loops run without reference counting
# and so cannot allocate.  Offsets in uint64 entries; some are viewed as int64 / float64.
W_LAYOUT, W_HANDS, W_ALLOWED, W_CAP, W_SCORES, W_RULES = 0, 4, 8, 12, 16, 20
W_RNG = W_RULES + RULES_ARRAY_SIZE
W_STATE = W_RNG + 1
W_SUMS = W_STATE + STATE_SIZE
W_SQUARES = W_SUMS + 52
W_VALUES = W_SQUARES + 52  # one layout's exact endgame values, per card
W_TT = W_VALUES + 52  # the endgame search's transposition table
MC_WORK_SIZE = W_TT + TT_WORDS


@dataclass(frozen=True)
class MCParams:
    """An mc seat's parameters: layouts per decision, the rollout player, the exact-endgame depths.

    ``endgame``: decisions with at most this many tricks left (the current one included) are
    valued by exact search in each layout (:mod:`barbu_sim.barbu.endgame`) instead of rollouts;
    ``tail``: rollouts from earlier decisions stop when this many tricks are left and the rest
    is searched exactly.  0 turns either off (``pimc`` is ``mc`` with both off).
    """

    samples: int = DEFAULT_SAMPLES
    rollout: str = "heuristic"
    endgame: int = DEFAULT_ENDGAME
    tail: int = DEFAULT_TAIL

    @property
    def sid(self) -> int:
        """The strategy id that carries the parameters to the kernels."""
        return mc_id(self.samples, ROLLOUTS[self.rollout], self.endgame, self.tail)

    def spec(self, name: str = "mc") -> str:
        """The full name with every parameter (``pimc`` shows no depths: they are 0)."""
        text = f"{name}:samples={self.samples},rollout={self.rollout}"
        return text if name == "pimc" else f"{text},endgame={self.endgame},tail={self.tail}"


def mc_id(samples: int = DEFAULT_SAMPLES, rollout: int = HEURISTIC, endgame: int = 0, tail: int = 0) -> int:
    """The strategy id that carries an mc seat's parameters to the kernels."""
    return MC | (rollout << 4) | (samples << 8) | (endgame << 32) | (tail << 36)


def _depth(key: str, value: str) -> int:
    if not value.isdigit() or not 0 <= int(value) <= MAX_DEPTH:
        raise ValueError(f"mc {key} must be a whole number of tricks from 0 to {MAX_DEPTH}, not {value!r}")
    return int(value)


def parse_mc(params: str, name: str = "mc") -> MCParams:
    """The parameters in the text after ``mc:`` (``samples=64,rollout=basic,endgame=3,tail=2``; empty: defaults).

    ``pimc`` (``name``) is the plain determinized player: no exact endgames, and no depth
    parameters.  Raises ValueError naming what is wrong.
    """
    found = {} if name == "mc" else {"endgame": 0, "tail": 0}
    allowed = "samples=N, rollout=" + "|".join(ROLLOUTS) + (", endgame=N, tail=N" if name == "mc" else "")
    for item in filter(None, (p.strip() for p in params.split(","))):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq:
            raise ValueError(f"{name} parameter {item!r} is not NAME=VALUE (e.g. {name}:samples=64,rollout=basic)")
        if key == "samples":
            if not value.isdigit() or not 1 <= int(value) <= MAX_SAMPLES:
                raise ValueError(f"{name} samples must be a whole number from 1 to {MAX_SAMPLES:,}, not {value!r}")
            found[key] = int(value)
        elif key == "rollout":
            if value not in ROLLOUTS:
                raise ValueError(f"{name} rollout must be one of {', '.join(ROLLOUTS)}, not {value!r}")
            found[key] = value
        elif key in ("endgame", "tail") and name == "mc":
            found[key] = _depth(key, value)
        else:
            raise ValueError(f"unknown {name} parameter {key!r}: use {allowed}")
    return MCParams(**found)


# ---------------------------------------------------------------- what the table has shown
@njit(cache=True, _nrt=False)
def infer_not_held(state, seat, card, k, led, restricted_lead, forced, contract, trump, top_trump, rules):
    """Add to ``seat``'s known-not-held cards what its legal play of ``card`` shows.

    A card ``c`` is shown not held when ``card`` would have been illegal from the hand
    ``{card, c}``.  That is sound for Barbu's rules of play: a card legal from a hand is
    legal from every part of that hand that still holds it (following suit, trumping,
    overtrumping, the lead restrictions and the forced discard all have that shape).
    Call it before the card leaves the table's unplayed cards.
    """
    b = U1 << np.uint64(card)
    known = state[S_NOT_HELD + seat]
    candidates = ALL_CARDS & ~state[S_PLAYED] & ~known & ~b
    while candidates:
        c = candidates & (~candidates + U1)
        candidates ^= c
        if not (legal_mask(b | c, k, led, restricted_lead, forced, contract, trump, top_trump, rules) & b):
            known |= c
    state[S_NOT_HELD + seat] = known


@njit(inline="always", cache=True)
def _feasible(rem, allowed, cap):
    """Hall's condition: the cards ``rem`` can still be dealt, each to a seat allowed it, filling every ``cap``."""
    for subset in range(1, 16):
        outside = U0
        room = 0
        for j in range(4):
            if (subset >> j) & 1:
                room += cap[j]
            else:
                outside |= allowed[j]
        if popcount(rem & ~outside) > room:
            return False
    return True


@njit(cache=True, _nrt=False)
def sample_layout(rng, me, hand, state, layout, allowed, cap):
    """Deal the cards ``me`` cannot see to the other seats, consistently with ``state``.

    Each other seat gets as many cards as it holds, none it is known not to hold.
    Cards go one by one, in random order, to a random seat among those allowed it,
    in proportion to the room each has left, never to a seat whose choice would leave
    the rest undealable (Hall's condition).  ``allowed`` and ``cap``: (4,) scratch.
    """
    played = state[S_PLAYED]
    rem = ALL_CARDS & ~played & ~hand
    constrained = False
    for j in range(4):
        layout[j] = U0
        if j == me:
            allowed[j] = U0
            cap[j] = 0
            continue
        voids = U0
        v = state[S_VOIDS + j]
        for s in range(4):
            if (v >> np.uint64(s)) & U1:
                voids |= suit_bits(s)
        allowed[j] = rem & ~voids & ~state[S_NOT_HELD + j]
        cap[j] = np.int64(state[S_CARDS_LEFT + j])
        if allowed[j] != rem and cap[j] > 0:
            constrained = True
    layout[me] = hand
    n = popcount(rem)
    for _ in range(n):
        c = U1 << np.uint64(nth_set_bit(rem, rand_below(rng, popcount(rem))))
        tried = U0
        j = -1
        while True:
            room = 0
            for s in range(4):
                if cap[s] > 0 and (allowed[s] & c) and not ((tried >> np.uint64(s)) & U1):
                    room += cap[s]
            if room == 0:  # every allowed seat would strand a card: cannot happen with sound inference
                break
            r = rand_below(rng, room)
            for s in range(4):
                if cap[s] > 0 and (allowed[s] & c) and not ((tried >> np.uint64(s)) & U1):
                    if r < cap[s]:
                        j = s
                        break
                    r -= cap[s]
            if not constrained:
                break
            cap[j] -= 1
            ok = _feasible(rem & ~c, allowed, cap)
            cap[j] += 1
            if ok:
                break
            tried |= U1 << np.uint64(j)
            j = -1
        if j < 0:  # no consistent seat: give the card to any seat with room
            for s in range(4):
                if cap[s] > 0:
                    j = s
                    break
        cap[j] -= 1
        layout[j] |= c
        rem &= ~c


# ---------------------------------------------------------------- the decision
@njit(cache=True, _nrt=False)
def distinct_cards(legal, hand, state, contract):
    """The legal cards worth rolling out: the lowest of each run of equivalent cards.

    In a trick contract two cards of a suit are equivalent when every card ranked
    between them is the player's own or was played in an earlier trick (none is on the
    table now) and both cost the same to win (a queen is not a jack in No Queens): every
    other card beats both or neither, so either leads to the same deal.  Domino has no
    such runs: every card opens a different way.
    """
    if contract == DOMINO:
        return legal
    rules = state[S_RULES:S_RULES + RULES_ARRAY_SIZE]  # the point values in force (read back as signed)
    trick = U0
    for k in range(np.int64(state[S_N_IN_TRICK])):
        trick |= U1 << state[S_TRICK_CARDS + k]
    settled = hand | (state[S_PLAYED] & ~trick)
    reps = U0
    for s in range(4):
        m = legal & suit_bits(s)
        prev = -1
        while m:
            c = lowest_bit(m)
            m &= m - U1
            if not (prev >= 0 and (above(prev) & below(c) & ~settled) == U0
                    and trick_value(contract, 0, U1 << np.uint64(prev), rules) == trick_value(contract, 0, U1 << np.uint64(c), rules)):
                reps |= U1 << np.uint64(c)
            prev = c
    return reps


@njit(cache=True, _nrt=False)
def mc_estimates(cards, hand, state, work, key, samples, rollout, endgame, tail, sums, squares):
    """Value every card of ``cards`` on ``samples`` layouts; per-card sums and sums of squares of own score.

    A card's value in a layout is the seat's points from here on: by exact search when at
    most ``endgame`` tricks are left, else by a rollout, handed to the exact search when
    ``tail`` tricks are left (0: never).  ``work``: the scratch space (``MC_WORK_SIZE``
    uint64).  ``sums`` / ``squares``: (52,) float64, zeroed by the caller.  Layout ``k`` and
    its rollouts draw from the counter-based stream ``(key, k)``, the same for every card.
    """
    me = np.int64(state[S_SEAT]) & 3
    contract = np.int64(state[S_CONTRACT])
    param = np.int64(state[S_PARAM])
    rules = work[W_RULES:W_RULES + RULES_ARRAY_SIZE].view(np.int64)
    for i in range(RULES_ARRAY_SIZE):
        rules[i] = np.int64(state[S_RULES + i])
    layout = work[W_LAYOUT:W_LAYOUT + 4]
    hands = work[W_HANDS:W_HANDS + 4]
    allowed = work[W_ALLOWED:W_ALLOWED + 4]
    cap = work[W_CAP:W_CAP + 4].view(np.int64)
    scores = work[W_SCORES:W_SCORES + 4].view(np.int64)
    rng = work[W_RNG:W_RNG + 1]
    scratch = work[W_STATE:W_STATE + STATE_SIZE]
    values = work[W_VALUES:W_VALUES + 52].view(np.float64)
    tt = work[W_TT:W_TT + TT_WORDS]
    left = 13 - np.int64(state[S_TRICK])
    exact = contract != DOMINO and left <= endgame
    stop = 13 - tail if contract != DOMINO and 0 < tail < left else 13
    for k in range(samples):
        rng[0] = stream_key(key, np.uint64(k), STREAM_MC)
        sample_layout(rng, me, hand, state, layout, allowed, cap)
        roll = next_u64(rng)
        if exact or stop < 13:
            new_search(tt)
        if exact:
            for j in range(4):
                hands[j] = layout[j]
            solve_cards(hands, state, contract, param, rules, cards, tt, values)
        cands = cards
        while cands:
            card = lowest_bit(cands)
            cands &= cands - U1
            if exact:
                v = values[card]
            else:
                for j in range(4):
                    hands[j] = layout[j]
                    scores[j] = 0
                for i in range(STATE_SIZE):
                    scratch[i] = state[i]
                rng[0] = roll
                if contract == DOMINO:
                    rollout_domino(hands, param, rules, rollout, scratch, rng, card, scores)
                elif rollout_tricks(hands, contract, param, rules, rollout, scratch, rng, card, scores, stop) < 13:
                    t0, t1, t2, t3 = solve_from_trick(hands, stop, np.int64(scratch[S_LEADER]) & 3, contract, param,
                                                      rules, me, tt, values)
                    scores[me] += t0 if me == 0 else (t1 if me == 1 else (t2 if me == 2 else t3))
                v = np.float64(scores[me])
            sums[card] += v
            squares[card] += v * v


@njit(cache=True, _nrt=False)
def mc_choose(sid, legal, hand, state, rng, explain):
    """The card an mc seat (strategy id ``sid``, see :func:`mc_id`) plays.

    With one legal card, or only equivalent ones (:func:`distinct_cards`), the lowest
    (no sampling).  Otherwise the card with the best mean own score over the rollouts
    of the distinct cards; ties go to the lowest card.  ``state`` must be
    followed by ``MC_WORK_SIZE`` entries of scratch space.  When ``explain`` has rows,
    the decision is written to it (see ``EX_*``).
    """
    if popcount(legal) == 1:
        return lowest_bit(legal)
    reps = distinct_cards(legal, hand, state, np.int64(state[S_CONTRACT]))
    if popcount(reps) == 1:  # every legal card leads to the same deal
        return lowest_bit(legal)
    samples = (sid >> 8) & 0xFFFFFF
    rollout = (sid >> 4) & 15
    endgame = (sid >> 32) & 15
    tail = (sid >> 36) & 15
    key = next_u64(rng)
    work = state[STATE_SIZE:STATE_SIZE + MC_WORK_SIZE]
    sums = work[W_SUMS:W_SUMS + 52].view(np.float64)
    squares = work[W_SQUARES:W_SQUARES + 52].view(np.float64)
    for c in range(52):
        sums[c] = 0.0
        squares[c] = 0.0
    mc_estimates(reps, hand, state, work, key, samples, rollout, endgame, tail, sums, squares)
    best, best_sum = -1, -np.inf
    sign = -1.0 if state[S_RULES + R_BEST_TOTAL] == U1 else 1.0  # best-total=lowest: the lowest mean is best
    cands = reps
    while cands:
        card = lowest_bit(cands)
        cands &= cands - U1
        if sign * sums[card] > best_sum:
            best, best_sum = card, sign * sums[card]
    others = legal & ~reps  # each takes the estimate of the lowest card of its run
    while others:
        card = lowest_bit(others)
        others &= others - U1
        r = highest_bit(reps & below(card))
        sums[card] = sums[r]
        squares[card] = squares[r]
    if explain.shape[0] > 0:
        row = np.int64(explain[0, 0]) + 1
        if row < explain.shape[0]:
            explain[0, 0] = row
            explain[row, EX_SEAT] = np.float64(state[S_SEAT])
            explain[row, EX_CARD] = best
            explain[row, EX_PLAYED] = popcount(state[S_PLAYED])
            for c in range(52):
                explain[row, EX_MEAN + c] = np.nan
                explain[row, EX_SE + c] = np.nan
                if (legal >> np.uint64(c)) & U1:
                    mean = sums[c] / samples
                    var = squares[c] / samples - mean * mean
                    explain[row, EX_MEAN + c] = mean
                    explain[row, EX_SE + c] = np.sqrt(max(var, 0.0) / max(samples - 1, 1))
    return best
