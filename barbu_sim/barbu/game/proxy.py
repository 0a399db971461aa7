"""A fast stand-in for the Monte Carlo evaluation of a hand: ridge regressions on the hand's cards.

The doubling policy ``bayes`` must know which contract a declarer would choose with
each of thousands of possible hands; evaluating each by simulation would take
seconds.  :class:`HandProxy` is fitted once on the value table's sample hands
(their Monte Carlo estimates over the whole :class:`evaluation.EvalGrid`) and then
predicts every seat's expected raw score in every configuration from the cards
alone, in microseconds per hand:

- negative contracts: one regression on the 52 cards held;
- Trumps: one regression for all four suits, on the trump suit's 13 cards, the
  side suits' cards pooled by rank and the side suits' lengths (sorted);
- Domino: one regression for all 13 starting ranks, on how many suits hold each
  rank at each distance (-12 .. +12) from the starting rank.

How far the proxy can be trusted differs by contract: :func:`advantage_r2` measures,
on held-out table hands, how much of the declarer's advantage over the defenders it
explains (about 0.3-0.7 in the negative contracts, 0.9 in Trumps, 0.2 or less in Domino).
"""

from __future__ import annotations

import numpy as np

from ..rules.config import NEGATIVE_CONTRACTS
from .evaluation import EvalGrid

RIDGE = 3.0


def card_bits(hands) -> np.ndarray:
    """(n, 52) 0/1 matrix of the cards held, from (n,) uint64 masks."""
    h = np.asarray(hands, np.uint64).reshape(-1, 1)
    return ((h >> np.arange(52, dtype=np.uint64)) & np.uint64(1)).astype(float)


def _bias(x: np.ndarray) -> np.ndarray:
    return np.hstack([np.ones((len(x), 1)), x])


def negative_features(bits: np.ndarray) -> np.ndarray:
    return _bias(bits)


def trump_features(bits: np.ndarray, suit: int) -> np.ndarray:
    lanes = bits.reshape(-1, 4, 13)
    side = [s for s in range(4) if s != suit]
    lengths = np.sort(lanes[:, side, :].sum(axis=2), axis=1)
    return _bias(np.hstack([lanes[:, suit, :], lanes[:, side, :].sum(axis=1), lengths]))


def domino_features(bits: np.ndarray, rank: int) -> np.ndarray:
    by_rank = bits.reshape(-1, 4, 13).sum(axis=1)  # suits holding each rank
    out = np.zeros((len(bits), 25))
    for k in range(-12, 13):
        if 0 <= rank + k < 13:
            out[:, k + 12] = by_rank[:, rank + k]
    return _bias(out)


