"""Contracts, the rule-variant configuration (``Rules``) and its named presets.

The options are those of the rules (``docs/rules.md``); the defaults are the spec's.  A
``Rules`` compiles to a small int64 array (``Rules.to_array``) that the
kernels read with the ``R_*`` indices below.
"""

from __future__ import annotations

import dataclasses
import numbers
import tomllib
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path

import numpy as np

from ..core.cards import ACE_RANK, HEARTS, KING_RANK, QUEEN_RANK, Suit, card_of, suit_mask


class Contract(IntEnum):
    """The seven contracts, in the order the spec lists them; the values are the kernels' contract ids."""

    NO_TRICKS = 0
    NO_QUEENS = 1
    NO_LAST_TWO = 2
    NO_HEARTS = 3
    BARBU = 4
    TRUMPS = 5
    DOMINO = 6

    @property
    def label(self) -> str:
        """The contract's name on the command line and in records: ``no-tricks`` ... ``domino``."""
        return CONTRACTS[self]


# Plain-int names of the contracts, for the kernels (numba folds them as constants).
NO_TRICKS, NO_QUEENS, NO_LAST_TWO, NO_HEARTS, BARBU, TRUMPS, DOMINO = (int(c) for c in Contract)
N_CONTRACTS = len(Contract)
CONTRACTS = tuple(c.name.lower().replace("_", "-") for c in Contract)
CONTRACT_TITLES = (
    "No Tricks", "No Queens", "No Last Two", "No Hearts",
    "No King of Hearts (Barbu)", "Trumps", "Domino",
)
NEGATIVE_CONTRACTS = (NO_TRICKS, NO_QUEENS, NO_LAST_TWO, NO_HEARTS, BARBU)
POSITIVE_CONTRACTS = (TRUMPS, DOMINO)
# Points shared out by each contract in one hand (the sum of the four seats' raw scores).
CONTRACT_TOTALS = (-26, -24, -30, -30, -20, 65, 65)

# The penalty cards: the cards whose winning the negative contracts count.
QUEENS = np.uint64(sum(1 << card_of(s, QUEEN_RANK) for s in Suit))
HEARTS_MASK = suit_mask(HEARTS)
KING_OF_HEARTS = card_of(HEARTS, KING_RANK)
ACE_OF_HEARTS = card_of(HEARTS, ACE_RANK)
KING_OF_HEARTS_BIT = np.uint64(1 << KING_OF_HEARTS)
ACE_OF_HEARTS_BIT = np.uint64(1 << ACE_OF_HEARTS)

ROTATIONS = ("declarer-block", "every-dealer")
BARBU_HEART_LEADS = ("king-only", "no-hearts-unless-only-hearts")
TRUMPS_VOIDS = ("must-trump", "free")

# Indices into the kernels' rules array.
R_BARBU_HEART_LEAD = 0  # 0 king-only, 1 no-hearts-unless-only-hearts
R_BARBU_FORCED_DISCARD = 1  # 0 off, 1 on
R_TRUMPS_VOID = 2  # 0 must-trump, 1 free
R_TRUMPS_OVERTRUMP = 3  # 0 off, 1 on
R_DOMINO_PAYOUT = 4  # four entries: first, second, third, last
RULES_ARRAY_SIZE = 8  # the rotation is a game-level option: no kernel reads it


