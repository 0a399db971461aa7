"""A deal played one card at a time from Python: the position, its legal cards, and why a card is illegal.

:class:`Position` keeps the same state array the engine's play loops keep
(:mod:`barbu_sim.barbu.engine.play_loops`), through the same rules of play
(:mod:`barbu_sim.barbu.rules.play_rules`), so that a strategy, the mc player's estimator or
a person sees exactly what they would see in a deal the engine plays.  It is what
reading a played deal (:mod:`barbu_sim.barbu.formats.deal_file`), reviewing it
(:mod:`barbu_sim.barbu.review.review`) and sitting at the table build on.  It is slow
(a Python step per card) and meant for one deal at a time.

What each play shows about the player's hand (a suit not followed, a trump not
played...) is always recorded in ``S_NOT_HELD``, as the engine does when an mc seat
plays: it is public information, and the mc estimator reads it.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ..core.cards import SUIT_LETTERS, cards_of, format_card
from ..core.rng import STREAM_PLAY, stream_key
from ..core.seats import SEAT_NAMES
from .players.full_state import FULL_STATE_SIZE
from .players.mc.player import infer_not_held, record_play
from .players.trick_step import play_domino_card, play_into_trick
from .rules.play_rules import (
    domino_ace_low, domino_openers, domino_openers_low, domino_start,
    forced_discard, hand_over, lead_restriction, legal_mask, trick_value,
)
from .rules.config import BARBU, CONTRACTS, DOMINO, KING_OF_HEARTS_BIT, NO_HEARTS, R_DOMINO_PAYOUT, TRUMPS, Rules
from .state import (
    PASS, S_CARDS_LEFT, S_CONTRACT, S_DECLARER, S_DOMINO_HIGH, S_DOMINO_LOW, S_LEADER, S_N_IN_TRICK, S_NOT_HELD,
    S_PARAM, S_RULES, S_SEAT, S_TRICK, S_TRICK_CARDS, S_TRICKS_WON, S_WON,
)

U0 = np.uint64(0)
U1 = np.uint64(1)
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")


class IllegalCard(ValueError):
    """A card that may not be played now; the message names the rule it breaks."""


class Position:
    """One deal in play: the hands, the state array, the plays so far and the scores.

    ``hands``: (4,) uint64 by seat, as dealt; ``param``: the trump suit or the domino
    starting rank the declarer named (under ``domino-start=fixed:R`` the hand starts from
    R: :attr:`start`); ``seed``/``index``: the key of the random stream the players draw
    from (:attr:`rng`), the one the engine uses for deal ``index`` of ``seed``.
    """

    def __init__(self, hands, contract: int, param: int, declarer: int, rules: Rules | None = None,
                 seed: int = 0, index: int = 0):
        self.rules = rules or Rules()
        self.rules_array = self.rules.to_array()
        self.dealt = np.array(hands, np.uint64).copy()
        self.hands = self.dealt.copy()
        self.contract, self.param, self.declarer = int(contract), int(param), int(declarer)
        self.domino = self.contract == DOMINO
        self.start = int(domino_start(np.int64(self.param), self.rules_array)) if self.domino else self.param
        self.state = np.zeros(FULL_STATE_SIZE, np.uint64)
        for i, v in enumerate(self.rules_array):
            self.state[S_RULES + i] = np.uint64(np.int64(v))  # as the engine stores it: signed values wrap
        self.state[S_CONTRACT] = self.contract
        self.state[S_PARAM] = self.start
        self.state[S_DECLARER] = self.declarer
        for s in range(4):
            self.state[S_CARDS_LEFT + s] = 13
            self.state[S_DOMINO_LOW + s] = 13
            self.state[S_DOMINO_HIGH + s] = 13
        self.rng = np.array([np.uint64(stream_key(np.uint64(seed), np.uint64(index), STREAM_PLAY))], np.uint64)
        self.scores = np.zeros(4, np.int64)
        self.tricks = np.zeros(4, np.int64)
        self.plays: list[tuple[int, int]] = []  # (seat, card or PASS) in order
        self.trick_winners: list[int] = []
        self.played = U0
        self.seat = self.declarer
        self.over = False
        if self.domino:
            self.ace_low = bool(domino_ace_low(self.rules_array))
            if self.ace_low:
                masks = domino_openers_low(np.int64(self.start))
            else:
                masks = (*domino_openers(np.int64(self.start)), U0, U0)
            self.playable, self.grows_down, self.grows_up, self.wrap_down, self.wrap_up = (np.uint64(m) for m in masks)
            self.finished: list[int] = []
            self._skip_passes()
        else:
            self.restricted = np.uint64(lead_restriction(np.int64(self.contract), self.rules_array))
            self.forced = np.uint64(forced_discard(np.int64(self.contract), self.rules_array))
            self._start_trick(self.declarer)

    # ------------------------------------------------------------ what the seat to play sees
    @property
    def n_in_trick(self) -> int:
        return 0 if self.domino else len(self._trick)

    @property
    def trick_no(self) -> int:
        """The trick being played, 0-based (trick contracts)."""
        return len(self.trick_winners)

    def legal(self) -> np.uint64:
        """The cards the seat to play may play now."""
        hand = self.hands[self.seat]
        if self.domino:
            return hand & self.playable
        return np.uint64(legal_mask(hand, np.int64(len(self._trick)), np.int64(self._led), self.restricted,
                                    self.forced, np.int64(self.contract), np.int64(self.param),
                                    np.int64(self._top_trump), self.rules_array))

    def check(self, card: int, private: bool = False) -> None:
        """Raise :class:`IllegalCard` naming the rule ``card`` breaks if the seat to play may not play it.

        ``private``: the message is for the player at that seat (the table), who may not learn
        where the cards they do not hold are: "you do not hold 2C", not who does.
        """
        who = SEAT_NAMES[self.seat]
        if self.over:
            raise IllegalCard(f"the hand is over ({self._over_reason()}): no card may follow")
        b = U1 << np.uint64(card)
        if self.played & b:
            seat = next(s for s, c in self.plays if c == card)
            raise IllegalCard(f"{format_card(card)} was already played, by {SEAT_NAMES[seat]}")
        if not self.hands[self.seat] & b:
            if private:
                raise IllegalCard(f"you do not hold {format_card(card)}")
            holder = next(s for s in range(4) if self.hands[s] & b)
            raise IllegalCard(f"{who} does not hold {format_card(card)} ({SEAT_NAMES[holder]} does)")
        if self.legal() & b:
            return
        raise IllegalCard(f"{who} may not play {format_card(card)}: {self._rule_broken(card)}")

    def _rule_broken(self, card: int) -> str:
        """The rule of play that makes ``card`` (held, not legal) illegal: the branches of ``legal_mask``."""
        hand, suit = self.hands[self.seat], card // 13
        if self.domino:
            return ("in Domino a card must be of the starting rank or next to an end of its suit's column"
                    + (" (the ace below the 2: domino-ace=low)" if self.ace_low else ""))
        if not self._trick:
            if self.restricted == KING_OF_HEARTS_BIT:
                return "K♥ may not be led while holding another card"
            return (f"a heart may not be led while holding a card of another suit ({CONTRACTS[self.contract]}, "
                    f"{'barbu-heart-lead' if self.contract == BARBU else 'no-hearts-lead'})")
        led, trump, top = self._led, self.param, self._top_trump
        follow = hand & _suit_bits(led)
        if follow and suit != led:
            return f"{SUIT_WORDS[led]} were led and a {SUIT_WORDS[led][:-1]} is held: follow suit"
        if self.contract == TRUMPS:
            if suit == trump and top >= 0 and self.rules.trumps_overtrump:
                return (f"a trump above {format_card(top)} is held and must be played when a trump is "
                        "played (trumps-overtrump)")
            return f"void in {SUIT_WORDS[led]} and holding a trump: play a trump (trumps-void must-trump)"
        return "void in the led suit while holding K♥: it must be discarded (barbu-forced-discard)"

    def _over_reason(self) -> str:
        if self.domino:
            return "three players are out of cards"
        if len(self.trick_winners) == 13:
            return "all 13 tricks are played"
        return {BARBU: "K♥ has been won", NO_HEARTS: "every heart has been won"}.get(self.contract,
                                                                                  "the fourth queen has been won")

    # ------------------------------------------------------------ playing
    def play(self, card: int) -> None:
        """Play ``card`` for the seat to play (checked first: :class:`IllegalCard` if it may not)."""
        card = int(card)
        self.check(card)
        if self.domino:
            self._play_domino(card)
        else:
            self._play_trick_card(card)

    def _start_trick(self, leader: int) -> None:
        self._trick: list[int] = []
        self._trick_mask = U0
        self._led, self._win_card, self._win_seat, self._win_suit, self._top_trump = -1, -1, leader, -1, -1
        self.seat = leader
        st = self.state
        st[S_TRICK] = len(self.trick_winners)
        st[S_LEADER] = leader
        for k in range(4):
            st[S_TRICK_CARDS + k] = U0
        self._set_turn()

    def _set_turn(self) -> None:
        self.state[S_N_IN_TRICK] = len(self._trick)
        self.state[S_SEAT] = self.seat

    def _play_trick_card(self, card: int) -> None:
        st, seat, k = self.state, self.seat, len(self._trick)
        record_play(st, np.int64(card))
        infer_not_held(st, np.int64(seat), np.int64(card), np.int64(k), np.int64(self._led), self.restricted,
                       self.forced, np.int64(self.contract), np.int64(self.param), np.int64(self._top_trump),
                       self.rules_array)
        # The engine's own compiled step, so that a position read or reviewed here is the one
        # the engine plays (one dispatch per card: cheap beside the inference just above).
        played, trick, *after = play_into_trick(
            self.hands, st, np.int64(seat), np.int64(k), np.int64(card), self.played, self._trick_mask,
            np.int64(self._led), np.int64(self._win_card), np.int64(self._win_seat), np.int64(self._win_suit),
            np.int64(self._top_trump), np.int64(self.contract), np.int64(self.param))
        self.played, self._trick_mask = np.uint64(played), np.uint64(trick)
        self._led, self._win_card, self._win_seat, self._win_suit, self._top_trump = (int(v) for v in after)
        self._trick.append(card)
        self.plays.append((seat, card))
        if len(self._trick) < 4:
            self.seat = (seat + 1) % 4
            self._set_turn()
            return
        trick = self._trick_mask
        w = self._win_seat
        self.scores[w] += trick_value(np.int64(self.contract), np.int64(len(self.trick_winners)), trick,
                                      self.rules_array)
        self.tricks[w] += 1
        st[S_WON + w] |= trick
        st[S_TRICKS_WON + w] += U1
        self.trick_winners.append(w)
        if hand_over(np.int64(self.contract), self.played) or len(self.trick_winners) == 13:
            self.over = True
            self._trick = []
            return
        self._start_trick(w)

    def _play_domino(self, card: int) -> None:
        st, seat = self.state, self.seat
        played, playable = play_domino_card(self.hands, st, np.int64(seat), np.int64(card), self.played,
                                            self.playable, self.grows_down, self.grows_up, self.wrap_down,
                                            self.wrap_up, self.ace_low)
        self.played, self.playable = np.uint64(played), np.uint64(playable)
        self.plays.append((seat, card))
        if self.hands[seat] == U0:
            self.scores[seat] = self.rules_array[R_DOMINO_PAYOUT + len(self.finished)]
            self.finished.append(seat)
            if len(self.finished) == 3:
                for s in range(4):
                    if self.hands[s] != U0:
                        self.scores[s] = self.rules_array[R_DOMINO_PAYOUT + 3]
                self.over = True
                return
        self.seat = (seat + 1) % 4
        self._skip_passes()

    def must_pass(self) -> bool:
        """Domino: the seat to play holds cards but none it can play (it knocks)."""
        return (self.domino and not self.over and self.hands[self.seat] != U0
                and not (self.hands[self.seat] & self.playable))

    def pass_turn(self) -> None:
        """Record the Domino pass of the seat to play; only a seat that cannot play may pass."""
        if not self.must_pass():
            what = "not Domino" if not self.domino else (
                "the hand is over" if self.over else f"{SEAT_NAMES[self.seat]} can play "
                + " ".join(format_card(c) for c in cards_of(self.legal())))
            raise IllegalCard(f"{SEAT_NAMES[self.seat]} may not pass: {what}")
        self.state[S_NOT_HELD + self.seat] |= self.playable
        self.plays.append((self.seat, PASS))
        self.seat = (self.seat + 1) % 4
        self._skip_out()

    def turns(self) -> Iterator[tuple[np.uint64, np.uint64]]:
        """Each turn to play until the hand is over, as ``(legal, hand)`` of the seat to play (uint64 masks),
        Domino's passes made on the way: the caller plays one card (:meth:`play`) before asking for the next."""
        while not self.over:
            if self.must_pass():
                self.pass_turn()
                continue
            yield np.uint64(self.legal()), np.uint64(self.hands[self.seat])

    def _skip_out(self) -> None:
        while self.hands[self.seat] == U0:  # a seat out of cards neither plays nor passes
            self.seat = (self.seat + 1) % 4
        self.state[S_SEAT] = self.seat

    def _skip_passes(self) -> None:
        """Move to the next seat that has cards (passes are recorded one by one with :meth:`pass_turn`)."""
        self._skip_out()

    # ------------------------------------------------------------ reading the table
    def trick_so_far(self) -> list[tuple[int, int]]:
        """(seat, card) of the current trick (trick contracts)."""
        return self.plays[len(self.plays) - len(self._trick):] if not self.domino and self._trick else []

    def describe_contract(self) -> str:
        name = CONTRACTS[self.contract]
        if self.contract == TRUMPS:
            return f"{name} {SUIT_LETTERS[self.param]}"  # "trumps S", as the score sheet writes it
        if self.domino:
            return f"{name} from {'23456789TJQKA'[self.start].replace('T', '10')}"
        return name


def _suit_bits(suit: int) -> np.uint64:
    return np.uint64(((1 << 13) - 1) << (13 * suit))
