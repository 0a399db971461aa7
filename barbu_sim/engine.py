"""The numba play engine: one deal with a full record, or a parallel batch of deals.

Kernel/wrapper pairs: :func:`play_deal` and :func:`play_batch` validate and
preallocate; the private ``@njit`` kernels ``_play_one`` / ``_play_batch`` take
and return only arrays and scalars.  The public kernels carry explicit
signatures with a first-class function type for user strategies, so they are
compiled once and cached on disk (``cache=True``) whatever strategies a run uses.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
from numba import cfunc, get_num_threads, njit, prange, types
from numba.core.errors import NumbaExperimentalFeatureWarning

from .atomic import claim
from .bits import highest_bit, lowest_bit, popcount
from .cards import ACE_OF_HEARTS_BIT as AH_BIT
from .cards import HEARTS_MASK, N_SEATS, QUEENS, deal_around_into, deal_into, format_card, random_deal, verify_deal
from .cards import KING_OF_HEARTS_BIT as KH_BIT
from .cards import SUIT_LANE as LANE
from .layout import (
    S_CARDS_LEFT, S_CONTRACT, S_DECLARER, S_DOMINO_HIGH, S_DOMINO_LOW, S_LEADER, S_N_IN_TRICK,
    S_PARAM, S_PLAYED, S_RULES, S_SEAT, S_TRICK, S_TRICK_CARDS, S_TRICKS_WON, S_VOIDS, S_WIN_CARD,
    S_WIN_SEAT, S_WON, STATE_SIZE,
)
from .rules import (
    BARBU, CONTRACTS, DOMINO, NO_HEARTS, NO_LAST_TWO, NO_QUEENS, NO_TRICKS, R_BARBU_FORCED_DISCARD,
    R_BARBU_HEART_LEAD, R_DOMINO_PAYOUT, R_TRUMPS_OVERTRUMP, R_TRUMPS_VOID, RULES_ARRAY_SIZE, TRUMPS,
    Rules, parse_contract,
)
from .rng import STREAM_PLAY, stream_key
from .strategies import (
    HEURISTIC, LOWEST, RANDOM, USER, Strategy, heuristic_domino, heuristic_tricks, lowest_strategy,
    random_strategy, resolve_strategy,
)

# User strategies travel as first-class function pointers, an experimental numba feature
# that works as documented; the warning would only confuse users.
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

U0 = np.uint64(0)
U1 = np.uint64(1)

MAX_ACTIONS = 256  # Domino: at most 52 plays and, per play, 3 passes
PASS = -1

STRATEGY_SIG = types.int64(types.uint64, types.uint64, types.uint64[::1], types.uint64[::1])
STRATEGY_FN = types.FunctionType(STRATEGY_SIG)
USER_FNS = types.UniTuple(STRATEGY_FN, 4)


class IllegalPlayError(ValueError):
    """A strategy returned a card it may not play."""


# ---------------------------------------------------------------- rules as small functions
@njit(inline="always", cache=True)
def suit_bits(suit):
    return LANE << np.uint64(13 * suit)


@njit(inline="always", cache=True)
def above(card):
    """Cards of ``card``'s suit ranked above it."""
    return ~((U1 << np.uint64(card + 1)) - U1) & suit_bits(card // 13)


@njit(inline="always", cache=True)
def lead_restriction(contract, rules):
    """Cards a leader may lead only when holding nothing else.

    Hearts in No Hearts (and in Barbu under the heart-lead option), K♥ in Barbu.
    """
    if contract == NO_HEARTS or (contract == BARBU and rules[R_BARBU_HEART_LEAD] == 1):
        return HEARTS_MASK
    if contract == BARBU:
        return KH_BIT
    return U0


@njit(inline="always", cache=True)
def forced_discard(contract, rules):
    """Cards a player void in the led suit must discard if held: K♥ under Barbu's forced-discard option."""
    if contract == BARBU and rules[R_BARBU_FORCED_DISCARD] == 1:
        return KH_BIT
    return U0


@njit(inline="always", cache=True)
def legal_mask(hand, n_in_trick, led, restricted_lead, forced, contract, trump, top_trump, rules):
    """The cards ``hand`` may play to a trick (trick contracts).

    ``led``: the led suit (ignored when leading); ``restricted_lead`` and ``forced``:
    the contract's :func:`lead_restriction` and :func:`forced_discard` masks, worked
    out once per deal so that the per-card test does not branch on the contract;
    ``trump``: the trump suit (Trumps only); ``top_trump``: the highest trump in the
    trick so far, -1 if none.
    """
    if n_in_trick == 0:
        others = hand & ~restricted_lead
        return others if others else hand
    follow = hand & suit_bits(led)
    if contract == TRUMPS:
        overtrump = rules[R_TRUMPS_OVERTRUMP] == 1
        if follow:
            if overtrump and led == trump and top_trump >= 0:
                higher = follow & above(top_trump)
                if higher:
                    return higher
            return follow
        my_trumps = hand & suit_bits(trump)
        if my_trumps == U0:
            return hand
        allowed = my_trumps
        if overtrump and top_trump >= 0:
            higher = my_trumps & above(top_trump)
            if higher:
                allowed = higher
        if rules[R_TRUMPS_VOID] == 0:
            return allowed
        return (hand & ~suit_bits(trump)) | allowed
    if follow:
        return follow
    must = hand & forced
    return must if must else hand


@njit(inline="always", cache=True)
def trick_points(contract, trick_no, trick):
    """Raw points (<= 0, or +5 in Trumps) for winning trick ``trick_no`` (0-based) holding ``trick``."""
    if contract == NO_TRICKS:
        return -2
    if contract == NO_QUEENS:
        return -6 * popcount(trick & QUEENS)
    if contract == NO_LAST_TWO:
        return -10 if trick_no == 11 else (-20 if trick_no == 12 else 0)
    if contract == NO_HEARTS:
        p = -2 * popcount(trick & HEARTS_MASK)
        return p - 4 if trick & AH_BIT else p
    if contract == BARBU:
        return -20 if trick & KH_BIT else 0
    return 5


@njit(inline="always", cache=True)
def hand_over(contract, played):
    """True when no penalty card is left to win, so the rest cannot change a score."""
    if contract == NO_QUEENS:
        return (played & QUEENS) == QUEENS
    if contract == NO_HEARTS:
        return (played & HEARTS_MASK) == HEARTS_MASK
    if contract == BARBU:
        return (played & KH_BIT) != U0
    return False


TRUMP_LONGEST = -1  # trump choice policy: the declarer's longest suit
TRUMP_STRONGEST = -2  # the suit with the best length and honours
DOMINO_MOST_HELD = -1  # domino choice policy: the rank the declarer holds most of
PARAM_POLICIES = {TRUMPS: {"longest": TRUMP_LONGEST, "strongest": TRUMP_STRONGEST},
                  DOMINO: {"most-held": DOMINO_MOST_HELD}}


@njit(cache=True)
def resolve_param(contract, param, hand):
    """The trump suit / starting rank a declarer holding ``hand`` names under ``param``.

    ``param >= 0`` is a fixed choice.  Trumps: ``-1`` longest suit; ``-2`` the suit
    with the most ``2 * length + honour points`` (A 4, K 3, Q 2, J 1).  Domino:
    ``-1`` the rank the declarer holds most of, ties to the rank nearest 7.
    Ties between suits go to the higher suit.
    """
    if param >= 0 or (contract != TRUMPS and contract != DOMINO):
        return param if param >= 0 else 0
    if contract == TRUMPS:
        best, best_value = 3, -1
        for s in range(3, -1, -1):
            ln = (hand >> np.uint64(13 * s)) & LANE
            value = popcount(ln)
            if param == TRUMP_STRONGEST:
                value = 2 * value + 4 * np.int64((ln >> np.uint64(12)) & U1) + 3 * np.int64((ln >> np.uint64(11)) & U1) \
                    + 2 * np.int64((ln >> np.uint64(10)) & U1) + np.int64((ln >> np.uint64(9)) & U1)
            if value > best_value:
                best, best_value = s, value
        return best
    best, best_count, best_dist = 5, -1, 99
    for r in range(13):
        count = 0
        for s in range(4):
            count += np.int64((hand >> np.uint64(13 * s + r)) & U1)
        dist = abs(r - 5)
        if count > best_count or (count == best_count and dist < best_dist):
            best, best_count, best_dist = r, count, dist
    return best


@njit(inline="always", cache=True)
def _choose(sid, seat, legal, hand, state, rng, user_fns, domino):
    # Each loop inlines only its own half of the heuristic: smaller loops run faster.
    if sid == HEURISTIC:
        if domino:
            return heuristic_domino(legal, hand, state, rng)
        return heuristic_tricks(legal, hand, state, rng)
    if sid == RANDOM:
        return random_strategy(legal, hand, state, rng)
    if sid == LOWEST:
        return lowest_strategy(legal, hand, state, rng)
    return user_fns[seat](legal, hand, state, rng)


@njit(inline="always", cache=True)
def _illegal(seat, card):
    c = card if 0 <= card < 52 else 52
    return -(1 + seat + 4 * c)


@njit(cache=True)
def _new_state(rules):
    """A zeroed strategy state array holding ``rules``.

    A batch has one rule set, so the rules are copied once per state array here,
    and :func:`_reset_state` leaves them in place between deals.
    """
    state = np.zeros(STATE_SIZE, np.uint64)
    for i in range(RULES_ARRAY_SIZE):
        state[S_RULES + i] = np.uint64(rules[i])
    return state


@njit(cache=True, _nrt=False)
def _reset_state(state, contract, param, declarer):
    """Clear what a deal changes (every field before ``S_RULES``) and set the deal's own fields."""
    for i in range(S_RULES):
        state[i] = U0
    state[S_CONTRACT] = contract
    state[S_PARAM] = param
    state[S_DECLARER] = declarer
    for s in range(4):
        state[S_CARDS_LEFT + s] = 13
        state[S_DOMINO_LOW + s] = 13
        state[S_DOMINO_HIGH + s] = 13


@njit(cache=True, _nrt=False)
def _play_tricks(hands, contract, trump, declarer, rules, strat_ids, user_fns, state, rng,
                 scores, tricks, record, rec_seat, rec_card, rec_winner):
    """Play the tricks of a trick contract; returns actions recorded, or a negative error code."""
    played = U0
    # Seats are masked with & 3 so that the compiler knows them non-negative and
    # drops the negative-index wraparound on every array access.
    leader = declarer & 3
    n_act = 0
    restricted_lead = lead_restriction(contract, rules)
    forced = forced_discard(contract, rules)
    for t in range(13):
        state[S_TRICK] = t
        state[S_LEADER] = leader
        for k in range(4):
            state[S_TRICK_CARDS + k] = U0
        seat = leader
        trick = U0
        led = -1
        win_card = -1
        win_seat = leader
        win_suit = -1
        top_trump = -1
        for k in range(4):
            hand = hands[seat]
            legal = legal_mask(hand, k, led, restricted_lead, forced, contract, trump, top_trump, rules)
            state[S_N_IN_TRICK] = k
            state[S_SEAT] = seat
            card = _choose(strat_ids[seat], seat, legal, hand, state, rng, user_fns, False)
            if card < 0 or card >= 52 or not ((legal >> np.uint64(card)) & U1):
                return _illegal(seat, card)
            b = U1 << np.uint64(card)
            hands[seat] = hand ^ b
            trick |= b
            played |= b
            suit = card // 13
            if k == 0:
                led = suit
                win_card, win_seat, win_suit = card, seat, suit
            elif suit == win_suit:
                if card > win_card:
                    win_card, win_seat = card, seat
            elif contract == TRUMPS and suit == trump:
                win_card, win_seat, win_suit = card, seat, suit
            if contract == TRUMPS and suit == trump and card > top_trump:
                top_trump = card
            if suit != led:
                state[S_VOIDS + seat] |= U1 << np.uint64(led)
            state[S_TRICK_CARDS + k] = card
            state[S_PLAYED] = played
            state[S_CARDS_LEFT + seat] -= U1
            state[S_WIN_CARD] = win_card
            state[S_WIN_SEAT] = win_seat
            if record:
                rec_seat[n_act] = seat
                rec_card[n_act] = card
            n_act += 1
            seat = (seat + 1) & 3
        scores[win_seat] += trick_points(contract, t, trick)
        tricks[win_seat] += 1
        state[S_WON + win_seat] |= trick
        state[S_TRICKS_WON + win_seat] += U1
        if record:
            rec_winner[t] = win_seat
        leader = win_seat
        if hand_over(contract, played):
            break
    return n_act


@njit(cache=True, _nrt=False)
def _play_domino(hands, start, declarer, rules, strat_ids, user_fns, state, rng,
                 scores, record, rec_seat, rec_card):
    """Play a Domino hand; returns actions recorded (passes included), or a negative error code."""
    # Per suit lane: the cards whose play opens the rank below (rank index 1..start; a 2
    # has none below) and the rank above (start..11; an ace has none above).
    below_start = (U1 << np.uint64(start)) - U1
    down_lane = below_start << U1
    up_lane = LANE & ~below_start & ~(U1 << np.uint64(12))
    playable = grows_down = grows_up = U0
    for s in range(4):
        shift = np.uint64(13 * s)
        playable |= U1 << (shift + np.uint64(start))
        grows_down |= down_lane << shift
        grows_up |= up_lane << shift
    played = U0
    place = 0
    seat = declarer & 3  # known non-negative: no wraparound on array accesses
    n_act = 0
    while True:
        hand = hands[seat]
        if hand:
            legal = hand & playable
            if legal == U0:
                if record:
                    rec_seat[n_act] = seat
                    rec_card[n_act] = PASS
                n_act += 1
            else:
                state[S_SEAT] = seat
                card = _choose(strat_ids[seat], seat, legal, hand, state, rng, user_fns, True)
                if card < 0 or card >= 52 or not ((legal >> np.uint64(card)) & U1):
                    return _illegal(seat, card)
                b = U1 << np.uint64(card)
                hands[seat] = hand ^ b
                played |= b
                # Masks, not branches: the next card depends on this update, and with
                # random play a branch on the rank is a coin flip.
                playable = (playable & ~b) | ((b & grows_down) >> U1) | ((b & grows_up) << U1)
                # A column is the run of its suit's played cards: its ends are the lowest and
                # highest played rank of the suit (a count of zeros each, no branch).
                suit = card // 13
                column = (played >> np.uint64(13 * suit)) & LANE
                state[S_DOMINO_LOW + suit] = lowest_bit(column)
                state[S_DOMINO_HIGH + suit] = highest_bit(column)
                state[S_PLAYED] = played
                state[S_CARDS_LEFT + seat] -= U1
                if record:
                    rec_seat[n_act] = seat
                    rec_card[n_act] = card
                n_act += 1
                if hands[seat] == U0:
                    scores[seat] = rules[R_DOMINO_PAYOUT + place]
                    place += 1
                    if place == 3:
                        for s in range(4):
                            if hands[s] != U0:
                                scores[s] = rules[R_DOMINO_PAYOUT + 3]
                        return n_act
        seat = (seat + 1) & 3


@njit(cache=True, _nrt=False)
def _play_into(hands_in, contract, param, declarer, rules, strat_ids, user_fns, state, rng, hands,
               scores, tricks, record, rec_seat, rec_card, rec_winner):
    for s in range(4):
        hands[s] = hands_in[s]
        scores[s] = 0
        tricks[s] = 0
    _reset_state(state, contract, param, declarer)
    if contract == DOMINO:
        return _play_domino(hands, param, declarer, rules, strat_ids, user_fns, state, rng,
                            scores, record, rec_seat, rec_card)
    return _play_tricks(hands, contract, param, declarer, rules, strat_ids, user_fns, state, rng,
                        scores, tricks, record, rec_seat, rec_card, rec_winner)


@njit(
    types.int64(
        types.uint64[::1], types.int64, types.int64, types.int64, types.int64[::1], types.int64[::1],
        USER_FNS, types.uint64, types.uint64, types.int64[::1], types.int64[::1],
        types.int8[::1], types.int8[::1], types.int8[::1],
    ),
    cache=True,
)
def _play_one(hands_in, contract, param, declarer, rules, strat_ids, user_fns, seed, index,
              scores, tricks, rec_seat, rec_card, rec_winner):
    state = _new_state(rules)
    rng = np.empty(1, np.uint64)
    rng[0] = stream_key(seed, index, STREAM_PLAY)
    hands = np.empty(4, np.uint64)
    return _play_into(hands_in, contract, param, declarer, rules, strat_ids, user_fns, state, rng,
                      hands, scores, tricks, True, rec_seat, rec_card, rec_winner)


@njit(cache=True, _nrt=False)
def _play_range(seed, start, lo, hi, configs, rules, strat_ids, user_fns, scores, tricks, params, errors,
                deck, dealt, hands, state, rng, sc, tr, dummy):
    """Play deals ``lo..hi`` (offsets from ``start``) under every configuration, serially.

    Compiled without reference counting (``_nrt=False``): it only touches the
    scratch arrays it is given, and the per-call reference-count traffic of
    array arguments otherwise costs more than the play itself.
    """
    for i in range(lo, hi):
        index = np.uint64(start + i)
        deal_into(seed, index, deck, dealt)
        for c in range(configs.shape[0]):
            rng[0] = stream_key(seed, index, STREAM_PLAY)
            contract, declarer = configs[c, 0], configs[c, 2]
            param = resolve_param(contract, configs[c, 1], dealt[declarer])
            params[i, c] = param
            code = _play_into(dealt, contract, param, declarer, rules, strat_ids,
                              user_fns, state, rng, hands, sc, tr, False, dummy, dummy, dummy)
            if code < 0:
                errors[i] = code
                return
            for s in range(4):
                scores[i, c, s] = sc[s]
                tricks[i, c, s] = tr[s]


@njit(cache=True)
def _play_chunk(seed, start, lo, hi, configs, rules, strat_ids, user_fns, scores, tricks, params, errors):
    """Allocate one chunk's scratch arrays, then play its deals."""
    _play_range(seed, start, lo, hi, configs, rules, strat_ids, user_fns, scores, tricks, params, errors,
                np.empty(52, np.int64), np.empty(4, np.uint64), np.empty(4, np.uint64),
                _new_state(rules), np.empty(1, np.uint64), np.empty(4, np.int64),
                np.empty(4, np.int64), np.empty(1, np.int8))


@njit(
    types.void(
        types.uint64, types.int64, types.int64, types.int64[:, ::1], types.int64[::1],
        types.int64[::1], USER_FNS, types.int16[:, :, ::1], types.int8[:, :, ::1], types.int8[:, ::1],
        types.int64[::1], types.int64, types.int64,
    ),
    cache=True,
    parallel=True,
)
def _play_batch(seed, start, n, configs, rules, strat_ids, user_fns, scores, tricks, params, errors, chunk,
                workers):
    n_chunks = (n + chunk - 1) // chunk
    next_chunk = np.zeros(1, np.int64)
    # One worker per thread, each claiming chunks until none are left (see barbu_sim.atomic).
    for _ in prange(max(1, min(workers, n_chunks))):
        while True:
            k = claim(next_chunk)
            if k >= n_chunks:
                break
            lo = k * chunk
            hi = min(n, lo + chunk)
            _play_chunk(seed, start, lo, hi, configs, rules, strat_ids, user_fns, scores, tricks, params, errors)


@njit(cache=True, _nrt=False)
def _evaluate_range(seed, lo, hi, fixed_hands, fixed_seat, n_samples, configs, rules, strat_ids, user_fns,
                    sums, squares, deck, dealt, hands, state, rng, sc, tr, dummy):
    """Monte Carlo over the unseen cards of hands ``lo..hi``: sums and sums of squares of the scores."""
    for j in range(lo, hi):
        key = stream_key(seed, np.uint64(j), STREAM_PLAY)  # each hand its own sequence of deals
        for i in range(n_samples):
            index = np.uint64(i)
            deal_around_into(key, index, fixed_hands[j], fixed_seat, deck, dealt)
            for c in range(configs.shape[0]):
                rng[0] = stream_key(key, index, STREAM_PLAY)
                contract, declarer = configs[c, 0], configs[c, 2]
                param = resolve_param(contract, configs[c, 1], dealt[declarer])
                code = _play_into(dealt, contract, param, declarer, rules, strat_ids,
                                  user_fns, state, rng, hands, sc, tr, False, dummy, dummy, dummy)
                if code < 0:
                    return code
                for s in range(4):
                    sums[j, c, s] += sc[s]
                    squares[j, c, s] += sc[s] * sc[s]
    return 0


@njit(cache=True)
def _evaluate_chunk(seed, lo, hi, fixed_hands, fixed_seat, n_samples, configs, rules, strat_ids, user_fns,
                    sums, squares):
    return _evaluate_range(seed, lo, hi, fixed_hands, fixed_seat, n_samples, configs, rules, strat_ids,
                           user_fns, sums, squares, np.empty(52, np.int64), np.empty(4, np.uint64),
                           np.empty(4, np.uint64), _new_state(rules), np.empty(1, np.uint64),
                           np.empty(4, np.int64), np.empty(4, np.int64), np.empty(1, np.int8))


@njit(
    types.int64(
        types.uint64, types.uint64[::1], types.int64, types.int64, types.int64[:, ::1], types.int64[::1],
        types.int64[::1], USER_FNS, types.int64[:, :, ::1], types.int64[:, :, ::1], types.int64,
    ),
    cache=True,
    parallel=True,
)
def _evaluate_hands(seed, fixed_hands, fixed_seat, n_samples, configs, rules, strat_ids, user_fns, sums, squares,
                    workers):
    n = fixed_hands.shape[0]
    codes = np.zeros(n, np.int64)
    next_hand = np.zeros(1, np.int64)
    for _ in prange(max(1, min(workers, n))):  # threads claim hands as they free up
        while True:
            j = claim(next_hand)
            if j >= n:
                break
            codes[j] = _evaluate_chunk(seed, j, j + 1, fixed_hands, fixed_seat, n_samples, configs, rules,
                                       strat_ids, user_fns, sums, squares)
    for j in range(n):
        if codes[j] < 0:
            return codes[j]
    return 0


# ---------------------------------------------------------------- public wrappers
@dataclass
class DealResult:
    """One played deal: scores, tricks and the full record of plays."""

    contract: int
    param: int
    declarer: int
    hands: np.ndarray  # (4,) uint64, as dealt
    scores: np.ndarray  # (4,) int64 raw scores by seat
    tricks: np.ndarray  # (4,) int64 tricks won by seat (0 in Domino)
    seats: np.ndarray = field(repr=False)  # (n_actions,) seat of each action in order
    cards: np.ndarray = field(repr=False)  # (n_actions,) card played, PASS (-1) for a Domino pass
    trick_winners: np.ndarray = field(repr=False)  # (n_tricks,) winner of each trick played

    @property
    def contract_name(self) -> str:
        return CONTRACTS[self.contract]


_POINTERS: dict = {}


def _function_pointer(func):
    """A numba ``cfunc`` of a strategy: a first-class function the cached kernels accept.

    Dispatchers of different functions are different numba types, so four of them
    cannot share one kernel signature; their cfuncs all have the one FunctionType.
    """
    key = id(func)
    if key not in _POINTERS:
        try:
            _POINTERS[key] = (func, cfunc(STRATEGY_SIG, cache=func is lowest_strategy)(func.py_func))
        except Exception as e:  # numba's typing errors for a wrong signature
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise ValueError(
                f"strategy {getattr(func, '__name__', func)!r} does not compile with the strategy "
                "signature (legal: uint64, hand: uint64, state: uint64[::1], rng: uint64[::1]) -> int: "
                + first
            ) from None
    return _POINTERS[key][1]


def _strategies(strategies) -> tuple[np.ndarray, tuple, list[Strategy]]:
    if isinstance(strategies, (str, Strategy)) or hasattr(strategies, "py_func"):
        strategies = [strategies] * N_SEATS
    resolved = [resolve_strategy(s) for s in strategies]
    if len(resolved) != N_SEATS:
        raise ValueError(f"give one strategy or four (one per seat), not {len(resolved)}")
    ids = np.array([s.builtin_id for s in resolved], np.int64)
    # Built-in seats never call their slot; it still needs a function of the right type.
    fns = tuple(_function_pointer(s.func if s.builtin_id == USER else lowest_strategy) for s in resolved)
    return ids, fns, resolved


def check_param(contract: int, param: int, policies: bool = False) -> int:
    """Validate the trump suit (Trumps) or starting rank (Domino); other contracts take 0.

    With ``policies``, the negative choice-policy codes of ``PARAM_POLICIES`` are allowed too.
    """
    if policies and param in PARAM_POLICIES.get(contract, {}).values():
        return param
    if contract == TRUMPS and not 0 <= param < 4:
        raise ValueError(f"trump suit must be 0..3 (C, D, H, S), not {param}")
    if contract == DOMINO and not 0 <= param < 13:
        raise ValueError(f"domino starting rank must be 0..12 (2..A), not {param}")
    if contract not in (TRUMPS, DOMINO):
        return 0
    return param


def _raise_illegal(code: int, resolved: list[Strategy], deal: str):
    code = -code - 1
    seat, card = code % 4, code // 4
    shown = format_card(card) if card < 52 else "a value that is not a card"
    raise IllegalPlayError(
        f"strategy {resolved[seat].name!r} at seat {'NESW'[seat]} played {shown}, "
        f"which is not a legal card there ({deal})"
    )


def play_deal(hands, contract, strategies="heuristic", *, param: int = 0, declarer: int = 0,
              rules: Rules | None = None, seed: int = 0, index: int = 0) -> DealResult:
    """Play one deal and return scores with the full record.

    Parameters
    ----------
    hands : (4,) uint64 array of the hands by seat (see ``cards.parse_pbn``).
    contract : contract id or name.
    strategies : one strategy for every seat, or four (names, ``file.py:func``, njit functions).
    param : trump suit (Trumps) or starting rank (Domino).
    declarer : seat 0..3 who declares and plays first.
    seed, index : key of the random stream used by random strategies (same as deal
        ``index`` of a batch run with ``seed``).
    """
    contract = parse_contract(contract) if isinstance(contract, str) else int(contract)
    if not 0 <= contract < 7:
        raise ValueError(f"unknown contract id {contract}")
    param = check_param(contract, int(param))
    if not 0 <= declarer < 4:
        raise ValueError(f"declarer seat must be 0..3, not {declarer}")
    hands = np.ascontiguousarray(hands, dtype=np.uint64)
    verify_deal(hands)
    rules = rules or Rules()
    ids, fns, resolved = _strategies(strategies)
    scores = np.zeros(4, np.int64)
    tricks = np.zeros(4, np.int64)
    rec_seat = np.zeros(MAX_ACTIONS, np.int8)
    rec_card = np.zeros(MAX_ACTIONS, np.int8)
    rec_winner = np.full(13, -1, np.int8)
    n = _play_one(hands, contract, param, declarer, rules.to_array(), ids, fns,
                     np.uint64(seed % 2**64), np.uint64(index), scores, tricks, rec_seat, rec_card,
                     rec_winner)
    if n < 0:
        _raise_illegal(n, resolved, f"contract {CONTRACTS[contract]}")
    n_tricks = int((rec_winner >= 0).sum())
    return DealResult(contract, param, declarer, hands.copy(), scores, tricks,
                      rec_seat[:n].astype(np.int64), rec_card[:n].astype(np.int64),
                      rec_winner[:n_tricks].astype(np.int64))


def play_random_deal(seed: int, index: int, contract, strategies="heuristic", **kwargs) -> DealResult:
    """Deal ``index`` of run ``seed``, played as :func:`play_deal` plays it."""
    return play_deal(random_deal(seed, index), contract, strategies, seed=seed, index=index, **kwargs)


def play_batch(seed: int, start: int, n: int, configs, strategies="heuristic", *,
               rules: Rules | None = None, chunk: int = 512, with_params: bool = False):
    """Play deals ``start .. start+n-1`` of run ``seed`` under each configuration, in parallel.

    ``configs`` is a sequence of ``(contract, param, declarer)``; every
    configuration is played on the same deals; a negative param is a choice policy
    (``PARAM_POLICIES``) resolved from the declarer's hand.  Returns ``scores``
    (n, n_configs, 4) int16 and ``tricks`` (n, n_configs, 4) int8, by seat, and with
    ``with_params`` also the trump suit / starting rank played, (n, n_configs) int8.  Deal ``i`` depends only
    on ``(seed, start + i)``, so the result is the same for any thread count or chunk.
    """
    if n < 0 or start < 0 or seed < 0:
        raise ValueError("seed, start and the number of deals must be non-negative")
    if chunk < 1:
        raise ValueError("chunk must be at least 1")
    cfg = np.array([[int(c), check_param(int(c), int(p), True), int(d)] for c, p, d in configs], np.int64)
    if cfg.size == 0:
        raise ValueError("give at least one configuration")
    cfg = np.ascontiguousarray(cfg.reshape(-1, 3))
    if (cfg[:, 0] < 0).any() or (cfg[:, 0] > 6).any() or (cfg[:, 2] < 0).any() or (cfg[:, 2] > 3).any():
        raise ValueError("contract ids are 0..6 and declarer seats 0..3")
    rules = rules or Rules()
    ids, fns, resolved = _strategies(strategies)
    scores = np.zeros((n, len(cfg), 4), np.int16)
    tricks = np.zeros((n, len(cfg), 4), np.int8)
    params = np.zeros((n, len(cfg)), np.int8)
    errors = np.zeros(n, np.int64)
    _play_batch(np.uint64(seed % 2**64), start, n, cfg, rules.to_array(), ids, fns,
                scores, tricks, params, errors, chunk, get_num_threads())
    bad = np.flatnonzero(errors)
    if bad.size:
        _raise_illegal(int(errors[bad[0]]), resolved, f"deal {start + int(bad[0])} of seed {seed}")
    return (scores, tricks, params) if with_params else (scores, tricks)


@dataclass
class HandEstimates:
    """Monte Carlo estimates of what hands are worth: one row per hand, one column per configuration."""

    configs: list  # (contract, param, declarer) per column
    n_samples: int
    mean: np.ndarray  # (n_hands, n_configs, 4) expected raw score by seat
    se: np.ndarray  # (n_hands, n_configs, 4) standard error of each mean


def evaluate_hands(hands, configs, strategies="heuristic", *, seat: int = 0, n_samples: int = 200,
                   seed: int = 0, rules: Rules | None = None) -> HandEstimates:
    """Expected raw scores of each configuration for a player at ``seat`` holding each of ``hands``.

    The other 39 cards are dealt at random ``n_samples`` times per hand (the same
    sample deals for every configuration: paired); every seat plays ``strategies``.
    ``hands`` is a sequence of uint64 masks; ``configs`` a sequence of
    ``(contract, param, declarer)``, params may be choice-policy codes.
    """
    if n_samples < 2:
        raise ValueError("n_samples must be at least 2")
    if not 0 <= seat < 4:
        raise ValueError("seat must be 0..3")
    fixed = np.ascontiguousarray(np.asarray(hands, dtype=np.uint64).reshape(-1))
    for h in fixed:
        if bin(int(h)).count("1") != 13 or int(h) >> 52:
            raise ValueError("each hand to evaluate must hold 13 cards")
    cfg = np.array([[int(c), check_param(int(c), int(p), True), int(d)] for c, p, d in configs], np.int64)
    cfg = np.ascontiguousarray(cfg.reshape(-1, 3))
    rules = rules or Rules()
    ids, fns, resolved = _strategies(strategies)
    sums = np.zeros((len(fixed), len(cfg), 4), np.int64)
    squares = np.zeros_like(sums)
    code = _evaluate_hands(np.uint64(seed % 2**64), fixed, seat, n_samples, cfg, rules.to_array(), ids, fns,
                           sums, squares, get_num_threads())
    if code < 0:
        _raise_illegal(int(code), resolved, "hand evaluation")
    mean = sums / n_samples
    var = np.maximum(squares / n_samples - mean ** 2, 0.0) * n_samples / (n_samples - 1)
    return HandEstimates([tuple(map(int, row)) for row in cfg], n_samples, mean, np.sqrt(var / n_samples))
