"""Keeping a real table's score: each hand's contract, doubles and raw scores, checked, settled and saved.

:class:`ScoreKeeper` checks every entry with the referee ``verify-games`` uses
(:class:`rules.GameReferee`: who declares, each contract once, allowed and compulsory
doubles) and the raw scores against what the contract can give; it settles the doubles
and keeps the running sheet.  :func:`save_hands` writes the hands in the columns of
``hands.parquet`` (:func:`game.game_runs.hand_rows`), which ``verify-games`` and the analytics read,
the players' names in ``summary.json`` and the sheet as printed in ``sheet.csv`` (for a spreadsheet).
``barbu-sim sheet`` and ``barbu-sim table`` both print :func:`format_sheet`.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from ...core.cards import parse_rank, parse_suit
from ...core.seats import N_SEATS, SEAT_LETTERS, parse_seat
from ..rules.choices import param_name
from ..rules.config import CONTRACTS, DOMINO, TRUMPS, Rules, parse_contract
from ..game.game import GameResult, HandRecord
from ..game.rules import (  # doubles_text: the one notation of doubles, imported by the sheet's users from here too
    HANDS_PER_GAME, GameReferee, check_raw_scores, cutter_of, dealer_of, doubles_text, doubling_order, no_doubles,
    settle,
)

DOUBLE = re.compile(r"^([NESW])>([NESW])$", re.IGNORECASE)


def seat_label(seat: int, names=None) -> str:
    """``N``, or ``N Ann`` when the players are named."""
    return SEAT_LETTERS[seat] + (f" {names[seat]}" if names else "")


def sheet_rows(hands: list[HandRecord], names=None) -> list[dict]:
    """The sheet as rows (what :func:`format_sheet` prints and ``sheet.csv`` holds): per hand its number
    (1..28), declarer, contract, doubles and each seat's raw score, settlement and running total."""
    total = np.zeros(N_SEATS, np.int64)
    rows = []
    for h in hands:
        total += h.final
        row = {"hand": h.hand_no + 1, "declarer": SEAT_LETTERS[h.declarer], "contract": h.contract_label(),
               "doubles": doubles_text(h.doubles, h.declarer)}
        for s in range(N_SEATS):
            who = seat_label(s, names)
            row |= {f"{who} raw": int(h.raw[s]), f"{who} +/-": int(h.settlement[s]), f"{who} total": int(total[s])}
        rows.append(row)
    return rows


def format_sheet(hands: list[HandRecord], names=None) -> str:
    """The running score sheet: per hand the contract, the doubles and each seat's raw, settled and total.

    ``names``: the four players (N, E, S, W), shown over their columns and in the totals.
    Fits 100 columns (a long doubles list goes on its own line).
    """
    heads = [seat_label(s, names)[:14] for s in range(N_SEATS)]
    lines = [f"{'':<40}" + "".join(f"{head:>15}" for head in heads),
             f"{'hand':>4} {'decl':<4} {'contract':<12} {'doubles':<17}" + f"{'raw  +/-  tot':>15}" * N_SEATS]
    total = [0] * N_SEATS
    for h, row in zip(hands, sheet_rows(hands, names)):  # the running totals: one sum, shared with sheet.csv
        total = [row[f"{seat_label(s, names)} total"] for s in range(N_SEATS)]
        marks = row["doubles"]
        cells = "".join(f"{int(h.raw[s]):>5}{int(h.settlement[s]):>+5}{int(total[s]):>+5}" for s in range(N_SEATS))
        head = f"{h.hand_no + 1:>4} {SEAT_LETTERS[h.declarer]:<4} {h.contract_label():<12} "
        if len(marks) > 17:  # a long list of doubles on its own line: the sheet stays within 100 columns
            lines.append(head + "doubles " + marks)
            lines.append(" " * len(head) + f"{'':<17}{cells}")
        else:
            lines.append(head + f"{marks:<17}{cells}")
    lines.append("Totals: " + "  ".join(f"{seat_label(s, names)} {int(total[s]):+d}" for s in range(N_SEATS))
                 + f"   (sum {int(sum(total)):+d})")
    return "\n".join(lines)


