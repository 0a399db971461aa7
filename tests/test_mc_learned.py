"""mc on the learned player: learned rollouts (``mc:rollout=learned``) and policy inference (``mc:infer=policy``).

The parameters and their errors (nothing compiles), the fitted temperatures against their results
file, the policy weight of a layout against a plain-Python product of softmax probabilities, a learned
rollout against the learned player's own deal, and reproducibility across thread counts (small sizes).
"""

import json
import math
from pathlib import Path

import numba
import numpy as np
import pytest

from barbu_sim.barbu.api import play_batch, play_deal
from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.engine.play_loops import _reset_state, new_state
from barbu_sim.barbu.position import Position
from barbu_sim.barbu.players.ids import LEARNED
from barbu_sim.barbu.players.learned import LEARNED_WORK_SIZE, learned_scores, model_array, model_id
from barbu_sim.barbu.players.mc.params import (
    MC_ID, POLICY_EPSILON, POLICY_TABLES, POLICY_TEMPERATURE, needs_model, parse_mc,
)
from barbu_sim.barbu.players.registry import canonical_strategy, resolve_strategy
from barbu_sim.barbu.rules import CONTRACTS, DOMINO, NO_QUEENS, PRESETS, TRUMPS, Rules
from barbu_sim.barbu.state import S_LEADER, S_SEAT, STATE_SIZE
from barbu_sim.core.rng import STREAM_PLAY, stream_key

ROOT = Path(__file__).resolve().parent.parent


# --- the parameters (nothing compiles) ----------------------------------------------------------------------

def test_the_new_parameters_parse_and_name_themselves():
    p = parse_mc("rollout=learned,infer=policy")
    assert (p.rollout, p.policy, p.infer) == ("learned", "learned", 100)
    assert p.spec() == "mc:samples=64,rollout=learned,endgame=2,tail=0,halving=on,infer=policy,early=off"
    assert parse_mc(p.spec().partition(":")[2]) == p  # the full name parses back to the same player
    h = parse_mc("infer=policy:heuristic")
    assert h.spec().endswith("infer=policy:heuristic,early=off") and parse_mc(h.spec()[3:]) == h
    assert MC_ID.get(h.sid, "policy") == 1 + POLICY_TABLES.index("heuristic") == 2
    assert MC_ID.get(p.sid, "rollout") == LEARNED and MC_ID.get(p.sid, "policy") == 1
    with pytest.raises(ValueError, match="infer is given twice"):  # not the last one silently (issue 43)
        parse_mc("infer=policy,infer=40")


# mc's full name before its rollouts became learned's (issue 45): what runs and results of that mc recorded
OLD_MC = "mc:samples=64,rollout=heuristic,endgame=2,tail=0,halving=on,infer=70,early=off"


def test_mc1_keeps_the_old_mcs_name_and_id_and_mc_rolls_out_with_learned():
    """mc1 is the old mc, name and strategy id; a name recorded by the old mc resolves to mc1; mc is the same
    search with learned rollouts (and learned as the model of its inference), its name carrying the model's id;
    pimc keeps heuristic rollouts."""
    old = parse_mc("rollout=heuristic")
    assert old.spec() == OLD_MC and old.sid == MC_ID.pack(kind=5, rollout=1, samples=64, endgame=2, halving=1, infer=70)
    assert resolve_strategy("mc1").name == canonical_strategy("mc1") == OLD_MC
    assert resolve_strategy("mc1").builtin_id == resolve_strategy(OLD_MC).builtin_id == old.sid
    new = parse_mc("")
    assert new.spec() == OLD_MC.replace("rollout=heuristic", "rollout=learned")
    assert new.sid == MC_ID.pack(kind=5, rollout=LEARNED, samples=64, endgame=2, halving=1, infer=70) != old.sid
    assert MC_ID.get(new.sid, "policy") == 0 and needs_model(new.sid) and not needs_model(old.sid)
    assert resolve_strategy("mc").builtin_id == new.sid
    assert canonical_strategy("mc") == f"{new.spec()},model={model_id()}"
    assert parse_mc("samples=8").rollout == "learned" and parse_mc("samples=8", "pimc").rollout == "heuristic"
    assert canonical_strategy("pimc") == "pimc:samples=64,rollout=heuristic"


