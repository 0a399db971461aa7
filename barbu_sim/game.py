"""Full 28-hand games: declarer rotation, contract choice, the doubling round, settlement.

A game is a pure function of its seed, the players' play strategies, their
contract-choice policies and their doubling policies.  Deal ``h`` of game ``g``
is ``random_deal(seed, 28 * g + h)``.  Everything a rule forbids (an illegal or
repeated contract, an illegal double) raises ``ValueError`` with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .cards import SEAT_LETTERS, random_deal
from .choices import param_name
from .engine import play_deal
from .rules import CONTRACTS, DOMINO, POSITIVE_CONTRACTS, TRUMPS, Rules

HANDS_PER_GAME = 28
BLOCK = 7


def declarer_of(hand_no: int, first: int, rules: Rules) -> int:
    """The declarer of hand ``hand_no`` (0..27) when ``first`` declares first."""
    if rules.rotation == "every-dealer":
        return (first + hand_no) % 4
    return (first + hand_no // BLOCK) % 4


def settle(raw, doubles) -> np.ndarray:
    """Pair-by-pair settlement of one hand.

    ``raw``: the four raw scores; ``doubles[a][b]``: True when ``a`` doubled ``b``.
    A pair with one double settles ``|a - b|`` to the higher scorer, a double
    and redouble ``2 |a - b|``; the result sums to zero.
    """
    out = np.zeros(4, np.int64)
    for a in range(4):
        for b in range(a + 1, 4):
            m = int(bool(doubles[a][b])) + int(bool(doubles[b][a]))
            if m and raw[a] != raw[b]:
                gain = m * abs(int(raw[a]) - int(raw[b]))
                winner, loser = (a, b) if raw[a] > raw[b] else (b, a)
                out[winner] += gain
                out[loser] -= gain
    return out


@dataclass
class DoublingState:
    """What the doubling round needs to know: compulsory-double counts per declarer's block."""

    rules: Rules
    first: int
    counts: np.ndarray = field(default_factory=lambda: np.zeros((4, 4), np.int64))  # [player, declarer]

    def hands_left(self, hand_no: int, declarer: int) -> int:
        """Hands of ``declarer``'s block still to play, this one included."""
        return sum(1 for h in range(hand_no, HANDS_PER_GAME) if declarer_of(h, self.first, self.rules) == declarer)

    def must_double(self, player: int, declarer: int, hand_no: int) -> bool:
        """True when ``player`` must double ``declarer`` now to reach the two compulsory doubles."""
        k = int(self.counts[player, declarer])
        return player != declarer and k < 2 and self.hands_left(hand_no, declarer) <= 2 - k


def allowed_targets(player: int, declarer: int, contract: int, doubles) -> set[int]:
    """The seats ``player`` may double on their turn."""
    if player == declarer:
        return {p for p in range(4) if p != declarer and doubles[p][declarer]}
    if contract in POSITIVE_CONTRACTS:
        return {declarer}
    return {p for p in range(4) if p != player}


def verify_doubles(player: int, targets, declarer: int, contract: int, doubles, forced: bool) -> None:
    """Raise ``ValueError`` unless ``player`` may double exactly ``targets`` now."""
    allowed = allowed_targets(player, declarer, contract, doubles)
    for t in targets:
        if t == player:
            raise ValueError(f"{SEAT_LETTERS[player]} cannot double themselves")
        if t not in allowed:
            if player == declarer:
                raise ValueError(f"the declarer {SEAT_LETTERS[player]} may only redouble players who doubled them, "
                                 f"not {SEAT_LETTERS[t]}")
            raise ValueError(f"in {CONTRACTS[contract]} {SEAT_LETTERS[player]} may only double the declarer, "
                             f"not {SEAT_LETTERS[t]}")
    if forced and declarer not in targets:
        raise ValueError(f"{SEAT_LETTERS[player]} must double the declarer {SEAT_LETTERS[declarer]} now "
                         "(two compulsory doubles per block)")


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
        return sum((h.final for h in self.hands), np.zeros(4, np.int64))

    @property
    def raw_totals(self) -> np.ndarray:
        return sum((h.raw for h in self.hands), np.zeros(4, np.int64))

    @property
    def winners(self) -> list[int]:
        t = self.totals
        return [s for s in range(4) if t[s] == t.max()]


