"""The style sheet both games' review pages share (:mod:`barbu_sim.core.review_page`): the header, the table of
the four seats on the felt, the trick, the cards, the decision's values and the detail of the one picked, the
hand's graph, the accuracy table, the chips and the record.  A game adds its own rules after it."""

STYLE = """
:root { --felt: #1f6b45; --ink: #1d232a; --red: #c8102e; --muted: #66707a; --line: #d5dadf; }
* { box-sizing: border-box; }
body { margin: 0; padding: 14px 18px; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); background: #f4f5f2; }
header h1 { margin: 0; font-size: 21px; } header .sub { color: var(--muted); margin: 2px 0 0; }
.scores { margin-top: 6px; display: flex; gap: 14px; flex-wrap: wrap; }
.scores span b { font-variant-numeric: tabular-nums; }
main { display: flex; gap: 18px; flex-wrap: wrap; margin-top: 12px; align-items: flex-start; }
#left { flex: 1 1 560px; max-width: 720px; }
#view { display: flex; flex-wrap: wrap; align-items: center; gap: 4px; margin-bottom: 6px; font-size: 13px; }
#view button[aria-pressed=true] { background: #1565c0; color: #fff; border-color: #1565c0; }
#view label { margin-left: 10px; cursor: pointer; }
#table { display: grid; grid-template-columns: 1fr 1.25fr 1fr;
  grid-template-areas: ". n ." "w c e" ". s ."; gap: 8px; background: var(--felt); border-radius: 14px;
  padding: 12px; color: #fff; min-height: 430px; }
.seat { background: rgba(0,0,0,.22); border-radius: 9px; padding: 6px 9px; align-self: center; }
.seat.N { grid-area: n; } .seat.E { grid-area: e; } .seat.S { grid-area: s; } .seat.W { grid-area: w; }
.seat.turn { outline: 3px solid #ffd54a; }
.seat.viewer { box-shadow: inset 0 0 0 2px rgba(255,255,255,.55); }
.seat.hidden { background: rgba(0,0,0,.12); } .seat .count { font-size: 13px; opacity: .85; margin-bottom: 2px; }
.seat .unknown { opacity: .45; } .seat .known { color: #ffe082; }
.seat .void { font-size: 12px; font-style: italic; color: #ffe082; }
.seat h2 { margin: 0 0 3px; font-size: 14px; display: flex; justify-content: space-between; gap: 6px; }
.seat h2 .tag { font-weight: normal; opacity: .8; }
.suit { white-space: nowrap; font-size: 15px; letter-spacing: .5px; }
.suit .sym { display: inline-block; width: 1.2em; }
.seat .red, #table .seat .red { color: #ffb3b3; }
.center { grid-area: c; background: rgba(255,255,255,.08); border-radius: 10px; padding: 8px; display: flex;
  flex-direction: column; align-items: center; justify-content: center; gap: 6px; min-height: 200px; }
.caption { text-align: center; font-size: 14px; }
.trick { display: grid; grid-template-columns: repeat(3, 46px); grid-template-rows: repeat(3, 50px);
  grid-template-areas: ". n ." "w . e" ". s ."; gap: 2px; }
.trick .N { grid-area: n; } .trick .E { grid-area: e; } .trick .S { grid-area: s; } .trick .W { grid-area: w; }
.card { display: inline-flex; align-items: center; justify-content: center; background: #fff; color: var(--ink);
  border: 1px solid #bbb; border-radius: 5px; font-weight: 600; font-size: 15px; min-width: 40px; height: 48px; }
.card.red { color: var(--red); } .card.won { outline: 3px solid #ffd54a; }
.card.new { box-shadow: 0 0 0 3px #4fc3f7; }
.result { background: #fff; color: var(--ink); border-radius: 8px; padding: 5px 12px; text-align: center; }
.result div { display: grid; grid-template-columns: auto auto; gap: 0 14px; font-variant-numeric: tabular-nums; }
#side { flex: 1 1 380px; max-width: 560px; }
#controls { display: flex; flex-wrap: wrap; gap: 5px; }
button { font: inherit; font-size: 13px; padding: 4px 9px; border: 1px solid #9aa4ad; border-radius: 6px;
  background: #fff; cursor: pointer; } button:hover { background: #e9eef2; }
button:disabled { opacity: .4; cursor: default; }
#status { margin: 8px 0; font-weight: 600; }
#decision { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 9px 11px; min-height: 80px; }
#decision h3 { margin: 0 0 4px; font-size: 16px; } #decision .verdict { margin: 0 0 6px; }
table.values { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
table.values td, table.values th { padding: 2px 6px; text-align: right; border-bottom: 1px solid #eef0f2; }
table.values th { color: var(--muted); font-weight: normal; font-size: 13px; }
table.values td:first-child, table.values th:first-child { text-align: left; }
table.values tr.played td { background: #fff4d6; font-weight: 600; }
table.values tr[data-card] { cursor: pointer; } table.values tr[data-card]:hover td { background: #eef5fb; }
table.values tr.picked td { box-shadow: inset 0 -2px 0 #1565c0; }
.dot { display: inline-block; width: 8px; height: 8px; border-radius: 50%; margin-left: 5px; background: #7a8591; }
.dot.blunder { background: #b3261e; } .dot.mistake { background: #e0701b; } .dot.inaccuracy { background: #c9a100; }
#decision p.layouts { color: var(--muted); font-size: 13px; margin: 0 0 6px; }
.detail { margin-top: 8px; border-top: 1px solid var(--line); padding-top: 6px; font-size: 14px; }
.detail p { margin: 2px 0; } .detail .detail-head { font-weight: 600; }
.line { margin-top: 6px; background: #f6f8fa; border-radius: 6px; padding: 5px 8px; }
.line-head { font-size: 13px; color: var(--muted); } .line-plays { display: flex; flex-wrap: wrap; gap: 3px 8px; }
.line-play.first { font-weight: 700; } .line-play .won-by { color: var(--muted); font-size: 13px; }
.line-points { font-size: 13px; } .line-reason { font-style: italic; }
#graph, #summary { margin-top: 10px; background: #fff; border: 1px solid var(--line); border-radius: 10px;
  padding: 6px 10px; } #graph h4, #summary h4 { margin: 0 0 4px; font-size: 14px; }
#graph svg { max-width: 100%; height: auto; } #graph .grid { stroke: #e3e6ea; } #graph .axis { font-size: 11px;
  fill: var(--muted); } #graph .played { fill: none; stroke: #1565c0; stroke-width: 2; }
#graph .tail { fill: none; stroke: #1565c0; stroke-width: 1.5; stroke-dasharray: 4 3; }
#graph .now { stroke: #ffb300; stroke-width: 2; } #graph .lost { stroke: #c62828; stroke-width: 3; }
#graph .final { fill: #1d232a; } #graph .point { fill: #fff; stroke: #1565c0; stroke-width: 2; cursor: pointer; }
#graph .point.lost { fill: #90a4ae; } #graph .point.inaccuracy { fill: #c9a100; stroke: #8a6d00; }
#graph .point.mistake { fill: #e0701b; stroke: #9c4a0c; } #graph .point.blunder { fill: #b3261e; stroke: #6d1610; }
#graph .point.here { stroke: #ffb300; stroke-width: 3; }
.legend, .muted { color: var(--muted); font-size: 12px; margin: 2px 0; }
table.summary td, table.summary th { font-size: 13px; }
header nav.session { display: flex; gap: 14px; margin-bottom: 4px; font-size: 14px; }
.bar { display: inline-block; height: 9px; background: #e0787a; border-radius: 2px; vertical-align: middle; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 700;
  text-transform: uppercase; color: #fff; background: #7a8591; }
.badge.blunder { background: #b3261e; } .badge.mistake { background: #e0701b; }
.badge.inaccuracy { background: #c9a100; } .badge.best { background: #2e7d32; }
.red { color: var(--red); }
#decisions { margin-top: 10px; display: flex; flex-wrap: wrap; gap: 4px; }
.chip { border: 1px solid var(--line); border-radius: 12px; padding: 1px 8px; font-size: 12px; background: #fff;
  cursor: pointer; } .chip.now { border-color: #1565c0; box-shadow: 0 0 0 2px #90caf9; }
.chip.blunder { background: #fbd9d6; border-color: #b3261e; }
.chip.mistake { background: #fde3cc; border-color: #e0701b; }
.chip.inaccuracy { background: #fbf0c2; border-color: #c9a100; }
#record { margin-top: 14px; max-width: 1300px; }
#record h2 { font-size: 16px; margin: 0 0 4px; }
table.tricks { border-collapse: collapse; font-variant-numeric: tabular-nums; background: #fff; }
table.tricks td, table.tricks th { padding: 2px 10px; border-bottom: 1px solid #eef0f2; text-align: center; }
table.tricks tr { cursor: pointer; } table.tricks tr.now { background: #e3f2fd; }
table.tricks td.future, .turns .future { opacity: .35; }
#record .veiled > span { opacity: 0; } table.tricks td.lead { text-decoration: underline; }
table.tricks td.win { font-weight: 700; } table.tricks td.now { box-shadow: inset 0 0 0 2px #4fc3f7; }
#record .legend { color: var(--muted); font-size: 13px; margin: 0 0 4px; }
.turns { display: flex; flex-wrap: wrap; gap: 3px; } .turns span { background: #fff; border: 1px solid var(--line);
  border-radius: 4px; padding: 0 5px; font-size: 13px; cursor: pointer; } .turns span.now { border-color: #1565c0; }
footer { margin-top: 14px; color: var(--muted); font-size: 12px; }
"""
