"""The review as one self-contained web page: its data, its safety, and the page in a real browser.

The browser test runs headless Chromium through Playwright (tests/shared_browser.py) and skips, saying why,
where either is missing (``pip install -e ".[browser]"`` and a Chromium, e.g. Debian's ``chromium``).
"""

import json
import re
from html.parser import HTMLParser

import pytest
from shared_browser import assert_clean, browser, open_page as _open  # noqa: F401  (browser: the fixture)

from barbu_sim.barbu.formats.deal_file import parse_played_deals
from barbu_sim.barbu.review.review import review_deal
from barbu_sim.barbu.review.page import review_html, review_page_data, write_review_html
from barbu_sim.core.cards import parse_card
from barbu_sim.core.files import OutputError

# The deals of the golden playthroughs no-tricks.txt and domino.txt, as played-deal files.
NO_TRICKS = """contract: no-tricks
declarer: N
deal: N:Q.QT976.K97642.7 KT43.K4.JT83.AT9 972.J52.AQ.QJ654 AJ865.A83.5.K832
play:
7C 9C 6C 8C
4H 2H 3H QH
6H KH JH 8H
3D QD 5D 9D
5H AH 10H AC
2C KD 10C 5C
8D AD AS 7D
4C 3C QS KS
2S 5S 9H 4S
6S 7H 3S 9S
7S 8S 6D 10S
10D QC KC 4D
JD JC JS 2D
"""
DOMINO = """contract: domino
domino-rank: 8
declarer: N
deal: N:AK8.T86.KT643.52 J95.AQ.9852.9864 T32.J97.QJ7.AKJ7 Q764.K5432.A.QT3
play:
8H 8C 9H - 10H 9C JH 10C   8S QH JC 7S - 9S 10S KH   - AH 7C QC - 6C KC 6S
5C 4C AC 3C 2C 5S 7H 4S   6H JS 3S 5H - 8D 2S 4H   - 9D 7D 3H 6D 5D - 2H
4D - - QS KS - - -   AS - - - 3D 2D - -   10D JD - - QD - KD
"""


