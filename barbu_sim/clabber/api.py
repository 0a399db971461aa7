"""The Python face of the Clabber engine: one round with its record, batches of rounds, games to 500.

Each function validates its input (a precise ``ValueError``), converts and preallocates, then
calls a kernel of :mod:`barbu_sim.clabber.engine.round_kernels` or :mod:`barbu_sim.clabber.engine.game_kernels`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import get_num_threads, types

from ..core.compiling import ensure_compiled
from ..core.atomic import on_threads
from ..core.interrupt import call_kernel
from ..core.play_errors import (  # noqa: F401  (the errors this module raises, for its callers)
    IllegalPlayError, StrategyError, raise_failed_play,
)
from ..core.strategies import Strategy
from .players.bidding import MC, parse_bidding
from .engine.round_kernels import deal_into, play_dealt_kernel, play_one_kernel, rounds_batch_kernel
from .players.mc import is_mc
from .rules.config import MAX_GAME_ROUNDS, N_ROUND_COLUMNS, ROUND_COLUMNS, Rules, verify_clabber_deal
from .state import S_SNAP_HAND, S_SNAP_LEGAL, S_SNAP_RNG, STATE_ARRAY_SIZE, STATE_SIZE
from .players.learned import model_array
from .players.registry import LEARNED, USER, seat_strategies


@dataclass
class RoundResult:
    """One round: the deal, the bidding, every card played, and the round's record row."""

    seed: int
    index: int
    dealer: int
    hands: np.ndarray  # (4,) uint64 as dealt
    turned: int
    row: dict  # ROUND_COLUMNS -> int
    bids: list = field(repr=False)  # (seat, bid): bid -1 pass, 4 play, 0..3 a suit named
    plays: list = field(repr=False)  # (seat, card) in play order
    winners: list = field(repr=False)  # winner seat of each trick


def _seed(seed: int) -> np.uint64:
    if not 0 <= seed < 2**64:
        raise ValueError(f"the seed must be a non-negative integer below 2^64, not {seed}")
    return np.uint64(seed)


def _seat(seat: int, what: str) -> int:
    if not 0 <= int(seat) < 4:
        raise ValueError(f"{what} must be a seat 0..3, not {seat}")
    return int(seat)


def seat_bidding(policies) -> tuple[np.ndarray, np.ndarray]:
    """(4,) policy ids and (4,) parameters from one policy spec or four (one per seat)."""
    if isinstance(policies, str):
        policies = [policies] * 4
    if len(policies) != 4:
        raise ValueError(f"give one bidding policy or four (one per seat), not {len(policies)}")
    parsed = [parse_bidding(p) for p in policies]
    return np.array([p for p, _ in parsed], np.int64), np.array([a for _, a in parsed], np.int64)


def _forced(forced) -> np.ndarray:
    """The kernels' forced contract: ``(-1, 0, 0)`` to bid, else ``(bid round, maker, trump)``."""
    if forced is None:
        return np.array([-1, 0, 0], np.int64)
    bid_round, maker, trump = (int(x) for x in forced)
    if bid_round not in (1, 2) or not 0 <= maker < 4 or not 0 <= trump < 4:
        raise ValueError("a forced contract is (bid round 1 or 2, maker seat 0..3, trump suit 0..3)")
    return np.array([bid_round, maker, trump], np.int64)


def raise_illegal(code: int, resolved: list[Strategy], where: str, state: np.ndarray | None = None):
    """Raise the error a kernel's ``code`` stands for (:func:`~barbu_sim.core.play_errors.raise_failed_play`);
    ``state``: the kernel's state array after the failed play (see :mod:`barbu_sim.clabber.state`)."""
    saved = None if state is None else (state[S_SNAP_LEGAL], state[S_SNAP_HAND], state[:STATE_SIZE],
                                        state[S_SNAP_RNG])
    raise_failed_play(code, resolved, where, saved)


def uses_mc(ids: np.ndarray) -> bool:
    """True when a seat plays mc: the kernels must then be the engine compiled with the mc card player."""
    return bool(is_mc(np.asarray(ids)).any())


_MC_PROTO = np.zeros(1, np.uint64)  # the last argument that selects the engine with the mc player


def uses_mc_bidding(bid_ids: np.ndarray) -> bool:
    """True when a seat bids mc: the kernels must then be those compiled with mc bidding."""
    return bool((np.asarray(bid_ids) == MC).any())


