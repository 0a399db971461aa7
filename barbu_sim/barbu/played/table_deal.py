"""One deal at the table: a person at one seat, bots at the others, through lines of text.

:func:`play_at_table` shows the person's hand sorted by suit, the trick so far (or the
Domino layout), the cards out and the scores, and reads what they type: a card (``QS``,
``♠Q``, ``q s``, ``10h``), the number of a card in the list shown, ``hint`` (mc's value
of each legal card from the person's information), ``undo`` (take back the person's last
card and what followed) or ``quit``.  An illegal card is refused with the rule it breaks.
The bots play through the same :class:`position.Position` and draw from the deal's random
stream as in the engine, so a deal is a pure function of the seed and the person's cards.
"""

from __future__ import annotations

import copy
import sys

import numpy as np

from ...core.cards import RANK_LETTERS, RANK_NAMES, SUIT_SYMBOLS, cards_of, format_card, parse_card
from ...core.interrupt import interruptible_input
from ...core.seats import SEAT_NAMES
from ..players.ids import is_mc
from ..players.mc.player import mc_choose
from .position import IllegalCard, Position
from ..state import PASS, S_DOMINO_HIGH, S_DOMINO_LOW
from ..players.registry import resolve_strategy

COMMANDS = "a card (QS, ♠Q, q s), its number, hint, undo or quit"


class Quit(Exception):
    """The person typed ``quit`` (or the input ended): the caller saves what was played."""


class Console:
    """Where the table reads lines and writes text: stdin / stdout by default, or given functions.

    ``read(prompt)`` returns the line typed (raises ``EOFError`` at the end); ``write(text)`` shows text.
    """

    def __init__(self, read=None, write=None):
        self._read = read
        self._write = write

    def say(self, text: str = "") -> None:
        if self._write is not None:
            self._write(text)
        else:
            print(text, flush=True)

    def ask(self, prompt: str) -> str:
        """One line of input (``prompt`` shown first); the end of the input is :class:`Quit`.

        Ctrl-C while the line is typed raises ``KeyboardInterrupt`` at once (see
        :func:`core.interrupt.interruptible_input`).
        """
        try:
            if self._read is not None:
                line = self._read(prompt).strip()
            elif sys.stdin.isatty():
                return interruptible_input(prompt + " ").strip()
            else:  # typed ahead or piped: show each line after its prompt, as a terminal would
                line = interruptible_input().strip()
            self.say(f"{prompt} {line}")
            return line
        except EOFError:
            self.say("")
            raise Quit() from None


class Bot:
    """A seat's built-in, mc or plugin strategy, called on the table's position."""

    def __init__(self, spec: str):
        self.strategy = resolve_strategy(spec)
        self.name = self.strategy.name
        self.is_mc = is_mc(self.strategy.builtin_id)
        self._explain = np.zeros((0, 0), np.float64)

    def choose(self, pos: Position) -> int:
        legal = np.uint64(pos.legal())
        hand = np.uint64(pos.hands[pos.seat])
        if self.is_mc:
            card = mc_choose(np.int64(self.strategy.builtin_id), legal, hand, pos.state, pos.rng, self._explain)
        else:
            card = self.strategy.func(legal, hand, pos.state, pos.rng)
        card = int(card)
        if not 0 <= card < 52 or not int(legal) >> card & 1:
            raise ValueError(f"the bot {self.name} at {SEAT_NAMES[pos.seat]} played {card}, not a legal card")
        return card


def parse_choice(text: str, legal_cards: list[int]) -> int:
    """The card a person typed: a card in any spelling, or the number of a card in ``legal_cards``."""
    t = text.replace(" ", "")
    if t.isdigit():
        n = int(t)
        if not 1 <= n <= len(legal_cards):
            raise ValueError(f"{text!r}: the cards are numbered 1 to {len(legal_cards)}")
        return legal_cards[n - 1]
    return parse_card(t)


