"""Played-deal, played-round and rules files at their edges: where a rules file is found, huge numbers,
a byte-order mark, a pipe, the review's JSON shape, doubles and hands, PBN tags and claims."""

import json
import subprocess
import sys

import pytest
from cli_checks import assert_clean_error, invoke
from shared_deals import EXAMPLE

from barbu_sim.barbu.formats.deal_file import PlayedDealError, parse_played_deals, parse_session, read_played_deals
from barbu_sim.barbu.rules import load_rules
from barbu_sim.clabber.formats.round_file import parse_rounds

CLABBER = """game: clabber
dealer: W
deal: N:AKQJT9... .AKQJT9.. ..AKQJT9. ...AKQJT9
turned: 9C
bidding: play
seed: 1
index: 0
unfinished: yes
play:
AS AH AD AC
"""
BIG = str(2 ** 64)


# ------------------------------------------------------------ 7: a rules file beside the played deal
def test_a_rules_file_is_read_from_the_played_deals_own_folder(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "house.toml").write_text("barbu-king = -30\n", encoding="utf-8")
    (tmp_path / "house.toml").write_text("barbu-king = -5\n", encoding="utf-8")  # a decoy where the user stands
    path = tmp_path / "sub" / "deal.txt"
    path.write_text("rules: house.toml\n" + EXAMPLE, encoding="utf-8")
    for where in (tmp_path, tmp_path / "sub", tmp_path.parent):
        monkeypatch.chdir(where)
        deal = read_played_deals(path)[0]
        assert deal.rules.barbu_king == -30 and deal.replay().scores.tolist() == [0, 0, 0, -30]
        out = invoke("review", path, "--samples", 2, "--json")
        assert out.exit_code == 0, out.output
        assert json.loads(out.output)[0]["scores"]["W"] == -30
    (tmp_path / "sub" / "house.toml").unlink()
    assert_clean_error(invoke("review", path, "--samples", 2), "house.toml")


# ------------------------------------------------------------ 12: numbers past 64 bits
@pytest.mark.parametrize("key", ["seed", "index"])
def test_a_seed_or_index_past_64_bits_is_refused_in_one_line(tmp_path, key):
    other = "index" if key == "seed" else "seed"
    text = f"{key}: {BIG}\n{other}: 1\n" + EXAMPLE
    with pytest.raises(PlayedDealError, match=f"line 1: {key}: {BIG} is too large"):
        parse_played_deals(text)
    assert parse_played_deals(text.replace(BIG, str(2 ** 64 - 1)))  # the largest 64-bit value is fine
    path = tmp_path / "deal.txt"
    path.write_text(text, encoding="utf-8")
    assert_clean_error(invoke("review", path, "--samples", 2), "too large")
    with pytest.raises(ValueError, match="too large"):
        parse_rounds(CLABBER.replace("seed: 1", f"{key}: {BIG}" if key == "seed" else "seed: 1")
                     .replace("index: 0", f"index: {BIG}" if key == "index" else "index: 0"), "r.txt", ValueError)
    clabber = tmp_path / "round.txt"
    clabber.write_text(CLABBER.replace("seed: 1", f"seed: {BIG}"), encoding="utf-8")
    assert_clean_error(invoke("review", clabber, "--samples", 2), "too large")


def test_a_saved_table_session_with_a_huge_seed_in_a_deal_is_refused():
    text = "table: seat=S length=deal\n---\n" + f"seed: {BIG}\nindex: 0\n" + EXAMPLE
    with pytest.raises(PlayedDealError, match="too large"):
        parse_session(text, "table.txt")


# ------------------------------------------------------------ 18: input formats
def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text("\ufeff" + EXAMPLE, encoding="utf-8")
    assert read_played_deals(path)[0].replay().scores.tolist() == [0, 0, 0, -20]
    assert invoke("review", path, "--samples", 2).exit_code == 0
    rules = tmp_path / "house.toml"
    rules.write_text("\ufeffbarbu-king = -30\n", encoding="utf-8")
    assert load_rules(str(rules)).barbu_king == -30
    clabber = tmp_path / "round.txt"
    clabber.write_text("\ufeff" + CLABBER, encoding="utf-8")
    out = invoke("review", clabber, "--samples", 2)
    assert out.exit_code == 0, out.output


def test_review_reads_its_file_once_so_a_pipe_works():
    out = subprocess.run([sys.executable, "-m", "barbu_sim", "review", "/dev/stdin", "--samples", "2", "--json"],
                         input=EXAMPLE, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)[0]["scores"]["W"] == -20