MAX_NAME = 12  # characters: a name and its seat letter fit the sheet's 15-column seat cells


def parse_names(text: str) -> list[str]:
    """``"Ann,Bob,Cy,Di"`` -> the four players, North, East, South, West (checked: short, distinct, printable)."""
    names = [n.strip() for n in str(text).split(",")]
    if len(names) != N_SEATS:
        raise ValueError(f"name the four players N, E, S, W separated by commas, e.g. Ann,Bob,Cy,Di "
                         f"(not {len(names)} name{'s' if len(names) != 1 else ''})")
    for seat, name in zip(SEAT_LETTERS, names):
        if not name:
            raise ValueError(f"the player at {seat} has an empty name")
        if len(name) > MAX_NAME:
            raise ValueError(f"the name {name!r} ({seat}) is longer than {MAX_NAME} characters")
        if not name.isprintable():
            raise ValueError(f"the name {name!r} ({seat}) holds a character that cannot be printed")
    folded = [n.casefold() for n in names]
    twice = next((n for n in names if folded.count(n.casefold()) > 1), None)
    if twice is not None:
        raise ValueError(f"two players are named {twice!r}: give each seat its own name")
    return names


class ScoreKeeper:
    """The hands of one game entered one by one; each is checked before it is kept.

    ``first``: the first declarer; ``rules``: the rules in force (the rotation, the Domino payout);
    ``names``: the four players, N E S W (optional).
    """

    def __init__(self, rules: Rules, first: int, names: list[str] | None = None):
        self.rules = rules
        self.first = first
        self.names = names  # the players N, E, S, W, or None
        self.referee = GameReferee(rules, first)
        self.hands: list[HandRecord] = []

    @property
    def next_hand(self) -> int:
        return len(self.hands)

    def next_declarer(self) -> int:
        return self.referee.declarer(self.next_hand)

    def add(self, contract: int, param: int, doubles, raw) -> HandRecord:
        """Check and keep the next hand: ``doubles`` a set of (doubler, doubled); ``raw`` four raw scores.

        Raises ``ValueError`` naming the hand and the rule broken; nothing is kept then.
        """
        h = self.next_hand
        if h >= HANDS_PER_GAME:
            raise ValueError(f"the game is over: {HANDS_PER_GAME} hands are entered")
        d = self.referee.declarer(h)
        where = f"hand {h + 1}"
        saved = ([set(u) for u in self.referee.used], self.referee.doubles_on.copy())
        try:
            self.referee.declare(d, contract, param)
            table = no_doubles()
            for a, b in doubles:
                if a == b:
                    raise ValueError(f"{SEAT_LETTERS[a]} cannot double themselves")
            for p in doubling_order(d):
                self.referee.double(h, p, {b for a, b in doubles if a == p}, d, contract, table)
            raw = [int(x) for x in raw]
            check_raw_scores(contract, raw, self.rules)
        except ValueError as e:
            self.referee.used, self.referee.doubles_on = saved
            raise ValueError(f"{where}: {e}") from None
        record = HandRecord(h, d, dealer_of(d), cutter_of(d), contract, param, table, np.array(raw, np.int64),
                            settle(raw, table, self.rules.lower_is_better))
        self.hands.append(record)
        return record

    def result(self, seed: int = 0) -> GameResult:
        return GameResult(seed, 0, self.first, self.hands)


