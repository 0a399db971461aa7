// The script of the Clabber review page (page.py puts it in the page, after the shared kit of
// barbu_sim/core/review_page/kit.js). It reads the JSON of <script type="application/json" id="review-data">
// (page.round_page_data) and draws the round with the kit: step 0 the hands as dealt and the turned card,
// then one step per call of the bidding, then one per card. At a reviewed call every option, at a reviewed
// card every legal card, with its value (a click on one shows it against the best and the one chosen); the
// table seen from one seat (its hand, the turned card, the melds the others declared, their voids) or every
// hand; the hand's graph of the seat's team; each seat's decisions and labels; the bidding and the tricks.
// The kit steps through it and keeps #call-N or #play-N in the address.
"use strict";
(function () {
  const K = ReviewKit;
  const D = JSON.parse(document.getElementById("review-data").textContent);
  const SEATS = K.SEATS, SYM = K.SYM;
  const el = K.el, name = K.name, cardText = K.cardText, cardSpan = K.cardSpan, text = K.text;
  const signed = K.signed, num = K.num, fixed = K.fixed, grouped = K.grouped;
  const B = D.calls.length, P = D.plays.length, N = B + P;
  const SUITS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  const decisionAt = {};
  D.decisions.forEach(function (d) { decisionAt[d.step] = d; });
  let viewSeat = D.view, showAll = !!D.show_all, picked = null, nav = null;

  function veiled() { return !showAll; }
  function team(letter) { return SEATS.indexOf(letter) & 1; }
  function teamName(t) { return t ? "E+W" : "N+S"; }
  function suitSpan(letter) { return el("span", letter === "H" || letter === "D" ? "red" : "", SYM[letter]); }
  // an option of the bidding as the page shows it, a tag: pass, play, or the suit named
  function optionNode(option) {
    return el("span", "opt" + (option === "H" || option === "D" ? " red" : ""), SYM[option] || option);
  }
  function said(option) { return option === "pass" ? "passes" : option === "play" ? "plays" : "names " + SUITS[option]; }

  function header() {
    const h = document.getElementById("head");
    if (D.session) h.appendChild(K.sessionNav(D.session, "round"));
    const h1 = el("h1", "", (D.session ? "Round " + D.session.number + " of " + D.session.count + ": " : "") +
      (D.title ? D.title + ": " : "") + "Clabber review: ");
    if (D.trump) {
      text(h1, "trump ");
      h1.appendChild(suitSpan(D.trump));
      text(h1, " (bidding round " + D.bid_round + "), makers " + name(D.maker) + " and " +
        name(SEATS[(SEATS.indexOf(D.maker) + 2) % 4]) + ", dealer " + name(D.dealer));
    } else text(h1, "thrown in, dealer " + name(D.dealer));
    h.appendChild(h1);
    const parts = [];
    if (D.call_samples) parts.push("a call's, its team's round score minus the opponents' (the rest bidding " +
      D.bidding + ", mc at every seat)");
    if (D.decisions.some(function (d) { return d.kind === "card"; })) parts.push("a card's, its team's round " +
      "score (then heuristic at every seat)");
    h.appendChild(el("p", "sub", "Values, mean \u00b1 standard error over " + grouped(D.samples) + " layouts of " +
      "the unseen cards (seed " + D.seed + ")" + (parts.length ? ": " + parts.join("; ") : "") + "."));
    const s = el("div", "scores");
    s.id = "final-scores";
    if (D.thrown_in) s.appendChild(el("span", "", "Eight passes: the cards were thrown in, no score."));
    else if (!D.scores) s.appendChild(el("span", "", "Unfinished: the play stopped early."));
    else {
      s.appendChild(el("span", "", "Scores:"));
      ["NS", "EW"].forEach(function (t, i) {
        const x = el("span", "", teamName(i) + " ");
        x.appendChild(el("b", "", String(D.scores[t])));
        s.appendChild(x);
      });
    }
    h.appendChild(s);
  }

  function playsAt(k) { return Math.max(0, k - B); }

  // Whether seat s has declared its melds after k steps: all at once when the bidding is over
  // (meld-show=at-once), else as it plays to the first trick.
  function declared(s, k) {
    if (!D.melds.seats[s] || k < B || !D.trump) return false;
    if (D.melds.show === "at-once") return true;
    for (let i = 0; i < Math.min(4, playsAt(k)); i++) if (D.plays[i].seat === s) return true;
    return false;
  }

  // The cards seat s was seen to hold after k steps: the turned card (the dealer's), its melds declared.
  function seenAt(s, k) {
    return (s === D.dealer ? [D.turned] : []).concat(declared(s, k) ? D.melds.seats[s].cards : []);
  }

  function seatTag(letter, k) {
    return K.tag([letter === D.dealer && "dealer", D.maker && k >= B && letter === D.maker && "maker"]);
  }

  function biddingCenter(k) {
    const first = name(SEATS[(SEATS.indexOf(D.dealer) + 1) % 4]);
    let caption = "The hands as dealt. " + name(D.dealer) + " deals; " + first + " speaks first.";
    if (k > 0) {
      caption = "Bidding round " + (k <= 4 ? 1 : 2) + ": " + D.calls[k - 1].text;
      if (k === B) caption += D.trump ? ". " + SUITS[D.trump][0].toUpperCase() + SUITS[D.trump].slice(1) +
        " are trump: " + name(D.maker) + " and partner make it." : ". Eight passes: the cards are thrown in.";
    }
    const c = K.center(caption, "bidding");
    const turned = el("div", "turned", "Turned card");
    turned.appendChild(el("br"));
    turned.appendChild(cardSpan(D.turned, "card"));
    c.appendChild(turned);
    const calls = el("div", "calls");
    for (let i = 0; i < k; i++) {
      const s = el("span", i === k - 1 ? "now" : "", D.calls[i].seat + " ");
      s.appendChild(optionNode(D.calls[i].call));
      calls.appendChild(s);
    }
    c.appendChild(calls);
    return c;
  }

  function resultBox() {
    if (D.thrown_in) return K.resultBox("Thrown in: no score", []);
    const last = P ? D.plays[P - 1].team_points : [0, 0];
    let more = null;
    if (D.scores) {
      const bell = D.melds.bell ? team(D.melds.bell) : null;
      const made = team(D.maker), total = last[made] + D.melds.scored[made] + (bell === made ? D.bell_points : 0);
      let words = "cards " + last[0] + " / " + last[1] + ", melds " + D.melds.scored[0] + " / " + D.melds.scored[1] +
        (bell !== null ? ", bell " + teamName(bell) + " " + D.bell_points : "");
      if (D.scores[made ? "EW" : "NS"] === 0 && total > 0) words += "; the makers fell short: they score nothing";
      more = el("div", "breakdown", words);
    }
    return K.resultBox(D.scores ? "Final scores" : "The play stopped here; card points so far", [0, 1].map(function (t) {
      return teamName(t) + " " + (D.scores ? D.scores[t ? "EW" : "NS"] : last[t]);
    }), more);
  }

  function drawTable(k) {
    const voids = K.voidsAt(D.plays, playsAt(k)), p = k > B ? D.plays[k - B - 1] : null;
    let c;
    if (k <= B) c = biddingCenter(k);
    else {
      c = K.trickCenter(D.plays, k - B);
      const note = el("div", "trump-note", "Trump ");
      note.appendChild(suitSpan(D.trump));
      const points = D.plays[k - B - 1].team_points;
      text(note, ", made by " + name(D.maker) + ". Card points: N+S " + points[0] + ", E+W " + points[1]);
      note.id = "card-points";
      c.appendChild(note);
    }
    if (k === N && (k > B || D.thrown_in)) c.appendChild(resultBox());
    K.drawTable(K.handsAt(D.hands, D.plays, playsAt(k)), { seat: viewSeat, veiled: veiled() }, function (s) {
      const melds = D.melds.seats[s];
      return { turn: k > B ? !!(p && p.seat === s) : k > 0 && D.calls[k - 1].seat === s, tag: seatTag(s, k),
        voids: voids[s], known: seenAt(s, k), extra: declared(s, k) ? el("div", "melds", "melds declared: " +
          melds.points + " (" + melds.cards.map(cardText).join(" ") + ")") : null };
    }, c);
  }

  function where(d) { return d.kind === "call" ? "bidding round " + d.round : "trick " + d.trick; }

  const CARDS = K.CARD_OPTIONS;
  const CALLS = { key: function (e) { return e.card; }, show: optionNode, noun: "call", taken: "made" };

  function drawDecision(k) {
    const box = K.cleared("decision");
    const d = decisionAt[k];
    if (!d) {
      const next = D.decisions.find(function (x) { return x.step > k; });
      K.noDecision(box, k === 0 ? "Step through the round, call by call and card by card, with the " +
        "arrow keys or the buttons." : "No decision reviewed at this " + (k <= B ? "call." : "play."),
        next && "Next decision: " + name(next.seat) + ", " + where(next) +
          (next.kind === "call" ? " (call " + next.call_no + ")" : " (play " + next.play + ")") + ", Page Down.",
        !D.decisions.length && "No decision to review in this round.");
      return;
    }
    const o = d.kind === "call" ? CALLS : CARDS;
    const h = el("h3", "", name(d.seat) + ", " + where(d) + ", " + (d.kind === "call" ? said(d.card) : "plays "));
    if (d.kind === "card") h.appendChild(cardSpan(d.card));
    box.appendChild(h);
    box.appendChild(K.verdict(d, o));
    box.appendChild(el("p", "layouts", d.kind === "call" ?
      "Each call played out on the same " + grouped(D.call_samples) + " layouts of the unseen cards: the rest " +
      "bidding " + D.bidding + ", mc at every seat; the value is the caller's team's score minus the opponents'." :
      "Each card played out on the same " + grouped(D.samples) + " layouts of the unseen cards, then heuristic at " +
      "every seat; the value is the seat's team's round score."));
    K.values(box, d, Object.assign({ picked: picked, pick: function (c) { picked = c; drawDecision(k); } }, o));
  }

  function drawChips(k) {
    K.chips(D.decisions.map(function (d) {
      const call = d.kind === "call";
      return { step: d.step, label: d.label, prefix: d.seat + " " + (call ? "bid " + d.call_no : "T" + d.trick) + " ",
        // the player's view does not show another seat's call or card before it is made
        node: veiled() && d.seat !== viewSeat && d.step > k ? null : (call ? optionNode(d.card) : cardSpan(d.card)),
        title: name(d.seat) + ", " + where(d) + (d.label ? ": " + d.label : "") };
    }), k, function (s) { nav.go(s, "push"); });
  }

  // The hand's graph: the seat's team's expected round score after each of its cards (the value of the card it
  // played), the best card's where it was better, the final score at the end. The calls are valued as a net
  // score (the team's minus the opponents'): they are in the chips and the bidding, not on this scale.
  function drawGraph(k) {
    const mine = D.decisions.filter(function (d) { return d.seat === viewSeat && d.kind === "card"; });
    const t = team(viewSeat), last = P ? D.plays[P - 1].team_points[t] : 0;
    const final = D.scores ? D.scores[t ? "EW" : "NS"] : last;
    const o = { title: name(viewSeat) + "'s team's expected score after each of " + name(viewSeat) + "'s cards",
      now: k, from: B, to: N, fromLabel: "play 0", toLabel: "play " + P, final: final,
      finalTip: (D.scores ? "final score " : "card points so far ") + final, jump: function (s) { nav.go(s, "push"); },
      legend: "Dots: " + name(viewSeat) + "'s card decisions (click one to go there), coloured by label; a red " +
        "stroke: the points lost against the best card; the square: " + teamName(t) + "'s " +
        (D.scores ? "final score." : "card points when the play stopped.") + " The calls are in the chips above." };
    if (!mine.length) {
      o.empty = D.thrown_in ? "No card was played: the cards were thrown in." :
        D.reviewed.indexOf(viewSeat) < 0 ? name(viewSeat) + "'s decisions were not reviewed." :
          name(viewSeat) + " had no card decision to review.";
      K.graph(o);
      return;
    }
    o.points = mine.map(function (d) {
      const played = d.estimates.find(function (e) { return e.card === d.card; }) || d.estimates[0];
      const best = d.estimates[0].mean;
      return { step: d.step, play: d.play, y: played.mean, best: best, counts: d.counts, label: d.label,
        tip: where(d) + ": " + cardText(d.card) + ", expected " + num(played.mean) +
          (d.counts ? "; best " + cardText(d.best) + " " + num(best) + ", loses " + fixed(d.loss) : "") +
          (d.label ? " (" + d.label + ")" : "") };
    });
    K.graph(o);
  }

  function summary() {
    const plural = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };
    const labels = D.labels.map(function (l) { return l[0]; }).reverse();
    K.summary({
      columns: ["seat", "decisions", "calls", "forced", "points lost"].concat(labels.map(function (l) {
        return plural[l];
      })),
      rows: Object.keys(D.seats).map(function (s) {
        const v = D.seats[s];
        return { seat: s, cells: [name(s), v.decisions, v.calls, v.forced, v.points_lost.toFixed(1)].concat(
          labels.map(function (l) { return v.labels[l]; })) };
      }),
      legend: "Decisions: the calls and the cards; forced: the calls and plays with one option. Labels: " +
        D.labels.slice().reverse().map(function (l) { return l[0] + " " + l[1] + "+"; }).join(", ") +
        " points lost, counted above " + D.noise + " standard errors."
    });
  }

  function buildRecord() {
    const r = document.getElementById("record");
    r.appendChild(el("h2", "", "Bidding"));
    const calls = el("div", "calls-record");
    calls.appendChild(el("span", "", "Turned " + cardText(D.turned) + "; " + name(D.dealer) + " deals:"));
    D.calls.forEach(function (c, i) {
      const s = el("span", "", c.seat + " ");
      s.dataset.step = i + 1;
      s.appendChild(optionNode(c.call));
      s.title = c.text;
      s.addEventListener("click", function () { nav.go(i + 1, "push"); });
      calls.appendChild(s);
    });
    r.appendChild(calls);
    if (!P) return;
    r.appendChild(el("h2", "", "Tricks"));
    r.appendChild(el("p", "legend", "Underlined: the card led; bold: the card that won the trick; points: the " +
      "trick's card points (the last trick's 10 included). Click a trick to see it. In a seat's view the tricks " +
      "to come are hidden."));
    r.appendChild(K.tricksTable(D.plays, function (i) { return B + i + 1; }, function (s) { nav.go(s, "push"); }));
  }

  function status(k) {
    const s = document.getElementById("status");
    if (k === 0) {
      s.textContent = "Start: the hands as dealt, the turned card " + cardText(D.turned) + " (" + B + " calls" +
        (P ? " and " + P + " cards" : "") + " to come)";
    } else if (k <= B) s.textContent = "Call " + k + " of " + B + ": " + D.calls[k - 1].text;
    else {
      const p = D.plays[k - B - 1];
      s.textContent = "Play " + (k - B) + " of " + P + ": " + name(p.seat) + " plays " + cardText(p.card) +
        " (trick " + p.trick + ")";
    }
  }

  function draw(k) {
    K.drawView(viewSeat, showAll);
    [drawTable, drawDecision, drawChips, drawGraph].forEach(function (part) { part(k); });
    K.markRecord(k, veiled(), k > B ? D.plays[k - B - 1].trick : null);
    status(k);
  }

  nav = K.stepper({ steps: N, decisions: D.decisions.map(function (d) { return d.step; }), draw: draw,
    moved: function () { picked = null; },
    hash: function (k) { return k === 0 ? "#deal" : k <= B ? "#call-" + k : "#play-" + (k - B); },
    parse: function (hash) {
      if (hash === "#deal") return 0;
      const m = /^#(call|play)-(\d+)$/.exec(hash);
      if (!m) return null;
      return m[1] === "call" ? Math.min(Number(m[2]), B) : B + Number(m[2]);
    } });
  K.boot(nav, function (seat) { viewSeat = seat; }, function (all) { showAll = all; }, [header, buildRecord, summary]);
})();