def play_game(seed: int, game: int, players, *, rules: Rules | None = None, first: int | None = None,
              hands_given=None) -> GameResult:
    """Play one 28-hand game.

    ``players``: four :class:`policies.Player` (strategy, contract policy, doubling policy).
    ``first``: the first declarer (default: drawn from the seed).  ``hands_given``:
    optional list of 28 deals ((4,) uint64) to play instead of the seed's.
    """
    rules = rules or Rules()
    if first is None:
        first = int(np.random.default_rng([seed, game]).integers(4))
    strategies = [p.strategy for p in players]
    dstate = DoublingState(rules, first)
    used = {s: set() for s in range(4)}
    hands = []
    for h in range(HANDS_PER_GAME):
        d = declarer_of(h, first, rules)
        deal = random_deal(seed, HANDS_PER_GAME * game + h) if hands_given is None else hands_given[h]
        remaining = [c for c in range(7) if c not in used[d]]
        contract, param = players[d].contract_policy.choose(deal[d], remaining, d, rules)
        if contract not in remaining:
            raise ValueError(f"{players[d].contract_policy.name} chose {CONTRACTS[contract]} for "
                             f"{SEAT_LETTERS[d]}, which is not one of the remaining contracts")
        if contract == TRUMPS and not 0 <= param < 4 or contract == DOMINO and not 0 <= param < 13:
            raise ValueError(f"{players[d].contract_policy.name} named an invalid trump suit / rank {param}")
        used[d].add(contract)
        doubles = [[False] * 4 for _ in range(4)]
        for k in (1, 2, 3, 0):
            p = (d + k) % 4
            forced = dstate.must_double(p, d, h)
            allowed = allowed_targets(p, d, contract, doubles)
            targets = players[p].doubling_policy.choose(p, d, contract, param, deal[p], allowed, forced, rules)
            verify_doubles(p, targets, d, contract, doubles, forced)
            for t in targets:
                doubles[p][t] = True
                if t == d:
                    dstate.counts[p, d] += 1
        result = play_deal(deal, contract, strategies, param=param, declarer=d, rules=rules,
                           seed=seed, index=HANDS_PER_GAME * game + h)
        hands.append(HandRecord(h, d, (d + 3) % 4, (d + 2) % 4, contract, param, doubles,
                                result.scores.copy(), settle(result.scores, doubles)))
    return GameResult(seed, game, first, hands)


def score_sheet(game: GameResult) -> str:
    """A Barbu score sheet: one line per hand with each player's raw score, settled score and running
    total; doubles marked (``x`` double, ``xx`` double and redouble), doubles on the declarer flagged ``*``."""
    width = 40
    lines = [f"Game {game.game} of seed {game.seed}; first declarer {SEAT_LETTERS[game.first]}",
             "  ExN: East doubled North; xx: doubled and redoubled; * a double on the declarer",
             "",
             f"{'hand':>4} {'decl':>4}  {'contract':<14} {'doubles':<{width}}" +
             "".join(f"{SEAT_LETTERS[s]:>19}" for s in range(4)),
             f"{'':>4} {'':>4}  {'':<14} {'':<{width}}" + "".join(f"{'raw settled  total':>19}" for _ in range(4))]
    running = np.zeros(4, np.int64)
    for h in game.hands:
        marks = []
        for a in range(4):
            for b in range(4):
                if h.doubles[a][b]:
                    re = "x" if h.doubles[b][a] else ""
                    flag = "*" if b == h.declarer else ""
                    marks.append(f"{SEAT_LETTERS[a]}x{re}{SEAT_LETTERS[b]}{flag}")
        running += h.final
        cells = "".join(f"{int(h.raw[s]):>5} {int(h.final[s]):>+7} {int(running[s]):>+6}" for s in range(4))
        lines.append(f"{h.hand_no + 1:>4} {SEAT_LETTERS[h.declarer]:>4}  {h.contract_label():<14} "
                     f"{' '.join(marks):<{width}}{cells}")
        if (h.hand_no + 1) % BLOCK == 0 and h.hand_no + 1 < HANDS_PER_GAME:
            lines.append("")
    t = game.totals
    lines.append("")
    lines.append("Totals:  " + "  ".join(f"{SEAT_LETTERS[s]} {int(t[s]):+d}" for s in range(4)) +
                 f"   (sum {int(t.sum()):+d}); winner: " + ", ".join(SEAT_LETTERS[w] for w in game.winners))
    return "\n".join(lines)
