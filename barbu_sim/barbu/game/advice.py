"""The advisor: which contract to declare with a hand, and whether to double a declarer, in the game's situation.

:func:`advise` answers the declarer's question on settled score: the expected raw
score of each remaining contract (and of every trump suit and domino starting
rank), what the hand is worth settled under the doubles the opponents owe
(``--hand-in-block``, ``--doubles-owed``), and the settled block value of declaring
it now (the DP of ``optimal``); :func:`explain` says in one sentence why the
recommended contract wins, from those numbers.
:func:`advise_double` answers a defender's: the expected gain of doubling the
declarer (and, in a negative contract, each other player), given the declarer's
choice, with the call ``bayes`` makes.
"""

from __future__ import annotations

import math

from dataclasses import dataclass

import polars as pl

from ...core.cards import RANK_NAMES, SUIT_LETTERS, SUIT_SYMBOLS
from ...core.seats import N_SEATS, SEAT_LETTERS, left_of
from ...core.stats import Z95, summarize
from ..api import evaluate_hands
from ..rules.choices import param_name
from ..rules.config import BARBU, CONTRACT_TITLES, CONTRACTS, DOMINO, N_CONTRACTS, TRUMPS, Rules
from .doubling import Bayes, Situation, check_doubling_spec, make_doubling_policy
from .evaluation import EvalGrid, Evaluator, subset_of, value_table
from .policies import make_contract_policy
from .rules import BLOCK, COMPULSORY_DOUBLES, allowed_targets, no_doubles
from .settled import hand_outcome


