"""The rules of a full game of Barbu: who declares, the doubling round, settlement, and one referee.

:class:`GameReferee` is the single statement of what a game must keep (each
declarer names each contract once, every double is allowed, the compulsory
doubles are made); :func:`game.play_game` consults it as it plays, and
:func:`check_game` replays recorded hands through it (``barbu-sim verify-games``).
"""

from __future__ import annotations

import numpy as np

from ...core.seats import N_SEATS, SEAT_LETTERS, across_from, left_of, right_of
from ..rules.choices import check_param
from ..rules.config import CONTRACTS, DOMINO, N_CONTRACTS, POSITIVE_CONTRACTS, Rules

HANDS_PER_GAME = 28
BLOCK = 7  # hands a declarer declares: one per contract
COMPULSORY_DOUBLES = 2  # each player doubles each declarer at least this often per block


def declarer_of(hand_no: int, first: int, rules: Rules) -> int:
    """The declarer of hand ``hand_no`` (0..27) when ``first`` declares first."""
    if rules.rotation == "every-dealer":
        return left_of(first, hand_no)
    return left_of(first, hand_no // BLOCK)


def dealer_of(declarer: int) -> int:
    """The dealer sits on the declarer's right."""
    return right_of(declarer)


def cutter_of(declarer: int) -> int:
    """The cutter sits across from the declarer."""
    return across_from(declarer)


def doubling_order(declarer: int) -> list[int]:
    """Who speaks in the doubling round: left, across, right of the declarer, then the declarer."""
    return [left_of(declarer, k) for k in (1, 2, 3, 0)]


def no_doubles() -> list[list[bool]]:
    """A fresh 4x4 doubles table, ``doubles[a][b]``: ``a`` doubled ``b``."""
    return [[False] * N_SEATS for _ in range(N_SEATS)]


def settle(raw, doubles, lower_is_better: bool = False) -> np.ndarray:
    """Pair-by-pair settlement of one hand.

    ``raw``: the four raw scores; ``doubles[a][b]``: True when ``a`` doubled ``b``.
    A pair with one double settles ``|a - b|`` to the higher scorer, a double
    and redouble ``2 |a - b|``; the result sums to zero.  Where the lowest total
    wins (``lower_is_better``) the lower scorer is the better and its total moves
    down by the stake: the mirror image, ``-settle(-raw)``.
    """
    if lower_is_better:
        return -settle([-int(r) for r in raw], doubles)
    out = np.zeros(N_SEATS, np.int64)
    for a in range(N_SEATS):
        for b in range(a + 1, N_SEATS):
            m = int(bool(doubles[a][b])) + int(bool(doubles[b][a]))
            if m and raw[a] != raw[b]:
                gain = m * abs(int(raw[a]) - int(raw[b]))
                winner, loser = (a, b) if raw[a] > raw[b] else (b, a)
                out[winner] += gain
                out[loser] -= gain
    return out


def allowed_targets(player: int, declarer: int, contract: int, doubles) -> set[int]:
    """The seats ``player`` may double on their turn."""
    if player == declarer:
        return {p for p in range(N_SEATS) if p != declarer and doubles[p][declarer]}
    if contract in POSITIVE_CONTRACTS:
        return {declarer}
    return {p for p in range(N_SEATS) if p != player}


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
                         f"({COMPULSORY_DOUBLES} compulsory doubles per block)")


