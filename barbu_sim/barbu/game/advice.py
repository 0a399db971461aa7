"""The advisor: which contract to declare with a hand, and whether to double a declarer, in the game's situation.

:func:`advise` answers the declarer's question on settled score: the expected raw
score of each remaining contract, what the hand is worth settled under the
doubles the opponents owe (``--hand-in-block``, ``--doubles-owed``), and the
settled block value of declaring it now (the DP of ``optimal``).
:func:`advise_double` answers a defender's: the expected gain of doubling the
declarer (and, in a negative contract, each other player), given the declarer's
choice, with the call ``bayes`` makes.
"""

from __future__ import annotations

import math

from dataclasses import dataclass

import polars as pl

from ...core.seats import N_SEATS, SEAT_LETTERS, left_of
from ...core.stats import Z95, summarize
from ..rules.choices import param_name
from ..rules.config import CONTRACTS, DOMINO, N_CONTRACTS, Rules
from .doubling import Bayes, Situation, check_doubling_spec, make_doubling_policy
from .evaluation import Evaluator, subset_of, value_table
from .policies import make_contract_policy
from .rules import BLOCK, COMPULSORY_DOUBLES, allowed_targets, no_doubles
from .settled import hand_outcome


@dataclass
class Advice:
    """The advisor's answer: one row per remaining contract, and the call it recommends."""

    rows: pl.DataFrame  # contract, name, expected, ci_low, ci_high, average_hand, settled, optimal_value, raw_optimal_value
    recommended: str
    owed: tuple  # the doubles E, S, W owe the declarer N, as assumed


def block_situation(remaining, hand_in_block: int | None, doubles_owed: dict | None):
    """Check and complete the situation in a block: ``(remaining (sorted list), owed (left, across, right))``.

    ``hand_in_block``: 1..7, the hand about to be declared; ``doubles_owed``: relative
    seat (1 left, 2 across, 3 right) -> doubles still owed to the declarer (default:
    two, or as many as hands are left).
    """
    if hand_in_block is not None and not 1 <= hand_in_block <= BLOCK:
        raise ValueError(f"--hand-in-block must be 1..{BLOCK}, not {hand_in_block}")
    if remaining is None:
        if hand_in_block not in (None, 1):
            raise ValueError(f"hand {hand_in_block} of the block: give the {BLOCK + 1 - hand_in_block} "
                             "contracts still to declare with --remaining")
        remaining = range(N_CONTRACTS)
    remaining = sorted(set(remaining))
    if not remaining:
        raise ValueError("give at least one remaining contract")
    left = len(remaining)
    if hand_in_block is not None and left != BLOCK + 1 - hand_in_block:
        raise ValueError(f"hand {hand_in_block} of the block leaves {BLOCK + 1 - hand_in_block} contracts to declare, "
                         f"but --remaining names {left}")
    owed = [min(COMPULSORY_DOUBLES, left)] * 3
    for rel, n in (doubles_owed or {}).items():
        if rel not in (1, 2, 3):
            raise ValueError("--doubles-owed names the declarer's opponents, not the declarer")
        if not 0 <= n <= COMPULSORY_DOUBLES:
            raise ValueError(f"a player owes the declarer 0..{COMPULSORY_DOUBLES} doubles, not {n}")
        if n > left:
            raise ValueError(f"{n} doubles owed with {left} hand(s) left in the block is impossible: "
                             "the compulsory doubles would already have been forced")
        owed[rel - 1] = n
    return remaining, tuple(owed)


def advise(hand, remaining=None, *, hand_in_block: int | None = None, doubles_owed: dict | None = None,
           doubling: str = "compulsory-only", strategy: str = "heuristic", rules: Rules | None = None,
           n_samples: int = 2000, seed: int = 0, table_kwargs: dict | None = None) -> Advice:
    """Expected score of each remaining contract for ``hand`` (declared from N) and the ``optimal`` policy's call.

    ``doubling``: the doubling policy assumed at every seat (the opponents' doubles,
    the declarer's redoubles).  ``optimal_value`` is settled: this hand now plus the
    expected settled total of the rest of the block; ``raw_optimal_value`` the same
    on raw scores.
    """
    rules = rules or Rules()
    remaining, owed = block_situation(remaining, hand_in_block, doubles_owed)
    check_doubling_spec(doubling)  # a mistake is said before minutes of play, not after
    evaluator = Evaluator([strategy] * N_SEATS, rules, n_samples, seed)
    values, params, se = evaluator.values(hand, 0)
    seat_values = evaluator.seat_values(hand, 0)
    table = value_table([strategy] * N_SEATS, rules, **(table_kwargs or {}))
    dbl = make_doubling_policy(doubling, evaluator, lambda: table)
    optimal = make_contract_policy("optimal", evaluator, lambda: table, ([dbl] * 3, dbl))
    raw_optimal = make_contract_policy("raw-optimal", evaluator, lambda: table)
    scores = optimal.scores(values, remaining, owed, seat_values)
    raw_scores = raw_optimal.scores(values, remaining)
    best, best_param = optimal.choose(hand, remaining, 0, rules, owed)
    S = subset_of(remaining)
    rows = []
    for c in remaining:
        settled, _ = hand_outcome(seat_values[None, c, :], c, S, owed, optimal.opponents, optimal.own)
        rows.append({"contract": CONTRACTS[c], "name": param_name(c, int(params[c])) or "", "expected": values[c],
                     "ci_low": values[c] - Z95 * se[c], "ci_high": values[c] + Z95 * se[c],
                     "average_hand": table.average[c], "settled": float(settled[0]),
                     "optimal_value": scores[c], "raw_optimal_value": raw_scores[c]})
    name = param_name(best, best_param)
    label = CONTRACTS[best] + ("" if name is None else f" from {name}" if best == DOMINO else f" {name}")
    return Advice(pl.DataFrame(rows).sort("optimal_value", descending=True), label, owed)


