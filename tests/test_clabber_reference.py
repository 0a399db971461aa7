"""Hand-built checks of the pure-Python Clabber reference, one rule at a time."""

from itertools import combinations

import pytest

import clabber_reference as ref
from barbu_sim.core.cards import parse_card

C, D, H, S = range(4)


def cards(text):
    return {parse_card(t) for t in text.split()}


def card(text):
    return parse_card(text)


def seq(text):
    return [parse_card(t) for t in text.split()]


# ---------------------------------------------------------------- points and tricks
def test_card_points_total_152():
    for trump in range(4):
        assert sum(ref.points(c, trump) for c in ref.DECK) == 152


def test_trump_order_j_9_a_10_k_q():
    order = seq("JS 9S AS 10S KS QS")
    for hi, lo in zip(order, order[1:]):
        assert ref.trick_winner([lo, hi], S) == 1


def test_plain_order_a_10_k_q_j_9():
    order = seq("AH 10H KH QH JH 9H")
    for hi, lo in zip(order, order[1:]):
        assert ref.trick_winner([lo, hi], S) == 1


def test_trick_winner_trump_beats_led_suit_and_off_suit_loses():
    assert ref.trick_winner(seq("AH 9S 10H KD"), S) == 1
    assert ref.trick_winner(seq("9H AD 10H KD"), S) == 2


# ---------------------------------------------------------------- legality
def test_must_follow_suit():
    assert ref.legal_cards(cards("9H AS JC"), seq("KH"), [0], S, 1) == cards("9H")


def test_unable_to_follow_must_trump():
    assert ref.legal_cards(cards("AS 9S JC"), seq("KH"), [0], S, 1) == cards("AS 9S")


def test_must_overtrump_when_able():
    # K of hearts led, 10S trumped in; the J beats it, the Q does not.
    assert ref.legal_cards(cards("JS QS AC"), seq("KH 10S"), [0, 1], S, 2) == cards("JS")


def test_undertrump_when_unable_to_beat():
    # The J of trumps is in; with only lower trumps one must still trump (any trump).
    assert ref.legal_cards(cards("QS KS AC"), seq("KH JS"), [0, 1], S, 2) == cards("QS KS")


def test_no_trump_and_no_suit_plays_anything():
    assert ref.legal_cards(cards("AC 9D"), seq("KH"), [0], S, 1) == cards("AC 9D")


def test_trump_led_must_beat_highest_trump():
    assert ref.legal_cards(cards("9S QS AH"), seq("AS"), [0], S, 1) == cards("9S")
    assert ref.legal_cards(cards("KS QS AH"), seq("AS"), [0], S, 1) == cards("KS QS")


def test_following_a_plain_suit_needs_no_overtaking():
    assert ref.legal_cards(cards("9H AH JS"), seq("KH 10H"), [0, 1], S, 2) == cards("9H AH")


def test_partner_excuse_off_by_default_and_on():
    # West (3) led KH, North (0) trumped with 10S and wins; South (2) is North's partner, void in hearts.
    trick, seats = seq("KH 10S QH"), [3, 0, 1]
    hand = cards("JS 9C")
    assert ref.legal_cards(hand, trick, seats, S, 2) == cards("JS")
    assert ref.legal_cards(hand, trick, seats, S, 2, partner_excuse=True) == cards("JS 9C")
    # Trump led, partner winning: must still follow trumps but need not overtake.
    assert ref.legal_cards(cards("JS QS"), seq("AS 9H"), [0, 1], S, 2, partner_excuse=True) == cards("JS QS")
    assert ref.legal_cards(cards("JS QS"), seq("AS 9H"), [0, 1], S, 2) == cards("JS")
    # An opponent winning: no excuse.
    assert ref.legal_cards(hand, seq("KH 10S"), [0, 1], S, 2, partner_excuse=True) == cards("JS")


# ---------------------------------------------------------------- melds
@pytest.mark.parametrize("hand,points", [
    ("JC JD JH JS 9C AD", 200),
    ("9C 9D 9H 9S AD KD", 100),
    ("AC AD AH AS 9D KD", 100),
    ("10C 10D 10H 10S 9D KD", 100),
    ("KC KD KH KS 9D AD", 100),
    ("QC QD QH QS 9D AD", 100),
    ("AH KH QH JH 10H 9C", 100),
    ("KH QH JH 10H 9S AC", 50),
    ("QH JH 10H 9S AC KD", 20),
    ("AH KH QH JH 10H 9H", 100),  # a run of six is a sequence of five
    ("AH KH QH 10S 9S JS", 40),  # two sequences of three
    ("AH AD AC AS KS QS", 100),  # the four aces beat the sequence sharing the AS
    ("AH KD QC JS 10S 9H", 0),
])
def test_meld_points(hand, points):
    assert sum(ref.meld_points(m) for m in ref.best_melds(cards(hand), C)) == points


