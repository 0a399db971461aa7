"""Contracts, the rule-variant configuration (``Rules``) and its named presets.

The options are those of the rules (``docs/rules.md``); the defaults are the spec's.  A
``Rules`` compiles to a small int64 array (``Rules.to_array``) that the
kernels read with the ``R_*`` indices below.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import tomllib
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path

import numpy as np

from ...core.cards import ACE_RANK, HEARTS, KING_RANK, QUEEN_RANK, RANK_NAMES, Suit, card_of, suit_mask
from ...core.fields import ArrayFields
from .option_values import (
    MAX_HAND_SCORE, choice as _choice, parse_bool as _parse_bool, parse_payout as _parse_payout,
    parse_points as _parse_points, parse_rank as _parse_rank, parse_start as _parse_start,
)


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
BARBU_HEART_LEADS = ("king-only", "no-hearts-unless-only-hearts", "any")
NO_HEARTS_LEADS = ("unless-only-hearts", "any")
TRUMPS_VOIDS = ("must-trump", "free")
DOMINO_ACES = ("high", "low")
BEST_TOTALS = ("highest", "lowest")

# The kernels' rules array (Rules.to_array), declared like the state array: its fields in order with their sizes
# in entries; the R_* indices and RULES_ARRAY_SIZE follow (tests/test_layouts.py pins today's numbers).  The
# rotation is a game-level option: no kernel reads it.
RULES = ArrayFields([
    ("barbu_heart_lead", 1),  # 0 king-only, 1 no-hearts-unless-only-hearts, 2 any
    ("barbu_forced_discard", 1),  # 0 off, 1 on
    ("trumps_void", 1),  # 0 must-trump, 1 free
    ("trumps_overtrump", 1),  # 0 off, 1 on
    ("domino_payout", 4),  # first, second, third, last
    ("no_hearts_lead", 1),  # 0 unless-only-hearts, 1 any
    ("domino_ace", 1),  # 0 high (columns run 2 .. A), 1 low (A .. K: the ace below the 2)
    ("domino_start", 1),  # 0 the declarer names the rank; r + 1 every hand starts from rank r
    ("no_tricks_trick", 1),  # points per trick won
    ("no_queens_queen", 1),  # points per queen won
    ("no_last_two_12", 1),  # points for winning trick 12
    ("no_last_two_13", 1),  # points for winning trick 13
    ("no_hearts_heart", 1),  # points per heart below the high hearts
    ("no_hearts_high", 1),  # points per high heart (no_hearts_high_from .. K)
    ("no_hearts_high_from", 1),  # the lowest high heart's rank (0 = 2 .. 12 = A: none but the ace)
    ("no_hearts_ace", 1),  # points for the A♥
    ("barbu_king", 1),  # points for winning K♥
    ("trumps_trick", 1),  # points per trick won in Trumps
    ("best_total", 1),  # 0 the highest total wins, 1 the lowest (read by the mc player)
    ("unused", 2),  # read by no kernel: the array keeps 24 entries, so the state array's layout stays as it is
])
# The R_* indices, one per field in the order declared above.
(R_BARBU_HEART_LEAD, R_BARBU_FORCED_DISCARD, R_TRUMPS_VOID, R_TRUMPS_OVERTRUMP, R_DOMINO_PAYOUT, R_NO_HEARTS_LEAD,
 R_DOMINO_ACE, R_DOMINO_START, R_NO_TRICKS_TRICK, R_NO_QUEENS_QUEEN, R_NO_LAST_TWO_12, R_NO_LAST_TWO_13,
 R_NO_HEARTS_HEART, R_NO_HEARTS_HIGH, R_NO_HEARTS_HIGH_FROM, R_NO_HEARTS_ACE, R_BARBU_KING, R_TRUMPS_TRICK,
 R_BEST_TOTAL, _R_UNUSED) = RULES.offsets()
RULES_ARRAY_SIZE = RULES.size


# Other names of contracts in the rules (shared/rules/barbu.md), as parse_contract squashes them.
CONTRACT_ALIASES = {"nokingofhearts": "barbu", "kingofhearts": "barbu", "fantan": "domino", "dominoes": "domino"}


def parse_contract(name: str) -> Contract:
    """The contract of a name as people type it: ``no-tricks`` ... ``domino`` in any case, with hyphens,
    ``_``, spaces or nothing between the words; also No King of Hearts and Fan Tan, as the rules say.

    >>> parse_contract("No Last Two"), int(parse_contract("domino")), parse_contract("notricks")
    (<Contract.NO_LAST_TWO: 2>, 6, <Contract.NO_TRICKS: 0>)
    """
    key = re.sub(r"[\s_-]+", "", str(name).lower())
    key = CONTRACT_ALIASES.get(key, key).replace("-", "")
    for i, known in enumerate(CONTRACTS):
        if key == known.replace("-", ""):
            return Contract(i)
    raise ValueError(f"unknown contract {name!r}: use one of {', '.join(CONTRACTS)}")


# The point values: field, the kernels' index, the contract they score.
POINT_FIELDS = (
    ("no_tricks_per_trick", R_NO_TRICKS_TRICK, NO_TRICKS), ("no_queens_per_queen", R_NO_QUEENS_QUEEN, NO_QUEENS),
    ("no_last_two_trick_12", R_NO_LAST_TWO_12, NO_LAST_TWO), ("no_last_two_trick_13", R_NO_LAST_TWO_13, NO_LAST_TWO),
    ("no_hearts_per_heart", R_NO_HEARTS_HEART, NO_HEARTS), ("no_hearts_high_heart", R_NO_HEARTS_HIGH, NO_HEARTS),
    ("no_hearts_ace", R_NO_HEARTS_ACE, NO_HEARTS), ("barbu_king", R_BARBU_KING, BARBU),
    ("trumps_per_trick", R_TRUMPS_TRICK, TRUMPS),
)


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
    no_hearts_lead: str = "unless-only-hearts"
    trumps_void: str = "must-trump"
    trumps_overtrump: bool = False
    domino_ace: str = "high"
    domino_start: str = "declarer-choice"
    no_tricks_per_trick: int = -2
    no_queens_per_queen: int = -6
    no_last_two_trick_12: int = -10
    no_last_two_trick_13: int = -20
    no_hearts_per_heart: int = -2
    no_hearts_high_heart: int = -2
    no_hearts_high_from: str = "10"
    no_hearts_ace: int = -6
    barbu_king: int = -20
    trumps_per_trick: int = 5
    domino_payout: tuple[int, int, int, int] = (45, 20, 5, -5)
    best_total: str = "highest"

    def __post_init__(self):
        _choice("rotation", self.rotation, ROTATIONS)
        _choice("barbu-heart-lead", self.barbu_heart_lead, BARBU_HEART_LEADS)
        _choice("no-hearts-lead", self.no_hearts_lead, NO_HEARTS_LEADS)
        _choice("trumps-void", self.trumps_void, TRUMPS_VOIDS)
        _choice("domino-ace", self.domino_ace, DOMINO_ACES)
        _choice("best-total", self.best_total, BEST_TOTALS)
        put = object.__setattr__
        put(self, "barbu_forced_discard", _parse_bool("barbu-forced-discard", self.barbu_forced_discard))
        put(self, "trumps_overtrump", _parse_bool("trumps-overtrump", self.trumps_overtrump))
        put(self, "domino_payout", _parse_payout(self.domino_payout))
        put(self, "domino_start", _parse_start(self.domino_start))
        put(self, "no_hearts_high_from", _parse_rank("no-hearts-high-from", self.no_hearts_high_from))
        for field, _, _ in POINT_FIELDS:
            put(self, field, _parse_points(field.replace("_", "-"), getattr(self, field)))
        for contract in range(N_CONTRACTS):  # every score a seat can make must fit the records' columns
            worst = max(abs(s) for s in self.seat_scores(contract))
            if worst > MAX_HAND_SCORE:
                raise ValueError(f"{CONTRACTS[contract]}: these values let one seat score {worst:,} in a hand; "
                                 f"keep every hand's score within -{MAX_HAND_SCORE:,}..{MAX_HAND_SCORE:,}")
        self._check_signs()

    def _check_signs(self) -> None:
        """Refuse values whose signs contradict ``best-total`` (one line, naming the option and its value).

        Where the highest total wins, the negative contracts' penalties are negative points and the
        positive contracts' gains positive: Trumps' points per trick, and the Domino payout's total
        (a payout may end below zero, as the spec's -5 for the last player does).  Where the lowest
        total wins (penalties counted up, ``positive-penalties``), every sign is turned over.  Zero is
        neither sign; a value that scores no card under these rules (the high hearts from the A) is
        not read.
        """
        lowest = self.lower_is_better
        head = f"best-total={self.best_total} (the {self.best_total} total wins)"
        hint = "turn the signs over, or start from the positive-penalties preset" if lowest else \
            "turn the signs over, or add best-total=lowest"
        want, sign = ("positive", 1) if lowest else ("negative", -1)
        for contract in NEGATIVE_CONTRACTS:
            values, counts = self._points(contract)
            fields = [f for f, _, c in POINT_FIELDS if c == contract]
            for field, value, count in zip(fields, values, counts):
                if count and value * sign < 0:
                    raise ValueError(f"{head} needs penalties as {want} points: {field.replace('_', '-')} is "
                                     f"{value} ({hint})")
        if self.trumps_per_trick * sign > 0:
            raise ValueError(f"{head} needs Trumps' tricks as {'negative' if lowest else 'positive'} points: "
                             f"trumps-per-trick is {self.trumps_per_trick} ({hint})")
        total = sum(self.domino_payout)
        if total * sign > 0:
            raise ValueError(f"{head} needs a Domino payout that adds up to {'0 or less' if lowest else '0 or more'}: "
                             f"domino-payout {','.join(map(str, self.domino_payout))} adds up to {total} ({hint})")

    def with_options(self, **options) -> "Rules":
        """A copy with some options changed; names may use ``-`` or ``_``."""
        changes = {}
        for key, value in options.items():
            field = key.replace("-", "_")
            if field not in OPTION_NAMES:
                raise ValueError(f"unknown option {key!r}: "
                                 f"use one of {', '.join(o.replace('_', '-') for o in OPTION_NAMES)}")
            changes[field] = value
        return dataclasses.replace(self, **changes)

    @property
    def high_hearts_from(self) -> int:
        """The rank (0 = 2 .. 12 = A) of the lowest heart scored at ``no-hearts-high-heart``."""
        return RANK_NAMES.index(self.no_hearts_high_from)

    @property
    def fixed_domino_start(self) -> int | None:
        """The starting rank every Domino hand is played from (0 = 2 .. 12 = A), or None: the declarer names it."""
        return None if self.domino_start == "declarer-choice" else RANK_NAMES.index(self.domino_start[6:])

    @property
    def lower_is_better(self) -> bool:
        """True when the lowest total wins (tables that score penalties as positive points)."""
        return self.best_total == "lowest"

    def to_array(self) -> np.ndarray:
        """The (RULES_ARRAY_SIZE,) int64 array the kernels read."""
        a = np.zeros(RULES_ARRAY_SIZE, np.int64)
        a[R_BARBU_HEART_LEAD] = BARBU_HEART_LEADS.index(self.barbu_heart_lead)
        a[R_BARBU_FORCED_DISCARD] = int(self.barbu_forced_discard)
        a[R_TRUMPS_VOID] = TRUMPS_VOIDS.index(self.trumps_void)
        a[R_TRUMPS_OVERTRUMP] = int(self.trumps_overtrump)
        a[R_DOMINO_PAYOUT:R_DOMINO_PAYOUT + 4] = self.domino_payout
        a[R_NO_HEARTS_LEAD] = NO_HEARTS_LEADS.index(self.no_hearts_lead)
        a[R_DOMINO_ACE] = DOMINO_ACES.index(self.domino_ace)
        start = self.fixed_domino_start
        a[R_DOMINO_START] = 0 if start is None else start + 1
        for field, index, _ in POINT_FIELDS:
            a[index] = getattr(self, field)
        a[R_NO_HEARTS_HIGH_FROM] = self.high_hearts_from
        a[R_BEST_TOTAL] = BEST_TOTALS.index(self.best_total)
        return a

    def to_dict(self) -> dict:
        """The options as a plain dict with the spec's names (for manifests and TOML)."""
        return {f.replace("_", "-"): list(v) if isinstance(v, tuple) else v
                for f, v in ((f, getattr(self, f)) for f in OPTION_NAMES)}

    def _points(self, contract: int) -> tuple[list[int], list[int]]:
        """Each penalty unit of ``contract`` a seat can win: its value and how many there are."""
        if contract == NO_TRICKS:
            return [self.no_tricks_per_trick], [13]
        if contract == NO_QUEENS:
            return [self.no_queens_per_queen], [4]
        if contract == NO_LAST_TWO:
            return [self.no_last_two_trick_12, self.no_last_two_trick_13], [1, 1]
        if contract == NO_HEARTS:
            high = self.high_hearts_from
            return ([self.no_hearts_per_heart, self.no_hearts_high_heart, self.no_hearts_ace],
                    [min(high, 12), 12 - min(high, 12), 1])
        if contract == BARBU:
            return [self.barbu_king], [1]
        return [self.trumps_per_trick], [13]

    def contract_total(self, contract: int) -> int:
        """Points shared out by one hand of ``contract`` under these rules."""
        if contract == DOMINO:
            return sum(self.domino_payout)
        values, counts = self._points(contract)
        return sum(v * n for v, n in zip(values, counts))

    def block_total(self) -> int:
        """The seven contracts' totals added up: 0 when a block of seven hands is zero-sum."""
        return sum(self.contract_total(c) for c in range(N_CONTRACTS))

    def seat_scores(self, contract: int) -> frozenset[int]:
        """Every raw score one seat can make in one hand of ``contract`` under these rules.

        >>> sorted(Rules().seat_scores(NO_LAST_TWO)), sorted(Rules().seat_scores(BARBU))
        ([-30, -20, -10, 0], [-20, 0])
        """
        if contract == DOMINO:
            return frozenset(self.domino_payout)
        values, counts = self._points(contract)
        totals = {0}
        for v, n in zip(values, counts):  # any number of each unit, up to how many there are
            totals = {t + v * k for t in totals for k in range(n + 1)}
        return frozenset(totals)


OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Rules))

