"""The learned player in the kernels chooses, at every decision, the card of a plain-Python reference.

The reference reads each feature from the position card by card, as the feature list defines it
(barbu/players/features.py, docs/learned-player.md), in Python integers and floats (float64, rounded
once to float32 where stored), and runs the network in numpy float32 in its one order of sums: the
linear part and each unit's inputs feature by feature in slot order, then the output layer unit after
unit, or (a model whose file says "output_sum": "tree") its 16-unit blocks each added as a tree of
halves (lanes j and j + 8, then j + 4, j + 2, j + 1).  The
kernels build the position's context once per decision and fill each card from it; the plays must
not change, so the whole record of learned-against-learned deals of every contract is checked
decision by decision, up to the first divergence.
"""

import numpy as np
import pytest

from barbu_sim.barbu.api import play_deal
from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.players.features import N_FEATURES, domino_card_features, trick_card_features
from barbu_sim.barbu.players.heuristic import heuristic_strategy
from barbu_sim.barbu.players.learned import (
    MAX_HIDDEN, TREE_OUTPUT, W_BIAS, W_INPUT, W_LINEAR, W_OUTPUT, model_array,
)
from barbu_sim.barbu.position import Position
from barbu_sim.barbu.rules import DOMINO, Rules
from barbu_sim.barbu.rules.config import (
    BARBU, HEARTS, KING_OF_HEARTS, NO_HEARTS, NO_LAST_TWO, NO_QUEENS, NO_TRICKS, PRESETS, R_BEST_TOTAL, R_DOMINO_ACE,
    TRUMPS,
)
from barbu_sim.barbu.rules.play_rules import trick_value
from barbu_sim.barbu.state import (
    PASS, S_CONTRACT, S_DECLARER, S_N_IN_TRICK, S_NOT_HELD, S_PARAM, S_PLAYED, S_RULES, S_SEAT, S_TRICK, S_TRICK_CARDS,
    S_VOIDS, S_WIN_CARD,
)
from barbu_sim.core.cards import cards_of

ALL = (1 << 52) - 1


def suit_bits(s):
    return 0x1FFF << (13 * s)


