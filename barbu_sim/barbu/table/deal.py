"""One deal at the table: a person at one seat, bots at the others, through lines of text.

:func:`play_at_table` shows, at each of the person's decisions, the screen of
:mod:`.table_screen` (the scores, the doubles, the last trick, the cards played, the trick so
far or the Domino columns, the person's hand) and reads what they type: a card (``QS``,
``♠Q``, ``q s``, ``10h``), the number of a card in the list shown, ``hint`` (mc's value of
each legal card from the person's information), ``undo`` (take back the person's last card
and what followed), ``quit`` or ``help``.  An illegal card is refused with the rule it breaks.
The bots play through the same :class:`position.Position` and draw from the deal's random
stream as in the engine, so a deal is a pure function of the seed and the person's cards.
"""

from __future__ import annotations

import copy
import re

import numpy as np
from numba import types
from rich.text import Text

from ...core.cards import cards_of, parse_card
from ...core.compiling import lazy_kernel
from ...core.interrupt import call_interruptibly
from ...core.seats import SEAT_NAMES
from ...core.strategies import RAISED, STRATEGY_FN, call_again, function_pointer
from ..players.ids import USER, is_mc
from ..players.learned import MODEL_WIDTH, model_array
from ..players.mc.params import needs_model
from ..players.mc.player import mc_choose
from ..position import IllegalCard, Position
from .screen import (
    Console, Header, Quit, card_text, choices_prompt, commands_help, hand_text, screen, scores_text, trick_line,
)
from ..state import PASS
from ..players.registry import resolve_strategy



# a card written by another part of the package: QS, 10H, TH, K♥ or ♥K (not inside a word)
_CARD = re.compile(r"(?<![\w♠♥♦♣])(?:(10|[2-9TJQKA])([CDHS♣♦♥♠])|([♣♦♥♠])(10|[2-9TJQKA]))(?![\w♠♥♦♣])")


def in_table_notation(text: str) -> Text:
    """``text`` (a refusal, a hint) with every card in it written as the table writes cards, in colour.

    The messages of the rules (:meth:`Position.check`) and the hints write cards as files do
    (``KH``, ``10H``, ``K♥``); the screen shows one spelling, ``♥K``.
    """
    out, at = Text(), 0
    for m in _CARD.finditer(text):
        rank, suit = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        out.append(text[at:m.start()])
        out.append_text(card_text(parse_card(rank + suit)))
        at = m.end()
    out.append(text[at:])
    return out