@dataclass
class Advice:
    """The advisor's answer: one row per remaining contract, every trump suit and domino rank, and the call."""

    # contract, name, expected, ci_low, ci_high, average_hand, settled, optimal_value, raw_optimal_value
    rows: pl.DataFrame
    recommended: str
    owed: tuple  # the doubles E, S, W owe the declarer N, as assumed
    reason: str = ""  # one sentence: why the recommended contract (explain)
    choices: pl.DataFrame | None = None  # contract, name, expected, ci_low, ci_high: every trump suit and domino rank
    hand_no: int = 1  # the hand of the block about to be declared, 1..7
    fixed_domino: int | None = None  # the starting rank the rules fix, if they do


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
    remaining = list(remaining)
    twice = next((c for i, c in enumerate(remaining) if c in remaining[:i]), None)
    if twice is not None:  # a set would take it as one contract, silently
        raise ValueError(f"--remaining names {CONTRACTS[twice]} twice: each contract is declared once in a block")
    remaining = sorted(remaining)
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
    on raw scores.  ``choices`` holds every trump suit's and domino rank's value,
    ``reason`` the sentence of :func:`explain`.
    """
    rules = rules or Rules()
    remaining, owed = block_situation(remaining, hand_in_block, doubles_owed)
    check_doubling_spec(doubling)  # a mistake is said before minutes of play, not after
    evaluator = Evaluator([strategy] * N_SEATS, rules, n_samples, seed)
    # The whole grid (every trump suit and domino rank), kept for the listing; the evaluator reuses it.
    grid = evaluate_hands([hand], EvalGrid.configs(0), evaluator.strategies, seat=0, n_samples=n_samples,
                          seed=seed, rules=rules)
    evaluator.preload(hand, 0, grid.mean[0], grid.se[0])
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
    choices = []
    for c in (TRUMPS, DOMINO):
        if c in remaining:
            for p in range(4 if c == TRUMPS else 13):
                col = EvalGrid.column(c, p)
                mean, err = float(grid.mean[0, col, 0]), float(grid.se[0, col, 0])
                choices.append({"contract": CONTRACTS[c], "name": param_name(c, p), "expected": mean,
                                "ci_low": mean - Z95 * err, "ci_high": mean + Z95 * err})
    hand_no = BLOCK + 1 - len(remaining)
    words = [dict(r, contract=c, label=contract_words(c, int(params[c]))) for c, r in zip(remaining, rows)]
    reason = explain(words, best, hand_no=hand_no, owed=owed, doubling=doubling)
    frame = pl.DataFrame(rows).sort("optimal_value", descending=True)
    return Advice(frame, label, owed, reason, pl.DataFrame(choices) if choices else None, hand_no,
                  rules.fixed_domino_start)


# ---------------------------------------------------------------- the advice in words
CLOSE_CALL = 1.0  # points over the block: a smaller lead is within the estimates' noise at the usual sample sizes


def contract_words(contract: int, param: int = 0) -> str:
    """A contract as players say it: ``No Last Two``, ``Trumps ♥``, ``Domino from 8``."""
    if contract == TRUMPS:
        return f"Trumps {SUIT_SYMBOLS[param]}"
    if contract == DOMINO:
        return f"Domino from {RANK_NAMES[param]}"
    return "Barbu" if contract == BARBU else CONTRACT_TITLES[contract]  # not "No King of Hearts (Barbu)"


def _points(x: float, sign: str = "") -> str:
    """A number of points as a sentence says it: whole from 10 on, one decimal below (``sign="+"``: signed)."""
    return f"{x:{sign}.0f}" if abs(x) >= 10 else f"{x:{sign}.1f}"


def _doubles_later(hand_no: int, owed, doubling: str) -> tuple[str, str]:
    """(when, what): the later hands the doubles fall on, and the doubles, in words.

    Under ``compulsory-only`` an opponent owing ``o`` doubles makes them in the last
    ``o`` hands of the block, so the hands can be named; under the other policies
    doubles may come on any hand.
    """
    most = max(owed)
    if doubling.strip() == "compulsory-only" and most:
        first = max(BLOCK + 1 - most, hand_no + 1)
        if first >= BLOCK:
            return f"hand {BLOCK}, the last of the block", "the compulsory doubles there"
        return f"hands {first}–{BLOCK}", "the compulsory doubles there"
    return "a later hand", "the doubles expected later in the block"


def _doubles_now(hand_no: int, owed, doubling: str) -> str:
    """The doubles on this hand, in words (``while ...``)."""
    hands_left = BLOCK + 1 - hand_no
    if doubling.strip() == "compulsory-only" and max(owed) >= hands_left:
        return "while the compulsory doubles fall on this hand"
    return "with the doubles expected on this hand"


def explain(rows, best: int, *, hand_no: int, owed, doubling: str = "compulsory-only") -> str:
    """Why ``best`` is the call, in one sentence derived from the advice's numbers.

    ``rows``: one dict per remaining contract with ``contract`` (id), ``label``
    (:func:`contract_words`), ``expected`` (this hand's raw score), ``average_hand``,
    ``settled`` (this hand's settled score), ``optimal_value`` and ``raw_optimal_value``.
    The call is set against the contract this hand is most above average in (else the
    best on raw scores over the block); the lead of ``best`` over it splits exactly into
    raw scores over the block, the doubles on this hand and the doubles on later hands,
    and the largest part is the reason given.
    """
    by = {int(r["contract"]): r for r in rows}
    b = by[best]
    edge = {c: r["expected"] - r["average_hand"] for c, r in by.items()}

    def worth(c: int, named: bool = True) -> str:
        e = edge[c]
        return (f"{by[c]['expected']:.1f}{' in ' + by[c]['label'] if named else ''}, {abs(e):.1f} "
                f"{'above' if e >= 0 else 'below'} an average hand's {by[c]['average_hand']:.1f}")

    if len(by) == 1:
        return f"Play {b['label']}: it is the only contract left (this hand scores {worth(best, False)})."
    most = max(by, key=lambda c: (edge[c], -c))
    raw_best = max(by, key=lambda c: (by[c]["raw_optimal_value"], -c))
    other = most if most != best else raw_best if raw_best != best else None
    if other is None:
        than = "more above average" if edge[best] >= 0 else "less below average"
        text = f"Play {b['label']} now: this hand scores {worth(best, False)}, {than} than in any other contract left."
    else:
        o = by[other]
        kept = {TRUMPS: "Trumps", DOMINO: "Domino"}.get(other, o["label"])  # a later hand chooses its suit / rank
        d_raw = b["raw_optimal_value"] - o["raw_optimal_value"]
        now_b, now_o = b["settled"] - b["expected"], o["settled"] - o["expected"]
        d_now = now_b - now_o
        d_later = ((b["optimal_value"] - b["raw_optimal_value"] - now_b)
                   - (o["optimal_value"] - o["raw_optimal_value"] - now_o))
        reason = max((d_later, "later"), (d_now, "now"), (d_raw, "raw"))[1]
        if reason == "later":
            when, what = _doubles_later(hand_no, owed, doubling)
            text = (f"Play {b['label']} now and keep {kept} for {when}: {what} make that worth about "
                    f"{_points(d_later, '+')}")
            cost = -(d_raw + d_now)
            text += (f", more than the {_points(cost)} points {o['label']} would gain now." if cost > 0 else
                     f", and {b['label']} now is ahead without them too.")
        elif reason == "now":
            text = (f"Play {b['label']} now, {_doubles_now(hand_no, owed, doubling)}: doubled, it settles about "
                    f"{_points(d_now)} points better than {o['label']} would")
            cost = -(d_raw + d_later)
            text += (f", more than the {_points(cost)} points {o['label']} now would gain otherwise." if cost > 0
                     else ".")
        elif other == most:
            wait = d_raw + edge[other] - edge[best]
            text = (f"Play {b['label']} now and keep {kept} for a later hand: this hand suits {o['label']} "
                    f"{_points(edge[other] - edge[best])} points better than {b['label']} against an average hand, "
                    f"but waiting for a hand that suits {kept} is worth {_points(wait)}, so {b['label']} now comes "
                    f"out {_points(d_raw)} points ahead over the block on raw scores.")
        else:
            text = (f"Play {b['label']} now: over the block it comes out {_points(d_raw)} points ahead of "
                    f"{o['label']} now on raw scores.")
    runner = max((c for c in by if c != best), key=lambda c: (by[c]["optimal_value"], -c))
    gap = b["optimal_value"] - by[runner]["optimal_value"]
    if gap < CLOSE_CALL:
        text += f" A close call: {by[runner]['label']} now is only {gap:.1f} points behind over the block."
    return text


def format_advice(advice: Advice, declarer: int = 0, doubling: str = "compulsory-only", verbose: bool = False) -> str:
    """The advice as a player reads it: the situation, the sentence, a table in plain words, every trump suit
    and domino rank; ``verbose`` adds the technical columns (``optimal_value``, ``raw_optimal_value``, ...).
    The prose is wrapped at 100 columns."""
    from textwrap import fill

    from ...core.tables import to_markdown
    d = SEAT_LETTERS[declarer]
    owed = ", ".join(f"{SEAT_LETTERS[left_of(declarer, r)]} {n}" for r, n in zip((1, 2, 3), advice.owed))
    left = advice.rows.height
    lines = [fill(f"Hand {advice.hand_no} of {d}'s block: {left} contract{'s' if left > 1 else ''} left, doubles "
                  f"owed to {d}: {owed}; doubling {doubling}.", 100), "", fill(advice.reason, 100), ""]
    r = advice.rows
    plain = pl.DataFrame({
        "contract": r["contract"], "choice": [_choice_shown(c, n) for c, n in zip(r["contract"], r["name"])],
        "this hand": r["expected"].round(1),
        "95% CI": [f"{lo:.1f} to {hi:.1f}" for lo, hi in zip(r["ci_low"], r["ci_high"])],
        "average hand": r["average_hand"].round(1), "block total": r["optimal_value"].round(1)})
    lines.append(to_markdown(plain, 1))
    if advice.choices is not None:
        lines.append("")
        for c, title in ((TRUMPS, "Trumps, by trump suit"), (DOMINO, "Domino, by starting rank")):
            part = advice.choices.filter(pl.col("contract") == CONTRACTS[c])
            if part.is_empty():
                continue
            average = float(r.filter(pl.col("contract") == CONTRACTS[c])["average_hand"][0])
            if c == DOMINO and advice.fixed_domino is not None:
                lines.append(f"Domino: every hand starts from {RANK_NAMES[advice.fixed_domino]} under these rules "
                             f"(an average hand {average:.1f}).")
                continue
            value = dict(zip(part["name"], part["expected"]))
            names = list("SHDC") if c == TRUMPS else list(RANK_NAMES)  # suits in the order PBN and bridge list them
            shown = [f"{_choice_shown(CONTRACTS[c], n):>2} {value[n]:6.1f}" for n in names]
            lines.append(f"{title} (this hand; an average hand {average:.1f}):")
            lines += ["  " + "   ".join(shown[i:i + 7]) for i in range(0, len(shown), 7)]
    lines += ["", fill("this hand: your expected score in the contract with this hand (95% CI); average hand: the "
                       "same over random hands; block total: your expected settled total for the rest of the block "
                       "(this hand included, doubles settled) if you play it now.", 100)]
    if verbose:
        lines += ["", fill("In detail. settled: this hand's expected settled score; optimal_value: this contract now "
                           "plus the expected settled total of the contracts left; raw_optimal_value: the same on "
                           "raw scores.", 100),
                  to_markdown(advice.rows, 2),
                  f"Opponents' doubles owed (left, across, right): {advice.owed}",
                  f"Recommended (optimal policy, settled score): {advice.recommended}"]
    return "\n".join(lines)


def _choice_shown(contract: str, name: str) -> str:
    """A trump suit as its symbol (``♥``), a domino rank as it is (``10``)."""
    return SUIT_SYMBOLS[SUIT_LETTERS.index(name)] if contract == CONTRACTS[TRUMPS] and name else name


@dataclass
class DoubleAdvice:
    """A defender's answer: the expected gain of doubling each seat it may double, and the call."""

    rows: pl.DataFrame  # target, expected_gain, ci_low, ci_high, deals
    doubles: list  # seat letters to double
    reasons: dict  # seat letter -> margin | forced | planned
    conditioned: str  # how the deals were conditioned on the declarer's choice
    caution: str = ""  # why the call ignores the estimate, when it does
    # The situation, for :func:`format_double` to say the advice in a player's words:
    seat: str = ""  # the defender asking, a seat letter
    declarer: str = ""
    announced: str = ""  # the contract as players say it (contract_words): "Trumps ♠"
    margin: float = 5.0  # bayes's margin: the gain a voluntary double must beat
    owed: int = 0  # the doubles the defender still owes the declarer
    hands_left: int = 7  # the declarer's hands left in the block, this one included
    level: int = 0  # 0: deals with exactly this choice; 1: this contract; 2: random deals
    trusted: bool = True  # whether the declarer's choice can be read in this contract
    reliability: float = 1.0  # the share of the declarer's advantage the hand proxy explains here


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
                        f"the declarer's advantage on held-out hands (the advice acts on {Bayes.MIN_R2:.2f} or more), "
                        "so the estimate cannot read what the declarer's choice says about their hand.")
    if level >= 2:
        cautions.append("Too few deals of the unseen cards would have led the declarer to this choice, so the "
                        "estimate is over random deals, blind to what the choice says.")
    if cautions:
        cautions.append("So the advice makes only the doubles the rules force.")
    caution = " ".join(cautions)
    return DoubleAdvice(pl.DataFrame(rows), [SEAT_LETTERS[t] for t in sorted(reasons)],
                        {SEAT_LETTERS[t]: r for t, r in reasons.items()}, how, caution,
                        seat=SEAT_LETTERS[seat], declarer=SEAT_LETTERS[declarer],
                        announced=contract_words(contract, param),
                        margin=margin, owed=owed[rel - 1], hands_left=len(remaining), level=level,
                        trusted=bayes.trusts(contract), reliability=float(bayes.reliability[contract]))


def _doubles(n: int) -> str:
    return f"{n} double{'s' if n != 1 else ''}"


def format_double(answer: DoubleAdvice, table: bool = True) -> str:
    """The defender's advice as a card player reads it: what to do, what each double is worth, on what
    evidence, and the doubling policy that makes the call (``bayes:MARGIN``, the margin of ``--margin``);
    then, with ``table``, the same numbers as a table (the table's doubling hint leaves it out)."""
    from textwrap import fill
    me, d, margin = answer.seat, answer.declarer, answer.margin
    policy = f"bayes:{margin:g}"
    listed = [t.split()[0] for t in answer.rows["target"]]
    doubled = [t for t in listed if t in answer.reasons]
    names = " and ".join([", ".join(doubled[:-1]), doubled[-1]] if len(doubled) > 2 else doubled)
    what = f"double {names}" if doubled else "do not double"
    lines = [f"{me}, after {d} declared {answer.announced}: {what}.", ""]
    blind = not answer.trusted or answer.level >= 2
    for target, gain, low, high in answer.rows.select("target", "expected_gain", "ci_low", "ci_high").iter_rows():
        t = target.split()[0]
        who = f"{t} (the declarer)" if t == d else t
        worth = f"{gain:+.1f} points to you on average (95% CI {low:+.1f} to {high:+.1f})"
        reason = answer.reasons.get(t)
        if reason == "forced":
            text = (f"Double {who}: you owe {d} {_doubles(answer.owed)} and {d} has {answer.hands_left} "
                    f"hand{'s' if answer.hands_left != 1 else ''} left to declare, so the rules force it now; "
                    f"it is worth {worth}.")
        elif reason == "planned":
            text = (f"Double {who}: it is worth {worth}, enough to spend one of the {_doubles(answer.owed)} you owe "
                    f"{d} now rather than wait for a later hand.")
        elif reason == "margin":
            text = f"Double {who}: it is worth {worth}, more than the {margin:g}-point margin."
        elif blind and gain > margin:
            text = f"No double on {who}: {worth}, but the evidence below cannot be acted on."
        elif gain <= 0:
            text = (f"No double on {who}: it would cost you {-gain:.1f} points on average "
                    f"(95% CI {low:+.1f} to {high:+.1f}).")
        else:
            text = f"No double on {who}: {worth}, not more than the {margin:g}-point margin."
            if t == d and answer.owed:
                text += f" The {_doubles(answer.owed)} you owe {d} can wait for a later hand."
        lines.append(fill(text, 100))
    deals = int(answer.rows["deals"].max()) if answer.rows.height else 0
    contract = answer.announced.split()[0]
    text = ["Evidence: {n} deals of the unseen cards in which {d} would have declared {a}, each played out.",
            "Evidence: {n} deals of the unseen cards in which {d} would have declared {c}, each played out (too few "
            "would have chosen {a} exactly).",
            "Evidence: {n} random deals of the unseen cards, each played out: too few deals would have led {d} to "
            "declare {a}, so these cannot tell what that choice says about {d}'s hand."][min(answer.level, 2)]
    text = text.format(n=deals, d=d, a=answer.announced, c=contract)
    if not answer.trusted:
        text += (f" In {contract}, what a declarer holds cannot be read from the choice well enough: the hand "
                 f"model explains only {answer.reliability:.2f} of a declarer's advantage "
                 f"(it needs {Bayes.MIN_R2:.2f}).")
    if blind:
        text += " So the advice makes only the doubles the rules force."
    lines += ["", fill(text, 100), "",
              fill(f"The call is the {policy} doubling policy's: double a player when it gains more than {margin:g} "
                   f"points on average (--margin), and spend the doubles you owe {d} on the hand where they gain "
                   "most.", 100)]
    lines += ["", to_markdown_double(answer.rows), ""] if table else []
    return "\n".join(lines)


def to_markdown_double(rows: pl.DataFrame) -> str:
    """The gains by seat as a table: the seat, the average gain, its 95% CI and the deals played."""
    from ...core.tables import to_markdown
    return to_markdown(pl.DataFrame({
        "double": rows["target"], "your average gain": rows["expected_gain"].round(1),
        "95% CI": [f"{lo:+.1f} to {hi:+.1f}" for lo, hi in zip(rows["ci_low"], rows["ci_high"])],
        "deals": rows["deals"]}), 1)


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
        if (s - declarer) % N_SEATS in out:  # E=1,E=2: say so rather than keep the last
            raise ValueError(f"--doubles-owed names {SEAT_LETTERS[s]} twice: give each opponent once")
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