def test_which_players_read_the_learned_model():
    assert needs_model(parse_mc("rollout=learned").sid)
    assert needs_model(parse_mc("infer=policy:basic").sid)
    assert not needs_model(parse_mc("rollout=basic,infer=50").sid)
    assert not needs_model(LEARNED)  # the learned player itself is not an mc seat
    assert needs_model(resolve_strategy("pimc:rollout=learned").builtin_id)


@pytest.mark.parametrize("spec,needle", [
    ("mc:infer=policy:nobody", "mc infer=policy takes the table its temperatures were fitted on"),
    ("mc:infer=policies", "mc infer must be a whole percentage from 1 to 100 (100: off) or policy[:TABLE]"),
    ("mc:infer=0", "mc infer must be"),
    ("mc:rollout=learnt", "mc rollout must be one of heuristic, basic, random, learned"),
    ("pimc:infer=policy", "pimc has no refinements to set"),
])
def test_bad_values_are_refused_in_one_line(spec, needle):
    with pytest.raises(ValueError) as e:
        resolve_strategy(spec)
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_a_manifest_names_the_model_an_mc_reads():
    """A run of mc:rollout=learned is never resumed with another model: its recorded name carries the model's id."""
    name = canonical_strategy("mc:rollout=learned")
    assert name == f"{parse_mc('rollout=learned').spec()},model={model_id()}"
    assert resolve_strategy(name).builtin_id == parse_mc("rollout=learned").sid
    assert canonical_strategy("mc1") == parse_mc("rollout=heuristic").spec()  # reads no model: none in its name
    for spec, needle in [("mc:rollout=learned,model=0123456789ab", "retrained since"),
                         ("mc:rollout=heuristic,infer=40,model=" + model_id(),
                          "only rollout=learned and infer=policy read")]:
        with pytest.raises(ValueError) as e:
            resolve_strategy(spec)
        assert needle in str(e.value) and "\n" not in str(e.value)


def test_mc_reading_learned_plays_the_default_games_cards_where_the_lowest_total_wins():
    """positive-penalties is the default game with every sign turned over: the learned player's features
    read the points signed for the seat, and mc maximises the seat's good, so an mc on the learned player
    plays the same cards there, and every score is turned over."""
    lowest = PRESETS["positive-penalties"]
    for i, contract in enumerate((NO_QUEENS, TRUMPS)):
        hands = random_deal(61, i)
        line_up = ["heuristic", "mc:samples=4,rollout=learned,infer=policy", "learned", "heuristic"]
        default = play_deal(hands, contract, line_up, param=1, declarer=i, seed=61, index=i)
        turned = play_deal(hands, contract, line_up, param=1, declarer=i, rules=lowest, seed=61, index=i)
        assert turned.cards.tolist() == default.cards.tolist() and len(default.cards) >= 20
        assert turned.scores.tolist() == (-default.scores).tolist()


def test_the_temperatures_are_those_fitted():
    """params.POLICY_TEMPERATURE / POLICY_EPSILON hold what `barbu-sim train temperatures` wrote."""
    fitted = json.loads((ROOT / "results" / "policy_temperature.json").read_text())
    assert fitted["model"] == model_id()  # fitted to the packaged model's scores: refit after installing another
    rows = fitted["rows"]
    assert len(rows) == len(POLICY_TABLES) * len(CONTRACTS)
    for r in rows:
        i, c = 1 + POLICY_TABLES.index(r["table"]), CONTRACTS.index(r["contract"])
        assert POLICY_TEMPERATURE[i][c] == r["temperature"] and POLICY_EPSILON[i][c] == r["epsilon"]
        assert r["held_out_log_likelihood"] > r["uniform_log_likelihood"] - 0.1  # the model is no worse than chance
    assert all(0.0 < t for row in POLICY_TEMPERATURE for t in row)
    assert all(0.0 < e < 1.0 for row in POLICY_EPSILON[1:] for e in row)


# --- the policy weight against a plain-Python product ---------------------------------------------------------

