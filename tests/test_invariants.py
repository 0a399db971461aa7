"""Invariants on random deals under every contract and rule option."""

import numpy as np
import pytest

from barbu_sim.barbu.engine import reference
from barbu_sim.core.cards import cards_of
from barbu_sim.barbu.api import play_batch, play_random_deal
from barbu_sim.barbu.state import PASS
from barbu_sim.barbu.rules import DOMINO, PRESETS, TRUMPS, Rules

RULE_SETS = list(PRESETS.items()) + [("free-overtrump", Rules(trumps_void="free", trumps_overtrump=True)),
                                     ("payout-60", Rules(domino_payout=(60, 10, 0, -5)))]


def configs_for(contract):
    if contract == TRUMPS:
        return [(contract, s, d) for s in range(4) for d in range(4)]
    if contract == DOMINO:
        return [(contract, r, r % 4) for r in range(13)]
    return [(contract, 0, d) for d in range(4)]


@pytest.mark.parametrize("rules", [r for _, r in RULE_SETS], ids=[name for name, _ in RULE_SETS])
@pytest.mark.parametrize("strategy", ["random", "heuristic"])
def test_totals_and_tricks(rules, strategy):
    for contract in range(7):
        cfg = configs_for(contract)
        scores, tricks = play_batch(3, 0, 300, cfg, strategy, rules=rules)
        totals = scores.astype(np.int64).sum(axis=2)
        assert (totals == rules.contract_total(contract)).all()
        n_tricks = tricks.astype(np.int64).sum(axis=2)
        if contract == DOMINO:
            assert (np.sort(scores, axis=2) == np.sort(rules.domino_payout)).all()
            assert (n_tricks == 0).all()
        elif contract in (0, 2, TRUMPS):
            assert (n_tricks == 13).all()
        else:
            assert ((n_tricks >= 1) & (n_tricks <= 13)).all()
        if contract == TRUMPS:
            assert (scores == rules.trumps_per_trick * tricks).all()


@pytest.mark.parametrize("contract", range(7))
def test_records_each_card_once_and_every_play_legal(contract):
    rng = np.random.default_rng(contract)
    for i in range(60):
        rules = RULE_SETS[i % len(RULE_SETS)][1]
        param = int(rng.integers(4 if contract == TRUMPS else 13)) if contract in (TRUMPS, DOMINO) else 0
        r = play_random_deal(17, i, contract, "random", param=param, declarer=i % 4, rules=rules)
        param = r.param  # the rank played (domino-start=fixed:R overrides the one named)
        hands = [set(cards_of(h)) for h in r.hands]
        played = [c for c in r.cards.tolist() if c != PASS]
        assert len(played) == len(set(played))
        if contract in (0, 2, TRUMPS):
            assert len(played) == 52
        trick = []
        table = set()
        for seat, card in zip(r.seats.tolist(), r.cards.tolist()):
            if contract == DOMINO:
                playable = {c for c in hands[seat]
                            if reference.domino_playable(c, param, table, rules.domino_ace == "low")}
                if card == PASS:
                    assert not playable  # a pass only when nothing can be played
                    continue
                assert card in playable
                table.add(card)
            else:
                assert card in reference.legal_cards(hands[seat], trick, contract, param, rules)
                trick = [] if len(trick) == 3 else trick + [card]
            hands[seat].remove(card)
        if contract == DOMINO:
            assert sum(1 for h in hands if not h) >= 3


def test_every_strategy_mix_keeps_totals():
    scores, _ = play_batch(9, 0, 500, [(c, 2, 1) for c in range(7)], ["random", "heuristic", "lowest", "random"])
    assert (scores.astype(np.int64).sum(axis=2) == [-26, -24, -30, -30, -20, 65, 65]).all()


@pytest.mark.parametrize("contract", [c for c in range(7) if c != DOMINO])
def test_the_play_loop_names_the_winner_trick_winner_names(contract):
    from barbu_sim.barbu.rules.play_rules import trick_winner
    for i in range(40):
        trump = i % 4
        r = play_random_deal(23, i, contract, "random", param=trump if contract == TRUMPS else 0, declarer=i % 4)
        for t, winner in enumerate(r.trick_winners.tolist()):
            cards = r.cards[4 * t:4 * t + 4].astype(np.int64)
            assert r.seats[4 * t + trick_winner(cards, 4, contract, trump)] == winner


@pytest.mark.parametrize("name", list(PRESETS))
def test_random_play_gives_the_analytic_seat_means(name):
    # With every seat declaring in turn, random play treats the four seats alike, so each seat's
    # expected score is the contract's total over four: e.g. No Hearts at -2 / -4 (high-hearts-4)
    # -36 / 4 = -9 a seat, No Last Two at -12 each -24 / 4 = -6.  Each seat's mean over 4 x 150 hands
    # must lie within 4.5 standard errors of it.
    rules = PRESETS[name]
    cfg = [(c, 3 if c == TRUMPS else (5 if c == DOMINO else 0), d) for c in range(7) for d in range(4)]
    scores, _ = play_batch(41, 0, 150, cfg, "random", rules=rules)
    scores = scores.astype(np.float64).reshape(150, 7, 4, 4)  # deal, contract, declarer, seat
    for contract in range(7):
        per_seat = scores[:, contract].reshape(-1, 4)  # 600 hands by absolute seat
        expected = rules.contract_total(contract) / 4
        se = per_seat.std(axis=0, ddof=1) / np.sqrt(len(per_seat))
        assert (np.abs(per_seat.mean(axis=0) - expected) <= 4.5 * se + 1e-9).all(), (
            name, contract, per_seat.mean(axis=0), expected, se)
        assert per_seat.mean() == pytest.approx(expected)  # the four seats together: exactly the total
    if name == "high-hearts-4":
        assert rules.contract_total(3) / 4 == -9
    if name == "last-two-12":
        assert rules.contract_total(2) / 4 == -6
