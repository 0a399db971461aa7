// The kit both games' review pages are drawn with (review_page/__init__.py puts it in each page, before the
// game's own script): the DOM and number helpers, the cards as a player reads them, a seat's box in a seat's
// view (its hand, or the cards hidden, the voids and the cards it has shown) and the table of the four, the
// centre and the trick on it, the result, the session's links in the header, a decision's options with their
// values (a click on one shows its value against the best and the one played, and its line), the chips of the
// decisions, the hand's graph (inline SVG), the accuracy table, the tricks of the record,
// the view switch, and the stepping: the arrow keys, Home/End, PageUp/PageDown, the buttons, and the address
// kept with the page (a step replaces it, a jump pushes it, a hash typed or the browser's Back is followed).
// It is game-neutral: what a game names differently is passed in. It needs nothing from elsewhere.
"use strict";
const ReviewKit = (function () {
  const SEATS = "NESW", NAMES = ["North", "East", "South", "West"];
  const SYM = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const RANKS = "23456789TJQKA";
  const SVG = "http://www.w3.org/2000/svg";

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs, parent) {
    const e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(e);
    return e;
  }
  function name(letter) { return NAMES[SEATS.indexOf(letter)]; }
  function rank(code) { return code[0] === "T" ? "10" : code[0]; }
  function isRed(code) { return code[1] === "H" || code[1] === "D"; }
  function cardText(code) { return SYM[code[1]] + rank(code); }
  function cardSpan(code, cls) {
    const e = el("span", (cls || "") + (isRed(code) ? " red" : ""), cardText(code));
    e.dataset.card = code;
    return e;
  }
  function signed(v) { return (v >= 0 ? "+" : "") + v; }
  function num(v) { return (v >= 0 ? "+" : "") + Number(v).toFixed(2); }
  function fixed(v) { return Number(v).toFixed(2); }
  function grouped(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function order(code) { return "SHDC".indexOf(code[1]) * 13 + (12 - RANKS.indexOf(code[0])); }
  function text(parent, t) { parent.appendChild(document.createTextNode(t)); }

  // The words on a hidden hand: "6 cards hidden".
  function hiddenText(n) { return n + (n === 1 ? " card" : " cards") + " hidden"; }
  // A seat's tag: its roles and figures, " \u00b7 " between those given.
  function tag(parts) { return parts.filter(Boolean).join(" \u00b7 "); }

  // A seat's box. o: viewer (the view's seat), veiled (a seat's view, not every hand), turn (it played last),
  // tag (beside its name), more (said after "N cards hidden" of a hidden hand), voids ({suit: true}), known
  // (cards a hidden hand was seen to hold: those it still holds are shown), suitLines (false: a hidden hand
  // shows no suit lines), extra (a node under the suits: a game's own words on the seat).
  function seatBox(letter, cards, o) {
    const hidden = o.veiled && letter !== o.viewer;
    const box = el("div", "seat " + letter + (hidden ? " hidden" : "") + (letter === o.viewer ? " viewer" : ""));
    box.dataset.seat = letter;
    if (o.turn) box.classList.add("turn");
    const h2 = el("h2", "", name(letter) + (letter === o.viewer && o.veiled ? " (this view)" : ""));
    h2.appendChild(el("span", "tag", o.tag || ""));
    box.appendChild(h2);
    if (hidden) box.appendChild(el("div", "count", hiddenText(cards.length) + (o.more || "")));
    const byRank = function (a, b) { return order(a) - order(b); };
    "SHDC".split("").forEach(function (suit) {
      const line = el("div", "suit");
      line.appendChild(el("span", "sym" + (suit === "H" || suit === "D" ? " red" : ""), SYM[suit]));
      if (hidden) {
        if (o.suitLines === false) return;
        const seen = (o.known || []).filter(function (c) {
          return c[1] === suit && cards.indexOf(c) >= 0;
        }).sort(byRank);
        if (seen.length) line.appendChild(el("span", "known", seen.map(rank).join(" ") + " "));
        line.appendChild(o.voids && o.voids[suit] ? el("span", "void", "void") : el("span", "unknown", "?"));
      } else {
        const mine = cards.filter(function (c) { return c[1] === suit; }).sort(byRank);
        line.appendChild(el("span", "", mine.length ? mine.map(rank).join(" ") : "\u2014"));
      }
      box.appendChild(line);
    });
    if (o.extra) box.appendChild(o.extra);
    return box;
  }

  // The cards each seat holds after plays[0..k) (plays: {seat, card}; a card null is a pass), from hands as dealt.
  function handsAt(hands, plays, k) {
    const held = {};
    SEATS.split("").forEach(function (s) { held[s] = hands[s].slice(); });
    for (let i = 0; i < k; i++) {
      const p = plays[i];
      if (p.card) held[p.seat].splice(held[p.seat].indexOf(p.card), 1);
    }
    return held;
  }

  // The table in #table: a seat box each (seat(letter): its options for seatBox, the view's added) and the
  // centre (a node: trickCenter, center).
  function drawTable(held, view, seat, centre) {
    const t = document.getElementById("table");
    t.textContent = "";
    SEATS.split("").forEach(function (s) {
      t.appendChild(seatBox(s, held[s], Object.assign({ viewer: view.seat, veiled: view.veiled }, seat(s))));
    });
    t.appendChild(centre);
  }

  // The centre of the table with its caption (#trick-caption) and nothing on it yet; cls: a class added.
  function center(caption, cls) {
    const c = el("div", "center" + (cls ? " " + cls : ""));
    c.id = "center";
    const cap = el("div", "caption", caption);
    cap.id = "trick-caption";
    c.appendChild(cap);
    return c;
  }

  // The result under the last trick (#result): a title, a cell a side, and a node of words under them if any.
  function resultBox(title, cells, more) {
    const r = el("div", "result");
    r.id = "result";
    r.appendChild(el("b", "", title));
    const grid = el("div");
    cells.forEach(function (x) { grid.appendChild(el("span", "", x)); });
    r.appendChild(grid);
    if (more) r.appendChild(more);
    return r;
  }

  // The links of a session's page in the header (#session-nav): the previous and next page of the file (noun:
  // "deal", "round") and the index.
  function sessionNav(s, noun) {
    const nav = el("nav", "session");
    nav.id = "session-nav";
    const link = function (href, label, rel) {
      const a = el("a", "", label);
      a.href = href;
      a.rel = rel;
      nav.appendChild(a);
    };
    if (s.prev) link(s.prev, "\u25C0 " + noun + " " + (s.number - 1), "prev");
    if (s.index) link(s.index, "the session (" + s.count + " " + noun + "s)", "index");
    else nav.appendChild(el("span", "", noun + " " + s.number + " of " + s.count));
    if (s.next) link(s.next, noun + " " + (s.number + 1) + " \u25B6", "next");
    return nav;
  }

  // The suits each seat did not follow in plays[0..k) (plays: {seat, card, trick}; a new trick starts a new lead).
  function voidsAt(plays, k) {
    const voids = {};
    SEATS.split("").forEach(function (s) { voids[s] = {}; });
    let led = null;
    for (let i = 0; i < k; i++) {
      const p = plays[i];
      if (!p.card) continue;
      if (i === 0 || plays[i - 1].trick !== p.trick) led = p.card[1];
      else if (p.card[1] !== led) voids[p.seat][led] = true;
    }
    return voids;
  }

  // The trick of plays[k - 1] (k >= 1) as it lies on the table, its caption naming who led and who won it.
  function trickCenter(plays, k) {
    const p = plays[k - 1], t = p.trick;
    let first = k - 1;
    while (first > 0 && plays[first - 1].trick === t) first--;
    const c = center("Trick " + t + ": " + name(plays[first].seat) + " led" +
      (p.winner ? "; won by " + name(p.winner) + " (" + signed(p.points) + ")" : ""));
    const grid = el("div", "trick");
    for (let i = first; i < k; i++) {
      const q = plays[i];
      let cls = "card " + q.seat + (i === first ? " led" : "") + (i === k - 1 ? " new" : "");
      if (p.winner && q.seat === p.winner) cls += " won";
      grid.appendChild(cardSpan(q.card, cls));
    }
    c.appendChild(grid);
    return c;
  }

  // A decision's options and their values. d: {card (the option taken), best, loss, loss_se, counts, label,
  // estimates: [{mean, se, loss, loss_se, label, vs_played, vs_played_se, layouts, line}, best first]};
  // o: key (an estimate's option), show (an option as a node), noun ("card"), taken ("played"),
  // best ("the best card (or as good as the best)."), picked (the option whose detail is shown), pick (a click).
  function verdict(d, o) {
    const v = el("p", "verdict");
    if (d.counts) {
      text(v, "Best ");
      v.appendChild(o.show(d.best));
      text(v, ": loses " + fixed(d.loss) + " \u00b1 " + fixed(d.loss_se) + " points ");
      if (d.label) v.appendChild(el("span", "badge " + d.label, d.label));
      else text(v, "(under every label)");
    } else if (d.loss > 0) {
      v.appendChild(o.show(d.best));
      text(v, " looks " + fixed(d.loss) + " better: within the noise.");
    } else {
      v.appendChild(el("span", "badge best", "best"));
      text(v, " the best " + o.noun + " (or as good as the best).");
    }
    return v;
  }

  function lineBox(line) {
    const box = el("div", "line");
    box.appendChild(el("div", "line-head", line.title));
    const plays = el("div", "line-plays");
    line.plays.forEach(function (q) {
      const s = el("span", "line-play" + (q.first ? " first" : ""), q.seat + " ");
      if (q.card) s.appendChild(cardSpan(q.card)); else text(s, "pass");
      if (q.won) s.appendChild(el("span", "won-by", " \u2192 " + q.won + " " + signed(q.points)));
      plays.appendChild(s);
    });
    box.appendChild(plays);
    if (line.points) box.appendChild(el("div", "line-points", line.points));
    if (line.reason) box.appendChild(el("div", "line-reason", line.reason));
    return box;
  }

  function detail(d, e, o) {
    const box = el("div", "detail");
    box.id = "card-detail";
    const head = el("p", "detail-head");
    const key = o.key(e), best = d.estimates[0];
    head.appendChild(o.show(key));
    text(head, (key === d.card ? " (" + o.taken + ")" : "") + (key === o.key(best) ? " (best)" : "") + ": " +
      num(e.mean) + " \u00b1 " + fixed(e.se) + (e.layouts ? " over " + grouped(e.layouts) + " layouts" : ""));
    box.appendChild(head);
    if (e.loss !== undefined) {
      const p1 = el("p");
      if (e.loss === 0) text(p1, key === o.key(best) ? "The best " + o.noun + "." : "As good as the best " + o.noun + ".");
      else {
        text(p1, "Behind the best, ");
        p1.appendChild(o.show(o.key(best)));
        text(p1, ", by " + fixed(e.loss) + " \u00b1 " + fixed(e.loss_se) + " points ");
        if (e.label) p1.appendChild(el("span", "badge " + e.label, e.label));
        else text(p1, e.loss > 2 * e.loss_se ? "(under every label)" : "(within the noise)");
      }
      box.appendChild(p1);
      if (key !== d.card) {
        const p2 = el("p");
        text(p2, "Against the " + o.noun + " " + o.taken + ", ");
        p2.appendChild(o.show(d.card));
        text(p2, e.vs_played === 0 ? ": the same (equivalent " + o.noun + "s)." : ": " +
          (e.vs_played > 0 ? "better" : "worse") + " by " + fixed(Math.abs(e.vs_played)) + " \u00b1 " +
          fixed(e.vs_played_se) + " points.");
        box.appendChild(p2);
      }
    }
    if (e.line) box.appendChild(lineBox(e.line));
    return box;
  }

  // The table of every option (best first) and, under it, the detail of the one picked (default the one taken).
  function values(box, d, o) {
    const table = el("table", "values");
    const head = el("tr");
    [o.noun, "value", "\u00b1 se", "behind the best"].forEach(function (x) { head.appendChild(el("th", "", x)); });
    table.appendChild(head);
    const top = d.estimates.length ? d.estimates[0].mean : 0;
    const gaps = d.estimates.map(function (e) { return e.loss !== undefined ? e.loss : Math.abs(top - e.mean); });
    const widest = Math.max.apply(null, gaps.concat([1e-9]));
    const chosen = o.picked || d.card;
    d.estimates.forEach(function (e, i) {
      const key = o.key(e);
      const row = el("tr", (key === d.card ? "played" : "") + (key === chosen ? " picked" : ""));
      row.dataset.card = key;
      row.title = "Click: this " + o.noun + "'s value against the best and the " + o.noun + " " + o.taken;
      const first = el("td");
      first.appendChild(o.show(key));
      if (key === d.card) text(first, " " + o.taken);
      if (i === 0) text(first, " best");
      if (e.label) first.appendChild(el("span", "dot " + e.label, ""));
      row.appendChild(first);
      row.appendChild(el("td", "", num(e.mean)));
      row.appendChild(el("td", "", fixed(e.se)));
      const gap = el("td", "", gaps[i] ? fixed(gaps[i]) + " " : "");
      const bar = el("span", "bar");
      bar.style.width = Math.round(90 * gaps[i] / widest) + "px";
      gap.appendChild(bar);
      row.appendChild(gap);
      row.addEventListener("click", function () { o.pick(key); });
      table.appendChild(row);
    });
    box.appendChild(table);
    const e = d.estimates.find(function (x) { return o.key(x) === chosen; }) || d.estimates[0];
    if (e) box.appendChild(detail(d, e, o));
  }

  // The chips of the decisions, in #decisions. items: {step, label, prefix, node (or null: not shown yet),
  // title}; a click jumps there.
  function chips(items, now, jump) {
    const box = document.getElementById("decisions");
    box.textContent = "";
    if (!items.length) return;
    box.appendChild(el("span", "", "Decisions:"));
    items.forEach(function (d) {
      const chip = el("span", "chip " + (d.label || "") + (d.step === now ? " now" : ""));
      chip.textContent = d.prefix;
      if (d.node) chip.appendChild(d.node);
      chip.title = d.title;
      chip.addEventListener("click", function () { jump(d.step); });
      box.appendChild(chip);
    });
  }

  // The hand's graph in #graph. o: title, empty (said instead of a graph, or null), points ({step, y, best,
  // counts, label, tip}), from/to (the steps the x axis spans) and their labels, final and its tip, now (the
  // step shown), jump, legend.
  function graph(o) {
    const box = document.getElementById("graph");
    box.textContent = "";
    box.appendChild(el("h4", "", o.title));
    if (o.empty) {
      box.appendChild(el("p", "muted", o.empty));
      return;
    }
    const pts = o.points, final = o.final;
    const ys = [final];
    pts.forEach(function (p) { ys.push(p.y, p.best); });
    let lo = Math.min.apply(null, ys), hi = Math.max.apply(null, ys);
    if (hi - lo < 2) { lo -= 1; hi += 1; }
    const W = 520, H = 170, L = 44, R = 10, T = 10, B = 22;
    const x = function (step) { return L + (W - L - R) * (step - o.from) / Math.max(o.to - o.from, 1); };
    const y = function (v) { return T + (H - T - B) * (hi - v) / (hi - lo); };
    const g = svg("svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img", "aria-label": o.title });
    g.id = "graph-svg";
    [lo, (lo + hi) / 2, hi].forEach(function (v) {
      svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), "class": "grid" }, g);
      svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", "class": "axis" }, g).textContent =
        (v >= 0 ? "+" : "") + v.toFixed(Math.abs(hi - lo) < 10 ? 1 : 0);
    });
    svg("text", { x: W - R, y: H - 6, "text-anchor": "end", "class": "axis" }, g).textContent = o.toLabel;
    svg("text", { x: L, y: H - 6, "class": "axis" }, g).textContent = o.fromLabel;
    const now = Math.max(o.from, Math.min(o.to, o.now));
    svg("line", { x1: x(now), x2: x(now), y1: T, y2: H - B, "class": "now" }, g).id = "graph-now";
    const path = pts.map(function (p) { return x(p.step).toFixed(1) + "," + y(p.y).toFixed(1); });
    svg("polyline", { points: path.join(" "), "class": "played" }, g);
    svg("polyline", { points: path[path.length - 1] + " " + x(o.to).toFixed(1) + "," + y(final).toFixed(1),
      "class": "tail" }, g);
    svg("rect", { x: x(o.to) - 4, y: y(final) - 4, width: 8, height: 8, "class": "final" }, g)
      .appendChild(svg("title", {})).textContent = o.finalTip;
    pts.forEach(function (p) {
      if (p.counts) svg("line", { x1: x(p.step), x2: x(p.step), y1: y(p.best), y2: y(p.y), "class": "lost" }, g);
      const dot = svg("circle", { cx: x(p.step), cy: y(p.y), r: p.label ? 6 : 4,
        "class": "point " + (p.label || (p.counts ? "lost" : "ok")) + (p.step === o.now ? " here" : "") }, g);
      dot.dataset.play = p.play === undefined ? p.step : p.play;
      svg("title", {}, dot).textContent = p.tip;
      dot.addEventListener("click", function () { o.jump(p.step); });
    });
    box.appendChild(g);
    box.appendChild(el("p", "legend", o.legend));
  }

  // The accuracy table in #summary. o: columns, rows ({seat, cells}), legend.
  function summary(o) {
    const box = document.getElementById("summary");
    if (!o.rows.length) return;
    box.appendChild(el("h4", "", "Accuracy"));
    const table = el("table", "values summary");
    const head = el("tr");
    o.columns.forEach(function (x) { head.appendChild(el("th", "", x)); });
    table.appendChild(head);
    o.rows.forEach(function (r) {
      const row = el("tr");
      row.dataset.seat = r.seat;
      r.cells.forEach(function (x) { row.appendChild(el("td", "", String(x))); });
      table.appendChild(row);
    });
    box.appendChild(table);
    box.appendChild(el("p", "legend", o.legend));
  }

  // The tricks of the record: a row per trick, a card per seat (data-step: the step it is played at).
  function tricksTable(plays, stepOf, jump) {
    const table = el("table", "tricks");
    const head = el("tr");
    ["trick"].concat(NAMES, ["won by", "points"]).forEach(function (x) { head.appendChild(el("th", "", x)); });
    table.appendChild(head);
    let row = null;
    plays.forEach(function (p, i) {
      if (!row || row.dataset.trick !== String(p.trick)) {
        row = el("tr");
        row.dataset.trick = p.trick;
        row.appendChild(el("td", "", String(p.trick)));
        for (let s = 0; s < 4; s++) row.appendChild(el("td", "", ""));
        row.appendChild(el("td", "win-name", ""));
        row.appendChild(el("td", "", ""));
        const last = i + 1;
        row.addEventListener("click", function () {
          let end = last;
          while (end < plays.length && plays[end].trick === p.trick) end++;
          jump(stepOf(end - 1));
        });
        table.appendChild(row);
      }
      const cell = row.children[1 + SEATS.indexOf(p.seat)];
      cell.appendChild(cardSpan(p.card));
      cell.dataset.step = stepOf(i);
      if (!row.dataset.lead) { row.dataset.lead = p.seat; cell.classList.add("lead"); }
      if (p.winner) {
        row.children[5].appendChild(el("span", "", name(p.winner)));
        row.children[6].appendChild(el("span", "", signed(p.points)));
        row.children[5].dataset.step = row.children[6].dataset.step = stepOf(i);
        row.children[1 + SEATS.indexOf(p.winner)].classList.add("win");
        row.dataset.end = stepOf(i);
      }
    });
    return table;
  }

  // The record at step k: what is to come dimmed (hidden in a seat's view), the step shown marked, its trick.
  function markRecord(k, veiled, trick) {
    document.querySelectorAll("#record [data-step]").forEach(function (e) {
      const future = Number(e.dataset.step) > k;
      e.classList.toggle("future", future);
      e.classList.toggle("veiled", future && veiled);
      e.classList.toggle("now", Number(e.dataset.step) === k);
    });
    document.querySelectorAll("table.tricks tr[data-trick]").forEach(function (e) {
      e.classList.toggle("now", trick !== null && e.dataset.trick === String(trick));
    });
  }

  // The view switch: the seat's buttons and "show all hands". changed(seat, showAll) redraws.
  function drawView(seat, showAll) {
    document.querySelectorAll("#view button[data-view]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.view === seat));
    });
    document.getElementById("show-all").checked = showAll;
    document.body.classList.toggle("players-view", !showAll);
  }
  function bindView(onSeat, onShowAll) {
    document.querySelectorAll("#view button[data-view]").forEach(function (b) {
      b.addEventListener("click", function () { onSeat(b.dataset.view); });
    });
    document.getElementById("show-all").addEventListener("change", function (e) { onShowAll(e.target.checked); });
  }

  // The options of a card decision, for values(): a card is its own key and shows as a card.
  const CARD_OPTIONS = { key: function (e) { return e.card; }, show: function (c) { return cardSpan(c); },
    noun: "card", taken: "played" };

  // The element of id ``id``, emptied to be drawn again.
  function cleared(id) {
    const box = document.getElementById(id);
    box.textContent = "";
    return box;
  }

  // The decision panel at a step without a decision: what to do (said), then where the next decision is (next),
  // or else, when there is none in the page at all, none.
  function noDecision(box, said, next, none) {
    box.appendChild(el("p", "", said));
    if (next) box.appendChild(el("p", "", next));
    else if (none) box.appendChild(el("p", "", none));
  }

  // The page's start: the view switches redraw the step shown (onSeat(letter), onShowAll(checked) keep the
  // choice), the parts drawn once (functions, in order), then the step the address names.
  function boot(nav, onSeat, onShowAll, once) {
    bindView(function (seat) { onSeat(seat); nav.redraw(); }, function (all) { onShowAll(all); nav.redraw(); });
    once.forEach(function (draw) { draw(); });
    nav.start();
  }

  // The stepping. o: steps (the last step), decisions (the steps of the decisions, in order), draw(k),
  // moved() (the step changed), hash(k) (the address of step k), parse(hash) (the step an address names, or
  // null). Returns {go(k, how), now(), redraw()}; how: "push" (a jump: the browser's Back returns from it),
  // "replace" (a step), "follow" (the address moved: the page follows it, and writes the address back only
  // where it named no step of the page).
  function stepper(o) {
    let step = 0;
    function draw() {
      o.draw(step);
      const some = function (f) { return o.decisions.some(f); };
      document.querySelectorAll("#controls button").forEach(function (b) {
        const g = b.dataset.go;
        b.disabled = ((g === "start" || g === "back") && step === 0) ||
          ((g === "next" || g === "end") && step === o.steps) ||
          (g === "prev-decision" && !some(function (s) { return s < step; })) ||
          (g === "next-decision" && !some(function (s) { return s > step; }));
      });
    }
    function go(k, how) {
      const before = step;
      step = Math.max(0, Math.min(o.steps, Number.isFinite(k) ? k : 0));
      if (step !== before && o.moved) o.moved();
      draw();
      const hash = o.hash(step);
      if (location.hash === hash) return;
      try {
        if (how === "push") history.pushState(null, "", hash);
        else history.replaceState(null, "", hash);
      } catch (e) { /* some file:// settings refuse it */ }
    }
    function fromAddress() {
      const k = o.parse(location.hash);
      return k === null ? 0 : k;
    }
    function move(what) {
      if (what === "start") go(0, "push");
      else if (what === "end") go(o.steps, "push");
      else if (what === "back") go(step - 1, "replace");
      else if (what === "next") go(step + 1, "replace");
      else if (what === "next-decision") {
        const s = o.decisions.find(function (x) { return x > step; });
        if (s !== undefined) go(s, "push");
      } else if (what === "prev-decision") {
        const before = o.decisions.filter(function (x) { return x < step; });
        if (before.length) go(before[before.length - 1], "push");
      }
    }
    const KEYS = { ArrowRight: "next", ArrowLeft: "back", Home: "start", End: "end",
      PageDown: "next-decision", PageUp: "prev-decision" };
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey || !KEYS[e.key]) return;
      if (e.target && e.target.tagName === "INPUT" && e.target.type !== "checkbox") return;
      e.preventDefault();
      move(KEYS[e.key]);
    });
    document.querySelectorAll("#controls button").forEach(function (b) {
      b.addEventListener("click", function () { move(b.dataset.go); });
    });
    window.addEventListener("hashchange", function () { go(fromAddress(), "follow"); });
    window.addEventListener("popstate", function () { go(fromAddress(), "follow"); });
    return { go: go, now: function () { return step; }, redraw: draw, start: function () { go(fromAddress(), "replace"); } };
  }

  return {
    SEATS: SEATS, NAMES: NAMES, SYM: SYM, RANKS: RANKS, el: el, svg: svg, text: text, name: name, rank: rank,
    isRed: isRed, cardText: cardText, cardSpan: cardSpan, signed: signed, num: num, fixed: fixed, grouped: grouped,
    order: order, hiddenText: hiddenText, tag: tag, seatBox: seatBox, handsAt: handsAt, drawTable: drawTable,
    center: center, resultBox: resultBox, sessionNav: sessionNav, voidsAt: voidsAt, trickCenter: trickCenter,
    verdict: verdict, values: values,
    chips: chips, graph: graph, summary: summary, tricksTable: tricksTable, markRecord: markRecord,
    drawView: drawView, boot: boot, stepper: stepper,
    CARD_OPTIONS: CARD_OPTIONS, noDecision: noDecision, cleared: cleared
  };
})();
