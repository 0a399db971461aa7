"""The played-round file of Clabber: the deal, the turned card, the bidding and the cards in play order.

The same plain text as Barbu's played deals (``docs/review-and-table.md``), with ``game: clabber``::

    game: clabber
    dealer: W
    deal: N:AKQJT9... .AKQJT9.. ..AKQJT9. ...AKQJT9
    turned: 9C
    bidding: pass pass play
    play:
    AS KS QS JS
    ...

``bidding`` lists the calls from the dealer's left: in round one ``play`` (the turned suit is
trump) or ``pass``; after four passes, round two: a suit the caller holds (not the turned suit)
or ``pass``; eight passes throw the cards in.  Reading checks the deal, every call and every card
by the rules, and refuses an impossible record in one line; nothing is repaired.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...core.cards import SUIT_LETTERS, cards_of, format_card, parse_suit
from ...core.seats import SEAT_LETTERS, SEAT_NAMES, parse_seat
from ...core.textrecords import check_title, read_field, record_lines, split_record
from ..api import verify_clabber_deal
from ..players.rollout import legal_now, round_scores, step
from ..rules.config import Rules, parse_clabber_card, parse_clabber_deal, parse_rule_options
from ..state import S_DEALER, S_LEADER, S_MAKER, S_RULES, S_SEAT, S_TRUMP, S_TURNED, STATE_ARRAY_SIZE

KEYS = ("game", "dealer", "deal", "turned", "bidding", "option", "seed", "index", "title", "unfinished", "play")
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
PASS, PLAY = -1, 4  # the engine's bids: -1 pass, 4 play, 0..3 a suit named


@dataclass
class PlayedRound:
    """A Clabber round as a played-round file holds it (the fields ``mc_review.card_values`` reads)."""

    hands: np.ndarray  # (4,) uint64 by seat, as dealt
    dealer: int
    turned: int
    bids: list  # (seat, bid) in order
    plays: list = field(default_factory=list)  # (seat, card) in order
    rules: Rules = field(default_factory=Rules)
    seed: int = 0
    index: int = 0
    unfinished: bool = False
    title: str = ""

    @property
    def row(self) -> dict:
        """The maker (-1: thrown in) and the trump, as the engine's record row has them."""
        for seat, bid in self.bids:
            if bid == PLAY:
                return {"maker": seat, "trump": self.turned // 13, "bid_round": 1}
            if bid >= 0:
                return {"maker": seat, "trump": bid, "bid_round": 2}
        return {"maker": -1, "trump": -1, "bid_round": 0}

    @property
    def thrown_in(self) -> bool:
        """Eight passes: no trump was made and no card is played."""
        return self.row["maker"] < 0

    def scores(self) -> tuple[int, int] | None:
        """(N+S, E+W) round scores of a finished round ((0, 0) when the cards were thrown in), None otherwise."""
        if self.thrown_in:
            return 0, 0
        if len(self.plays) != 24:
            return None
        state, hands = start_state(self)
        for _, card in self.plays:
            step(state, hands, card)
        return tuple(int(x) for x in round_scores(state, np.ascontiguousarray(self.hands, np.uint64)))


def start_state(rnd: PlayedRound):
    """The state array and hands before the first card, as the engine's replay starts them.

    A thrown-in round has no first card: it has no state (ValueError).
    """
    if rnd.thrown_in:
        raise ValueError("the cards were thrown in (eight passes): no card is played")
    state = np.zeros(STATE_ARRAY_SIZE, np.uint64)
    for i, v in enumerate(rnd.rules.to_array()):
        state[S_RULES + i] = np.uint64(v)
    row = rnd.row
    state[S_TRUMP], state[S_MAKER], state[S_DEALER], state[S_TURNED] = (row["trump"], row["maker"], rnd.dealer,
                                                                        rnd.turned)
    state[S_SEAT] = state[S_LEADER] = (rnd.dealer + 1) % 4
    return state, np.array(rnd.hands, np.uint64).copy()


def bid_word(bid: int) -> str:
    return {PASS: "pass", PLAY: "play"}.get(bid, SUIT_LETTERS[bid] if 0 <= bid < 4 else "?")


def format_round_log(rnd: PlayedRound) -> str:
    """The played-round text of ``rnd``."""
    from ...core.cards import format_pbn
    lines = ["# barbu-sim played round: docs/review-and-table.md describes the format", "game: clabber"]
    if rnd.title:
        lines.append(f"title: {rnd.title}")
    lines += [f"dealer: {SEAT_LETTERS[rnd.dealer]}", f"deal: {format_pbn(rnd.hands)}",
              f"turned: {format_card(rnd.turned)}", "bidding: " + " ".join(bid_word(b) for _, b in rnd.bids)]
    default = Rules().to_dict() if hasattr(Rules(), "to_dict") else {}
    for key, value in (rnd.rules.to_dict() if hasattr(rnd.rules, "to_dict") else {}).items():
        if value != default.get(key):
            lines.append(f"option: {key}={'on' if value is True else 'off' if value is False else value}")
    if rnd.seed or rnd.index:
        lines += [f"seed: {rnd.seed}", f"index: {rnd.index}"]
    if rnd.unfinished:
        lines.append("unfinished: yes")
    lines.append("play:")
    for i in range(0, len(rnd.plays), 4):
        lines.append(" ".join(f"{format_card(c):>3}" for _, c in rnd.plays[i:i + 4])
                     + f"   # {SEAT_LETTERS[rnd.plays[i][0]]} leads")
    return "\n".join(lines) + "\n"


def round_of(result, rules: Rules | None = None, title: str = "") -> PlayedRound:
    """The :class:`PlayedRound` of an engine-played round (``api.RoundResult``)."""
    return PlayedRound(np.array(result.hands, np.uint64), result.dealer, result.turned, list(result.bids),
                       list(result.plays), rules or Rules(), result.seed, result.index, title=title)


# ---------------------------------------------------------------- reading
def parse_round(lines: list[tuple[int, str]], name: str, error) -> PlayedRound:
    """A played round from its ``(line number, text)`` lines (comments gone); ``error``: the exception to raise."""
    fields, options, play, in_play = split_record(lines, name, error, KEYS)
    first = lines[0][0]
    for key in ("dealer", "deal", "turned", "bidding"):
        if key not in fields:
            raise error(f"{name} (round starting line {first}): no '{key}:' line")

    def get(key, parse):
        return read_field(fields, key, parse, name, error)

    dealer, hands, turned = (get("dealer", parse_seat), get("deal", parse_clabber_deal),
                             get("turned", parse_clabber_card))
    try:
        verify_clabber_deal(hands, turned, dealer)
        rules = parse_rule_options(options)
    except ValueError as e:
        raise error(f"{name} line {fields['turned'][0]}: {e}") from None
    bids = get("bidding", lambda text: _bids(text, dealer, hands, turned))
    rnd = PlayedRound(hands, dealer, turned, bids, rules=rules,
                      seed=get("seed", _key) if "seed" in fields else 0,
                      index=get("index", _key) if "index" in fields else 0,
                      unfinished=fields.get("unfinished", (0, "no"))[1].lower() == "yes",
                      title=get("title", check_title) if "title" in fields else "")
    _read_plays(rnd, play, name, first, error)
    return rnd


def _key(text: str) -> int:
    """A seed or round index: a whole number in the digits 0-9 that fits 64 bits, as the random streams take it."""
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"{text!r} is not a whole number")
    if int(text) >= 2 ** 64:
        raise ValueError(f"{text} is too large: a seed or index is 0..{2 ** 64 - 1}")
    return int(text)


