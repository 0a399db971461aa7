"""Playing full 28-hand games: contract choice, the doubling round, play, settlement; the score sheet.

A game is a pure function of its seed, the players' play strategies, their
contract-choice policies and their doubling policies.  Deal ``h`` of game ``g``
is ``random_deal(seed, 28 * g + h)``, and the first declarer is drawn from the
counter-based stream of ``(seed, game)``.  Everything a rule forbids (an illegal
or repeated contract, an illegal double) raises ``ValueError`` with the reason
(the rules are :class:`rules.GameReferee`'s).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.rng import STREAM_GAME, rand_below, stream_key
from ...core.seats import N_SEATS, SEAT_LETTERS
from ..api import play_deal
from ..rules.choices import param_name
from ..engine.deals import random_deal
from ..rules.config import CONTRACTS, Rules
from .doubling import Situation
from .rules import (
    doubles_text,
    BLOCK, HANDS_PER_GAME, GameReferee, allowed_targets, cutter_of, dealer_of, doubling_order, no_doubles, settle,
)


@dataclass
class HandRecord:
    """One hand of a game: who declared what, the doubles, raw and settled scores."""

    hand_no: int
    declarer: int
    dealer: int
    cutter: int
    contract: int
    param: int
    doubles: list  # 4x4 booleans, doubles[a][b]: a doubled b
    raw: np.ndarray
    settlement: np.ndarray

    @property
    def final(self) -> np.ndarray:
        return self.raw + self.settlement

    def contract_label(self) -> str:
        name = param_name(self.contract, self.param)
        return CONTRACTS[self.contract] + (f" {name}" if name else "")


@dataclass
class GameResult:
    seed: int
    game: int
    first: int
    hands: list[HandRecord]

    @property
    def totals(self) -> np.ndarray:
        return sum((h.final for h in self.hands), np.zeros(N_SEATS, np.int64))

    @property
    def raw_totals(self) -> np.ndarray:
        return sum((h.raw for h in self.hands), np.zeros(N_SEATS, np.int64))

    @property
    def winners(self) -> list[int]:
        t = self.totals
        return [s for s in range(4) if t[s] == t.max()]


def first_declarer(seed: int, game: int) -> int:
    """The first declarer of game ``game`` of ``seed``: a draw from the game's own counter-based stream."""
    state = np.array([stream_key(np.uint64(seed % 2**64), np.uint64(game), STREAM_GAME)], np.uint64)
    return int(rand_below(state, N_SEATS))


def play_game(seed: int, game: int, players, *, rules: Rules | None = None, first: int | None = None,
              hands_given=None) -> GameResult:
    """Play one 28-hand game.

    ``players``: four :class:`policies.Player` (strategy, contract policy, doubling policy).
    ``first``: the first declarer (default: :func:`first_declarer`).  ``hands_given``:
    optional list of 28 deals ((4,) uint64) to play instead of the seed's.
    """
    rules = rules or Rules()
    if first is None:
        first = first_declarer(seed, game)
    strategies = [p.strategy for p in players]
    referee = GameReferee(rules, first)
    hands = []
    for h in range(HANDS_PER_GAME):
        d = referee.declarer(h)
        index = HANDS_PER_GAME * game + h
        deal = random_deal(seed, index) if hands_given is None else hands_given[h]
        chooser = players[d].contract_policy
        remaining = referee.remaining(d)
        owed = referee.owed(d)
        contract, param = chooser.choose(deal[d], remaining, d, rules, owed)
        referee.declare(d, contract, param, who=chooser.name)
        situation = Situation(index, tuple(remaining), owed, chooser)
        doubles = no_doubles()
        for p in doubling_order(d):
            forced = referee.must_double(p, d, h)
            allowed = allowed_targets(p, d, contract, doubles)
            targets = players[p].doubling_policy.choose(p, d, contract, param, deal[p], allowed, forced, rules,
                                                        situation)
            referee.double(h, p, targets, d, contract, doubles)
        result = play_deal(deal, contract, strategies, param=param, declarer=d, rules=rules,
                           seed=seed, index=index)
        # result.param: the rank played, which domino-start=fixed:R may set instead of the one named
        hands.append(HandRecord(h, d, dealer_of(d), cutter_of(d), contract, result.param, doubles,
                                result.scores.copy(), settle(result.scores, doubles)))
    referee.finish()
    return GameResult(seed, game, first, hands)


def score_sheet(game: GameResult) -> str:
    """A Barbu score sheet: one line per hand with each player's raw score, settled score and running
    total; the doubles written as ``table`` and ``sheet`` write them (``E>N*``: East doubled North, the
    declarer; ``N>E``: North redoubled East)."""
    width = 40
    lines = [f"Game {game.game} of seed {game.seed}; first declarer {SEAT_LETTERS[game.first]}",
             "  E>N: East doubled North (and N>E: North redoubled); *: a double on the declarer",
             "",
             f"{'hand':>4} {'decl':>4}  {'contract':<14} {'doubles':<{width}}" +
             "".join(f"{SEAT_LETTERS[s]:>19}" for s in range(4)),
             f"{'':>4} {'':>4}  {'':<14} {'':<{width}}" + "".join(f"{'raw settled  total':>19}" for _ in range(4))]
    running = np.zeros(4, np.int64)
    for h in game.hands:
        marks = doubles_text(h.doubles, h.declarer)
        running += h.final
        cells = "".join(f"{int(h.raw[s]):>5} {int(h.final[s]):>+7} {int(running[s]):>+6}" for s in range(4))
        lines.append(f"{h.hand_no + 1:>4} {SEAT_LETTERS[h.declarer]:>4}  {h.contract_label():<14} "
                     f"{'' if marks == '-' else marks:<{width}}{cells}")
        if (h.hand_no + 1) % BLOCK == 0 and h.hand_no + 1 < HANDS_PER_GAME:
            lines.append("")
    t = game.totals
    lines.append("")
    lines.append("Totals:  " + "  ".join(f"{SEAT_LETTERS[s]} {int(t[s]):+d}" for s in range(4)) +
                 f"   (sum {int(t.sum()):+d}); winner: " + ", ".join(SEAT_LETTERS[w] for w in game.winners))
    return "\n".join(lines)
