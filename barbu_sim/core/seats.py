"""Seats at a table of four: N E S W = 0..3, clockwise; the next player is the seat to the left.

>>> Seat.NORTH.letter, left_of(Seat.WEST), right_of(0), across_from(1)
('N', 0, 3, 3)
>>> parse_seat("east"), parse_seat("W"), parse_seat("2")
(1, 3, 2)
"""

from enum import IntEnum

N_SEATS = 4
SEAT_LETTERS = "NESW"
SEAT_NAMES = ("North", "East", "South", "West")


class Seat(IntEnum):
    """A seat; the values are the kernels' seat ints."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @property
    def letter(self) -> str:
        return SEAT_LETTERS[self]


def left_of(seat: int, steps: int = 1) -> int:
    """The seat ``steps`` places clockwise (to the left) of ``seat``: the next player for ``steps=1``."""
    return (seat + steps) % N_SEATS


def right_of(seat: int) -> int:
    """The seat on ``seat``'s right (who plays just before it)."""
    return (seat + 3) % N_SEATS


def across_from(seat: int) -> int:
    """The seat across the table from ``seat`` (its partner in partnership games)."""
    return (seat + 2) % N_SEATS


def parse_seat(text: str) -> int:
    """Parse a seat: ``N``/``E``/``S``/``W``, a name (``north``) or ``0``..``3``."""
    t = text.strip().upper()
    if t in ("0", "1", "2", "3"):
        return int(t)
    for i, name in enumerate(SEAT_NAMES):
        if t in (SEAT_LETTERS[i], name.upper()):
            return i
    raise ValueError(f"unknown seat {text!r}: use N, E, S, W or 0..3")
