"""Clabber's mc card player: the replay and the rollouts follow the engine card by card, what it
infers is true, its plays are legal and reproducible, it cannot tell apart deals that look the same
from its seat, it finds a card the heuristic misses, and the other seats play as they would."""

import dataclasses

import numpy as np
import pytest
from numba import njit

from barbu_sim.clabber.api import IllegalPlayError, play_dealt, play_round, play_rounds
from barbu_sim.clabber.players.heuristic import heuristic_strategy
from barbu_sim.clabber.players.mc import DEFAULT_SAMPLES, K_NOT_HELD, K_SHOWN, MC_WORK_SIZE, W_LAYOUT, replay_into
from barbu_sim.clabber.players.rollout import legal_now, rollout, round_scores
from barbu_sim.clabber.review.mc import card_values
from barbu_sim.clabber.rules import ROUND_COLUMNS, Rules, parse_clabber_card
from barbu_sim.clabber.state import S_SEAT, STATE_ARRAY_SIZE
from barbu_sim.clabber.players.registry import resolve_strategy
from barbu_sim.core.bits import highest_bit
from plugin_examples import play_high

MC = "mc:samples=6"


def _arrays(r):
    return (np.ascontiguousarray(r.hands, np.uint64), r.dealer, r.turned, r.row["trump"], r.row["maker"])


def _replayed(r, rules, plays, n):
    """``(state, hands, knowledge)`` before play ``n`` of round ``r``, from the table's view (the
    package's cached kernels, called from Python: nothing to compile per test run)."""
    state = np.zeros(STATE_ARRAY_SIZE, np.uint64)
    hands = np.empty(4, np.uint64)
    mcw = np.zeros(MC_WORK_SIZE, np.uint64)
    replay_into(*_arrays(r), rules, plays, n, state, hands, mcw, np.uint64(0))
    return state, hands, mcw


def _replay_checks(r, rules, plays):
    """``(plays where the replayed seat, legal cards and heuristic's card match the record, checks where
    the knowledge contradicts the deal, cards known not held, the replay's scores, a rollout's scores)``."""
    dealt = np.ascontiguousarray(r.hands, np.uint64)
    agree = wrong = 0
    for n in range(len(plays) + 1):
        state, hands, mcw = _replayed(r, rules, plays, n)
        for s in range(4):  # inferred not held: never a card dealt to the seat; shown: always one
            wrong += bool(int(mcw[K_NOT_HELD + s]) & int(dealt[s]) or int(mcw[K_SHOWN + s]) & ~int(dealt[s]))
        if n == len(plays):
            break
        seat, card = (int(x) for x in plays[n])
        legal = np.uint64(legal_now(hands[seat], state))
        if int(state[S_SEAT]) == seat and int(legal) >> card & 1 and \
                heuristic_strategy(legal, hands[seat], state, mcw[:1]) == card:
            agree += 1
    known = sum(bin(int(mcw[K_NOT_HELD + s])).count("1") for s in range(4))
    replayed = round_scores(state, dealt)
    state, hands, mcw = _replayed(r, rules, plays, 0)
    rollout(state, hands, -1)
    return (agree, wrong, known, *replayed, *round_scores(state, dealt))


@pytest.mark.parametrize("rules", [Rules(), Rules(partner_excuse=True)])
def test_the_replay_and_a_rollout_play_the_engines_round(rules):
    rounds = known = 0
    for index in range(10):
        r = play_round(4, index, index % 4, "accept-first", "heuristic", rules)
        plays = np.array(r.plays, np.int64)
        agree, wrong, k, *scores = _replay_checks(r, rules.to_array(), plays)
        assert agree == 24 and wrong == 0, index
        assert scores == [r.row["score_ns"], r.row["score_ew"]] * 2, index
        rounds += 1
        known += k
    assert rounds == 10 and known > 10  # the inference shows something (voids, trumps not played)