_MC_BIDS = np.zeros(1, np.uint64)  # the argument before the last that selects the kernels with mc bidding


def uses_learned(ids: np.ndarray) -> bool:
    """True when a seat plays learned: the kernels must then be the engine compiled with the learned player."""
    return bool((np.asarray(ids) == LEARNED).any())


def _engine(kernel, ids: np.ndarray, bid_ids: np.ndarray | None = None):
    """``(compiled kernel, its trailing arguments)`` of the engine the seats need: their card play ``ids``
    and, for a kernel that bids, their bidding ``bid_ids`` (None for a kernel without the bidding marker).

    Every Clabber kernel ends with an argument that is None in the engine without the mc card
    player, a uint64 array in the engine with it, and the learned player's model array (float32)
    in the engine with the learned player (and mc): numba compiles the three from one source, and
    a command that plays neither never compiles them (see :mod:`barbu_sim.clabber.engine.play_loops`).
    The weights reach the kernels as that argument: a new model needs no recompiling.  A kernel that
    bids has one more argument before it, None unless a seat bids mc (then a uint64 array): a command
    whose seats bid otherwise never compiles mc bidding (see :mod:`barbu_sim.clabber.engine.mc_bidding`).
    """
    mc_bidding = bid_ids is not None and uses_mc_bidding(bid_ids)
    bidding = () if bid_ids is None else (_MC_BIDS if mc_bidding else None,)
    bidding_types = tuple(types.uint64[::1] if mc_bidding else types.none for _ in bidding)
    if uses_learned(ids):
        last, proto, player, key = types.float32[::1], model_array(), "the learned player", "-learned"
    elif uses_mc(ids):
        last, proto, player, key = types.uint64[::1], _MC_PROTO, "the mc player", "-mc"
    else:
        last, proto, player, key = types.none, None, None, ""
    args = kernel.args[:-1 - len(bidding)] + bidding_types + (last,)
    if args == kernel.args:
        return kernel.compiled(), bidding + (proto,)
    extras = [x for x in (player, "mc bidding" if mc_bidding else None) if x]
    # the estimates were measured with mc bidding compiled into every engine: they hold with it and without
    return (ensure_compiled(kernel.dispatcher, args, f"{kernel.what} with {' and '.join(extras)}",
                            f"{kernel.estimate_key}{key}"), bidding + (proto,))


def _call(kernel, ids: np.ndarray, *args, bid_ids: np.ndarray | None = None, workers: int | None = None):
    """``kernel(*args)`` in the engine the seats need (card play ``ids``; bidding ``bid_ids`` for a kernel
    that bids, see :func:`_engine`), interruptible by Ctrl-C when a user strategy sits at any seat.
    A batch kernel runs on ``workers`` threads (:func:`barbu_sim.core.atomic.on_threads`): at most one a chunk.

    The kernel is compiled (or loaded) here, in the calling thread, before a worker thread runs it.
    """
    compiled, trailing = _engine(kernel, ids, bid_ids)
    if workers is not None:
        compiled = on_threads(compiled, workers)
    return call_kernel(compiled, bool((ids == USER).any()), *args, *trailing)


def _record_arrays():
    """Empty record arrays of one round: bids, plays, trick winners, and the strategies' state array."""
    return (np.full((8, 2), -9, np.int64), np.full((24, 2), -1, np.int64), np.full(6, -1, np.int64),
            np.zeros(STATE_ARRAY_SIZE, np.uint64))


def _play_one(ids, fns, bid_ids, bid_params, seed, index, dealer, rules_array, forced_array):
    """Round ``index`` of run ``seed`` by the one-round kernel: (its code, the hands dealt, the round's row, the
    bids, the plays, the trick winners, the strategies' state array)."""
    dealt = np.zeros(4, np.uint64)
    row = np.zeros(N_ROUND_COLUMNS, np.int64)
    rec_bids, rec_plays, rec_winners, state = _record_arrays()
    code = _call(
        play_one_kernel, ids,
        _seed(seed),
        index,
        dealer,
        rules_array,
        bid_ids,
        bid_params,
        ids,
        fns,
        forced_array,
        dealt,
        row,
        rec_bids,
        rec_plays,
        rec_winners,
        state,
        bid_ids=bid_ids,
    )
    return code, dealt, row, rec_bids, rec_plays, rec_winners, state


