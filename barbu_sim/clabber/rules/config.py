"""Clabber's cards, orders, points and rule options (``docs/rules.md``); no numba here.

The 24 cards are the A K Q J 10 9 of the package's 52-card encoding (``card = suit * 13 + rank``,
rank 7 = 9 .. 12 = A), so parsing and printing are shared with Barbu; this module only refuses the
cards a 24-card pack lacks.  Rule options compile to a small int64 array (:meth:`Rules.to_array`)
that the kernels read with the ``R_*`` indices.

>>> format_cards(parse_clabber_hand("AS KS QS JS 10S 9S"))
'AS KS QS JS 10S 9S'
>>> parse_clabber_card("8S")
Traceback (most recent call last):
ValueError: 8S is not a Clabber card: the 24-card pack holds only A, K, Q, J, 10 and 9
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ...core.cards import cards_of, format_card, parse_card, parse_cards, sized_hand
from ...core.fields import ArrayFields

N_CARDS = 24
HAND_SIZE = 6
N_TRICKS = 6
NINE, TEN, JACK, QUEEN, KING, ACE = 7, 8, 9, 10, 11, 12
RANKS = (NINE, TEN, JACK, QUEEN, KING, ACE)
LOW_RANK = NINE  # a suit's six cards are bits 7..12 of its 13-bit lane
DECK_CARDS = tuple(s * 13 + r for s in range(4) for r in RANKS)
DECK = np.uint64(sum(1 << c for c in DECK_CARDS))
CARD_POINTS = 152
LAST_TRICK = 10
ROUND_POINTS = CARD_POINTS + LAST_TRICK  # 162
GAME_TARGET = 500
BELL_POINTS = 20

# Order within a trick (6 highest): trumps J 9 A 10 K Q, other suits A 10 K Q J 9.
TRUMP_POWER = np.zeros(13, np.int64)
PLAIN_POWER = np.zeros(13, np.int64)
TRUMP_POINTS = np.zeros(13, np.int64)
PLAIN_POINTS = np.zeros(13, np.int64)
for _i, _r in enumerate((QUEEN, KING, TEN, ACE, NINE, JACK)):
    TRUMP_POWER[_r] = _i + 1
for _i, _r in enumerate((NINE, JACK, QUEEN, KING, TEN, ACE)):
    PLAIN_POWER[_r] = _i + 1
for _r, _p in ((JACK, 20), (NINE, 14), (ACE, 11), (TEN, 10), (KING, 4), (QUEEN, 3)):
    TRUMP_POINTS[_r] = _p
for _r, _p in ((ACE, 11), (TEN, 10), (KING, 4), (QUEEN, 3), (JACK, 2), (NINE, 0)):
    PLAIN_POINTS[_r] = _p


TEAMS = ("NS", "EW")
MISPLAYS = ("error", "penalty")
MELD_FOURS = ("table-order", "card-rank")  # the order of the 100-point fours: 9 A 10 K Q, or A K Q 10 9
MELD_RANKINGS = ("fours-first", "points-first")  # any four above any sequence, or points then the top card
MELD_SHOWS = ("in-turn", "at-once")  # each seat's melds shown as it plays to the first trick, or all before the lead

# The kernels' rules array (Rules.to_array), declared like the state array: its fields in order with their sizes
# in entries; the R_* indices and RULES_ARRAY_SIZE follow (tests/test_layouts.py pins today's numbers).
RULES = ArrayFields([
    ("partner_excuse", 1),  # 0 off, 1 on
    ("misplay", 1),  # 0 error (the run stops with a message), 1 penalty (the round ends, the opponents score)
    ("meld_fours", 1),  # MELD_FOURS index
    ("meld_ranking", 1),  # MELD_RANKINGS index
    ("meld_show", 1),  # MELD_SHOWS index (what the table knows: read by the mc player)
])
R_PARTNER_EXCUSE, R_MISPLAY, R_MELD_FOURS, R_MELD_RANKING, R_MELD_SHOW = RULES.offsets()
RULES_ARRAY_SIZE = RULES.size


def parse_clabber_card(text: str) -> int:
    """One card of the 24-card pack (``AS``, ``10H``, ``♥K``); a card it lacks, such as ``8S``, is an error."""
    c = parse_card(text)
    if c % 13 < LOW_RANK:
        raise ValueError(f"{text.strip()} is not a Clabber card: the 24-card pack holds only A, K, Q, J, 10 and 9")
    return c


def parse_clabber_cards(text: str) -> np.uint64:
    """A set of Clabber cards (a card list or a PBN hand), each checked against the 24-card pack."""
    m = parse_cards(text)
    bad = int(m) & ~int(DECK)
    if bad:
        raise ValueError(f"{format_card(cards_of(bad)[0])} is not a Clabber card: "
                         "the 24-card pack holds only A, K, Q, J, 10 and 9")
    return m


def parse_clabber_hand(text: str) -> np.uint64:
    """A 6-card Clabber hand; another size is an error."""
    return sized_hand(parse_clabber_cards(text), text.strip(), HAND_SIZE, "a Clabber hand")


def format_cards(mask, symbols: bool = False) -> str:
    """Cards of a mask, spades first and highest rank first: ``AS KS 10H 9C``."""
    m = int(mask)
    out = [format_card(s * 13 + r, symbols) for s in (3, 2, 1, 0) for r in range(12, -1, -1) if m >> (s * 13 + r) & 1]
    return " ".join(out)


def verify_clabber_deal(hands, turned: int | None = None, dealer: int | None = None) -> None:
    """Raise ``ValueError`` unless ``hands`` are four disjoint 6-card hands of the 24-card pack."""
    if len(hands) != 4:
        raise ValueError(f"a deal has 4 hands, not {len(hands)}")
    seen = 0
    for seat, h in enumerate(hands):
        h = int(h)
        if h & ~int(DECK):
            raise ValueError(f"{format_card(cards_of(h & ~int(DECK))[0])} is not a Clabber card")
        if bin(h).count("1") != HAND_SIZE:
            raise ValueError(f"hand {seat} has {bin(h).count('1')} cards, not 6")
        if seen & h:
            raise ValueError(f"card {format_card(cards_of(seen & h)[0])} is dealt twice")
        seen |= h
    if turned is not None and dealer is not None and not int(hands[dealer]) >> turned & 1:
        raise ValueError(f"the turned card {format_card(turned)} must be one of the dealer's cards")


def parse_clabber_deal(text: str) -> np.ndarray:
    """A deal ``N:hand hand hand hand`` (PBN style: hands clockwise from the named seat, each as
    spades.hearts.diamonds.clubs) into a (4,) uint64 array by seat.

    >>> format_cards(parse_clabber_deal("N:AKQJT9... .AKQJT9.. ..AKQJT9. ...AKQJT9")[1])
    'AH KH QH JH 10H 9H'
    """
    from ...core.seats import parse_seat
    text = text.strip().strip('"')
    if len(text) < 2 or text[1] != ":":
        raise ValueError(f"a deal starts with a seat and a colon, e.g. 'N:AKQJT9... ...'; got {text[:12]!r}")
    first = parse_seat(text[0])
    parts = text[2:].split()
    if len(parts) != 4:
        raise ValueError(f"a deal has 4 hands, not {len(parts)}")
    hands = np.zeros(4, np.uint64)
    for i, part in enumerate(parts):
        hands[(first + i) % 4] = parse_clabber_hand(part if "." in part else part.replace(",", " "))
    verify_clabber_deal(hands)
    return hands


@dataclass(frozen=True)
class Rules:
    """Clabber's rule options.  ``partner_excuse``: no duty to trump or overtrump while one's
    partner wins the trick.  ``misplay``: ``error`` (an illegal card stops the run, naming
    strategy, seat and card) or ``penalty`` (the round ends; the opponents score 162 plus all
    their melds, the offenders nothing).  ``meld_fours`` and ``meld_ranking``: the two readings of
    the meld ranking the rule text leaves open (``docs/clabber.md``); the defaults are the text's."""

    partner_excuse: bool = False
    misplay: str = "error"
    meld_fours: str = "table-order"
    meld_ranking: str = "fours-first"
    meld_show: str = "in-turn"

    def __post_init__(self):
        for name, value, allowed in (("misplay", self.misplay, MISPLAYS), ("meld-fours", self.meld_fours, MELD_FOURS),
                                     ("meld-ranking", self.meld_ranking, MELD_RANKINGS),
                                     ("meld-show", self.meld_show, MELD_SHOWS)):
            if value not in allowed:
                raise ValueError(f"option {name}: {value!r} is not one of {', '.join(allowed)}")

    def to_array(self) -> np.ndarray:
        a = np.zeros(RULES_ARRAY_SIZE, np.int64)
        a[R_PARTNER_EXCUSE] = int(self.partner_excuse)
        a[R_MISPLAY] = MISPLAYS.index(self.misplay)
        a[R_MELD_FOURS] = MELD_FOURS.index(self.meld_fours)
        a[R_MELD_RANKING] = MELD_RANKINGS.index(self.meld_ranking)
        a[R_MELD_SHOW] = MELD_SHOWS.index(self.meld_show)
        return a

    def to_dict(self) -> dict:
        return {k.replace("_", "-"): v for k, v in dataclasses.asdict(self).items()}


