// The script of the review page (page.py puts it in the page). It reads the JSON of
// <script type="application/json" id="review-data"> (page.review_page_data) and draws the page
// from it with the DOM: the header, the table at the current play, the decision, the list of decisions
// and the tricks or turns. It steps on the arrow keys, Home/End, PageUp/PageDown and the buttons, and
// keeps #play-N in the address. It needs nothing from elsewhere.
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("review-data").textContent);
  const SEATS = "NESW", NAMES = ["North", "East", "South", "West"];
  const SYM = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const RANKS = "23456789TJQKA";
  const P = D.plays.length;
  const decisionAt = {};
  D.decisions.forEach(function (d) { decisionAt[d.play] = d; });
  let step = 0;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
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
  function order(code) { return "SHDC".indexOf(code[1]) * 13 + (12 - RANKS.indexOf(code[0])); }

  function header() {
    const h = document.getElementById("head");
    const what = "Barbu review: " + D.heading + ", declarer " + name(D.declarer);
    h.appendChild(el("h1", "", D.title ? D.title : what));
    h.appendChild(el("p", "sub", (D.title ? what + ". " : "") + "Values: mc's estimate of the seat's own score " +
      "from that point to the end of the hand, mean \u00b1 standard error over " + D.samples +
      " layouts of the unseen cards (seed " + D.seed + ")."));
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

  function seatBox(letter, cards, k) {
    const box = el("div", "seat " + letter);
    box.dataset.seat = letter;
    const p = k > 0 ? D.plays[k - 1] : null;
    if (p && p.seat === letter) box.classList.add("turn");
    const h2 = el("h2", "", name(letter));
    const score = k > 0 ? D.plays[k - 1].scores[SEATS.indexOf(letter)] : 0;
    let out = "";
    for (let i = 0, n = 0; i < k; i++) {
      if (D.plays[i].out) n++;
      if (D.plays[i].out === letter) out = "out " + ["1st", "2nd", "3rd"][n - 1] + " \u00b7 ";
    }
    h2.appendChild(el("span", "tag", (letter === D.declarer ? "declarer \u00b7 " : "") + out + signed(score)));
    box.appendChild(h2);
    "SHDC".split("").forEach(function (suit) {
      const line = el("div", "suit");
      line.appendChild(el("span", "sym" + (suit === "H" || suit === "D" ? " red" : ""), SYM[suit]));
      const mine = cards.filter(function (c) { return c[1] === suit; })
        .sort(function (a, b) { return order(a) - order(b); });
      line.appendChild(el("span", "", mine.length ? mine.map(rank).join(" ") : "\u2014"));
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
    const held = handsAt(k);
    SEATS.split("").forEach(function (s) { t.appendChild(seatBox(s, held[s], k)); });
    const c = D.domino ? dominoCenter(k) : trickCenter(k);
    if (k === P) c.appendChild(resultBox());
    t.appendChild(c);
  }

  function where(d) { return d.trick ? "trick " + d.trick : "play " + d.play; }

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
    const v = el("p", "verdict");
    if (d.counts) {
      v.appendChild(document.createTextNode("Best "));
      v.appendChild(cardSpan(d.best));
      v.appendChild(document.createTextNode(": loses " + Number(d.loss).toFixed(2) + " \u00b1 " +
        Number(d.loss_se).toFixed(2) + " points "));
      if (d.label) v.appendChild(el("span", "badge " + d.label, d.label));
      else v.appendChild(document.createTextNode("(under every label)"));
    } else if (d.loss > 0) {
      v.appendChild(cardSpan(d.best));
      v.appendChild(document.createTextNode(" looks " + Number(d.loss).toFixed(2) + " better: within the noise."));
    } else {
      v.appendChild(el("span", "badge best", "best"));
      v.appendChild(document.createTextNode(" the best card (or as good as the best)."));
    }
    box.appendChild(v);
    const table = el("table", "values");
    const head = el("tr");
    ["card", "value", "\u00b1 se", "behind the best"].forEach(function (x) { head.appendChild(el("th", "", x)); });
    table.appendChild(head);
    const top = d.estimates.length ? d.estimates[0].mean : 0;
    const gaps = d.estimates.map(function (e) { return Math.abs(top - e.mean); });
    const widest = Math.max.apply(null, gaps.concat([1e-9]));
    d.estimates.forEach(function (e, i) {
      const row = el("tr", e.card === d.card ? "played" : "");
      row.dataset.card = e.card;
      const first = el("td");
      first.appendChild(cardSpan(e.card));
      if (e.card === d.card) first.appendChild(document.createTextNode(" played"));
      if (i === 0) first.appendChild(document.createTextNode(" best"));
      row.appendChild(first);
      row.appendChild(el("td", "", num(e.mean)));
      row.appendChild(el("td", "", Number(e.se).toFixed(2)));
      const gap = el("td", "", gaps[i] ? Number(gaps[i]).toFixed(2) + " " : "");
      const bar = el("span", "bar");
      bar.style.width = Math.round(90 * gaps[i] / widest) + "px";
      gap.appendChild(bar);
      row.appendChild(gap);
      table.appendChild(row);
    });
    box.appendChild(table);
  }

  function drawChips(k) {
    const box = document.getElementById("decisions");
    box.textContent = "";
    if (!D.decisions.length) return;
    box.appendChild(el("span", "", "Decisions:"));
    D.decisions.forEach(function (d) {
      const chip = el("span", "chip " + (d.label || "") + (d.play === k ? " now" : ""));
      chip.textContent = d.seat + " " + (d.trick ? "T" + d.trick : "#" + d.play) + " ";
      chip.appendChild(cardSpan(d.card));
      chip.title = name(d.seat) + ", " + where(d) + (d.label ? ": " + d.label : "");
      chip.addEventListener("click", function () { go(d.play); });
      box.appendChild(chip);
    });
  }

  function buildRecord() {
    const r = document.getElementById("record");
    if (D.domino) {
      r.appendChild(el("h2", "", "Turns"));
      const turns = el("div", "turns");
      D.plays.forEach(function (p, i) {
        const s = el("span", "", p.seat + " ");
        s.dataset.step = i + 1;
        if (p.card) s.appendChild(cardSpan(p.card)); else s.appendChild(document.createTextNode("pass"));
        s.addEventListener("click", function () { go(i + 1); });
        turns.appendChild(s);
      });
      r.appendChild(turns);
      return;
    }
    r.appendChild(el("h2", "", "Tricks"));
    r.appendChild(el("p", "legend", "Underlined: the card led; bold: the card that won the trick. " +
      "Click a trick to see it."));
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
          go(end);
        });
        table.appendChild(row);
      }
      const cell = row.children[1 + SEATS.indexOf(p.seat)];
      cell.appendChild(cardSpan(p.card));
      cell.dataset.step = i + 1;
      if (!row.dataset.lead) { row.dataset.lead = p.seat; cell.classList.add("lead"); }
      if (p.winner) {
        row.children[5].textContent = name(p.winner);
        row.children[6].textContent = signed(p.points);
        row.children[1 + SEATS.indexOf(p.winner)].classList.add("win");
        row.dataset.end = i + 1;
      }
    });
    r.appendChild(table);
  }

  function markRecord(k) {
    document.querySelectorAll("#record [data-step]").forEach(function (e) {
      e.classList.toggle("future", Number(e.dataset.step) > k);
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

  function go(k) {
    step = Math.max(0, Math.min(P, k));
    drawTable(step);
    drawDecision(step);
    drawChips(step);
    markRecord(step);
    status(step);
    document.querySelectorAll("#controls button").forEach(function (b) {
      const g = b.dataset.go;
      b.disabled = ((g === "start" || g === "back") && step === 0) || ((g === "next" || g === "end") && step === P) ||
        (g === "prev-decision" && !D.decisions.some(function (d) { return d.play < step; })) ||
        (g === "next-decision" && !D.decisions.some(function (d) { return d.play > step; }));
    });
    try { history.replaceState(null, "", "#play-" + step); } catch (e) { /* some file:// settings refuse it */ }
  }

  function move(what) {
    if (what === "start") go(0);
    else if (what === "end") go(P);
    else if (what === "back") go(step - 1);
    else if (what === "next") go(step + 1);
    else if (what === "next-decision") {
      const d = D.decisions.find(function (x) { return x.play > step; });
      if (d) go(d.play);
    } else if (what === "prev-decision") {
      const before = D.decisions.filter(function (x) { return x.play < step; });
      if (before.length) go(before[before.length - 1].play);
    }
  }

  const KEYS = { ArrowRight: "next", ArrowLeft: "back", Home: "start", End: "end",
    PageDown: "next-decision", PageUp: "prev-decision" };
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || !KEYS[e.key]) return;
    e.preventDefault();
    move(KEYS[e.key]);
  });
  document.querySelectorAll("#controls button").forEach(function (b) {
    b.addEventListener("click", function () { move(b.dataset.go); });
  });

  header();
  buildRecord();
  const m = /^#play-(\d+)$/.exec(location.hash);
  go(m ? Number(m[1]) : 0);
})();
