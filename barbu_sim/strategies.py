"""Play strategies: the built-in ``random`` and ``heuristic``, the registry, user plugins.

A strategy is an ``@njit`` function ``(legal, hand, state, rng) -> card``; see
:mod:`barbu_sim.layout` for what ``state`` holds.  The engine calls built-ins
through a small-int switch (inlined, fast) and user strategies through a
first-class function pointer, so any user file works without changing the
package::

    # my_strategy.py
    from numba import njit
    from barbu_sim.bits import highest_bit

    @njit
    def play_high(legal, hand, state, rng):
        return highest_bit(legal)

    $ barbu-sim play --contract trumps --strategy my_strategy.py:play_high
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from .bits import highest_bit, lowest_bit, nth_set_bit, popcount
from .cards import (
    ACE_OF_HEARTS as _AH, HEARTS_MASK as _HEARTS_MASK, KING_OF_HEARTS as _KH, QUEENS as _QUEENS, SUIT_LANE as LANE,
)
from .layout import (
    S_CONTRACT, S_DECLARER, S_N_IN_TRICK, S_PARAM, S_PLAYED, S_SEAT, S_TRICK, S_WIN_CARD,
)
from .rng import rand_below
from .rules import (
    BARBU as _BARBU, DOMINO as _DOMINO, NO_HEARTS as _NO_HEARTS, NO_LAST_TWO as _NO_LAST_TWO,
    NO_QUEENS as _NO_QUEENS, TRUMPS as _TRUMPS,
)

U1 = np.uint64(1)


# ---------------------------------------------------------------- helpers
@njit(inline="always", cache=True)
def lane(mask, suit):
    """The 13-bit lane of ``suit`` in ``mask``, shifted down to bits 0..12."""
    return (mask >> np.uint64(13 * suit)) & LANE


@njit(inline="always", cache=True)
def suit_bits(suit):
    """The mask of all 13 cards of ``suit``."""
    return LANE << np.uint64(13 * suit)


@njit(inline="always", cache=True)
def highest_rank_card(mask, hand):
    """The card of highest rank in ``mask``; ties go to the suit shortest in ``hand``."""
    best, best_rank, best_len = -1, -1, 99
    for s in range(4):
        ln = lane(mask, s)
        if ln:
            r = highest_bit(ln)
            n = popcount(lane(hand, s))
            if r > best_rank or (r == best_rank and n < best_len):
                best, best_rank, best_len = 13 * s + r, r, n
    return best


@njit(inline="always", cache=True)
def lowest_rank_card(mask, hand):
    """The card of lowest rank in ``mask``; ties go to the suit shortest in ``hand``."""
    best, best_rank, best_len = -1, 99, 99
    for s in range(4):
        ln = lane(mask, s)
        if ln:
            r = lowest_bit(ln)
            n = popcount(lane(hand, s))
            if r < best_rank or (r == best_rank and n < best_len):
                best, best_rank, best_len = 13 * s + r, r, n
    return best


@njit(inline="always", cache=True)
def below(card):
    """Mask of the cards of ``card``'s suit ranked below it."""
    s = card // 13
    return ((U1 << np.uint64(card)) - U1) & suit_bits(s)


@njit(inline="always", cache=True)
def above(card):
    """Mask of the cards of ``card``'s suit ranked above it."""
    s = card // 13
    return ~((U1 << np.uint64(card + 1)) - U1) & suit_bits(s)


# ---------------------------------------------------------------- random
@njit(inline="always", cache=True)
def random_strategy(legal, hand, state, rng):
    """Uniformly random among the legal cards."""
    return nth_set_bit(legal, rand_below(rng, popcount(legal)))


# ---------------------------------------------------------------- heuristic
@njit(inline="always", cache=True)
def _penalty_cards(contract):
    """Cards it costs to win in a negative contract (the ones to avoid winning)."""
    if contract == _NO_QUEENS:
        return _QUEENS
    if contract == _NO_HEARTS:
        return _HEARTS_MASK
    if contract == _BARBU:
        return U1 << np.uint64(_KH)
    return np.uint64(0)


@njit(inline="always", cache=True)
def _negative_discard(legal, hand, contract, played):
    """Void in the led suit: shed the most dangerous card."""
    if contract == _BARBU:
        if legal & (U1 << np.uint64(_KH)):
            return _KH
        hearts_high = legal & _HEARTS_MASK & above(_KH - 1)  # A♥ can be forced to take K♥
        if hearts_high:
            return highest_bit(hearts_high)
    elif contract == _NO_HEARTS:
        if legal & (U1 << np.uint64(_AH)):
            return _AH
        h = legal & _HEARTS_MASK
        if h:
            return highest_bit(h)
    elif contract == _NO_QUEENS:
        q = legal & _QUEENS
        if q:
            return lowest_bit(q)
        # A or K of a suit whose queen is still out can be forced to take it.
        danger = np.uint64(0)
        for s in range(4):
            queen = 13 * s + 10
            if not ((played | hand) >> np.uint64(queen)) & U1:
                danger |= legal & above(queen)
        if danger:
            return highest_rank_card(danger, hand)
    return highest_rank_card(legal, hand)


