"""Verifying recorded games (``hands.parquet`` of ``barbu-sim game``, or other tools' in the same columns).

Each game is replayed through :func:`rules.check_game`, the rules :func:`game.play_game`
plays by.  This module does not import numba: checking a file loads no engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from ...core.cards import parse_rank, parse_suit
from ...core.files import read_json
from ...core.seats import N_SEATS, SEAT_LETTERS, left_of
from ..rules.config import CONTRACTS, DOMINO, TRUMPS, Rules, parse_contract
from ..analytics.schema import SCORE_COLUMNS, SETTLED_COLUMNS
from .rules import HANDS_PER_GAME, check_game, no_doubles

GAME_COLUMNS = ["game", "hand", "contract", "declarer", "dealer", "cutter", "doubles", *SCORE_COLUMNS,
                *SETTLED_COLUMNS]
INTEGER_COLUMNS = ["game", "hand", "declarer", "dealer", "cutter", "doubles_on_declarer", *SCORE_COLUMNS,
                   *SETTLED_COLUMNS]
TEXT_COLUMNS = ["contract", "doubles", "trump", "domino_rank"]


def check_column_types(frame: pl.DataFrame) -> None:
    """Refuse columns of the wrong type, naming the column, the first game and hand with a bad value,
    and what was expected: a float score is not truncated to an integer, a text number not parsed."""
    def first_row(column: str) -> str:
        """Where the first value that is not as expected sits (for floats: the first that is not whole)."""
        try:
            rows = frame
            if frame.schema[column].is_float():
                rows = frame.filter(pl.col(column) != pl.col(column).floor()) if column not in TEXT_COLUMNS else frame
                rows = rows if not rows.is_empty() else frame
            r = rows.row(0, named=True)
            return f" (e.g. {r[column]!r} in game {r.get('game')!r}, hand {r.get('hand')!r})"
        except Exception:  # an odd frame: say no more
            return ""

    for column in INTEGER_COLUMNS:
        if column in frame.columns:
            dtype = frame.schema[column]
            if not (dtype.is_integer() or dtype == pl.Null):
                raise ValueError(f"column {column} must hold integers, not {dtype}{first_row(column)}")
    for column in TEXT_COLUMNS:
        if column in frame.columns:
            dtype = frame.schema[column]
            if not (dtype in (pl.String, pl.Null) or isinstance(dtype, (pl.Enum, pl.Categorical))):
                raise ValueError(f"column {column} must hold text, not {dtype}{first_row(column)}")


def read_records(path) -> tuple[pl.DataFrame, Rules | None]:
    """A game record file and the rules its ``summary.json`` (beside it, if any) says it was played by."""
    path = Path(path)
    try:
        frame = pl.read_parquet(path)
    except Exception as e:  # polars raises several types for a missing or unreadable file
        raise ValueError(f"cannot read {path}: {str(e).splitlines()[0]}") from None
    summary = path.parent / "summary.json"
    if not summary.exists():
        return frame, None
    try:
        stored = read_json(summary)["rules"]  # capped, and a one-line error on any damage
        return frame, Rules(**{k.replace("-", "_"): v for k, v in stored.items()})
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"cannot read the rules in {summary}: {e}") from None


def _parse_doubles(text: str | None) -> list[list[bool]]:
    """The 4x4 doubles table of a record's ``doubles`` text (``E>N,N>E``)."""
    doubles = no_doubles()
    for mark in filter(None, (m.strip() for m in str(text or "").split(","))):
        a, sep, b = mark.partition(">")
        if not sep or len(a) != 1 or len(b) != 1 or a not in SEAT_LETTERS or b not in SEAT_LETTERS:
            raise ValueError(f"{mark!r} is not a double: write A>B with seats N, E, S, W")
        if doubles[SEAT_LETTERS.index(a)][SEAT_LETTERS.index(b)]:
            raise ValueError(f"the double {mark} is named twice")
        doubles[SEAT_LETTERS.index(a)][SEAT_LETTERS.index(b)] = True
    return doubles


def _hand_of_row(r: dict) -> dict:
    """A record row as :func:`rules.check_game` reads a hand, after the checks only the record can fail."""
    where = f"hand {r['hand']}"
    try:
        missing = [col for col in GAME_COLUMNS if r.get(col) is None and col != "doubles"]
        if missing:
            raise ValueError(f"{', '.join(missing)} missing")
        c = parse_contract(str(r["contract"]))
        param = 0
        for column, contract, parse in (("trump", TRUMPS, parse_suit), ("domino_rank", DOMINO, parse_rank)):
            value = r.get(column)
            if (value is None) == (c == contract):
                raise ValueError(f"{column} must be given for {CONTRACTS[contract]} and only then, "
                                 f"not {value!r} in {CONTRACTS[c]}")
            if value is not None:
                param = parse(str(value))
        doubles = _parse_doubles(r["doubles"])
        d = int(r["declarer"])
        if not 0 <= d < N_SEATS:
            raise ValueError(f"declarer {d} is not a seat")
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None
    on_declarer = r.get("doubles_on_declarer")
    return {"hand": int(r["hand"]), "contract": c, "param": param, "declarer": d,
            "doubles_on_declarer": None if on_declarer is None else int(on_declarer),
            "dealer": int(r["dealer"]), "cutter": int(r["cutter"]), "doubles": doubles,
            "raw": [int(r[col]) for col in SCORE_COLUMNS], "settled": [int(r[col]) for col in SETTLED_COLUMNS]}