def test_a_card_is_in_at_most_one_meld():
    melds = ref.best_melds(cards("JC JD JH JS QS KS"), C)
    assert [m[0] for m in melds] == ["four"]


def test_meld_ranking():
    def k(hand, trump=C):
        return max(ref.meld_key(m, trump) for m in ref.best_melds(cards(hand), trump))

    assert k("JC JD JH JS 9C AD") > k("9C 9D 9H 9S AD KD") > k("AC AD AH AS 9D KD") > k("10C 10D 10H 10S 9D KD") \
        > k("KC KD KH KS 9D AD") > k("QC QD QH QS 9D AD") > k("AH KH QH JH 10H 9C")
    assert k("AH KH QH JH 10H 9C") > k("KH QH JH 10H 9H 9C") > k("AH KH QH JH 9C 9D") > k("AH KH QH 9C 9D 9S")
    assert k("QH JH 10H 9C 9D AS") > k("JH 10H 9H AC AD AS")  # higher top card
    assert k("AS KS QS 9C 9D 9H", S) > k("AH KH QH 9C 9D 9S", S)  # trump sequence beats a plain one
    assert k("AS KS QS 9C 9D 9H", C) == k("AH KH QH 9C 9D 9S", C)


def deal_of(n, e, s, w):
    return [cards(n), cards(e), cards(s), cards(w)]


def test_team_with_the_highest_meld_scores_all_its_melds():
    hands = deal_of("AH KH QH 9C 9D 9S", "KS QS JS 10C 10D AC", "QD JD 10S AS KC QC", "9H 10H JH JC AD KD")
    # N: A-K-Q of hearts (20); E: K-Q-J of spades (20); W: J-10-9 of hearts (20): N's is the highest.
    m0, m1, _ = ref.team_melds(hands, C)
    assert (m0, m1) == (20, 0)
    # The top card ranks before the trump suit: E's K-Q-J in trumps still loses to the A-K-Q.
    assert ref.team_melds(hands, S)[:2] == (20, 0)


def test_exact_tie_of_highest_melds_scores_nobody():
    hands = deal_of("AH KH QH 9C 9D 9S", "AD KD QD 10C 10S AC", "JS 10H JD JC KC QC", "9H JH AS KS QS 10D")
    # N: AKQ hearts, E: AKQ diamonds, W: AKQ spades: with clubs trump, N/S's best equals E/W's best.
    assert ref.team_melds(hands, C)[:2] == (0, 0)
    # With spades trump, W's AKQ of trumps wins for E/W, who score all their melds (40).
    assert ref.team_melds(hands, S)[:2] == (0, 40)


def test_no_melds_anywhere_scores_nothing():
    hands = deal_of("AH KD QC JS 10S 9H", "AD KC QS JH 10H 9C", "AC KS QH JD 10D 9S", "AS KH QD JC 10C 9D")
    assert ref.team_melds(hands, H)[:2] == (0, 0)


# ---------------------------------------------------------------- bidding
def test_round_one_accept_first():
    hands, turned = ref.deal(1, 0, 0)
    r, maker, trump, bids = ref.bidding(hands, turned, 0, [("accept-first",)] * 4, ref.Rng(1, 0, ref.STREAM_BID))
    assert (r, maker, trump) == (1, 1, ref.suit(turned)) and bids == [(1, "play")]


