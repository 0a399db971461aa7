"""How a declarer names the trump suit (Trumps) or the domino starting rank (Domino).

A :class:`Choice` is a fixed suit / rank or a choice policy that looks at the
declarer's hand.  The kernels take it as one int, its ``code``: the suit 0..3 or
rank 0..12 itself, or a negative policy code resolved from the declarer's hand by
``rules.choice_from_hand.resolve_param`` (``api.resolve_choice`` from Python).  Text (``S``, ``7``, ``longest``,
``each``) exists only at the edges: the command line and the manifests.

>>> [(c.code, c.label) for c in parse_trump_choice("S,longest", allow_each=True)]
[(3, 'fixed'), (-1, 'longest')]
>>> parse_domino_choice("most-held")[0].label
'most-held'
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.cards import RANK_NAMES, SUIT_LETTERS, Suit, parse_rank, parse_suit
from .config import DOMINO, TRUMPS, Contract

TRUMP_LONGEST = -1  # Trumps: the declarer's longest suit
TRUMP_STRONGEST = -2  # Trumps: the suit with the best length and honours
DOMINO_MOST_HELD = -1  # Domino: the rank the declarer holds most of
TRUMP_POLICIES = {"longest": TRUMP_LONGEST, "strongest": TRUMP_STRONGEST}
DOMINO_POLICIES = {"most-held": DOMINO_MOST_HELD}
POLICIES = {TRUMPS: TRUMP_POLICIES, DOMINO: DOMINO_POLICIES}
# Every choice label, in the order of the records' ``choice`` enum.
CHOICE_LABELS = ("fixed", *TRUMP_POLICIES, *DOMINO_POLICIES)
DEFAULT_DOMINO_RANK = 5  # dominoes from seven, the classic Fan Tan start
STANDARD_PARAMS = {TRUMPS: int(Suit.SPADES), DOMINO: DEFAULT_DOMINO_RANK}


def standard_param(contract: int) -> int:
    """The fixed choice benchmarks and strategy comparisons play: spades trumps, dominoes from 7 (0 otherwise)."""
    return STANDARD_PARAMS.get(contract, 0)


@dataclass(frozen=True)
class Choice:
    """A trump suit / starting rank as named in a configuration: fixed, or a policy."""

    contract: Contract
    code: int  # the kernels' param: a suit 0..3 / rank 0..12, or a negative policy code; 0 for other contracts

    @property
    def is_fixed(self) -> bool:
        return self.code >= 0

    @property
    def label(self) -> str:
        """``fixed`` for a fixed suit / rank (or a contract without a choice), else the policy's name."""
        for name, code in POLICIES.get(self.contract, {}).items():
            if code == self.code:
                return name
        return "fixed"


NO_CHOICE = {c: Choice(c, 0) for c in Contract if c not in POLICIES}


def check_param(contract: int, param: int, policies: bool = False) -> int:
    """Validate the trump suit (Trumps) or starting rank (Domino); other contracts take 0.

    With ``policies``, the negative policy codes of :data:`POLICIES` are allowed too.
    """
    if policies and param in POLICIES.get(contract, {}).values():
        return param
    if contract == TRUMPS and not 0 <= param < 4:
        raise ValueError(f"trump suit must be 0..3 (C, D, H, S), not {param}")
    if contract == DOMINO and not 0 <= param < 13:
        raise ValueError(f"domino starting rank must be 0..12 (2..A), not {param}")
    if contract not in (TRUMPS, DOMINO):
        return 0
    return param


def _parse(contract: Contract, text: str, count: int, parse_fixed, usage: str, allow_each: bool) -> list[Choice]:
    """Choices from one option value: a policy name, ``each`` (with ``allow_each``), a fixed value,
    or (with ``allow_each``, for batch runs) a comma list such as ``each,longest``."""
    policies = POLICIES[contract]
    if allow_each and "," in text:
        choices: list[Choice] = []
        for item in text.split(","):
            for choice in _parse(contract, item, count, parse_fixed, usage, True):
                if choice in choices:
                    raise ValueError(f"{item.strip()!r} is named twice in {text!r}")
                choices.append(choice)
        return choices
    key = text.strip().lower()
    if key in policies:
        return [Choice(contract, policies[key])]
    if key == "each" and allow_each:
        return [Choice(contract, v) for v in range(count)]
    try:
        return [Choice(contract, parse_fixed(text))]
    except ValueError:
        extra = ", each" if allow_each else ""
        raise ValueError(f"{usage.format(text=repr(text))}, {', '.join(policies)}{extra}") from None


def parse_trump_choice(text: str | None, allow_each: bool = False) -> list[Choice]:
    """Choices for ``--trump``: a suit, a policy (``longest``, ``strongest``), ``each`` or a comma list."""
    if text is None:
        return [Choice(TRUMPS, TRUMP_LONGEST)]
    return _parse(TRUMPS, text, 4, parse_suit, "unknown trump choice {text}: use S, H, D, C", allow_each)


def parse_domino_choice(text: str | None, allow_each: bool = False) -> list[Choice]:
    """Choices for ``--domino-rank``: a rank, a policy (``most-held``), ``each`` or a comma list."""
    if text is None:
        return [Choice(DOMINO, DEFAULT_DOMINO_RANK)]
    return _parse(DOMINO, text, 13, parse_rank, "unknown domino rank {text}: use 2..10, J, Q, K, A", allow_each)


def contract_choices(contract: int, trump: str | None, domino_rank: str | None,
                     allow_each: bool = False) -> list[Choice]:
    """The choices a configuration plays for ``contract``: parsed from ``trump`` / ``domino_rank``,
    or the one no-choice entry of the other contracts."""
    if contract == TRUMPS:
        return parse_trump_choice(trump, allow_each)
    if contract == DOMINO:
        return parse_domino_choice(domino_rank, allow_each)
    return [NO_CHOICE[Contract(contract)]]


def param_name(contract: int, param: int) -> str | None:
    """``S``/``H``/``D``/``C`` for Trumps, ``2``..``A`` for Domino, else ``None``."""
    if contract == TRUMPS:
        return SUIT_LETTERS[param]
    if contract == DOMINO:
        return RANK_NAMES[param]
    return None