class GameReferee:
    """Follows one game hand by hand and raises ``ValueError`` at the first broken rule.

    ``first`` declares first; :meth:`declare` and :meth:`double` check and record
    each hand's contract and doubles, :meth:`finish` what must hold at the end.
    """

    def __init__(self, rules: Rules, first: int):
        self.rules = rules
        self.first = first
        self.used: list[set[int]] = [set() for _ in range(N_SEATS)]
        self.doubles_on = np.zeros((N_SEATS, N_SEATS), np.int64)  # [player, declarer]: doubles so far

    def declarer(self, hand_no: int) -> int:
        return declarer_of(hand_no, self.first, self.rules)

    def remaining(self, declarer: int) -> list[int]:
        """The contracts ``declarer`` has still to name."""
        return [c for c in range(N_CONTRACTS) if c not in self.used[declarer]]

    def hands_left(self, hand_no: int, declarer: int) -> int:
        """Hands of ``declarer``'s block still to play, this one included."""
        return sum(1 for h in range(hand_no, HANDS_PER_GAME) if self.declarer(h) == declarer)

    def owed(self, declarer: int) -> tuple[int, int, int]:
        """The doubles ``declarer``'s left, across and right still owe them this block."""
        return tuple(max(COMPULSORY_DOUBLES - int(self.doubles_on[left_of(declarer, r), declarer]), 0)
                     for r in (1, 2, 3))

    def must_double(self, player: int, declarer: int, hand_no: int) -> bool:
        """True when ``player`` must double ``declarer`` now to make the compulsory doubles."""
        k = int(self.doubles_on[player, declarer])
        return (player != declarer and k < COMPULSORY_DOUBLES
                and self.hands_left(hand_no, declarer) <= COMPULSORY_DOUBLES - k)

    def declare(self, declarer: int, contract: int, param: int, who: str = "") -> None:
        """Check and record that ``declarer`` names ``contract`` (with trump suit / rank ``param``)."""
        who = who or SEAT_LETTERS[declarer]
        if not 0 <= contract < N_CONTRACTS:
            raise ValueError(f"{who} named contract {contract}, which is not a contract")
        if contract in self.used[declarer]:
            raise ValueError(f"{who} chose {CONTRACTS[contract]} for {SEAT_LETTERS[declarer]} a second time: "
                             "it is not one of the remaining contracts")
        try:
            check_param(contract, param)
        except ValueError as e:
            raise ValueError(f"{who} named an invalid trump suit / rank: {e}") from None
        self.used[declarer].add(contract)

    def double(self, hand_no: int, player: int, targets, declarer: int, contract: int, doubles) -> None:
        """Check ``player``'s doubles on their turn (compulsory ones included), then enter them in ``doubles``."""
        verify_doubles(player, targets, declarer, contract, doubles,
                       self.must_double(player, declarer, hand_no))
        for t in targets:
            doubles[player][t] = True
            if t == declarer:
                self.doubles_on[player, declarer] += 1

    def finish(self) -> None:
        """What must hold after the last hand: seven contracts each, the compulsory doubles all made."""
        for d in range(N_SEATS):
            if len(self.used[d]) != BLOCK:
                raise ValueError(f"{SEAT_LETTERS[d]} declared {len(self.used[d])} contracts, not {BLOCK}")
            for p in range(N_SEATS):
                if p != d and self.doubles_on[p, d] < COMPULSORY_DOUBLES:
                    raise ValueError(f"{SEAT_LETTERS[p]} doubled declarer {SEAT_LETTERS[d]} "
                                     f"{self.doubles_on[p, d]} time(s), fewer than the {COMPULSORY_DOUBLES} "
                                     "compulsory doubles")


def check_raw_scores(contract: int, raw: list[int], rules: Rules) -> None:
    """Raw scores a hand of ``contract`` can give: four, each a possible seat score, the right total (ValueError
    otherwise); the sheet checks what is typed and ``verify-games`` what a game file holds."""
    if len(raw) != N_SEATS:
        raise ValueError(f"give four raw scores (N E S W), not {len(raw)}")
    possible = rules.seat_scores(contract)
    for seat, score in enumerate(raw):
        if score not in possible:
            raise ValueError(f"{SEAT_LETTERS[seat]} cannot score {score} in {CONTRACTS[contract]}")
    if contract == DOMINO and sorted(raw) != sorted(rules.domino_payout):
        raise ValueError(f"Domino pays {sorted(rules.domino_payout)} by finishing order, not {sorted(raw)}")
    if sum(raw) != rules.contract_total(contract):
        raise ValueError(f"raw scores add up to {sum(raw)}, not {rules.contract_total(contract)}")


