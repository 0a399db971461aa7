"""Reading a played deal from PBN (Portable Bridge Notation): its tags and its play section.

PBN writes the cards of each trick in columns, one column per seat, starting from the
seat of the ``[Play "X"]`` tag (the opening leader), whoever led the trick: ``HA H2 H4 H3``.
That fits Barbu's trick contracts; Domino has no tricks and is refused.  Barbu's own
contract goes in the ``[Contract]`` tag (``[Contract "barbu"]``, ``[Contract "trumps H"]``);
``[Deal]`` and ``[Declarer]`` are PBN's, and the ``[Play]`` seat must be the declarer, who
leads.  ``- `` marks a card not played (the hand ended early); ``*`` ends the section; ``{...}``
and ``; ...`` are comments.  A play section that stops before the hand is over is PBN's way of
writing a claim (the rest is not played out): it is read as an unfinished deal.  A tag given
twice in one game is refused (a new ``[Event]`` starts the next game).  The deal is then read like a played-deal file
(:mod:`barbu_sim.barbu.formats.deal_file`): every card checked, nothing repaired.
"""

from __future__ import annotations

import re

from ...core.cards import parse_card
from ...core.seats import SEAT_LETTERS, parse_seat
from ...core.textrecords import record_lines
from ..position import IllegalCard, Position

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')


def is_pbn(text: str) -> bool:
    """True when ``text`` looks like PBN: its first line that is not a comment is a tag."""
    for line in record_lines(text):
        line = line.strip()
        if line and not line.startswith(("%", ";", "#")):
            return TAG.match(line) is not None
    return False


def pbn_records(text: str, name: str, error, parse_record) -> list[list[tuple[int, str]]]:
    """The games of a PBN text as played-deal records: ``(line number, "key: value")`` lines.

    ``error``: the exception class to raise, with a one-line message; ``parse_record``: the
    played-deal reader's record parser (passed in, so that this module does not import the reader).
    """
    games, tags, play, in_play = [], {}, [], False
    for number, raw in enumerate(record_lines(text), 1):
        line = re.sub(r"\{[^}]*\}", "", raw.split(";", 1)[0]).strip()
        if not line or line.startswith("%"):
            continue
        m = TAG.match(line)
        if m:
            tag = m.group(1)
            if tag == "Play" and "Play" in tags:
                raise error(f"{name} line {number}: a second [Play] tag in one game (the first on line "
                            f"{tags['Play'][0]}): a game has one play section")
            if in_play or (tag == "Event" and tags):  # a new game begins
                games.append((tags, play))
                tags, play, in_play = {}, [], False
            if tag in tags:
                raise error(f"{name} line {number}: the [{tag}] tag is given twice in one game (first on line "
                            f"{tags[tag][0]})")
            tags[tag] = (number, m.group(2).strip())
            in_play = tag == "Play"
            continue
        if not in_play:
            raise error(f"{name} line {number}: {line[:30]!r} is neither a tag nor in a play section")
        if line.startswith("*"):
            in_play = False
            continue
        play.append((number, line.replace("*", " ").split()))
    if tags:
        games.append((tags, play))
    return [_record(tags, play, name, error, parse_record) for tags, play in games]


def _record(tags: dict, play: list, name: str, error, parse_record) -> list[tuple[int, str]]:
    for key in ("Deal", "Contract", "Declarer", "Play"):
        if key not in tags:
            raise error(f"{name}: a PBN game needs the [{key}] tag (Barbu's contract in [Contract], e.g. \"barbu\")")
    number, contract = tags["Contract"]
    words = contract.split()
    lines = [(tags["Deal"][0], f"deal: {tags['Deal'][1]}"), (number, f"contract: {words[0] if words else ''}"),
             (tags["Declarer"][0], f"declarer: {tags['Declarer'][1]}")]
    if words and words[0].lower() == "domino":
        raise error(f"{name} line {number}: PBN's play section holds tricks: write a Domino deal in the "
                    "played-deal format (docs/review-and-table.md)")
    if len(words) > 1:
        lines.append((number, f"trump: {words[1]}"))
    try:
        first = parse_seat(tags["Play"][1])
        if first != parse_seat(tags["Declarer"][1]):
            raise ValueError(f"the declarer leads in Barbu: [Play \"{tags['Play'][1]}\"] is not the declarer")
    except ValueError as e:
        raise error(f"{name} line {tags['Play'][0]}: {e}") from None
    lines.append((tags["Play"][0], "play:"))
    for number, row in play:
        if len(row) != 4:
            raise error(f"{name} line {number}: a PBN trick has four columns, one per seat ('-' for a card "
                        f"not played), not {len(row)}")
    cards, over = _in_play_order(lines, play, first, parse_record)
    if over is False:  # PBN's claim: the play section stops early, the rest is not written
        cards.append((tags["Play"][0], "unfinished: yes"))
    return lines + cards


def _in_play_order(header, play, first: int, parse_record) -> tuple[list[tuple[int, str]], bool | None]:
    """Each trick's cards, seat-marked, from its leader on (the leaders found by playing the deal),
    and whether the hand is over after them (None when a card could not be placed).

    A card that cannot be placed (not a card, or not playable) is passed on as it stands,
    for the played-deal reader to refuse with its one-line error.  ``parse_record``: the
    played-deal reader's record parser (the header is checked as any played deal's).
    """
    try:
        deal = parse_record(header + [(header[-1][0], "unfinished: yes")], "PBN")
        pos = Position(deal.hands, deal.contract, deal.param, deal.declarer, deal.rules)
    except ValueError:
        return [(n, " ".join(row)) for n, row in play], None
    out = []
    for number, row in play:
        tokens = []
        leader = pos.seat
        for k in range(4):
            seat = (leader + k) % 4
            text = row[(seat - first) % 4]
            if text == "-":
                continue
            tokens.append(f"{SEAT_LETTERS[seat]}:{text}")
            try:
                pos.play(parse_card(text))
            except (IllegalCard, ValueError):
                return out + [(number, " ".join(tokens))] + [(n, " ".join(r)) for n, r in play[len(out) + 1:]], None
        out.append((number, " ".join(tokens)))
    return out, pos.over
