// The script of the Barbu review page (page.py puts it in the page, after the shared kit of
// barbu_sim/core/review_page/kit.js). It reads the JSON of <script type="application/json" id="review-data">
// (page.review_page_data) and draws the page from it with the kit: the header, the table at the current
// play seen from one seat (or every hand; in Domino the layout of the table), the decision with every legal
// card (a click on one shows its value and line), the list of decisions, the hand's graph, each seat's
// accuracy and the tricks or turns. The kit steps through it and keeps #play-N in the address.
"use strict";
(function () {
  const K = ReviewKit;
  const D = JSON.parse(document.getElementById("review-data").textContent);
  const SEATS = K.SEATS, NAMES = K.NAMES, SYM = K.SYM, RANKS = K.RANKS;
  const el = K.el, name = K.name, rank = K.rank, isRed = K.isRed, cardText = K.cardText, cardSpan = K.cardSpan;
  const signed = K.signed, num = K.num, fixed = K.fixed, grouped = K.grouped;
  const P = D.plays.length;
  const decisionAt = {};
  D.decisions.forEach(function (d) { decisionAt[d.play] = d; });
  let viewSeat = D.view, showAll = !!D.show_all, picked = null, nav = null;

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
    if (D.session) h.appendChild(K.sessionNav(D.session, "deal"));
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

  function passesAt(k) {
    const passes = {};
    SEATS.split("").forEach(function (s) { passes[s] = 0; });
    for (let i = 0; i < k; i++) if (!D.plays[i].card) passes[D.plays[i].seat]++;
    return passes;
  }

  // A seat's tag: declarer, its place out in Domino, its score so far.
  function seatTag(letter, k) {
    let out = "";
    for (let i = 0, n = 0; i < k; i++) {
      if (D.plays[i].out) n++;
      if (D.plays[i].out === letter) out = "out " + ["1st", "2nd", "3rd"][n - 1];
    }
    return K.tag([letter === D.declarer && "declarer", out,
      signed(k > 0 ? D.plays[k - 1].scores[SEATS.indexOf(letter)] : 0)]);
  }

  function dominoCenter(k) {
    const p = k > 0 ? D.plays[k - 1] : null;
    const c = K.center(!p ? "The hands as dealt. " + name(D.declarer) + " plays first." :
      "Play " + k + ": " + name(p.seat) + (p.card ? " plays " + cardText(p.card) : " passes") +
      (p.out ? ", and is out" : ""));
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

  function drawTable(k) {
    const voids = D.domino ? {} : K.voidsAt(D.plays, k), passes = passesAt(k), p = k > 0 ? D.plays[k - 1] : null;
    const c = D.domino ? dominoCenter(k) : k > 0 ? K.trickCenter(D.plays, k) :
      K.center("The hands as dealt. " + name(D.declarer) + " leads.");
    if (k === P) {
      c.appendChild(K.resultBox(D.unfinished ? "The play stopped here; scores so far" : "Final scores",
        SEATS.split("").map(function (s) { return name(s) + " " + signed(D.scores[s]); })));
    }
    K.drawTable(K.handsAt(D.hands, D.plays, k), { seat: viewSeat, veiled: veiled() }, function (s) {
      return { turn: !!(p && p.seat === s), tag: seatTag(s, k), voids: voids[s], suitLines: !D.domino,
        more: D.domino && passes[s] ? "; passed " + passes[s] + "\u00d7" : "" };
    }, c);
  }

  function where(d) { return d.trick ? "trick " + d.trick : "card " + d.turn; }

  const CARDS = K.CARD_OPTIONS;

  function drawDecision(k) {
    const box = K.cleared("decision");
    const d = decisionAt[k];
    if (!d) {
      const next = D.decisions.find(function (x) { return x.play > k; });
      K.noDecision(box, k === 0 ? "Step through the deal with the arrow keys or the buttons." :
        "No decision reviewed at this play.",
        next && "Next decision: " + name(next.seat) + ", " + where(next) + " (play " + next.play + "), Page Down.",
        !D.decisions.length && "No decision to review in this deal.");
      return;
    }
    const h = el("h3", "", name(d.seat) + ", " + where(d) + ", plays ");
    h.appendChild(cardSpan(d.card));
    box.appendChild(h);
    box.appendChild(K.verdict(d, CARDS));
    box.appendChild(el("p", "layouts", "Valued on " + grouped(d.layouts) + " layouts" +
      (d.exact ? ", each searched exactly to the end of the hand." : " (rollouts, the last " +
        (D.domino ? "cards" : "tricks") + " searched exactly).")));
    K.values(box, d, Object.assign({ picked: picked, pick: function (c) { picked = c; drawDecision(k); } }, CARDS));
  }

  function drawChips(k) {
    K.chips(D.decisions.map(function (d) {
      return { step: d.play, label: d.label, prefix: d.seat + " " + (d.trick ? "T" + d.trick : "#" + d.turn) + " ",
        // the player's view does not show another seat's card before it is played
        node: veiled() && d.seat !== viewSeat && d.play > k ? null : cardSpan(d.card),
        title: name(d.seat) + ", " + where(d) + (d.label ? ": " + d.label : "") };
    }), k, function (s) { nav.go(s, "push"); });
  }

  // The hand's graph: the seat's expected final score after each of its decisions (its score so far plus the
  // value of the card it played), the best card's where it was better, the final score at the end.
  function drawGraph(k) {
    const mine = D.decisions.filter(function (d) { return d.seat === viewSeat; });
    const si = SEATS.indexOf(viewSeat), final = D.scores[viewSeat];
    const o = { title: name(viewSeat) + "'s expected score after each decision", now: k, from: 0, to: P,
      fromLabel: "play 0", toLabel: "play " + P, final: final, finalTip: "final score " + signed(final),
      jump: function (s) { nav.go(s, "push"); },
      legend: "Dots: " + name(viewSeat) + "'s decisions (click one to go there), " +
        "coloured by label; a red stroke: the points lost against the best card; the square: the final score." };
    if (!mine.length) {
      o.empty = D.reviewed.indexOf(viewSeat) < 0 ? name(viewSeat) + "'s decisions were not reviewed." :
        name(viewSeat) + " had no decision to review.";
      K.graph(o);
      return;
    }
    o.points = mine.map(function (d) {
      const played = d.estimates.find(function (e) { return e.card === d.card; }) || d.estimates[0];
      const y = d.scores_before[si] + played.mean, best = d.scores_before[si] + d.estimates[0].mean;
      return { step: d.play, y: y, best: best, counts: d.counts, label: d.label,
        tip: where(d) + ": " + cardText(d.card) + ", expected " + num(y) +
          (d.counts ? "; best " + cardText(d.best) + " " + num(best) + ", loses " + fixed(d.loss) : "") +
          (d.label ? " (" + d.label + ")" : "") };
    });
    K.graph(o);
  }

  function summary() {
    const plural = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };
    const labels = D.label_names.slice().reverse();
    K.summary({
      columns: ["seat", "decisions", "forced", "points lost", "accuracy"].concat(labels.map(function (l) {
        return plural[l];
      })),
      rows: Object.keys(D.seats).map(function (s) {
        const v = D.seats[s];
        return { seat: s, cells: [name(s), v.decisions, v.forced_plays, fixed(v.points_lost),
          v.accuracy === null ? "\u2013" : v.accuracy.toFixed(1) + "%"].concat(labels.map(function (l) {
          return v.labels[l];
        })) };
      }),
      legend: "Labels here: " + D.labels.slice().reverse().map(function (l) {
        return l[0] + " " + l[1] + "+";
      }).join(", ") + " points lost (beyond the noise)."
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
        s.appendChild(p.card ? cardSpan(p.card) : el("span", "", "pass"));
        s.addEventListener("click", function () { nav.go(i + 1, "push"); });
        turns.appendChild(s);
      });
      r.appendChild(turns);
      return;
    }
    r.appendChild(el("h2", "", "Tricks"));
    r.appendChild(el("p", "legend", "Underlined: the card led; bold: the card that won the trick. " +
      "Click a trick to see it. In a seat's view the tricks to come are hidden."));
    r.appendChild(K.tricksTable(D.plays, function (i) { return i + 1; }, function (s) { nav.go(s, "push"); }));
  }

  function status(k) {
    const s = document.getElementById("status");
    if (k === 0) { s.textContent = "Start: the hands as dealt (" + P + " plays to come)"; return; }
    const p = D.plays[k - 1];
    s.textContent = "Play " + k + " of " + P + ": " + name(p.seat) + " " +
      (p.card ? "plays " + cardText(p.card) : "passes") + (p.trick ? " (trick " + p.trick + ")" : "");
  }

  function draw(k) {
    K.drawView(viewSeat, showAll);
    [drawTable, drawDecision, drawChips, drawGraph].forEach(function (part) { part(k); });
    K.markRecord(k, veiled(), k > 0 ? D.plays[k - 1].trick : null);
    status(k);
  }

  nav = K.stepper({ steps: P, decisions: D.decisions.map(function (d) { return d.play; }), draw: draw,
    moved: function () { picked = null; }, hash: function (k) { return "#play-" + k; },
    parse: function (hash) {
      const m = /^#play-(\d+)$/.exec(hash);
      return m ? Number(m[1]) : null;
    } });
  K.boot(nav, function (seat) { viewSeat = seat; }, function (all) { showAll = all; }, [header, buildRecord, summary]);
})();
