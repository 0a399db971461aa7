"""The review page of a Clabber round, in headless Chromium as the Barbu page's tests: it opens, steps through
the calls and the cards, shows the bidding decisions with every option, a click on an option not chosen shows
its value against the best and the one chosen, the seat's view hides the other hands, the address keeps the
step, no console error, no network request.  Skips, saying why, without Playwright or a Chromium."""

import json
import re

import pytest
from shared_browser import assert_clean as _clean, browser, open_page as _open  # noqa: F401  (browser: the fixture)
from shared_deals import CLABBER_ENDGAME, CLABBER_ROUND as ROUND
from test_review_html import _parse

from barbu_sim.clabber.formats.round_file import parse_rounds
from barbu_sim.clabber.review.bidding import option_name, review_calls
from barbu_sim.clabber.review.page import _code, round_html, round_page_data, write_round_html
from barbu_sim.clabber.review.review import review_round
from barbu_sim.core.cards import format_card

SAMPLES = 6


@pytest.fixture(scope="module")
def south():
    """South's decisions, the calls and the cards, on few layouts (the page shows whatever the numbers are)."""
    rnd = parse_rounds(ROUND, "round", ValueError)[0]
    decisions, forced = review_round(rnd, [2], samples=SAMPLES)
    bids = review_calls(rnd, [2], samples=SAMPLES, play_samples=4)
    return rnd, decisions, forced, bids


def _page(south, path, **kw):
    rnd, decisions, forced, bids = south
    return write_round_html(rnd, decisions, forced, SAMPLES, path, bids, **kw)


def test_the_data_holds_every_call_and_card_with_paired_differences(south):
    rnd, decisions, forced, bids = south
    data = round_page_data(rnd, decisions, forced, SAMPLES, bids)
    assert [p["card"] for p in data["plays"]] == [_code(c) for _, c in rnd.plays] and len(data["plays"]) == 24
    assert [p["winner"] for p in data["plays"] if p["winner"]] == ["S", "S", "N", "W", "W", "N"]
    assert sum(p["points"] for p in data["plays"] if p["winner"]) == 162  # 152 card points and the last trick's 10
    assert data["scores"] == {"NS": 126, "EW": 56} and data["trump"] == "D" and data["maker"] == "S"
    calls = [d for d in data["decisions"] if d["kind"] == "call"]
    cards = [d for d in data["decisions"] if d["kind"] == "card"]
    assert len(calls) == len(bids.calls) == 1 and calls[0]["step"] == 2 and calls[0]["card"] == "play"
    assert len(cards) == len(decisions) >= 4 and all(d["seat"] == "S" for d in data["decisions"])
    assert [d["step"] for d in cards] == [2 + d.play_no + 1 for d in decisions]
    for shown, d in zip(cards, decisions):
        assert [e["card"] for e in shown["estimates"]] == [_code(c) for c, _, _ in d.estimates]
        best = d.estimates[0][0]
        for e, (c, mean, _) in zip(shown["estimates"], d.estimates):
            best_mean = d.estimates[0][1]
            played_mean = next(m for x, m, _ in d.estimates if x == d.card)
            # paired over the same layouts: the mean differences are the differences of the means
            assert e["loss"] == pytest.approx(best_mean - mean, abs=2e-3) and (c != best or e["loss"] == 0)
            assert e["vs_played"] == pytest.approx(mean - played_mean, abs=2e-3)
        assert shown["estimates"][[e["card"] for e in shown["estimates"]].index(shown["card"])]["loss"] == \
            pytest.approx(d.loss, abs=1e-3)
    options = {e["card"] for e in calls[0]["estimates"]}
    assert options == {option_name(o) for o, _, _ in bids.calls[0].estimates} == {"pass", "play"}
    assert data["view"] == "S" and not data["show_all"]  # the one seat reviewed
    assert data["melds"]["seats"]["W"] == {"cards": ["JS", "TS", "9S"], "points": 20}


def test_the_page_is_self_contained_and_a_title_cannot_break_out(south):
    rnd = south[0]
    title, rnd.title = rnd.title, "</script><script>alert('x')</script> %DATA% %BODY%"
    try:
        page = round_html(*south[:3], SAMPLES, south[3])
    finally:
        rnd.title = title
    found = _parse(page)
    assert [t for t, _ in found.tags].count("script") == 2 and page.count("</script>") == 2
    assert not re.search(r"(src|href)\s*=\s*[\"']?\s*(https?:)?//", page) and not re.search(r"@import|url\(", page)
    data = json.loads(found.texts[("script", "review-data")])
    assert data["title"].startswith("</script>") and not re.search("[<>&]", found.texts[("script", "review-data")])


