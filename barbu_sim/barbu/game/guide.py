"""The declaring guide: rules a player applies at the table, as the contract-choice policy ``guide``.

The guide (``guide.json`` beside this module, written by ``barbu-sim study guide``) holds a **score card**
per contract (:mod:`barbu_sim.barbu.analytics.guide_fit`): the declarer's expected score by one or two
counts of the hand.  At each of the seven hands of a block the declarer

1. **keeps the two doubled hands for the contracts that gain most when doubled** (the *reserve*: the
   contracts with the largest ``4 * average - total``, Trumps and Domino under the default rules).  The
   other three players must double the declarer twice in the block, and the last two hands are where a
   player who waits is forced to; a doubled hand settles ``|a - b|`` with each doubler, so it is worth
   ``5 * score - total`` to the declarer instead of ``score``;
2. before those, **declares the contract whose card beats its average by the most** (the *cards*: the
   hand's *edge* in each contract left);
3. in a hand where the doubles fall, **declares the contract whose doubled value is highest** (the
   *doubled* rule: ``score + doublers * (4 * score - total) / 3`` on the card).

Trumps names the longest suit; Domino the rank whose *rank card* (the starting rank and the hand's spread
from it) scores highest, and that card values the hand in Domino.  ``guide:no-RULE``
(``cards``, ``reserve``, ``doubled``) plays the guide without that rule, to measure what it is worth.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from ...core.files import read_json
from ..analytics.hands import FEATURES, with_features
from ..analytics.schema import RANK_ENUM, SUIT_ENUM
from ..api import resolve_choice
from ..rules.choices import DOMINO_MOST_HELD, TRUMP_LONGEST, Choice
from ..rules.config import CONTRACTS, DOMINO, N_CONTRACTS, TRUMPS, Rules, parse_contract
from .contract_policy import ContractPolicy
from .rules import COMPULSORY_DOUBLES

GUIDE_FILE = Path(__file__).with_name("guide.json")
GUIDE_RULES = ("cards", "reserve", "doubled")


def load_guide(path=GUIDE_FILE) -> dict:
    """The guide a ``study guide`` wrote (its cards, the run they were fitted on, its rules)."""
    guide = read_json(path, "the declaring guide")
    if not isinstance(guide, dict) or set(guide.get("cards", {})) != set(CONTRACTS):
        raise ValueError(f"{path} is not a declaring guide (barbu-sim study guide writes one)")
    return guide


def longest_suit(hand) -> int:
    """The suit the guide names in Trumps: the longest (as the ``longest`` policy names it)."""
    return resolve_choice(Choice(TRUMPS, TRUMP_LONGEST), hand)


def most_held_rank(hand) -> int:
    return resolve_choice(Choice(DOMINO, DOMINO_MOST_HELD), hand)


def hand_features(hands) -> pl.DataFrame:
    """Every feature of each hand, with Trumps' features on its longest suit and Domino's on its most-held rank."""
    hands = np.asarray(hands, np.uint64).reshape(-1)
    frame = pl.DataFrame({"hand": hands,
                          "trump": pl.Series([SUIT_ENUM.categories[longest_suit(h)] for h in hands], dtype=SUIT_ENUM),
                          "domino_rank": pl.Series([RANK_ENUM.categories[most_held_rank(h)] for h in hands],
                                                   dtype=RANK_ENUM)})
    return with_features(frame.lazy()).collect()


def rank_features(hand) -> pl.DataFrame:
    """Every feature of one hand with Domino starting from each of the 13 ranks (a row per rank, 2 to A)."""
    frame = pl.DataFrame({"hand": np.full(13, hand, np.uint64), "trump": pl.Series([None] * 13, dtype=SUIT_ENUM),
                          "domino_rank": pl.Series(RANK_ENUM.categories, dtype=RANK_ENUM)})
    return with_features(frame.lazy()).collect()


def reserve_of(guide: dict, rules: Rules) -> set[int]:
    """The contracts the guide keeps for the doubled hands: the :data:`COMPULSORY_DOUBLES` whose average
    doubled value gains most over an undoubled one (``4 * average - total``)."""
    gains = [4 * guide["cards"][name]["average"] - rules.contract_total(c) for c, name in enumerate(CONTRACTS)]
    return set(np.argsort(gains)[::-1][:COMPULSORY_DOUBLES].tolist())


class ScoreCard:
    """One contract's card: the declarer's expected score by the (clipped) values of its features."""

    def __init__(self, card: dict):
        self.contract = parse_contract(card["contract"])
        self.features = list(card["features"])
        unknown = [f for f in self.features if f not in FEATURES]
        if unknown:
            raise ValueError(f"the guide's {card['contract']} card counts unknown features {unknown}")
        self.clip = {f: tuple(card["clip"][f]) for f in self.features}
        self.average = float(card["average"])
        self.cells = {tuple(int(c[f]) for f in self.features): float(c["mean"]) for c in card["cells"]}

    def key(self, row: dict) -> tuple[int, ...]:
        return tuple(min(max(int(row[f]), lo), hi) for f, (lo, hi) in self.clip.items())

    def score(self, row: dict) -> float:
        """The expected score of a hand (a row of :func:`hand_features`); a combination never seen in the
        fit (it cannot be dealt often) scores the contract's average."""
        return self.cells.get(self.key(row), self.average)