def _played(pos, n, players):
    """Play ``n`` cards of ``pos`` with ``players`` (four strategy functions); returns (seat, card) in order."""
    plays = []
    while len(plays) < n:
        legal = np.uint64(pos.legal())
        card = int(players[pos.seat](legal, np.uint64(pos.hands[pos.seat]), pos.state, pos.rng))
        plays.append((pos.seat, card))
        pos.play(card)
    return plays


def _python_weight(deal_hands, plays, contract, param, declarer, me, policy):
    """The policy weight by hand: replay the plays from ``deal_hands`` and multiply each other seat's
    probability (1 - eps) * softmax(scores / T) + eps / n, the scores those of the learned player."""
    t = POLICY_TEMPERATURE[policy][contract]
    eps = POLICY_EPSILON[policy][contract]
    pos = Position(deal_hands, contract, param, declarer)
    out = np.zeros(52)
    work = np.zeros(STATE_SIZE + LEARNED_WORK_SIZE, np.uint64)
    weight, counted = 1.0, 0
    for seat, card in plays:
        legal = [c for c in range(52) if int(pos.legal()) >> c & 1]
        if seat != me and len(legal) > 1:
            work[:STATE_SIZE] = pos.state[:STATE_SIZE]
            learned_scores(np.uint64(pos.legal()), np.uint64(pos.hands[seat]), work, np.zeros(1, np.uint64),
                           model_array(), np.int64(STATE_SIZE), out)
            e = [math.exp(out[c] / t) for c in legal]  # small scores at this T: no overflow in a plain sum
            weight *= (1 - eps) * e[legal.index(card)] / sum(e) + eps / len(legal)
            counted += 1
        pos.play(card)
    return weight, counted


@pytest.mark.parametrize("contract", [1, 4])
def test_the_policy_weight_is_the_product_of_the_softmax_probabilities(contract):
    from barbu_sim.barbu.players.mc.layouts import W_RULES, policy_weight, sample_layout

    heur = resolve_strategy("heuristic").func
    hands = random_deal(21, contract)
    pos = Position(hands, contract, 0, 2)
    plays = _played(pos, 11, [heur] * 4)
    me = pos.seat
    state = pos.state
    work = state[STATE_SIZE:]
    rules = work[W_RULES:W_RULES + len(pos.rules_array)].view(np.int64)
    rules[:] = pos.rules_array
    policy = 1 + POLICY_TABLES.index("heuristic")
    rng = np.array([7], np.uint64)
    layout, allowed, cap = np.zeros(4, np.uint64), np.zeros(4, np.uint64), np.zeros(4, np.int64)
    seen = set()
    for k in range(4):  # the true layout first, then sampled ones
        if k == 0:
            layout[:] = pos.hands
        else:
            sample_layout(rng, me, np.uint64(pos.hands[me]), state, layout, allowed, cap)
        dealt = [int(layout[s]) | sum(1 << c for p, c in plays if p == s) for s in range(4)]
        expected, counted = _python_weight(np.array(dealt, np.uint64), plays, contract, 0, 2, me, policy)
        got = policy_weight(layout, state, work, np.int64(me), model_array(), np.int64(policy), rules,
                            np.int64(contract), np.int64(0), allowed, np.zeros(1, np.uint64))
        assert counted >= 4
        assert got == pytest.approx(expected, rel=1e-9, abs=0.0), k
        seen.add(round(got, 12))
    assert len(seen) > 1  # the layouts are weighed differently


# --- learned rollouts and reproducibility (compiles the mc engine) -------------------------------------------

def _rollout_scores(hands, contract, param, declarer, rules, seed, index):
    from barbu_sim.barbu.players.rollout import rollout_domino, rollout_tricks
    state = new_state(rules)
    _reset_state(state, contract, param, declarer)
    state[S_SEAT] = declarer
    state[S_LEADER] = declarer
    rng = np.array([stream_key(np.uint64(seed), np.uint64(index), STREAM_PLAY)], np.uint64)
    scores = np.zeros(4, np.int64)
    h = np.array(hands, np.uint64).copy()
    if contract == DOMINO:
        rollout_domino(h, np.int64(param), rules, np.int64(LEARNED), state, rng, np.int64(-1), scores, model_array())
    else:
        rollout_tricks(h, np.int64(contract), np.int64(param), rules, np.int64(LEARNED), state, rng, np.int64(-1),
                       scores, model_array(), np.int64(13))
    return scores


