"""What a kernel's error code says about a strategy that failed, as an exception naming strategy, seat and card.

A compiled play loop cannot raise a user strategy's exception: it stops and returns a negative code,
``-(card * 4 + seat) - 1``, where ``card`` is the card the seat played (one it may not play), or one of
the two codes below.  Both games' engines write these codes; this module turns them into the one
message both games give.  It does not compile anything.
"""

from __future__ import annotations

from .cards import format_card
from .seats import SEAT_LETTERS
from .strategies import Strategy, call_again, not_a_card_message

NOT_A_CARD = 52  # in an error code: the strategy returned a value that is not a card (the engines' play_loops)
STRATEGY_RAISED = 53  # in an error code: the strategy raised an exception (the engines' play_loops)


class StrategyError(ValueError):
    """A strategy failed during play: it raised an exception, or returned a card it may not play."""


class IllegalPlayError(StrategyError):
    """A strategy returned a card it may not play."""


def raise_failed_play(code: int, resolved: list[Strategy], where: str, saved: tuple | None = None):
    """Raise the :class:`StrategyError` that a kernel's error ``code`` stands for, naming strategy, seat and card.

    ``resolved``: the four seats' strategies; ``where``: the deal, round or game, for the message;
    ``saved``: the failed play's ``(legal, hand, state, rng)`` as the kernel saved them, when it did.  With
    them the strategy is called again here, in Python, on the very state it failed on, to show the
    exception's type and message or the value it returned (numba carries neither out of a kernel).
    """
    code = -int(code) - 1
    seat, card = code % 4, code // 4
    strategy = resolved[seat]
    who = f"strategy {strategy.name!r} at seat {SEAT_LETTERS[seat]}"
    if card == STRATEGY_RAISED:
        if saved is None:
            raise StrategyError(f"{who} raised an exception ({where})")
        try:
            call_again(strategy, *saved)
        except Exception as e:
            raise StrategyError(f"{who} raised {type(e).__name__}: {e} ({where})") from None
        raise StrategyError(f"{who} raised an exception, which it did not raise again when called with "
                            f"the same state ({where})")
    if card >= NOT_A_CARD and saved is not None:
        raise IllegalPlayError(f"{who} {not_a_card_message(strategy, *saved)} ({where})")
    shown = format_card(card) if card < NOT_A_CARD else "a value that is not a card"
    raise IllegalPlayError(f"{who} played {shown}, which is not a legal card there ({where})")