@pytest.fixture(scope="module")
def reviews():
    """South's decisions in both deals, on few layouts (the page shows whatever the numbers are)."""
    return {name: review_deal(parse_played_deals(text)[0], seats=[2], samples=4)
            for name, text in (("no-tricks", NO_TRICKS), ("domino", DOMINO))}


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text of each ``<script>`` and ``<title>``."""

    def __init__(self):
        super().__init__()
        self.tags, self.texts, self._open = [], {}, None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in ("script", "title"):
            self._open = (tag, dict(attrs).get("id") or dict(attrs).get("type") or tag)
            self.texts[self._open] = ""

    def handle_endtag(self, tag):
        self._open = None

    def handle_data(self, data):
        if self._open:
            self.texts[self._open] += data


def _parse(page: str) -> Elements:
    parser = Elements()
    parser.feed(page)
    parser.close()
    return parser


def _embedded(page: str) -> dict:
    return json.loads(_parse(page).texts[("script", "review-data")])


def test_the_page_is_self_contained_and_holds_every_decision(reviews):
    review = reviews["no-tricks"]
    page = review_html(review)
    found = _parse(page)
    # nothing is fetched: no source, link or style from elsewhere, not even protocol-relative
    for tag, attrs in found.tags:
        for key in ("src", "href", "data", "srcset", "action"):
            assert key not in attrs or not re.match(r"\s*(https?:)?//", attrs[key]), (tag, attrs)
    assert not re.search(r"(src|href)\s*=\s*[\"']?\s*(https?:)?//", page)
    assert not re.search(r"@import|url\(|@font-face", page)
    assert [t for t, _ in found.tags].count("script") == 2 and ("link", {}) not in found.tags
    data = _embedded(page)
    assert len(review.decisions) >= 5 and len(data["decisions"]) == len(review.decisions)
    for shown, d in zip(data["decisions"], review.decisions):
        assert shown["play"] == d.play_no + 1 and shown["seat"] == "S" and shown["trick"] == d.trick
        assert parse_card(shown["card"]) == d.card and parse_card(shown["best"]) == d.best
        assert [(parse_card(e["card"]), e["mean"], e["se"]) for e in shown["estimates"]] == \
            [(c, round(m, 3), round(s, 3)) for c, m, s in d.estimates]
    assert data["scores"] == {"N": -2, "E": -12, "S": -8, "W": -4} and not data["unfinished"]
    assert sorted(parse_card(c) for hand in data["hands"].values() for c in hand) == list(range(52))
    assert set(data["hands"]["N"]) == {"QS", "QH", "TH", "9H", "7H", "6H", "KD", "9D", "7D", "6D", "4D", "2D", "7C"}


def test_the_tricks_and_domino_turns_the_page_steps_through(reviews):
    plays = review_page_data(reviews["no-tricks"])["plays"]
    assert len(plays) == 52 and [p["trick"] for p in plays] == [t for t in range(1, 14) for _ in range(4)]
    winners = [p["winner"] for p in plays if p["winner"]]
    assert "".join(winners) == "ENESWESSWSEEE"  # as the golden playthrough reads
    assert all(p["points"] == -2 for p in plays if p["winner"]) and plays[-1]["scores"] == [-2, -12, -8, -4]
    assert plays[4]["seat"] == "E" and plays[4]["card"] == "4H"  # the winner of trick 1 leads trick 2

    domino = review_page_data(reviews["domino"])
    turns = domino["plays"]
    assert domino["domino"] and domino["heading"] == "Domino, starting at the eights"
    assert sum(p["card"] is None for p in turns) == 20 and all(p["trick"] is None for p in turns)
    assert [p["out"] for p in turns if p["out"]] == ["E", "S", "N"]  # finishing order: +45, +20, +5
    assert turns[-1]["scores"] == [5, 45, 20, -5]
    assert {d["play"] for d in domino["decisions"]} <= {i + 1 for i, p in enumerate(turns) if p["seat"] == "S"}


def test_a_title_cannot_break_out_of_the_page(reviews, tmp_path):
    review = reviews["no-tricks"]
    title = "</script><script>alert('x')</script> <!-- & \u2028 \"quoted\" </title> %DATA% %SCRIPT%"
    review.deal.title = title
    try:
        page = review_html(review)
    finally:
        review.deal.title = ""
    found = _parse(page)
    assert [t for t, _ in found.tags].count("script") == 2  # no script element came out of the title
    assert page.count("</script>") == 2 and "alert('x')</script>" not in page
    assert _embedded(page)["title"] == title
    assert not re.search("[<>&]", found.texts[("script", "review-data")])  # not even "<!--", which upsets a script
    assert found.texts[("title", "title")].startswith(title + " (Barbu review: No Tricks")
    path = write_review_html(review, tmp_path / "deal.html")
    assert path.read_text(encoding="utf-8") == review_html(review)
    with pytest.raises(OutputError, match="cannot write .*missing.*the review page"):
        write_review_html(review, tmp_path / "missing" / "deal.html")


def test_the_page_in_a_browser_steps_through_the_deal(browser, reviews, tmp_path):  # noqa: F811
    review = reviews["no-tricks"]
    path = write_review_html(review, tmp_path / "deal.html")
    page, errors, fetched = _open(browser, path)
    text = page.inner_text
    assert "No Tricks, declarer North" in text("header") and "East -12" in text("#final-scores")
    # South's view: its own hand; the others' hidden until the switch
    assert "13 cards hidden" in text(".seat.N") and "♥Q" not in text(".seat.N") and "♠9 7 2" in text(".seat.S")
    page.check("#show-all")
    north = text(".seat.N")
    assert "North" in north and "declarer" in north and "♥Q 10 9 7 6\n♦K 9 7 6 4 2\n♣7" in north  # the hands as dealt
    assert "Start: the hands as dealt (52 plays to come)" in text("#status")
    first = review.decisions[0]
    chips = page.locator("#decisions .chip")
    assert chips.count() == len(review.decisions) and chips.first.inner_text().startswith(f"S T{first.trick} ")

    page.keyboard.press("ArrowRight")
    assert text("#status") == "Play 1 of 52: North plays ♣7 (trick 1)"
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    assert "Trick 2: East led" in text("#trick-caption")
    assert page.locator("#table .trick .card").count() == 1 and text(".seat.E").endswith("♥K\n♦J 10 8 3\n♣A 10")
    assert page.locator("#record tr.now").get_attribute("data-trick") == "2"

    page.keyboard.press("Home")
    page.keyboard.press("PageDown")  # the first decision of South
    assert text("#status").startswith(f"Play {first.play_no + 1} of 52: South plays")
    assert text("#decision").startswith(f"South, trick {first.trick}, plays")
    rows = page.locator("#decision table.values tr[data-card]")
    assert rows.count() == len(first.estimates) and "played" in page.locator("tr.played").inner_text()
    for _ in range(first.play_no + 1, review.decisions[1].play_no + 1):
        page.keyboard.press("ArrowRight")
    assert text("#decision").startswith(f"South, trick {review.decisions[1].trick}, plays")
    page.keyboard.press("ArrowLeft")
    assert not page.locator("#decision table").count() and "Next decision: South" in text("#decision")
    assert page.evaluate("location.hash") == f"#play-{review.decisions[1].play_no}"

    page.keyboard.press("End")
    assert text("#result").split("\n") == ["Final scores", "North -2", "East -12", "South -8", "West -4"]
    assert page.locator("button[data-go=next]").is_disabled()
    assert all(t.endswith("—") for t in page.locator(".seat .suit").all_inner_texts())  # every hand played out
    shot = page.screenshot(path=str(tmp_path / "review.png"), full_page=True)
    assert shot[:8] == b"\x89PNG\r\n\x1a\n" and len(shot) > 10_000
    assert_clean(errors, fetched)

    page.click("button[data-go=start]")
    assert text("#status").startswith("Start")
    page.close()


def test_a_domino_page_in_a_browser_shows_the_layout(browser, reviews, tmp_path):  # noqa: F811
    path = write_review_html(reviews["domino"], tmp_path / "domino.html")
    page, errors, fetched = _open(browser, path)
    assert "Domino, starting at the eights" in page.inner_text("header")
    page.check("#show-all")
    assert page.locator(".layout .cell.on").count() == 0
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#trick-caption") == "Play 4: West passes"
    assert page.locator(".layout .cell.on").count() == 3  # ♥8, ♣8, ♥9 on the table
    page.keyboard.press("End")
    played = [p["card"] for p in review_page_data(reviews["domino"])["plays"] if p["card"]]
    assert page.locator(".layout .cell.on").all_inner_texts() != [] and \
        page.locator(".layout .cell.on").count() == len(played)  # every card played, West's last ones not
    assert "Out: East, South, North" in page.inner_text("#center")
    assert page.inner_text("#result").split("\n") == ["Final scores", "North +5", "East +45", "South +20", "West -5"]
    assert "out 1st" in page.inner_text(".seat.E") and "out" not in page.inner_text(".seat.W")
    assert_clean(errors, fetched)
    page.close()


def test_an_unfinished_deal_without_decisions_opens_where_its_address_says(browser, tmp_path):  # noqa: F811
    # North leads 5H, East (holding one heart) must follow with 2H, South plays 6H; West is yet to play.
    deal = parse_played_deals("contract: barbu\ndeclarer: N\nunfinished: yes\n"
                         "deal: N:2.5.AKQJT987654. .2..AKQJT9876543 AKQJT9876543.6.. .AKQJT98743.32.2\n"
                         "play:\n5H 2H 6H\n")[0]
    review = review_deal(deal, seats=[1], samples=4)
    assert review.decisions == [] and review.forced == {1: 1}
    path = write_review_html(review, tmp_path / "short.html")
    page = browser.new_page()
    page.goto(path.resolve().as_uri() + "#play-2")
    assert page.inner_text("#status") == "Play 2 of 3: East plays ♥2 (trick 1)"
    assert "No decision to review in this deal." in page.inner_text("#decision")
    assert page.locator("#decisions .chip").count() == 0
    page.keyboard.press("End")
    assert page.inner_text("#trick-caption") == "Trick 1: North led"
    assert page.inner_text("#result").split("\n") == ["The play stopped here; scores so far", "North +0", "East +0",
                                                       "South +0", "West +0"]
    assert "Scores so far (unfinished)" in page.inner_text("#final-scores")
    page.close()


def test_review_html_writes_a_page_per_deal_and_keeps_an_existing_one(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from barbu_sim.cli import app
    monkeypatch.chdir(tmp_path)
    (tmp_path / "deal.txt").write_text(NO_TRICKS)
    runner = CliRunner()
    args = ["review", "deal.txt", "--seat", "S", "--samples", "4", "--max-samples", "8"]
    result = runner.invoke(app, [*args, "--html", "deal.html"])
    assert result.exit_code == 0, result.output
    assert "The review as a web page: deal.html" in result.output
    data = _page_data(tmp_path / "deal.html")
    assert data["decisions"] and all(d["seat"] == "S" for d in data["decisions"])
    # an existing page is kept unless --force, and said before any work
    again = runner.invoke(app, [*args, "--html", "deal.html"])
    assert again.exit_code == 2 and "--html deal.html exists: give --force" in again.output
    assert runner.invoke(app, [*args, "--html", "deal.html", "--force"]).exit_code == 0
    # a file of two deals (a table session) gives a page per deal
    (tmp_path / "two.txt").write_text(NO_TRICKS + "---\n" + DOMINO)
    two = runner.invoke(app, ["review", "two.txt", "--seat", "S", "--samples", "4", "--max-samples", "8",
                              "--html", "session.html"])
    assert two.exit_code == 0, two.output
    assert _page_data(tmp_path / "session-1.html")["contract"] != _page_data(tmp_path / "session-2.html")["contract"]
    index = (tmp_path / "session.html").read_text()  # the index links both pages
    assert index.count('href="session-1.html"') == 1 and index.count('href="session-2.html"') == 1
    assert "The session's index: session.html" in two.output
    # --step walks at the terminal: the two do not go together
    both = runner.invoke(app, [*args, "--html", "x.html", "--step"])
    assert both.exit_code == 2 and "--step" in both.output and not (tmp_path / "x.html").exists()


def _page_data(path) -> dict:
    """The review data a page holds."""
    text = path.read_text()
    m = re.search(r'<script type="application/json" id="review-data">(.*?)</script>', text, re.S)
    assert m, f"no data in {path}"
    return json.loads(m.group(1))