def test_plays_are_legal_and_reproducible_on_any_thread_count():
    seats = [MC, "heuristic", MC, "random"]
    one = play_rounds(8, 0, 16, 1, "accept-first", seats, threads=1)
    two = play_rounds(8, 0, 16, 1, "accept-first", seats, threads=2)
    assert (one == two).all() and (one[:, ROUND_COLUMNS.index("misplay")] == -1).all()
    for index in (0, 5):
        row = play_round(8, index, 1, "accept-first", seats).row
        assert [row[c] for c in ROUND_COLUMNS] == one[index].tolist()
    # Every seat mc, partner excuse on: an illegal card would stop the run (misplay=error).
    rows = play_rounds(2, 0, 8, 0, "accept-first", MC, Rules(partner_excuse=True), threads=2)
    assert (rows[:, ROUND_COLUMNS.index("maker")] >= 0).all() and len(rows) == 8


def test_the_spec_and_its_errors():
    assert resolve_strategy("mc").name == f"mc:samples={DEFAULT_SAMPLES}"
    assert resolve_strategy("mc:samples=20").name == "mc:samples=20"
    for bad, needle in (("mc:samples=0", "1 to 100,000"), ("mc:rollout=x", "unknown mc parameter"),
                        ("mc:20", "NAME=VALUE")):
        with pytest.raises(ValueError, match=needle):
            resolve_strategy(bad)


def test_a_lead_cannot_see_two_cards_swapped_between_other_seats():
    # Dealer West: North leads the first trick knowing its hand and the turned card (West's) only.
    r = play_round(6, 3, 3, "accept-first", "heuristic")
    hands = r.hands.copy()
    e, s = int(hands[1]), int(hands[2])
    ce, cs = (e & -e).bit_length() - 1, (s & -s).bit_length() - 1
    hands[1] = np.uint64(e ^ (1 << ce) | (1 << cs))
    hands[2] = np.uint64(s ^ (1 << cs) | (1 << ce))
    forced = (1, r.row["maker"], r.row["trump"])
    seats = [MC, "heuristic", "heuristic", "heuristic"]
    a = play_dealt(r.hands, r.turned, 3, strategies=seats, forced=forced, seed=6, index=3)
    b = play_dealt(hands, r.turned, 3, strategies=seats, forced=forced, seed=6, index=3)
    assert a.plays[0] == b.plays[0] and a.plays[0][0] == 0


def _knowledge(r, rules, plays, n):
    state, _, mcw = _replayed(r, rules, plays, n)
    return np.concatenate((state, mcw[:W_LAYOUT]))


def test_the_values_cannot_tell_apart_deals_that_look_the_same_from_the_seat():
    """Swap two unplayed cards between two other seats where the seat's view (state, knowledge) is
    the same: every card's value is the same to the last bit; the deal is not."""
    rules = Rules().to_array()
    checked = 0
    for index in range(6):
        r = play_round(9, index, index % 4, "accept-first", "heuristic")
        plays = np.array(r.plays, np.int64)
        d = 13  # the second card of the fourth trick: two seats have shown a few voids by then
        me = int(plays[d, 0])
        view = _knowledge(r, rules, plays, d)
        played = {int(c) for c in plays[:d, 1]}
        y, z = [s for s in range(4) if s != me][:2]
        for cy in [c for c in range(52) if int(r.hands[y]) >> c & 1 and c not in played]:
            for cz in [c for c in range(52) if int(r.hands[z]) >> c & 1 and c not in played]:
                hands = r.hands.copy()
                hands[y] = np.uint64(int(hands[y]) ^ (1 << cy) | (1 << cz))
                hands[z] = np.uint64(int(hands[z]) ^ (1 << cz) | (1 << cy))
                swapped = dataclasses.replace(r, hands=hands)
                if not np.array_equal(_knowledge(swapped, rules, plays, d), view):
                    continue  # the seat could tell: a meld shown, a void, a trump not played
                assert card_values(swapped, d, samples=40) == card_values(r, d, samples=40)
                checked += 1
                break
            else:
                continue
            break
    assert checked >= 3


