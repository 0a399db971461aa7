"""What ``barbu-sim play --explain`` prints: each decision of an ``mc`` seat, card by card."""

from __future__ import annotations

import numpy as np

from ...core.cards import format_card
from ...core.seats import SEAT_NAMES
from ..api import DealResult
from ..players.mc.player import EX_CARD, EX_LAYOUTS, EX_MEAN, EX_PLAYED, EX_SE, EX_SEAT


def decisions(result: DealResult) -> list[dict]:
    """The decisions of ``result.explain`` (from ``play_deal(..., explain=True)``) as dicts.

    Each: ``seat``, ``card`` (the card played), ``cards_played`` (cards on the table
    before it), ``trick`` (1-based; None in Domino) and ``estimates``: ``(card, mean,
    se)`` for every legal card, best first (with sequential halving, the finalists first,
    then the cards dropped in later rounds before those dropped earlier), where ``mean`` is the card's estimated
    score for the seat from this point to the end of the hand.
    """
    if result.explain is None:
        return []
    out = []
    for row in result.explain:
        legal = np.flatnonzero(~np.isnan(row[EX_MEAN:EX_MEAN + 52]))
        # The finalists of sequential halving first (valued on the most layouts), best first.
        estimates = sorted(((int(c), float(row[EX_MEAN + c]), float(row[EX_SE + c])) for c in legal),
                           key=lambda e: (-row[EX_LAYOUTS + e[0]], -e[1], e[0]))
        played = int(row[EX_PLAYED])
        out.append({"seat": int(row[EX_SEAT]), "card": int(row[EX_CARD]), "cards_played": played,
                    "trick": None if result.contract_name == "domino" else played // 4 + 1,
                    "estimates": estimates})
    return out


def format_explain(result: DealResult, symbols: bool = False) -> str:
    """Each mc decision: the legal cards, best first, with estimated score from there and its standard error."""
    rows = decisions(result)
    if not rows:
        return "No mc decision to explain: no seat plays mc, or it never had more than one legal card."
    lines = ["mc decisions (estimated score from this point to the end of the hand, ± standard error;",
             "the cards compared are valued on the same sampled layouts, so differences are sharper than the errors;",
             "with sequential halving the cards dropped early come last, valued on fewer layouts):"]
    for d in rows:
        where = f"trick {d['trick']:>2}" if d["trick"] is not None else f"after {d['cards_played']:>2} cards"
        cells = "  ".join(f"{format_card(c, symbols=symbols):>3} {m:+7.2f}±{se:.2f}" for c, m, se in d["estimates"])
        lines.append(f"  {SEAT_NAMES[d['seat']]:<5} {where}: "
                     f"plays {format_card(d['card'], symbols=symbols):>3}   {cells}")
    return "\n".join(lines)
