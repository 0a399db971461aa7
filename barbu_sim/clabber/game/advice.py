"""``barbu-sim clabber advise``: what a hand is worth played, passed, or with each suit named (no numba
at import: the engine is imported when advice is asked for)."""

from __future__ import annotations

import numpy as np

from ...core.cards import format_card
from ...core.stats import Z95, mean_and_se
from ..rules.config import Rules, parse_clabber_card, parse_clabber_hand

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def advise(hand_text: str, turned_text: str, position: int, samples: int = 2000, bidding="threshold",
           strategies="heuristic", rules: Rules | None = None, seed: int = 0) -> list[dict]:
    """Expected round scores of each option for a hand (seat North) speaking ``position``-th (1..4) in round one.

    Position 1 is the dealer's left, 4 the dealer (who holds the turned card).  The other three
    players bid by ``bidding``; every seat plays ``strategies``.  Returns one dict per option:
    ``round``, ``option``, ``own`` (own team's expected score), ``opponents``, ``net`` (own minus
    opponents), ``net_se``, ``net_ci_low``, ``net_ci_high``.
    """
    from ..api import _call, _seed, raise_illegal, seat_bidding
    from ..engine.evaluation import evaluate_kernel
    from ..state import STATE_ARRAY_SIZE
    from ..players.registry import seat_strategies
    hand = parse_clabber_hand(hand_text)
    turned = parse_clabber_card(turned_text)
    if position not in (1, 2, 3, 4):
        raise ValueError(f"--position is 1..4 (1: the dealer's left, 4: the dealer), not {position}")
    in_hand = bool(int(hand) >> turned & 1)
    if position == 4 and not in_hand:
        raise ValueError(f"the dealer (position 4) holds the turned card {format_card(turned)}: add it to the hand")
    if position != 4 and in_hand:
        raise ValueError(f"the turned card {format_card(turned)} is the dealer's: only position 4 holds it")
    if not 2 <= samples <= 1_000_000:  # as Barbu's advise: one deal has no spread, and its interval no width
        raise ValueError("--samples must be at least 2 and at most 1,000,000")
    seat, dealer = 0, (0 - position) % 4
    ts = turned // 13
    options = [(1, "play", (1, seat, ts, 0)), (1, "pass", (-1, 0, 0, 1))]
    for s in range(4):
        if s != ts and int(hand) >> (13 * s) & 0x1FFF:
            options.append((2, f"name {SUIT_NAMES[s]}", (2, seat, s, 0)))
    rows = np.array([o[2] for o in options], np.int64)
    bid_ids, bid_params = seat_bidding(bidding)
    ids, fns, resolved = seat_strategies(strategies)
    sums = np.zeros((len(options), 3), np.int64)
    squares = np.zeros((len(options), 3), np.int64)
    state = np.zeros(STATE_ARRAY_SIZE, np.uint64)
    code = _call(evaluate_kernel, ids, _seed(seed), hand, seat, turned, dealer, samples, rows,
                 (rules or Rules()).to_array(), bid_ids, bid_params, ids, fns, sums, squares, state, bid_ids=bid_ids)
    if code < 0:
        raise_illegal(code, resolved, "hand evaluation", state)
    mean, se = mean_and_se(sums.astype(float), squares.astype(float), samples)
    out = []
    for i, (rnd, label, _) in enumerate(options):
        out.append({"round": rnd, "option": label, "own": float(mean[i, 0]), "opponents": float(mean[i, 1]),
                    "net": float(mean[i, 2]), "net_se": float(se[i, 2]),
                    "net_ci_low": float(mean[i, 2] - Z95 * se[i, 2]),
                    "net_ci_high": float(mean[i, 2] + Z95 * se[i, 2])})
    return out


def format_advice(rows: list[dict], samples: int) -> str:
    lines = [f"Expected round score over {samples:,} deals of the unseen cards (own team, opponents, net ± 95% CI):",
             ""]
    for r in rows:
        lines.append(f"  round {r['round']}  {r['option']:<15} own {r['own']:7.1f}  opponents {r['opponents']:7.1f}  "
                     f"net {r['net']:+7.1f}  [{r['net_ci_low']:+.1f}, {r['net_ci_high']:+.1f}]")
    first = [r for r in rows if r["round"] == 1]
    best = max(first, key=lambda r: r["net"])
    lines += ["", f"Round one: {best['option']} (net {best['net']:+.1f})."]
    second = [r for r in rows if r["round"] == 2]
    if second:
        b2 = max(second, key=lambda r: r["net"])
        lines.append(f"Round two, if it comes: {b2['option']} (net {b2['net']:+.1f}).")
    return "\n".join(lines)