# The negative contracts' penalties as positive points and the positive contracts' gains as negative
# points: the same game seen from a score sheet where the lowest total wins.
_POSITIVE_PENALTIES = dict(
    no_tricks_per_trick=2, no_queens_per_queen=6, no_last_two_trick_12=10, no_last_two_trick_13=20,
    no_hearts_per_heart=2, no_hearts_high_heart=2, no_hearts_ace=6, barbu_king=20, trumps_per_trick=-5,
    domino_payout=(-45, -20, -5, 5), best_total="lowest",
)
_HIGH_HEARTS = dict(no_hearts_high_heart=-4, no_hearts_ace=-4)
_LAST_TWO_12 = dict(no_last_two_trick_12=-12, no_last_two_trick_13=-12)

PRESETS: dict[str, Rules] = {
    "default": Rules(),
    "strict-barbu": Rules(barbu_heart_lead="no-hearts-unless-only-hearts", barbu_forced_discard=True),
    "overtrump": Rules(trumps_overtrump=True),
    "free-discard": Rules(trumps_void="free"),
    "every-dealer": Rules(rotation="every-dealer"),
    "high-hearts-4": Rules(**_HIGH_HEARTS),
    "last-two-12": Rules(**_LAST_TWO_12),
    "high-hearts-4-last-two-12": Rules(**_HIGH_HEARTS, **_LAST_TWO_12),
    "domino-45-20-10-minus-10": Rules(domino_payout=(45, 20, 10, -10)),
    "positive-penalties": Rules(**_POSITIVE_PENALTIES),
    "open-leads": Rules(no_hearts_lead="any", barbu_heart_lead="any"),
    "domino-ace-low": Rules(domino_ace="low"),
    "domino-from-7": Rules(domino_start="fixed:7"),
}
# What each preset is, for ``barbu-sim rules --presets`` (docs/rules.md says where each is played).
PRESET_NOTES = {
    "default": "the rules as written (docs/rules.md)",
    "strict-barbu": "Barbu: no heart led unless only hearts are held; a void player must discard K♥",
    "overtrump": "Trumps: a player who trumps must beat the highest trump in the trick if they can",
    "free-discard": "Trumps: a player void in the led suit may discard anything (no duty to trump)",
    "every-dealer": "each seat declares one hand in turn instead of seven in a row",
    "high-hearts-4": "No Hearts: -2 for 2-9♥, -4 for 10-A♥ (total -36)",
    "last-two-12": "No Last Two: -12 for each of the last two tricks (total -24)",
    "high-hearts-4-last-two-12": "both of the above: the seven contracts stay zero-sum",
    "domino-45-20-10-minus-10": "Domino pays 45, 20, 10, -10",
    "positive-penalties": "penalties counted as positive points, gains as negative: the lowest total wins",
    "open-leads": "no lead restriction: hearts may be led in No Hearts, K♥ and hearts in Barbu",
    "domino-ace-low": "Domino: the ace ranks below the 2 (columns run A low .. K high)",
    "domino-from-7": "Domino always starts from the 7 (the declarer names no rank)",
}


