"""A mutation check of the code every figure rests on: rules, scores, settlement, statistics, analytics and files.

The areas: the rules of play, the contract scores, the settlement, the doubling constraints and the
plugin slots; the statistics (means, variances, CIs, Wilson intervals); the published tables
(relative seats, declarer's edge, paired differences, Clabber's team and meld tables); Clabber's
card points, melds, bell and makers' rule; review's verdicts; the score sheet; the learned player's
features; played-deal files; run verification (chunk checksums, resume).

Each mutation below is a small, deliberate bug (a file, its exact original text, the replacement,
and the tests meant to catch it).  The script copies the project to a scratch directory, applies
one mutation at a time there (never in the working tree), runs the targeted tests with the scratch
copy first on the import path, and records whether they failed ("killed") or passed ("survived")
in ``results/mutation_check.json``.  A survivor is a hole in the tests: add a test that catches it,
or explain in ``EQUIVALENT`` why it changes nothing.

Not part of CI (a few minutes).  Run from the project root::

    python scripts/mutation_check.py --force    # every mutation, replacing results/mutation_check.json
    python scripts/mutation_check.py -k settled --out /tmp/mutants.json  # those whose id contains "settled"
    python scripts/mutation_check.py -k stats/ -k runs/ --out /tmp/mutants.json  # those whose id contains either
    python scripts/mutation_check.py --list     # the mutations as JSON (tests/test_mutation_check.py reads it)

A mutation whose original text is no longer in the code (someone changed the line) stops the check
before anything runs, naming it: it would otherwise say nothing about the tests.

numba's cache of each kernel is stamped with the code of every package module it imports
(barbu_sim/core/jit.py), so a mutated helper recompiles the kernels that use it; for mutations of
a numba module the scratch copy's numba caches are removed all the same (a fresh compile either
way), and the targeted tests call the mutated functions directly where they can
(tests/test_play_rules.py), without the play kernels.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from barbu_sim.core.outputs import add_force, refuse_existing, write_json

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "results" / "mutation_check.json"

PLAY_RULES = "barbu_sim/barbu/rules/play_rules.py"
SCORES = "barbu_sim/barbu/rules/config.py"
GAME_RULES = "barbu_sim/barbu/game/rules.py"
SETTLED = "barbu_sim/barbu/game/settled.py"
DOUBLING = "barbu_sim/barbu/game/doubling.py"
NUMBA_MODULES = {PLAY_RULES}

T_PLAY = "tests/test_play_rules.py"
T_GAME = ("tests/test_game.py tests/test_referee.py -k 'settlement or allowed_targets or verify_doubles or "
          "forced_doubles or rotation or tampering or check_game or referee'")
T_SETTLED = "tests/test_doubling.py -k 'worked or reference or settled_dp or compulsory or spending'"
T_RULES = "tests/test_rules.py"
T_GAME_POLICIES = "tests/test_game.py -k 'zero_sum'"
PLUGIN_TESTS = {  # one run each: every one of them must catch the plugins being replaced
    "barbu": "tests/test_strategies.py::test_user_plugins_from_a_file_play_their_own_cards",
    "clabber": "tests/test_clabber_strategies.py::test_plugins_play_like_the_reference",
    "clabber-per-seat": "tests/test_clabber_strategies.py::test_plugin_by_file_spec_and_per_seat",
    "cli": "tests/test_cli.py::test_plugin_strategy_on_the_command_line",
}
STRATEGIES = "barbu_sim/core/strategies.py"

# The areas beyond the rules and the settlement: statistics, analytics, Clabber's scoring, review, the sheet,
# the learned player's features, played-deal files and run verification.
STATS = "barbu_sim/core/stats.py"
ANALYSIS = "barbu_sim/barbu/analytics/analysis.py"
CLABBER_RULES = "barbu_sim/clabber/rules/config.py"
MELDS = "barbu_sim/clabber/rules/melds.py"
ROLLOUT = "barbu_sim/clabber/players/rollout.py"
CLABBER_ANALYSIS = "barbu_sim/clabber/analytics/analysis.py"
REVIEW = "barbu_sim/barbu/review/review.py"
ESTIMATE = "barbu_sim/barbu/review/estimate.py"
SHEET = "barbu_sim/barbu/table/sheet.py"
FEATURES = "barbu_sim/barbu/players/features.py"
PLAYLOG = "barbu_sim/barbu/formats/deal_file.py"
RUNDIR = "barbu_sim/core/rundir.py"
RUNS = "barbu_sim/core/runs.py"
# clabber/rules/config.py: its tables are the kernels' globals
NUMBA_MODULES |= {CLABBER_RULES, MELDS, ROLLOUT, FEATURES}

# Each runs the existing tests of the area first, then its by-hand tests (tests/test_by_hand_*.py): with -x, a
# mutation caught only by a by-hand test is one the older tests let through.
T_STATS = "tests/test_analysis.py tests/test_win_rates.py tests/test_by_hand_stats.py -k 'not committed'"
T_ANALYTICS = ("tests/test_analysis.py "
               "tests/test_rule_analytics.py::test_the_best_domino_rank_is_the_lowest_mean_where_lower_is_better "
               "tests/test_by_hand_analytics.py")
T_CLABBER_ANALYTICS = ("tests/test_clabber_melds.py::test_meld_frequencies_agree_with_exact_counts "
                       "tests/test_by_hand_analytics.py -k 'clabber or meld'")
# not the tests that compile the engine
T_CLABBER_SCORES = ("tests/test_clabber_melds.py tests/test_by_hand_clabber.py "
                    "-k 'not frequencies and not round_scores and not meld_show'")
T_REVIEW = "tests/test_review.py tests/test_by_hand_review.py -k 'blunder or lowest_total or by_hand'"
T_SHEET = "tests/test_sheet.py tests/test_by_hand_sheet.py"
T_FEATURES = "tests/test_learned.py tests/test_by_hand_features.py -k 'heuristics_card or by_hand'"
T_PLAYLOG = ("tests/test_review.py tests/test_by_hand_playlog.py "
             "-k 'round_trips or rules_in_force or impossible or by_hand'")
T_RUNS = ("tests/test_run.py tests/test_hardening_snapshot.py tests/test_by_hand_runs.py "
          "-k 'resume or manifest or chunks or by_hand'")

# (id, file, original text, replacement, targeted tests)
MUTATIONS = [
    # ---- the rules of play
    ("play/lead-restriction-ignored", PLAY_RULES, "return others if others else hand", "return hand", T_PLAY),
    ("play/barbu-king-lead-allowed", PLAY_RULES, "        if lead == 0:\n            return KING_OF_HEARTS_BIT\n",
     "        if lead == 0:\n            return U0\n", T_PLAY),
    ("play/no-hearts-lead-option-ignored", PLAY_RULES, "return HEARTS_MASK if rules[R_NO_HEARTS_LEAD] == 0 else U0",
     "return HEARTS_MASK", T_PLAY),
    ("play/barbu-any-lead-keeps-the-king", PLAY_RULES, "return HEARTS_MASK if lead == 1 else U0",
     "return HEARTS_MASK if lead == 1 else KING_OF_HEARTS_BIT", T_PLAY),
    ("play/forced-discard-inverted", PLAY_RULES, "rules[R_BARBU_FORCED_DISCARD] == 1",
     "rules[R_BARBU_FORCED_DISCARD] == 0", T_PLAY),
    ("play/overtrump-in-led-trumps-lower", PLAY_RULES, "higher = follow & above(top_trump)",
     "higher = follow & below(top_trump)", T_PLAY),
    ("play/trumps-void-option-inverted", PLAY_RULES, "if rules[R_TRUMPS_VOID] == 0:", "if rules[R_TRUMPS_VOID] == 1:",
     T_PLAY),
    ("play/no-overtrump-when-ruffing", PLAY_RULES, "            if higher:\n                allowed = higher\n",
     "", T_PLAY),
    ("play/no-need-to-follow-suit", PLAY_RULES, "    if follow:\n        return follow\n    must = hand & forced",
     "    must = hand & forced", T_PLAY),
    ("play/lower-card-wins", PLAY_RULES, "return card > win_card", "return card < win_card", T_PLAY),
    ("play/trumps-do-not-ruff", PLAY_RULES, "return contract == TRUMPS and suit == trump", "return False", T_PLAY),
    ("play/trick-winner-off-by-one", PLAY_RULES, "for k in range(1, n):", "for k in range(1, n - 1):", T_PLAY),
    ("play/domino-ace-opens-next-suit", PLAY_RULES, "up_lane = SUIT_LANE & ~below_start & ~(U1 << np.uint64(12))",
     "up_lane = SUIT_LANE & ~below_start", T_PLAY),
    ("play/domino-grows-wrong-way", PLAY_RULES, "return (playable & ~b) | ((b & grows_down) >> U1)",
     "return (playable & ~b) | ((b & grows_up) >> U1)", T_PLAY),
    ("play/no-queens-over-at-first-queen", PLAY_RULES, "return (played & QUEENS) == QUEENS",
     "return (played & QUEENS) != U0", T_PLAY),
    ("play/domino-ace-low-2-opens-nothing", PLAY_RULES,
     "return ((b & wrap_down) << np.uint64(12)) | ((b & wrap_up) >> np.uint64(12))",
     "return (b & wrap_up) >> np.uint64(12)", T_PLAY),
    ("play/domino-ace-low-king-opens-the-ace", PLAY_RULES,
     "up_lane = ((U1 << np.uint64(11)) - U1) & ~((U1 << np.uint64(start)) - U1)",
     "up_lane = ((U1 << np.uint64(12)) - U1) & ~((U1 << np.uint64(start)) - U1)", T_PLAY),
    ("play/domino-ace-low-ends-as-high", PLAY_RULES, "return 12, (highest_bit(rest) if rest else 12)",
     "return lowest_bit(column), highest_bit(column)", T_PLAY),
    ("play/domino-fixed-start-ignored", PLAY_RULES, "return fixed - 1 if fixed > 0 else param", "return param", T_PLAY),
    # ---- the contract scores (the values in force, read from the rules array)
    ("scores/no-tricks-1-a-trick", PLAY_RULES, "return np.int64(rules[R_NO_TRICKS_TRICK])",
     "return np.int64(rules[R_NO_TRICKS_TRICK]) + 1", T_PLAY),
    ("scores/queen-5", PLAY_RULES, "return np.int64(rules[R_NO_QUEENS_QUEEN]) * popcount(trick & QUEENS)",
     "return (np.int64(rules[R_NO_QUEENS_QUEEN]) + 1) * popcount(trick & QUEENS)", T_PLAY),
    ("scores/last-two-swapped", PLAY_RULES, "            return np.int64(rules[R_NO_LAST_TWO_12])",
     "            return np.int64(rules[R_NO_LAST_TWO_13])", T_PLAY),
    ("scores/ace-of-hearts-plain", PLAY_RULES, "+ np.int64(rules[R_NO_HEARTS_ACE]) * np.int64(hearts >> np.uint64(12))",
     "+ np.int64(rules[R_NO_HEARTS_HEART]) * np.int64(hearts >> np.uint64(12))", T_PLAY),
    ("scores/high-hearts-from-one-rank-up", PLAY_RULES,
     "high = SUIT_LANE & ~((U1 << np.uint64(rules[R_NO_HEARTS_HIGH_FROM])) - U1)",
     "high = SUIT_LANE & ~((U1 << np.uint64(rules[R_NO_HEARTS_HIGH_FROM] + 1)) - U1)", T_PLAY),
    ("scores/high-hearts-at-the-low-value", PLAY_RULES, "+ np.int64(rules[R_NO_HEARTS_HIGH]) * popcount(hearts & high)",
     "+ np.int64(rules[R_NO_HEARTS_HEART]) * popcount(hearts & high)", T_PLAY),
    ("scores/barbu-any-heart", PLAY_RULES, "return np.int64(rules[R_BARBU_KING]) if trick & KING_OF_HEARTS_BIT else 0",
     "return np.int64(rules[R_BARBU_KING]) if trick & HEARTS_MASK else 0", T_PLAY),
    ("scores/trick-in-trumps-4", PLAY_RULES, "    return np.int64(rules[R_TRUMPS_TRICK])\n",
     "    return np.int64(rules[R_TRUMPS_TRICK]) - 1\n", T_PLAY),
    ("scores/seat-scores-no-queens", SCORES, "return [self.no_queens_per_queen], [4]",
     "return [self.no_queens_per_queen], [3]", T_RULES),
    ("scores/seat-scores-no-hearts-ace", SCORES, "[min(high, 12), 12 - min(high, 12), 1]",
     "[min(high, 12), 12 - min(high, 12), 0]", T_RULES),
    ("scores/domino-total", SCORES, "        if contract == DOMINO:\n            return sum(self.domino_payout)\n",
     "        if contract == DOMINO:\n            return 65\n", T_RULES),
    ("scores/point-value-unchecked", SCORES, "            if worst > MAX_HAND_SCORE:",
     "            if False:", T_RULES),
    # ---- the settlement
    ("settle/redouble-counted-once", GAME_RULES, "m = int(bool(doubles[a][b])) + int(bool(doubles[b][a]))",
     "m = int(bool(doubles[a][b]) or bool(doubles[b][a]))", T_GAME),
    ("settle/lower-scorer-wins", GAME_RULES, "winner, loser = (a, b) if raw[a] > raw[b] else (b, a)",
     "winner, loser = (a, b) if raw[a] < raw[b] else (b, a)", T_GAME),
    ("settled/redoubles-counted-once", SETTLED, "value -= q * (1 + redoubled) * edge", "value -= q * edge", T_SETTLED),
    ("settled/redouble-on-the-doublers-gain", SETTLED, "own.predict_redouble(-edge)", "own.predict_redouble(edge)",
     T_SETTLED),
    ("settled/forced-one-hand-late", SETTLED, "q = 1.0 if o >= k else", "q = 1.0 if o > k else", T_SETTLED),
    ("settled/double-pays-nothing-off", SETTLED, "max(int(owed[i]) - 1, 0) if doubled[i]", "int(owed[i]) if doubled[i]",
     T_SETTLED),
    ("settled/continuation-ignores-doubles", SETTLED, "return sum(w * V[rest, i] for w, i in nexts)",
     "return V[rest, nexts[-1][1]]", T_SETTLED),
    ("settled/dp-takes-the-worst", SETTLED, "best = total if best is None else np.maximum(best, total)",
     "best = total if best is None else np.minimum(best, total)", T_SETTLED),
    ("settled/spending-never-waits", SETTLED,
     "parts.append(np.maximum(gains[:, c] + W[rest, o - 1], W[rest, o]).mean())",
     "parts.append((gains[:, c] + W[rest, o - 1]).mean())", T_SETTLED),
    ("settled/spending-forced-one-hand-late", SETTLED, "    if owed >= popcount(subset):\n        return -np.inf",
     "    if owed > popcount(subset):\n        return -np.inf", T_SETTLED),
    # ---- the doubling constraints
    ("doubling/positive-contracts-open", GAME_RULES,
     "    if contract in POSITIVE_CONTRACTS:\n        return {declarer}\n", "", T_GAME),
    ("doubling/declarer-doubles-anyone", GAME_RULES,
     "return {p for p in range(N_SEATS) if p != declarer and doubles[p][declarer]}",
     "return {p for p in range(N_SEATS) if p != declarer}", T_GAME),
    ("doubling/compulsory-not-enforced", GAME_RULES, "if forced and declarer not in targets:",
     "if False and declarer not in targets:", T_GAME),
    ("doubling/forced-one-hand-late", GAME_RULES, "self.hands_left(hand_no, declarer) <= COMPULSORY_DOUBLES - k",
     "self.hands_left(hand_no, declarer) < COMPULSORY_DOUBLES - k", T_GAME),
    ("doubling/one-double-is-enough", GAME_RULES, "if p != d and self.doubles_on[p, d] < COMPULSORY_DOUBLES:",
     "if p != d and self.doubles_on[p, d] < 1:", T_GAME),
    ("doubling/owed-below-zero", GAME_RULES,
     "max(COMPULSORY_DOUBLES - int(self.doubles_on[left_of(declarer, r), declarer]), 0)",
     "COMPULSORY_DOUBLES - int(self.doubles_on[left_of(declarer, r), declarer])", T_GAME),
    ("doubling/contract-twice-allowed", GAME_RULES, "if contract in self.used[declarer]:", "if False:", T_GAME),
    ("doubling/block-of-four", GAME_RULES, "return left_of(first, hand_no // BLOCK)",
     "return left_of(first, hand_no // 4)", T_GAME),
    ("doubling/compulsory-only-skips-forced", DOUBLING, "return {declarer} if forced else set()", "return set()",
     T_GAME_POLICIES),
    ("doubling/threshold-rate-inverted", DOUBLING, "return float((self.gain_samples(contract) > self.margin).mean())",
     "return float((self.gain_samples(contract) <= self.margin).mean())", T_SETTLED),
    ("doubling/always-never-redoubles", DOUBLING,
     "    def predict_redouble(self, gain):\n        return np.ones(len(gain), bool)",
     "    def predict_redouble(self, gain):\n        return np.zeros(len(gain), bool)", T_SETTLED),
    ("doubling/threshold-redoubles-on-any-gain", DOUBLING,
     "    def predict_redouble(self, gain):\n        return np.asarray(gain) > self.margin\n\n\ndef _masks",
     "    def predict_redouble(self, gain):\n        return np.asarray(gain) > 0\n\n\ndef _masks", T_SETTLED),
    # ---- user plugins: every plugin slot given the fallback (the lowest legal card)
] + [(f"plugins/replaced-by-lowest[{name}]", STRATEGIES,
       "function_pointer(s.func if s.builtin_id == self.user_id else lowest_strategy)",
       "function_pointer(lowest_strategy)", test) for name, test in PLUGIN_TESTS.items()] + [
    # ---- statistics
    ("stats/summarize-std-ddof-0", STATS, "std = float(x.std(ddof=1)) if n > 1",
     "std = float(x.std(ddof=0)) if n > 1", T_STATS),
    ("stats/summarize-se-over-n-minus-1", STATS, "se = std / np.sqrt(n)\n", "se = std / np.sqrt(n - 1)\n", T_STATS),
    ("stats/wilson-drops-the-z2-term", STATS, " / n + z2 / (4 * n * n))", " / n)", T_STATS),
    ("stats/mean-and-se-no-bessel", STATS, "var = np.maximum(squares / n - mean ** 2, 0.0) * n / (n - 1)",
     "var = np.maximum(squares / n - mean ** 2, 0.0)", T_STATS),
    ("stats/with-ci-variance-over-n", STATS, "* mean) / (nn - 1)).clip", "* mean) / nn).clip", T_STATS),
    ("stats/with-ci-scale-not-on-the-mean", STATS, '(mean / scale).alias("mean")', 'mean.alias("mean")', T_STATS),
    # ---- analytics (Barbu tables)
    ("analysis/seats-counted-the-wrong-way", ANALYSIS, "seat = (d + r) % N_SEATS",
     "seat = (d - r) % N_SEATS", T_ANALYTICS),
    ("analysis/west-read-as-south", ANALYSIS, ".otherwise(pl.col(SCORE_COLUMNS[3]))",
     ".otherwise(pl.col(SCORE_COLUMNS[2]))", T_ANALYTICS),
    ("analysis/declarer-edge-drops-right", ANALYSIS, '- pl.col("rel_across") - pl.col("rel_right")',
     '- pl.col("rel_across")', T_ANALYTICS),
    ("analysis/paired-difference-b-minus-a", ANALYSIS, '(pl.col(f"a_{n}") - pl.col(f"b_{n}"))',
     '(pl.col(f"b_{n}") - pl.col(f"a_{n}"))', T_ANALYTICS),
    ("analysis/paired-difference-unmatched-deals", ANALYSIS, 'on="deal", how="inner"',
     'on="deal", how="left"', T_ANALYTICS),
    ("analysis/best-domino-rank-inverted", ANALYSIS, "best = min if lower_is_better else max",
     "best = max if lower_is_better else min", T_ANALYTICS),
    # ---- analytics (Clabber tables)
    ("clabber-analysis/meld-frequency-drops-west", CLABBER_ANALYSIS, 'for s in "nesw")',
     'for s in "nes")', T_CLABBER_ANALYTICS),
    ("clabber-analysis/defenders-read-as-makers", CLABBER_ANALYSIS,
     '.otherwise(pl.col(f"{part}_ns")).cast(pl.Int64)\n                    .alias(f"defenders_{metric}")',
     '.otherwise(pl.col(f"{part}_ew")).cast(pl.Int64)\n                    .alias(f"defenders_{metric}")',
     T_CLABBER_ANALYTICS),
    # ---- Clabber's scoring
    ("clabber-score/trump-nine-10", CLABBER_RULES, "(JACK, 20), (NINE, 14)",
     "(JACK, 20), (NINE, 10)", T_CLABBER_SCORES),
    ("clabber-score/plain-jack-0", CLABBER_RULES, "(QUEEN, 3), (JACK, 2), (NINE, 0)",
     "(QUEEN, 3), (JACK, 0), (NINE, 0)", T_CLABBER_SCORES),
    ("melds/sequence-of-four-40", MELDS, "_SEQ_POINTS = {3: 20, 4: 50, 5: 100}",
     "_SEQ_POINTS = {3: 20, 4: 40, 5: 100}", T_CLABBER_SCORES),
    ("melds/ace-never-in-a-run", MELDS, "if b < 6 and lane >> b & 1:", "if b < 5 and lane >> b & 1:", T_CLABBER_SCORES),
    ("melds/no-trump-sequence-bonus", MELDS, "k += 1 if s == trump else 0", "k += 0", T_CLABBER_SCORES),
    ("melds/tie-goes-to-ns", MELDS, "(p0 + p2 if top_ns > top_ew else 0)",
     "(p0 + p2 if top_ns >= top_ew else 0)", T_CLABBER_SCORES),
    ("melds/ns-top-from-east", MELDS, "top_ns = max(k0, k2)", "top_ns = max(k0, k1)", T_CLABBER_SCORES),
    ("clabber-score/bell-to-the-wrong-team", ROLLOUT,
     "            if s & 1:\n                total1 += 20\n            else:\n                total0 += 20",
     "            if s & 1:\n                total0 += 20\n            else:\n                total1 += 20",
     T_CLABBER_SCORES),
    ("clabber-score/makers-score-on-a-tie", ROLLOUT, "(total0 if (makers == 1 or total0 > total1) else 0)",
     "(total0 if (makers == 1 or total0 >= total1) else 0)", T_CLABBER_SCORES),
    # ---- review
    ("review/label-boundary-excluded", ESTIMATE, "if loss_low >= low:", "if loss_low > low:", T_REVIEW),
    ("review/noise-ignored", REVIEW, "return self.loss > 0 and self.loss > NOISE * self.loss_se",
     "return self.loss > 0", T_REVIEW),
    ("review/lost-counts-every-loss", REVIEW, "d.loss for d in self.decisions if d.seat == seat and d.counts",
     "d.loss for d in self.decisions if d.seat == seat", T_REVIEW),
    ("review/lowest-total-sign-ignored", ESTIMATE, "d = self.sign * (self._column(a)[:n] - self._column(b)[:n])",
     "d = (self._column(a)[:n] - self._column(b)[:n])", T_REVIEW),
    ("review/thresholds-not-scaled", ESTIMATE, "round(share * total, 4)", "round(share * 20, 4)", T_REVIEW),
    ("review/settled-ignores-the-interval", REVIEW, "return not any(low < t < high for _, t in self.thresholds)",
     "return True", T_REVIEW),
    ("review/accuracy-counts-the-noise", REVIEW, "lost = self.loss if self.counts else 0.0", "lost = self.loss",
     T_REVIEW),
    # ---- the sheet
    ("sheet/total-of-raw-scores", SHEET, "total += h.final", "total += h.raw", T_SHEET),
    ("sheet/star-on-the-doubler", GAME_RULES, "{'*' if b == declarer else ''}", "{'*' if a == declarer else ''}",
     T_SHEET),  # the doubles' notation lives with the doubling rules
    ("sheet/domino-payout-unchecked", GAME_RULES,
     "if contract == DOMINO and sorted(raw) != sorted(rules.domino_payout):", "if False:", T_SHEET),
    # ---- the learned player's features
    ("features/later-seats-are-the-earlier-ones", FEATURES,
     "v = state[S_VOIDS + ((me + j) & 3)]", "v = state[S_VOIDS + ((me - j) & 3)]", T_FEATURES),
    ("features/ruffers-one-seat-late", FEATURES, "v = state[S_VOIDS + ((me + j) & 3)]",
     "v = state[S_VOIDS + ((me + j + 1) & 3)]", T_FEATURES),
    ("features/unseen-trumps-include-my-own", FEATURES, "out_trumps = OVER13[popcount(unseen & suit_bits(trump))]",
     "out_trumps = OVER13[popcount((unseen | hand) & suit_bits(trump))]", T_FEATURES),
    ("features/declarer-x-trump-for-the-others", FEATURES,
     "declarer = np.int64(state[S_DECLARER]) == me", "declarer = np.int64(state[S_DECLARER]) != me", T_FEATURES),
    ("features/points-unsigned-where-the-lowest-total-wins", FEATURES,
     "return np.int64(-1) if rules[R_BEST_TOTAL] == U1 else np.int64(1)", "return np.int64(1)",
     "tests/test_features_reference.py -k lowest_total"),
    # ---- played-deal files
    ("playlog/index-lost-with-seed-0", PLAYLOG, "if deal.seed or deal.index:", "if deal.seed:", T_PLAYLOG),
    ("playlog/options-written-when-default", PLAYLOG, "if value != default.get(key):",
     "if value == default.get(key):", T_PLAYLOG),
    ("playlog/hand-number-written-0-based", PLAYLOG, 'lines.append(f"hand: {deal.hand_no + 1}")',
     'lines.append(f"hand: {deal.hand_no}")', T_PLAYLOG),
    # ---- run verification
    ("rundir/checksum-unchecked", RUNDIR, 'if _sha256(path) != entry["sha256"]:', "if False:", T_RUNS),
    ("rundir/unrecorded-chunk-ignored", RUNDIR, "for k in sorted(set(ledger) | on_disk) if",
     "for k in sorted(set(ledger)) if", T_RUNS),
    ("runs/last-partial-chunk-dropped", RUNS, "n_chunks = -(-total // chunk)", "n_chunks = total // chunk", T_RUNS),
    ("runs/damaged-chunk-kept-on-resume", RUNS,
     "if key in ledger and chunk_problem(run_dir, k, ledger[key]) is not None:",
     "if False:", T_RUNS),
]

# Mutations that change no behaviour, with the reason (none so far).
EQUIVALENT: dict[str, str] = {}


def scratch_copy(dest: Path) -> None:
    """The project without .git, results and run outputs; file times kept, so numba's caches of unchanged
    files stay valid."""
    ignore = shutil.ignore_patterns(".git", "results", "runs", ".pytest_cache", "*.egg-info")
    shutil.copytree(ROOT, dest, ignore=ignore, copy_function=shutil.copy2)


def drop_numba_caches(tree: Path) -> None:
    for p in tree.rglob("__pycache__"):
        for f in p.iterdir():
            if f.suffix in (".nbi", ".nbc"):
                f.unlink()


def run_tests(tree: Path, tests: str, env: dict, timeout: int) -> tuple[bool, float, str, str]:
    """Run ``tests`` (stopping at the first failure): (passed, seconds, pytest's last line, the failing
    test and the first line of its error)."""
    t0 = time.time()
    cmd = f"{sys.executable} -m pytest -q -x -p no:cacheprovider -o addopts='' -rf {tests}"
    try:
        r = subprocess.run(cmd, shell=True, cwd=tree, env=env, capture_output=True, text=True, timeout=timeout)
        lines = (r.stdout + r.stderr).strip().splitlines()
        passed, tail = r.returncode == 0, lines[-1:]
        failed = next((ln for ln in lines if ln.startswith("FAILED ") or ln.startswith("ERROR ")), "")
    except subprocess.TimeoutExpired:
        passed, tail, failed = False, ["timed out"], ""
    return passed, round(time.time() - t0, 1), tail[0] if tail else "", failed[:300]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-k", action="append", default=[],
                    help="only the mutations whose id contains this (repeat it for several)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per test run")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--list", action="store_true",
                    help="print the (chosen) mutations and the equivalent ones as JSON, and run nothing")
    add_force(ap)
    args = ap.parse_args(argv)
    chosen = [m for m in MUTATIONS if not args.k or any(k in m[0] for k in args.k)]
    if not chosen:
        sys.exit(f"no mutation id contains {' or '.join(args.k)}")
    if args.list:
        keys = ("id", "file", "original", "replacement", "tests")
        print(json.dumps({"mutations": [dict(zip(keys, m)) for m in chosen], "equivalent": EQUIVALENT}, indent=1))
        return 0
    # A mutation whose original text is gone (the code moved on) would otherwise say nothing: refuse to start.
    stale = [f"{mid}: its original text occurs {n} times in {path}, not once"
             for mid, path, original, _, _ in chosen if (n := (ROOT / path).read_text().count(original)) != 1]
    if stale:
        sys.exit("these mutations no longer apply (update them to the code):\n  " + "\n  ".join(stale))
    refuse_existing(args.out, args.force)  # before the half hour of test runs, not after
    results = []
    with tempfile.TemporaryDirectory(prefix="barbu-mutants-") as tmp:
        tree = Path(tmp) / "tree"
        scratch_copy(tree)
        env = {**os.environ, "PYTHONPATH": str(tree), "BARBU_SIM_CACHE": str(Path(tmp) / "cache")}
        where = subprocess.run([sys.executable, "-c", "import barbu_sim; print(barbu_sim.__file__)"], cwd=tree, env=env,
                               capture_output=True, text=True).stdout.strip()
        if not where.startswith(str(tree)):
            sys.exit(f"the scratch copy is not what the tests import ({where})")
        # The targeted tests must pass on the unmutated copy, or a failure says nothing.
        for tests in sorted({m[4] for m in chosen}):
            ok, secs, tail, failed = run_tests(tree, tests, env, args.timeout)
            print(f"baseline {tests}: {'passed' if ok else 'FAILED'} ({secs} s)", flush=True)
            if not ok:
                sys.exit(f"the targeted tests fail without a mutation: {tests}: {tail}\n{failed}")
        for mid, path, original, replacement, tests in chosen:
            target = tree / path
            text = target.read_text()
            if text.count(original) != 1:
                sys.exit(f"{mid}: the original text occurs {text.count(original)} times in {path}, not once")
            target.write_text(text.replace(original, replacement))
            if path in NUMBA_MODULES:
                drop_numba_caches(tree)
            try:
                passed, secs, tail, failed = run_tests(tree, tests, env, args.timeout)
            finally:
                target.write_text(text)
                if path in NUMBA_MODULES:
                    drop_numba_caches(tree)
            status = "survived" if passed else "killed"
            if passed and mid in EQUIVALENT:
                status = "equivalent"
            row = {"id": mid, "file": path, "original": original, "replacement": replacement, "tests": tests,
                   "status": status, "seconds": secs, "last_line": tail, "caught_by": failed}
            if mid in EQUIVALENT:
                row["why_equivalent"] = EQUIVALENT[mid]
            results.append(row)
            print(f"{status:>10}  {mid}  ({secs} s)", flush=True)
    summary = {s: sum(r["status"] == s for r in results) for s in ("killed", "survived", "equivalent")}
    report = {"what": "scripts/mutation_check.py: each mutation applied alone to a scratch copy, its targeted "
                      "tests run; killed = the tests failed", "mutations": len(results), **summary,
              "python": sys.version.split()[0], "results": results}
    write_json(args.out, report)
    print(f"{summary['killed']} killed, {summary['survived']} survived, {summary['equivalent']} equivalent "
          f"of {len(results)}: {args.out}")
    return 1 if summary["survived"] else 0


if __name__ == "__main__":
    sys.exit(main())