def parse_entry(text: str) -> tuple[int, int, set, list[int]]:
    """One hand as typed: ``CONTRACT[:SUIT|RANK] [DOUBLER>DOUBLED ...] N E S W``.

    The contract is written as people type it (``no tricks``, ``no-tricks``, ``NoTricks``:
    :func:`rules.config.parse_contract`); the trump suit or starting rank follows a colon
    or a space (``trumps:H``, ``trumps ♥``, ``domino 7``, ``domino from 7``).  e.g.
    ``barbu E>N S>N 0 -20 0 0`` or ``no last two 0 -30 0 0``.  Returns (contract, param, doubles, raw).
    """
    tokens = text.split()
    if not tokens:
        raise ValueError("empty entry: type CONTRACT [DOUBLES] N E S W, e.g. barbu E>N 0 -20 0 0")
    contract, choice, used = _contract_words(tokens)
    rest = tokens[used:]
    param = 0
    if contract in (TRUMPS, DOMINO):
        what = "the trump suit, e.g. trumps:H" if contract == TRUMPS else "the starting rank, e.g. domino:7"
        if not choice and rest and contract == DOMINO and rest[0].lower() == "from":
            rest = rest[1:]
        if not choice and rest and not DOUBLE.match(rest[0]) and (contract == DOMINO or not _is_score(rest[0])):
            choice, rest = rest[0], rest[1:]  # "trumps H", "domino 7": the choice after a space
        if not choice:
            raise ValueError(f"name {what}")
        try:
            param = parse_suit(choice) if contract == TRUMPS else parse_rank(choice)
        except ValueError as e:
            raise ValueError(f"{e} (name {what})") from None
    elif choice:
        raise ValueError(f"{CONTRACTS[contract]} takes no suit or rank ({choice!r})")
    doubles, raw = set(), []
    for t in rest:
        m = DOUBLE.match(t)
        if m:
            if raw:
                raise ValueError(f"the doubles come before the four scores ({t!r})")
            double = (parse_seat(m.group(1)), parse_seat(m.group(2)))
            if double in doubles:
                raise ValueError(f"the double {t.upper()} is given twice")
            doubles.add(double)
        elif _is_score(t):
            raw.append(int(t))
        else:
            raise ValueError(f"{t!r} is neither a double (E>N) nor a score")
    if len(raw) != N_SEATS:
        raise ValueError(f"give four raw scores (N E S W), not {len(raw)}")
    return contract, param, doubles, raw


def _is_score(token: str) -> bool:
    return re.fullmatch(r"[+-]?\d+", token) is not None


def _contract_words(tokens: list[str]) -> tuple[int, str, int]:
    """The contract at the start of an entry: (contract, the choice after a colon or '', tokens used).

    The longest run of the first words (at most four: ``no king of hearts``) that names a contract.
    """
    words = []
    for t in tokens[:4]:
        if DOUBLE.match(t) or _is_score(t):
            break
        words.append(t)
        if ":" in t:
            break  # "trumps:H" ends the name
    for k in range(len(words), 0, -1):
        name, _, choice = " ".join(words[:k]).partition(":")
        try:
            return int(parse_contract(name)), choice.strip(), k
        except ValueError:
            continue
    typed = " ".join(words).partition(":")[0] or tokens[0]
    raise ValueError(f"unknown contract {typed!r}: use one of {', '.join(CONTRACTS)} (spaces, hyphens and "
                     "capitals as you like)")


def label(contract: int, param: int) -> str:
    name = param_name(contract, param)
    return CONTRACTS[contract] + (f" {name}" if name else "")


SHEET_CSV = "sheet.csv"  # the sheet as printed, beside hands.parquet, for a spreadsheet


def save_hands(path, keeper: ScoreKeeper, game: int = 0) -> Path:
    """Write the hands entered to ``path`` (a ``hands.parquet``), and beside it ``summary.json`` (the rules,
    the first declarer, the players' names) and ``sheet.csv`` (the sheet as printed), replacing all three."""
    import json

    import polars as pl

    from ...core.files import replace_set
    from ..analytics.schema import CONTRACT_ENUM, RANK_ENUM, SUIT_ENUM
    from ..game.game_runs import hand_rows
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    result = keeper.result()
    result.game = game
    rows = hand_rows(result)
    frame = pl.DataFrame(rows).with_columns(pl.col("contract").cast(CONTRACT_ENUM), pl.col("trump").cast(SUIT_ENUM),
                                            pl.col("domino_rank").cast(RANK_ENUM))
    players = dict(zip(SEAT_LETTERS, keeper.names)) if keeper.names else None
    summary = json.dumps({"games": 1, "source": "barbu-sim sheet", "first_declarer": SEAT_LETTERS[keeper.first],
                          "players": players, "hands_entered": len(keeper.hands), "rules": keeper.rules.to_dict()},
                         indent=2, ensure_ascii=False) + "\n"
    sheet = pl.DataFrame(sheet_rows(keeper.hands, keeper.names))
    replace_set({path: frame.write_parquet,
                 path.parent / "summary.json": lambda p: p.write_text(summary, encoding="utf-8"),
                 path.parent / SHEET_CSV: sheet.write_csv}, what="the score sheet")
    return path


