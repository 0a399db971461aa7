"""The review page as a player reads it, in headless Chromium: the seat's view and the switch, every card
clickable, the hand's graph, the address kept with the page (hash, Back), the session's index.

Skips, saying why, without Playwright or a Chromium (as tests/test_review_html.py).
"""

import re

import pytest
from test_review_html import DOMINO, NO_TRICKS, _open, browser  # noqa: F401  (browser: the fixture)

from barbu_sim.barbu.formats.deal_file import parse_played_deals
from barbu_sim.barbu.review.page import _code, review_page_data, write_review_html
from barbu_sim.barbu.review.review import review_deal
from barbu_sim.core.cards import format_card


@pytest.fixture(scope="module")
def south():
    """South's decisions in the No Tricks deal, on few layouts."""
    return review_deal(parse_played_deals(NO_TRICKS)[0], seats=[2], samples=4)


def _clean(errors, fetched):
    assert not errors, errors
    assert fetched and all(url.startswith("file://") for url in fetched), fetched  # the page itself, nothing else


def test_the_seats_view_hides_the_other_hands_until_the_switch(browser, south, tmp_path):  # noqa: F811
    page, errors, fetched = _open(browser, write_review_html(south, tmp_path / "deal.html"))
    text = page.inner_text
    assert page.get_attribute("#view button[data-view=S]", "aria-pressed") == "true"
    for seat in "NEW":
        assert page.locator(f".seat.{seat}.hidden").count() == 1
        assert "13 cards hidden" in text(f".seat.{seat}") and not re.search(r"[2-9AKQJ]", text(f".seat.{seat} .suit"))
    assert "♠9 7 2\n♥J 5 2\n♦A Q\n♣Q J 6 5 4" in text(".seat.S")
    # the tricks to come are hidden in the record too: only trick 1's first two cards shown after two plays
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    hidden = page.locator("#record td.veiled")
    assert hidden.count() == 52 - 2 + 2 * 13  # the cards to come, and the 13 tricks' winner and points
    # East has shown a void once it does not follow: trick 5 is led in diamonds? find a real one from the data
    plays = review_page_data(south)["plays"]
    void_at = next(i for i, p in enumerate(plays) if p["trick"] and i % 4 and
                   p["card"][1] != plays[(p["trick"] - 1) * 4]["card"][1] and p["seat"] != "S")
    page.evaluate(f"location.hash = '#play-{void_at + 1}'")
    p = plays[void_at]
    led = plays[(p["trick"] - 1) * 4]["card"][1]
    line = page.locator(f".seat.{p['seat']} .suit").nth("SHDC".index(led)).inner_text()
    assert line.endswith("void"), line
    # the switch shows every hand, and the record
    page.check("#show-all")
    assert page.locator(".seat.hidden").count() == 0 and page.locator("#record .veiled").count() == 0
    assert "♥K" in text(".seat.E") or "K" in text(".seat.E")
    page.uncheck("#show-all")
    page.click("#view button[data-view=E]")  # another seat's view
    assert page.locator(".seat.E.hidden").count() == 0 and page.locator(".seat.S.hidden").count() == 1
    _clean(errors, fetched)
    page.close()


def test_a_click_on_any_card_shows_its_value(browser, south, tmp_path):  # noqa: F811
    page, errors, fetched = _open(browser, write_review_html(south, tmp_path / "deal.html"))
    d = next(d for d in south.decisions if len({d.estimate.rep_of[c] for c, _, _ in d.estimates} - {
        d.estimate.rep_of[d.card], d.estimate.rep_of[d.best]}))
    page.evaluate(f"location.hash = '#play-{d.play_no + 1}'")
    assert page.inner_text("#card-detail").startswith(format_card(d.card, symbols=True) + " (played")
    rep = d.estimate.rep_of
    other = next(c for c, _, _ in d.estimates if rep[c] not in (rep[d.card], rep[d.best]))
    page.click(f"#decision tr[data-card='{_code(other)}']")
    detail = page.inner_text("#card-detail")
    mean, se = next((round(m, 3), round(s, 3)) for c, m, s in d.estimates if c == other)  # as the page holds them
    loss, loss_se = (round(x, 3) for x in d.estimate.loss(other))
    assert detail.startswith(f"{format_card(other, symbols=True)}: {mean:+.2f} ± {se:.2f} over "), detail
    assert f"by {loss:.2f} ± {loss_se:.2f} points" in detail and "Against the card played" in detail
    assert page.locator("#decision tr.picked").get_attribute("data-card") == _code(other)
    vs, vs_se = (round(x, 3) for x in d.estimate.difference(other, d.card))
    assert f"{'better' if vs > 0 else 'worse'} by {abs(vs):.2f} ± {vs_se:.2f} points" in detail
    page.keyboard.press("ArrowRight")  # another play: the pick is forgotten
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#card-detail").startswith(format_card(d.card, symbols=True) + " (played")
    _clean(errors, fetched)
    page.close()