def parse_contract(name: str) -> Contract:
    """The contract of a name (``no-tricks`` ... ``domino``; ``_`` or spaces also accepted).

    >>> parse_contract("No Last Two"), int(parse_contract("domino"))
    (<Contract.NO_LAST_TWO: 2>, 6)
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key in CONTRACTS:
        return Contract(CONTRACTS.index(key))
    raise ValueError(f"unknown contract {name!r}: use one of {', '.join(CONTRACTS)}")


def _choice(option: str, value, allowed) -> str:
    if value not in allowed:
        raise ValueError(f"option {option}: {value!r} is not one of {', '.join(allowed)}")
    return value


def _parse_bool(option: str, value) -> bool:
    if isinstance(value, bool):
        return value
    key = str(value).strip().lower()
    if key in ("on", "true", "yes", "1"):
        return True
    if key in ("off", "false", "no", "0"):
        return False
    raise ValueError(f"option {option}: {value!r} is not on or off")


MAX_PAYOUT = 10_000  # |a Domino payout|: every score fits the records' int16 columns, with room to spare


def _parse_payout(value) -> tuple[int, int, int, int]:
    if isinstance(value, str):
        parts = [p for p in value.replace(" ", "").split(",") if p]
    else:
        try:
            parts = list(value)
        except TypeError:
            raise ValueError(f"option domino-payout: {value!r} is not a list of four integers") from None
        if not all(isinstance(p, numbers.Integral) and not isinstance(p, bool) for p in parts):
            # int() would truncate 1.5 and read true as 1: refuse rather than coerce
            raise ValueError(f"option domino-payout: {value!r} is not a list of four integers") from None
    try:
        payout = tuple(int(p) for p in parts)
    except (TypeError, ValueError):
        raise ValueError(f"option domino-payout: {value!r} is not a list of four integers") from None
    if len(payout) != 4:
        raise ValueError(f"option domino-payout: needs four numbers (first, second, third, last), got {len(payout)}")
    if any(abs(p) > MAX_PAYOUT for p in payout):
        raise ValueError(f"option domino-payout: each payout must be within -{MAX_PAYOUT:,}..{MAX_PAYOUT:,}, "
                         f"not {','.join(map(str, payout))}")
    return payout  # type: ignore[return-value]


@dataclass(frozen=True)
class Rules:
    """The rule variants in force; every field is an option of the rules (``docs/rules.md``).

    Build one with keyword arguments, from a preset (:data:`PRESETS`), from a
    TOML file (:func:`load_rules`) or by overriding options of another
    (:meth:`with_options`).  Invalid values raise ``ValueError``.
    """

    rotation: str = "declarer-block"
    barbu_heart_lead: str = "king-only"
    barbu_forced_discard: bool = False
    trumps_void: str = "must-trump"
    trumps_overtrump: bool = False
    domino_payout: tuple[int, int, int, int] = (45, 20, 5, -5)

    def __post_init__(self):
        _choice("rotation", self.rotation, ROTATIONS)
        _choice("barbu-heart-lead", self.barbu_heart_lead, BARBU_HEART_LEADS)
        _choice("trumps-void", self.trumps_void, TRUMPS_VOIDS)
        object.__setattr__(self, "barbu_forced_discard", _parse_bool("barbu-forced-discard", self.barbu_forced_discard))
        object.__setattr__(self, "trumps_overtrump", _parse_bool("trumps-overtrump", self.trumps_overtrump))
        object.__setattr__(self, "domino_payout", _parse_payout(self.domino_payout))

    def with_options(self, **options) -> "Rules":
        """A copy with some options changed; names may use ``-`` or ``_``."""
        changes = {}
        for key, value in options.items():
            field = key.replace("-", "_")
            if field not in OPTION_NAMES:
                raise ValueError(f"unknown option {key!r}: use one of {', '.join(o.replace('_', '-') for o in OPTION_NAMES)}")
            changes[field] = value
        return dataclasses.replace(self, **changes)

    def to_array(self) -> np.ndarray:
        """The (RULES_ARRAY_SIZE,) int64 array the kernels read."""
        a = np.zeros(RULES_ARRAY_SIZE, np.int64)
        a[R_BARBU_HEART_LEAD] = BARBU_HEART_LEADS.index(self.barbu_heart_lead)
        a[R_BARBU_FORCED_DISCARD] = int(self.barbu_forced_discard)
        a[R_TRUMPS_VOID] = TRUMPS_VOIDS.index(self.trumps_void)
        a[R_TRUMPS_OVERTRUMP] = int(self.trumps_overtrump)
        a[R_DOMINO_PAYOUT:R_DOMINO_PAYOUT + 4] = self.domino_payout
        return a

    def to_dict(self) -> dict:
        """The options as a plain dict with the spec's names (for manifests and TOML)."""
        return {
            "rotation": self.rotation,
            "barbu-heart-lead": self.barbu_heart_lead,
            "barbu-forced-discard": self.barbu_forced_discard,
            "trumps-void": self.trumps_void,
            "trumps-overtrump": self.trumps_overtrump,
            "domino-payout": list(self.domino_payout),
        }

    def contract_total(self, contract: int) -> int:
        """Points shared out by one hand of ``contract`` under these rules."""
        return sum(self.domino_payout) if contract == DOMINO else CONTRACT_TOTALS[contract]

    def seat_scores(self, contract: int) -> frozenset[int]:
        """Every raw score one seat can make in one hand of ``contract`` under these rules.

        >>> sorted(Rules().seat_scores(NO_LAST_TWO)), sorted(Rules().seat_scores(BARBU))
        ([-30, -20, -10, 0], [-20, 0])
        """
        if contract == NO_TRICKS:
            return frozenset(-2 * k for k in range(14))
        if contract == NO_QUEENS:
            return frozenset(-6 * k for k in range(5))
        if contract == NO_LAST_TWO:
            return frozenset((0, -10, -20, -30))
        if contract == NO_HEARTS:  # -2 a heart, the ace 4 more: without the ace at most 12 hearts
            return frozenset([-2 * h for h in range(13)] + [-2 * h - 4 for h in range(1, 14)])
        if contract == BARBU:
            return frozenset((0, -20))
        if contract == TRUMPS:
            return frozenset(5 * k for k in range(14))
        return frozenset(self.domino_payout)


OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Rules))

