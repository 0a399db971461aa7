"""Played-deal files, the position they replay through, and review: checked against the engine."""

import json

import numpy as np
import pytest
from cli_checks import assert_clean_error, invoke
from shared_deals import EXAMPLE  # West takes South's 6H trick with K♥: see shared_deals

from barbu_sim.barbu.api import play_deal
from barbu_sim.barbu.engine.deals import random_deal
from barbu_sim.barbu.players.learned import model_array
from barbu_sim.barbu.state import PASS
from barbu_sim.barbu.players.mc.player import mc_choose
from barbu_sim.barbu.formats.deal_file import PlayedDeal, format_played_deal, parse_played_deals, read_played_deals
from barbu_sim.barbu.position import IllegalCard, Position
from barbu_sim.barbu.review.review import review_deal
from barbu_sim.barbu.rules import PRESETS, Rules
from barbu_sim.barbu.table.deal import Bot
from barbu_sim.core.cards import cards_of, parse_card

PARAMS = {5: 2, 6: 5}  # trumps hearts, dominoes from 7


def _write(tmp_path, text, name="deal.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("rules", [Rules(), PRESETS["strict-barbu"], Rules(trumps_overtrump=True, trumps_void="free"),
                                   PRESETS["high-hearts-4-last-two-12"], PRESETS["positive-penalties"],
                                   PRESETS["open-leads"], PRESETS["domino-ace-low"], PRESETS["domino-from-7"]],
                         ids=["default", "strict-barbu", "overtrump-free", "scoring", "positive", "open-leads",
                              "domino-ace-low", "domino-from-7"])
def test_position_plays_as_the_engine_card_by_card(rules):
    specs = ["heuristic", "random", "basic", "lowest"]
    bots = [Bot(s) for s in specs]
    for contract in range(7):
        for i in range(3):
            hands, declarer, param = random_deal(11, i), (contract + i) % 4, PARAMS.get(contract, 0)
            result = play_deal(hands, contract, specs, param=param, declarer=declarer, rules=rules, seed=11, index=i)
            pos = Position(hands, contract, param, declarer, rules, seed=11, index=i)
            for seat, card in zip(result.seats.tolist(), result.cards.tolist()):
                assert pos.seat == seat
                if card == PASS:
                    assert pos.must_pass()
                    pos.pass_turn()
                    continue
                legal = int(pos.legal())
                for other in cards_of(pos.hands[seat]):  # every held card the rules forbid is refused
                    if not legal >> other & 1:
                        with pytest.raises(IllegalCard, match="may not play") as refused:
                            pos.check(other)
                        assert_reason_holds(pos, other, str(refused.value))
                assert bots[seat].choose(pos) == card  # the bots see what the engine's strategies see
                pos.play(card)
            assert pos.over
            assert pos.scores.tolist() == result.scores.tolist()
            assert pos.trick_winners == result.trick_winners.tolist()


