"""The style sheet of the review page and of a session's index page (:mod:`.page`, :mod:`.index`): the shared
sheet of :mod:`barbu_sim.core.review_page` and Domino's layout of the table."""

from ...core.review_page.style import STYLE as SHARED_STYLE

# Domino: the layout of the cards on the table, a row per suit
DOMINO_STYLE = """
.layout { display: grid; grid-template-columns: 20px repeat(13, 22px); gap: 2px; font-size: 12px; }
.layout .cell { height: 24px; border-radius: 3px; background: rgba(255,255,255,.12); display: flex;
  align-items: center; justify-content: center; }
.layout .cell.on { background: #fff; color: var(--ink); font-weight: 600; }
.layout .cell.on.red, .layout .sym.red { color: var(--red); } .layout .sym.red { color: #ffb3b3; }
.layout .cell.new { box-shadow: 0 0 0 2px #4fc3f7; }
"""

STYLE = SHARED_STYLE + DOMINO_STYLE