class Bot:
    """A seat's built-in, mc or plugin strategy, called on the table's position.

    The strategy's kernel is made ready when the bot is made, before the session's first card,
    through :func:`core.compiling.ensure_compiled`: from numba's disk cache silently, else with a
    line on stderr before and after the compile (up to a minute for mc), not a silent pause at the
    bot's first card.  The kernel kept is the one compiled for exactly the types :meth:`choose`
    gives it, so nothing else compiles, unsaid, later.  A plugin, which may never return, plays in
    a worker thread without the GIL, where Ctrl-C still reaches the table (:meth:`_plugin_move`).
    """

    def __init__(self, spec: str):
        self.strategy = resolve_strategy(spec)
        self.name = self.strategy.name
        self.is_mc = is_mc(self.strategy.builtin_id)
        self._explain = np.zeros((0, 0), np.float64)
        # the learned player's model, for an mc that reads it (learned rollouts, policy inference)
        self._net = model_array() if needs_model(self.strategy.builtin_id) else np.zeros((0, MODEL_WIDTH), np.float32)
        self._kernel = self._compiled()  # a plugin's compile said here, then its function pointer made from it
        if self.strategy.builtin_id == USER:  # a plugin may never return: its move is made where Ctrl-C reaches
            self._pointer = function_pointer(self.strategy.func)
            self._call = _call_plugin.compiled()

    def _compiled(self):
        """The strategy's kernel for the types :meth:`choose` calls it with (a plugin that is not a numba kernel:
        the function itself, which has nothing to compile)."""
        from numba import typeof

        from ...core import compiling
        from ..players.ids import is_learned
        u, vector = np.uint64(0), np.zeros(1, np.uint64)
        if self.is_mc:
            dispatcher = mc_choose
            values = (np.int64(0), u, u, vector, vector, self._explain, self._net)
            key, name = "barbu-one-mc", self.name.partition(":")[0]  # mc, not all its settings
        else:
            dispatcher = self.strategy.func
            values = (u, u, vector, vector)
            key = ("" if self.strategy.builtin_id == USER else  # a plugin: no estimate of its compile
                   "barbu-one-learned" if is_learned(self.strategy.builtin_id) else "barbu-one")
            name = self.name
        if not hasattr(dispatcher, "overloads") or getattr(dispatcher, "_can_compile", True) is False:
            return dispatcher  # not a numba kernel, or one of explicit signatures (@njit("...")): compiled already
        return compiling.ensure_compiled(dispatcher, tuple(typeof(v) for v in values), f"the {name} bot's play", key)

    def choose(self, pos: Position) -> int:
        legal = np.uint64(pos.legal())
        hand = np.uint64(pos.hands[pos.seat])
        if self.is_mc:
            card = self._kernel(np.int64(self.strategy.builtin_id), legal, hand, pos.state, pos.rng, self._explain,
                                self._net)
        elif self.strategy.builtin_id == USER:
            card = self._plugin_move(legal, hand, pos)
        else:
            card = self._kernel(legal, hand, pos.state, pos.rng)
        card = int(card)
        if not 0 <= card < 52 or not int(legal) >> card & 1:
            raise ValueError(f"the bot {self.name} at {SEAT_NAMES[pos.seat]} played {card}, not a legal card")
        return card

    def _plugin_move(self, legal, hand, pos: Position) -> int:
        """A plugin's card, played as the engines play it (``play``, ``run``): through its function pointer, from a
        kernel compiled ``nogil`` and run in a worker thread, so that Ctrl-C reaches the table even when the
        plugin never returns (the session is then saved, and the process ends: see ``cli.app.interrupted``).
        Built-in bots always return: they are called here directly, as fast as before."""
        card = call_interruptibly(self._call, self._pointer, legal, hand, pos.state, pos.rng)
        if card == RAISED:  # numba cannot carry the plugin's exception out: call it again, here, to show it
            try:
                call_again(self.strategy, legal, hand, pos.state, pos.rng[0])
            except Exception as e:
                raise ValueError(f"the bot {self.name} at {SEAT_NAMES[pos.seat]} raised {type(e).__name__}: {e}") \
                    from None
            raise ValueError(f"the bot {self.name} at {SEAT_NAMES[pos.seat]} raised an exception, which it did not "
                             "raise again when called with the same state")
        return card


@lazy_kernel(types.int64(STRATEGY_FN, types.uint64, types.uint64, types.uint64[::1], types.uint64[::1]),
             "the table's call of a plugin bot", "", cache=True, nogil=True)
def _call_plugin(fn, legal, hand, state, rng):
    """A plugin strategy's move through its function pointer (:func:`core.strategies.function_pointer`), compiled
    ``nogil``: the worker thread that runs it leaves the main thread free to take Ctrl-C."""
    return fn(legal, hand, state, rng)


class Hints:
    """The table's ``hint``: mc's estimator made ready before the session's first hint.  Read from numba's
    disk cache it is ready at once; else its compile (about a minute) is said once, on stderr, with a
    seconds counter on a terminal, by :func:`core.compiling.ensure_compiled`, as the engines' compiles are.

    ``saved``: the file the session is saved to, whose ``barbu-sim review`` reads each hinted decision on
    the hint's layouts (the review at the end of the session is on ``--review-samples`` layouts)."""

    def __init__(self, samples: int, seed: int, console: Console, saved=None):
        self.samples, self.seed, self.console, self.saved = samples, seed, console, saved
        self.ready = False

    def __call__(self, pos: Position) -> str:
        if not self.ready:
            estimator_ready()
            self.ready = True
        return hint_text(pos, self.samples, self.seed, self.saved)


def parse_choice(text: str, legal_cards: list[int]) -> int:
    """The card a person typed: a card in any spelling, or the number of a card in ``legal_cards``."""
    t = text.replace(" ", "")
    if t.isdigit():
        n = int(t)
        if not 1 <= n <= len(legal_cards):
            raise ValueError(f"{text!r}: the cards are numbered 1 to {len(legal_cards)}")
        return legal_cards[n - 1]
    return parse_card(t)