def deal_round(seed: int = 0, index: int = 0, dealer: int = 0) -> tuple[np.ndarray, int]:
    """The four hands (uint64 by seat) and the turned card of round ``index`` of run ``seed``."""
    hands = np.zeros(4, np.uint64)
    turned = deal_into(_seed(seed), np.uint64(index), _seat(dealer, "the dealer"), np.empty(24, np.int64), hands,
                       np.empty(1, np.uint64))
    return hands, int(turned)


def play_round(seed: int = 0, index: int = 0, dealer: int = 0, bidding="accept-first", strategies="heuristic",
               rules: Rules | None = None, forced=None) -> RoundResult:
    """Deal, bid, play and score round ``index`` of run ``seed`` with the full record.

    ``forced`` = ``(bid round, maker, trump)`` skips the bidding.
    """
    if index < 0:
        raise ValueError("the round index must be non-negative")
    dealer = _seat(dealer, "the dealer")
    bid_ids, bid_params = seat_bidding(bidding)
    ids, fns, resolved = seat_strategies(strategies)
    rules = rules or Rules()
    code, dealt, out, rec_bids, rec_plays, rec_winners, state = _play_one(
        ids, fns, bid_ids, bid_params, seed, index, dealer, rules.to_array(), _forced(forced))
    if code < 0:
        raise_illegal(code, resolved, f"round {index} of seed {seed}", state)
    row = {c: int(v) for c, v in zip(ROUND_COLUMNS, out)}
    return RoundResult(seed, index, dealer, dealt, row["turned"], row,
                       [(int(s), int(b)) for s, b in rec_bids if s != -9],
                       [(int(s), int(c)) for s, c in rec_plays if s >= 0],
                       [int(w) for w in rec_winners if w >= 0])


def play_dealt(hands, turned: int, dealer: int = 0, bidding="accept-first", strategies="heuristic",
               rules: Rules | None = None, forced=None, seed: int = 0, index: int = 0) -> RoundResult:
    """Bid, play and score a given deal (``hands`` (4,) uint64 by seat; ``turned`` one of the dealer's cards).

    Random draws (bidding, play) come from the streams of round ``index`` of ``seed``.
    """
    dealer = _seat(dealer, "the dealer")
    hands = np.ascontiguousarray(hands, dtype=np.uint64)
    verify_clabber_deal(hands, int(turned), dealer)
    bid_ids, bid_params = seat_bidding(bidding)
    ids, fns, resolved = seat_strategies(strategies)
    rules = rules or Rules()
    out = np.zeros(N_ROUND_COLUMNS, np.int64)
    rec_bids, rec_plays, rec_winners, state = _record_arrays()
    code = _call(
        play_dealt_kernel, ids,
        hands,
        int(turned),
        _seed(seed),
        index,
        dealer,
        rules.to_array(),
        bid_ids,
        bid_params,
        ids,
        fns,
        _forced(forced),
        out,
        rec_bids,
        rec_plays,
        rec_winners,
        state,
        bid_ids=bid_ids,
    )
    if code < 0:
        raise_illegal(code, resolved, "the given deal", state)
    row = {c: int(v) for c, v in zip(ROUND_COLUMNS, out)}
    return RoundResult(seed, index, dealer, hands.copy(), int(turned), row,
                       [(int(s), int(b)) for s, b in rec_bids if s != -9],
                       [(int(s), int(c)) for s, c in rec_plays if s >= 0],
                       [int(w) for w in rec_winners if w >= 0])


def _workers(threads: int | None) -> int:
    return get_num_threads() if threads is None else max(1, int(threads))