@njit(inline="always", cache=True)
def _negative(legal, hand, state):
    contract = np.int64(state[S_CONTRACT])
    n_in = np.int64(state[S_N_IN_TRICK])
    played = state[S_PLAYED]
    if contract == _NO_LAST_TWO and np.int64(state[S_TRICK]) < 11:
        # Tricks 1-11 cost nothing: spend the high cards now, keep the low ones for the end.
        return highest_rank_card(legal, hand)
    if n_in == 0:
        # Lead low, from a short suit when it has a low card.
        best, best_len = -1, 99
        for s in range(4):
            ln = lane(legal, s)
            if ln and lowest_bit(ln) <= 6:
                n = popcount(lane(hand, s))
                if n < best_len:
                    best, best_len = 13 * s + lowest_bit(ln), n
        return best if best >= 0 else lowest_rank_card(legal, hand)
    win = np.int64(state[S_WIN_CARD])
    led = win // 13  # no trumps: the winning card is of the led suit
    if lane(legal, led) == np.uint64(0) or (legal & ~suit_bits(led)):
        return _negative_discard(legal, hand, contract, played)
    ducks = legal & below(win)
    if ducks:
        return highest_bit(ducks)  # the highest card that still loses
    # Every card wins for now: avoid the penalty cards; last to play, dump the highest.
    safe = legal & ~_penalty_cards(contract)
    pool = safe if safe else legal
    return highest_bit(pool) if n_in == 3 else lowest_bit(pool)


@njit(inline="always", cache=True)
def _is_master(card, hand, played):
    """True when no card outside ``hand`` and not yet played beats ``card`` in its suit."""
    return (above(card) & ~hand & ~played) == np.uint64(0)


@njit(inline="always", cache=True)
def _trumps(legal, hand, state):
    trump = np.int64(state[S_PARAM])
    tmask = suit_bits(trump)
    played = state[S_PLAYED]
    outside = ~hand & ~played  # cards held by the other seats
    n_in = np.int64(state[S_N_IN_TRICK])
    if n_in == 0:
        my_trumps = legal & tmask
        if my_trumps and (outside & tmask):
            top = highest_bit(my_trumps)
            declarer = state[S_DECLARER] == state[S_SEAT]
            if _is_master(top, hand, played) or (declarer and popcount(my_trumps) >= 4):
                return top  # draw trumps
        for s in range(4):  # cash a side-suit winner
            ln = lane(legal, s)
            if s != trump and ln:
                top = 13 * s + highest_bit(ln)
                if _is_master(top, hand, played):
                    return top
        side = legal & ~tmask
        if side:  # lead low from the shortest side suit, to ruff it later
            best, best_len = -1, 99
            for s in range(4):
                ln = lane(side, s)
                if ln:
                    n = popcount(ln)
                    if n < best_len:
                        best, best_len = 13 * s + lowest_bit(ln), n
            return best
        return lowest_bit(legal)
    win = np.int64(state[S_WIN_CARD])
    led = np.int64(state[7]) // 13  # S_TRICK_CARDS: the first card of the trick
    following = (legal & ~suit_bits(led)) == np.uint64(0)
    if following:
        if win // 13 != led:  # already ruffed
            return lowest_bit(legal)
        winners = legal & above(win)
        if winners:
            if n_in == 3:
                return lowest_bit(winners)
            top = highest_bit(winners)
            if _is_master(top, hand, played):
                return top
        return lowest_bit(legal)
    my_trumps = legal & tmask
    if my_trumps:
        if win // 13 == trump:
            over = my_trumps & above(win)
            if over:
                return lowest_bit(over)
            rest = legal & ~tmask
            if rest:
                return lowest_rank_card(rest, hand)
            return lowest_bit(my_trumps)
        return lowest_bit(my_trumps)  # ruff as cheaply as possible
    return lowest_rank_card(legal, hand)