@dataclass
class DoubleAdvice:
    """A defender's answer: the expected gain of doubling each seat it may double, and the call."""

    rows: pl.DataFrame  # target, expected_gain, ci_low, ci_high, deals
    doubles: list  # seat letters to double
    reasons: dict  # seat letter -> margin | forced | planned
    conditioned: str  # how the deals were conditioned on the declarer's choice
    caution: str = ""  # why the call ignores the estimate, when it does


def advise_double(hand, contract: int, param: int, *, declarer: int, seat: int, remaining=None,
                  hand_in_block: int | None = None, doubles_owed: dict | None = None, margin: float = 5.0,
                  strategy: str = "heuristic", rules: Rules | None = None, n_samples: int = 2000, seed: int = 0,
                  table_kwargs: dict | None = None) -> DoubleAdvice:
    """Should ``seat``, holding ``hand``, double after ``declarer`` named ``contract`` (``param``)?

    The unseen cards are dealt many times; the deals in which the declarer (assumed
    to play ``optimal`` against compulsory doubles) would have named this contract
    are played out (at most ``n_samples``); the call is ``bayes:margin``'s, spending
    the compulsory doubles ``seat`` still owes by its stopping rule.  ``remaining``:
    the declarer's contracts left, ``contract`` included.
    """
    if not math.isfinite(margin):
        raise ValueError(f"--margin must be a finite number of points, not {margin}")
    rules = rules or Rules()
    if seat == declarer:
        raise ValueError("--double asks a defender's question: --seat must not be the declarer")
    remaining, owed = block_situation(remaining, hand_in_block, doubles_owed)
    if contract not in remaining:
        raise ValueError(f"{CONTRACTS[contract]} is not one of the declarer's remaining contracts")
    evaluator = Evaluator([strategy] * N_SEATS, rules, min(n_samples, 100), seed)
    table = value_table([strategy] * N_SEATS, rules, **(table_kwargs or {}))
    bayes = Bayes(evaluator, table, margin, n_candidates=max(20 * n_samples, 5000), max_kept=n_samples)
    policy = make_contract_policy("optimal", evaluator, lambda: table)
    situation = Situation(0, tuple(remaining), owed, policy)
    raw, level = bayes.estimate(hand, seat, declarer, contract, param, rules, situation)
    allowed = sorted(allowed_targets(seat, declarer, contract, no_doubles()))
    rows, gain = [], {}
    for t in allowed:
        stats = summarize(raw[:, seat] - raw[:, t])
        gain[t] = stats["mean"]
        rows.append({"target": SEAT_LETTERS[t] + (" (declarer)" if t == declarer else ""),
                     "expected_gain": stats["mean"], "ci_low": stats["ci_low"], "ci_high": stats["ci_high"],
                     "deals": stats["n"]})
    rel = next(r for r in (1, 2, 3) if left_of(declarer, r) == seat)
    forced = owed[rel - 1] >= len(remaining)
    reasons = bayes.decide(gain, declarer, forced, owed[rel - 1], subset_of(remaining), contract, level)
    how = ["deals in which the declarer would have made exactly this choice",
           "deals in which the declarer would have named this contract (too few matched the suit / rank too)",
           "random deals (too few matched the declarer's choice)"][level]
    cautions = []
    if not bayes.trusts(contract):
        cautions.append(f"In {CONTRACTS[contract]} the hand proxy explains only {bayes.reliability[contract]:.2f} of "
                        f"the declarer's advantage on held-out hands (bayes acts on {Bayes.MIN_R2:.2f} or more), so "
                        "the estimate cannot read what the declarer's choice says about their hand.")
    if level >= 2:
        cautions.append("Too few deals of the unseen cards would have led the declarer to this choice, so the "
                        "estimate is over random deals, blind to what the choice says.")
    if cautions:
        cautions.append("bayes makes only the doubles the rules force here.")
    caution = " ".join(cautions)
    return DoubleAdvice(pl.DataFrame(rows), [SEAT_LETTERS[t] for t in sorted(reasons)],
                        {SEAT_LETTERS[t]: r for t, r in reasons.items()}, how, caution)


def parse_owed(text: str | None, declarer: int = 0) -> dict:
    """``"E=1,S=2"`` -> {relative seat: doubles owed to ``declarer``}."""
    from ...core.seats import parse_seat
    out = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        seat, sep, n = item.partition("=")
        if not sep:
            raise ValueError(f"--doubles-owed takes SEAT=N items, not {item.strip()!r}")
        s = parse_seat(seat.strip())
        if s == declarer:
            raise ValueError(f"{SEAT_LETTERS[s]} is the declarer: nobody owes doubles to themselves")
        try:
            count = int(n)
        except ValueError:
            raise ValueError(f"--doubles-owed: {n.strip()!r} is not a number") from None
        out[(s - declarer) % N_SEATS] = count
    return out



def parse_announced(text: str) -> tuple[int, int]:
    """``"trumps:H"``, ``"domino:8"`` or ``"barbu"`` -> (contract, param)."""
    from ...core.cards import parse_rank, parse_suit
    from ..rules.config import TRUMPS, parse_contract
    name, _, what = text.partition(":")
    contract = int(parse_contract(name.strip()))
    if contract == TRUMPS:
        if not what.strip():
            raise ValueError("name the trump suit: --double trumps:H")
        return contract, parse_suit(what.strip())
    if contract == DOMINO:
        if not what.strip():
            raise ValueError("name the starting rank: --double domino:8")
        return contract, parse_rank(what.strip())
    if what.strip():
        raise ValueError(f"{CONTRACTS[contract]} takes no trump suit or starting rank")
    return contract, 0
