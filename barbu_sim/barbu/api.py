"""The Python face of the engine: play one deal with its record, a batch of deals, or evaluate hands.

Each function validates its input (a precise ``ValueError``), converts and
preallocates, then calls a kernel of :mod:`barbu_sim.barbu.engine.deal_kernels`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import get_num_threads

from ..core.cards import HAND_SIZE, verify_deal
from ..core.atomic import on_threads
from ..core.interrupt import call_kernel
from ..core.rng import STREAM_EVAL, stream_key
from ..core.play_errors import (  # noqa: F401  (the errors this module raises, for its callers)
    IllegalPlayError, StrategyError, raise_failed_play,
)
from ..core.seats import N_SEATS
from ..core.stats import mean_and_se
from ..core.strategies import Strategy
from .rules.choices import Choice, check_param
from .engine.deals import deal_around_into, random_deal
from .engine.deal_kernels import batch_kernel, one_kernel
from .players.learned import MODEL_WIDTH, model_array
from .engine.play_loops import MAX_ACTIONS, SNAP_HAND, SNAP_LEGAL, SNAP_RNG, SNAP_SIZE
from .players.mc.player import EXPLAIN_ROWS, EXPLAIN_WIDTH
from .rules.choice_from_hand import resolve_param
from .rules.config import CONTRACTS, N_CONTRACTS, Contract, Rules, parse_contract
from .state import STATE_SIZE
from .players.registry import USER, seat_strategies
from .players.ids import is_learned, is_mc, learned_slot
from .players.mc.params import needs_model

MAX_SEED = 2**64 - 1
MAX_INDEX = 2**63 - 1
MAX_SAMPLES = 1_000_000  # Monte Carlo deals per evaluated hand
NO_EXPLAIN = np.zeros((0, 0), np.float64)
NO_EXPLAIN_LEARNED = np.zeros((0, 0), np.float32)  # picks the engine with the learned player alone
NO_MODEL = np.zeros((0, MODEL_WIDTH), np.float32)
# The batch kernel's arguments that a call does not use: it plays either a run's deals (no fixed hands) and
# keeps each record, or hands' sample deals and keeps only sums.
NO_FIXED_HANDS = np.zeros(0, np.uint64)
NO_SCORES = np.zeros((0, 0, 4), np.int16)
NO_TRICKS = np.zeros((0, 0, 4), np.int8)
NO_PARAMS = np.zeros((0, 0), np.int8)
NO_SUMS = np.zeros((0, 0, 0), np.int64)


@dataclass(frozen=True)
class Seats:
    """The four seats' players, resolved once: what the kernels take for them and which compiled engine
    they need (see :mod:`barbu_sim.barbu.engine.play_loops`: without the strong players, with mc (and
    learned), or with learned alone, picked by the type of the kernels' ``explain`` argument)."""

    ids: np.ndarray  # (4,) the kernels' strategy ids
    fns: tuple  # the user strategies' function pointers, one slot per seat
    resolved: list  # the seats' Strategy objects, for messages
    with_mc: bool  # a seat plays mc or pimc: the engine compiled with the mc player
    with_learned: bool  # a seat plays learned: an engine compiled with it
    with_user: bool  # a seat plays a user's strategy: kernels run in a worker thread (Ctrl-C)

    @classmethod
    def of(cls, strategies) -> "Seats":
        """``strategies`` (one for every seat, or four) resolved."""
        ids, fns, resolved = seat_strategies(strategies)
        return cls(ids, fns, resolved, bool(is_mc(ids).any()), bool(is_learned(ids).any()), bool((ids == USER).any()))

    def one_kernel(self):
        """The engine's kernel that plays one deal with its record."""
        return one_kernel(self.with_mc, self.with_learned)

    def batch_kernel(self):
        """The engine's kernel that plays deals in parallel."""
        return batch_kernel(self.with_mc, self.with_learned)

    def model(self) -> np.ndarray:
        """The kernels' ``model`` argument: the learned player's weights when a seat plays it, or an mc seat reads
        it (learned rollouts, policy inference: ``mc.params.needs_model``); else an empty array."""
        return model_array() if self.with_learned or any(needs_model(int(i)) for i in self.ids) else NO_MODEL

    def no_explain(self):
        """The kernels' ``explain`` argument when nothing is explained: it picks the engine."""
        if self.with_mc:
            return NO_EXPLAIN
        return NO_EXPLAIN_LEARNED if self.with_learned else None

    def run(self, kernel, *args):
        """``kernel(*args)``; with a user strategy at any seat, in a worker thread, so that Ctrl-C works even
        while the strategy never returns (see ``core.interrupt.call_kernel``)."""
        return call_kernel(kernel, self.with_user, *args)

    def run_batch(self, *args, chunks: int):
        """The batch kernel of these seats' engine on the caller's number of threads (numba's
        ``get_num_threads``), at most one a chunk, as :meth:`run` calls a kernel; ``args`` follow its shared
        counter."""
        return self.run(on_threads(self.batch_kernel(), min(get_num_threads(), chunks)), *args)


def _checked_models(models, ids: np.ndarray) -> np.ndarray:
    """``models`` as the kernels take them, refused (ValueError) unless it holds 7 rows of MODEL_WIDTH per model
    and a model for every learned seat's slot (the kernels read the rows unchecked)."""
    arr = np.ascontiguousarray(models, np.float32)
    slots = [int(learned_slot(int(i))) for i in ids if is_learned(int(i))]
    if arr.ndim != 2 or arr.shape[1] != MODEL_WIDTH or arr.shape[0] % N_CONTRACTS or not arr.shape[0]:
        raise ValueError(f"models must hold {N_CONTRACTS} rows of {MODEL_WIDTH} weights per model, not the shape "
                         f"{arr.shape}")
    if slots and arr.shape[0] < N_CONTRACTS * (max(slots) + 1):
        raise ValueError(f"models holds {arr.shape[0] // N_CONTRACTS} model(s), and a seat plays the one in slot "
                         f"{max(slots)}")
    return arr


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
    # With play_deal(explain=True): one row per decision of an mc seat (columns: see players.mc.player.EXPLAIN).
    explain: np.ndarray | None = field(default=None, repr=False)

    @property
    def contract_name(self) -> str:
        return CONTRACTS[self.contract]


@dataclass
class HandEstimates:
    """Monte Carlo estimates of what hands are worth: one row per hand, one column per configuration."""

    mean: np.ndarray  # (n_hands, n_configs, 4) expected raw score by seat
    se: np.ndarray  # (n_hands, n_configs, 4) standard error of each mean


def _raise_failed_play(code: int, resolved: list[Strategy], where: str, snap: np.ndarray | None = None):
    """Raise the error a kernel's ``code`` stands for (:func:`~barbu_sim.core.play_errors.raise_failed_play`);
    ``snap``: the play's details a recorded deal saved."""
    saved = None if snap is None else (snap[SNAP_LEGAL], snap[SNAP_HAND], snap[:STATE_SIZE], snap[SNAP_RNG])
    raise_failed_play(code, resolved, where, saved)


def _replay_failure(deals, cfg: np.ndarray, rules_array, seats: Seats, where: str, models=None):
    """Replay the deals of a batch item that failed, one by one with their record, to explain the failure.

    ``deals``: ``(hands, seed, index)`` in the order the batch played them; every
    configuration is played on each, as the batch did, until one fails again (``models``: the batch's
    learned models, when not the installed ones).
    """
    model = seats.model() if models is None else models  # play_batch passes the array it played with
    for hands, key, index in deals:
        for contract, param, declarer in cfg:
            snap = np.zeros(SNAP_SIZE, np.uint64)
            code = seats.run(
                seats.one_kernel(),
                hands,
                int(contract),
                int(resolve_param(int(contract), int(param), hands[declarer])),  # the suit or rank named
                int(declarer),
                rules_array,
                seats.ids,
                seats.fns,
                np.uint64(key),
                np.uint64(index),
                np.zeros(4, np.int64),  # scores
                np.zeros(4, np.int64),  # tricks
                np.zeros(MAX_ACTIONS, np.int8),  # rec_seat
                np.zeros(MAX_ACTIONS, np.int8),  # rec_card
                np.full(13, -1, np.int8),  # rec_winner
                snap,
                model,
                seats.no_explain(),
            )
            if code < 0:
                _raise_failed_play(code, seats.resolved, where, snap)
    raise StrategyError(f"a strategy failed in {where}, but not when its deals were played again one by one")


def _deals_around(key: np.uint64, hand: np.uint64, seat: int, n_samples: int):
    """The sample deals :func:`evaluate_hands` plays around ``hand`` at ``seat``: ``(hands, seed, index)``."""
    hand_key = stream_key(key, (hand << np.uint64(2)) | np.uint64(seat), STREAM_EVAL)
    deck = np.empty(52, np.int64)
    for k in range(n_samples):
        hands = np.empty(4, np.uint64)
        deal_around_into(hand_key, np.uint64(k), hand, seat, deck, hands)
        yield hands, hand_key, k


def compile_engine(strategies="heuristic", *, one: bool = True, batch: bool = True) -> None:
    """Compile (or load from numba's cache) the kernels that ``strategies`` will play with.

    The kernels compile on first use anyway; a driver calls this before it draws a
    progress bar or starts a clock, so that a first use's compile is reported on its own
    lines (see :mod:`barbu_sim.core.compiling`) and not counted as play.
    """
    seats = Seats.of(strategies)
    if one:
        seats.one_kernel()
    if batch:
        seats.batch_kernel()


def _check_seed(seed: int) -> np.uint64:
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"the seed must be a non-negative integer below 2^64, not {seed}")
    return np.uint64(seed)


