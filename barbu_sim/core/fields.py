"""Named fields of a flat array and of the bits of an integer: offsets, shifts and sizes derived, not numbered.

A layout is declared once, as the list of its fields with their sizes in order (as open_spiel's
observers declare their tensors); a field's offset is the sum of the sizes before it, the total
the sum of them all.  Inserting, growing or moving a field moves what follows it, and nothing
is renumbered by hand.

- :class:`ArrayFields`: the slots of a flat array (the state array, a player's scratch space,
  the columns of a table), in entries;
- :class:`BitFields`: the fields packed into one integer (a strategy id), in bits, with
  :meth:`BitFields.pack` / :meth:`BitFields.unpack` for Python.

The modules that declare a layout keep plain int constants taken from it, one per field in the
declared order (``S_CONTRACT, S_PARAM, ... = STATE.offsets()``; a count that does not match fails
at import): numba reads a module's int globals as compile-time constants, so a kernel compiles to
the same code as with the numbers written out.  This module
is numba-free: the state modules and the strategy registries read it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def _declared(fields: Iterable[tuple[str, int]], unit: str) -> tuple[tuple[str, int], ...]:
    """The fields as a tuple, each name once and each size a positive int (else ValueError)."""
    out = tuple((name, size) for name, size in fields)
    seen = set()
    for name, size in out:
        if name in seen:
            raise ValueError(f"field {name!r} is declared twice")
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise ValueError(f"field {name!r} must be a positive number of {unit}, not {size!r}")
        seen.add(name)
    return out


class _Fields:
    """What both layouts share: the fields in order, each one's start and size, and their total."""

    unit = "entries"

    def __init__(self, fields: Iterable[tuple[str, int]]):
        self.fields = _declared(fields, self.unit)
        self._at: dict[str, tuple[int, int]] = {}
        at = 0
        for name, size in self.fields:
            self._at[name] = (at, size)
            at += size
        self._total = at

    def __contains__(self, name: str) -> bool:
        return name in self._at

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self.fields)!r})"


class ArrayFields(_Fields):
    """The slots of a flat array: ``ArrayFields([("contract", 1), ("trick_cards", 4), ...])``.

    ``offset(name)`` is where a field starts, ``size_of(name)`` how many entries it has,
    ``end(name)`` the first entry after it, ``size`` the entries of the whole array;
    ``offsets()`` every field's offset in the declared order.
    """

    def __init__(self, fields: Iterable[tuple[str, int]]):
        super().__init__(fields)
        self.size = self._total

    def offset(self, name: str) -> int:
        """The first entry of field ``name``."""
        return self._at[name][0]

    def offsets(self) -> tuple[int, ...]:
        """Every field's first entry, in the declared order: one tuple to unpack into a module's constants."""
        return tuple(at for at, _ in self._at.values())

    def size_of(self, name: str) -> int:
        """The entries of field ``name``."""
        return self._at[name][1]

    def end(self, name: str) -> int:
        """The first entry after field ``name``."""
        at, size = self._at[name]
        return at + size

    def slice(self, name: str) -> slice:
        """Field ``name``'s entries, to index an array with from Python."""
        at, size = self._at[name]
        return slice(at, at + size)

    def __iter__(self) -> Iterator[tuple[str, int, int]]:
        """``(name, offset, size)`` of each field, in order."""
        return ((name, at, size) for name, (at, size) in self._at.items())


class BitFields(_Fields):
    """Fields packed into the bits of one integer, the first in the lowest bits.

    ``BitFields([("kind", 4), ("samples", 24)])``: ``shift(name)`` is a field's lowest bit,
    ``mask(name)`` the mask of its value (before the shift), ``width`` the bits used.
    """

    unit = "bits"

    def __init__(self, fields: Iterable[tuple[str, int]], limit: int = 63):
        super().__init__(fields)
        if self._total > limit:  # a strategy id is an int64 in the kernels: it stays positive
            raise ValueError(f"{self._total} bits do not fit in {limit}")
        self.width = self._total

    def shift(self, name: str) -> int:
        """The lowest bit of field ``name``."""
        return self._at[name][0]

    def bits(self, name: str) -> int:
        """The bits of field ``name``."""
        return self._at[name][1]

    def mask(self, name: str) -> int:
        """The mask of field ``name``'s value, unshifted: ``(packed >> shift) & mask``."""
        return (1 << self._at[name][1]) - 1

    def pack(self, **values: int) -> int:
        """The integer holding ``values`` (fields not given are 0); ValueError for a value that does not fit."""
        packed = 0
        for name, value in values.items():
            if name not in self._at:
                raise ValueError(f"no field {name!r} (fields: {', '.join(n for n, _ in self.fields)})")
            at, bits = self._at[name]
            value = int(value)
            if not 0 <= value < 1 << bits:
                raise ValueError(f"{name}={value} does not fit in {bits} bits")
            packed |= value << at
        return packed

    def unpack(self, packed: int) -> dict[str, int]:
        """Each field's value in ``packed``."""
        packed = int(packed)
        return {name: (packed >> at) & ((1 << bits) - 1) for name, (at, bits) in self._at.items()}

    def get(self, packed: int, name: str) -> int:
        """Field ``name``'s value in ``packed``."""
        at, bits = self._at[name]
        return (int(packed) >> at) & ((1 << bits) - 1)