def read_summary(path) -> dict | None:
    """The ``summary.json`` beside a sheet's ``hands.parquet`` (None if there is none), read as every JSON file a
    command reads (:func:`core.files.read_json`): a damaged one (not JSON, nested without end, gigabytes) is a
    one-line error naming it, never a traceback."""
    from ...core.files import read_json
    summary = Path(path).parent / "summary.json"
    if not summary.exists():
        return None
    data = read_json(summary)
    if not isinstance(data, dict):
        raise ValueError(f"{summary} is not a sheet's summary (a JSON object): it is damaged")
    _check_summary(summary, data)
    return data


def _check_summary(summary: Path, data: dict) -> None:
    """Refuse, in one line naming the field, a summary whose fields (as :func:`save_hands` writes them) are not of
    their type and range: an edited or damaged file is said, not taken silently."""
    def refuse(key: str, wanted: str):
        value = data[key]
        shown = (repr(value[:20]) if isinstance(value, str) else
                 {bool: str(value).lower(), type(None): "null", list: "a list", dict: "an object"}.get(
                     type(value), str(value)[:20]))
        raise ValueError(f"{summary}: {key} must be {wanted}, not {shown}: the file is damaged or was edited")
    if "first_declarer" in data and data["first_declarer"] not in tuple(SEAT_LETTERS):  # "NE" is in "NESW"
        refuse("first_declarer", f"the first declarer's seat, one of {', '.join(SEAT_LETTERS)}")
    hands = data.get("hands_entered", 0)
    if isinstance(hands, bool) or not isinstance(hands, int) or not 0 <= hands <= HANDS_PER_GAME:
        refuse("hands_entered", f"the number of hands entered, a whole number 0 to {HANDS_PER_GAME}")
    players = data.get("players")
    if players is not None and not (isinstance(players, dict) and sorted(players) == sorted(SEAT_LETTERS)
                                    and all(isinstance(name, str) for name in players.values())):
        refuse("players", f"null or the four seats' names ({', '.join(f'{s}: NAME' for s in SEAT_LETTERS)})")
    if not isinstance(data.get("rules", {}), dict):
        refuse("rules", "an object of the rule options")


def read_players(path) -> list[str] | None:
    """The players' names kept in the ``summary.json`` beside a sheet's ``hands.parquet`` (None if none)."""
    summary = Path(path).parent / "summary.json"
    data = read_summary(path)
    try:
        players = data.get("players") if data is not None else None
        return parse_names(",".join(players[s] for s in SEAT_LETTERS)) if players else None
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise ValueError(f"cannot read the players' names in {summary}: {e}") from None