def _bids(text: str, dealer: int, hands, turned: int) -> list[tuple[int, int]]:
    """The calls, checked: round one play/pass, round two a held suit other than the turned one, or pass."""
    bids = []
    for i, word in enumerate(text.replace(",", " ").split()):
        seat = (dealer + 1 + i) % 4
        if bids and bids[-1][1] != PASS:
            raise ValueError(f"{word!r} follows the end of the bidding ({SEAT_NAMES[bids[-1][0]]} made the trump)")
        if i >= 8:
            raise ValueError("eight passes end the bidding: the cards are thrown in")
        w = word.lower()
        if w == "pass":
            bids.append((seat, PASS))
        elif i < 4:
            if w != "play":
                raise ValueError(f"call {i + 1} ({SEAT_NAMES[seat]}) is in round one: 'play' or 'pass', not {word!r}")
            bids.append((seat, PLAY))
        else:
            suit = parse_suit(word)
            if suit == turned // 13:
                raise ValueError(f"{SEAT_NAMES[seat]} names {SUIT_WORDS[suit]}, the turned suit: round two names "
                                 "another suit")
            if not int(hands[seat]) & (0x1FFF << (13 * suit)):
                raise ValueError(f"{SEAT_NAMES[seat]} names {SUIT_WORDS[suit]} and holds none")
            bids.append((seat, suit))
    if not bids or (bids[-1][1] == PASS and len(bids) < 8):
        raise ValueError(f"the bidding stops after {len(bids)} call(s): it ends at a 'play', a suit named, "
                         "or eight passes")
    return bids