def assert_reason_holds(pos, card, message):
    """The rule a refusal names is the one that applies: what it says of the hand and the trick is true."""
    hand = cards_of(pos.hands[pos.seat])
    trick = [c for _, c in pos.trick_so_far()]
    led = trick[0] // 13 if trick else None
    suits = {c // 13 for c in hand}
    if "follow suit" in message:
        assert led in suits and card // 13 != led
    elif "play a trump" in message:
        assert led not in suits and pos.param in suits and card // 13 != pos.param
    elif "trumps-overtrump" in message:
        top = max(c for c in trick if c // 13 == pos.param)
        assert card // 13 == pos.param and any(c // 13 == pos.param and c > top for c in hand) and card < top
    elif "K♥ may not be led" in message:
        assert not trick and card == parse_card("KH") and len(hand) > 1
    elif "heart may not be led" in message:
        assert not trick and card // 13 == 2 and suits != {2}
    elif "barbu-forced-discard" in message:
        assert led not in suits and parse_card("KH") in hand and card != parse_card("KH")
    else:
        assert pos.domino and "Domino" in message, message


def test_position_keeps_the_state_mc_reads_as_the_engine_does():
    # Every mc decision made on the position equals the engine's: same card, same estimates, so the
    # state arrays agree in all mc reads (cards shown not held, voids, the trick, the rng).
    for contract, index in ((4, 0), (5, 1), (6, 2)):
        hands, param = random_deal(5, index), PARAMS.get(contract, 0)
        result = play_deal(hands, contract, "mc:samples=4", param=param, declarer=1, seed=5, index=index, explain=True)
        pos = Position(hands, contract, param, 1, seed=5, index=index)
        explain = np.zeros((2, result.explain.shape[1]), np.float64)
        rows = []
        for card in result.cards.tolist():
            if card == PASS:
                pos.pass_turn()
                continue
            explain[:] = 0  # a fresh buffer for each decision, as the engine's rows are
            sid = np.int64(Bot("mc:samples=4").strategy.builtin_id)
            mine = mc_choose(sid, np.uint64(pos.legal()), np.uint64(pos.hands[pos.seat]), pos.state, pos.rng, explain,
                             model_array())  # mc's rollouts are learned's: they read the model
            assert mine == card
            if explain[0, 0]:
                rows.append(explain[1].copy())
            pos.play(card)
        assert len(rows) == len(result.explain) > 5
        np.testing.assert_array_equal(np.array(rows), result.explain)


def test_a_played_deal_file_round_trips_every_contract():
    for contract in range(7):
        hands, param = random_deal(2, contract), PARAMS.get(contract, 0)
        rules = Rules(trumps_overtrump=True)
        result = play_deal(hands, contract, "random", param=param, declarer=3, rules=rules, seed=2, index=contract)
        deal = PlayedDeal(hands, contract, param, 3, rules, list(zip(result.seats.tolist(), result.cards.tolist())),
                          seed=2, index=contract)
        back = parse_played_deals(format_played_deal(deal))
        assert len(back) == 1
        assert back[0].plays == deal.plays and back[0].rules == rules and back[0].param == param
        assert back[0].replay().scores.tolist() == result.scores.tolist()


@pytest.mark.parametrize("text, needles", [
    (EXAMPLE.replace("5H 2H 6H KH", "5H 3C"), ["line 5", "2nd play (East)", "a heart is held: follow suit"]),
    (EXAMPLE.replace("5H 2H 6H KH", "5H 2H 6H KH AS"), ["after the hand is over", "K♥ has been won"]),
    (EXAMPLE.replace("5H 2H 6H KH", "5H 2H 6H"), ["stops after 3 cards", "unfinished: yes"]),
    (EXAMPLE.replace("5H 2H 6H KH", "5H 2H 6H 3H 5H"), ["5H was already played, by North"]),
    (EXAMPLE.replace("5H 2H 6H KH", "5H 2H 6H 3H AH"), ["South does not hold AH (West does)"]),
    (EXAMPLE.replace("5H 2H 6H KH", "5H 2H 6H AH\nKH"), ["line 6", "K♥ may not be led while holding another card"]),
    (EXAMPLE.replace("barbu", "no-hearts"), ["a heart may not be led while holding a card of another suit"]),
    (EXAMPLE + "unfinished: yes\n", ["marked 'unfinished: yes' but the hand is over"]),
    (EXAMPLE.replace("2.5.AKQJT987654.", "2.5.AKQJT98765.").replace(".32.2", ".432.2"),
     ["line 3", "North's hand has 12 cards, not 13"]),
    (EXAMPLE.replace("6H KH", "6H KX"), ["unknown suit in card 'KX'"]),
    (EXAMPLE.replace("5H 2H 6H KH", "5H W:2H"), ["marked W but East is to play"]),
    (EXAMPLE.replace("declarer: N", "declarer: N\nplayer: E"), ["line 3", "is not 'NAME: value'"]),
    (EXAMPLE.replace("declarer: N\n", ""), ["no 'declarer:' line"]),
    (EXAMPLE.replace("contract: barbu", "contract: trumps"), ["needs a 'trump:' line"]),
    ("# nothing here\n", ["no deal in it"]),
])
def test_impossible_records_are_refused_in_one_line(tmp_path, text, needles):
    result = invoke("review", _write(tmp_path, text), "--samples", 2)
    assert_clean_error(result, *needles)


TRUMPS_DEAL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT9876543.5 ..2.AKQJT9876432"


@pytest.mark.parametrize("option, play, needle", [
    ("", "AS 2H 3D",
     "South may not play 3D: void in spades and holding a trump: play a trump (trumps-void must-trump)"),
    ("", "AS 2H 5C 2D", "West may not play 2D: void in spades and holding a trump"),
    ("option: trumps-overtrump=on\n", "AS 2H 5C 3C", "a trump above 5C is held and must be played"),
])
def test_trumps_rules_are_named_when_broken(option, play, needle):
    text = f"contract: trumps\ntrump: C\ndeclarer: N\n{option}deal: {TRUMPS_DEAL}\nplay:\n{play}\n"
    with pytest.raises(ValueError, match=needle.replace("(", ".").replace(")", ".")):
        parse_played_deals(text)
    assert parse_played_deals(text.replace("play:\n", "unfinished: yes\nplay:\n").rsplit(" ", 1)[0] + "\n")


def test_a_domino_pass_only_where_the_seat_cannot_play():
    hands, param = random_deal(4, 0), 5
    result = play_deal(hands, 6, "heuristic", param=param, declarer=0, seed=4)
    deal = PlayedDeal(hands, 6, param, 0, Rules(), list(zip(result.seats.tolist(), result.cards.tolist())))
    text = format_played_deal(deal)
    assert PASS in result.cards.tolist() and " - " in text
    # passes may be left out (a seat that cannot play must pass); a pass where a card can be played is refused
    assert parse_played_deals(text.replace(" - ", "   "))[0].plays == deal.plays
    with pytest.raises(ValueError, match="may not pass: North can play"):
        parse_played_deals(text.replace("play:\n", "play:\n- "))


def test_review_finds_the_blunder_of_the_typed_example(tmp_path):
    path = _write(tmp_path, EXAMPLE)
    result = invoke("review", path, "--samples", 16)
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.output.splitlines()) <= 100
    assert "West   trick  1  plays  KH   best  3H, loses 20.00±0.00  BLUNDER" in result.output
    data = json.loads(invoke("review", path, "--samples", 16, "--json").output)[0]  # a list, one entry per deal
    west = [d for d in data["decisions"] if d["seat"] == "W"]
    assert len(west) == 1 and west[0]["card"] == "KH" and west[0]["label"] == "blunder" and west[0]["counts"]
    kh = next(e for e in west[0]["estimates"] if e["card"] == "KH")
    assert kh["mean"] == -20 and kh["se"] == 0  # last to play, West's K♥ wins this trick whatever the layout
    assert west[0]["loss"] >= data["labels"]["blunder"] == 5 and data["seats"]["W"]["labels"]["blunder"] == 1
    assert data["scores"] == {"N": 0, "E": 0, "S": 0, "W": -20}
    assert data["seats"]["E"] == {"decisions": 0, "forced_plays": 1, "points_lost": 0, "accuracy": None,
                                  "labels": {"blunder": 0, "mistake": 0, "inaccuracy": 0}}
    assert data["seats"]["W"]["accuracy"] == 0.0
    only = json.loads(invoke("review", path, "--samples", 16, "--json", "--seat", "W").output)[0]
    assert [d["seat"] for d in only["decisions"]] == ["W"] and list(only["seats"]) == ["W"]
    assert only["decisions"][0] == west[0]  # the same layouts: a seat's estimates do not depend on the others


def test_review_is_reproducible_and_never_peeks():
    deal = parse_played_deals(EXAMPLE)[0]
    first = review_deal(deal, [0], samples=8, seed=3)
    assert [(d.card, d.estimates) for d in first.decisions] == \
        [(d.card, d.estimates) for d in review_deal(deal, [0], samples=8, seed=3).decisions]
    # North's opening lead, with the other 39 cards dealt otherwise: the same estimates, card for card
    rest = [c for c in range(52) if not int(deal.hands[0]) >> c & 1]
    hands = np.array([deal.hands[0]] + [np.uint64(sum(1 << c for c in rest[13 * k:13 * k + 13])) for k in range(3)],
                     np.uint64)
    assert not np.array_equal(hands, deal.hands)
    moved = PlayedDeal(hands, deal.contract, 0, 0, plays=[(0, parse_card("5H"))], unfinished=True)
    assert review_deal(moved, [0], samples=8, seed=3).decisions[0].estimates == first.decisions[0].estimates


def test_play_record_writes_what_review_reads(tmp_path):
    path = tmp_path / "deal.txt"
    result = invoke("play", "-c", "trumps", "--trump", "S", "--seed", 2, "--seat-strategy", "E=random",
                    "--record", path)
    assert result.exit_code == 0, result.output
    deal = read_played_deals(path)[0]
    engine = play_deal(random_deal(2, 0), 5, ["heuristic", "random", "heuristic", "heuristic"], param=3, seed=2)
    assert deal.plays == list(zip(engine.seats.tolist(), engine.cards.tolist()))
    assert deal.replay().scores.tolist() == engine.scores.tolist()
    out = invoke("review", path, "--seat", "E", "--samples", 4)
    assert out.exit_code == 0, out.output
    body = out.output.split("\n\n")[1]  # the decisions: East's only (the positions shown name the others)
    heads = [line for line in body.splitlines() if not line.startswith(" ")]
    assert len(heads) >= 5 and all(line.startswith("East ") for line in heads)


@pytest.mark.parametrize("preset", ["high-hearts-4-last-two-12", "positive-penalties", "open-leads", "domino-ace-low",
                                    "domino-from-7", "strict-barbu"])
def test_the_rules_in_force_travel_with_the_file(preset):
    rules = PRESETS[preset]
    hands = random_deal(6, 1)
    for contract in (3, 4, 6):
        result = play_deal(hands, contract, "heuristic", param=PARAMS.get(contract, 0), declarer=2, rules=rules)
        deal = PlayedDeal(hands, contract, PARAMS.get(contract, 0), 2, rules,
                          list(zip(result.seats.tolist(), result.cards.tolist())))
        back = parse_played_deals(format_played_deal(deal))[0]
        assert back.rules == rules
        assert back.replay().scores.tolist() == result.scores.tolist()


PBN = """% the example in PBN: the play section's columns start from the [Play] seat, whoever led
[Event "club night"]
[Deal "N:2.5.AKQJT987654. .2..AKQJT9876543 AKQJT9876543.6.. .AKQJT98743.32.2"]
[Declarer "N"]
[Contract "barbu"]
[Play "N"]
H5 H2 H6 H3 {South wins: it leads the second trick}
S2 C3 SA HK
*
"""


def test_a_pbn_play_section_is_read_trick_by_trick():
    deal = parse_played_deals(PBN)[0]
    typed = parse_played_deals(EXAMPLE.replace("5H 2H 6H KH", "5H 2H 6H 3H\nSA KH 2S 3C"))[0]
    assert deal.plays == typed.plays and (deal.hands == typed.hands).all()
    assert [s for s, _ in deal.plays[4:]] == [2, 3, 0, 1]  # the second trick from its leader, South
    assert deal.replay().scores.tolist() == [0, 0, -20, 0]


@pytest.mark.parametrize("change, needle", [
    (("S2 C3 SA HK", "S2 C3 HK SA"), "line 8, 5th play (South): South does not hold KH (West does)"),
    (("S2 C3 SA HK", "S2 C3 SA"), "line 8: a PBN trick has four columns"),
    (('[Play "N"]', '[Play "E"]'), 'line 6: the declarer leads in Barbu: [Play "E"] is not the declarer'),
    (('"barbu"', '"domino 7"'), "PBN's play section holds tricks"),
    (('[Contract "barbu"]\n', ""), "a PBN game needs the [Contract] tag"),
])
def test_pbn_errors_name_the_line(change, needle):
    with pytest.raises(ValueError) as e:
        parse_played_deals(PBN.replace(*change), "g.pbn")
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_where_the_lowest_total_wins_the_best_card_is_the_lowest():
    deal = parse_played_deals("rules: positive-penalties\n" + EXAMPLE)[0]
    assert deal.rules.lower_is_better and deal.replay().scores.tolist() == [0, 0, 0, 20]
    west = [d for d in review_deal(deal, [3], samples=8).decisions]
    assert len(west) == 1 and west[0].best == parse_card("3H") and west[0].label == "blunder"
    assert west[0].loss == pytest.approx(20) and west[0].estimates[-1][:2] == (parse_card("KH"), 20.0)
