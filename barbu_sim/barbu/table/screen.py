"""What the table shows and where it goes: one card notation, red hearts and diamonds, the screen's lines.

Every card the table prints is written one way, the suit symbol then the rank with ``10`` for
the ten (``♠Q``, ``♥10``: ``format_card(card, symbols=True)``, the spelling ``review --symbols``
prints), and a group of cards as the ranks after their suit symbol (``♠ A K 10 3``).  What a
person types is read in any spelling (:func:`core.cards.parse_card`).

The lines are ``rich`` texts: hearts and diamonds red, the winner of a trick and the card that
wins the trick so far bold.  :class:`Console` prints them through a ``rich`` console, which
colours them on a terminal and prints plain text through a pipe or into a file, under
``NO_COLOR`` (bold kept, no colour) or ``TERM=dumb``; ``FORCE_COLOR`` colours a pipe too
(rich's documented detection).  So a transcript, a test or ``| less`` gets the same plain lines.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

import numpy as np
from rich.text import Text

from ...core.cards import RANK_NAMES, SUIT_SYMBOLS, cards_of, format_card
from ...core.interrupt import interruptible_input
from ...core.seats import SEAT_LETTERS, SEAT_NAMES
from ..rules.config import CONTRACTS, TRUMPS
from ..state import S_CARDS_LEFT, S_DOMINO_HIGH, S_DOMINO_LOW, S_WIN_SEAT
from ..position import Position

WIDTH = 100  # every line the table prints fits 100 columns
RED = "red"  # hearts and diamonds, as on the cards
WIN = "bold"  # the winner of a trick, the card winning the trick so far
SUITS_SHOWN = (3, 2, 1, 0)  # spades, hearts, diamonds, clubs: the order of a hand, alternating colours
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
COMMANDS = "hint, undo, quit, help"
DOUBLES_LEGEND = "*: a double on the declarer"
# The longest line a prompt takes, in characters: far past any card, contract, list of doubles or hand of the
# score sheet typed; a longer line (a paste gone wrong, a file piped in) is refused in one line, not echoed.
MAX_LINE = 1000
ECHOED = 60  # the characters of a refused line shown after its prompt (a pipe's echo)


# The control characters (C0, DEL, C1): typed or piped in, an echo would hand them to the terminal, which acts on
# them (ESC [2J clears the screen; CSI, \x9b, starts a sequence too); and the lone surrogates by which Python keeps
# the bytes of a line that is not UTF-8 (\udc9b: the byte 0x9b), which print as those raw bytes
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def _written_out(char: str) -> str:
    code = ord(char)
    return f"\\x{code - 0xdc00:02x}" if 0xdc80 <= code <= 0xdcff else f"\\x{code:02x}" if code < 0x100 else \
        f"\\u{code:04x}"


def escaped(text: str) -> str:
    """``text`` with each control character (and each byte that was not UTF-8) written out, ``\\x1b``: shown,
    never acted on by the terminal."""
    return _CONTROL.sub(lambda m: _written_out(m.group()), text)


class Quit(Exception):
    """The person typed ``quit`` (or the input ended): the caller saves what was played."""


class Console:
    """Where the table reads lines and writes text: the terminal by default, or given functions.

    ``read(prompt)`` returns the line typed (raises ``EOFError`` at the end); ``write(text)`` gets
    each line as plain text.  Without ``write`` the lines go to a ``rich`` console on stdout
    (``out``, made at the first line, so that it looks at the stdout of that moment).
    """

    def __init__(self, read=None, write=None, out=None):
        self._read = read
        self._write = write
        self._out = out

    def _console(self):
        if self._out is None:
            from rich.console import Console as RichConsole
            # soft_wrap: lines are never cut or wrapped at rich's guess of the width (80 in a pipe)
            self._out = RichConsole(highlight=False, markup=False, emoji=False, soft_wrap=True)
        return self._out

    def say(self, text: str | Text = "") -> None:
        """Show ``text``: a str as written, a ``rich`` Text with its colours where they are shown."""
        if self._write is not None:
            self._write(str(text))
        elif isinstance(text, Text):
            self._console().print(text)
        else:
            print(text, flush=True)

    def ask(self, prompt: str | Text) -> str:
        """One line of input (``prompt`` shown first); the end of the input is :class:`Quit`.

        A line longer than :data:`MAX_LINE` characters is refused in one line and asked again.
        Ctrl-C while the line is typed raises ``KeyboardInterrupt`` at once (see
        :func:`core.interrupt.interruptible_input`).
        """
        while True:
            line = self._ask_once(prompt)
            if len(line) <= MAX_LINE:
                return line
            self.say(f"Refused: a line of {len(line):,} characters is not what this prompt takes (at most "
                     f"{MAX_LINE:,}): type it again")

    def _ask_once(self, prompt: str | Text) -> str:
        """One line as typed, echoed after its prompt where the terminal does not echo it (cut if too long)."""
        try:
            if self._read is not None:
                line = self._read(str(prompt)).strip()
            elif sys.stdin.isatty() and isinstance(prompt, Text):
                self._console().print(prompt, end=" ")
                return interruptible_input().strip()
            elif sys.stdin.isatty():
                return interruptible_input(prompt + " ").strip()
            else:  # typed ahead or piped: show each line after its prompt, as a terminal would
                line = interruptible_input().strip()
            self.say(Text.assemble(prompt, f" {escaped(line if len(line) <= MAX_LINE else line[:ECHOED] + ' ...')}"))
            return line
        except EOFError:
            self.say("")
            raise Quit() from None


def card_text(card: int, style: str = "") -> Text:
    """A card as the table writes it, ``♥10``: red for hearts and diamonds, plus ``style``."""
    red = RED if card // 13 in (1, 2) else ""
    return Text(format_card(card, symbols=True), style=" ".join(s for s in (red, style) if s))


def hand_text(mask) -> Text:
    """Cards sorted by suit, high cards first: ``♠ A 7 3  ♥ K 10  ♦ -  ♣ J 6``."""
    parts = []
    for suit in SUITS_SHOWN:
        ranks = " ".join(RANK_NAMES[c % 13] for c in reversed(cards_of(mask)) if c // 13 == suit) or "-"
        parts.append(Text(f"{SUIT_SYMBOLS[suit]} {ranks}", style=RED if suit in (1, 2) else ""))
    return Text("  ").join(parts)


def labelled(label: str, body: Text | str, width: int = WIDTH) -> Text:
    """``label`` then ``body``; a body wider than ``width`` goes on at its double spaces, under itself."""
    line = Text.assemble(label, body)
    if len(line) <= width:
        return line
    lines, current = [], Text(label)
    for part in _parts(body):
        if len(current) > len(label) and len(current) + 2 + len(part) > width:
            lines.append(current)
            current = Text(" " * len(label))
        current = current + ("  " if len(current) > len(label) else "") + part
    return Text("\n").join(lines + [current])


def _parts(body: Text | str) -> list[Text]:
    """The pieces of ``body`` between its double spaces, with their colours."""
    body = Text(body) if isinstance(body, str) else body
    pieces, start = [], 0
    plain = body.plain
    while True:
        end = plain.find("  ", start)
        if end < 0:
            pieces.append(body[start:])
            return pieces
        pieces.append(body[start:end])
        start = end + 2


def plays_text(plays, winner: int | None = None) -> Text:
    """``North ♥9, East ♥Q``: who played which card; the card of ``winner`` (a seat) bold."""
    return Text(", ").join(Text.assemble(f"{SEAT_NAMES[s]} ", card_text(c, WIN if s == winner else ""))
                           for s, c in plays)


def contract_text(pos: Position) -> str:
    """The contract as the table names it: ``barbu``, ``trumps ♠``, ``domino from 10``."""
    if pos.contract == TRUMPS:
        return f"trumps {SUIT_SYMBOLS[pos.param]}"
    if pos.domino:
        return f"domino from {RANK_NAMES[pos.start]}"
    return CONTRACTS[pos.contract]


def scores_text(scores) -> str:
    """``N +0  E -20  S +0  W +0``."""
    return "  ".join(f"{SEAT_LETTERS[s]} {int(scores[s]):+d}" for s in range(4))


def trick_line(pos: Position, label: str) -> Text:
    """The last trick played: who played what, who won it and the points it carried."""
    from ..rules.play_rules import trick_value
    end = len(pos.plays) - pos.n_in_trick  # the cards of the trick in play, if any, come after it
    plays, w = pos.plays[end - 4:end], pos.trick_winners[-1]
    mask = np.uint64(sum(1 << c for _, c in plays))
    pts = int(trick_value(np.int64(pos.contract), np.int64(pos.trick_no - 1), mask, pos.rules_array))
    return Text.assemble(label, plays_text(plays, w), ": won by ", (SEAT_NAMES[w], WIN),
                         f" ({pts:+d} point{'s' if abs(pts) != 1 else ''})")


def trick_so_far(pos: Position) -> Text:
    """The trick in play, its winning card so far bold; or the Domino columns and each seat's cards left."""
    if pos.domino:
        cols = []
        for suit in SUITS_SHOWN:  # a column's ends, as the state array keeps them (13: not opened)
            low, high = int(pos.state[S_DOMINO_LOW + suit]), int(pos.state[S_DOMINO_HIGH + suit])
            span = "-" if low == 13 else RANK_NAMES[low] if low == high else f"{RANK_NAMES[low]}..{RANK_NAMES[high]}"
            cols.append(Text(f"{SUIT_SYMBOLS[suit]} {span}", style=RED if suit in (1, 2) else ""))
        left = "  ".join(f"{SEAT_LETTERS[s]} {int(pos.state[S_CARDS_LEFT + s])}" for s in range(4))
        return Text.assemble("Columns: ", Text("  ").join(cols), f"   Cards left: {left}")
    trick = pos.trick_so_far()
    if not trick:
        return Text("Trick so far: you lead")
    if len(trick) == 1:
        return Text.assemble("Trick so far: ", plays_text(trick))
    w = int(pos.state[S_WIN_SEAT])
    return Text.assemble("Trick so far: ", plays_text(trick, w), " (", (SEAT_NAMES[w], WIN), " is winning)")


