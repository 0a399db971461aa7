"""The headless Chromium the review pages' tests open their pages in, through Playwright.

``browser`` is a module-scoped fixture (a test file imports it: ``from shared_browser import browser``); it
skips, saying why, where Playwright or a Chromium is missing (``pip install -e ".[browser]"`` and a Chromium,
e.g. Debian's ``chromium``).  :func:`open_page` opens a page and records its console errors and every
request; :func:`assert_clean` checks there was no error and nothing fetched but the page itself.
"""

import os
import shutil

import pytest

BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium() -> str | None:
    """The Chromium executable: $BARBU_SIM_CHROMIUM, else the first found on the path; None if none."""
    for path in (os.environ.get("BARBU_SIM_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                 shutil.which("chromium-browser"), shutil.which("google-chrome")):
        if path and os.access(path, os.X_OK):
            return path
    return None


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (the 'browser' extra)")
    executable = chromium()
    if executable is None:
        pytest.skip("no Chromium executable (install one, or name it in BARBU_SIM_CHROMIUM)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=BROWSER_ARGS)
        yield browser
        browser.close()


def open_page(browser, path, hash: str = ""):
    """``(page, errors, fetched)``: the file ``path`` opened (at ``hash``), with the page's errors (uncaught and
    console) and the URL of every request it made, as they come."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors, fetched = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(path.resolve().as_uri() + hash)
    return page, errors, fetched


def assert_clean(errors, fetched):
    """No error on the page, and nothing fetched but the page itself (no network, no other file)."""
    assert not errors, errors
    assert fetched and all(url.startswith("file://") for url in fetched), fetched