def _ridge(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    reg = RIDGE * np.eye(x.shape[1])
    reg[0, 0] = 0.0  # no penalty on the intercept
    return np.linalg.solve(x.T @ x + reg, x.T @ y)


class HandProxy:
    """Every seat's expected raw score per configuration, predicted from the declarer's cards.

    ``hands``: (n,) uint64 sample hands; ``grid_mean``: (n, EvalGrid.SIZE, 4) their
    Monte Carlo estimates (seats relative to the declarer).
    """

    def __init__(self, hands, grid_mean: np.ndarray):
        bits = card_bits(hands)
        n_neg = len(NEGATIVE_CONTRACTS)
        self.negative = _ridge(negative_features(bits), grid_mean[:, :n_neg, :].reshape(len(bits), -1))
        xs = [trump_features(bits, s) for s in range(4)]
        ys = [grid_mean[:, EvalGrid.TRUMPS_FROM + s, :] for s in range(4)]
        self.trumps = _ridge(np.vstack(xs), np.vstack(ys))
        xs = [domino_features(bits, r) for r in range(13)]
        ys = [grid_mean[:, EvalGrid.DOMINO_FROM + r, :] for r in range(13)]
        self.domino = _ridge(np.vstack(xs), np.vstack(ys))

    @classmethod
    def from_table(cls, table) -> "HandProxy":
        return cls(table.hands, table.grid_mean)

    def predict(self, hands) -> np.ndarray:
        """(n, EvalGrid.SIZE, 4) predicted estimates for (n,) declarer hands (seats relative to the declarer).

        The same features as the fit, computed for all suits / ranks at once.
        """
        bits = card_bits(hands)
        n = len(bits)
        out = np.empty((n, EvalGrid.SIZE, 4))
        out[:, :EvalGrid.TRUMPS_FROM, :] = (bits @ self.negative[1:] + self.negative[0]).reshape(n, -1, 4)
        lanes = bits.reshape(n, 4, 13)
        lengths = lanes.sum(axis=2)
        pooled = lanes.sum(axis=1)
        w = self.trumps
        for s in range(4):
            side = np.sort(np.delete(lengths, s, axis=1), axis=1)
            out[:, EvalGrid.TRUMPS_FROM + s, :] = (w[0] + lanes[:, s, :] @ w[1:14]
                                                   + (pooled - lanes[:, s, :]) @ w[14:27] + side @ w[27:30])
        padded = np.zeros((n, 37))
        padded[:, 12:25] = pooled
        # Starting rank r sees the ranks r-12 .. r+12: columns r .. r+24 of the padded counts.
        windows = np.lib.stride_tricks.sliding_window_view(padded, 25, axis=1)[:, :13, :]  # (n, 13, 25)
        out[:, EvalGrid.DOMINO_FROM:, :] = windows @ self.domino[1:] + self.domino[0]
        return out


def grid_to_contracts(grid: np.ndarray):
    """From (n, EvalGrid.SIZE, 4) estimates to ``(values (n, 7), params (n, 7), seat_values (n, 7, 4))``:
    per contract the declarer's value with the best trump suit / domino rank, as
    :meth:`evaluation.EvalGrid.contract_values` does for one hand."""
    from ..rules.config import DOMINO, N_CONTRACTS, TRUMPS
    n = len(grid)
    params = np.zeros((n, N_CONTRACTS), np.int64)
    seat_values = np.zeros((n, N_CONTRACTS, 4))
    rows = np.arange(n)
    for i, c in enumerate(NEGATIVE_CONTRACTS):
        seat_values[:, c, :] = grid[:, i, :]
    for c, lo, hi in ((TRUMPS, EvalGrid.TRUMPS_FROM, EvalGrid.DOMINO_FROM),
                      (DOMINO, EvalGrid.DOMINO_FROM, EvalGrid.SIZE)):
        best = np.argmax(grid[:, lo:hi, 0], axis=1)
        params[:, c] = best
        seat_values[:, c, :] = grid[rows, lo + best, :]
    return seat_values[:, :, 0].copy(), params, seat_values


def advantage_r2(hands, grid_mean: np.ndarray) -> np.ndarray:
    """(N_CONTRACTS,) the share of the variance of the declarer's advantage (its expected score minus
    the defenders' mean) that the proxy explains on hands it was not fitted on.

    Two-fold cross-validation over the sample hands (even and odd positions); a
    contract's columns (four trump suits, thirteen domino ranks) are pooled.  The
    targets are Monte Carlo estimates, so their own noise caps the figure below 1.
    With fewer than 4 sample hands, or an advantage that does not vary, nothing can
    be judged and the figure is 0.
    """
    from ..rules.config import DOMINO, N_CONTRACTS, TRUMPS
    hands = np.asarray(hands, np.uint64)
    grid_mean = np.asarray(grid_mean, float)
    if len(hands) < 4:
        return np.zeros(N_CONTRACTS)
    folds = (np.arange(len(hands)) % 2 == 0, np.arange(len(hands)) % 2 == 1)
    predicted = np.empty_like(grid_mean)
    for fit, held in (folds, folds[::-1]):
        predicted[held] = HandProxy(hands[fit], grid_mean[fit]).predict(hands[held])
    real_adv = grid_mean[:, :, 0] - grid_mean[:, :, 1:].mean(axis=2)
    pred_adv = predicted[:, :, 0] - predicted[:, :, 1:].mean(axis=2)
    out = np.zeros(N_CONTRACTS)
    for c in range(N_CONTRACTS):
        if c == TRUMPS:
            cols = slice(EvalGrid.TRUMPS_FROM, EvalGrid.DOMINO_FROM)
        elif c == DOMINO:
            cols = slice(EvalGrid.DOMINO_FROM, EvalGrid.SIZE)
        else:
            i = NEGATIVE_CONTRACTS.index(c)
            cols = slice(i, i + 1)
        r, q = real_adv[:, cols], pred_adv[:, cols]
        spread = r.var()
        if not spread > 1e-9 * (1.0 + np.abs(r).mean() ** 2):  # no spread (or NaN): nothing to read
            continue
        out[c] = 1.0 - ((q - r) ** 2).mean() / spread
    return out