class Guide(ContractPolicy):
    """The declaring guide as a contract-choice policy (see the module's text)."""

    def __init__(self, evaluator, guide: dict, rules: Rules | None = None, without=()):
        super().__init__(evaluator)
        rules = rules or Rules()
        if Rules().with_options(**guide.get("rules", {})) != rules:
            raise ValueError("the guide was fitted under other rules than these: fit one for them with "
                             "barbu-sim study guide --rules ...")
        bad = [w for w in without if w not in GUIDE_RULES]
        if bad:
            raise ValueError(f"guide:no-{bad[0]}: the guide's rules are {', '.join(GUIDE_RULES)}")
        self.without = set(without)
        self.name = "guide" + "".join(f":no-{w}" for w in without)
        self.cards = [ScoreCard(guide["cards"][c]) for c in CONTRACTS]
        # the rank is named by its card where the guide has one (the suit: the longest, which its card confirms)
        domino = guide.get("choices", {}).get("domino")
        self.rank_card = ScoreCard({**domino, "contract": "domino"}) if domino else None
        self.totals = np.array([rules.contract_total(c) for c in range(N_CONTRACTS)], float)
        self.reserve = reserve_of(guide, rules) if "reserve" not in without else set()

    def hand_scores(self, row: dict) -> np.ndarray:
        """The card's expected score of the hand in each contract (the averages without the cards); Domino's
        from the rank card at the rank the guide names, where it has one."""
        if "cards" in self.without:
            return np.array([card.average for card in self.cards])
        scores = np.array([card.score(row) for card in self.cards])
        if self.rank_card is not None:
            scores[DOMINO] = max(self.rank_scores(row["hand"]))
        return scores

    def rank_scores(self, hand) -> list[float]:
        """The rank card's expected Domino score of ``hand`` from each of the 13 ranks, 2 to A."""
        return [self.rank_card.score(r) for r in rank_features(hand).iter_rows(named=True)]

    def rank(self, row: dict, remaining, owed) -> dict[int, float]:
        """What the guide weighs each remaining contract at for a hand (the highest is declared)."""
        remaining = sorted(remaining)
        scores = self.hand_scores(row)
        doublers = sum(1 for o in owed if o >= len(remaining))  # the opponents forced to double this hand
        if doublers and "doubled" not in self.without:
            return {c: scores[c] + doublers * (4 * scores[c] - self.totals[c]) / 3 for c in remaining}
        free = [c for c in remaining if c not in self.reserve] or remaining  # the reserve waits while it can
        return {c: scores[c] - self.cards[c].average for c in free}

    def param_for(self, contract: int, hand) -> int:
        """The suit or rank the guide names: the longest suit; the rank whose card scores highest (ties: the
        lower rank), or without a rank card the rank held most."""
        if contract == TRUMPS:
            return longest_suit(hand)
        if contract == DOMINO:
            if self.rank_card is None:
                return most_held_rank(hand)
            return int(np.argmax(self.rank_scores(hand)))
        return 0

    def choose(self, hand, remaining, seat, rules, owed=(0, 0, 0)):
        best = self.choose_row(hand_features([hand]).row(0, named=True), remaining, owed)
        return best, self.param_for(best, hand)

    def choose_many(self, hands, values, params, seat_values, remaining, owed):
        rows = hand_features(hands).iter_rows(named=True)
        chosen = [self.choose_row(row, remaining, owed) for row in rows]
        contracts = np.array(chosen, np.int64)
        return contracts, np.array([self.param_for(c, h) for c, h in zip(contracts, np.asarray(hands).reshape(-1))],
                                   np.int64)

    def choose_row(self, row: dict, remaining, owed) -> int:
        """The contract declared with the hand ``row`` (ties: the lowest id)."""
        ranked = self.rank(row, remaining, owed)
        return max(ranked, key=lambda c: (ranked[c], -c))


def make_guide(spec: str, evaluator, rules: Rules | None = None) -> Guide:
    """``guide``, ``guide:no-RULE`` (see :data:`GUIDE_RULES`; repeatable) or ``guide:FILE.json`` (a guide that
    ``study guide`` wrote; default the packaged one), parts joined by ``:``."""
    path, without = GUIDE_FILE, []
    for part in spec.split(":")[1:]:
        if part.endswith(".json"):
            path = Path(part)
        elif not part.startswith("no-"):
            raise ValueError(f"{spec!r}: write guide:no-RULE with RULE one of {', '.join(GUIDE_RULES)}")
        else:
            without.append(part[3:])
    return Guide(evaluator, load_guide(path), rules, without)