def parse_rule_options(pairs: list[str] | None) -> Rules:
    """``Rules`` from ``NAME=VALUE`` pairs: ``partner-excuse=on|off``, ``misplay=error|penalty``,
    ``meld-fours=table-order|card-rank``, ``meld-ranking=fours-first|points-first``, ``meld-show=in-turn|at-once``."""
    fields = {}
    named = {}  # an option named twice is an error: the last would win silently
    for item in pairs or []:
        if "=" not in item:
            raise ValueError(f"option {item!r} must be NAME=VALUE, e.g. partner-excuse=on")
        name, value = (x.strip().lower() for x in item.split("=", 1))
        if name in named:
            raise ValueError(f"option {name} is given twice ({named[name]} and {item.strip()}): give it once")
        named[name] = item.strip()
        if name == "partner-excuse":
            if value not in ("on", "off", "true", "false", "1", "0"):
                raise ValueError(f"option partner-excuse: {value!r} is not on or off")
            fields["partner_excuse"] = value in ("on", "true", "1")
        elif name in ("misplay", "meld-fours", "meld-ranking", "meld-show"):
            fields[name.replace("-", "_")] = value
        else:
            raise ValueError(f"unknown Clabber option {name!r}: use partner-excuse, misplay, meld-fours, meld-ranking "
                             "or meld-show")
    return Rules(**fields)