MAX_RULES_BYTES = 1 << 20  # a rules file is a few hundred bytes: 1 MiB is far past any real one


def load_rules(spec: str | None = None, options: dict | None = None, base=None) -> Rules:
    """Rules from a preset name or a TOML file path (``None``: the defaults), then ``options`` on top.

    A TOML file holds the options as top-level keys, e.g. ``trumps-overtrump = true``,
    and may name a ``preset`` to start from; it may begin with a UTF-8 byte-order mark.
    ``base``: the folder a relative file path is taken from (a played-deal file's own folder);
    default the current directory.
    """
    if spec is None or spec == "":
        rules = Rules()
    elif spec in PRESETS:
        rules = PRESETS[spec]
    elif spec.endswith(".toml"):
        path = Path(spec)
        if base is not None and not path.is_absolute():
            path = Path(base) / path
            spec = str(path)
        # core.files is looked up here, not imported by name: the kernels' modules import this one, and their code
        # stamps (core/codestamp.py) follow import statements, so a change to the file readers would compile them
        files = importlib.import_module("...core.files", __package__)
        try:  # capped: a link to /dev/zero or a huge file is refused after MAX_RULES_BYTES, not read to the end
            text = files.read_capped(path, MAX_RULES_BYTES, f"rules file {spec}", regular=True)  # no pipe either
            data = tomllib.loads(text.decode("utf-8").removeprefix("\ufeff"))
        except files.InputError as e:  # unreadable (missing, a folder, no permission) or larger than the cap
            raise ValueError(str(e)) from None
        except UnicodeDecodeError as e:
            raise ValueError(f"rules file {spec} is not UTF-8 text (byte {e.object[e.start]:#04x} at offset "
                             f"{e.start}): save it as UTF-8") from None
        except tomllib.TOMLDecodeError as e:
            raise ValueError(f"rules file {spec} is not valid TOML: {e}") from None
        except RecursionError:  # lists or tables nested past what tomllib's recursive parser can follow
            raise ValueError(f"rules file {spec} is not a rules file: its TOML is nested too deeply") from None
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
TOML_TYPES = {"preset": (str, "a string"), "domino-payout": (list, "a list of four integers"),
              "barbu-forced-discard": (bool, "true or false"), "trumps-overtrump": (bool, "true or false"),
              **{name: (str, "a string") for name in ("rotation", "barbu-heart-lead", "no-hearts-lead", "trumps-void",
                                                      "domino-ace", "domino-start", "no-hearts-high-from",
                                                      "best-total")},
              **{f.replace("_", "-"): (int, "an integer") for f, _, _ in POINT_FIELDS}}


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
            raise ValueError(f"rules file {spec}: option {name} must be {expected}, "
                             f"not {_toml_type(value)} ({value!r})")


def parse_option_pairs(pairs: list[str]) -> dict:
    """Turn ``["trumps-overtrump=on", ...]`` into an options dict; an option named twice is an error
    (the last would win silently)."""
    options = {}
    named = {}  # option name as the rules spell it (no-hearts-ace for no_hearts_ace) -> the pair
    for pair in pairs:
        if "=" not in pair:
            raise ValueError(f"option {pair!r} must be NAME=VALUE, e.g. trumps-overtrump=on")
        key, value = pair.split("=", 1)
        name = key.strip().replace("_", "-")
        if name in named:
            raise ValueError(f"option {name} is given twice ({named[name]} and {pair.strip()}): give it once")
        named[name] = pair.strip()
        options[key.strip()] = value.strip()
    return options