def test_the_page_steps_through_the_bidding_and_the_cards(browser, south, tmp_path):  # noqa: F811
    rnd, decisions, forced, bids = south
    page, errors, fetched = _open(browser, _page(south, tmp_path / "round.html"))
    text = page.inner_text
    assert "Clabber review: trump" in text("header h1") and "N+S 126" in text("#final-scores")
    assert text("#status") == "Start: the hands as dealt, the turned card ♦A (2 calls and 24 cards to come)"
    # South's view: its own hand; the others hidden, the dealer's turned card known
    assert page.locator(".seat.hidden").count() == 3 and "6 cards hidden" in text(".seat.E")
    assert text(".seat.N .known") == "A " and "♥Q 10 9" in text(".seat.S")
    page.keyboard.press("ArrowRight")
    assert text("#status") == "Call 1 of 2: East passes" and "No decision reviewed at this call." in text("#decision")
    page.keyboard.press("ArrowRight")  # South's call: every option with its value
    assert text("#status") == "Call 2 of 2: South plays"
    assert text("#decision").startswith("South, bidding round 1, plays")
    rows = page.locator("#decision table.values tr[data-card]")
    assert rows.count() == 2 and page.get_attribute("#decision tr.played", "data-card") == "play"
    call = bids.calls[0]
    other = next(o for o, _, _ in call.estimates if o != call.call)
    page.click(f"#decision tr[data-card='{option_name(other)}']")  # the option not made
    detail = text("#card-detail")
    mean, se = next((m, s) for o, m, s in call.estimates if o == other)
    assert detail.startswith(f"{option_name(other)}: {mean:+.2f} ± {se:.2f} over {SAMPLES} layouts"), detail
    loss, loss_se, vs, vs_se = call.pairs[other]
    assert f"{'better' if vs > 0 else 'worse'} by {abs(vs):.2f} ± {vs_se:.2f} points" in detail
    assert "Against the call made" in detail and (loss == 0 or f"by {loss:.2f} ± {loss_se:.2f} points" in detail)
    page.keyboard.press("ArrowRight")
    assert text("#status") == "Play 1 of 24: East plays ♣9 (trick 1)" and page.evaluate("location.hash") == "#play-1"
    # a card decision: a click on a card not played shows its value and its differences
    d, other = next((d, c) for d in decisions for c, _, _ in d.estimates if abs(d.pairs[c][2]) > 0.01)
    page.evaluate(f"location.hash = '#play-{d.play_no + 1}'")
    assert text("#status").startswith(f"Play {d.play_no + 1} of 24: South plays {format_card(d.card, symbols=True)}")
    page.click(f"#decision tr[data-card='{_code(other)}']")
    detail = text("#card-detail")
    mean, se = next((m, s) for c, m, s in d.estimates if c == other)
    assert detail.startswith(f"{format_card(other, symbols=True)}") and f"{mean:+.2f} ± {se:.2f}" in detail
    loss, loss_se, vs, vs_se = d.pairs[other]
    assert f"{'better' if vs > 0 else 'worse'} by {abs(vs):.2f} ± {vs_se:.2f} points" in detail
    assert page.locator("#decision tr.picked").get_attribute("data-card") == _code(other)
    # the chips: the call and the cards; the graph: South's cards, a click jumps
    assert page.locator("#decisions .chip").count() == len(decisions) + 1
    dots = page.locator("#graph-svg circle.point")
    assert dots.count() == len(decisions)
    assert d is not decisions[-1]
    dots.nth(len(decisions) - 1).click()
    assert page.evaluate("location.hash") == f"#play-{decisions[-1].play_no + 1}"
    page.go_back()
    assert page.evaluate("location.hash") == f"#play-{d.play_no + 1}"
    row = text("#summary tr[data-seat=S]").split("\t")
    assert row[:4] == ["South", str(len(decisions) + 1), "1", str(forced[2] + bids.forced[2])]
    page.keyboard.press("End")
    assert text("#result").split("\n")[:3] == ["Final scores", "N+S 126", "E+W 56"]
    assert page.locator(".seat.hidden").count() == 3  # every hand played out, still the player's view
    page.check("#show-all")
    assert page.locator(".seat.hidden").count() == 0
    page.keyboard.press("Home")
    assert "♠J 10 9" in text(".seat.W") and page.evaluate("location.hash") == "#deal"
    _clean(errors, fetched)
    page.close()