def hand_text(mask, compact: bool = False) -> str:
    """A hand sorted by suit, high cards first: ``♠ A 7 3  ♥ K 9  ♦ -  ♣ J 6`` (``compact``: ``♠ A73``, T for ten)."""
    parts = []
    for suit in (3, 2, 1, 0):
        ranks = [(RANK_LETTERS if compact else RANK_NAMES)[c % 13] for c in reversed(cards_of(mask)) if c // 13 == suit]
        parts.append(f"{SUIT_SYMBOLS[suit]} {('' if compact else ' ').join(ranks) or '-'}")
    return "  ".join(parts)


def table_text(pos: Position) -> str:
    """The trick so far, or the Domino columns."""
    if pos.domino:
        cols = []
        for suit in (3, 2, 1, 0):  # a column's ends, as the state array keeps them (13: not opened)
            low, high = int(pos.state[S_DOMINO_LOW + suit]), int(pos.state[S_DOMINO_HIGH + suit])
            span = "-" if low == 13 else RANK_NAMES[low] if low == high else f"{RANK_NAMES[low]}..{RANK_NAMES[high]}"
            cols.append(f"{SUIT_SYMBOLS[suit]} {span}")
        return "Columns: " + "  ".join(cols)
    trick = pos.trick_so_far()
    return "Trick so far: " + (", ".join(f"{SEAT_NAMES[s]} {format_card(c)}" for s, c in trick) or "you lead")


def scores_text(pos: Position) -> str:
    return "  ".join(f"{SEAT_NAMES[s][0]} {int(pos.scores[s]):+d}" for s in range(4))


def _trick_line(pos: Position) -> str:
    t = pos.trick_no
    cards = [c for _, c in pos.plays[-4:]]
    w = pos.trick_winners[-1]
    mask = np.uint64(sum(1 << c for c in cards))
    from ..rules.play_rules import trick_value
    pts = int(trick_value(np.int64(pos.contract), np.int64(t - 1), mask, pos.rules_array))
    plays = ", ".join(f"{SEAT_NAMES[s]} {format_card(c)}" for s, c in pos.plays[-4:])
    return f"Trick {t:>2}: {plays}: won by {SEAT_NAMES[w]} ({pts:+d})"


def play_at_table(pos: Position, human: int, bots: dict, console: Console, hint=None, header: str = "") -> None:
    """Play ``pos`` to its end: ``human`` types their cards, ``bots[seat]`` (:class:`Bot`) play the others.

    ``hint(pos)``: the text of a hint for the position (None: no hints).  Raises
    :class:`Quit` when the person quits; ``pos`` then holds the plays made so far.
    """
    snapshots: list[Position] = []  # the position before each of the person's decisions, for undo
    while not pos.over:
        if pos.must_pass():
            pos.pass_turn()
            console.say(f"{SEAT_NAMES[pos.plays[-1][0]]} passes")
            continue
        seat = pos.seat
        legal_cards = cards_of(pos.legal())
        if seat != human:
            card = bots[seat].choose(pos)
        elif len(legal_cards) == 1:
            card = legal_cards[0]
            if not pos.domino:  # a Domino play is shown below in any case
                console.say(f"You play {format_card(card)}: your only legal card")
        else:
            card = _ask_card(pos, legal_cards, console, hint, header, snapshots)
            if card is None:  # undone: the position was restored
                pos = _restore(pos, snapshots.pop())
                continue
        pos.play(card)
        if pos.domino:
            console.say(f"{SEAT_NAMES[seat]} plays {format_card(card)}" + (": out of cards" if pos.hands[seat] == 0 else ""))
        elif pos.n_in_trick == 0:
            console.say(_trick_line(pos))
    console.say("Hand over: " + scores_text(pos))


def _restore(pos: Position, saved: Position) -> Position:
    pos.__dict__.update(copy.deepcopy(saved.__dict__))
    return pos


def _ask_card(pos, legal_cards, console: Console, hint, header: str, snapshots: list):
    """Show the screen and read the person's card; None after ``undo``."""
    numbered = "  ".join(f"{i}:{format_card(c)}" for i, c in enumerate(legal_cards, 1))
    out = cards_of(pos.played)
    console.say("")
    console.say(f"{header} | {scores_text(pos)}" if header else f"Scores: {scores_text(pos)}")
    console.say(f"Out: {hand_text(np.uint64(sum(1 << c for c in out)), compact=True)}" if out else "Out: nothing yet")
    console.say(table_text(pos))
    console.say(f"Your hand: {hand_text(pos.hands[pos.seat])}")
    while True:
        text = console.ask(f"Play {numbered} >")
        low = text.lower()
        if low == "quit":
            raise Quit()
        if low == "hint":
            console.say(hint(pos) if hint else "No hints at this table (--hint-samples 0)")
            continue
        if low == "undo":
            if not snapshots:
                console.say("Nothing to undo in this deal")
                continue
            console.say("Undone: back to your previous card")
            return None
        if low in ("", "help", "?"):
            console.say(f"Type {COMMANDS}.")
            continue
        try:
            card = parse_choice(text, legal_cards)
            pos.check(card, private=True)  # "you do not hold 2C": never where the others' cards are
        except IllegalCard as e:
            console.say(f"Refused: {e}")
            continue
        except ValueError as e:
            console.say(f"Not understood: {e}.\nType {COMMANDS}.")
            continue
        snapshots.append(copy.deepcopy(pos))
        return card


def estimator_ready() -> None:
    """Compile mc's estimator, which hints and the review at the end of a session call, before its
    first use: from numba's disk cache silently, else saying so on stderr (about a minute), as the
    engines do (:func:`core.compiling.ensure_compiled`)."""
    from .estimate import estimator_ready as ready
    ready()


def hint_text(pos: Position, samples: int, seed: int) -> str:
    """Each legal card's value for the seat to play, from its own information, ± standard error, best first.

    The estimator of the review (:func:`estimate.estimate`), on the layouts the review draws for this
    decision: with the same seed and samples, the review of the card then played shows the same numbers.
    """
    from .estimate import Settings, estimate
    from .review_text import hint_lines
    estimator_ready()
    return "\n".join(hint_lines(estimate(pos, seed, Settings(samples=samples))))


__all__ = ["Bot", "Console", "PASS", "Quit", "estimator_ready", "hand_text", "hint_text", "parse_choice",
           "play_at_table"]
