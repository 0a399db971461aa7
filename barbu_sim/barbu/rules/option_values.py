"""Reading one option value of the Barbu rules: a choice, on/off, a point value, a rank, the Domino payout.

Each parser returns the value in its plain form or raises ``ValueError`` with a one-line message
naming the option.  The limits keep every score one seat can make in one hand inside the records'
int16 columns, with room to spare.
"""

from __future__ import annotations

import numbers
import re

from ...core.cards import RANK_NAMES


def choice(option: str, value, allowed) -> str:
    if value not in allowed:
        raise ValueError(f"option {option}: {value!r} is not one of {', '.join(allowed)}")
    return value


def parse_bool(option: str, value) -> bool:
    if isinstance(value, bool):
        return value
    key = str(value).strip().lower()
    if key in ("on", "true", "yes", "1"):
        return True
    if key in ("off", "false", "no", "0"):
        return False
    raise ValueError(f"option {option}: {value!r} is not on or off")


MAX_PAYOUT = 10_000  # |a Domino payout|: every score fits the records' int16 columns, with room to spare
MAX_HAND_SCORE = MAX_PAYOUT  # |what one seat can score in one hand|, for every contract


INTEGER_TEXT = re.compile(r"[+-]?[0-9]+")  # what int() reads without its extras: no '_', no other script's digits


def parse_int_text(text: str) -> int:
    """An integer written as an optional sign and the digits 0-9 (``int`` would also take ``1_000``,
    ``١٢`` or ``２``); ValueError otherwise."""
    text = text.strip()
    if not INTEGER_TEXT.fullmatch(text):
        raise ValueError(f"{text!r} is not an integer")
    return int(text)


def parse_points(option: str, value) -> int:
    """A point value: an integer (text from ``-o`` is parsed; 1.5 and true are refused, not coerced)."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, str)):
        raise ValueError(f"option {option}: {value!r} is not an integer")
    try:
        points = parse_int_text(value) if isinstance(value, str) else int(value)
    except ValueError:
        raise ValueError(f"option {option}: {value!r} is not an integer") from None
    if abs(points) > MAX_HAND_SCORE:
        raise ValueError(f"option {option}: {points} is outside -{MAX_HAND_SCORE:,}..{MAX_HAND_SCORE:,}")
    return points


def parse_rank(option: str, value) -> str:
    """A rank name (2..10 or T, J, Q, K, A; an integer 2..10 also reads as that rank), returned in its plain form."""
    text = str(value).strip().upper() if not isinstance(value, bool) else ""
    text = "10" if text == "T" else text
    if text not in RANK_NAMES:
        raise ValueError(f"option {option}: {value!r} is not a rank (2..10 or T, J, Q, K, A)")
    return text


def parse_start(value) -> str:
    text = str(value).strip().lower()
    if text == "declarer-choice":
        return text
    if text.startswith("fixed:"):
        return "fixed:" + parse_rank("domino-start", text[6:])
    raise ValueError(f"option domino-start: {value!r} is not declarer-choice or fixed:RANK (e.g. fixed:7)")


def parse_payout(value) -> tuple[int, int, int, int]:
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(",") if p.strip()]
    else:
        try:
            parts = list(value)
        except TypeError:
            raise ValueError(f"option domino-payout: {value!r} is not a list of four integers") from None
        if not all(isinstance(p, numbers.Integral) and not isinstance(p, bool) for p in parts):
            # int() would truncate 1.5 and read true as 1: refuse rather than coerce
            raise ValueError(f"option domino-payout: {value!r} is not a list of four integers") from None
    try:
        payout = tuple(parse_int_text(p) if isinstance(p, str) else int(p) for p in parts)
    except (TypeError, ValueError):
        raise ValueError(f"option domino-payout: {value!r} is not a list of four integers") from None
    if len(payout) != 4:
        raise ValueError(f"option domino-payout: needs four numbers (first, second, third, last), got {len(payout)}")
    if any(abs(p) > MAX_PAYOUT for p in payout):
        raise ValueError(f"option domino-payout: each payout must be within -{MAX_PAYOUT:,}..{MAX_PAYOUT:,}, "
                         f"not {','.join(map(str, payout))}")
    return payout  # type: ignore[return-value]
