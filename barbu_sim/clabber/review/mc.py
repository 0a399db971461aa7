"""What the mc card player thinks of every legal card at one decision of a recorded Clabber round.

:func:`card_values` replays a round (a :class:`barbu_sim.clabber.api.RoundResult`) up to one
play, from the table's view (:func:`barbu_sim.clabber.players.mc.replay_into`: the cards played,
the turned card, the melds declared, what each play showed), then rolls out every legal card of
the seat to play on sampled layouts of the cards that seat cannot see, as ``mc`` does.  With the
samples of an mc seat it draws the very layouts that seat drew, so its best card is the card the
seat played.  :func:`layout_values` values a decision of a round file layout by layout, for the
review (its labels) and the punishing line (one layout replayed).
"""

from __future__ import annotations

import numpy as np
from numba import types

from ...core.cards import format_card
from ...core.compiling import lazy_kernel
from ...core.rng import STREAM_CLABBER_PLAY as STREAM_PLAY, STREAM_CLABBER_REVIEW as STREAM_REVIEW, stream_key
from ..players.mc import (
    DEFAULT_SAMPLES, MAX_SAMPLES, MC_WORK_SIZE, W_SQUARES, W_SUMS, decision_key, mc_estimates, replay_into,
)
from ..formats.round_file import PlayedRound
from ..players.rollout import legal_now
from ..rules.config import Rules
from ..state import S_SEAT, STATE_ARRAY_SIZE


@lazy_kernel(
    types.int64(types.uint64[::1], types.int64, types.int64, types.int64, types.int64, types.int64[::1],
                types.int64[:, ::1], types.int64, types.uint64, types.int64, types.float64[::1], types.float64[::1]),
    "the Clabber card evaluator", "clabber-review",
    cache=True,
    nogil=True,
)
def decision_kernel(dealt, dealer, turned, trump, maker, rules, plays, n, root, samples, means, ses):
    """Estimates of every legal card before play ``n``: ``means`` / ``ses`` (52,) by card, NaN for the
    cards that are not legal.  Returns the seat to play."""
    state = np.zeros(STATE_ARRAY_SIZE, np.uint64)
    hands = np.empty(4, np.uint64)
    mcw = np.zeros(MC_WORK_SIZE, np.uint64)
    replay_into(dealt, dealer, turned, trump, maker, rules, plays, n, state, hands, mcw, root)
    seat = np.int64(state[S_SEAT])
    legal = legal_now(hands[seat], state)
    mc_estimates(legal, hands[seat], state, mcw, decision_key(mcw, state), samples)
    sums = mcw[W_SUMS:W_SUMS + 52].view(np.float64)
    squares = mcw[W_SQUARES:W_SQUARES + 52].view(np.float64)
    for c in range(52):
        means[c] = np.nan
        ses[c] = np.nan
        if (legal >> np.uint64(c)) & np.uint64(1):
            mean = sums[c] / samples
            var = squares[c] / samples - mean * mean
            means[c] = mean
            ses[c] = np.sqrt(max(var, 0.0) / max(samples - 1, 1))
    return seat


