// The script of the review page (page.py puts it in the page). It reads the JSON of
// <script type="application/json" id="review-data"> (page.review_page_data) and draws the page
// from it with the DOM: the header, the table at the current play seen from one seat (or every hand),
// the decision with every legal card (a click on one shows its value and line), the list of decisions,
// the hand's graph (inline SVG), each seat's accuracy and the tricks or turns. It steps on the arrow
// keys, Home/End, PageUp/PageDown and the buttons, keeps #play-N in the address and follows the address
// (a hash typed, the browser's Back). It needs nothing from elsewhere.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("review-data").textContent);
  const SEATS = "NESW", NAMES = ["North", "East", "South", "West"];
  const SYM = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const RANKS = "23456789TJQKA";
  const SVG = "http://www.w3.org/2000/svg";
  const P = D.plays.length;
  const decisionAt = {};
  D.decisions.forEach(function (d) { decisionAt[d.play] = d; });
  let step = 0, viewSeat = D.view, showAll = !!D.show_all, picked = null;

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
  function veiled() { return !showAll; }

  function layoutsText() {
    if (!D.decisions.length) return "";
    const n = D.decisions.map(function (d) { return d.layouts; });
    const lo = Math.min.apply(null, n), hi = Math.max.apply(null, n);
    return (lo === hi ? "each decision valued on " + grouped(lo) : "each decision valued on " + grouped(lo) +
      " to " + grouped(hi)) + " layouts of the unseen cards (more where a label was in doubt; seed " + D.seed + ")";
  }

  function header() {
    const h = document.getElementById("head");
    if (D.session) {
      const nav = el("nav", "session");
      nav.id = "session-nav";
      const link = function (href, label, rel) {
        const a = el("a", "", label);
        a.href = href;
        if (rel) a.rel = rel;
        nav.appendChild(a);
      };
      if (D.session.prev) link(D.session.prev, "\u25C0 deal " + (D.session.number - 1), "prev");
      link(D.session.index, "the session (" + D.session.count + " deals)", "index");
      if (D.session.next) link(D.session.next, "deal " + (D.session.number + 1) + " \u25B6", "next");
      h.appendChild(nav);
    }
    const what = (D.session ? "Deal " + D.session.number + " of " + D.session.count + ": " : "") +
      "Barbu review: " + D.heading + ", declarer " + name(D.declarer);
    h.appendChild(el("h1", "", D.title ? D.title : what));
    const layouts = layoutsText();
    h.appendChild(el("p", "sub", (D.title ? what + ". " : "") + "Values: mc's estimate of the seat's own score " +
      "from that point to the end of the hand, mean \u00b1 standard error" + (layouts ? "; " + layouts : "") + "."));
    const s = el("div", "scores");
    s.id = "final-scores";
    s.appendChild(el("span", "", D.unfinished ? "Scores so far (unfinished):" : "Scores:"));
    SEATS.split("").forEach(function (letter) {
      const x = el("span", "", name(letter) + " ");
      x.appendChild(el("b", "", signed(D.scores[letter])));
      s.appendChild(x);
    });
    h.appendChild(s);
  }

  function handsAt(k) {
    const held = {};
    SEATS.split("").forEach(function (s) { held[s] = D.hands[s].slice(); });
    for (let i = 0; i < k; i++) {
      const p = D.plays[i];
      if (p.card) held[p.seat].splice(held[p.seat].indexOf(p.card), 1);
    }
    return held;
  }

  // What the table has shown of each seat after k plays: the suits it did not follow, its passes (Domino).
  function shownAt(k) {
    const voids = {}, passes = {};
    SEATS.split("").forEach(function (s) { voids[s] = {}; passes[s] = 0; });
    let led = null;
    for (let i = 0; i < k; i++) {
      const p = D.plays[i];
      if (!p.card) { passes[p.seat]++; continue; }
      if (D.domino) continue;
      if (i === 0 || D.plays[i - 1].trick !== p.trick) led = p.card[1];
      else if (p.card[1] !== led) voids[p.seat][led] = true;
    }
    return { voids: voids, passes: passes };
  }

  function seatTag(letter, k) {
    const score = k > 0 ? D.plays[k - 1].scores[SEATS.indexOf(letter)] : 0;
    let out = "";
    for (let i = 0, n = 0; i < k; i++) {
      if (D.plays[i].out) n++;
      if (D.plays[i].out === letter) out = "out " + ["1st", "2nd", "3rd"][n - 1] + " \u00b7 ";
    }
    return (letter === D.declarer ? "declarer \u00b7 " : "") + out + signed(score);
  }

  function seatBox(letter, cards, k, shown) {
    const hidden = veiled() && letter !== viewSeat;
    const box = el("div", "seat " + letter + (hidden ? " hidden" : "") + (letter === viewSeat ? " viewer" : ""));
    box.dataset.seat = letter;
    const p = k > 0 ? D.plays[k - 1] : null;
    if (p && p.seat === letter) box.classList.add("turn");
    const h2 = el("h2", "", name(letter) + (letter === viewSeat && veiled() ? " (this view)" : ""));
    h2.appendChild(el("span", "tag", seatTag(letter, k)));
    box.appendChild(h2);
    if (hidden) {
      const n = cards.length;
      let about = n + (n === 1 ? " card" : " cards") + " hidden";
      if (D.domino && shown.passes[letter]) about += "; passed " + shown.passes[letter] + "\u00d7";
      box.appendChild(el("div", "count", about));
    }
    "SHDC".split("").forEach(function (suit) {
      const line = el("div", "suit");
      line.appendChild(el("span", "sym" + (suit === "H" || suit === "D" ? " red" : ""), SYM[suit]));
      if (hidden) {
        if (D.domino) return;
        line.appendChild(shown.voids[letter][suit] ? el("span", "void", "void") : el("span", "unknown", "?"));
      } else {
        const mine = cards.filter(function (c) { return c[1] === suit; })
          .sort(function (a, b) { return order(a) - order(b); });
        line.appendChild(el("span", "", mine.length ? mine.map(rank).join(" ") : "\u2014"));
      }
      box.appendChild(line);
    });
    return box;
  }

  function trickCenter(k) {
    const c = el("div", "center");
    c.id = "center";
    if (k === 0) {
      c.appendChild(el("div", "caption", "The hands as dealt. " + name(D.declarer) + " leads."));
      return c;
    }
    const p = D.plays[k - 1], t = p.trick;
    let first = k - 1;
    while (first > 0 && D.plays[first - 1].trick === t) first--;
    const grid = el("div", "trick");
    for (let i = first; i < k; i++) {
      const q = D.plays[i];
      let cls = "card " + q.seat + (i === first ? " led" : "") + (i === k - 1 ? " new" : "");
      if (p.winner && q.seat === p.winner) cls += " won";
      grid.appendChild(cardSpan(q.card, cls));
    }
    const cap = el("div", "caption");
    cap.id = "trick-caption";
    cap.textContent = "Trick " + t + ": " + name(D.plays[first].seat) + " led" +
      (p.winner ? "; won by " + name(p.winner) + " (" + signed(p.points) + ")" : "");
    c.appendChild(cap);
    c.appendChild(grid);
    return c;
  }

  function dominoCenter(k) {
    const c = el("div", "center");
    c.id = "center";
    const cap = el("div", "caption");
    cap.id = "trick-caption";
    const p = k > 0 ? D.plays[k - 1] : null;
    cap.textContent = !p ? "The hands as dealt. " + name(D.declarer) + " plays first." :
      "Play " + k + ": " + name(p.seat) + (p.card ? " plays " + cardText(p.card) : " passes") +
      (p.out ? ", and is out" : "");
    c.appendChild(cap);
    const on = {};
    for (let i = 0; i < k; i++) if (D.plays[i].card) on[D.plays[i].card] = true;
    const ranks = D.ace_low ? "A23456789TJQK" : RANKS;
    const grid = el("div", "layout");
    "SHDC".split("").forEach(function (suit) {
      grid.appendChild(el("span", "sym" + (suit === "H" || suit === "D" ? " red" : ""), SYM[suit]));
      ranks.split("").forEach(function (r) {
        const code = r + suit;
        let cls = "cell" + (on[code] ? " on" + (isRed(code) ? " red" : "") : "");
        if (p && p.card === code) cls += " new";
        grid.appendChild(el("span", cls, on[code] ? rank(code) : ""));
      });
    });
    c.appendChild(grid);
    const out = [];
    for (let i = 0; i < k; i++) if (D.plays[i].out) out.push(name(D.plays[i].out));
    if (out.length) c.appendChild(el("div", "caption", "Out: " + out.join(", ")));
    return c;
  }

  function resultBox() {
    const r = el("div", "result");
    r.id = "result";
    r.appendChild(el("b", "", D.unfinished ? "The play stopped here; scores so far" : "Final scores"));
    const grid = el("div");
    SEATS.split("").forEach(function (s) { grid.appendChild(el("span", "", name(s) + " " + signed(D.scores[s]))); });
    r.appendChild(grid);
    return r;
  }

  function drawTable(k) {
    const t = document.getElementById("table");
    t.textContent = "";
    const held = handsAt(k), shown = shownAt(k);
    SEATS.split("").forEach(function (s) { t.appendChild(seatBox(s, held[s], k, shown)); });
    const c = D.domino ? dominoCenter(k) : trickCenter(k);
    if (k === P) c.appendChild(resultBox());
    t.appendChild(c);
  }

  function drawView() {
    document.querySelectorAll("#view button[data-view]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.view === viewSeat));
    });
    document.getElementById("show-all").checked = showAll;
    document.body.classList.toggle("players-view", veiled());
  }

  function where(d) { return d.trick ? "trick " + d.trick : "card " + d.turn; }

  function verdict(d) {
    const v = el("p", "verdict");
    if (d.counts) {
      text(v, "Best ");
      v.appendChild(cardSpan(d.best));
      text(v, ": loses " + fixed(d.loss) + " \u00b1 " + fixed(d.loss_se) + " points ");
      if (d.label) v.appendChild(el("span", "badge " + d.label, d.label));
      else text(v, "(under every label)");
    } else if (d.loss > 0) {
      v.appendChild(cardSpan(d.best));
      text(v, " looks " + fixed(d.loss) + " better: within the noise.");
    } else {
      v.appendChild(el("span", "badge best", "best"));
      text(v, " the best card (or as good as the best).");
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

  function cardDetail(d, e) {
    const box = el("div", "detail");
    box.id = "card-detail";
    const head = el("p", "detail-head");
    head.appendChild(cardSpan(e.card));
    text(head, (e.card === d.card ? " (played)" : "") + (e.card === d.estimates[0].card ? " (best)" : "") + ": " +
      num(e.mean) + " \u00b1 " + fixed(e.se) + (e.layouts ? " over " + grouped(e.layouts) + " layouts" : ""));
    box.appendChild(head);
    if (e.loss !== undefined) {
      const best = d.estimates[0];
      const p1 = el("p");
      if (e.loss === 0) text(p1, e.card === best.card ? "The best card." : "As good as the best card.");
      else {
        text(p1, "Behind the best, ");
        p1.appendChild(cardSpan(best.card));
        text(p1, ", by " + fixed(e.loss) + " \u00b1 " + fixed(e.loss_se) + " points ");
        if (e.label) p1.appendChild(el("span", "badge " + e.label, e.label));
        else text(p1, e.loss > 2 * e.loss_se ? "(under every label)" : "(within the noise)");
      }
      box.appendChild(p1);
      if (e.card !== d.card) {
        const p2 = el("p");
        text(p2, "Against the card played, ");
        p2.appendChild(cardSpan(d.card));
        text(p2, e.vs_played === 0 ? ": the same (equivalent cards)." : ": " + (e.vs_played > 0 ? "better" : "worse") +
          " by " + fixed(Math.abs(e.vs_played)) + " \u00b1 " + fixed(e.vs_played_se) + " points.");
        box.appendChild(p2);
      }
    }
    if (e.line) box.appendChild(lineBox(e.line));
    return box;
  }

  function drawDecision(k) {
    const box = document.getElementById("decision");
    box.textContent = "";
    const d = decisionAt[k];
    if (!d) {
      const next = D.decisions.find(function (x) { return x.play > k; });
      box.appendChild(el("p", "", k === 0 ? "Step through the deal with the arrow keys or the buttons." :
        "No decision reviewed at this play."));
      if (next) box.appendChild(el("p", "", "Next decision: " + name(next.seat) + ", " + where(next) +
        " (play " + next.play + "), Page Down."));
      else if (!D.decisions.length) box.appendChild(el("p", "", "No decision to review in this deal."));
      return;
    }
    const h = el("h3", "", name(d.seat) + ", " + where(d) + ", plays ");
    h.appendChild(cardSpan(d.card));
    box.appendChild(h);
    box.appendChild(verdict(d));
    box.appendChild(el("p", "layouts", "Valued on " + grouped(d.layouts) + " layouts" +
      (d.exact ? ", each searched exactly to the end of the hand." : " (rollouts, the last " +
        (D.domino ? "cards" : "tricks") + " searched exactly).")));
    const table = el("table", "values");
    const head = el("tr");
    ["card", "value", "\u00b1 se", "behind the best"].forEach(function (x) { head.appendChild(el("th", "", x)); });
    table.appendChild(head);
    const top = d.estimates.length ? d.estimates[0].mean : 0;
    const gaps = d.estimates.map(function (e) { return e.loss !== undefined ? e.loss : Math.abs(top - e.mean); });
    const widest = Math.max.apply(null, gaps.concat([1e-9]));
    const chosen = picked || d.card;
    d.estimates.forEach(function (e, i) {
      const row = el("tr", (e.card === d.card ? "played" : "") + (e.card === chosen ? " picked" : ""));
      row.dataset.card = e.card;
      row.title = "Click: this card's value against the best and the card played";
      const first = el("td");
      first.appendChild(cardSpan(e.card));
      if (e.card === d.card) text(first, " played");
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
      row.addEventListener("click", function () { picked = e.card; drawDecision(step); });
      table.appendChild(row);
    });
    box.appendChild(table);
    const e = d.estimates.find(function (x) { return x.card === chosen; }) || d.estimates[0];
    if (e) box.appendChild(cardDetail(d, e));
  }

  function drawChips(k) {
    const box = document.getElementById("decisions");
    box.textContent = "";
    if (!D.decisions.length) return;
    box.appendChild(el("span", "", "Decisions:"));
    D.decisions.forEach(function (d) {
      const chip = el("span", "chip " + (d.label || "") + (d.play === k ? " now" : ""));
      chip.textContent = d.seat + " " + (d.trick ? "T" + d.trick : "#" + d.turn) + " ";
      // the player's view does not show another seat's card before it is played
      if (!(veiled() && d.seat !== viewSeat && d.play > k)) chip.appendChild(cardSpan(d.card));
      chip.title = name(d.seat) + ", " + where(d) + (d.label ? ": " + d.label : "");
      chip.addEventListener("click", function () { go(d.play, "push"); });
      box.appendChild(chip);
    });
  }

  // The hand's graph: the seat's expected final score after each of its decisions (its score so far plus the
  // value of the card it played), the best card's where it was better, the final score at the end.
  function drawGraph(k) {
    const box = document.getElementById("graph");
    box.textContent = "";
    const mine = D.decisions.filter(function (d) { return d.seat === viewSeat; });
    box.appendChild(el("h4", "", name(viewSeat) + "'s expected score after each decision"));
    if (!mine.length) {
      box.appendChild(el("p", "muted", D.reviewed.indexOf(viewSeat) < 0 ? name(viewSeat) +
        "'s decisions were not reviewed." : name(viewSeat) + " had no decision to review."));
      return;
    }
    const si = SEATS.indexOf(viewSeat), final = D.scores[viewSeat];
    const pts = mine.map(function (d) {
      const played = d.estimates.find(function (e) { return e.card === d.card; }) || d.estimates[0];
      return { d: d, y: d.scores_before[si] + played.mean, best: d.scores_before[si] + d.estimates[0].mean };
    });
    const ys = [final];
    pts.forEach(function (p) { ys.push(p.y, p.best); });
    let lo = Math.min.apply(null, ys), hi = Math.max.apply(null, ys);
    if (hi - lo < 2) { lo -= 1; hi += 1; }
    const W = 520, H = 170, L = 44, R = 10, T = 10, B = 22;
    const x = function (play) { return L + (W - L - R) * play / Math.max(P, 1); };
    const y = function (v) { return T + (H - T - B) * (hi - v) / (hi - lo); };
    const g = svg("svg", { viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img",
      "aria-label": name(viewSeat) + "'s expected score" });
    g.id = "graph-svg";
    [lo, (lo + hi) / 2, hi].forEach(function (v) {
      svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), "class": "grid" }, g);
      svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", "class": "axis" }, g).textContent =
        (v >= 0 ? "+" : "") + v.toFixed(Math.abs(hi - lo) < 10 ? 1 : 0);
    });
    svg("text", { x: W - R, y: H - 6, "text-anchor": "end", "class": "axis" }, g).textContent = "play " + P;
    svg("text", { x: L, y: H - 6, "class": "axis" }, g).textContent = "play 0";
    svg("line", { x1: x(k), x2: x(k), y1: T, y2: H - B, "class": "now" }, g).id = "graph-now";
    const path = pts.map(function (p) { return x(p.d.play).toFixed(1) + "," + y(p.y).toFixed(1); });
    svg("polyline", { points: path.join(" "), "class": "played" }, g);
    svg("polyline", { points: path[path.length - 1] + " " + x(P).toFixed(1) + "," + y(final).toFixed(1),
      "class": "tail" }, g);
    svg("rect", { x: x(P) - 4, y: y(final) - 4, width: 8, height: 8, "class": "final" }, g)
      .appendChild(svg("title", {})).textContent = "final score " + signed(final);
    pts.forEach(function (p) {
      const d = p.d;
      if (d.counts) svg("line", { x1: x(d.play), x2: x(d.play), y1: y(p.best), y2: y(p.y), "class": "lost" }, g);
      const dot = svg("circle", { cx: x(d.play), cy: y(p.y), r: d.label ? 6 : 4,
        "class": "point " + (d.label || (d.counts ? "lost" : "ok")) + (d.play === k ? " here" : "") }, g);
      dot.dataset.play = d.play;
      svg("title", {}, dot).textContent = where(d) + ": " + cardText(d.card) + ", expected " + num(p.y) +
        (d.counts ? "; best " + cardText(d.best) + " " + num(p.best) + ", loses " + fixed(d.loss) : "") +
        (d.label ? " (" + d.label + ")" : "");
      dot.addEventListener("click", function () { go(d.play, "push"); });
    });
    box.appendChild(g);
    box.appendChild(el("p", "legend", "Dots: " + name(viewSeat) + "'s decisions (click one to go there), " +
      "coloured by label; a red stroke: the points lost against the best card; the square: the final score."));
  }

  function summary() {
    const box = document.getElementById("summary");
    const seats = Object.keys(D.seats);
    if (!seats.length) return;
    box.appendChild(el("h4", "", "Accuracy"));
    const table = el("table", "values summary");
    const head = el("tr");
    const plural = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };
    const labels = D.label_names.slice().reverse();
    ["seat", "decisions", "forced", "points lost", "accuracy"].concat(labels.map(function (l) { return plural[l]; }))
      .forEach(function (x) { head.appendChild(el("th", "", x)); });
    table.appendChild(head);
    seats.forEach(function (s) {
      const v = D.seats[s], row = el("tr");
      row.dataset.seat = s;
      [name(s), v.decisions, v.forced_plays, fixed(v.points_lost),
        v.accuracy === null ? "\u2013" : v.accuracy.toFixed(1) + "%"].concat(labels.map(function (l) {
        return v.labels[l];
      })).forEach(function (x) { row.appendChild(el("td", "", String(x))); });
      table.appendChild(row);
    });
    box.appendChild(table);
    box.appendChild(el("p", "legend", "Labels here: " + D.labels.slice().reverse().map(function (l) {
      return l[0] + " " + l[1] + "+";
    }).join(", ") + " points lost (beyond the noise)."));
  }

  function buildRecord() {
    const r = document.getElementById("record");
    if (D.domino) {
      r.appendChild(el("h2", "", "Turns"));
      const turns = el("div", "turns");
      D.plays.forEach(function (p, i) {
        const s = el("span", "", p.seat + " ");
        s.dataset.step = i + 1;
        s.appendChild(p.card ? cardSpan(p.card) : el("span", "", "pass"));
        s.addEventListener("click", function () { go(i + 1, "push"); });
        turns.appendChild(s);
      });
      r.appendChild(turns);
      return;
    }
    r.appendChild(el("h2", "", "Tricks"));
    r.appendChild(el("p", "legend", "Underlined: the card led; bold: the card that won the trick. " +
      "Click a trick to see it. In a seat's view the tricks to come are hidden."));
    const table = el("table", "tricks");
    const head = el("tr");
    ["trick"].concat(NAMES, ["won by", "points"]).forEach(function (x) { head.appendChild(el("th", "", x)); });
    table.appendChild(head);
    let row = null;
    D.plays.forEach(function (p, i) {
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
          while (end < P && D.plays[end].trick === p.trick) end++;
          go(end, "push");
        });
        table.appendChild(row);
      }
      const cell = row.children[1 + SEATS.indexOf(p.seat)];
      cell.appendChild(cardSpan(p.card));
      cell.dataset.step = i + 1;
      if (!row.dataset.lead) { row.dataset.lead = p.seat; cell.classList.add("lead"); }
      if (p.winner) {
        row.children[5].appendChild(el("span", "", name(p.winner)));
        row.children[6].appendChild(el("span", "", signed(p.points)));
        row.children[5].dataset.step = row.children[6].dataset.step = i + 1;
        row.children[1 + SEATS.indexOf(p.winner)].classList.add("win");
        row.dataset.end = i + 1;
      }
    });
    r.appendChild(table);
  }

  function markRecord(k) {
    document.querySelectorAll("#record [data-step]").forEach(function (e) {
      const future = Number(e.dataset.step) > k;
      e.classList.toggle("future", future);
      e.classList.toggle("veiled", future && veiled());
      e.classList.toggle("now", Number(e.dataset.step) === k);
    });
    const t = k > 0 ? D.plays[k - 1].trick : null;
    document.querySelectorAll("table.tricks tr[data-trick]").forEach(function (e) {
      e.classList.toggle("now", t !== null && e.dataset.trick === String(t));
    });
  }

  function status(k) {
    const s = document.getElementById("status");
    if (k === 0) { s.textContent = "Start: the hands as dealt (" + P + " plays to come)"; return; }
    const p = D.plays[k - 1];
    s.textContent = "Play " + k + " of " + P + ": " + name(p.seat) + " " +
      (p.card ? "plays " + cardText(p.card) : "passes") + (p.trick ? " (trick " + p.trick + ")" : "");
  }

  function draw() {
    drawView();
    drawTable(step);
    drawDecision(step);
    drawChips(step);
    drawGraph(step);
    markRecord(step);
    status(step);
    document.querySelectorAll("#controls button").forEach(function (b) {
      const g = b.dataset.go;
      b.disabled = ((g === "start" || g === "back") && step === 0) || ((g === "next" || g === "end") && step === P) ||
        (g === "prev-decision" && !D.decisions.some(function (d) { return d.play < step; })) ||
        (g === "next-decision" && !D.decisions.some(function (d) { return d.play > step; }));
    });
  }

  // how: "push" (a jump: the browser's Back returns from it), "replace" (a step), "follow" (the address moved:
  // the page follows it, and writes the address back only where it named no play of the deal).
  function go(k, how) {
    const before = step;
    step = Math.max(0, Math.min(P, Number.isFinite(k) ? k : 0));
    if (step !== before) picked = null;
    draw();
    const hash = "#play-" + step;
    if (location.hash === hash) return;
    try {
      if (how === "push") history.pushState(null, "", hash);
      else history.replaceState(null, "", hash);
    } catch (e) { /* some file:// settings refuse it */ }
  }

  function fromAddress() {
    const m = /^#play-(\d+)$/.exec(location.hash);
    return m ? Number(m[1]) : 0;
  }

  function move(what) {
    if (what === "start") go(0, "push");
    else if (what === "end") go(P, "push");
    else if (what === "back") go(step - 1, "replace");
    else if (what === "next") go(step + 1, "replace");
    else if (what === "next-decision") {
      const d = D.decisions.find(function (x) { return x.play > step; });
      if (d) go(d.play, "push");
    } else if (what === "prev-decision") {
      const before = D.decisions.filter(function (x) { return x.play < step; });
      if (before.length) go(before[before.length - 1].play, "push");
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
  document.querySelectorAll("#view button[data-view]").forEach(function (b) {
    b.addEventListener("click", function () { viewSeat = b.dataset.view; draw(); });
  });
  document.getElementById("show-all").addEventListener("change", function (e) {
    showAll = e.target.checked;
    draw();
  });
  window.addEventListener("hashchange", function () { go(fromAddress(), "follow"); });
  window.addEventListener("popstate", function () { go(fromAddress(), "follow"); });

  header();
  buildRecord();
  summary();
  go(fromAddress(), "replace");
})();