def test_review_html_writes_a_clabber_page(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from barbu_sim.cli import app
    monkeypatch.chdir(tmp_path)
    (tmp_path / "round.txt").write_text(ROUND)
    runner = CliRunner()
    args = ["review", "round.txt", "--seat", "S", "--samples", "4", "--play-samples", "2"]
    result = runner.invoke(app, [*args, "--html", "round.html"])
    assert result.exit_code == 0, result.output
    assert "The review as a web page: round.html" in result.output and "South  round 1  plays" in result.output
    data = json.loads(re.search(r'id="review-data">(.*?)</script>', (tmp_path / "round.html").read_text(), re.S)[1])
    assert data["view"] == "S" and {d["kind"] for d in data["decisions"]} == {"call", "card"}
    again = runner.invoke(app, [*args, "--html", "round.html"])
    assert again.exit_code == 2 and "--html round.html exists: give --force" in again.output
    step = runner.invoke(app, [*args, "--step"])
    assert step.exit_code == 2 and "--step reviews Barbu deals" in step.output


def test_a_click_on_a_card_shows_its_line(browser, tmp_path):  # noqa: F811
    """The hand-made endgame (tests/shared_deals.py): ♠9 gives East the trick, ♠A wins it; a click on either card
    shows its line on the representative layout, with the reason in words."""
    rnd = parse_rounds(CLABBER_ENDGAME, "round", ValueError)[0]
    decisions, forced = review_round(rnd, [2], samples=SAMPLES)
    path = write_round_html(rnd, decisions, forced, SAMPLES, tmp_path / "endgame.html")
    page, errors, fetched = _open(browser, path, "#play-20")
    text = page.inner_text
    assert text("#status") == "Play 20 of 24: South plays ♠9 (trick 5)"
    assert text("#decision").startswith("South, trick 5, plays ♠9") and "loses 17.00 ± 0.00 points" in text("#decision")
    line = text("#card-detail .line")  # the card played: its line, under it
    assert "After ♠9 (played), in layout" in line and "N+S 169 in the round" in line
    assert text("#card-detail .line-plays").startswith("S ♠9 → E +17")
    reason = "After ♠9 East wins the trick with ♠10 (+17 for E+W); after ♠A South wins it with ♠A (+28 for N+S)."
    assert text("#card-detail .line-reason") == reason
    page.click("#decision tr[data-card='AS']")
    assert "After ♠A (best), in layout" in text("#card-detail .line") and "N+S 186 in the round" in text("#card-detail")
    assert text("#card-detail .line-plays").startswith("S ♠A → S +28")
    assert page.locator("#card-detail .line-play").count() == 5  # trick 5's last card and the last trick
    page.keyboard.press("PageUp")  # an earlier decision, within the noise: no line
    assert page.locator("#card-detail").count() == 1 and page.locator("#card-detail .line").count() == 0
    _clean(errors, fetched)
    page.close()


def test_a_file_of_rounds_gives_a_page_each_and_their_index(browser, tmp_path, monkeypatch):  # noqa: F811
    from typer.testing import CliRunner

    from barbu_sim.cli import app
    monkeypatch.chdir(tmp_path)
    (tmp_path / "two.txt").write_text(ROUND + "---\n" + CLABBER_ENDGAME)
    args = ["review", "two.txt", "--seat", "S", "--samples", "4", "--play-samples", "2", "--html", "two.html"]
    two = CliRunner().invoke(app, args)
    assert two.exit_code == 0, two.output
    assert "The index of the rounds: two.html" in two.output and "Round 2: two-2.html" in two.output
    assert "why    After 9S East wins the trick with 10S" in two.output  # the endgame's line, in the text review
    page, errors, fetched = _open(browser, tmp_path / "two.html")
    assert page.inner_text("header h1") == "Clabber review: two.txt, 2 rounds"
    links = page.locator("#deals a")
    assert [links.nth(k).get_attribute("href") for k in range(links.count())] == ["two-1.html", "two-2.html"]
    rows = page.locator("#deals tr[data-deal]")
    assert rows.count() == 2
    first, second = (rows.nth(k).inner_text().split("\t") for k in range(2))
    assert first[1].startswith("trump ♦, makers South and North") and first[2] == "North"
    assert first[3:7] == ["126", "56", "126", "56"]  # the round's scores, then the running totals
    assert second[3:7] == ["169", "33", "295", "89"] and second[7].startswith("17.0\n1 mistake")
    foot = page.inner_text("#deals tr.foot").split("\t")
    lost = float(first[7].split("\n")[0]) + 17.0  # South's points lost over the file
    assert foot[0] == "The session" and foot[-3:-1] == ["295", "89"] and foot[-1].startswith(f"{lost:.1f}\n")
    _clean(errors, fetched)
    links.nth(1).click()  # the second round's page: linking back to the index and the first round
    page.wait_for_load_state()
    assert page.inner_text("header h1").startswith("Round 2 of 2: Clabber review: trump")
    assert page.get_attribute("#session-nav a[rel=index]", "href") == "two.html"
    assert page.get_attribute("#session-nav a[rel=prev]", "href") == "two-1.html"
    assert page.locator("#session-nav a[rel=next]").count() == 0
    assert not errors, errors
    page.close()