def test_round_two_names_another_held_suit_and_throw_in():
    hands = deal_of("AH KH QH 9C 9D 9S", "KS QS JS 10C 10D AC", "QD JD 10S AS KC QC", "9H 10H JH JC AD KD")
    turned = card("JC")  # West (3) deals; the turned JC is West's last card
    never = [("threshold", 10_000)] * 4
    assert ref.bidding(hands, turned, 3, never, None)[:3] == (0, None, None)
    assert len(ref.bidding(hands, turned, 3, never, None)[3]) == 8
    # Round one, clubs: N 9C 24 + AH 10 = 34; E 10C AC 41; S KC QC 27 + AS 10 = 37; W JC 30 + AD 10 = 40.
    # Round two: N's best other suit is hearts (AH KH QH: 18 + 30 = 48); E's spades (KS QS JS 57 + AC 10 = 67).
    r, maker, trump, bids = ref.bidding(hands, turned, 3, [("threshold", 45)] * 4, None)
    assert (r, maker, trump) == (2, 0, H) and bids[3:] == [(3, "pass"), (0, "H")]
    r, maker, trump, bids = ref.bidding(hands, turned, 3, [("threshold", 50)] * 4, None)
    assert (r, maker, trump) == (2, 1, S) and bids[4:] == [(0, "pass"), (1, "S")]
    r, maker, trump, bids = ref.bidding(hands, turned, 3, [("threshold", 41)] * 4, None)
    assert (r, maker, trump) == (1, 1, C) and bids == [(0, "pass"), (1, "play")]


def test_round_two_may_not_name_the_turned_suit_or_an_unheld_suit():
    hand = cards("AS KS QS JS 10S 9H")
    assert ref.bid_decision(("accept-first",), hand, card("JH"), True, None) == S
    assert ref.bid_decision(("threshold", 0), hand, card("JS"), True, None) == H
    assert ref.bid_decision(("threshold", 0), cards("AS KS QS JS 10S 9S"), card("JS"), True, None) is None


# ---------------------------------------------------------------- scoring
def test_makers_rule_at_equal_totals():
    assert ref.settle([81, 81], 0) == [0, 81]
    assert ref.settle([82, 80], 0) == [82, 80]
    assert ref.settle([90, 72], 1) == [90, 0]


def lowest(legal, hand, view, rng):
    return min(legal)


def test_whole_round_points_last_trick_and_bell():
    hands, turned = ref.deal(5, 3, 2)
    for trump in range(4):
        out = ref.play_round(hands, turned, 2, None, [lowest] * 4, forced_bidding=(1, 0, trump))
        assert sum(out["card_points"]) == 162
        assert len(out["plays"]) == 24 and sorted(c for _, c in out["plays"]) == sorted(ref.DECK)
        holder = [s for s in range(4) if {trump * 13 + ref.KING, trump * 13 + ref.QUEEN} <= hands[s]]
        assert out["bell"] == ([20 if ref.team(holder[0]) == t else 0 for t in range(2)] if holder else [0, 0])


def test_last_trick_is_worth_ten():
    hands, turned = ref.deal(2, 0, 0)
    out = ref.play_round(hands, turned, 0, None, [lowest] * 4, forced_bidding=(1, 1, H))
    plays = [c for _, c in out["plays"]]
    last = ref.team(out["winners"][-1])
    last_points = sum(ref.points(c, H) for c in plays[20:])
    rest = sum(ref.points(c, H) for i, c in enumerate(plays[:20]) if ref.team(out["winners"][i // 4]) == last)
    assert out["card_points"][last] == rest + last_points + 10


def test_replay_rejects_an_illegal_card():
    hands = deal_of("AH KH QH 9C 9D 9S", "KS QS JS 10C 10D AC", "QD JD 10S AS KC QC", "9H 10H JH JC AD KD")
    # N leads AH (dealer W), E holds no heart and must trump (spades): KC is illegal... E has no clubs lead.
    with pytest.raises(ValueError, match="illegal"):
        ref.play_round(hands, card("KD"), 3, None, None, forced_bidding=(1, 0, S), replay=seq("AH 10C"))


def test_deal_and_rng():
    from barbu_sim.core.rng import stream_key
    import numpy as np
    assert ref.Rng(7, 3, ref.STREAM_DEAL).state == int(stream_key(np.uint64(7), np.uint64(3),
                                                                    np.uint64(ref.STREAM_DEAL)))
    hands, turned = ref.deal(7, 3, 1)
    assert turned in hands[1] and all(len(h) == 6 for h in hands)
    assert set().union(*hands) == set(ref.DECK)


def test_exact_meld_counts_helpers():
    # Sanity of the counting helpers on a few hands (the full C(24,6) census is in test_clabber_melds).
    assert ref.longest_run(cards("AH KH QH JH 10H 9H")) == 6
    assert ref.has_four(cards("9C 9D 9H 9S AD KD")) and not ref.has_four(cards("9C 9D 9H AS AD KD"))
    assert len(list(combinations(range(24), 6))) == 134_596
