"""A session at the table: one deal, a block of seven contracts or a whole game, a person against the bots.

In a block or a game the declarer names each contract once (the person chooses when
they declare; a bot uses its contract policy) and everyone doubles in turn (the person
types their doubles; a bot uses its doubling policy), all checked by the referee the
games use (:class:`rules.GameReferee`).  The score sheet is printed after each hand.
``quit`` (or the end of the input) saves the session to a played-deal file, which
``barbu-sim review`` reads and ``barbu-sim table --resume`` takes up again: the saved
deals are replayed through the referee, and the bots' cards of an unfinished deal are
played again (they must come out the same), so that the session goes on exactly.
Deal ``h`` of a session is ``random_deal(seed, h)``; the bots of deal ``h`` draw from
the random stream of ``(seed, h)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rich.text import Text

from ...core.seats import N_SEATS, SEAT_LETTERS, SEAT_NAMES, left_of, parse_seat
from ..api import resolve_choice
from ..rules.choices import contract_choices
from ..engine.deals import random_deal
from ..formats.deal_file import PlayedDeal, PlayedDealError, parse_session, read_record_text, write_played_deals
from ..position import Position
from ..rules.config import CONTRACTS, DOMINO, TRUMPS, Rules, parse_contract
from .deal import Bot, Console, Hints, Quit, play_at_table
from .screen import DOUBLES_LEGEND, Header, contract_text, hand_text, owed_text
from .words import parse_contract_words, parse_doubles, parse_rank_word, parse_suit_word
from ..players.registry import resolve_strategy
from ..game.doubling import Situation
from ..game.game import HandRecord
from ..game.policies import make_players
from ..game.rules import (
    COMPULSORY_DOUBLES, GameReferee, allowed_targets, cutter_of, dealer_of, doubling_order, no_doubles, settle,
)
from .sheet import doubles_text, format_sheet

LENGTHS = {"deal": 1, "block": 7, "game": 28}
HUMAN = "you"
SAMPLES_MAX = 100_000  # layouts of a hint or of a review decision (--hint-samples, --review-samples)
SEED_MAX = 2**64 - 1
# Deals of the unseen cards behind a hint at the contract and doubling prompts (the advisor's, with heuristic play):
# about a second or less once the advisor's value table is cached; barbu-sim advise takes 2,000 by default.
ADVICE_SAMPLES = 500
ADVICE_PLAY = "heuristic"
SHEET_LEGEND = "raw: the hand's score  +/-: its doubles settled  tot: the total so far"


def check_samples(value: int, flag: str) -> int:
    """``--hint-samples`` / ``--review-samples``: 0 (off) or 2..:data:`SAMPLES_MAX` layouts."""
    if not 0 <= value <= SAMPLES_MAX:
        raise ValueError(f"{flag} must be at least 0 and at most {SAMPLES_MAX:,}, not {value:,}")
    if value == 1:
        raise ValueError(f"{flag} takes 0 (off) or at least 2 layouts, not 1")
    return value


@dataclass
class TableSettings:
    """What a session is played with; :meth:`line` / :meth:`from_line` keep it in the saved file."""

    seat: int = 2
    bots: list = field(default_factory=lambda: ["heuristic", "heuristic", HUMAN, "heuristic"])
    length: str = "deal"
    seed: int = 0
    first: int = 0  # the declarer of a deal, the first declarer of a block or game
    contract: str = "barbu"  # a deal's contract, with its trump / domino choice
    trump: str | None = None
    domino_rank: str | None = None
    bot_contracts: str = "myopic"
    bot_doubling: str = "compulsory-only"
    hint_samples: int = 50
    options: str = ""  # the rule options in force, NAME=VALUE;NAME=VALUE (see Rules.to_dict)

    def rules(self) -> Rules:
        from ..rules.config import load_rules, parse_option_pairs
        return load_rules(None, parse_option_pairs([o for o in self.options.split(";") if o]))

    @staticmethod
    def options_of(rules: Rules) -> str:
        """The options of ``rules`` that differ from the defaults, as the table line keeps them."""
        default = Rules().to_dict()
        text = []
        for key, value in rules.to_dict().items():
            if value != default.get(key):
                value = ",".join(map(str, value)) if isinstance(value, (list, tuple)) else \
                    ("on" if value is True else "off" if value is False else value)
                text.append(f"{key}={value}")
        return ";".join(text)

    def line(self) -> str:
        return " ".join(f"{k}={v}" for k, v in (
            ("seat", SEAT_LETTERS[self.seat]), ("length", self.length), ("seed", self.seed),
            ("first", SEAT_LETTERS[self.first]), ("bots", "|".join(self.bots)), ("contract", self.contract),
            ("trump", self.trump or ""), ("domino-rank", self.domino_rank or ""),
            ("bot-contracts", self.bot_contracts), ("bot-doubling", self.bot_doubling),
            ("hint-samples", self.hint_samples), ("options", self.options)))

    @classmethod
    def from_line(cls, text: str) -> "TableSettings":
        """The settings of a saved line, each checked as the command line checks its option: an unknown or
        invalid setting (an edited file) is refused in one line that names it and what it takes."""
        try:
            values = _line_values(text)
            bots = values["bots"].split("|")
            if len(bots) != N_SEATS:
                raise ValueError("bots must name four seats")
            seed = _whole(values["seed"], "seed")
            if not 0 <= seed <= SEED_MAX:
                raise ValueError(f"seed must be a non-negative integer below 2^64, not {seed}")
            # the bounds the command line puts on --hint-samples: an edited line gets no more
            hint_samples = check_samples(_whole(values["hint-samples"], "hint-samples"), "hint-samples")
            seat, first = (_seat(values[key], key) for key in ("seat", "first"))
            at = [SEAT_LETTERS[s] for s, b in enumerate(bots) if b == HUMAN]
            if at != [SEAT_LETTERS[seat]]:
                where = " and ".join(at) or "no seat"
                raise ValueError(f"seat={values['seat']}, but bots= (N|E|S|W) has {HUMAN!r} at {where}: "
                                 f"{HUMAN!r} stands at the player's seat, and only there")
            if values["length"] not in LENGTHS:
                raise ValueError(f"length must be deal, block or game, not {values['length']!r}")
            trump, domino_rank = values.get("trump") or None, values.get("domino-rank") or None
            try:
                contract = int(parse_contract(values["contract"]))
            except ValueError as e:
                raise ValueError(f"contract={values['contract']}: {e}") from None
            try:
                contract_choices(contract, trump, domino_rank)
            except ValueError as e:
                key = "trump" if contract == TRUMPS else "domino-rank"
                raise ValueError(f"{key}={values.get(key)}: {e}") from None
            for bot in bots:
                if bot != HUMAN:
                    try:
                        resolve_strategy(bot)
                    except ValueError as e:
                        raise ValueError(f"bots={values['bots']}: {e}") from None
            settings = cls(seat, bots, values["length"], seed, first, values["contract"], trump, domino_rank,
                           values["bot-contracts"], values["bot-doubling"], hint_samples, values.get("options", ""))
            try:
                settings.rules()
            except ValueError as e:
                raise ValueError(f"options={settings.options}: {e}") from None
            return settings
        except KeyError as e:
            raise ValueError(f"the table line is damaged (no {e.args[0]}= setting): {text[:60]!r}") from None
        except ValueError as e:
            raise ValueError(f"the table line is damaged ({e}): {text[:60]!r}") from None


LINE_KEYS = ("seat", "length", "seed", "first", "bots", "contract", "trump", "domino-rank", "bot-contracts",
             "bot-doubling", "hint-samples", "options")  # what TableSettings.line writes, in its order


def _line_values(text: str) -> dict:
    """KEY=VALUE items of a table line; an unknown key, or one given twice, is refused (an edit, kept nowhere)."""
    values = {}
    for item in text.split():
        key, _, value = item.partition("=")
        if key not in LINE_KEYS:
            raise ValueError(f"unknown setting {key!r}: the settings are {', '.join(LINE_KEYS)}")
        if key in values:
            raise ValueError(f"the setting {key} is given twice")
        values[key] = value
    return values


def _whole(text: str, key: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{key} must be a whole number, not {text!r}") from None


def _seat(text: str, key: str) -> int:
    try:
        return parse_seat(text)
    except ValueError:
        raise ValueError(f"{key} must be N, E, S or W, not {text!r}") from None


class Session:
    """A session in play: the settings, the referee, the hands played and the deal in progress."""

    def __init__(self, settings: TableSettings, rules: Rules, console: Console, save_path):
        if settings.length not in LENGTHS:
            raise ValueError(f"unknown length {settings.length!r}: use deal, block or game")
        self.s, self.rules, self.console, self.save_path = settings, rules, console, save_path
        self.bots = {seat: Bot(spec) for seat, spec in enumerate(settings.bots) if seat != settings.seat}
        self.referee = GameReferee(rules, settings.first)
        self.advice: dict = {}  # the advisor's hints given in this session, by hand, seat and question
        self.records: list[HandRecord] = []
        self.deals: list[PlayedDeal] = []
        self.players = None
        # the hints name the file whose review reads what they read
        self.hints = Hints(settings.hint_samples, settings.seed, console, save_path) if settings.hint_samples \
            else None
        if settings.length != "deal":  # contract choice and doubling policies of the bots
            strategies = [b if s != settings.seat else "heuristic" for s, b in enumerate(settings.bots)]
            self.players = make_players(strategies, [settings.bot_contracts] * N_SEATS,
                                        [settings.bot_doubling] * N_SEATS, rules=rules, seed=settings.seed)

    # ------------------------------------------------------------ contract and doubles
    def declarer(self, h: int) -> int:
        return self.s.first if self.s.length == "deal" else self.referee.declarer(h)

    def choose_contract(self, h: int, hands) -> tuple[int, int]:
        d = self.declarer(h)
        if self.s.length == "deal":
            cid = int(parse_contract(self.s.contract))
            choice = contract_choices(cid, self.s.trump, self.s.domino_rank)[0]
            return cid, resolve_choice(choice, hands[d])
        remaining = self.referee.remaining(d)
        if d != self.s.seat:
            c, param = self.players[d].contract_policy.choose(hands[d], remaining, d, self.rules, self.referee.owed(d))
            fixed = self.rules.fixed_domino_start
            return c, (fixed if c == DOMINO and fixed is not None else param)  # the rank played is the one kept
        self.console.say(Text.assemble("You declare. Your hand: ", hand_text(hands[d])))
        listed = "  ".join(f"{i}:{CONTRACTS[c]}" for i, c in enumerate(remaining, 1))
        hint = lambda: self._contract_hint(h, d, hands[d], remaining)  # noqa: E731
        while True:
            text = self._ask(f"Contract {listed} >", "a contract: its number or its name (no tricks, "
                             "no-tricks...), trumps or domino with the suit or rank if you like (trumps spades)", hint)
            try:
                c, rest = parse_contract_words(text, remaining)
                if c not in remaining:
                    raise ValueError(f"you have declared {CONTRACTS[c]} already")
                if rest and c not in (TRUMPS, DOMINO):
                    raise ValueError(f"{CONTRACTS[c]} takes no suit or rank, not {rest!r}")
                if c == TRUMPS:
                    return c, self._ask_until(parse_suit_word, rest, "Trump suit (spades, hearts, diamonds, clubs) >",
                                              "the trump suit: spades, hearts, diamonds or clubs (S, H, D, C, ♠ ♥ ♦ ♣)",
                                              hint)
                if c == DOMINO and self.rules.fixed_domino_start is not None:
                    return c, self.rules.fixed_domino_start  # nothing to choose: the rules name the rank
                if c == DOMINO:
                    return c, self._ask_until(parse_rank_word, rest, "Starting rank (2..10, J, Q, K, A) >",
                                              "the starting rank: 2 to 10, J, Q, K or A (or a word: seven, jack...)",
                                              hint)
                return c, 0
            except ValueError as e:
                self.console.say(f"Refused: {e}")

    def _ask(self, prompt: str, what: str, hint=None) -> str:
        """A line typed at ``prompt``; ``quit`` stops (:class:`Quit`), ``help`` or ``?`` says ``what`` is asked,
        ``hint`` shows the lines of ``hint()`` (the advisor's answer to the question asked).

        Only the whole word ``hint`` asks for one: ``h`` is hearts at the trump suit's prompt.
        """
        while True:
            text = self.console.ask(prompt).strip()
            if text.lower() in ("quit", "q"):
                raise Quit()
            if text.lower() == "hint" and hint is not None:
                for line in (hint() if self.hints is not None else ["No hints at this table (--hint-samples 0)"]):
                    self.console.say(line)
                continue
            if text.lower() not in ("help", "?"):
                return text
            self.console.say(f"Type {what}, or {'hint, ' if hint is not None else ''}quit.")

    def _ask_until(self, parse, typed: str, prompt: str, what: str, hint=None):
        """``parse`` of ``typed`` (what followed the contract), else of lines asked at ``prompt`` until one reads."""
        while True:
            try:
                return parse(typed or self._ask(prompt, what, hint))
            except ValueError as e:
                self.console.say(f"Refused: {e}")
                typed = ""

    def doubling_round(self, h: int, d: int, contract: int, param: int, hands, remaining) -> list:
        doubles = no_doubles()
        if self.s.length == "deal":
            return doubles
        chooser = self.players[d].contract_policy
        situation = Situation(h, tuple(remaining), self.referee.owed(d), chooser)
        for p in doubling_order(d):
            forced = self.referee.must_double(p, d, h)
            allowed = allowed_targets(p, d, contract, doubles)
            if p != self.s.seat:
                targets = self.players[p].doubling_policy.choose(p, d, contract, param, hands[p], allowed, forced,
                                                                 self.rules, situation)
                self.referee.double(h, p, targets, d, contract, doubles)
                continue
            if not allowed:
                continue
            made = _made(doubles, d)
            self.console.say(Text.assemble(f"Doubles so far: {made}", (f" ({DOUBLES_LEGEND})" * ("*" in made), "dim")))
            self.console.say(self._owed_text(p, d, h))
            self.console.say(Text.assemble("Your hand: ", hand_text(hands[p])))
            note = f"; you must double {SEAT_LETTERS[d]} now (compulsory doubles)" if forced else ""
            seats = " ".join(SEAT_LETTERS[t] for t in sorted(allowed)) + (", all" if len(allowed) > 1 else "")
            hint = lambda: self._double_hint(h, p, d, contract, param, hands[p], remaining)  # noqa: E731
            while True:
                text = self._ask(f"Double whom? {seats} or no{note} >", f"the seats you double ({seats}) or no", hint)
                try:
                    targets = parse_doubles(text, allowed)
                    self.referee.double(h, p, targets, d, contract, doubles)
                    break
                except ValueError as e:
                    self.console.say(f"Refused: {e}")
        self.console.say(f"Doubles: {_made(doubles, d)}")
        return doubles

    # ------------------------------------------------------------ the advisor's hints
    def _advised(self, key, lines):
        """The hint ``key`` given before in this session, else ``lines()``, kept: asked again, the same at once."""
        if key not in self.advice:
            self.advice[key] = lines()
        return self.advice[key]

    def _advice_source(self, command: str) -> str:
        """The hint's first line: whose answer it is, over how many deals (few, to be quick), and where more is."""
        return f"Hint (the advisor, {ADVICE_SAMPLES} deals, {ADVICE_PLAY} play; more: {command} --samples N):"

    def _owed_relative(self, d: int) -> dict:
        """The doubles each opponent owes declarer ``d``, by seat relative to d (1 left, 2 across, 3 right)."""
        return dict(zip((1, 2, 3), self.referee.owed(d)))

    def _contract_hint(self, h: int, d: int, hand, remaining) -> list[str]:
        """What the advisor (``barbu-sim advise``) declares with ``hand`` in this block, and why, in one sentence."""
        def lines():
            from textwrap import fill

            from ..game.advice import advise
            advice = advise(hand, list(remaining), doubles_owed=self._owed_relative(d), doubling=self.s.bot_doubling,
                            strategy=ADVICE_PLAY, rules=self.rules, n_samples=ADVICE_SAMPLES, seed=self.s.seed)
            return [self._advice_source("barbu-sim advise"), fill(advice.reason, 100)]
        return self._advised((h, d, "contract"), lines)

    def _double_hint(self, h: int, p: int, d: int, contract: int, param: int, hand, remaining) -> list[str]:
        """Whom the advisor (``barbu-sim advise --double``) doubles with ``hand``, and each double's expected gain."""
        if p == d:
            return ["No hint for a redouble: the advisor answers a defender's question (whom to double)"]

        def lines():
            from ..game.advice import advise_double, format_double
            answer = advise_double(hand, contract, param, declarer=d, seat=p, remaining=list(remaining),
                                   doubles_owed=self._owed_relative(d), strategy=ADVICE_PLAY, rules=self.rules,
                                   n_samples=ADVICE_SAMPLES, seed=self.s.seed)
            # in a player's words, as advise --double says it: what to do, each double's worth and why (the
            # margin), on what evidence; its table of the same numbers left out
            return [self._advice_source("barbu-sim advise --double"), *format_double(answer, table=False).split("\n")]
        return self._advised((h, p, "double"), lines)

    def owed(self, d: int) -> dict:
        """The compulsory doubles each other player still owes declarer ``d`` in this block (seat: count)."""
        return {left_of(d, r): n for r, n in zip((1, 2, 3), self.referee.owed(d))}

    def _owed_text(self, p: int, d: int, h: int) -> str:
        """What the compulsory doubles ask of the person at the doubling prompt."""
        left = self.referee.hands_left(h, d)
        hands = f"{left} hand{'s' if left != 1 else ''} of {SEAT_LETTERS[d]}'s block left, this one included"
        if p == d:
            text = owed_text(self.owed(d), "you")
            return f"{text[0].upper()}{text[1:]} ({hands})"
        made = COMPULSORY_DOUBLES - self.owed(d)[p]
        return f"You have made {made} of your {COMPULSORY_DOUBLES} compulsory doubles on {SEAT_LETTERS[d]} ({hands})"

    # ------------------------------------------------------------ the session
    def save(self, current: PlayedDeal | None = None, rest: list[PlayedDeal] = ()) -> None:
        write_played_deals(self.save_path, self.deals + ([current] if current else []) + list(rest),
                           table=self.s.line())

    def play(self, resume: list[PlayedDeal] | None = None) -> bool:
        """Play the session (after the deals of ``resume``); True when it ran to its end, False on quit.

        Ctrl-C (``KeyboardInterrupt``), at a prompt or while the bots play, saves exactly what
        ``quit`` saves, then is raised again for the caller to end with.
        """
        resume = list(resume or [])
        for h in range(LENGTHS[self.s.length]):
            hands = random_deal(self.s.seed, h)
            d = self.declarer(h)
            saved = resume.pop(0) if resume else None
            title = f"Hand {h + 1} of {LENGTHS[self.s.length]}" if self.s.length != "deal" else "Deal"
            current = None
            try:
                if saved is not None:
                    pos, doubles = self._take_up(h, saved, hands)
                    contract, param = pos.contract, pos.param
                else:
                    self.console.say(f"\n== {title}: {SEAT_NAMES[d]} declares; you are {SEAT_NAMES[self.s.seat]}")
                    remaining = self.referee.remaining(d)
                    contract, param = self.choose_contract(h, hands)
                    if self.s.length != "deal":
                        self.referee.declare(d, contract, param)
                    pos = Position(hands, contract, param, d, self.rules, self.s.seed, h)
                    self.console.say(f"Contract: {contract_text(pos)}")
                    doubles = self.doubling_round(h, d, contract, param, hands, remaining)
                current = PlayedDeal(hands, contract, param, d, self.rules, seed=self.s.seed, index=h,
                                     hand_no=h if self.s.length != "deal" else None,
                                     doubles=[(a, b) for a in range(4) for b in range(4) if doubles[a][b]])
                play_at_table(pos, self.s.seat, self.bots, self.console, self.hints, self._header(title, d, doubles))
            except (Quit, KeyboardInterrupt) as stop:
                if current is not None:
                    current.plays = list(pos.plays)
                # stopped while a saved deal was taken up again: it, and those after it, are kept as they were
                self.save(current if current is not None else saved, resume)
                # no review of a deal in play: it would show the hidden hands (review leaves it out)
                finished = f"  barbu-sim review {self.save_path}   annotates the hands finished\n" if self.deals else ""
                self.console.say(f"Saved to {self.save_path}\n{finished}"
                                 f"  barbu-sim table --resume {self.save_path}   goes on")
                if isinstance(stop, KeyboardInterrupt):
                    raise
                return False
            current.plays = list(pos.plays)
            self.deals.append(current)
            raw = pos.scores.copy()
            self.records.append(HandRecord(h, d, dealer_of(d), cutter_of(d), contract, param, doubles, raw,
                                           settle(raw, doubles, self.rules.lower_is_better)))
            self.save()
            self.console.say("")
            sheet = format_sheet(self.records)
            self.console.say(sheet)
            self.console.say(Text(SHEET_LEGEND + (f"  {DOUBLES_LEGEND}" if "*" in sheet else ""), style="dim"))
        if self.s.length == "game":
            self.referee.finish()
        return True

    def _header(self, title: str, d: int, doubles) -> Header:
        """The session's part of the screen: the totals so far, this hand's doubles, the doubles owed."""
        if self.s.length == "deal":
            return Header(title, self.s.seat)
        totals = sum((r.final for r in self.records), np.zeros(N_SEATS, np.int64))
        return Header(title, self.s.seat, totals=totals, doubles=doubles, owed=self.owed(d),
                      hands_done=len(self.records))

    def _take_up(self, h: int, saved: PlayedDeal, hands):
        """Replay a saved deal: the referee checks its contract and doubles, the bots play their cards again."""
        where = f"{self.save_path}, hand {h + 1}"
        if not np.array_equal(saved.hands, hands) or saved.declarer != self.declarer(h):
            raise ValueError(f"{where}: not the deal or declarer of the session's seed (was the file edited?)")
        d, c = saved.declarer, saved.contract
        doubles = no_doubles()
        if self.s.length != "deal":
            try:
                self.referee.declare(d, c, saved.param)
                for p in doubling_order(d):
                    self.referee.double(h, p, {b for a, b in saved.doubles if a == p}, d, c, doubles)
            except ValueError as e:
                raise ValueError(f"{where}: {e}") from None
        pos = Position(hands, c, saved.param, d, self.rules, self.s.seed, h)
        for seat, card in saved.plays:
            if pos.must_pass():
                pos.pass_turn()
                continue
            if seat != self.s.seat:
                mine = self.bots[seat].choose(pos)
                if mine != card:
                    raise ValueError(f"{where}: the bot at {SEAT_NAMES[seat]} plays differently from the file "
                                     "(was it edited, or are the bots not the same?)")
            pos.play(card)
        self.console.say(f"\n== Taken up: hand {h + 1}, {contract_text(pos)}, {len(pos.plays)} plays made")
        return pos, doubles


def _made(doubles, declarer: int) -> str:
    """The doubles made, ``N>S* E>S*`` (``*`` on the declarer), or ``none``."""
    made = doubles_text(doubles, declarer)
    return "none" if made == "-" else made


def session_layouts(text: str) -> tuple[int, int] | None:
    """(hint-samples, seed) of the table session saved in ``text`` (a played-deal file), None for another file
    or a damaged table line.

    ``barbu-sim review`` of a session's file reviews on its hints' layouts (the session's seed, the
    hints' samples) unless told otherwise, so that the review of a decision reads what its hint read.
    Only the first line that is not blank or a comment is looked at: a session's file starts with its
    ``table:`` line (:func:`deal_file.parse_session`).
    """
    for raw in text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if not line.lower().startswith("table:"):
            return None
        try:  # these two settings only: the review loads no bot (a plugin's file) and no rules from the line
            values = _line_values(line.partition(":")[2].strip())
            samples = check_samples(_whole(values["hint-samples"], "hint-samples"), "hint-samples")
            seed = _whole(values["seed"], "seed")
        except (KeyError, ValueError):
            return None  # the review reads the deals; resuming the session says what is damaged
        return (samples, seed) if 0 <= seed <= SEED_MAX else None
    return None


def read_session(path) -> tuple[TableSettings, list[PlayedDeal]]:
    """The settings and the deals of a saved session (``barbu-sim table --resume``)."""
    # capped at MAX_RECORD_BYTES like every played-deal file; a file named '-' is that file (the table reads stdin)
    text = read_record_text("./-" if str(path) == "-" else path)
    line, deals = parse_session(text, str(path))
    if line is None:
        raise PlayedDealError(f"{path} is not a saved table session (no 'table:' line): review it instead")
    try:
        return TableSettings.from_line(line), deals
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
