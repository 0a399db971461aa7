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


def _comma_list(text: str, parse_one, allow_each: bool) -> list[int] | None:
    """``a,b,c`` as the concatenated codes of each item (a run may play several choices)."""
    if allow_each and "," in text:
        codes: list[int] = []
        for item in text.split(","):
            for code in parse_one(item, allow_each=True):
                if code in codes:
                    raise ValueError(f"{item.strip()!r} is named twice in {text!r}")
                codes.append(code)
        return codes
    return None


def parse_trump_choice(text: str | None, allow_each: bool = False) -> list[int]:
    """Param codes for ``--trump``: a suit, a policy (``longest``, ``strongest``) or ``each``.

    With ``allow_each`` (batch runs), also a comma list such as ``each,longest``.
    """
    if text is None:
        return [TRUMP_POLICIES["longest"]]
    listed = _comma_list(text, parse_trump_choice, allow_each)
    if listed is not None:
        return listed
    key = text.strip().lower()
    if key in TRUMP_POLICIES:
        return [TRUMP_POLICIES[key]]
    if key == "each" and allow_each:
        return [0, 1, 2, 3]
    try:
        return [parse_suit(text)]
    except ValueError:
        extra = ", each" if allow_each else ""
        raise ValueError(f"unknown trump choice {text!r}: use S, H, D, C, {', '.join(TRUMP_POLICIES)}{extra}") from None


def parse_domino_choice(text: str | None, allow_each: bool = False) -> list[int]:
    """Param codes for ``--domino-rank``: a rank, a policy (``most-held``) or ``each``.

    With ``allow_each`` (batch runs), also a comma list such as ``each,most-held``.
    """
    if text is None:
        return [DEFAULT_DOMINO_RANK]
    listed = _comma_list(text, parse_domino_choice, allow_each)
    if listed is not None:
        return listed
    key = text.strip().lower()
    if key in DOMINO_POLICIES:
        return [DOMINO_POLICIES[key]]
    if key == "each" and allow_each:
        return list(range(13))
    try:
        return [parse_rank(text)]
    except ValueError:
        extra = ", each" if allow_each else ""
        raise ValueError(f"unknown domino rank {text!r}: use 2..10, J, Q, K, A, {', '.join(DOMINO_POLICIES)}{extra}") from None


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