def play_rounds(seed: int, start: int, n: int, dealer: int = 0, bidding="accept-first", strategies="heuristic",
                rules: Rules | None = None, forced=None, threads: int | None = None, chunk: int = 2048,
                out: np.ndarray | None = None) -> np.ndarray:
    """Rounds ``start .. start + n - 1`` of run ``seed``: a (n, N_ROUND_COLUMNS) int16 array of rows.

    ``out``: an array of that shape and type to fill instead of a new one (a caller playing many
    batches saves the operating system's page faults on fresh memory).
    """
    if n < 1 or start < 0:
        raise ValueError("play at least one round, from a non-negative index")
    bid_ids, bid_params = seat_bidding(bidding)
    ids, fns, resolved = seat_strategies(strategies)
    rules = rules or Rules()
    if out is None:
        rows = np.empty((n, N_ROUND_COLUMNS), np.int16)
    elif out.shape != (n, N_ROUND_COLUMNS) or out.dtype != np.int16 or not out.flags.c_contiguous:
        raise ValueError(f"out must be a C-contiguous int16 array of shape ({n}, {N_ROUND_COLUMNS})")
    else:
        rows = out
    if chunk < 1:
        raise ValueError("chunk must be positive")
    if uses_mc(ids):
        chunk = min(chunk, 8)  # an mc round costs thousands of rollouts: threads claim a few rounds at a time
    errors = np.zeros((-(-n // chunk), 2), np.int64)
    dealer = _seat(dealer, "the dealer")
    rules_array, forced_array = rules.to_array(), _forced(forced)
    _call(
        rounds_batch_kernel, ids,
        _seed(seed),
        start,
        n,
        chunk,
        dealer,
        rules_array,
        bid_ids,
        bid_params,
        ids,
        fns,
        forced_array,
        rows,
        errors,
        bid_ids=bid_ids,
        workers=min(_workers(threads), len(errors)),  # errors: a row a chunk
    )
    bad = np.flatnonzero(errors[:, 0])
    if len(bad):
        # The batch keeps no per-play state: play the failed round again, alone, for the message.
        index = start + int(errors[bad[0], 1])
        code, *_, state = _play_one(ids, fns, bid_ids, bid_params, seed, index, dealer, rules_array, forced_array)
        where = f"round {index} of seed {seed}"
        raise_illegal(code if code < 0 else errors[bad[0], 0], resolved, where, state if code < 0 else None)
    return rows


def play_games(seed: int, start: int, n: int, bidding="accept-first", strategies="heuristic",
               rules: Rules | None = None, threads: int | None = None, chunk: int = 256) -> np.ndarray:
    """Games ``start .. start + n - 1`` of run ``seed`` to 500: a (n, 6) int64 array of ``GAME_COLUMNS``."""
    if n < 1 or start < 0:
        raise ValueError("play at least one game, from a non-negative index")
    from .engine.game_kernels import games_batch_kernel  # compiled on first use: rounds alone do not need it
    bid_ids, bid_params = seat_bidding(bidding)
    ids, fns, resolved = seat_strategies(strategies)
    rules = rules or Rules()
    games = np.zeros((n, 6), np.int64)
    if uses_mc(ids):
        chunk = 1  # an mc game costs a few seconds: threads claim games one by one
    errors = np.zeros(n, np.int64)
    _call(
        games_batch_kernel, ids,
        _seed(seed),
        start,
        n,
        chunk,
        rules.to_array(),
        bid_ids,
        bid_params,
        ids,
        fns,
        _forced(None),  # every round bids
        games,
        errors,
        bid_ids=bid_ids,
        workers=min(_workers(threads), -(-n // chunk)),
    )
    bad = np.flatnonzero(errors)
    if len(bad):
        game = start + int(bad[0])
        state = _game_sheet(seed, game, bid_ids, bid_params, ids, fns, rules)[2]  # played again for the message
        raise_illegal(errors[bad[0]], resolved, f"game {game} of seed {seed}", state)
    return games


def _game_sheet(seed, game, bid_ids, bid_params, ids, fns, rules):
    """(sheet, result, state) of one game, and its error code: state is None unless a play failed."""
    from .engine.game_kernels import game_sheet_kernel
    sheet = np.zeros((MAX_GAME_ROUNDS, N_ROUND_COLUMNS), np.int64)
    result = np.zeros(6, np.int64)
    state = np.zeros(STATE_ARRAY_SIZE, np.uint64)
    code = _call(
        game_sheet_kernel, ids,
        _seed(seed),
        int(game),
        rules.to_array(),
        bid_ids,
        bid_params,
        ids,
        fns,
        sheet,
        result,
        state,
        bid_ids=bid_ids,
    )
    return sheet, result, state if code < 0 else None, code


def game_sheet(seed: int, game: int, bidding="accept-first", strategies="heuristic",
               rules: Rules | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every round's row of one game (rounds, N_ROUND_COLUMNS) and the game's result (6,)."""
    bid_ids, bid_params = seat_bidding(bidding)
    ids, fns, resolved = seat_strategies(strategies)
    sheet, result, state, code = _game_sheet(seed, game, bid_ids, bid_params, ids, fns, rules or Rules())
    if code < 0:
        raise_illegal(code, resolved, f"game {game} of seed {seed}", state)
    return sheet[:result[1]], result
