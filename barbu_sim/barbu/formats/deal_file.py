"""The played-deal file: one plain-text format for a deal and the cards in the order they were played.

``barbu-sim play --record FILE`` and ``barbu-sim table`` write it, ``barbu-sim review``
reads it, and a person can type one (``docs/review-and-table.md`` shows the format)::

    contract: barbu
    declarer: N
    deal: N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432
    play:
    2C 3C 4C 5C
    ...

Reading replays every card through :class:`position.Position`, so an impossible record
(an illegal card, a card played twice or not held, a wrong number of cards, a play after
the hand is over, a play that stops before the end) is refused with one line naming the
line of the file and the rule broken.  Nothing is ever repaired.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ...core.cards import (
    RANK_NAMES, SUIT_LETTERS, format_card, format_pbn, parse_card, parse_pbn, parse_rank, parse_suit,
)
from ...core.seats import SEAT_LETTERS, SEAT_NAMES, parse_seat
from ...core.textrecords import check_title, read_field, record_lines, split_record
from ..state import PASS
from ..position import IllegalCard, Position
from ..rules.config import CONTRACTS, DOMINO, TRUMPS, Rules, load_rules, parse_contract

HEADER = "# barbu-sim played deal: docs/review-and-table.md describes the format"
SEPARATOR = "---"
KEYS = ("contract", "declarer", "deal", "trump", "domino-rank", "rules", "option", "seed", "index", "hand",
        "doubles", "unfinished", "title", "play", "table")
DOUBLE = re.compile(r"^([NESW])>([NESW])$")


@dataclass
class PlayedDeal:
    """A deal with its contract and the plays made, as a played-deal file holds it."""

    hands: np.ndarray  # (4,) uint64 by seat, as dealt
    contract: int
    param: int  # trump suit (Trumps), starting rank (Domino), else 0
    declarer: int
    rules: Rules = field(default_factory=Rules)
    plays: list = field(default_factory=list)  # (seat, card), card PASS for a Domino pass
    unfinished: bool = False
    seed: int = 0  # the key of the players' random stream (deal ``index`` of ``seed``)
    index: int = 0
    hand_no: int | None = None  # the hand of a game or block it belongs to (0-based), if any
    doubles: list = field(default_factory=list)  # (a, b): a doubled b
    title: str = ""

    def position(self) -> Position:
        """A fresh :class:`Position` at the start of this deal."""
        return Position(self.hands, self.contract, self.param, self.declarer, self.rules, self.seed, self.index)

    def replay(self, upto: int | None = None) -> Position:
        """The position after the first ``upto`` plays (all by default)."""
        pos = self.position()
        for seat, card in self.plays[:upto]:
            pos.pass_turn() if card == PASS else pos.play(card)
        return pos


def _option_text(value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def format_played_deal(deal: PlayedDeal, position: Position | None = None) -> str:
    """The played-deal text of ``deal``: its header lines, then ``play:`` with one trick per line."""
    lines = [HEADER]
    if deal.title:
        lines.append(f"title: {deal.title}")
    lines += [f"contract: {CONTRACTS[deal.contract]}", f"declarer: {SEAT_LETTERS[deal.declarer]}",
              f"deal: {format_pbn(deal.hands)}"]
    if deal.contract == TRUMPS:
        lines.append(f"trump: {SUIT_LETTERS[deal.param]}")
    if deal.contract == DOMINO:
        lines.append(f"domino-rank: {RANK_NAMES[deal.param]}")
    default = Rules().to_dict()
    for key, value in deal.rules.to_dict().items():
        if value != default.get(key):
            lines.append(f"option: {key}={_option_text(value)}")
    if deal.seed or deal.index:
        lines += [f"seed: {deal.seed}", f"index: {deal.index}"]
    if deal.hand_no is not None:
        lines.append(f"hand: {deal.hand_no + 1}")
    if deal.doubles:
        lines.append("doubles: " + " ".join(f"{SEAT_LETTERS[a]}>{SEAT_LETTERS[b]}" for a, b in deal.doubles))
    pos = position or deal.replay()
    if not pos.over:
        lines.append("unfinished: yes")
    lines.append("play:")
    lines += _play_lines(deal)
    return "\n".join(lines) + "\n"


def _play_lines(deal: PlayedDeal) -> list[str]:
    tokens = ["-" if card == PASS else format_card(card) for _, card in deal.plays]
    if deal.contract == DOMINO:  # eight turns a line, the seat of the first in a comment
        out = []
        for i in range(0, len(tokens), 8):
            out.append(" ".join(f"{t:>3}" for t in tokens[i:i + 8]) + f"   # from {SEAT_LETTERS[deal.plays[i][0]]}")
        return out
    out = []
    for i in range(0, len(tokens), 4):
        out.append(" ".join(f"{t:>3}" for t in tokens[i:i + 4]) + f"   # {SEAT_LETTERS[deal.plays[i][0]]} leads")
    return out


def write_played_deals(path, deals: list[PlayedDeal], table: str | None = None) -> None:
    """Write played deals to ``path`` (separated by ``---`` lines), replacing it whole.

    ``table``: the settings line of a table session, written first as its own record.
    """
    from ...core.files import write_text
    records = ([f"{HEADER}\ntable: {table}\n"] if table is not None else []) + [format_played_deal(d) for d in deals]
    write_text(Path(path), f"{SEPARATOR}\n".join(records), what="the played deal")


# ---------------------------------------------------------------- reading
class PlayedDealError(ValueError):
    """A played-deal file that cannot be read or describes an impossible deal (one line, where and why)."""


# The most a played-deal or played-round file may hold.  A played deal is about 600 bytes and a whole
# game's table session (28 deals) about 17 KB; a PBN file of an event, with its play and commentary,
# a few hundred KB.  4 MiB holds some 7,000 played deals, more than a review goes through in a day,
# and is read in a blink: a device that never ends (/dev/zero) or a file of gigabytes is refused
# after reading no more than that, not read whole (memory without bound, minutes) for a one-line error.
MAX_RECORD_BYTES = 4 << 20

STDIN = "-"  # the FILE that names standard input


def record_name(path) -> str:
    """What messages call the file ``path``: its path, or ``standard input`` for ``-``."""
    return "standard input" if str(path) == STDIN else str(path)


def read_record_text(path) -> str:
    """The text of a played-deal or played-round file, read once (it may be a pipe such as ``/dev/stdin``;
    ``-`` reads standard input) and at most :data:`MAX_RECORD_BYTES`, without a leading UTF-8 byte-order
    mark; a missing, unreadable or oversized file is a :class:`PlayedDealError`."""
    from ...core.files import InputError, read_capped
    name = record_name(path)
    if str(path) != STDIN and Path(path).is_dir():
        raise PlayedDealError(f"{name} is a folder, not a played-deal file")
    try:
        data = read_capped(str(path), MAX_RECORD_BYTES, name)  # a str: Path("./-") would be "-", standard input
    except InputError as e:
        raise PlayedDealError(str(e)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PlayedDealError(f"{name} is not UTF-8 text: save it as UTF-8") from None


def read_record_base(path) -> Path:
    """The folder a played-deal file's ``rules: FILE.toml`` is found from: the file's own folder
    (the current directory for standard input, ``-``, or a pipe such as ``/dev/stdin``)."""
    if str(path) == STDIN:
        return Path.cwd()
    path = Path(path)
    try:
        if not path.is_file():
            return Path.cwd()
    except OSError:
        return Path.cwd()
    return path.resolve().parent


def read_played_deals(path) -> list[PlayedDeal]:
    """The played deals of a file (see :func:`parse_played_deals`); a missing or unreadable file is an error.

    A ``rules: FILE.toml`` line names a file beside the played deal (a relative path is taken from
    the played deal's folder, not from the current directory).
    """
    return parse_played_deals(read_record_text(path), str(path), base=read_record_base(path))


def parse_played_deals(text: str, name: str = "played deal", base=None) -> list[PlayedDeal]:
    """Parse and check every deal of a played-deal text; :class:`PlayedDealError` at the first problem.

    ``base``: the folder a relative ``rules: FILE.toml`` is read from (the file's own; default: the
    current directory, for a text that comes from no file).
    """
    _, deals = parse_session(text, name, base)
    if not deals:
        raise PlayedDealError(f"{name}: no deal in it (a played deal starts with 'contract:', "
                              "see docs/review-and-table.md)")
    return deals


def reviewable_deals(text: str, name: str = "played deal", base=None) -> tuple[list[PlayedDeal], list[int]]:
    """The deals of a played-deal text that may be reviewed, and the places (1-based) of those left out.

    The review shows every hand.  A deal of a table session (a file with a ``table:`` record)
    that is not over can still go on (``barbu-sim table --resume``): reviewing it would show the
    player the cards the table hides, so it is left out until it is finished, and a session with
    no finished deal is refused (:class:`PlayedDealError`).  A deal marked ``unfinished: yes`` in any
    other file (a position typed to study, a PBN claim) cannot be taken up: it is reviewed.
    """
    settings, deals = parse_session(text, name, base)
    if not deals:
        raise PlayedDealError(f"{name}: no deal in it (a played deal starts with 'contract:', "
                              "see docs/review-and-table.md)")
    if settings is None:
        return deals, []
    left_out = [k for k, d in enumerate(deals, 1) if d.unfinished]
    if len(left_out) == len(deals):
        raise PlayedDealError(f"{name}: the deal is not over and the table can go on with it ({resume_command(name)}); "
                           "the review shows every hand, so it waits for the deal's end")
    return [d for d in deals if not d.unfinished], left_out


def resume_command(name: str) -> str:
    """The command that goes on with the table session in the file ``name``."""
    return f"barbu-sim table --resume {name if name != record_name(STDIN) else 'FILE'}"


def parse_session(text: str, name: str = "played deal", base=None) -> tuple[str | None, list[PlayedDeal]]:
    """The ``table:`` settings line of a table session (None if none) and the deals of a played-deal text.

    A table session's file starts with a record holding only ``table:`` (the settings
    ``barbu-sim table --resume`` needs); every other record is a deal.  A PBN text (its
    first line a tag) is read through :mod:`barbu_sim.barbu.formats.pbn_play`.
    """
    from .pbn_play import is_pbn, pbn_records
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write first
    if is_pbn(text):
        return None, [_parse_record(r, name, base) for r in pbn_records(text, name, PlayedDealError, _parse_record)]
    records, current = [], []
    for number, raw in enumerate(record_lines(text), 1):
        line = raw.split("#", 1)[0].strip()
        if line == SEPARATOR:
            records.append(current)
            current = []
        elif line:
            current.append((number, line))
    records.append(current)
    records = [r for r in records if r]
    settings = None
    if records and records[0][0][1].lower().startswith("table:"):
        if len(records[0]) > 1:
            number, line = records[0][1]
            raise PlayedDealError(f"{name} line {number}: the 'table:' record holds only the table line; "
                               f"end it with '---' before {line[:30]!r}")
        settings = records.pop(0)[0][1].partition(":")[2].strip()
    return settings, [_parse_record(r, name, base) for r in records]


def _parse_record(lines: list[tuple[int, str]], name: str, base=None) -> PlayedDeal:
    first = lines[0][0]
    # "table" names a session's settings record, never a deal's line; a play line may start "S:".
    fields, options, play, in_play = split_record(lines, name, PlayedDealError, KEYS, refused=("table",),
                                                  seat_marks=True)
    for key in ("contract", "declarer", "deal"):
        if key not in fields:
            raise PlayedDealError(f"{name} (deal starting line {first}): no '{key}:' line")
    if not in_play:
        raise PlayedDealError(f"{name} (deal starting line {first}): no 'play:' line (it may be empty: 'play:' "
                           "with no cards and 'unfinished: yes')")

    def get(key, parse):
        return read_field(fields, key, parse, name, PlayedDealError)

    contract = int(get("contract", parse_contract))
    declarer = get("declarer", parse_seat)
    hands = get("deal", parse_pbn)
    param = 0
    if contract == TRUMPS:
        if "trump" not in fields:
            raise PlayedDealError(f"{name} line {fields['contract'][0]}: a trumps deal needs a 'trump:' line "
                                  "(S, H, D or C)")
        param = get("trump", parse_suit)
    elif contract == DOMINO:
        if "domino-rank" not in fields:
            raise PlayedDealError(f"{name} line {fields['contract'][0]}: a domino deal needs a 'domino-rank:' line "
                                  "(2..A)")
        param = get("domino-rank", parse_rank)
    for key in ("trump", "domino-rank"):
        if key in fields and contract != (TRUMPS if key == "trump" else DOMINO):
            raise PlayedDealError(f"{name} line {fields[key][0]}: '{key}:' does not belong to a "
                                  f"{CONTRACTS[contract]} deal")
    try:
        from ..rules.config import parse_option_pairs
        rules = load_rules(fields["rules"][1] if "rules" in fields else None, parse_option_pairs(options), base=base)
    except ValueError as e:
        raise PlayedDealError(f"{name} (deal starting line {first}): rules: {e}") from None
    deal = PlayedDeal(hands, contract, param, declarer, rules,
                      seed=get("seed", _key) if "seed" in fields else 0,
                      index=get("index", _key) if "index" in fields else 0,
                      hand_no=get("hand", _hand) - 1 if "hand" in fields else None,
                      doubles=get("doubles", lambda t: _doubles(t, contract, declarer)) if "doubles" in fields else [],
                      title=get("title", check_title) if "title" in fields else "",
                      unfinished=get("unfinished", _yes_no) if "unfinished" in fields else False)
    _read_plays(deal, play, name, first)
    return deal


def _count(text: str) -> int:
    """A whole number written in the digits 0-9 only (no ``_``, sign or other script's digits)."""
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"{text!r} is not a whole number")
    return int(text)