def test_the_graph_is_drawn_and_a_click_jumps(browser, south, tmp_path):  # noqa: F811
    page, errors, fetched = _open(browser, write_review_html(south, tmp_path / "deal.html"))
    dots = page.locator("#graph-svg circle.point")
    assert dots.count() == len(south.decisions) >= 5
    assert page.locator("#graph-svg line.lost").count() == sum(d.counts for d in south.decisions)
    target = south.decisions[3]
    dots.nth(3).click()
    assert page.inner_text("#status").startswith(f"Play {target.play_no + 1} of 52: South plays")
    assert page.evaluate("location.hash") == f"#play-{target.play_no + 1}"
    assert "here" in dots.nth(3).get_attribute("class")
    # the accuracy table, as the text review has it
    row = page.inner_text("#summary tr[data-seat=S]").split("\t")
    assert row[:4] == ["South", str(len(south.decisions)), str(south.forced[2]), f"{south.lost(2):.2f}"]
    assert row[4] == f"{south.accuracy(2):.1f}%"
    # a seat not reviewed has no graph, and says so
    page.click("#view button[data-view=N]")
    assert page.locator("#graph-svg").count() == 0 and "were not reviewed" in page.inner_text("#graph")
    _clean(errors, fetched)
    page.close()


def test_back_and_a_hash_change_keep_the_address_and_the_page_together(browser, south, tmp_path):  # noqa: F811
    path = write_review_html(south, tmp_path / "deal.html")
    page, errors, fetched = _open(browser, path)

    def at(k):
        assert page.evaluate("location.hash") == f"#play-{k}"
        assert page.inner_text("#status").startswith(f"Play {k} of 52") if k else \
            page.inner_text("#status").startswith("Start")

    at(0)
    page.evaluate("location.hash = '#play-30'")  # typed in the address
    at(30)
    page.keyboard.press("ArrowRight")  # a step replaces the address
    at(31)
    first, second = south.decisions[0].play_no + 1, south.decisions[1].play_no + 1
    page.keyboard.press("Home")
    page.keyboard.press("PageDown")  # a jump: Back returns from it
    at(first)
    page.locator("#decisions .chip").nth(1).click()
    at(second)
    page.go_back()
    at(first)
    page.go_back()
    at(0)
    page.go_forward()
    at(first)
    page.evaluate("location.hash = '#play-999'")  # past the end: the last play, the address says so
    at(52)
    page.goto(path.resolve().as_uri() + "#play-7")
    at(7)
    _clean(errors, fetched)
    page.close()


def test_a_session_gives_an_index_that_links_every_deal(browser, tmp_path, monkeypatch):  # noqa: F811
    from typer.testing import CliRunner

    from barbu_sim.cli import app
    monkeypatch.chdir(tmp_path)
    # a table session of two deals, the player at East
    (tmp_path / "s.txt").write_text("table: seat=E length=deal\n---\n" + NO_TRICKS + "---\n" + DOMINO)
    result = CliRunner().invoke(app, ["review", "s.txt", "--samples", "4", "--max-samples", "8", "--html", "s.html"])
    assert result.exit_code == 0, result.output
    assert "The session's index: s.html" in result.output and "Deal 2: s-2.html" in result.output
    page, errors, fetched = _open(browser, tmp_path / "s.html")
    links = page.locator("#deals a")
    assert [links.nth(k).get_attribute("href") for k in range(links.count())] == ["s-1.html", "s-2.html"]
    rows = page.locator("#deals tr[data-deal]")
    assert rows.count() == 2
    assert rows.nth(0).inner_text().split("\t")[3:11] == ["-2", "-12", "-8", "-4", "-2", "-12", "-8", "-4"]
    assert rows.nth(1).inner_text().split("\t")[7:11] == ["+3", "+33", "+12", "-9"]  # the running totals
    assert re.search(r"\d+\.\d%", page.inner_text("#deals tr.foot"))
    _clean(errors, fetched)
    links.nth(1).click()  # the second deal's page: on the player's seat, linking back
    page.wait_for_load_state()
    assert page.get_attribute("#view button[data-view=E]", "aria-pressed") == "true"
    assert page.locator(".seat.S.hidden").count() == 1 and "Deal 2 of 2" in page.inner_text("header h1")
    assert page.get_attribute("#session-nav a[rel=index]", "href") == "s.html"
    assert page.get_attribute("#session-nav a[rel=prev]", "href") == "s-1.html"
    assert page.locator("#session-nav a[rel=next]").count() == 0
    assert not errors, errors
    page.close()