def config_array(configs) -> np.ndarray:
    """Validate ``(contract, param, declarer)`` rows (params may be choice-policy codes): a (k, 3) int64 array."""
    rows = []
    for row in configs:
        if len(row) != 3:
            raise ValueError(f"a configuration is (contract, param, declarer), not {row!r}")
        c, p, d = (int(x) for x in row)
        if not 0 <= c < N_CONTRACTS:
            raise ValueError(f"contract ids are 0..{N_CONTRACTS - 1}, not {c}")
        if not 0 <= d < N_SEATS:
            raise ValueError(f"declarer seats are 0..3, not {d}")
        rows.append((c, check_param(c, p, policies=True), d))
    if not rows:
        raise ValueError("give at least one configuration")
    return np.ascontiguousarray(np.array(rows, np.int64).reshape(-1, 3))


def play_deal(hands, contract, strategies="heuristic", *, param: int = 0, declarer: int = 0,
              rules: Rules | None = None, seed: int = 0, index: int = 0, explain: bool = False) -> DealResult:
    """Play one deal and return scores with the full record.

    Parameters
    ----------
    hands : (4,) uint64 array of the hands by seat (see ``core.cards.parse_pbn``).
    contract : contract id or name.
    strategies : one strategy for every seat, or four (names, ``file.py:func``, njit functions).
    param : trump suit (Trumps) or starting rank (Domino).
    declarer : seat 0..3 who declares and plays first.
    seed, index : key of the random stream used by random strategies (same as deal
        ``index`` of a batch run with ``seed``).
    explain : keep, in ``DealResult.explain``, each decision of an ``mc`` seat: every
        candidate card's estimated score from there and its standard error.
    """
    contract = int(parse_contract(contract)) if isinstance(contract, str) else int(contract)
    if int(param) < 0:
        raise ValueError(f"play_deal takes the trump suit / starting rank itself, not the choice policy {param}")
    contract, param, declarer = (int(x) for x in config_array([(contract, param, declarer)])[0])
    hands = np.ascontiguousarray(hands, dtype=np.uint64)
    verify_deal(hands)
    rules = rules or Rules()
    if contract == int(Contract.DOMINO) and rules.fixed_domino_start is not None:
        param = rules.fixed_domino_start  # domino-start=fixed:R: the rank the engine plays from
    seats = Seats.of(strategies)
    scores = np.zeros(4, np.int64)
    tricks = np.zeros(4, np.int64)
    rec_seat = np.zeros(MAX_ACTIONS, np.int8)
    rec_card = np.zeros(MAX_ACTIONS, np.int8)
    rec_winner = np.full(13, -1, np.int8)
    snap = np.zeros(SNAP_SIZE, np.uint64)
    ex = np.zeros((EXPLAIN_ROWS, EXPLAIN_WIDTH), np.float64) if explain else NO_EXPLAIN
    if not 0 <= index <= MAX_INDEX:
        raise ValueError(f"the deal index must be 0..2^63-1, not {index}")
    n = seats.run(
        seats.one_kernel(),
        hands,
        contract,
        param,
        declarer,
        rules.to_array(),
        seats.ids,
        seats.fns,
        _check_seed(seed),
        np.uint64(index),
        scores,
        tricks,
        rec_seat,
        rec_card,
        rec_winner,
        snap,
        seats.model(),
        ex if seats.with_mc else seats.no_explain(),  # only mc explains its decisions
    )
    if n < 0:
        _raise_failed_play(n, seats.resolved, f"contract {CONTRACTS[contract]}", snap)
    n_tricks = int((rec_winner >= 0).sum())
    return DealResult(contract, param, declarer, hands.copy(), scores, tricks,
                      rec_seat[:n].astype(np.int64), rec_card[:n].astype(np.int64),
                      rec_winner[:n_tricks].astype(np.int64), ex[1:1 + int(ex[0, 0])].copy() if explain else None)