def _read_plays(rnd: PlayedRound, play, name: str, first: int, error) -> None:
    """Replay the cards through the rules, as the engine steps them; fill ``rnd.plays``."""
    tokens = [(n, t) for n, line in play for t in line.replace(",", " ").split()]
    if rnd.row["maker"] < 0:
        if tokens:
            raise error(f"{name} line {tokens[0][0]}: the cards were thrown in (eight passes): no card is played")
        return
    state, hands = start_state(rnd)
    played = 0
    for i, (number, token) in enumerate(tokens):
        seat = int(state[S_SEAT])
        where = f"{name} line {number}, play {i + 1} ({SEAT_NAMES[seat]})"
        if i >= 24:
            raise error(f"{name} line {number}: {token} follows the sixth trick: the round is over")
        try:
            card = parse_clabber_card(token)
        except ValueError as e:
            raise error(f"{where}: {e}") from None
        if played >> card & 1:
            raise error(f"{where}: {format_card(card)} was already played")
        if not int(hands[seat]) >> card & 1:
            holder = next(s for s in range(4) if int(hands[s]) >> card & 1)
            raise error(f"{where}: {SEAT_NAMES[seat]} does not hold {format_card(card)} ({SEAT_NAMES[holder]} does)")
        legal = int(legal_now(np.uint64(hands[seat]), state))
        if not legal >> card & 1:
            raise error(f"{where}: {SEAT_NAMES[seat]} may not play {format_card(card)}: "
                        f"{_rule(state, int(hands[seat]), card, legal)}")
        rnd.plays.append((seat, card))
        played |= 1 << card
        step(state, hands, np.int64(card))
    if len(rnd.plays) < 24 and not rnd.unfinished:
        raise error(f"{name} (round starting line {first}): the play stops after {len(rnd.plays)} cards, before the "
                    "sixth trick ends; add 'unfinished: yes' if it stopped there")
    if len(rnd.plays) == 24 and rnd.unfinished:
        raise error(f"{name} (round starting line {first}): marked 'unfinished: yes' but all six tricks are played")


def _rule(state, hand: int, card: int, legal: int) -> str:
    """The rule of play a held card breaks (the branches of ``play_rules.legal_mask``)."""
    led = int(state[7]) // 13  # S_TRICK_CARDS: the first card of the trick
    trump = int(state[S_TRUMP])
    if hand & (0x1FFF << (13 * led)) and card // 13 != led:
        return f"{SUIT_WORDS[led]} were led and a {SUIT_WORDS[led][:-1]} is held: follow suit"
    if card // 13 == trump:
        return "a trump that beats the highest trump in the trick is held and must be played"
    return (f"{'trumps were led' if led == trump else f'void in {SUIT_WORDS[led]}'} and holding a trump: "
            "play a trump")


def _named_lines(text: str):
    """(name, value) of each ``name: value`` line of a record text, comments gone (play lines give odd names)."""
    for raw in record_lines(text.removeprefix("\ufeff")):
        key, colon, value = raw.split("#", 1)[0].strip().partition(":")
        if colon:
            yield key.strip().lower(), value.strip().lower()


def is_clabber(text: str) -> bool:
    """True when the text has a ``game: clabber`` line (the writers put it first; a person may not)."""
    return any(key == "game" and value == "clabber" for key, value in _named_lines(text))


# The names only a Clabber round has (a Barbu deal has a contract and a declarer instead).
CLABBER_ONLY = ("dealer", "turned", "bidding")


def clabber_without_game(text: str) -> list[str]:
    """The Clabber-only names (``dealer:``, ``turned:``, ``bidding:``) of a text with no ``game: clabber`` line
    and no ``contract:`` line: a Clabber round that lost its ``game:`` line, not a Barbu deal ([] otherwise)."""
    keys = {key for key, _ in _named_lines(text)}
    if "contract" in keys or is_clabber(text):
        return []
    return [key for key in CLABBER_ONLY if key in keys]


def parse_rounds(text: str, name: str, error) -> list[PlayedRound]:
    """Every round of a played-round text (records separated by ``---`` lines)."""
    records, current = [], []
    for number, raw in enumerate(record_lines(text.removeprefix("\ufeff")), 1):
        line = raw.split("#", 1)[0].strip()
        if line == "---":
            records.append(current)
            current = []
        elif line:
            current.append((number, line))
    records = [r for r in records + [current] if r]
    if not records:
        raise error(f"{name}: no round in it")
    return [parse_round(r, name, error) for r in records]


__all__ = ["PlayedRound", "cards_of", "clabber_without_game", "format_round_log", "is_clabber", "parse_round",
           "parse_rounds", "round_of", "start_state"]