@dataclass
class GameCheck:
    """One verified game: its number, the hands recorded, and (a game in progress) what is still to play."""

    game: int
    hands: int
    to_play: list[str]  # one line per declarer with hands left; empty when the game is complete

    @property
    def complete(self) -> bool:
        return self.hands == HANDS_PER_GAME


def verify_records(frame: pl.DataFrame, rules: Rules | None = None) -> list[GameCheck]:
    """Check game records (the ``hands.parquet`` of ``barbu-sim game`` or ``sheet``) against the rules.

    Every game is replayed through :func:`rules.check_game`: 28 hands, the declarer
    rotation, dealer and cutter, each contract once per declarer, every double legal
    (only the declarer in Trumps and Domino, the declarer only redoubles, the
    compulsory doubles made in time), raw scores adding up to the contract's total,
    settled scores equal to raw scores plus the pair-by-pair settlement.  The last
    game may be in progress (its first hands, as a sheet saves them): its hands are
    checked by the same rules and its :class:`GameCheck` says what is still to play.
    Raises ``ValueError`` naming the game, the hand and the rule.
    """
    rules = rules or Rules()
    missing = set(GAME_COLUMNS) - set(frame.columns)
    if missing:
        raise ValueError(f"not a game record: missing columns {', '.join(sorted(missing))}")
    if frame.is_empty():
        raise ValueError("the record holds no hands: there is nothing to verify")
    check_column_types(frame)
    if frame["game"].null_count() or frame["hand"].null_count():
        raise ValueError("a game or hand number is missing")
    numbers = frame["game"].unique().sort().to_list()
    if numbers != list(range(len(numbers))):
        gap = next(i for i, g in enumerate(numbers) if g != i)
        raise ValueError(f"games are numbered 0, 1, 2...: game {gap} is missing (the record has {numbers[gap]})")
    checks = []
    for (g,), rows in frame.sort("game", "hand").group_by("game", maintain_order=True):
        last = g == numbers[-1]
        if not last and rows.height < HANDS_PER_GAME:
            raise ValueError(f"game {g} has {rows.height} hands, not {HANDS_PER_GAME}: only the last game of a "
                             "record may be in progress")
        try:
            referee = check_game([_hand_of_row(r) for r in rows.to_dicts()], rules, in_progress=last)
        except ValueError as e:
            raise ValueError(f"game {g}, {e}") from None
        checks.append(GameCheck(g, rows.height, still_to_play(referee, rows.height)))
    return checks


def still_to_play(referee, done: int) -> list[str]:
    """What a game with ``done`` hands checked by ``referee`` has still to play: one line per declarer, in turn,
    with the hands and contracts left and the compulsory doubles still owed (empty when the game is over)."""
    order = []
    for h in range(done, HANDS_PER_GAME):
        d = referee.declarer(h)
        if d not in order:
            order.append(d)
    lines = []
    for d in order:
        left = referee.remaining(d)
        contracts = "every contract" if len(left) == len(CONTRACTS) else ", ".join(CONTRACTS[c] for c in left)
        owed = referee.owed(d)
        doubles = ", ".join(f"{SEAT_LETTERS[left_of(d, r)]} {n}" for r, n in zip((1, 2, 3), owed) if n)
        doubles = "2 from each opponent" if set(owed) == {2} else doubles or "none"
        lines.append(f"{SEAT_LETTERS[d]} declares {len(left)} more ({contracts}); compulsory doubles owed to "
                     f"{SEAT_LETTERS[d]}: {doubles}")
    return lines


def format_checks(checks: list[GameCheck]) -> str:
    """What verify-games says: how many games follow the rules, and for a game in progress what is still to play."""
    complete = [c for c in checks if c.complete]
    lines = [f"{len(complete)} game(s) follow the rules."] if complete else []
    for c in checks:
        if not c.complete:
            lines.append(f"Game {c.game} is in progress: its {c.hands} hand(s) follow the rules so far; "
                         f"{HANDS_PER_GAME - c.hands} still to play, the {_ordinal(c.hands + 1)} to the "
                         f"{_ordinal(HANDS_PER_GAME)}:")
            lines += [f"  {line}" for line in c.to_play]
    return "\n".join(lines)


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 21st, 22nd, 28th."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