def check_game(hands: list[dict], rules: Rules, *, in_progress: bool = False) -> GameReferee:
    """Check one recorded game against the rules; raise ``ValueError`` naming the hand and the broken rule.

    ``hands``: the game's rows in hand order, each with ``hand``, ``contract``
    (name), ``declarer``, ``dealer``, ``cutter``, ``param`` (trump suit / domino
    rank, 0 otherwise), ``doubles`` (4x4 booleans), ``raw`` and ``settled`` (four
    scores each), and optionally ``doubles_on_declarer``.  ``in_progress``: the
    first hands of a game not yet over, checked by the same rules (a compulsory
    double is owed only once the hands left run out); the end-of-game checks wait.
    Returns the referee, which knows what is still to play.
    """
    numbers = [h["hand"] for h in hands]
    if in_progress and 0 < len(numbers) < HANDS_PER_GAME:  # the first hands of a game, in order
        wrong = next((i for i, n in enumerate(numbers) if n != i), None)
        if wrong is not None:
            raise ValueError(f"hands are numbered 0, 1, 2...: hand {wrong} is missing (the record has "
                             f"{numbers[wrong]} there)")
    elif numbers != list(range(HANDS_PER_GAME)):
        if len(numbers) != HANDS_PER_GAME:
            raise ValueError(f"a game has {HANDS_PER_GAME} hands, numbered 0..{HANDS_PER_GAME - 1}, "
                             f"not {len(numbers)} hands")
        missing = sorted(set(range(HANDS_PER_GAME)) - set(numbers))
        extra = sorted(n for n in set(numbers) if not 0 <= n < HANDS_PER_GAME or numbers.count(n) > 1)
        raise ValueError(f"hands are numbered 0..{HANDS_PER_GAME - 1}: hand {missing[0]} is missing"
                         + (f" (column hand has {extra[0]} instead)" if extra else ""))
    referee = GameReferee(rules, hands[0]["declarer"])
    for h in hands:
        where = f"hand {h['hand']}"
        try:
            d, c = h["declarer"], h["contract"]
            if d != referee.declarer(h["hand"]):
                raise ValueError(f"{SEAT_LETTERS[referee.declarer(h['hand'])]} declares this hand, "
                                 f"not {SEAT_LETTERS[d]}")
            if (h["dealer"], h["cutter"]) != (dealer_of(d), cutter_of(d)):
                raise ValueError("the dealer sits right of the declarer and the cutter across")
            referee.declare(d, c, h["param"])
            given = h["doubles"]
            if any(given[a][a] for a in range(N_SEATS)):
                a = next(a for a in range(N_SEATS) if given[a][a])
                raise ValueError(f"{SEAT_LETTERS[a]} doubles themselves")
            doubles = no_doubles()
            for p in doubling_order(d):
                referee.double(h["hand"], p, {b for b in range(N_SEATS) if given[p][b]}, d, c, doubles)
            on_declarer = sum(doubles[a][d] for a in range(N_SEATS))
            if h.get("doubles_on_declarer") not in (None, on_declarer):
                raise ValueError(f"doubles_on_declarer is {h['doubles_on_declarer']}, but the doubles put "
                                 f"{on_declarer} on the declarer")
            raw, settled = list(h["raw"]), list(h["settled"])
            check_raw_scores(c, raw, rules)
            if (np.array(raw) + settle(raw, doubles, rules.lower_is_better)).tolist() != settled:
                raise ValueError("settled scores do not match the doubles")
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None
    if len(hands) == HANDS_PER_GAME:
        referee.finish()
    return referee


def doubles_text(doubles, declarer: int) -> str:
    """``E>N* S>W``: who doubled whom, ``*`` on a double of the declarer."""
    return " ".join(f"{SEAT_LETTERS[a]}>{SEAT_LETTERS[b]}{'*' if b == declarer else ''}"
                    for a in range(N_SEATS) for b in range(N_SEATS) if doubles[a][b]) or "-"
