"""Fitting the learned players: a small network fitted to each candidate's value relative to its decision.

Both games' learned players (``barbu_sim.barbu.players.learned``, ``barbu_sim.clabber.players.learned``)
are a linear part plus rectified hidden units over one feature vector per legal card, and only ever
compare the cards of one decision; so the network is fitted to each card's value less the mean of its
decision's cards, by Adam on the squared error.  ``barbu-sim train player`` and
``barbu-sim clabber train`` fit with these; numpy only.
"""

from __future__ import annotations

import numpy as np


def centred(values: np.ndarray, group: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``values`` less the mean of their decision (``group``: 0-based decision of each row)."""
    if values.ndim == 1:
        return values - (np.bincount(group, values, len(counts)) / counts)[group]
    means = np.stack([np.bincount(group, values[:, j], len(counts)) for j in range(values.shape[1])], 1)
    return values - means[group] / counts[group, None]


class Net:
    """A linear part plus ``hidden`` rectified units over ``features`` inputs, as the kernels evaluate it
    (each game's ``learned.predict``)."""

    def __init__(self, hidden: int, rng: np.random.Generator, features: int):
        self.w = np.zeros(features)
        self.W1 = rng.normal(0, 0.3, (hidden, features))
        self.b1 = np.full(hidden, 0.1)
        self.w2 = rng.normal(0, 0.3, hidden)

    def params(self):
        return [self.w, self.W1, self.b1, self.w2]

    def forward(self, x):
        a = x @ self.W1.T + self.b1
        h = np.maximum(a, 0.0)
        return x @ self.w + h @ self.w2, a, h

    def grads(self, x, g):
        """Gradients of sum(g * prediction) by each parameter."""
        _, a, h = self.forward(x)
        gh = np.outer(g, self.w2) * (a > 0)
        return [x.T @ g, gh.T @ x, gh.sum(0), h.T @ g]

    def to_json(self) -> dict:
        out = {"w": self.w.round(6).tolist()}
        if len(self.b1):
            out.update(W1=self.W1.round(6).tolist(), b1=self.b1.round(6).tolist(), w2=self.w2.round(6).tolist())
        return out


def fit(x, y, group, counts, hidden: int, epochs: int, rng: np.random.Generator, l2: float = 1e-4) -> Net:
    """Adam on the squared error of each card's value relative to its decision's mean."""
    yc = centred(y, group, counts)
    net = Net(hidden, rng, x.shape[1])
    if hidden == 0:  # the linear part alone: ridge regression on centred features, in closed form
        xc = centred(x, group, counts)
        net.w = np.linalg.solve(xc.T @ xc + l2 * len(x) * np.eye(x.shape[1]), xc.T @ yc)
        return net
    params = net.params()
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    n_dec = len(counts)
    step = 0
    batch = 2048  # decisions per step
    for _ in range(epochs):
        # The decisions in a new random order, each one's rows together: a step is then a contiguous slice.
        rank = rng.permutation(n_dec)[group]
        order = np.argsort(rank, kind="stable")
        xs, ys, gs = x[order], yc[order], rank[order]
        starts = np.searchsorted(gs, np.arange(0, n_dec + batch, batch))
        for b in range(len(starts) - 1):
            lo, hi = starts[b], starts[b + 1]
            if lo == hi:
                break
            xb, gb = xs[lo:hi], gs[lo:hi] - b * batch
            pred = net.forward(xb)[0]
            pc = pred - (np.bincount(gb, pred, batch) / np.maximum(np.bincount(gb, minlength=batch), 1))[gb]
            g = 2.0 * (pc - ys[lo:hi]) / len(xb)
            step += 1
            lr = 3e-3 if step < 2000 else 1e-3
            for p, gp, mm, vv in zip(params, net.grads(xb, g), m, v):
                gp = gp + l2 * p
                mm *= 0.9
                mm += 0.1 * gp
                vv *= 0.999
                vv += 0.001 * gp * gp
                p -= lr * (mm / (1 - 0.9 ** step)) / (np.sqrt(vv / (1 - 0.999 ** step)) + 1e-8)
    return net


def regrets(pred, y, group, counts, heur) -> tuple[float, float]:
    """Mean points lost per decision against the best value: following ``pred``, and following the heuristic."""
    n = len(counts)
    order = np.lexsort((-pred, group))  # per decision, the highest prediction first
    first = np.r_[0, np.cumsum(counts.astype(np.int64))[:-1]]
    chosen = y[order][first]
    best = np.full(n, -np.inf)
    np.maximum.at(best, group, y)
    h = np.full(n, np.nan)
    h[group[heur]] = y[heur]
    return float(np.mean(best - chosen)), float(np.mean(best - h))


def groups_of(decision: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """0-based decision index of each row (rows of a decision are adjacent) and rows per decision."""
    _, group, counts = np.unique(decision, return_inverse=True, return_counts=True)
    return group, counts.astype(np.float64)
