"""Reading the plain-text records of played deals and rounds: ``name: value`` lines, then the play.

Both games' played-deal files (:mod:`barbu_sim.barbu.formats.deal_file`, :mod:`barbu_sim.clabber.formats.round_file`)
hold records of ``name: value`` lines, any number of ``option:`` lines, and a ``play:`` line
after which every line is play until the next known name.  This module splits a record so;
each game then reads the values.
"""

from __future__ import annotations

import unicodedata


def split_record(lines: list[tuple[int, str]], name: str, error, keys, refused=(), seat_marks=False):
    """``(fields, options, play, in_play)`` of a record's ``(line number, text)`` lines (comments gone).

    ``fields``: name -> ``(line number, value)``, each name at most once; ``options``: the
    values of the ``option:`` lines; ``play``: the ``(line number, text)`` lines of the play;
    ``in_play``: whether a ``play:`` line was seen.  ``keys``: the names a record may use
    (``refused``: names of ``keys`` not allowed here); with ``seat_marks``, a play line
    may start with a seat letter and a colon (``S: 4H``) without being read as a name.
    ``error``: the exception class raised, with a one-line message naming file and line.
    """
    fields: dict[str, tuple[int, str]] = {}
    options: list[str] = []
    play: list[tuple[int, str]] = []
    in_play = False
    for number, line in lines:
        key, colon, value = line.partition(":")
        key = key.strip().lower()
        named = colon and key in keys and key != "play" and not (seat_marks and key in ("n", "e", "s", "w"))
        if in_play and not named:
            play.append((number, line))
            continue
        if not colon or key not in keys or key in refused:
            raise error(f"{name} line {number}: {line[:40]!r} is not 'NAME: value' (names: {', '.join(keys)})")
        if key == "play":
            in_play = True
            if value.strip():
                play.append((number, value.strip()))
        elif key == "option":
            options.append(value.strip())
        elif key in fields:
            raise error(f"{name} line {number}: {key} is given twice (first on line {fields[key][0]})")
        else:
            fields[key] = (number, value.strip())
    return fields, options, play, in_play


def read_field(fields: dict, key: str, parse, name: str, error):
    """``parse`` of the value of field ``key``; a ValueError becomes ``error`` naming the line."""
    number, value = fields[key]
    try:
        return parse(value)
    except ValueError as e:
        raise error(f"{name} line {number}: {key}: {e}") from None


def record_lines(text: str) -> list[str]:
    """The lines of a record text as an editor counts them: ended by ``\n``, ``\r\n`` or ``\r`` only.

    Not :meth:`str.splitlines`, which also ends a line at U+2028, U+0085, a form feed...: a
    title holding one would be cut in two, the rest read as a line of its own, and every line
    number after it would differ from the editor's.
    """
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


# Characters a title may not hold: they act on the terminal (ESC, BEL...), end a line where it is shown
# (U+2028, U+2029, U+0085) or reorder the text around them (the bidirectional embeddings, overrides and isolates).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def check_title(text: str) -> str:
    """A record's ``title:``, which review prints as it is: one line of plain text (a tab allowed).

    A control character, a line or paragraph separator or a bidirectional control is refused
    (``ValueError``, naming it by code point), never printed or silently dropped.
    """
    for c in text:
        if c == "\t":
            continue
        kind = unicodedata.category(c)
        if kind in ("Cc", "Zl", "Zp") or c in BIDI_CONTROLS:
            what = {"Zl": "a line separator", "Zp": "a paragraph separator"}.get(
                kind, "a control character" if kind == "Cc" else "a bidirectional control")
            raise ValueError(f"it holds U+{ord(c):04X} ({what}): a title is one line of plain text")
    return text