def load_hands(path, rules: Rules | None = None, first: int | None = None,
               names: list[str] | None = None) -> ScoreKeeper | None:
    """The hands of a sheet saved by :func:`save_hands` at ``path``, entered again through the checks
    (None if there is no file yet).

    A sheet goes on under the rules it was started with (kept in ``summary.json``) and its
    first declarer: ``rules`` / ``first``, what the command line gives (None: nothing), must
    be the same, or the sheet is refused; a game does not change its rules half-way.
    The players' names are kept too, unless ``names`` gives new ones.
    """
    from ..game.verify_games import read_records
    path = Path(path)
    if not path.exists():
        return None
    summary = read_summary(path)  # a damaged summary.json said in one line before read_records parses it
    frame, stored = read_records(path)
    rows = frame.sort("hand").to_dicts()
    if not rows:
        return None
    if stored is not None and rules is not None and rules != stored:
        changed = ", ".join(f"{k}={_option_text(v)} (the sheet has {_option_text(stored.to_dict()[k])})"
                            for k, v in rules.to_dict().items() if v != stored.to_dict()[k])
        raise ValueError(f"the sheet in {path.parent} was started with other rules: {changed}; leave out --rules "
                         "and --option to go on under its own rules, or start a new sheet with --out")
    started = int(rows[0]["declarer"])
    said = (summary or {}).get("first_declarer")
    if said is not None and said != SEAT_LETTERS[started]:  # a sheet's first declarer never changes once it is saved
        raise ValueError(f"{path.parent / 'summary.json'}: first_declarer is {said}, but the sheet's first hand was "
                         f"declared by {SEAT_LETTERS[started]}: the file is damaged or was edited")
    if first is not None and first != started:
        raise ValueError(f"the sheet in {path.parent} was started with first declarer {SEAT_LETTERS[started]}, "
                         f"not {SEAT_LETTERS[first]}: leave out --first to go on with it")
    rules = stored if stored is not None else rules if rules is not None else Rules()
    keeper = ScoreKeeper(rules, started, names or read_players(path))
    for r in rows:
        c = int(parse_contract(str(r["contract"])))
        param = parse_suit(str(r["trump"])) if c == TRUMPS else parse_rank(str(r["domino_rank"])) if c == DOMINO else 0
        doubles = set()
        for mark in filter(None, str(r["doubles"] or "").split(",")):
            a, _, b = mark.partition(">")
            doubles.add((parse_seat(a), parse_seat(b)))
        try:
            keeper.add(c, param, doubles, [r[col] for col in ("score_n", "score_e", "score_s", "score_w")])
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None
    return keeper


def _option_text(value) -> str:
    """A rule option's value as ``-o NAME=VALUE`` takes it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def keep_score(keeper: ScoreKeeper, console, out) -> bool:
    """Read hands from ``console`` until the game is complete or the input ends; save after each hand.

    Besides the hands: ``undo`` (the last hand), ``names A,B,C,D`` (the players), ``quit``.
    Returns True when all 28 hands are entered (the end-of-game checks then hold).
    """
    console.say("Type each hand as CONTRACT[:SUIT|RANK] [DOUBLES] N E S W (raw scores), e.g.\n"
                "  barbu E>N W>N 0 -20 0 0      trumps:H S>N 20 15 20 10      no tricks -8 -6 -6 -6\n"
                "DOUBLES: DOUBLER>DOUBLED (N>E for a redouble). Also: undo (the last hand), names Ann,Bob,Cy,Di\n"
                "(the players N, E, S, W), quit.")
    while keeper.next_hand < HANDS_PER_GAME:
        d = keeper.next_declarer()
        owed = keeper.referee.owed(d)
        owing = ", ".join(f"{seat_label((d + r) % 4, keeper.names)} {n}" for r, n in zip((1, 2, 3), owed) if n)
        left = ", ".join(CONTRACTS[c] for c in keeper.referee.remaining(d))
        console.say(f"\nHand {keeper.next_hand + 1}: {seat_label(d, keeper.names)} declares, with {left} left")
        if owing:
            console.say(f"  compulsory doubles still owed to {SEAT_LETTERS[d]}: {owing}")
        text = console.ask(f"Hand {keeper.next_hand + 1} >")
        command = text.lower()
        if command == "quit":
            return False
        if command == "undo":
            if not keeper.hands:
                console.say("Nothing to undo")
                continue
            kept = [(h.contract, h.param, {(a, b) for a in range(4) for b in range(4) if h.doubles[a][b]},
                     h.raw.tolist()) for h in keeper.hands[:-1]]
            fresh = ScoreKeeper(keeper.rules, keeper.first, keeper.names)
            for entry in kept:
                fresh.add(*entry)
            keeper.__dict__.update(fresh.__dict__)
            console.say(f"Removed hand {keeper.next_hand + 1}")
        elif command == "names" or command.startswith("names "):
            try:
                keeper.names = parse_names(text[len("names"):])
            except ValueError as e:
                console.say(f"Refused: {e}")
                continue
            console.say("Players: " + "  ".join(seat_label(s, keeper.names) for s in range(N_SEATS)))
        else:
            try:
                keeper.add(*parse_entry(text))
            except ValueError as e:
                console.say(f"Refused: {e}")
                continue
        if keeper.hands:
            save_hands(out, keeper)
        console.say(format_sheet(keeper.hands, keeper.names))
    keeper.referee.finish()
    return True
