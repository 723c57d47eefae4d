// The online table's score sheet (issue 20): the engine's GameState.score() (the view's
// `score`, the API's GET /api/play/tables/<id>/ field `score`) written out as the variant
// keeps it: above and below the line for each game, each game of a rubber with its winner,
// the rubber's (or the session's) points, each hand's row where the variant keeps hands,
// the totals, the target where the score has one, and the winner once. Every number shown
// is the score's own, none worked out here.
//
// For tests and readers every row has data-row="<stable key>" ("game-1-above",
// "game-1-below", "hand-3", "total", "points", ...) and every numeric cell
// data-side="<the score's side code>" ("NS", "EW", "N", "E+S"): see tests/browser/sheets.py.
//
// play.js calls window.playSheet.build(score, tools) with its own helpers
// (tools: words, el, fill, seatName, sideName, callText): one definition of each.
(function () {
  "use strict";
  var opened = {};  // a collapsible part the reader opened (or closed) stays so across renders

  function build(score, t) {
    var words = t.words, w = words.sheet || {}, el = t.el, fill = t.fill;
    var box = el("div", "sheets");
    var more = [];  // the collapsible parts (a hand by hand record, the last hand): under the winner
    score = score || {};

    function isNumber(v) { return typeof v === "number" && isFinite(v); }
    function text(v) { return isNumber(v) ? String(v) : ""; }
    function sidesOf(line) { return Object.keys(line || {}); }
    function sideOfSeat(seat, sides) {
      // The side a seat plays for: "N" in "NS", in "S+N", or a side of its own.
      for (var i = 0; i < sides.length; i++) {
        var s = sides[i];
        if (s === seat) return s;
        if (s.indexOf("+") !== -1 ? s.split("+").indexOf(seat) !== -1 : s.indexOf(seat) !== -1) return s;
      }
      return null;
    }
    function names(list) { return list.map(t.sideName).join(", "); }
    function won(side) {
      return fill(words.side_won, {side: Array.isArray(side) ? names(side) : t.sideName(side)});
    }

    // One table of a part of the sheet: a column for each side, a row for each line.
    function sheet(part, sides, head) {
      var wrap = el("div", "sheet-wrap");
      var table = el("table", "sheet");
      table.setAttribute("data-part", part);
      if (sides.length > 2) table.classList.add("sheet-wide");
      var thead = el("thead"), tr = el("tr");
      tr.setAttribute("data-row", part + "-head");
      var corner = el("th", "corner", head || "");
      corner.scope = "col";
      tr.appendChild(corner);
      sides.forEach(function (s) {
        var th = el("th", "side", t.sideName(s));
        th.scope = "col";
        th.setAttribute("data-head", s);
        tr.appendChild(th);
      });
      thead.appendChild(tr);
      table.appendChild(thead);
      wrap.appendChild(table);
      var body = null;
      return {
        wrap: wrap,
        group: function (cls) { body = el("tbody", cls || ""); table.appendChild(body); return body; },
        // A line: its label (text, or [title, detail]) and a number for each side that has one.
        row: function (key, label, values, cls) {
          if (!body) this.group();
          var row = el("tr", cls || "");
          row.setAttribute("data-row", key);
          var th = el("th", "label");
          th.scope = "row";
          if (Array.isArray(label)) {
            th.appendChild(el("span", "label-main", label[0]));
            label.slice(1).filter(Boolean).forEach(function (d) { th.appendChild(el("span", "label-detail", d)); });
          } else {
            th.textContent = label;
          }
          row.appendChild(th);
          sides.forEach(function (s) {
            var v = values ? values[s] : undefined;
            var td = el("td", isNumber(v) ? "num" : "num blank", text(v));
            td.setAttribute("data-side", s);
            row.appendChild(td);
          });
          body.appendChild(row);
          return row;
        },
        // A heading line inside the table (a game's number and its winner).
        heading: function (key, label) {
          this.group("game");
          var row = el("tr", "game-head");
          row.setAttribute("data-row", key);
          var th = el("th", "", label);
          th.colSpan = sides.length + 1;
          th.scope = "rowgroup";
          row.appendChild(th);
          body.appendChild(row);
          return row;
        }
      };
    }
    function note(key, label, value) {  // a number that belongs to no side (the target, hands played)
      var p = el("p", "sheet-note");
      p.setAttribute("data-row", key);
      var parts = String(label).split("%(n)s");
      var n = el("strong", "num", text(value));
      n.setAttribute("data-value", text(value));
      p.appendChild(document.createTextNode(parts[0]));
      p.appendChild(n);
      if (parts[1]) p.appendChild(document.createTextNode(parts[1]));
      return p;
    }
    function collapsible(key, title, content, openFirst) {
      var d = el("details", "sheet-more");
      d.setAttribute("data-row", key);
      d.open = opened[key] === undefined ? !!openFirst : opened[key];
      d.appendChild(el("summary", "", title));
      d.appendChild(content);
      d.addEventListener("toggle", function () { opened[key] = d.open; });
      return d;
    }
    function gameTitle(n, game, of) {
      var bits = [fill(of || words.game_n, {n: n})];
      if (game.special_suit) bits.push(fill(w.special_suit, {suit: t.callText(game.special_suit)}));
      if (game.winner) bits.push(won(game.winner));
      return bits.join(" · ");
    }
    function lines(s, key, game) {  // above the line over below it, as on paper
      s.row(key + "-above", words.above, game.above, "above");
      s.row(key + "-below", words.below, game.below, "below");
      if (game.carried) s.row(key + "-carried", w.carried, game.carried, "carried");
      if (game.net) s.row(key + "-net", w.balance, game.net, "net");
    }
    function pointsLabel() { return score.games && score.games[0] && score.games[0].below ? w.rubber_points : w.points; }

    // ---- the shapes of score() -------------------------------------------------------
    if (score.below) {  // one game (short whist): above and below the line
      var one = sheet("game", sidesOf(score.below));
      one.group();
      lines(one, "game-1", score);
      box.appendChild(one.wrap);
    }

    if (Array.isArray(score.games) && score.games.length && score.games[0].games) {
      // Two- and three-handed whist: a sheet for each game (or rubber) with its own sides
      // (the dummy's holder against the other two), each worth its value to its winner.
      score.games.forEach(function (sh, i) {
        var inner = sh.games || [];
        var sides = sidesOf(inner[0] && inner[0].below);
        var rubber = inner.length > 1;
        var title = [fill(rubber ? w.rubber_n : words.game_n, {n: i + 1})];
        if (sh.holder) title.push(fill(w.with_dummy, {seat: t.seatName(sh.holder)}));
        if (sh.winner) title.push(won(sh.winner));
        var s = sheet("sheet-" + (i + 1), sides, title.join(" · "));
        inner.forEach(function (g, j) {
          var key = "sheet-" + (i + 1) + "-game-" + (j + 1);
          if (rubber) s.heading(key, gameTitle(j + 1, g));
          else s.group("game");
          lines(s, key, g);
        });
        if (sh.winner || isNumber(sh.value)) {
          s.group("foot");
          var worth = {};
          if (sh.winner && isNumber(sh.value)) worth[sh.winner] = sh.value;
          s.row("sheet-" + (i + 1) + "-value", rubber ? w.rubber_points : w.game_points, worth, "total");
        }
        box.appendChild(s.wrap);
      });
    } else if (Array.isArray(score.games) && score.games.length) {
      // A rubber (or a run of games): each game above and below the line with its winner.
      var sides = sidesOf(score.games[0].below);
      var r = sheet("games", sides);
      score.games.forEach(function (g, i) {
        if (score.games.length > 1 || g.winner || g.special_suit) r.heading("game-" + (i + 1), gameTitle(i + 1, g));
        else r.group("game");
        lines(r, "game-" + (i + 1), g);
      });
      if (score.games_won || score.net || score.points) r.group("foot");
      if (score.games_won) r.row("games_won", words.games_won, score.games_won);
      if (score.net) r.row("net", words.total, score.net, "total");
      if (score.points) r.row("points", pointsLabel(), score.points, "total");
      box.appendChild(r.wrap);
    }

    if (score.games && score.games[0] && score.games[0].games && score.points) {
      // Three-handed whist: the session's points by player.
      var pts = sheet("points", sidesOf(score.points));
      pts.row("points", w.points, score.points, "total");
      box.appendChild(pts.wrap);
    }

    if (score.last_hand && score.last_hand.entries) {
      // Siberian whist: what the last hand wrote, line by line.
      var lh = score.last_hand, lhSides = sidesOf(lh.tricks);
      (lh.entries || []).forEach(function (e) { if (lhSides.indexOf(e.side) === -1) lhSides.push(e.side); });
      var head = fill(words.last_hand, {result: [t.seatName(lh.declarer), t.callText(lh.denomination)].join(" · ")});
      var last = sheet("last-hand", lhSides);
      last.group();
      if (lh.tricks) last.row("last-hand-tricks", words.tricks, lh.tricks);
      lh.entries.forEach(function (e, k) {
        var v = {};
        v[e.side] = e.points;
        last.row("last-hand-" + (k + 1), [(w.entries || {})[e.what] || e.what, e.line === "below" ? words.below : words.above],
                 v, e.line === "below" ? "entry-below" : "entry-above");
      });
      more.push(collapsible("last-hand", head, last.wrap, true));
    }

    if (Array.isArray(score.hands) && score.hands.length && score.hands[0].tricks && !score.totals) {
      // Prussian whist and humbug: each hand's tricks and what it wrote below and above.
      var hs = sheet("hands", sidesOf(score.hands[0].tricks));
      score.hands.forEach(function (h, i) {
        var key = "hand-" + (i + 1);
        var detail = [];
        var order = Object.keys(h.decisions || {});
        if (order.length) detail.push(order.map(function (p) {
          return t.seatName(p) + ": " + (words.calls[h.decisions[p]] || h.decisions[p]);
        }).join(", "));
        if (isNumber(h.multiplier) && h.multiplier !== 1) detail.push("×" + h.multiplier);
        (h.items || []).forEach(function (it) {
          detail.push(((w.entries || {})[it.what] || it.what) + " " + t.seatName(it.seat) + " " + it.points);
        });
        hs.heading(key, [fill(words.hand_n, {n: i + 1})].concat(detail).join(" · "));
        hs.row(key + "-tricks", words.tricks, h.tricks, "tricks");
        hs.row(key + "-above", words.above, h.above, "above");
        hs.row(key + "-below", words.below, h.below, "below");
      });
      more.push(collapsible("hands", fill(w.hands_count, {n: score.hands.length}), hs.wrap));
    }

    if (score.totals) {
      // Bid whist, dummy whist, a drive's round: a row for each hand, the totals under them.
      var tsides = sidesOf(score.totals);
      if (isNumber(score.target)) box.appendChild(note("target", w.target, score.target));
      if (isNumber(score.hands)) box.appendChild(note("hands", words.hands_played, score.hands));
      var tot = sheet("totals", tsides);
      if (Array.isArray(score.hands)) {
        tot.group("hands");
        score.hands.forEach(function (h, i) {
          var detail = [], values = {};
          var who = h.declarer || h.bidder, call = h.bid || h.contract;
          var said = call ? t.callText(call) : "";
          if (who) said = t.seatName(who) + (said ? ": " + said : "");  // as the auction writes it: "N: 7 No trump"
          if (h.trump && h.trump !== "NT") said += " · " + t.callText(h.trump);  // bid whist: the trump named after the bid
          if (said) detail.push(said);
          var after = [];
          if (isNumber(h.books)) after.push(fill(w.books, {n: h.books}));
          if (h.made === true) after.push(w.made);
          if (h.made === false) after.push(w.not_made);
          if (h.boston) after.push(w.boston);
          if (after.length) detail.push(after.join(" · "));
          if (isNumber(h.points)) {  // bid whist: the bidding side's points
            var side = sideOfSeat(h.bidder || h.declarer, tsides);
            if (side) values[side] = h.points;
          } else if (h.points && typeof h.points === "object") {
            values = h.points;
          }
          var row = tot.row("hand-" + (i + 1), [fill(words.hand_n, {n: i + 1})].concat(detail), values);
          if (isNumber(h.books)) row.setAttribute("data-books", String(h.books));
        });
      }
      tot.group("foot");
      tot.row("total", words.total, score.totals, "total");
      box.appendChild(tot.wrap);
    }

    if (score.winner) {  // the winner once, under the sheet
      var p = el("p", "winner big", fill(words.winner, {side: Array.isArray(score.winner) ? names(score.winner) : t.sideName(score.winner)}));
      p.setAttribute("data-row", "winner");
      p.setAttribute("data-side", Array.isArray(score.winner) ? score.winner.join(",") : score.winner);
      box.appendChild(p);
    }
    more.forEach(function (part) { box.appendChild(part); });
    return box;
  }

  window.playSheet = {build: build};
})();