def card_values(result, decision: int, samples: int = DEFAULT_SAMPLES, rules: Rules | None = None) -> list[dict]:
    """Every legal card's estimated value at one decision of a recorded round, from the deciding seat's information.

    Parameters
    ----------
    result : a ``RoundResult`` of :func:`barbu_sim.clabber.api.play_round` or ``play_dealt`` (its
        ``seed``, ``index``, ``dealer``, ``hands``, ``turned``, ``row`` and ``plays`` are read); a
        round thrown in has no play to evaluate.
    decision : the play to evaluate, 0 .. ``len(result.plays) - 1`` in play order (0: the opening
        lead); the seat that made it is the seat whose information is used.
    samples : layouts of the unseen cards, 1 .. 100,000 (default: mc's).
    rules : the rule options the round was played under (default ``Rules()``).

    Returns
    -------
    One dict per legal card, best first: ``card`` (int, ``suit * 13 + rank``), ``name`` (``"JS"``),
    ``value`` (mean round score of the seat's team when it plays that card now and every seat then
    plays ``heuristic``: what mc maximises), ``se`` (its standard error over the layouts), ``played``
    (whether it is the card the seat played), ``seat`` (0..3).  The same layouts serve every card,
    so differences between cards are far more precise than each ``se``.
    """
    plays = np.array([[s, c] for s, c in result.plays], np.int64).reshape(-1, 2)
    if result.row["maker"] < 0:
        raise ValueError("the round was thrown in: no card was played")
    if not 0 <= decision < len(plays):
        raise ValueError(f"decision must be 0..{len(plays) - 1} (a play of the round), not {decision}")
    if not 1 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be 1..{MAX_SAMPLES:,}, not {samples}")
    root = stream_key(np.uint64(result.seed), np.uint64(result.index), STREAM_PLAY)
    means = np.empty(52)
    ses = np.empty(52)
    seat = decision_kernel(np.ascontiguousarray(result.hands, np.uint64), result.dealer, result.turned,
                           result.row["trump"], result.row["maker"], (rules or Rules()).to_array(),
                           np.ascontiguousarray(plays), decision, root, samples, means, ses)
    if seat != plays[decision, 0]:  # the replay went astray: the record is not a round of these rules
        raise ValueError(f"play {decision} is seat {plays[decision, 0]}'s in the record but seat {seat}'s "
                         "in the replay")
    played = int(plays[decision, 1])
    out = [{"card": c, "name": format_card(c), "value": float(means[c]), "se": float(ses[c]), "played": c == played,
            "seat": int(seat)} for c in range(52) if not np.isnan(means[c])]
    return sorted(out, key=lambda r: (-r["value"], r["card"]))


def replay(rnd: PlayedRound, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(state, hands, mc work array)`` before play ``n`` of ``rnd``, from the table's view
    (:func:`players.mc.replay_into`)."""
    row = rnd.row
    plays = np.array([[s, c] for s, c in rnd.plays], np.int64).reshape(-1, 2)
    state = np.zeros(STATE_ARRAY_SIZE, np.uint64)
    hands = np.empty(4, np.uint64)
    mcw = np.zeros(MC_WORK_SIZE, np.uint64)
    root = np.uint64(stream_key(np.uint64(rnd.seed), np.uint64(rnd.index), STREAM_PLAY))
    replay_into(np.ascontiguousarray(rnd.hands, np.uint64), np.int64(rnd.dealer), np.int64(rnd.turned),
                np.int64(row["trump"]), np.int64(row["maker"]), rnd.rules.to_array(), plays, np.int64(n), state,
                hands, mcw, root)
    return state, hands, mcw


def layout_key(seed: int, n: int, k: int) -> np.uint64:
    """The key of layout ``k`` of the decision before play ``n``, the review keyed by ``seed``."""
    key = np.uint64(stream_key(np.uint64(seed), np.uint64(n), STREAM_REVIEW))
    return np.uint64(stream_key(key, np.uint64(k), STREAM_REVIEW))


def layout_values(rnd: PlayedRound, n: int, samples: int, seed: int) -> tuple[int, int, np.ndarray]:
    """``(seat, legal mask, values)`` before play ``n``: ``values[k, card]`` the seat's team's round
    score on layout ``k`` when it plays ``card`` now (legal cards only): mc's estimator on the one layout
    keyed by :func:`layout_key`."""
    state, hands, mcw = replay(rnd, n)
    seat = int(state[S_SEAT])
    values = np.zeros((samples, 52))
    for k in range(samples):
        legal = value_layout(state, hands, mcw, layout_key(seed, n, k))
        values[k] = mcw[W_SUMS:W_SUMS + 52].view(np.float64)
    return seat, int(legal), values


def value_layout(state, hands, mcw, key) -> np.uint64:
    """Value every legal card of the seat to play in ``state`` on the one layout keyed ``key`` (mc's estimator:
    the layout and its values are left in ``mcw``); returns the legal cards."""
    seat = int(state[S_SEAT])
    legal = np.uint64(legal_now(hands[seat], state))
    mc_estimates(legal, np.uint64(hands[seat]), state, mcw, key, np.int64(1))
    return legal