def play_at_table(pos: Position, human: int, bots: dict, console: Console, hint=None,
                  header: Header | None = None) -> None:
    """Play ``pos`` to its end: ``human`` types their cards, ``bots[seat]`` (:class:`Bot`) play the others.

    ``hint(pos)``: the text of a hint for the position (None: no hints); ``header``: the
    session's part of the screen (:class:`table_screen.Header`).  Raises :class:`Quit` when
    the person quits; ``pos`` then holds the plays made so far.
    """
    header = header or Header(you=human)
    snapshots: list[Position] = []  # the position before each of the person's decisions, for undo
    tricks: list[Text] = []  # the tricks played since the last screen: it shows the last one itself
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
                _say_all(console, tricks)
                console.say(Text.assemble("You play ", card_text(card), ": your only legal card"))
        else:
            _say_all(console, tricks[:-1])
            tricks.clear()
            card = _ask_card(pos, legal_cards, console, hint, header, snapshots)
            if card is None:  # undone: the position was restored
                pos = _restore(pos, snapshots.pop())
                continue
        pos.play(card)
        if pos.domino:  # the person's only legal card said as in the other contracts
            notes = ["your only legal card"] * (seat == human and len(legal_cards) == 1)
            notes += ["out of cards"] * bool(pos.hands[seat] == 0)
            console.say(Text.assemble(f"{SEAT_NAMES[seat]} plays ", card_text(card),
                                      f": {', '.join(notes)}" if notes else ""))
        elif pos.n_in_trick == 0:
            tricks.append(trick_line(pos, f"Trick {pos.trick_no:>2}: "))
    _say_all(console, tricks)
    console.say("Hand over: " + scores_text(pos.scores))


def _say_all(console: Console, lines) -> None:
    for line in lines:
        console.say(line)
    if isinstance(lines, list):
        lines.clear()


def _restore(pos: Position, saved: Position) -> Position:
    pos.__dict__.update(copy.deepcopy(saved.__dict__))
    return pos


def _ask_card(pos, legal_cards, console: Console, hint, header: Header, snapshots: list):
    """Show the screen and read the person's card; None after ``undo``."""
    console.say("")
    for line in screen(pos, header):
        console.say(line)
    *above, prompt = choices_prompt(legal_cards)
    while True:
        for line in above:  # a long list of cards goes over two lines, the prompt on the second
            console.say(line)
        text = console.ask(prompt)
        low = text.lower()
        if low in ("quit", "q"):
            raise Quit()
        if low in ("hint", "h"):
            console.say(in_table_notation(hint(pos)) if hint else "No hints at this table (--hint-samples 0)")
            continue
        if low in ("undo", "u"):
            if not snapshots:
                console.say("Nothing to undo in this deal")
                continue
            console.say("Undone: back to your previous card")
            return None
        if low in ("", "help", "?"):
            console.say(commands_help())
            continue
        try:
            card = parse_choice(text, legal_cards)
            pos.check(card, private=True)  # "you do not hold 2C": never where the others' cards are
        except IllegalCard as e:
            console.say(in_table_notation(f"Refused: {e}"))
            continue
        except ValueError as e:
            console.say(f"Not understood: {e}")  # the prompt lists the commands
            continue
        snapshots.append(copy.deepcopy(pos))
        return card


def estimator_ready() -> None:
    """Compile mc's estimator, which hints and the review at the end of a session call, before its
    first use: from numba's disk cache silently, else saying so on stderr (about a minute), as the
    engines do (:func:`core.compiling.ensure_compiled`)."""
    from ..review.estimate import estimator_ready as ready
    ready()


def hint_text(pos: Position, samples: int, seed: int, saved=None) -> str:
    """Each legal card's value for the seat to play, from its own information, ± standard error, best first.

    The estimator of the review (:func:`estimate.estimate`) with its defaults (``mc``'s: ``learned`` rollouts),
    on the layouts the review draws for this decision: with the same seed and samples, the review of the card
    then played shows the same numbers.
    ``barbu-sim review`` of the session's file (``saved``) reviews on the hints' seed and samples, so the
    hint names it; the review at the end of the session is on ``--review-samples`` layouts, which may differ.
    """
    from ..review.estimate import Settings, estimate
    from ..review.text import hint_lines
    estimator_ready()
    lines = hint_lines(estimate(pos, seed, Settings(samples=samples)))
    review = f"barbu-sim review {saved}" if saved is not None else "barbu-sim review of the session's file"
    return "\n".join([*lines[:2], f" ({review} shows the same for this decision)", *lines[2:]])


__all__ = ["Bot", "Console", "PASS", "Quit", "estimator_ready", "hand_text", "hint_text", "parse_choice",
           "play_at_table"]