@njit(inline="always", cache=True)
def _domino(legal, hand, state):
    start = np.int64(state[S_PARAM])
    played = state[S_PLAYED]
    best, best_score = -1, -1000
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - U1
        s, r = c // 13, c % 13
        if r == start:
            beyond = suit_bits(s) & ~(U1 << np.uint64(c))
            nxt = np.uint64(0)
            if r > 0:
                nxt |= U1 << np.uint64(c - 1)
            if r < 12:
                nxt |= U1 << np.uint64(c + 1)
        elif r > start:
            beyond = above(c)
            nxt = (U1 << np.uint64(c + 1)) if r < 12 else np.uint64(0)
        else:
            beyond = below(c)
            nxt = (U1 << np.uint64(c - 1)) if r > 0 else np.uint64(0)
        mine = popcount(beyond & hand)
        theirs = popcount(beyond & ~hand & ~played)
        # Release runs that help me, hold back cards that unblock the others.
        score = 4 * (mine - theirs) + 2 * popcount(nxt & hand) - popcount(nxt & ~hand)
        if score > best_score:
            best, best_score = c, score
    return best


@njit(inline="always", cache=True)
def heuristic_tricks(legal, hand, state, rng):
    """The heuristic's trick-contract half (the engine's trick loop inlines only this)."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    if np.int64(state[S_CONTRACT]) == _TRUMPS:
        return _trumps(legal, hand, state)
    return _negative(legal, hand, state)


@njit(inline="always", cache=True)
def heuristic_domino(legal, hand, state, rng):
    """The heuristic's Domino half (the engine's Domino loop inlines only this)."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    return _domino(legal, hand, state)


@njit(inline="always", cache=True)
def heuristic_strategy(legal, hand, state, rng):
    """A rule-based club player, one rule set per contract.

    - Negative contracts: lead low from a short suit; follow with the highest
      card that still loses (duck), and if every card wins, avoid the penalty
      cards; void, shed the most dangerous card (K♥, A♥ and high hearts,
      queens and the A/K guarding an unplayed queen, else the highest card).
      No Last Two: spend high cards on tricks 1-11, then play as No Tricks.
    - Trumps: draw trumps with a master (the declarer with 4+ trumps draws
      anyway), cash side-suit masters, lead low from short side suits to
      ruff later; follow with the cheapest winner when last, a master
      otherwise, else low; void, ruff or over-ruff as cheaply as possible.
    - Domino: play the card whose column unlocks more of my own cards than
      of the others' (4 points per card), preferring one whose next card I
      hold (run) and avoiding one that opens a card for someone else.
    """
    if np.int64(state[S_CONTRACT]) == _DOMINO:
        return heuristic_domino(legal, hand, state, rng)
    return heuristic_tricks(legal, hand, state, rng)


@njit(inline="always", cache=True)
def lowest_strategy(legal, hand, state, rng):
    """Always the lowest legal card index: a fixed, trivially predictable player (for tests)."""
    return lowest_bit(legal)


# ---------------------------------------------------------------- registry
RANDOM, HEURISTIC, LOWEST, USER = 0, 1, 2, 3


@dataclass(frozen=True)
class Strategy:
    """A strategy as the engine takes it: a name, a built-in id, and the njit function."""

    name: str
    builtin_id: int
    func: object


BUILTINS: dict[str, Strategy] = {
    "random": Strategy("random", RANDOM, random_strategy),
    "heuristic": Strategy("heuristic", HEURISTIC, heuristic_strategy),
    "lowest": Strategy("lowest", LOWEST, lowest_strategy),
}


def _load_module_from_path(path: Path):
    if not path.is_file():
        raise ValueError(f"strategy file {path} does not exist")
    name = f"barbu_user_{path.stem}_{abs(hash(str(path.resolve())))}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot load strategy file {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # the user's file failed: say so in one line
        del sys.modules[name]
        raise ValueError(f"strategy file {path} failed to load: {type(e).__name__}: {e}") from None
    return module


def resolve_strategy(spec) -> Strategy:
    """A :class:`Strategy` from a built-in name, ``path/to/file.py:func``, ``module:func`` or an njit function."""
    if isinstance(spec, Strategy):
        return spec
    if not isinstance(spec, str):
        if not hasattr(spec, "py_func"):
            raise ValueError(f"strategy {spec!r} is not an @njit function")
        return Strategy(getattr(spec, "__name__", "user"), USER, spec)
    name = spec.strip()
    if name in BUILTINS:
        return BUILTINS[name]
    if ":" not in name:
        raise ValueError(
            f"unknown strategy {spec!r}: use one of {', '.join(BUILTINS)}, "
            "path/to/file.py:function or module:function"
        )
    where, func_name = name.rsplit(":", 1)
    if where.endswith(".py"):
        module = _load_module_from_path(Path(where))
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as e:
            raise ValueError(f"cannot import strategy module {where!r}: {e}") from None
    func = getattr(module, func_name, None)
    if func is None:
        raise ValueError(f"strategy {spec!r}: {where} has no function {func_name!r}")
    if not hasattr(func, "py_func"):
        raise ValueError(f"strategy {spec!r} must be decorated with numba's @njit")
    return Strategy(name, USER, func)