def _key(text: str) -> int:
    """A seed or deal index: a whole number that fits 64 bits, as the random streams take it."""
    value = _count(text)
    if value >= 2 ** 64:
        raise ValueError(f"{text} is too large: a seed or index is 0..{2 ** 64 - 1}")
    return value


HANDS_IN_A_GAME = 28


def _hand(text: str) -> int:
    """The 1-based number of a hand in a game or block: 1..28."""
    value = _count(text)
    if not 1 <= value <= HANDS_IN_A_GAME:
        raise ValueError(f"{text} is not a hand of a game (1..{HANDS_IN_A_GAME})")
    return value


def _yes_no(text: str) -> bool:
    if text.lower() not in ("yes", "no"):
        raise ValueError(f"{text!r}: write yes or no")
    return text.lower() == "yes"


def _doubles(text: str, contract: int, declarer: int) -> list[tuple[int, int]]:
    """The doubles of a hand, checked by the doubling rules (docs/rules.md): nobody doubles themselves or
    the same player twice; in Trumps and Domino a non-declarer doubles only the declarer; the declarer
    only redoubles a player who doubled the declarer."""
    out = []
    for token in text.split():
        m = DOUBLE.match(token.upper())
        if not m:
            raise ValueError(f"{token!r} is not a double: write DOUBLER>DOUBLED, e.g. E>N")
        a, b = parse_seat(m.group(1)), parse_seat(m.group(2))
        if a == b:
            raise ValueError(f"{token}: a player cannot double themselves")
        if (a, b) in out:
            raise ValueError(f"{token} is given twice")
        if a != declarer and b != declarer and contract in (TRUMPS, DOMINO):
            raise ValueError(f"{token}: in {CONTRACTS[contract]} a player other than the declarer doubles only "
                             f"the declarer, {SEAT_NAMES[declarer]}")
        out.append((a, b))
    for a, b in out:
        if a == declarer and (b, a) not in out:
            raise ValueError(f"{SEAT_LETTERS[a]}>{SEAT_LETTERS[b]}: the declarer, {SEAT_NAMES[declarer]}, may only "
                             f"redouble a player who doubled {SEAT_NAMES[declarer]}")
    return out