@dataclass
class Header:
    """The session's part of the screen above each decision.

    ``title``: ``Deal`` or ``Hand 2 of 7``; ``totals``: each seat's settled total before this
    hand (None in a single deal); ``hands_done``: how many hands those totals add up;
    ``doubles``: who doubled whom in this hand, ``doubles[a][b]`` (None where nobody doubles:
    a single deal); ``owed``: the compulsory doubles each other player still owes the
    declarer in this block (seat: count).
    """

    title: str = "Deal"
    you: int = 2
    totals: np.ndarray | None = None
    doubles: list | None = None
    owed: dict | None = None
    hands_done: int = 0


def owed_text(owed: dict, to: str) -> str:
    """``compulsory doubles still owed to S: N 1, E 0, W 2`` (or all made)."""
    if not any(owed.values()):
        return f"the compulsory doubles to {to} are all made"
    debts = ", ".join(f"{SEAT_LETTERS[p]} {n}" for p, n in sorted(owed.items()))
    return f"compulsory doubles still owed to {to}: {debts}"


def doubles_line(doubles, declarer: int, owed: dict | None) -> Text:
    """``Doubles: E>N* W>N (*: a double on the declarer) · compulsory doubles still owed to N: E 1, S 0, W 2``
    (the doubles owed on a second line if the first would be too long)."""
    made = " ".join(f"{SEAT_LETTERS[a]}>{SEAT_LETTERS[b]}{'*' if b == declarer else ''}"
                    for a in range(4) for b in range(4) if doubles[a][b]) or "none"
    line = Text.assemble("Doubles: ", made, (f" ({DOUBLES_LEGEND})" * ("*" in made), "dim"))
    if owed is None:
        return line
    debts = owed_text(owed, SEAT_LETTERS[declarer])
    return line + (f" · {debts}" if len(line) + 3 + len(debts) <= WIDTH else f"\n{' ' * len('Doubles: ')}{debts}")


