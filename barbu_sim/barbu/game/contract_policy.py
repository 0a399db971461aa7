"""The base of every contract-choice policy: how a policy is asked for a contract, for one hand or many."""

from __future__ import annotations

import numpy as np

from ..rules.config import DOMINO, N_CONTRACTS, TRUMPS
from .evaluation import Evaluator


class ContractPolicy:
    """Base: ``choose(hand, remaining, seat, rules, owed) -> (contract, param)``.

    A policy that ranks the contracts implements :meth:`score_matrix`, which scores
    many hands at once (the doubling policy ``bayes`` asks what the declarer would
    choose with thousands of possible hands).
    """

    name = "policy"

    def __init__(self, evaluator: Evaluator):
        self.evaluator = evaluator

    def score_matrix(self, values, seat_values, remaining, owed) -> np.ndarray:
        """(n, 7) scores of each contract for n hands (``-inf`` for contracts not left).

        ``values``: (n, 7) declarer values; ``seat_values``: (n, 7, 4) every seat's,
        relative to the declarer; ``owed``: doubles each opponent still owes (left, across, right).
        """
        raise NotImplementedError

    def scores(self, values, remaining, owed=(0, 0, 0), seat_values=None) -> dict[int, float]:
        """The score of each remaining contract for one hand."""
        sv = np.zeros((1, N_CONTRACTS, 4)) if seat_values is None else np.asarray(seat_values)[None]
        row = self.score_matrix(np.asarray(values)[None], sv, list(remaining), tuple(owed))[0]
        return {c: float(row[c]) for c in remaining}

    def choose(self, hand, remaining, seat, rules, owed=(0, 0, 0)):
        values, params, _ = self.evaluator.values(hand, seat)
        scores = self.scores(values, remaining, owed, self.evaluator.seat_values(hand, seat))
        best = max(remaining, key=lambda c: (scores[c], -c))
        return best, int(params[best]) if best in (TRUMPS, DOMINO) else 0

    def choose_many(self, hands, values, params, seat_values, remaining, owed):
        """``(contract (n,), param (n,))`` chosen for n hands from their estimates (ties: the lowest id)."""
        best = np.argmax(self.score_matrix(values, seat_values, list(remaining), tuple(owed)), axis=1)
        return best, params[np.arange(len(best)), best]


def masked(scores: np.ndarray, remaining) -> np.ndarray:
    """``scores`` with ``-inf`` for every contract not in ``remaining`` (a policy never declares one twice)."""
    out = np.full(scores.shape, -np.inf)
    out[:, list(remaining)] = scores[:, list(remaining)]
    return out