def describe_rules(rules: Rules) -> str:
    """The rules in force as text (``barbu-sim clabber rules``)."""
    names = {NINE: "9", TEN: "10", JACK: "J", QUEEN: "Q", KING: "K", ACE: "A"}
    trump = sorted(RANKS, key=lambda r: -TRUMP_POWER[r])
    plain = sorted(RANKS, key=lambda r: -PLAIN_POWER[r])
    lines = [
        "Clabber: 24 cards (A K Q J 10 9), N+S against E+W, 6 cards each; the dealer's last card is turned up.",
        "Trumps, high to low:      " + "  ".join(f"{names[r]} ({TRUMP_POINTS[r]})" for r in trump),
        "Other suits, high to low: " + "  ".join(f"{names[r]} ({PLAIN_POINTS[r]})" for r in plain),
        f"Card points {CARD_POINTS} + {LAST_TRICK} for the last trick = {ROUND_POINTS} a round.",
        "Melds: four jacks 200; four 9s, aces, 10s, kings, queens 100; sequences of 5 / 4 / 3 (A K Q J 10 9) "
        "100 / 50 / 20;",
        "  only the team with the single highest meld scores (all its melds); an exact tie scores none.",
        ("  Ranking: four jacks, then the other fours (" + ("9s, aces, 10s, kings, queens" if rules.meld_fours ==
         "table-order" else "aces, kings, queens, 10s, 9s") + "), then sequences by length and top card"
         if rules.meld_ranking == "fours-first" else
         "  Ranking: by points, then the top card (A K Q J 10 9), then a four over a sequence, a trump sequence "
         "over a plain one"),
        f"Bell: K and Q of trumps in one hand, {BELL_POINTS} when the second is played.",
        "Bidding: round one, from the player left of the dealer, each says play (the turned card's suit is trumps)",
        "  or pass; the first to play ends the bidding. If all four pass, round two, in the same order: each names",
        "  another suit they hold a card of, or passes; the first to name one ends it. If all pass again, the",
        "  cards are thrown in (no score) and the deal passes left. The bidder and partner are the makers.",
        "Makers score only when strictly above the defenders; defenders always score. "
        f"Game to {GAME_TARGET}.",
        "",
        "Options in force:",
        f"  partner-excuse = {'on' if rules.partner_excuse else 'off'}   (on: no duty to trump or overtrump "
        "while one's partner wins the trick)",
        f"  misplay        = {rules.misplay}   (error: an illegal card stops the run; penalty: the opponents "
        "score 162 and their melds)",
        f"  meld-fours     = {rules.meld_fours}   (the order of the 100-point fours: table-order 9 A 10 K Q, "
        "card-rank A K Q 10 9)",
        f"  meld-ranking   = {rules.meld_ranking}   (fours-first: any four above any sequence; points-first: "
        "points, then the top card)",
        f"  meld-show      = {rules.meld_show}   (in-turn: each player's melds are shown as they play to the first "
        "trick; at-once: all before the lead)",
    ]
    return "\n".join(lines)


def rules_from_dict(d: dict) -> Rules:
    return Rules(**{k.replace("-", "_"): v for k, v in d.items()})

# The per-round record the kernels fill (one int row per round; the schema names and types them).
ROUND_COLUMNS = (
    "dealer", "turned", "bid_round", "maker", "trump", "maker_trumps",
    "card_ns", "card_ew", "meld_ns", "meld_ew", "bell_ns", "bell_ew", "score_ns", "score_ew", "misplay",
    "flags_n", "flags_e", "flags_s", "flags_w",
)
(C_DEALER, C_TURNED, C_BID_ROUND, C_MAKER, C_TRUMP, C_MAKER_TRUMPS, C_CARD, _C_CARD_EW, C_MELD, _C_MELD_EW,
 C_BELL, _C_BELL_EW, C_SCORE, _C_SCORE_EW, C_MISPLAY, C_FLAGS, *_) = range(len(ROUND_COLUMNS))
N_ROUND_COLUMNS = len(ROUND_COLUMNS)
# Per-game results of the game kernel.
GAME_COLUMNS = ("first_dealer", "rounds", "thrown_in", "score_ns", "score_ew", "result")
G_FIRST_DEALER, G_ROUNDS, G_THROWN_IN, G_SCORE, _G_SCORE_EW, G_RESULT = range(len(GAME_COLUMNS))
RESULTS = ("ns", "ew", "draw", "unfinished")
MAX_GAME_ROUNDS = 1000