def screen(pos: Position, header: Header | None) -> list[Text]:
    """The lines above the person's prompt: the deal and the scores, the doubles, the last trick,
    the cards played, the trick so far (the Domino columns) and the person's hand."""
    header = header or Header(you=pos.seat)
    you = SEAT_NAMES[header.you]
    lines = [Text.assemble(f"{header.title}: {contract_text(pos)}, declarer {SEAT_NAMES[pos.declarer]}; ",
                           (f"you are {you}", WIN))]
    if header.totals is None:  # a single deal
        lines.append(Text(f"Scores: {scores_text(pos.scores)}"))
    else:
        n = header.hands_done
        totals = f"   Totals after {n} hand{'s' if n != 1 else ''}: {scores_text(header.totals)}" if n else ""
        lines.append(Text(f"This hand: {scores_text(pos.scores)}{totals}"))
    if header.doubles is not None:
        lines += doubles_line(header.doubles, pos.declarer, header.owed).split("\n")
    if not pos.domino:
        if pos.trick_winners:
            lines.append(trick_line(pos, "Last trick: "))
        played = np.uint64(pos.played)
        lines.append(labelled("Played: ", hand_text(played) if played else Text("nothing yet")))
    lines.append(trick_so_far(pos))
    lines.append(Text.assemble(("Your hand: ", WIN), hand_text(pos.hands[header.you])))
    return lines


def choices_prompt(legal_cards: list[int]) -> list[Text]:
    """The numbered legal cards and the commands, the prompt's last line ending in ``>``."""
    numbered = Text("  ").join(Text.assemble(f"{i}:", card_text(c)) for i, c in enumerate(legal_cards, 1))
    # the prompt's line leaves room for what is typed after it
    return labelled("Play ", Text.assemble(numbered, f"  (or {COMMANDS}) >"), WIDTH - 12).split("\n")


def commands_help() -> str:
    """What the play prompt takes, said in full (``help``, ``?`` or an empty line)."""
    return ("Type a card in any spelling (QS, ♠Q, q s, 10h, ♥10) or its number in the list, or\n"
            "  hint (h)   mc's value of each of your legal cards, from what you have seen\n"
            "  undo (u)   take back your last card of this deal\n"
            "  quit (q)   save the session and stop (Ctrl-D too); barbu-sim table --resume goes on")