def test_review_json_is_a_list_whatever_the_number_of_deals(tmp_path):
    path = tmp_path / "deal.txt"
    path.write_text(EXAMPLE, encoding="utf-8")
    one = json.loads(invoke("review", path, "--samples", 2, "--json").output)
    path.write_text(EXAMPLE + "---\n" + EXAMPLE, encoding="utf-8")
    two = json.loads(invoke("review", path, "--samples", 2, "--json").output)
    assert isinstance(one, list) and len(one) == 1 and isinstance(two, list) and len(two) == 2
    assert one[0] == two[0] == two[1]


def test_a_wrong_seat_mark_is_named_once():
    with pytest.raises(PlayedDealError) as e:
        parse_played_deals(EXAMPLE.replace("5H 2H 6H KH", "5H W:2H"), "deal.txt")
    assert str(e.value) == "deal.txt line 5: W:2H is marked W but East is to play"


# ------------------------------------------------------------ 19: nonsense refused
@pytest.mark.parametrize("line, needle", [
    ("doubles: N>N", "N>N: a player cannot double themselves"),
    ("doubles: E>N E>N", "E>N is given twice"),
    ("hand: 99999", "hand: 99999 is not a hand of a game (1..28)"),
    ("hand: 0", "hand: 0 is not a hand of a game (1..28)"),
    ("seed: 1_000", "'1_000' is not a whole number"),
    ("seed: \u0661\u0662", "is not a whole number"),
])
def test_nonsense_in_a_played_deal_is_refused(line, needle):
    with pytest.raises(PlayedDealError) as e:
        parse_played_deals(line + "\n" + EXAMPLE)
    assert needle in str(e.value)


def test_doubles_follow_the_doubling_rules():
    trumps = EXAMPLE.replace("contract: barbu", "contract: trumps\ntrump: C")
    trumps = trumps.replace("5H 2H 6H KH", "").replace("play:", "unfinished: yes\nplay:")
    with pytest.raises(PlayedDealError, match="in trumps a player other than the declarer doubles only the declarer"):
        parse_played_deals("doubles: E>W\n" + trumps)
    with pytest.raises(PlayedDealError, match="the declarer, North, may only redouble a player who doubled North"):
        parse_played_deals("doubles: N>E\n" + EXAMPLE)
    assert parse_played_deals("doubles: E>N N>E W>S\n" + EXAMPLE)[0].doubles == [(1, 0), (0, 1), (3, 2)]
    assert parse_played_deals("hand: 28\n" + EXAMPLE)[0].hand_no == 27


# ------------------------------------------------------------ 20: PBN
PBN = """[Event "club night"]
[Deal "N:2.5.AKQJT987654. .2..AKQJT9876543 AKQJT9876543.6.. .AKQJT98743.32.2"]
[Declarer "N"]
[Contract "barbu"]
[Play "N"]
H5 H2 H6 H3
S2 C3 SA HK
*
"""


def test_a_pbn_play_section_that_stops_at_a_claim_is_read_as_unfinished():
    claimed = PBN.replace("S2 C3 SA HK\n", "")  # the rest claimed: PBN ends the section early with '*'
    deal = parse_played_deals(claimed, "g.pbn")[0]
    assert deal.unfinished and len(deal.plays) == 4
    part = parse_played_deals(PBN.replace("S2 C3 SA HK", "- - SA -"), "g.pbn")[0]  # South led, then the claim
    assert part.unfinished and len(part.plays) == 5
    assert not parse_played_deals(PBN, "g.pbn")[0].unfinished  # K♥ won: the hand is over


@pytest.mark.parametrize("change, needle", [
    (('[Declarer "N"]', '[Declarer "N"]\n[Declarer "E"]'),
     'g.pbn line 4: the [Declarer] tag is given twice in one game (first on line 3)'),
    (("*\n", '*\n[Play "N"]\nH5 H2 H6 H3\n*\n'), "g.pbn line 9: a second [Play] tag in one game (the first on line 5): "
                                                 "a game has one play section"),
])
def test_a_repeated_pbn_tag_is_refused(change, needle):
    with pytest.raises(PlayedDealError) as e:
        parse_played_deals(PBN.replace(*change), "g.pbn")
    assert str(e.value) == needle
    two = PBN + "\n" + PBN.replace("club night", "second game")
    assert len(parse_played_deals(two, "g.pbn")) == 2  # a new [Event] starts the next game