def play_random_deal(seed: int, index: int, contract, strategies="heuristic", **kwargs) -> DealResult:
    """Deal ``index`` of run ``seed``, played as :func:`play_deal` plays it."""
    return play_deal(random_deal(seed, index), contract, strategies, seed=seed, index=index, **kwargs)


def resolve_choice(choice: Choice, declarer_hand) -> int:
    """The suit / rank actually named under ``choice`` by a declarer holding ``declarer_hand``."""
    if choice.is_fixed:
        return choice.code
    return int(resolve_param(int(choice.contract), choice.code, np.uint64(declarer_hand)))


def play_named(hands, contract: Contract, strategies, *, declarer: int, choice: Choice,
               rules: Rules | None = None, seed: int = 0, index: int = 0, explain: bool = False) -> DealResult:
    """Play one deal with the trump suit / domino rank named by ``choice`` from the declarer's hand.

    ``choice``: a fixed suit / rank or a choice policy (see ``choices.contract_choices``);
    ``strategies``: one strategy or four, by seat.
    """
    param = resolve_choice(choice, hands[declarer])
    return play_deal(hands, contract, strategies, param=param, declarer=declarer, rules=rules,
                     seed=seed, index=index, explain=explain)


def play_batch(seed: int, start: int, n: int, configs, strategies="heuristic", *,
               rules: Rules | None = None, chunk: int = 512, with_params: bool = False, models=None):
    """Play deals ``start .. start+n-1`` of run ``seed`` under each configuration, in parallel.

    ``configs`` is a sequence of ``(contract, param, declarer)``; every
    configuration is played on the same deals; a negative param is a choice policy
    (``choices.POLICIES``) resolved from the declarer's hand.  Returns ``scores``
    (n, n_configs, 4) int16 and ``tricks`` (n, n_configs, 4) int8, by seat, and with
    ``with_params`` also the trump suit / starting rank played, (n, n_configs) int8.  Deal ``i`` depends only
    on ``(seed, start + i)``, so the result is the same for any thread count or chunk.
    ``models``: the learned players' model array (7 rows per model: ``learned`` reads the first 7,
    ``learned1`` the next; :func:`barbu_sim.barbu.players.learned.model_array`), for models not
    installed, as expert iteration measures them; default the installed ones.
    """
    if n < 0 or start < 0 or start + n > MAX_INDEX:
        raise ValueError("start and the number of deals must be non-negative (and below 2^63)")
    if chunk < 1:
        raise ValueError("chunk must be at least 1")
    key = _check_seed(seed)
    cfg = config_array(configs)
    rules = rules or Rules()
    seats = Seats.of(strategies)
    model = seats.model() if models is None else _checked_models(models, seats.ids)  # the array the kernels read
    if seats.with_mc:
        chunk = 1  # an mc deal costs thousands of rollouts: threads claim deals one by one
    scores = np.zeros((n, len(cfg), 4), np.int16)
    tricks = np.zeros((n, len(cfg), 4), np.int8)
    params = np.zeros((n, len(cfg)), np.int8)
    errors = np.zeros(n, np.int64)
    rules_array = rules.to_array()
    seats.run_batch(
        key,
        start,
        n,
        chunk,
        NO_FIXED_HANDS,  # a run's deals, not sample deals around given hands
        0,  # fixed_seat
        1,  # n_samples
        cfg,
        rules_array,
        seats.ids,
        seats.fns,
        scores,
        tricks,
        params,
        NO_SUMS,
        NO_SUMS,  # squares
        errors,
        model,
        seats.no_explain(),
        chunks=-(-n // chunk),
    )
    bad = np.flatnonzero(errors)
    if bad.size:
        index = start + int(bad[0])
        _replay_failure([(random_deal(seed, index), key, index)], cfg, rules_array, seats,
                        f"deal {index} of seed {seed}", model)
    return (scores, tricks, params) if with_params else (scores, tricks)


def evaluate_hands(hands, configs, strategies="heuristic", *, seat: int = 0, n_samples: int = 200,
                   seed: int = 0, rules: Rules | None = None) -> HandEstimates:
    """Expected raw scores of each configuration for a player at ``seat`` holding each of ``hands``.

    The other 39 cards are dealt at random ``n_samples`` times per hand (the same
    sample deals for every configuration: paired); every seat plays ``strategies``.
    The sample deals depend only on ``(seed, hand, seat)``: a hand gets the same
    estimate alone or inside any batch.  ``hands`` is a sequence of uint64 masks;
    ``configs`` a sequence of ``(contract, param, declarer)``, params may be
    choice-policy codes.
    """
    if not 2 <= n_samples <= MAX_SAMPLES:
        raise ValueError(f"the Monte Carlo deals per hand must be 2..{MAX_SAMPLES:,}, not {n_samples}")
    if not 0 <= seat < N_SEATS:
        raise ValueError("seat must be 0..3")
    key = _check_seed(seed)
    fixed = np.ascontiguousarray(np.asarray(hands, dtype=np.uint64).reshape(-1))
    for h in fixed:
        if bin(int(h)).count("1") != HAND_SIZE or int(h) >> 52:
            raise ValueError("each hand to evaluate must hold 13 cards")
    cfg = config_array(configs)
    rules = rules or Rules()
    seats = Seats.of(strategies)
    sums = np.zeros((len(fixed), len(cfg), 4), np.int64)
    squares = np.zeros_like(sums)
    errors = np.zeros(len(fixed), np.int64)
    rules_array = rules.to_array()
    # One hand per chunk: a hand is many deals, and threads claim hands as they free up.
    seats.run_batch(
        key,
        0,  # start
        len(fixed),  # n: the hands
        1,  # chunk
        fixed,
        seat,
        n_samples,
        cfg,
        rules_array,
        seats.ids,
        seats.fns,
        NO_SCORES,  # sums only, no record per deal
        NO_TRICKS,
        NO_PARAMS,
        sums,
        squares,
        errors,
        seats.model(),
        seats.no_explain(),
        chunks=len(fixed),  # a hand a chunk
    )
    bad = np.flatnonzero(errors)
    if bad.size:
        hand = fixed[int(bad[0])]
        _replay_failure(_deals_around(key, hand, seat, n_samples), cfg, rules_array, seats, "hand evaluation")
    mean, se = mean_and_se(sums, squares, n_samples)
    return HandEstimates(mean, se)