def above(c):
    return ~((1 << (c + 1)) - 1) & suit_bits(c // 13)


def below(c):
    return ((1 << c) - 1) & suit_bits(c // 13)


def highest(m):
    return m.bit_length() - 1


def lowest(m):
    return (m & -m).bit_length() - 1


def points(contract, t, mask, state):
    """The points at the rules' values, signed so that more is better for the seat (turned over where the lowest
    total wins)."""
    sign = -1 if int(state[S_RULES + R_BEST_TOTAL]) == 1 else 1
    return sign * int(trick_value(contract, t, np.uint64(mask), state[S_RULES:]))


def trick_features(card, legal, hand, state, heur):
    """One card's trick-contract features, as the feature list defines them (slots: features.TRICK_FIELDS)."""
    f = lambda i: int(state[i])  # noqa: E731
    contract, me, t, k, played = f(S_CONTRACT), f(S_SEAT), f(S_TRICK), f(S_N_IN_TRICK), f(S_PLAYED)
    trump = f(S_PARAM) if contract == TRUMPS else -1
    unseen = ~hand & ~played & ALL
    s, r, b = card // 13, card % 13, 1 << card
    in_suit = suit_bits(s)
    trick = 0
    for j in range(k):
        trick |= 1 << f(S_TRICK_CARDS + j)
    wins, led = 1.0, s
    if k > 0:
        win, led = f(S_WIN_CARD), f(S_TRICK_CARDS) // 13
        wins = 1.0 if (card > win if s == win // 13 else contract == TRUMPS and s == trump) else 0.0
    void = lambda seat, suit: (f(S_VOIDS + seat) >> suit) & 1  # noqa: E731
    higher = unseen & in_suit & above(card)
    master = 1.0 if higher == 0 else 0.0
    no_trump_out = trump < 0 or unseen & suit_bits(trump) == 0
    sure = 1.0 if wins and (k == 3 or master and (contract != TRUMPS or s == trump or no_trump_out)) else 0.0
    take = points(contract, t, trick | b, state) / 10.0
    own = points(contract, 0, b, state) / 10.0 if contract in (NO_QUEENS, NO_HEARTS, BARBU) else 0.0
    my_len, n_unseen = float((hand & in_suit).bit_count()), float((unseen & in_suit).bit_count())
    lead = 1.0 if k == 0 else 0.0
    off = 1.0 if k > 0 and s != led else 0.0
    is_trump = 1.0 if s == trump else 0.0
    later = [(me + j) & 3 for j in range(1, 4 - k)]  # the seats still to play to this trick
    top_unseen = unseen & in_suit
    masters = hand & in_suit & ~b & (above(highest(top_unseen)) if top_unseen else ALL)
    x = [
        1.0 if card == heur else 0.0, wins, sure, wins * take, sure * take, own, r / 12.0,
        higher.bit_count() / 12.0, (unseen & in_suit & below(card)).bit_count() / 12.0, master,
        my_len / 13.0, n_unseen / 13.0, 1.0 if my_len == 1.0 else 0.0, off, off * own,
        lead * sum(void(j, s) for j in range(4) if j != me) / 3.0, wins * t / 12.0, r * t / 144.0,
        is_trump, is_trump * wins, 1.0 if contract == BARBU and card == KING_OF_HEARTS else 0.0,
        lead if contract == BARBU and s == HEARTS and unseen >> KING_OF_HEARTS & 1 else 0.0, k * r / 36.0,
        lead * master, (hand & in_suit & above(card)).bit_count() / 12.0,
        1.0 if card == lowest(legal & in_suit) else 0.0, 1.0 if card == highest(legal & in_suit) else 0.0,
        is_trump if f(S_DECLARER) == me else 0.0, lead * my_len / 13.0, lead * n_unseen / 13.0,
        sum(void(j, led) for j in later) / 3.0,
    ]
    my_trumps = (hand & suit_bits(trump)).bit_count() / 13.0 if trump >= 0 else 0.0
    out_trumps = (unseen & suit_bits(trump)).bit_count() / 13.0 if trump >= 0 else 0.0
    x += [is_trump * my_trumps, is_trump * out_trumps, lead * (1.0 - is_trump) * out_trumps]
    x += [wins * (3 - k) / 3.0, r / 12.0 if t >= 10 else 0.0, masters.bit_count() / 13.0,
          (hand & in_suit & below(card)).bit_count() / 12.0, off * r / 12.0]
    x.append(points(contract, 0, unseen & in_suit, state) / 10.0
             if contract not in (TRUMPS, NO_TRICKS, NO_LAST_TWO) else 0.0)
    may_ruff = sum(void(j, led) and not void(j, trump) for j in later) / 3.0 if trump >= 0 else 0.0
    others_out = is_trump * sum(void(j, trump) for j in range(4) if j != me) / 3.0 if trump >= 0 else 0.0
    x += [may_ruff, others_out]
    assert len(x) == N_FEATURES
    return x


def domino_features(card, legal, hand, state, heur):
    """One card's Domino features, as the feature list defines them (slots: features.DOMINO_FIELDS)."""
    me, start, played = int(state[S_SEAT]), int(state[S_PARAM]), int(state[S_PLAYED])
    ace_low = int(state[S_RULES + R_DOMINO_ACE]) == 1
    unseen = ~hand & ~played & ALL
    passed = 0
    for j in range(4):
        if j != me:
            passed |= int(state[S_NOT_HELD + j])

    def place_of(rank_or_card):  # its place in column order: the ace below the 2 when it is low
        return (rank_or_card % 13 + 1) % 13 if ace_low else rank_or_card % 13
    place, start_place = place_of(card), place_of(start)
    # the way the column grows from this card, by place: up above the start, down below it, both at the start
    ways = [w for w in (1, -1) if (place - start_place) * w >= 0]
    suit_cards = range(card - card % 13, card - card % 13 + 13)
    beyond = sum(1 << c for c in suit_cards if any((place_of(c) - place) * w > 0 for w in ways))
    nxt = sum(1 << c for c in suit_cards if any(place_of(c) - place == w for w in ways))
    mine_beyond = beyond & hand
    gap = 0
    if mine_beyond and len(ways) == 1:
        up = ways[0] == 1  # the seat's nearest card that way, by card index as the kernels take it
        nearest = lowest(mine_beyond) if up else highest(mine_beyond)
        gap = (beyond & ~(above(nearest) if up else below(nearest)) & ~(1 << nearest) & unseen).bit_count()
    suit = suit_bits(card // 13)
    x = [1.0 if card == heur else 0.0, 1.0 if place == start_place else 0.0, mine_beyond.bit_count() / 12.0,
         (beyond & unseen).bit_count() / 12.0, 1.0 if nxt & hand else 0.0, float((nxt & unseen).bit_count()),
         abs(place - start_place) / 12.0, float((nxt & hand & ~legal).bit_count()), gap / 12.0,
         1.0 if beyond == 0 else 0.0, (hand & suit).bit_count() / 13.0, (unseen & suit).bit_count() / 13.0,
         1.0 if nxt & unseen & passed else 0.0]
    return x + [0.0] * (N_FEATURES - len(x))


def reference_features(pos, legal):
    """The (cards, N_FEATURES) float32 features of the legal cards, lowest card first."""
    hand = int(pos.hands[pos.seat])
    heur = int(heuristic_strategy(np.uint64(legal), np.uint64(hand), pos.state, pos.rng))
    fill = domino_features if pos.contract == DOMINO else trick_features
    return np.array([fill(c, legal, hand, pos.state, heur) for c in cards_of(legal)], np.float64).astype(np.float32)


def reference_values(row, x):
    """The network's value of each row of ``x``, in float32, its sums in the one order the player defines."""
    h, tree = int(row[0]) % TREE_OUTPUT, int(row[0]) >= TREE_OUTPUT
    units = np.tile(row[W_BIAS:W_BIAS + h], (len(x), 1))
    v = np.zeros(len(x), np.float32)
    nonzero = x != 0  # a zero feature adds nothing (the kernels skip it)
    for i in np.flatnonzero(nonzero.any(axis=0)):  # in order, the features nonzero on some row
        xi, live = x[:, i], nonzero[:, i]
        v = np.where(live, v + row[W_LINEAR + i] * xi, v)
        units = np.where(live[:, None],
                         units + row[W_INPUT + i * MAX_HIDDEN:W_INPUT + i * MAX_HIDDEN + h] * xi[:, None], units)
    if not tree:  # the output layer in order, unit after unit
        for j in range(h):
            v = np.where(units[:, j] > 0, v + row[W_OUTPUT + j] * units[:, j], v)
        return v
    # As a tree: 16 units at a time (those past H are 0), each block's products added as a tree of halves.
    units = np.concatenate([units, np.zeros((len(x), MAX_HIDDEN - h), np.float32)], axis=1)
    out = None
    for block in range(0, max(h, 1), 16):  # a linear model (H = 0) adds a block of zeros, as the kernels do
        terms = np.where(units[:, block:block + 16] > 0, units[:, block:block + 16], np.float32(0)) \
            * row[W_OUTPUT + block:W_OUTPUT + block + 16]
        while terms.shape[1] > 1:
            half = terms.shape[1] // 2
            terms = terms[:, :half] + terms[:, half:]
        out = terms[:, 0] if out is None else out + terms[:, 0]
    return v + out


def reference_card(pos, legal):
    """The card the learned player plays: the highest value, the lowest card on a tie; a forced card at once."""
    if legal.bit_count() == 1:
        return lowest(legal)
    values = reference_values(model_array()[pos.contract], reference_features(pos, legal))
    return cards_of(legal)[int(np.argmax(values))]


def _configs():
    """Every contract, under the default rules and under presets that move its point values or its columns."""
    for contract in range(7):
        yield contract, "default"
    for contract, preset in ((NO_HEARTS, "high-hearts-4"), (NO_LAST_TWO, "last-two-12"), (BARBU, "strict-barbu"),
                             (TRUMPS, "overtrump"), (DOMINO, "domino-ace-low"), (NO_QUEENS, "positive-penalties")):
        yield contract, preset


@pytest.mark.parametrize(("contract", "preset"), list(_configs()))
def test_the_kernels_play_every_card_of_the_reference(contract, preset):
    deals = 120 if preset == "default" else 30
    rules = PRESETS[preset]
    checked = 0
    for i in range(deals):
        hands, declarer = random_deal(41, i), i % 4
        param = i % 4 if contract == TRUMPS else i % 13 if contract == DOMINO else 0
        result = play_deal(hands, contract, "learned", param=param, declarer=declarer, rules=rules, seed=41, index=i)
        pos = Position(hands, contract, param, declarer, rules=rules, seed=41, index=i)
        for play, (seat, card) in enumerate(zip(result.seats.tolist(), result.cards.tolist())):
            if card == PASS:
                pos.pass_turn()
                continue
            legal = int(pos.legal())
            want = reference_card(pos, legal)
            assert card == want, f"deal {i}, play {play} (seat {seat}): the kernels played {card}, the reference {want}"
            checked += legal.bit_count() > 1
            pos.play(card)
        assert pos.scores.tolist() == result.scores.tolist()
    assert checked >= deals * 20


@pytest.mark.parametrize("contract", range(7))
def test_where_the_lowest_total_wins_learned_plays_the_default_games_cards(contract):
    """positive-penalties is the default game with every sign turned over: the features read the points signed
    for the seat, so the learned player plays the same cards, and every score is the default's turned over."""
    lowest = PRESETS["positive-penalties"]
    plays = 0
    for i in range(25):
        hands, declarer = random_deal(47, i), i % 4
        param = i % 4 if contract == TRUMPS else i % 13 if contract == DOMINO else 0
        default = play_deal(hands, contract, "learned", param=param, declarer=declarer, seed=47, index=i)
        turned = play_deal(hands, contract, "learned", param=param, declarer=declarer, rules=lowest, seed=47, index=i)
        assert turned.cards.tolist() == default.cards.tolist(), f"deal {i}"
        assert turned.scores.tolist() == (-default.scores).tolist()
        plays += len(default.cards)
    assert plays >= 25 * 20  # Barbu stops when the K♥ falls


@pytest.mark.parametrize("contract", range(7))
def test_the_feature_functions_give_the_reference_features(contract):
    """The functions the training data reads (one card at a time) agree with the reference to the bit."""
    rules = Rules() if contract != DOMINO else PRESETS["domino-ace-low"]
    pos = Position(random_deal(43, contract), contract, 1 if contract in (TRUMPS, DOMINO) else 0, 2, rules=rules)
    fill = domino_card_features if contract == DOMINO else trick_card_features
    compared = 0
    while not pos.over:
        if pos.must_pass():
            pos.pass_turn()
            continue
        legal = pos.legal()
        want = reference_features(pos, int(legal))
        hand = np.uint64(pos.hands[pos.seat])
        heur = heuristic_strategy(np.uint64(legal), hand, pos.state, pos.rng)
        for n, c in enumerate(cards_of(legal)):
            got = np.full(N_FEATURES, np.nan, np.float32)  # every slot must be written
            fill(np.int64(c), np.uint64(legal), hand, pos.state, np.int64(heur), got)
            assert np.array_equal(got.view(np.uint32), want[n].view(np.uint32)), (pos.trick_no, c)
            compared += 1
        pos.play(cards_of(legal)[0])
    assert compared >= 20


@pytest.mark.parametrize("tree", [False, True])
def test_the_network_gives_the_reference_values_at_every_width(tree):
    """Random rows of every width (a linear model, one block of units, part of a second, both), summed in order or
    as a tree: the compiled network gives the reference's float32 value for random sparse feature vectors."""
    from barbu_sim.barbu.players.learned import MODEL_WIDTH, predict
    rng = np.random.default_rng(5)
    units, nonzero = np.zeros(MAX_HIDDEN, np.float32), np.zeros(N_FEATURES, np.int32)
    for h in (0, 1, 5, 16, 17, 31, 32):
        row = np.zeros(MODEL_WIDTH, np.float32)
        row[0] = h + (TREE_OUTPUT if tree else 0)
        row[W_LINEAR:W_LINEAR + N_FEATURES] = rng.normal(size=N_FEATURES)
        for i in range(N_FEATURES):
            row[W_INPUT + i * MAX_HIDDEN:W_INPUT + i * MAX_HIDDEN + h] = rng.normal(size=h)
        row[W_BIAS:W_BIAS + h] = rng.normal(size=h)
        row[W_OUTPUT:W_OUTPUT + h] = rng.normal(size=h)
        x = (rng.normal(size=(50, N_FEATURES)) * (rng.random((50, N_FEATURES)) < 0.3)).astype(np.float32)
        got = np.array([predict(row, xc, units, nonzero) for xc in x], np.float32)
        assert (got == reference_values(row, x)).all(), (h, tree)


def test_the_kernels_network_gives_the_reference_values():
    """The compiled network (vector sums over the nonzero features) gives each card the reference's float32 value."""
    from barbu_sim.barbu.players.learned import predict
    units, nonzero = np.zeros(MAX_HIDDEN, np.float32), np.zeros(N_FEATURES, np.int32)
    compared = 0
    # The packaged model sums its output layer as a tree, learned1 in order: both arithmetics are checked.
    assert (model_array()[:7, 0] >= TREE_OUTPUT).all() and (model_array()[7:14, 0] < TREE_OUTPUT).all()
    for slot in (0, 1):
        for contract in range(7):
            row = model_array()[slot * 7 + contract]
            pos = Position(random_deal(47, contract), contract, 3 if contract in (TRUMPS, DOMINO) else 0, 1)
            while not pos.over:
                if pos.must_pass():
                    pos.pass_turn()
                    continue
                legal = int(pos.legal())
                x = reference_features(pos, legal)
                want = reference_values(row, x)
                got = np.array([predict(row, xc, units, nonzero) for xc in x], np.float32)
                assert (got == want).all(), (slot, contract, pos.trick_no, got, want)  # equal (a zero's sign aside)
                compared += len(x)
                pos.play(cards_of(legal)[-1])
    assert compared >= 2 * 7 * 20


def test_play_and_run_seat_learned_where_the_lowest_total_wins(tmp_path):
    from cli_checks import invoke
    result = invoke("play", "-c", "no-queens", "--strategy", "learned", "--rules", "positive-penalties", "--seed", "3")
    assert result.exit_code == 0, result.output
    default = invoke("play", "-c", "no-queens", "--strategy", "learned", "--seed", "3")
    def tricks(output):  # each trick's cards and winner (the points differ: their signs are turned over)
        return [line.partition("+")[0].partition("-")[0] for line in output.splitlines()
                if line.lstrip().startswith("Trick")]
    assert len(tricks(result.output)) >= 5 and tricks(result.output) == tricks(default.output)
    assert "-6" in default.output and "+6" in result.output
    out = tmp_path / "run"
    result = invoke("run", "-n", "40", "--seat-strategy", "N=learned", "--rules", "positive-penalties", "--out", out)
    assert result.exit_code == 0, result.output
    assert (out / "manifest.json").exists()
