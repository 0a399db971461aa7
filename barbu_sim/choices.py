"""How a declarer names the trump suit or the domino starting rank.

A choice is a fixed suit / rank (param 0..3 / 0..12) or a choice policy that
looks at the declarer's hand (a negative param code, resolved in the kernels by
``engine.resolve_param``).  ``each`` expands to every suit or rank.
"""

from __future__ import annotations

import numpy as np

from .cards import RANK_NAMES, SUIT_LETTERS, parse_rank, parse_suit
from .engine import PARAM_POLICIES, resolve_param
from .rules import DOMINO, TRUMPS

DEFAULT_DOMINO_RANK = 5  # dominoes from seven, the classic Fan Tan start
TRUMP_POLICIES = PARAM_POLICIES[TRUMPS]
DOMINO_POLICIES = PARAM_POLICIES[DOMINO]


def _parse_choice(text: str, policies: dict, each: list[int], parse_fixed, usage: str,
                  allow_each: bool) -> list[int]:
    """Param codes for one choice: a policy name, ``each`` (with ``allow_each``), or a fixed value.

    With ``allow_each`` (batch runs), also a comma list such as ``each,longest``.
    """
    if allow_each and "," in text:
        codes: list[int] = []
        for item in text.split(","):
            for code in _parse_choice(item, policies, each, parse_fixed, usage, True):
                if code in codes:
                    raise ValueError(f"{item.strip()!r} is named twice in {text!r}")
                codes.append(code)
        return codes
    key = text.strip().lower()
    if key in policies:
        return [policies[key]]
    if key == "each" and allow_each:
        return list(each)
    try:
        return [parse_fixed(text)]
    except ValueError:
        extra = ", each" if allow_each else ""
        raise ValueError(f"{usage.format(text=repr(text))}, {', '.join(policies)}{extra}") from None


def parse_trump_choice(text: str | None, allow_each: bool = False) -> list[int]:
    """Param codes for ``--trump``: a suit, a policy (``longest``, ``strongest``), ``each`` or a comma list."""
    if text is None:
        return [TRUMP_POLICIES["longest"]]
    return _parse_choice(text, TRUMP_POLICIES, range(4), parse_suit,
                         "unknown trump choice {text}: use S, H, D, C", allow_each)


def parse_domino_choice(text: str | None, allow_each: bool = False) -> list[int]:
    """Param codes for ``--domino-rank``: a rank, a policy (``most-held``), ``each`` or a comma list."""
    if text is None:
        return [DEFAULT_DOMINO_RANK]
    return _parse_choice(text, DOMINO_POLICIES, range(13), parse_rank,
                         "unknown domino rank {text}: use 2..10, J, Q, K, A", allow_each)


def choice_label(contract: int, param: int) -> str:
    """``fixed`` for a fixed suit / rank (or a contract without a choice), else the policy name."""
    for name, code in PARAM_POLICIES.get(contract, {}).items():
        if code == param:
            return name
    return "fixed"


def resolve_choice(contract: int, param: int, declarer_hand) -> int:
    """The suit / rank actually named for ``param`` by a declarer holding ``declarer_hand``."""
    return int(resolve_param(contract, param, np.uint64(declarer_hand)))


def param_name(contract: int, param: int) -> str | None:
    """``S``/``H``/``D``/``C`` for Trumps, ``2``..``A`` for Domino, else ``None``."""
    if contract == TRUMPS:
        return SUIT_LETTERS[param]
    if contract == DOMINO:
        return RANK_NAMES[param]
    return None