PRESETS: dict[str, Rules] = {
    "default": Rules(),
    "strict-barbu": Rules(barbu_heart_lead="no-hearts-unless-only-hearts", barbu_forced_discard=True),
    "overtrump": Rules(trumps_overtrump=True),
    "free-discard": Rules(trumps_void="free"),
    "every-dealer": Rules(rotation="every-dealer"),
}


def load_rules(spec: str | None = None, options: dict | None = None) -> Rules:
    """Rules from a preset name or a TOML file path (``None``: the defaults), then ``options`` on top.

    A TOML file holds the options as top-level keys, e.g. ``trumps-overtrump = true``,
    and may name a ``preset`` to start from.
    """
    if spec is None or spec == "":
        rules = Rules()
    elif spec in PRESETS:
        rules = PRESETS[spec]
    elif spec.endswith(".toml"):
        path = Path(spec)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as e:
            raise ValueError(f"cannot read rules file {spec}: {e.strerror}") from None
        except UnicodeDecodeError as e:
            raise ValueError(f"rules file {spec} is not UTF-8 text (byte {e.object[e.start]:#04x} at offset "
                             f"{e.start}): save it as UTF-8") from None
        except tomllib.TOMLDecodeError as e:
            raise ValueError(f"rules file {spec} is not valid TOML: {e}") from None
        check_toml_types(spec, data)
        base = data.pop("preset", "default")
        if base not in PRESETS:
            raise ValueError(f"rules file {spec}: unknown preset {base!r}")
        try:
            rules = PRESETS[base].with_options(**data)
        except (TypeError, ValueError) as e:
            raise ValueError(f"rules file {spec}: {e}") from None
    else:
        raise ValueError(f"unknown rules preset {spec!r}: use one of {', '.join(PRESETS)} or a .toml file")
    return rules.with_options(**options) if options else rules


# What each key of a rules file must hold, as TOML types: no value is coerced (1.5 is not 1, true is not 1).
TOML_TYPES = {"preset": (str, "a string"), "rotation": (str, "a string"), "barbu-heart-lead": (str, "a string"),
              "trumps-void": (str, "a string"), "barbu-forced-discard": (bool, "true or false"),
              "trumps-overtrump": (bool, "true or false"), "domino-payout": (list, "a list of four integers")}


def _toml_type(value) -> str:
    return {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "a list",
            dict: "a table"}.get(type(value), type(value).__name__)


def check_toml_types(spec, data: dict) -> None:
    """Refuse a rules file whose values have the wrong TOML type, naming the file, the option and the type."""
    for key, value in data.items():
        name = key.replace("_", "-")
        if name not in TOML_TYPES:
            continue  # an unknown option is refused by name later
        kind, expected = TOML_TYPES[name]
        ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
        if ok and kind is list:
            bad = [v for v in value if not isinstance(v, int) or isinstance(v, bool)]
            if bad:
                raise ValueError(f"rules file {spec}: option {name} must be {expected}, "
                                 f"not {_toml_type(bad[0])} ({bad[0]!r} in {value!r})")
        if not ok:
            raise ValueError(f"rules file {spec}: option {name} must be {expected}, not {_toml_type(value)} ({value!r})")


def parse_option_pairs(pairs: list[str]) -> dict:
    """Turn ``["trumps-overtrump=on", ...]`` into an options dict."""
    options = {}
    for pair in pairs:
        if "=" not in pair:
            raise ValueError(f"option {pair!r} must be NAME=VALUE, e.g. trumps-overtrump=on")
        key, value = pair.split("=", 1)
        options[key.strip()] = value.strip()
    return options


def describe_rules(rules: Rules) -> str:
    """A readable summary of the contracts and the options in force."""
    lines = ["Contracts (seven, each declared once per block):"]
    penalties = (
        "-2 per trick won", "-6 per queen won", "-10 for trick 12, -20 for trick 13",
        "-2 per heart won, A♥ -6", "-20 for winning K♥", "+5 per trick won",
        "by finishing order: " + ", ".join(f"{p:+d}" for p in rules.domino_payout),
    )
    for cid, (name, title, pen) in enumerate(zip(CONTRACTS, CONTRACT_TITLES, penalties)):
        lines.append(f"  {name:<12} {title:<26} {pen:<38} total {rules.contract_total(cid):+d}")
    lines += [
        "",
        "Play: follow the led suit if you can; the highest card of the led suit wins (Trumps: the highest trump).",
        "No Hearts: no heart lead unless you hold only hearts. Early ends after the last penalty card.",
        "",
        "Options in force:",
    ]
    for key, value in rules.to_dict().items():
        shown = ",".join(str(v) for v in value) if isinstance(value, list) else ("on" if value is True else "off" if value is False else value)
        lines.append(f"  {key:<22} {shown}")
    preset = next((name for name, r in PRESETS.items() if r == rules), None)
    lines.append(f"  (preset: {preset or 'custom'}; presets: {', '.join(PRESETS)})")
    return "\n".join(lines)