def test_mc_takes_the_trick_with_the_jack_where_heuristic_lets_the_ace_overtrump():
    """Seed 21, round 24, hearts trumps: South leads 10D; West, void in diamonds, must trump, holding
    J K Q of hearts; North, next, holds the last other trump, the ace, and must overtrump if it can.
    Heuristic trumps with the lowest heart (Q), which the ace overtrumps; only the J wins the trick,
    drawing the ace (North must still play a trump) and keeping K and Q (the bell)."""
    jack, queen = parse_clabber_card("JH"), parse_clabber_card("QH")
    heuristic = play_round(21, 24, 0, "accept-first", "heuristic")
    assert heuristic.plays[13] == (3, queen)
    values = card_values(heuristic, 13, samples=200)
    assert values[0]["card"] == jack and values[0]["value"] > values[-1]["value"] + 40
    assert {v["name"] for v in values} == {"JH", "KH", "QH"}
    mc = play_round(21, 24, 0, "accept-first", ["heuristic", "heuristic", "heuristic", "mc"])
    assert mc.plays[:13] == heuristic.plays[:13]  # West's first three cards were forced
    assert mc.plays[13] == (3, jack)
    assert mc.row["score_ew"] > heuristic.row["score_ew"]


@njit
def renege(legal, hand, state, rng):
    other = hand & ~legal
    return highest_bit(other) if other else highest_bit(legal)


def test_plugin_and_heuristic_seats_beside_mc_play_as_they_would():
    rules = Rules()
    checked = 0
    for index in range(4):
        r = play_round(5, index, 0, "accept-first", [MC, play_high, "heuristic", play_high])
        plays = np.array(r.plays, np.int64)
        for n, (seat, card) in enumerate(r.plays):
            state, hands, mcw = _replayed(r, rules.to_array(), plays, n)
            legal = np.uint64(legal_now(hands[seat], state))
            if seat in (1, 3):
                assert card == highest_bit(legal)
                checked += 1
            elif seat == 2:
                assert card == heuristic_strategy(legal, hands[seat], state, mcw[:1])
                checked += 1
    assert checked == 4 * 18
    with pytest.raises(IllegalPlayError, match=r"strategy 'renege' at seat E played"):
        for index in range(20):
            play_round(0, index, 0, "accept-first", [MC, renege, MC, "heuristic"])


def test_games_and_advice_with_mc_seats_are_reproducible():
    from barbu_sim.clabber.game.advice import advise
    from barbu_sim.clabber.api import play_games
    seats = [MC, "heuristic", "heuristic", "heuristic"]
    one = play_games(3, 0, 2, "threshold", seats, threads=1)
    assert (one == play_games(3, 0, 2, "threshold", seats, threads=2)).all()
    assert (one[:, 5] < 3).all()  # both games finished (GAME_COLUMNS: result ns / ew / draw)
    hand = "JS 9S AS KH 10D AC"
    rows = advise(hand, "QS", 1, samples=6, strategies="mc:samples=4", seed=2)
    assert rows == advise(hand, "QS", 1, samples=6, strategies="mc:samples=4", seed=2)
    assert [r["option"] for r in rows][:2] == ["play", "pass"] and all(np.isfinite(r["net"]) for r in rows)


def test_every_clabber_command_lists_mc():
    from test_cli_help import option_help

    from barbu_sim.clabber.players.registry import BUILTINS, REGISTRY
    names = [*BUILTINS, *REGISTRY.parametric]
    assert "mc" in names
    for path in (["clabber", "play"], ["clabber", "run"], ["clabber", "game"], ["clabber", "advise"]):
        text = option_help(path, "--strategy")
        assert all(f"{n}[:samples=N]" in text if n == "mc" else n in text for n in names), (path, text)