def _read_plays(deal: PlayedDeal, play: list[tuple[int, str]], name: str, first: int) -> None:
    """Replay the play section card by card; fill ``deal.plays``, refusing anything impossible."""
    pos = deal.position()
    for number, line in play:
        for token in line.replace(",", " ").split():
            where = f"{name} line {number}"
            marked, _, card_text = token.rpartition(":") if ":" in token else ("", "", token)
            if pos.over:
                raise PlayedDealError(f"{where}: {token} is played after the hand is over ({pos._over_reason()})")
            while pos.must_pass() and card_text not in ("-", "pass"):
                pos.pass_turn()  # a seat that cannot play must pass: its pass may be left out
            seat = pos.seat
            turn = f"{len(pos.plays) + 1}{_nth(len(pos.plays) + 1)} play ({SEAT_NAMES[seat]})"
            if marked:
                try:
                    mark = parse_seat(marked)
                except ValueError as e:
                    raise PlayedDealError(f"{where}: {token}: {e}") from None
                if mark != seat:
                    raise PlayedDealError(f"{where}: {token} is marked {marked} but {SEAT_NAMES[seat]} is to play")
            if card_text.lower() in ("-", "pass"):
                try:
                    pos.pass_turn()
                except IllegalCard as e:
                    raise PlayedDealError(f"{where}, {turn}: {e}") from None
                continue
            try:
                card = parse_card(card_text)
            except ValueError as e:
                raise PlayedDealError(f"{where}, {turn}: {e}") from None
            try:
                pos.play(card)
            except IllegalCard as e:
                raise PlayedDealError(f"{where}, {turn}: {e}") from None
    while pos.must_pass():
        pos.pass_turn()
    deal.plays = list(pos.plays)
    if pos.over and deal.unfinished:
        raise PlayedDealError(f"{name} (deal starting line {first}): marked 'unfinished: yes' but the hand is over")
    if not pos.over and not deal.unfinished:
        cards = sum(1 for _, c in pos.plays if c != PASS)
        where = f"{pos.trick_no} tricks and {pos.n_in_trick} card(s) of the next" if not pos.domino else \
            f"{len(pos.finished)} player(s) out of cards, not 3"
        raise PlayedDealError(f"{name} (deal starting line {first}): the play stops after {cards} cards, before the "
                           f"hand is over ({where}); add 'unfinished: yes' if it stopped there")


def _nth(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def played_deal_of(result, rules: Rules, seed: int = 0, index: int = 0, title: str = "") -> PlayedDeal:
    """The :class:`PlayedDeal` of an engine-played deal (``api.DealResult``)."""
    return PlayedDeal(result.hands.copy(), result.contract, result.param, result.declarer, rules,
                      list(zip(result.seats.tolist(), result.cards.tolist())), seed=seed, index=index, title=title)
