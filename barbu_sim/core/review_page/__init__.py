"""What both games' review pages share: the page's frame, its style, its script kit, and the data made safe.

A review page is one self-contained HTML file: its style, its script and its data are inside it, so it
opens from ``file://`` and can be mailed as it is, and nothing is loaded from elsewhere.  A wing's page
module (``barbu.review.page``, ``clabber.review.page``) turns its review into plain JSON-able data and
calls :func:`review_page_html` with its own script; that script runs after :data:`KIT` (``kit.js``, a
package data file beside this module), the game-neutral parts both pages draw with: a seat's view with
a switch to all hands, the trick, every option of a decision with its value and its difference from
the best (a click shows one), the chips of the decisions, the hand's graph, the accuracy table, the
record, and the stepping with the address kept with the page.  A session's index page (:mod:`.index`) is
drawn in the same :func:`frame`.

Imports only the core: it is below both wings.
"""

from __future__ import annotations

import html
import json
import re
from importlib.resources import files

from ..cards import RANK_LETTERS, SUIT_LETTERS
from .style import STYLE as STYLE  # the shared sheet, for the wings' pages

# The kit of both pages' scripts: kit.js, a package data file beside this module.
KIT = files(__package__).joinpath("kit.js").read_text(encoding="utf-8")


def page_code(card: int) -> str:
    """The pages' spelling of a card: rank letter (T for the ten) and suit letter, ``TH``."""
    return RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13]


def script_json(data) -> str:
    """JSON that cannot end the ``<script>`` element holding it: ``<``, ``>`` and ``&`` are escaped
    (``</script>`` in a title stays text), as are the two line separators JavaScript once refused."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


def frame(title: str, style: str, body: str) -> str:
    """A page of the review (a string): :data:`FRAME` with ``title`` (plain text, escaped here), ``style`` (the
    sheet) and ``body`` (HTML, put in as it is).  Both the review pages and a session's index are drawn in it."""
    parts = {"TITLE": html.escape(title), "STYLE": style, "BODY": body}
    # one pass, so that a title holding "%BODY%" stays text
    return re.sub(r"%(TITLE|STYLE|BODY)%", lambda m: parts[m.group(1)], FRAME)


def review_page_html(title: str, style: str, script: str, data, what: str, footer: str) -> str:
    """One review page (a string): the :func:`frame` of :data:`PAGE` with ``title`` (plain text, escaped here),
    ``style`` (the game's sheet: :data:`STYLE` and its own rules), the kit and ``script`` (the game's, run
    after the kit, in the same ``<script>`` element), ``data`` (embedded by :func:`script_json` in
    ``<script type="application/json" id="review-data">``), ``what`` (``deal``, ``round``: what the buttons
    step through) and ``footer`` (HTML, the game's own words on the keys)."""
    parts = {"SCRIPT": KIT + "\n" + script, "DATA": script_json(data), "WHAT": what, "FOOTER": footer}
    # one pass, so that data holding "%SCRIPT%" stays data
    body = re.sub(r"%(SCRIPT|DATA|WHAT|FOOTER)%", lambda m: parts[m.group(1)], PAGE)
    return frame(title, style, body)


# The frame of every page: %TITLE%, %STYLE% and %BODY% mark where frame() puts them.
FRAME = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="barbu-sim">
<title>%TITLE%</title>
<style>%STYLE%</style>
</head>
<body>
%BODY%
</body>
</html>
"""

# The body of a review page: %SCRIPT%, %DATA%, %WHAT% and %FOOTER% mark where review_page_html puts them.
PAGE = """<header id="head"></header>
<main>
  <section id="left">
    <div id="view" aria-label="whose view">
      <span>View:</span>
      <button type="button" data-view="N">North</button><button type="button" data-view="E">East</button><button
        type="button" data-view="S">South</button><button type="button" data-view="W">West</button>
      <label><input type="checkbox" id="show-all"> show all hands</label>
    </div>
    <section id="table" aria-label="the table"></section>
  </section>
  <section id="side">
    <nav id="controls" aria-label="step through the %WHAT%">
      <button type="button" data-go="start" title="Home">&#xAB; Start</button>
      <button type="button" data-go="back" title="Left arrow">&#x25C0; Back</button>
      <button type="button" data-go="next" title="Right arrow">Next &#x25B6;</button>
      <button type="button" data-go="end" title="End">End &#xBB;</button>
      <button type="button" data-go="prev-decision" title="Page Up">&#x25C0; Decision</button>
      <button type="button" data-go="next-decision" title="Page Down">Decision &#x25B6;</button>
    </nav>
    <div id="status" aria-live="polite"></div>
    <div id="decision"></div>
    <div id="decisions"></div>
    <div id="graph"></div>
    <div id="summary"></div>
  </section>
</main>
<section id="record"></section>
<footer>%FOOTER%</footer>
<script type="application/json" id="review-data">%DATA%</script>
<script>%SCRIPT%</script>"""