@pytest.mark.parametrize("contract", [0, 4, TRUMPS, DOMINO])
def test_a_learned_rollout_plays_the_learned_players_deal(contract):
    rules = Rules().to_array()
    for index in range(4):
        hands = random_deal(8, index)
        param = 2 if contract == TRUMPS else (5 if contract == DOMINO else 0)
        engine = play_deal(hands, contract, "learned", param=param, declarer=index % 4, seed=8, index=index)
        rolled = _rollout_scores(hands, contract, param, index % 4, rules, 8, index)
        assert rolled.tolist() == engine.scores.tolist(), (contract, index)


def test_the_new_mc_is_reproducible_at_any_thread_count():
    line = ["mc:samples=6,rollout=learned,infer=policy", "learned", "mc:samples=4,infer=policy:basic", "learned"]
    configs = [(4, 0, 0), (2, 0, 1)]
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = play_batch(5, 0, 4, configs, line)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = play_batch(5, 0, 4, configs, line)
    finally:
        numba.set_num_threads(before)
    again = play_batch(5, 0, 4, configs, line)
    for a, b, c in zip(one, two, again):
        assert np.array_equal(a, b) and np.array_equal(a, c)
    deal = play_deal(random_deal(5, 3), 4, line, declarer=0, seed=5, index=3)
    assert deal.scores.tolist() == one[0][3, 0].tolist()  # a recorded deal is the batch's deal


# --- mc with learned rollouts by default: old runs replay as mc1 --------------------------------------------

def test_a_deal_of_the_old_mc_replays_as_mc1_and_mc_plays_another():
    """A seat recorded as the old mc (its full name) plays mc1's cards; mc, with learned rollouts, plays other
    cards on some of the same deals."""
    changed = 0
    for index in range(3):
        hands = random_deal(45, index)
        played = {spec: play_deal(hands, NO_QUEENS, ["heuristic", spec, "heuristic", "heuristic"], declarer=index,
                                  seed=45, index=index).cards.tolist() for spec in (OLD_MC, "mc1", "mc")}
        assert played[OLD_MC] == played["mc1"] and len(played["mc1"]) >= 20
        changed += played["mc"] != played["mc1"]
    assert changed >= 1


def test_a_run_of_the_old_mc_resumes_as_recorded_and_refuses_the_new_mc(tmp_path):
    from typer.testing import CliRunner

    from barbu_sim.cli import app

    runner = CliRunner()
    out = tmp_path / "old-mc"
    first = runner.invoke(app, ["run", "-n", "2", "-c", "barbu", "--seat-strategy", f"E={OLD_MC}", "--out", str(out),
                                "--no-progress"])
    assert first.exit_code == 0, first.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["strategies"][1] == OLD_MC == manifest["players"][1]["player"]  # as the old mc recorded
    same = runner.invoke(app, ["run", "--resume", "--out", str(out), "--no-progress"])
    assert same.exit_code == 0 and "complete" in same.output, same.output  # its own players: mc1's
    again = runner.invoke(app, ["run", "--resume", "--seat-strategy", "E=mc", "--out", str(out), "--no-progress"])
    message = " ".join(again.output.split())
    assert again.exit_code != 0 and "Traceback" not in again.output
    new_mc = canonical_strategy("mc")  # the new mc in full: rollout=learned
    assert "rollout=learned" in new_mc
    assert message.startswith("Error: ") and f"these differ from it: --strategy ['heuristic', '{new_mc}'," in message
    assert f"(the run has ['heuristic', '{OLD_MC}'," in message  # the old mc's rollout=heuristic, named
    # the same player under its short name is no difference: E=mc1 resumes the old mc's run
    mc1 = runner.invoke(app, ["run", "--resume", "--seat-strategy", "E=mc1", "--out", str(out), "--no-progress"])
    assert mc1.exit_code == 0 and "complete" in mc1.output, mc1.output
