"""The Clabber numba kernels: deal, bidding, the six tricks, scoring, and the parallel drivers.

Kernel/wrapper pairs: :mod:`barbu_sim.clabber.api` validates and preallocates; the kernels take
and return only arrays and scalars.  Round ``index`` of key ``key`` draws its deal, its bidding
and its play from three streams keyed by ``(key, index)`` alone, so a run is the same on any
thread count and every bidding policy and strategy is played on the same deals.  A run's key is
its seed; a game's rounds use the key of the game, ``stream_key(seed, game, STREAM_GAME)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, types

from ..core.atomic import claim
from ..core.bits import popcount
from ..core.rng import rand_below, stream_key
from .bidding import accepts, names
from .heuristic import heuristic_strategy
from .melds import meld_flags, team_meld_points
from .play_rules import card_points, legal_mask, power, suit_bits
from .rules import (
    C_BELL, C_BID_ROUND, C_CARD, C_DEALER, C_FLAGS, C_MAKER, C_MAKER_TRUMPS, C_MELD, C_MISPLAY, C_SCORE, C_TRUMP,
    C_TURNED, DECK_CARDS, KING, N_ROUND_COLUMNS, QUEEN, R_MISPLAY, R_PARTNER_EXCUSE, RULES_ARRAY_SIZE, STREAM_BID,
    STREAM_DEAL, STREAM_PLAY,
)
from .state import (
    S_BID_ROUND, S_DEALER, S_LEADER, S_MAKER, S_N_IN_TRICK, S_PLAYED, S_RULES, S_SEAT, S_TEAM_POINTS, S_TOP_TRUMP,
    S_TRICK, S_TRICK_CARDS, S_TRICK_POINTS, S_TRUMP, S_TURNED, S_WIN_CARD, S_WIN_SEAT, STATE_SIZE,
)
from .strategies import HEURISTIC, RANDOM, USER_FNS, random_strategy

U0 = np.uint64(0)
U1 = np.uint64(1)
DECK_ARRAY = np.array(DECK_CARDS, np.int64)
BID_PLAY = 4  # a recorded round-one "play"; -1 is a pass, 0..3 a suit named in round two


@njit(cache=True, _nrt=False)
def deal_into(key, index, dealer, pack, hands, rng):
    """Deal round ``index``: Fisher-Yates over the 24 cards, card ``i`` to seat ``dealer + 1 + i``.

    Fills ``hands`` (4,) uint64 and returns the turned card (the last one, the dealer's).
    """
    rng[0] = stream_key(key, index, STREAM_DEAL)
    for i in range(24):
        pack[i] = DECK_ARRAY[i]
    for i in range(23, 0, -1):
        j = rand_below(rng, i + 1)
        c = pack[i]
        pack[i] = pack[j]
        pack[j] = c
    for s in range(4):
        hands[s] = U0
    for i in range(24):
        hands[(dealer + 1 + i) & 3] |= U1 << np.uint64(pack[i])
    return pack[23]


@njit(cache=True, _nrt=False)
def bid_into(hands, turned, dealer, bid_ids, bid_params, rng, record, rec_bids):
    """Both bidding rounds.  Returns ``16 * round + 4 * maker + trump``, or 0 when thrown in.

    With ``record``, ``rec_bids`` (8, 2) gets ``(seat, bid)`` rows (bid -1 pass, 4 play, 0..3 a
    suit) and unused rows stay as given.
    """
    ts = turned // 13
    n = 0
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        ok = accepts(bid_ids[seat], bid_params[seat], hands[seat], ts, rng)
        if record:
            rec_bids[n, 0] = seat
            rec_bids[n, 1] = BID_PLAY if ok else -1
        n += 1
        if ok:
            return 16 + 4 * seat + ts
    for k in range(4):
        seat = (dealer + 1 + k) & 3
        s = names(bid_ids[seat], bid_params[seat], hands[seat], ts, rng)
        if record:
            rec_bids[n, 0] = seat
            rec_bids[n, 1] = s
        n += 1
        if s >= 0:
            return 32 + 4 * seat + s
    return 0


@njit(inline="always", cache=True)
def _choose(sid, seat, legal, hand, state, rng, user_fns):
    if sid == HEURISTIC:
        return heuristic_strategy(legal, hand, state, rng)
    if sid == RANDOM:
        return random_strategy(legal, hand, state, rng)
    return user_fns[seat](legal, hand, state, rng)


@njit(cache=True, _nrt=False)
def play_into(dealt, hands, trump, maker, dealer, rules, strat_ids, user_fns, state, rng, out,
              record, rec_plays, rec_winners):
    """Play the six tricks and score the round into ``out`` (a ``ROUND_COLUMNS`` row).

    Returns 0, or the negative code ``-(1 + seat + 4 * card)`` of an illegal card (card 52: not a
    card) when the rules say ``misplay=error``.
    """
    for s in range(4):
        hands[s] = dealt[s]
    state[S_TRUMP] = trump
    state[S_MAKER] = maker
    state[S_DEALER] = dealer
    king = 13 * trump + KING
    queen = 13 * trump + QUEEN
    bell_pair = (U1 << np.uint64(king)) | (U1 << np.uint64(queen))
    bell_seat = -1
    for s in range(4):
        if dealt[s] & bell_pair == bell_pair:
            bell_seat = s
    bell_seen = 0
    bell0 = 0
    bell1 = 0
    pts0 = 0
    pts1 = 0
    played = U0
    partner_excuse = rules[R_PARTNER_EXCUSE] != 0
    leader = (dealer + 1) & 3
    n_act = 0
    for t in range(6):
        state[S_TRICK] = t
        state[S_LEADER] = leader
        seat = leader
        led = -1
        win_card = -1
        win_seat = leader
        win_power = -1
        top_trump = -1
        tp = 0
        for k in range(4):
            hand = hands[seat]
            excused = partner_excuse and k > 0 and win_seat == (seat ^ 2)
            legal = legal_mask(hand, k, led, trump, top_trump, excused)
            state[S_SEAT] = seat
            state[S_N_IN_TRICK] = k
            card = _choose(strat_ids[seat], seat, legal, hand, state, rng, user_fns)
            if card < 0 or card >= 52 or not ((legal >> np.uint64(card)) & U1):
                if rules[R_MISPLAY] == 0:
                    return -(1 + seat + 4 * (card if 0 <= card < 52 else 52))
                _misplay(dealt, trump, seat, out)
                return 0
            b = U1 << np.uint64(card)
            hands[seat] = hand ^ b
            played |= b
            if k == 0:
                led = card // 13
            p = power(card, trump, led)
            if p > win_power:
                win_power, win_card, win_seat = p, card, seat
                if card // 13 == trump:
                    top_trump = card
            tp += card_points(card, trump)
            if seat == bell_seat and (card == king or card == queen):
                bell_seen += 1
                if bell_seen == 2:
                    if seat & 1:
                        bell1 = 20
                    else:
                        bell0 = 20
            state[S_TRICK_CARDS + k] = card
            state[S_PLAYED] = played
            state[S_WIN_CARD] = win_card
            state[S_WIN_SEAT] = win_seat
            state[S_TOP_TRUMP] = top_trump % 13 + 1 if top_trump >= 0 else 0
            state[S_TRICK_POINTS] = tp
            if record:
                rec_plays[n_act, 0] = seat
                rec_plays[n_act, 1] = card
            n_act += 1
            seat = (seat + 1) & 3
        if t == 5:
            tp += 10
        if win_seat & 1:
            pts1 += tp
        else:
            pts0 += tp
        state[S_TEAM_POINTS] = pts0
        state[S_TEAM_POINTS + 1] = pts1
        if record:
            rec_winners[t] = win_seat
        leader = win_seat
    m0, m1, _, _ = team_meld_points(dealt, trump)
    out[C_MELD] = m0
    out[C_MELD + 1] = m1
    out[C_CARD] = pts0
    out[C_CARD + 1] = pts1
    out[C_BELL] = bell0
    out[C_BELL + 1] = bell1
    total0 = pts0 + out[C_MELD] + bell0
    total1 = pts1 + out[C_MELD + 1] + bell1
    makers = maker & 1
    out[C_SCORE] = total0 if (makers == 1 or total0 > total1) else 0
    out[C_SCORE + 1] = total1 if (makers == 0 or total1 > total0) else 0
    return 0


@njit(cache=True, _nrt=False)
def _misplay(dealt, trump, seat, out):
    """The penalty of an illegal card: the round ends, the opponents score 162 plus all their melds."""
    _, _, raw0, raw1 = team_meld_points(dealt, trump)
    other = 1 - (seat & 1)
    raw_other = raw0 if other == 0 else raw1
    for j in range(2):
        out[C_CARD + j] = 162 if j == other else 0
        out[C_MELD + j] = raw_other if j == other else 0
        out[C_BELL + j] = 0
        out[C_SCORE + j] = 162 + raw_other if j == other else 0
    out[C_MISPLAY] = seat


@njit(cache=True, _nrt=False)
def round_into(key, index, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced, state, rng, pack,
               dealt, hands, out, record, rec_bids, rec_plays, rec_winners):
    """Deal, bid, play and score round ``index`` of ``key`` into ``out``; returns 0 or an error code.

    ``forced`` (3,) int64: ``(-1, ...)`` to bid, else ``(bid round, maker, trump)`` imposed.
    """
    turned = deal_into(key, index, dealer, pack, dealt, rng)
    return round_from(dealt, turned, key, index, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced,
                      state, rng, hands, out, record, rec_bids, rec_plays, rec_winners)


@njit(cache=True, _nrt=False)
def round_from(dealt, turned, key, index, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced, state,
               rng, hands, out, record, rec_bids, rec_plays, rec_winners):
    """Bid, play and score a dealt round (bidding and play draws from the streams of ``(key, index)``)."""
    for j in range(out.shape[0]):
        out[j] = 0
    out[C_DEALER] = dealer
    out[C_TURNED] = turned
    out[C_MISPLAY] = -1
    for s in range(4):
        out[C_FLAGS + s] = meld_flags(dealt[s])
    if forced[0] >= 0:
        code = 16 * forced[0] + 4 * forced[1] + forced[2]
    else:
        rng[0] = stream_key(key, index, STREAM_BID)
        code = bid_into(dealt, turned, dealer, bid_ids, bid_params, rng, record, rec_bids)
    if code == 0:
        out[C_MAKER] = -1
        out[C_TRUMP] = -1
        out[C_MAKER_TRUMPS] = -1
        return 0
    maker = (code >> 2) & 3
    trump = code & 3
    out[C_BID_ROUND] = code >> 4
    out[C_MAKER] = maker
    out[C_TRUMP] = trump
    out[C_MAKER_TRUMPS] = popcount(dealt[maker] & suit_bits(trump))
    for i in range(S_RULES):
        state[i] = U0
    state[S_TURNED] = turned
    state[S_BID_ROUND] = code >> 4
    rng[0] = stream_key(key, index, STREAM_PLAY)
    return play_into(dealt, hands, trump, maker, dealer, rules, strat_ids, user_fns, state, rng, out,
                     record, rec_plays, rec_winners)


@njit(cache=True)
def new_state(rules):
    """A zeroed strategy state array holding ``rules`` (kept between rounds)."""
    state = np.zeros(STATE_SIZE, np.uint64)
    for i in range(RULES_ARRAY_SIZE):
        state[S_RULES + i] = np.uint64(rules[i])
    return state


@njit(
    types.int64(types.uint64, types.uint64, types.int64, types.int64[::1], types.int64[::1], types.int64[::1],
                types.int64[::1], USER_FNS, types.int64[::1], types.uint64[::1], types.int64[::1],
                types.int64[:, ::1], types.int64[:, ::1], types.int64[::1]),
    cache=True,
)
def play_one_kernel(key, index, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced, dealt, out,
                    rec_bids, rec_plays, rec_winners):
    """One round with its full record (bids, plays, trick winners); returns 0 or an error code."""
    return round_into(key, np.uint64(index), dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced,
                      new_state(rules), np.empty(1, np.uint64), np.empty(24, np.int64), dealt,
                      np.empty(4, np.uint64), out, True, rec_bids, rec_plays, rec_winners)


@njit(cache=True, _nrt=False)
def _rounds_range(seed, start, lo, hi, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced, rows,
                  errors, state, rng, pack, dealt, hands, row, dummy2, dummy1):
    """Rounds ``start + lo .. start + hi - 1`` of run ``seed`` into ``rows[lo:hi]``, serially."""
    for i in range(lo, hi):
        code = round_into(seed, np.uint64(start + i), dealer, rules, bid_ids, bid_params, strat_ids, user_fns,
                          forced, state, rng, pack, dealt, hands, row, False, dummy2, dummy2, dummy1)
        if code < 0:
            errors[i] = code
            return
        for j in range(N_ROUND_COLUMNS):
            rows[i, j] = row[j]


@njit(cache=True)
def _rounds_chunk(seed, start, lo, hi, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced, rows,
                  errors):
    """Allocate one chunk's scratch arrays, then play its rounds."""
    _rounds_range(seed, start, lo, hi, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced, rows,
                  errors, new_state(rules), np.empty(1, np.uint64), np.empty(24, np.int64), np.empty(4, np.uint64),
                  np.empty(4, np.uint64), np.empty(N_ROUND_COLUMNS, np.int64), np.empty((1, 2), np.int64),
                  np.empty(1, np.int64))


@njit(
    types.void(types.uint64, types.int64, types.int64, types.int64, types.int64, types.int64[::1],
               types.int64[::1], types.int64[::1], types.int64[::1], USER_FNS, types.int64[::1],
               types.int16[:, ::1], types.int64[::1], types.int64),
    cache=True,
    parallel=True,
)
def rounds_batch_kernel(seed, start, n, chunk, dealer, rules, bid_ids, bid_params, strat_ids, user_fns, forced,
                        rows, errors, workers):
    """Play rounds ``start .. start + n - 1`` of run ``seed`` in chunks of ``chunk`` on ``workers`` threads.

    Parameters
    ----------
    dealer : the dealer seat of every round.  rules : ``Rules.to_array()``.
    bid_ids, bid_params : (4,) int64 bidding policy per seat.  strat_ids, user_fns : see ``strategies``.
    forced : (3,) int64, ``(-1, 0, 0)`` to bid, else ``(bid round, maker, trump)`` for every round.
    rows : (n, N_ROUND_COLUMNS) int16 output.  errors : (n,) int64 zeroed; an illegal card's code.
    """
    n_chunks = (n + chunk - 1) // chunk
    next_chunk = np.zeros(1, np.int64)
    for _ in prange(max(1, min(workers, n_chunks))):
        while True:
            k = claim(next_chunk)
            if k >= n_chunks:
                break
            lo = k * chunk
            _rounds_chunk(seed, start, lo, min(n, lo + chunk), dealer, rules, bid_ids, bid_params, strat_ids,
                          user_fns, forced, rows, errors)
