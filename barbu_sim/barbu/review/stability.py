"""Do a review's labels depend on the seed of its layouts?  A block reviewed under several seeds, compared.

A block is one seat's seven hands: deal ``i`` of ``deal_seed`` played under contract ``i``
(Trumps in the seat's longest suit, Domino from the 7), the seat declaring, playing
``player`` among three ``opponents``.  The seat's decisions are reviewed under each seed
of ``seeds``; a decision is **flagged** under a seed when it is labelled there.

**Agreement**: of the decisions flagged under at least one seed, the share that carries the
same label under every seed (so flagged under all of them).  ``scripts/review_stability.py``
measures it at full size (``results/review_stability.json``), ``tests/test_review_stability.py``
on a smaller block.
"""

from __future__ import annotations

import time

from ..api import play_deal
from ..engine.deals import random_deal
from ..rules.config import CONTRACTS, DOMINO, TRUMPS
from ..formats.deal_file import PlayedDeal
from .estimate import Settings
from .review import review_deal

DOMINO_FROM_7 = 5


def longest_suit(hand) -> int:
    """The suit ``hand`` holds most of (ties: the higher suit)."""
    lengths = [bin(int(hand) >> (13 * s) & 0x1FFF).count("1") for s in range(4)]
    return max(range(4), key=lambda s: (lengths[s], s))


def block(deal_seed: int, seat: int = 2, player: str = "basic", opponents: str = "heuristic",
          contracts=range(len(CONTRACTS))) -> list[PlayedDeal]:
    """The seven (or ``contracts``') hands of ``seat`` declaring, played by ``player`` among ``opponents``."""
    deals = []
    for contract in contracts:
        hands = random_deal(deal_seed, contract)
        param = longest_suit(hands[seat]) if contract == TRUMPS else DOMINO_FROM_7 if contract == DOMINO else 0
        specs = [opponents] * 4
        specs[seat] = player
        result = play_deal(hands, contract, specs, param=param, declarer=seat, seed=deal_seed, index=contract)
        deals.append(PlayedDeal(hands, contract, param, seat, plays=list(zip(result.seats.tolist(),
                                                                             result.cards.tolist())),
                                seed=deal_seed, index=contract))
    return deals


def agreement(labels: dict) -> dict:
    """``labels``: decision -> [its label under each seed] ("" unlabelled).  The flagged decisions (labelled
    under some seed), those labelled the same under every seed, and their share (1.0 when none is flagged)."""
    flagged = [k for k, ls in labels.items() if any(ls)]
    same = [k for k in flagged if len(set(labels[k])) == 1]
    return {"flagged": len(flagged), "same": len(same), "agreement": len(same) / len(flagged) if flagged else 1.0,
            "labelled_per_seed": [sum(1 for ls in labels.values() if ls[i]) for i in range(len(next(iter(
                labels.values()), [])))]}


def measure(deals: list, seat: int, seeds, settings: Settings) -> dict:
    """Review ``seat``'s decisions of ``deals`` under each seed; the labels, their agreement and the cost."""
    labels: dict = {}
    per_seed = []
    decisions = layouts = 0
    for i, seed in enumerate(seeds):
        start = time.perf_counter()
        n = 0
        for k, deal in enumerate(deals):
            review = review_deal(deal, [seat], settings=settings, seed=seed)
            for d in review.decisions:
                labels.setdefault((k, d.play_no), [""] * len(seeds))[i] = d.label
                n += 1
                layouts += d.layouts
        decisions += n
        per_seed.append({"seed": seed, "seconds": round(time.perf_counter() - start, 2), "decisions": n})
    out = agreement(labels)
    out["decisions"] = decisions // max(len(seeds), 1)
    out["per_seed"] = per_seed
    out["seconds_per_decision"] = round(sum(p["seconds"] for p in per_seed) / max(decisions, 1), 4)
    out["layouts_per_decision"] = round(layouts / max(decisions, 1), 1)
    out["labels"] = labels
    out["disagreements"] = [{"deal": k, "contract": CONTRACTS[deals[k].contract], "play": p + 1, "labels": ls}
                            for (k, p), ls in sorted(labels.items()) if any(ls) and len(set(ls)) > 1]
    return out


def summary_line(result: dict) -> str:
    return (f"{result['same']} of {result['flagged']} flagged decisions labelled alike under every seed "
            f"({result['agreement']:.0%}); {result['decisions']} decisions, "
            f"{result['layouts_per_decision']:.0f} layouts and {result['seconds_per_decision'] * 1000:.0f} ms each")


__all__ = ["agreement", "block", "measure", "summary_line"]
