// The online table (issue 14): renders the view JSON of GET /api/play/tables/<id>/, plays
// by click, tap or keyboard through POST .../actions/ with the view's version, and hears
// every change on the table's websocket (the same view JSON). When the socket is down the
// page polls the GET and keeps trying to reconnect. Everything shown comes from the
// server's view, so a reload (or another device) resumes exactly where the table is.
(function () {
  "use strict";
  var root, words, api, wsPath, csrf, players, seatOrder;
  var view = null, busy = false, socket = null, pollTimer = null, retryMs = 1000;
  // The pace a person can follow (issue 20), in ms: a card not played by this page's own
  // player shows at least `card` after the card before it; a finished trick stays at least
  // `trick`; a hand's last trick and result stay until "Next hand" or `hand` pass. The
  // server's state is exact and immediate: the pacing is only the page's (see `enqueue`).
  var PACE = {card: 400, trick: 1000, hand: 4000};
  var POLL_MS = 3000;
  var showLast = false, notice = "", manage = false, manageAll = false, manageNotice = "";
  var SUIT_ORDER = ["S", "H", "C", "D"];  // colours alternate: black, red, black, red
  var SYMBOLS = {S: "♠", H: "♥", D: "♦", C: "♣"};
  var RANK_VALUE = "23456789TJQKA";

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function fill(text, values) {
    return String(text).replace(/%\((\w+)\)s/g, function (_, k) { return values[k] === undefined ? "" : values[k]; });
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  // ---- words -------------------------------------------------------------------------
  function seatName(label) {
    if (label === "dummy") return words.dummy;
    return words.seats[label] || label;
  }
  function sideName(side) {
    if (words.sides[side]) return words.sides[side];
    return String(side).split("+").map(seatName).join("+");
  }
  function isJoker(card) { return card === "BJ" || card === "LJ"; }
  function rankShown(r) { return words.ranks[r] || r; }
  function cardText(card) {
    if (isJoker(card)) return card === "BJ" ? "★" : "☆";
    return rankShown(card.charAt(0)) + SYMBOLS[card.charAt(1)];
  }
  function cardLabel(card) {
    if (isJoker(card)) return words.jokers[card];
    var r = card.charAt(0);
    return fill(words.card, {rank: words.rank_names[r] || r, suit: words.suits_of[card.charAt(1)]});
  }
  function denomination(d) {
    if (d === "NT") return words.calls.NT;
    if (SYMBOLS[d]) return SYMBOLS[d] + " " + words.suits[d];
    return words.calls[d] || d;
  }
  function callText(call) {
    var parts = String(call).split(" ");
    if (parts.length === 1) {
      if (/^(BJ|LJ|[2-9TJQKA][SHDC])$/.test(call)) return cardText(call);
      return denomination(call);
    }
    if (parts[0] === "trump") return words.calls.trump + ": " + denomination(parts[1]);
    if (parts[0] === "discard") return words.calls.discard + " " + parts.slice(1).map(cardText).join(" ");
    return parts[0] + " " + parts.slice(1).map(denomination).join(" ");
  }

  // ---- cards ------------------------------------------------------------------------
  function suitOf(card) { return isJoker(card) ? "J" : card.charAt(1); }
  function sortCards(cards) {
    var order = ["J"].concat(SUIT_ORDER);
    return cards.slice().sort(function (a, b) {
      var sa = order.indexOf(suitOf(a)), sb = order.indexOf(suitOf(b));
      if (sa !== sb) return sa - sb;
      if (isJoker(a)) return a === "BJ" ? -1 : 1;
      return RANK_VALUE.indexOf(b.charAt(0)) - RANK_VALUE.indexOf(a.charAt(0));
    });
  }
  function actionFor(card) {
    // A card is played as itself, or put away ("discard 2C") while the kitty is exchanged.
    if (!view || !view.legal) return null;
    if (view.legal.indexOf(card) !== -1) return card;
    if (view.legal.indexOf("discard " + card) !== -1) return "discard " + card;
    return null;
  }
  function cardFace(card, tag) {
    var face = el(tag || "span", "pcard suit-" + suitOf(card));
    face.setAttribute("data-card", card);
    face.appendChild(el("span", "rank", isJoker(card) ? cardText(card) : rankShown(card.charAt(0))));
    if (!isJoker(card)) face.appendChild(el("span", "pip", SYMBOLS[card.charAt(1)]));
    face.setAttribute(tag === "button" ? "aria-label" : "title", cardLabel(card));
    return face;
  }
  function cardButton(card, myTurn) {
    var button = cardFace(card, "button");
    button.type = "button";
    var action = actionFor(card);
    if (action && !busy) {
      button.classList.add("legal");
      button.setAttribute("data-action", action);
    } else {
      button.disabled = true;
      button.setAttribute("aria-disabled", "true");
      if (myTurn) button.classList.add("illegal");
    }
    return button;
  }
  // The cards of one hand, in rows by suit with the suit's name.
  function handRows(cards, myTurn, playable) {
    var box = el("div", "hand-rows");
    var groups = {};
    sortCards(cards).forEach(function (c) { (groups[suitOf(c)] = groups[suitOf(c)] || []).push(c); });
    ["J"].concat(SUIT_ORDER).forEach(function (s) {
      if (!groups[s]) return;
      var row = el("div", "suit-row suit-" + s);
      row.appendChild(el("span", "suit-name", s === "J" ? "★" : SYMBOLS[s] + " " + words.suits[s]));
      var list = el("div", "cards");
      groups[s].forEach(function (c) { list.appendChild(playable ? cardButton(c, myTurn) : cardFace(c)); });
      row.appendChild(list);
      box.appendChild(row);
    });
    return box;
  }

  // ---- seats around the table --------------------------------------------------------
  function positions() {
    // The table's places in playing order: the variant's seats, or (with a dummy) its seating.
    if (view && view.seating) return Object.keys(view.seating);
    return seatOrder.slice();
  }
  function mySeat() { return view && view.seat; }
  function rotated() {
    var list = positions(), me = mySeat(), i = list.indexOf(me);
    if (i <= 0) return list;
    return list.slice(i).concat(list.slice(0, i));
  }
  var SLOTS = {2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"]};
  function player(label) {
    // The view's players: [{seat, name, robot, standin, open}] (or an object by seat).
    var all = (view && view.players) || players || {};
    if (Array.isArray(all)) return all.filter(function (p) { return p.seat === label; })[0] || null;
    return all[label] || null;
  }
  function actsFor(label) {
    // Who acts for a place: a dummy is played by its partner (seating), any other seat by itself.
    return dummyHolder(label) || label;
  }
  // With dummies (two or three players) the view's seating maps each place to the player
  // who plays it: "dummy" -> "N" (three players), "S" -> "N" (two). A dummy is named as the
  // hand history names it, "dummy (N)", never by the seat of nobody.
  function dummyHolder(label) {
    var holder = view && view.seating && view.seating[label];
    return holder && holder !== label ? holder : null;
  }
  function handName(label) {
    var holder = dummyHolder(label);
    return holder ? fill(words.dummy_of, {player: seatName(holder)}) : seatName(label);
  }
  function playFrom() {
    // The face-up hand (a dummy) the player's legal cards are in, or null (their own hand, a call).
    var hands = (view && view.open_hands) || {}, legal = (view && view.legal) || [];
    return Object.keys(hands).filter(function (label) {
      return label !== view.seat && legal.some(function (a) { return (hands[label] || []).indexOf(a) !== -1; });
    })[0] || null;
  }
  function placeToAct() {
    // The place whose card (or call) comes next. With dummies, the trick's next place: its
    // holder is to act, and the place highlighted is the dummy when the card is the dummy's.
    if (!view || !view.to_act) return null;
    if (!view.seating || view.phase !== "play") return view.to_act;
    var from = playFrom();
    if (from) return from;
    if (view.legal && view.legal.length) return view.to_act;
    var trick = view.trick || [], order = positions(), next = null;
    if (trick.length) next = order[(order.indexOf(trick[trick.length - 1].seat) + 1) % order.length];
    else if (view.last_trick) next = view.last_trick.winner;
    return next && actsFor(next) === view.to_act ? next : view.to_act;
  }

  function renderSeats() {
    var table = clear($("play-table"));
    var order = rotated(), slots = SLOTS[order.length] || SLOTS[4];
    var shown = trickShown();
    order.forEach(function (label, i) {
      var box = el("div", "place place-" + (slots[i] || "top"));
      box.setAttribute("data-seat", label);
      var head = el("div", "place-head");
      var holder = dummyHolder(label);
      head.appendChild(el("strong", "seat-letter", handName(label)));
      if (holder) box.classList.add("dummy");
      var who = holder ? null : player(label);
      var name = who && who.name || (who && who.robot || holder ? "" : words.open_seat);
      if (label === mySeat()) name = words.you;
      if (name) head.appendChild(el("span", "who", name));
      if (who && who.robot) head.appendChild(el("span", "tag robot", (words.robots && words.robots[who.robot]) || words.robot));
      if (who && who.standin) {
        var stand = el("span", "tag standin", words.standin_robot || words.standin);
        stand.title = words.standin;
        head.appendChild(stand);
      }
      if (view && view.dealer === label) head.appendChild(el("span", "tag dealer", words.dealer));
      box.appendChild(head);
      if (label === placeToAct()) box.classList.add("to-act");
      var played = shown.cards.filter(function (p) { return p.seat === label; })[0];
      var spot = el("div", "played");
      if (played) spot.appendChild(cardFace(played.card));
      if (shown.done && shown.winner === label) spot.classList.add("winner");
      box.appendChild(spot);
      table.appendChild(box);
    });
    var centre = el("div", "centre-info");
    if (shown.done && shown.cards.length) centre.appendChild(el("p", "trick-won", fill(words.trick_won, {seat: handName(shown.winner)})));
    table.appendChild(centre);
  }
  function trickShown() {
    // The trick in play; between tricks the last one stays on the table with its winner.
    var trick = (view && view.trick) || [];
    if (trick.length || !view || !view.last_trick || view.phase === "auction" || view.phase === "exchange") {
      return {cards: trick, done: false};
    }
    return {cards: view.last_trick.cards, done: true, winner: view.last_trick.winner};
  }

  // ---- the rest of the page -----------------------------------------------------------
  function renderStatus() {
    var box = clear($("play-status"));
    var line = el("p", "turn");
    box.classList.toggle("over", view.phase === "over");
    if (view.phase === "over") {
      line.textContent = words.phases.over;
    } else if (!view.to_act) {
      line.textContent = words.phases[view.phase] || view.phase;
    } else if (view.legal && view.legal.length) {
      // With a dummy: which hand the card comes from ("Play from dummy (N)"), never a bare
      // "Your turn" over a hand of greyed cards.
      var from = playFrom();
      line.textContent = from ? fill(words.play_from, {player: seatName(actsFor(from))}) : words.your_turn;
      line.classList.add("mine");
      if (from) line.classList.add("from-dummy");
    } else {
      line.textContent = fill(words.waiting, {seat: seatName(view.to_act) + nameOf(view.to_act)});
    }
    box.appendChild(line);
    if (notice) box.appendChild(el("p", "notice", notice));
    if (!view.seat) box.appendChild(el("p", "meta", words.watching));
  }
  function nameOf(seat) {
    var who = player(seat);
    return who && who.name ? " (" + who.name + ")" : "";
  }
  function renderFacts() {
    var facts = clear($("play-facts"));
    function fact(label, value, cls) {
      var item = el("div", "fact " + (cls || ""));
      item.appendChild(el("span", "fact-label", label));
      if (value && value.nodeType) item.appendChild(value); else item.appendChild(el("strong", "", value));
      facts.appendChild(item);
    }
    if (view.trump !== undefined && view.trump !== null) {
      var t = el("strong", "trump-value suit-" + view.trump, denomination(view.trump));
      if (view.ranking) t.appendChild(el("span", "", " · " + (words.calls[view.ranking] || view.ranking)));
      fact(words.trump, t, "trump");
    }
    if (view.trump_card) {
      var turned = el("span", "turned");
      turned.appendChild(cardFace(view.trump_card));
      fact(words.turned, turned, "turned-card");
    }
    if (view.contract || view.bid) {
      var c = view.contract || view.bid;
      var text = typeof c === "string" ? callText(c) : seatName(c.declarer) + ": " + denomination(c.denomination);
      if (view.bidder) text = seatName(view.bidder) + ": " + text;
      if (view.declarer && typeof c === "string") text = seatName(view.declarer) + ": " + text;
      fact(words.contract, text);
    }
    if (view.phase === "auction" || view.phase === "exchange") return;  // no trick yet: no line of noughts
    var tricks = el("span", "tricks");
    Object.keys(view.tricks || {}).forEach(function (side) {
      tricks.appendChild(el("span", "side", sideName(side) + " "));
      tricks.appendChild(el("strong", "count", String(view.tricks[side])));
      tricks.appendChild(document.createTextNode("  "));
    });
    fact(words.tricks, tricks, "tricks-fact");
  }
  function renderAuction() {
    var box = $("play-auction");
    var calls = (view.auction || []).concat(view.exchange || []);
    box.hidden = !calls.length;
    var list = clear($("play-auction-list"));
    calls.forEach(function (c) {
      var item = el("li", "call");
      item.appendChild(el("strong", "", seatName(c.seat) + ": "));
      item.appendChild(document.createTextNode(callText(c.call)));
      list.appendChild(item);
    });
  }
  // A call's group and its button's text: bids by level ("4 uptown" -> row "4", button
  // "uptown"), a trump or a discard by its kind, single words (pass, keep...) on a row of
  // their own. Each button keeps the whole call as its accessible name.
  function callPart(call) {
    var parts = String(call).split(" ");
    if (parts.length > 1 && /^\d+$/.test(parts[0])) {
      return {group: parts[0], label: parts[0], column: parts.slice(1).join(" "),
              text: parts.slice(1).map(denomination).join(" ")};
    }
    if (parts.length > 1 && parts[0] === "trump") {
      return {group: "trump", label: words.calls.trump, text: denomination(parts[1])};
    }
    return {group: "", label: "", text: callText(call)};
  }
  function renderCalls() {
    // Actions that are not a card (calls, trump, ranking, keep or swap), as buttons in
    // rows: a phone shows bid whist's 22 calls as seven short rows and "Pass".
    var box = $("play-calls"), list = clear($("play-call-buttons"));
    var calls = (view.legal || []).filter(function (a) {
      return !/^(BJ|LJ|[2-9TJQKA][SHDC])$/.test(a) && a.indexOf("discard ") !== 0;
    });
    box.hidden = !calls.length;
    var rows = {}, order = [], columns = [];
    calls.forEach(function (a) {
      var column = callPart(a).column;
      if (column && columns.indexOf(column) === -1) columns.push(column);
    });
    // The same columns whatever is left to call (uptown, downtown, no trump): "1 NT" alone
    // on the first row keeps its column.
    var COLUMN_ORDER = ["uptown", "downtown", "NT"];
    columns.sort(function (a, b) {
      var i = COLUMN_ORDER.indexOf(a), j = COLUMN_ORDER.indexOf(b);
      return (i === -1 ? 99 : i) - (j === -1 ? 99 : j);
    });
    calls.forEach(function (a) {
      var part = callPart(a);
      if (!rows[part.group]) {
        var row = el("div", "call-group" + (part.column ? " call-group-level" : " call-group-plain"));
        // A level's calls in the same columns on every row (uptown, downtown, no trump).
        if (part.column) row.style.gridTemplateColumns = "2.4rem repeat(" + columns.length + ", minmax(0, 1fr))";
        row.setAttribute("role", "group");
        row.setAttribute("data-group", part.group);
        if (part.label) {
          row.setAttribute("aria-label", part.label);
          row.appendChild(el("span", "call-level", part.label));
        }
        rows[part.group] = row;
        order.push(part.group);
      }
      var b = el("button", a === "pass" ? "call-button secondary" : "call-button", part.text);
      b.type = "button";
      b.setAttribute("data-action", a);
      b.setAttribute("aria-label", callText(a));
      if (part.column) { b.style.gridColumn = String(columns.indexOf(part.column) + 2); b.style.gridRow = "1"; }
      if (busy) b.disabled = true;
      rows[part.group].appendChild(b);
    });
    // The plain calls (pass) first, then the levels in order.
    order.sort(function (a, b) { return (a === "" ? -1 : 0) - (b === "" ? -1 : 0); });
    order.forEach(function (g) { list.appendChild(rows[g]); });
  }
  function renderHand() {
    var box = clear($("play-hand"));
    // Cards look unplayable only while a card is what is asked for (not during the calls).
    var mine = (view.legal || []).some(function (a) { return /^(BJ|LJ|[2-9TJQKA][SHDC])$/.test(a) || a.indexOf("discard ") === 0; });
    var discarded = view.discards || [];
    var cards = (view.hand || []).filter(function (c) { return discarded.indexOf(c) === -1 || view.phase !== "exchange"; });
    $("play-hand-box").hidden = !view.seat || (!cards.length && !Object.keys(view.open_hands || {}).some(function (k) { return (view.open_hands[k] || []).length; }));
    if (cards.length) box.appendChild(handRows(cards, mine, true));
    // The hand the card comes from first (a dummy's: highlighted, the player's own cards
    // below it, resting), then the others (an opponent's dummy last).
    var from = mine ? playFrom() : null;
    box.classList.toggle("resting", !!from);
    root.classList.toggle("from-open", !!from);
    var open = clear($("play-open"));
    var hands = view.open_hands || {};
    var labels = Object.keys(hands).sort(function (a, b) {
      function rank(l) { return l === from ? 0 : actsFor(l) === view.seat ? 1 : 2; }
      return rank(a) - rank(b);
    });
    labels.forEach(function (label) {
      if (!hands[label] || !hands[label].length || label === "kitty") return;  // the kitty: once, below
      // Only a hand the player plays has buttons; an opponent's dummy is cards to read.
      var playable = actsFor(label) === view.seat;
      var part = el("section", "open-hand" + (label === from ? " acting" : "") + (playable ? " mine" : ""));
      part.setAttribute("data-hand", (dummyHolder(label) ? "dummy-" : "open-") + label);
      part.appendChild(el("h3", "", dummyHolder(label) ? handName(label) : fill(words.open_hand, {seat: seatName(label)})));
      part.appendChild(handRows(hands[label], mine, playable));
      open.appendChild(part);
    });
    // The kitty (bid whist): the declarer's to take and put away from, or face up for all.
    var kitty = (view.phase === "exchange" && view.kitty) || hands.kitty;
    if (kitty && kitty.length) {
      var k = el("section", "open-hand kitty");
      k.setAttribute("data-hand", "kitty");
      k.appendChild(el("h3", "", words.kitty));
      k.appendChild(handRows(kitty.filter(function (c) { return discarded.indexOf(c) === -1; }), mine, true));
      open.appendChild(k);
    }
  }
  function renderLastTrick() {
    var button = $("play-last-toggle");
    button.textContent = showLast ? words.hide_last_trick : words.last_trick;
    button.setAttribute("aria-expanded", showLast ? "true" : "false");
    var box = clear($("play-last"));
    box.hidden = !showLast;
    if (!showLast) return;
    var last = view.last_trick;
    if (!last) { box.appendChild(el("p", "meta", words.no_last_trick)); return; }
    var row = el("div", "last-cards");
    last.cards.forEach(function (p) {
      var item = el("div", "last-card" + (p.seat === last.winner ? " winner" : ""));
      item.appendChild(el("span", "seat-letter", handName(p.seat)));
      item.appendChild(cardFace(p.card));
      row.appendChild(item);
    });
    box.appendChild(row);
    box.appendChild(el("p", "meta", fill(words.trick_won, {seat: handName(last.winner)})));
  }

  // ---- the score sheet -----------------------------------------------------------------
  // Written by play_sheet.js (loaded before this file) with this file's helpers.
  var sheetTools = null;
  var scoreDrawn = null;
  function renderScore() {
    // The sheet changes only when a hand is written: not rebuilt for every card shown (a
    // whole game's sheet is most of the page's nodes, and a phone redraws at each card).
    var key = JSON.stringify([view.score || {}, view.hands_played || 0]);
    if (key === scoreDrawn) return;
    scoreDrawn = key;
    var box = clear($("play-score"));
    sheetTools = sheetTools || {words: words, el: el, fill: fill, seatName: seatName, sideName: sideName, callText: callText};
    if (window.playSheet) box.appendChild(window.playSheet.build(view.score || {}, sheetTools));
    $("play-hands-played").textContent = fill(words.hands_played, {n: view.hands_played || 0});
  }

  // ---- the creator's (or organiser's) seat controls -------------------------------------
  // An open seat, or one whose player is silent (a robot stands in), gets a robot or a
  // substitute through the API (POST .../seats/ {"seat", "robot"} or {"seat", "username"}).
  function renderManage() {
    var box = $("play-manage-seats");
    if (!box || !manage) return;
    var typed = {};
    box.querySelectorAll("input[data-seat]").forEach(function (i) { typed[i.getAttribute("data-seat")] = i.value; });
    var focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : "";
    clear(box);
    var all = (view && view.players) || [];
    // A casual table: its open and silent seats; an event's table (the organisers'): every
    // seat, for a player who left or one who now has an account in place of a robot.
    all.filter(function (p) { return (manageAll || p.open || p.standin) && p.seat !== mySeat(); }).forEach(function (p) {
      var row = el("div", "manage-seat");
      row.setAttribute("data-seat", p.seat);
      var head = el("p", "manage-head");
      head.appendChild(el("strong", "", fill(words.manage_seat, {seat: seatName(p.seat)})));
      var who = p.open ? words.open_seat : p.standin ? (p.name ? p.name + ", " : "") + words.manage_silent
        : p.robot ? (words.robots[p.robot] || words.robot) : p.name;
      head.appendChild(document.createTextNode(" · " + who));
      row.appendChild(head);
      var buttons = el("div", "manage-buttons");
      ["rules", "strong"].filter(function (kind) { return p.robot !== kind; }).forEach(function (kind) {
        var b = el("button", "secondary", fill(words.seat_robot, {robot: words.robots[kind]}));
        b.type = "button";
        b.setAttribute("data-manage-robot", kind);
        b.setAttribute("data-seat", p.seat);
        buttons.appendChild(b);
      });
      row.appendChild(buttons);
      var form = el("form", "manage-substitute");
      form.setAttribute("data-seat", p.seat);
      var id = "play-substitute-" + p.seat;
      var label = el("label", "", words.substitute);
      label.setAttribute("for", id);
      var input = el("input");
      input.id = id; input.name = "username"; input.required = true; input.autocomplete = "off";
      input.setAttribute("data-seat", p.seat);
      input.value = typed[p.seat] || "";
      var go = el("button", "secondary", words.seat_substitute);
      go.type = "submit";
      form.appendChild(label); form.appendChild(input); form.appendChild(go);
      row.appendChild(form);
      box.appendChild(row);
    });
    if (manageNotice) box.appendChild(el("p", "notice", manageNotice));
    // Nothing to fill (every seat taken and present): no empty card on the page.
    if ($("play-manage")) $("play-manage").hidden = !box.children.length;
    if (focused && $(focused)) $(focused).focus();
  }
  var manageAsked = 0;  // the latest request's number: an older answer arriving late says nothing
  function fillSeat(body) {
    var asked = ++manageAsked;
    manageNotice = "";
    window.whistApi.send("POST", api + "seats/", body, csrf).then(function (answer) {
      if (asked !== manageAsked) {
        if (answer.status === 200) take(answer.body);
        return;
      }
      if (answer.status === 202) {  // a seat offered: the person sits once they accept
        manageNotice = (answer.body && answer.body.detail) || "";
        var offered = $("play-substitute-" + body.seat);
        if (offered) offered.value = "";
        renderManage();
        return;
      }
      if (answer.status === 200) {
        manageNotice = fill(words.seated, {seat: seatName(body.seat)});
        var input = $("play-substitute-" + body.seat);
        if (input) input.value = "";
        take(answer.body);
        renderManage();
        return;
      }
      var b = answer.body || {};
      var detail = b.detail || (b.username && b.username[0]) || (b.seat && b.seat[0]) || (b.robot && b.robot[0]) || answer.status;
      manageNotice = fill(words.refused, {detail: detail});
      renderManage();
    }).catch(function () {
      if (asked === manageAsked) { manageNotice = words.offline; renderManage(); }
    });
  }

  var lastRendered = "";
  function renderKey(v) {
    return [JSON.stringify(v), busy, notice, showLast, manageNotice].join("|");
  }
  function render() {
    if (!view) return;
    var before = focusBefore();
    lastRendered = renderKey(view);
    root.setAttribute("data-version", String(view.version));
    root.setAttribute("data-phase", view.phase);
    root.setAttribute("data-to-act", view.to_act || "");
    root.setAttribute("data-places", positions().join(" "));
    root.classList.toggle("my-turn", !!(view.legal && view.legal.length));
    renderStatus();
    renderFacts();
    renderSeats();
    renderAuction();
    renderCalls();
    renderHand();
    renderLastTrick();
    renderScore();
    renderManage();
    renderHandResult();
    renderOver();
    afterRender(before);
  }

  // ---- talking to the server ------------------------------------------------------------
  // ---- the pace: a queue of what to show --------------------------------------------------
  // Views arrive by the POST's answer, the socket and the poll. `latest` is the newest one
  // (never go back in time); the page shows `view`, walking through `queue` towards
  // `latest`: the cards played between two views one by one (built from the views' own
  // `trick`, `last_trick`, `tricks` and, across a new deal, `last_record`), a finished trick
  // held, a hand's end held with its result. Only a frame that is a real view offers the
  // player's legal actions, so they act once they have seen what the robots played.
  var latest = null, queue = [], pumpTimer = null, shown = {};
  var lastCardAt = -1e9, handDismissed = false, paceScale = 1;
  var pace = window.playPace = {cards: [], tricks: [], hands: []};
  var CARD = /^(BJ|LJ|[2-9TJQKA][SHDC])$/;
  function now() { return window.performance && performance.now ? performance.now() : Date.now(); }
  function copyOf(v, changes) {
    var out = {};
    Object.keys(v).forEach(function (k) { out[k] = v[k]; });
    Object.keys(changes).forEach(function (k) { out[k] = changes[k]; });
    out.synthetic = true;
    out.legal = [];
    // The cards on the table are out of the hands shown.
    var onTable = (out.trick || []).concat(changes.last_trick ? changes.last_trick.cards : []).map(function (p) { return p.card; });
    function without(cards) { return (cards || []).filter(function (c) { return onTable.indexOf(c) === -1; }); }
    out.hand = without(v.hand);
    if (v.open_hands) {
      out.open_hands = {};
      Object.keys(v.open_hands).forEach(function (k) { out.open_hands[k] = without(v.open_hands[k]); });
    }
    return out;
  }
  function total(counts) {
    return Object.keys(counts || {}).reduce(function (n, k) { return n + (counts[k] || 0); }, 0);
  }
  function placesOf(v) { return v.seating ? Object.keys(v.seating) : seatOrder.slice(); }
  function actorOf(v, label) { return v.seating && label === "dummy" && v.seating.dummy ? v.seating.dummy : label; }
  function nextPlace(v, cards) {
    var order = placesOf(v);
    if (!cards.length) return null;
    return order[(order.indexOf(cards[cards.length - 1].seat) + 1) % order.length];
  }
  function samePrefix(short, long) {
    if (short.length > long.length) return false;
    return short.every(function (p, i) { return p.seat === long[i].seat && p.card === long[i].card; });
  }
  function byWhom(v, seat) {
    // A card is "own" when this page's player played it (their seat, or the dummy they play).
    return v.seat && (seat === v.seat || actorOf(v, seat) === v.seat) ? "own" : "other";
  }
  function sideOf(counts, seat) {
    return Object.keys(counts || {}).filter(function (k) {
      return k === seat || k.split("+").indexOf(seat) !== -1 || (/^[NESW]{2}$/.test(k) && k.indexOf(seat) !== -1);
    })[0];
  }
  function trickWinner(cards, trump, ranking) {
    // The last trick of a hand (never in a view: the next deal follows at once) from its cards.
    var lead = suitOf(cards[0].card), low = ranking === "downtown", best = null, bestValue = -1e9;
    if (lead === "J") lead = trump;
    cards.forEach(function (p) {
      var c = p.card, s = suitOf(c), r = RANK_VALUE.indexOf(c.charAt(0)), value;
      if (isJoker(c)) value = c === "BJ" ? 1000 : 999;
      else if (s === trump) value = 500 + (low ? 20 - r : r);
      else if (s === lead) value = low ? 20 - r : r;
      else value = -1;
      if (value > bestValue) { best = p.seat; bestValue = value; }
    });
    return best;
  }
  function finalTrick(P, V) {
    // The cards of P's hand's last trick, from the finished hand's record (V.last_record).
    var record = V.last_record, size = P.last_trick ? P.last_trick.cards.length : placesOf(P).length;
    if (!record || !record.actions) return null;
    var played = record.actions.filter(function (a) { return CARD.test(a); }).slice(-size);
    var leader = (P.trick && P.trick.length) ? P.trick[0].seat : P.last_trick && P.last_trick.winner;
    if (played.length !== size || !leader) return null;
    var order = placesOf(P), i = order.indexOf(leader);
    if (i === -1) return null;
    var cards = played.map(function (c, k) { return {seat: order[(i + k) % order.length], card: c}; });
    if (!samePrefix(P.trick || [], cards)) return null;
    return {leader: leader, cards: cards, winner: trickWinner(cards, P.trump, P.ranking)};
  }
  function sheetTotals(score) {
    // Every point written on the sheet, by side, all lines and games together (the variant's
    // totals or balance if it keeps one): a hand's change is read from them.
    score = score || {};
    if (score.totals) return score.totals;
    if (score.net) return score.net;
    var out = {};
    function add(line) { Object.keys(line || {}).forEach(function (k) { out[k] = (out[k] || 0) + (line[k] || 0); }); }
    function addGame(g) { if (g.games) g.games.forEach(addGame); else { add(g.below); add(g.above); } }
    add(score.below); add(score.above);
    (score.games || []).forEach(addGame);
    return out;
  }
  function finalScore(score) {
    // The game's result in the variant's terms: its totals or balance, the rubber's points, or
    // (whist for two) the values of the games each player won.
    score = score || {};
    if (score.totals || score.net) return sheetTotals(score);
    if (score.points) return score.points;
    var sheets = (score.games || []).filter(function (g) { return g.games; });
    if (!sheets.length) return sheetTotals(score);
    var out = {};
    sheets.forEach(function (g) {
      g.games.forEach(function (inner) {
        Object.keys(inner.below || {}).forEach(function (k) { if (k.indexOf("+") === -1 && !(k in out)) out[k] = 0; });
      });
      if (g.winner) out[g.winner] = (out[g.winner] || 0) + (g.value || 0);
    });
    return out;
  }
  function handResult(P, V, tricks) {
    // The points the hand wrote: the sides whose points moved (all of them if none did).
    var before = sheetTotals(P.score), after = sheetTotals(V.score), change = {}, all = {};
    Object.keys(after).forEach(function (k) {
      all[k] = (after[k] || 0) - (before[k] || 0);
      if (all[k]) change[k] = all[k];
    });
    return {n: (P.hands_played || 0) + 1, tricks: tricks, change: Object.keys(change).length ? change : all};
  }
  // The frames from P (the newest view queued) to V: each {view, card: "own"|"other"|null,
  // done: a finished trick on the table, hand: a hand's end (with its result)}.
  function framesBetween(P, V) {
    var frames = [];
    function cardsOnto(base, from, cards, last) {  // one frame a card: trick = cards[0..k]
      for (var k = from + 1; k <= cards.length; k++) {
        var seat = cards[k - 1].seat;
        var v = k === cards.length && last ? last : copyOf(base, {trick: cards.slice(0, k), to_act: actorOf(base, nextPlace(base, cards.slice(0, k)))});
        frames.push({view: v, card: byWhom(V, seat), seat: seat, played: cards[k - 1].card});
      }
    }
    var playing = ["play", "scored", "over"];
    if (!P || playing.indexOf(P.phase) === -1 || playing.indexOf(V.phase) === -1) {
      if (P && P.phase === "auction" && V.phase === "auction" && P.hands_played === V.hands_played &&
          (V.auction || []).length > (P.auction || []).length) {  // the calls one by one too
        for (var a = (P.auction || []).length + 1; a < V.auction.length; a++) {
          frames.push({view: copyOf(V, {auction: V.auction.slice(0, a), to_act: null}), card: byWhom(V, V.auction[a - 1].seat)});
        }
        frames.push({view: V, card: byWhom(V, V.auction[V.auction.length - 1].seat)});
        return frames;
      }
      if (P && P.hands_played !== V.hands_played && playing.indexOf(P.phase) !== -1) {
        var hand = {view: copyOf(P, {phase: "scored", to_act: null, trick: [], score: V.score, hands_played: V.hands_played}),
                    hand: handResult(P, V, P.tricks), done: true};
        frames.push(hand);
      }
      frames.push({view: V});
      return frames;
    }
    var pTrick = P.trick || [], vTrick = V.trick || [];
    var sameDeal = P.hands_played === V.hands_played || V.phase === "over" || V.phase === "scored";
    if (sameDeal) {
      var nP = total(P.tricks), nV = total(V.tricks);
      var ending = V.phase === "over" || V.phase === "scored";
      if (nV === nP && samePrefix(pTrick, vTrick)) {
        if (vTrick.length === pTrick.length) frames.push({view: V});
        else cardsOnto(P, pTrick.length, vTrick, V);
        return frames;
      }
      var completed = V.last_trick && V.last_trick.cards || [], doneView = null;
      if (nV === nP + 1 && samePrefix(pTrick, completed)) {
        cardsOnto(copyOf(P, {}), pTrick.length, completed.slice(0, completed.length - 1), null);
      }
      // the finished trick: its last card with its winner (V itself when no card follows yet)
      if (completed.length) {
        var lastCard = completed[completed.length - 1];
        // (held without the legal actions: the player's turn comes once the trick was seen)
        doneView = vTrick.length || (V.legal || []).length ? copyOf(V, {trick: [], to_act: null}) : V;
        frames.push({view: doneView, card: nV === nP + 1 && pTrick.length < completed.length ? byWhom(V, lastCard.seat) : null,
                     seat: lastCard.seat, played: lastCard.card, done: true,
                     hand: ending ? handResult(P, V, V.tricks) : null});
      }
      if (vTrick.length) cardsOnto(V, 0, vTrick, V);
      else if (!completed.length || doneView !== V) frames.push({view: V});
      return frames;
    }
    // A new deal: P's hand ended (its last trick is in the finished hand's record) and the
    // robots may have played the next deal's first cards already.
    var last = finalTrick(P, V);
    var tricks = {};
    Object.keys(P.tricks || {}).forEach(function (k) { tricks[k] = P.tricks[k]; });
    if (last) {
      cardsOnto(copyOf(P, {}), pTrick.length, last.cards.slice(0, last.cards.length - 1), null);
      var side = sideOf(tricks, last.winner);
      if (side) tricks[side] += 1;
      var end = last.cards[last.cards.length - 1];
      frames.push({view: copyOf(P, {phase: "scored", trick: [], to_act: null, tricks: tricks, score: V.score,
                                    hands_played: V.hands_played,
                                    last_trick: {leader: last.leader, winner: last.winner, cards: last.cards}}),
                   card: pTrick.length < last.cards.length ? byWhom(V, end.seat) : null, seat: end.seat, played: end.card,
                   done: true, hand: handResult(P, V, tricks)});
    } else {
      frames.push({view: copyOf(P, {phase: "scored", to_act: null, score: V.score, hands_played: V.hands_played}),
                   done: true, hand: handResult(P, V, tricks)});
    }
    if (vTrick.length) cardsOnto(V, 0, vTrick, V);
    else frames.push({view: V});
    return frames;
  }
  function enqueue(next) {
    if (!latest) { queue.push({view: next}); return; }
    framesBetween(latest, next).forEach(function (f) { queue.push(f); });
  }
  function dueAt(frame) {
    var t = 0, s = paceScale;
    if (frame.card === "other") t = Math.max(t, lastCardAt + PACE.card * s);
    if (shown.done) t = Math.max(t, shown.at + PACE.trick * s);
    if (shown.hand && !handDismissed) t = Math.max(t, shown.at + PACE.hand * s);
    return t;
  }
  function pump() {
    clearTimeout(pumpTimer);
    pumpTimer = null;
    while (queue.length) {
      var wait = dueAt(queue[0]) - now();
      if (wait > 0) { pumpTimer = setTimeout(pump, Math.ceil(wait) + 1); return; }
      display(queue.shift());
    }
  }
  function display(frame) {
    var at = now();
    if (shown.done && pace.tricks.length && pace.tricks[pace.tricks.length - 1].hidden === null) {
      pace.tricks[pace.tricks.length - 1].hidden = at;
    }
    if (shown.hand && pace.hands.length && pace.hands[pace.hands.length - 1].hidden === null) {
      pace.hands[pace.hands.length - 1].hidden = at;
    }
    if (frame.card) {
      lastCardAt = at;
      pace.cards.push({at: at, seat: frame.seat, card: frame.played, own: frame.card === "own"});
    }
    if (frame.done) pace.tricks.push({at: at, hidden: null, winner: frame.view.last_trick && frame.view.last_trick.winner});
    if (frame.hand) { pace.hands.push({at: at, hidden: null}); handDismissed = false; }
    shown = {at: at, done: !!frame.done, hand: frame.hand || null};
    show(frame.view);
    announceFrame(frame);
    root.setAttribute("data-pace", JSON.stringify(pace));  // the test hook: when each card and trick showed
    root.setAttribute("data-queued", String(queue.length));
  }
  function nextHand() {
    handDismissed = true;
    pump();
  }
  function take(next, redraw) {
    // `redraw`: the page is drawn again even so (the POST's answer ends "sending": the
    // socket may have brought the robots' moves after it, a newer view drawn while the
    // buttons were held, and they must come back).
    if (!next || typeof next.version !== "number") return;
    if (latest && (next.version < latest.version ||
        (next.version === latest.version && JSON.stringify(next) === JSON.stringify(latest)))) {
      if (redraw && view) show(view, true);
      return;
    }
    enqueue(next);
    latest = next;
    pump();
    if (redraw && !queue.length && view) show(view, true);
  }
  function show(next, force) {
    // The same view again onto the page as it was last drawn: the page stays as it is, and
    // a keyboard player's focus with it. (A page drawn since in another state, "sending"
    // say, is drawn again.)
    if (!force && view && next.version === view.version && renderKey(next) === lastRendered) { view = next; return; }
    view = next;
    render();  // (a keyboard player keeps their place: placeFocus)
  }

  // ---- keyboard and screen reader (issue 20) ---------------------------------------------
  // The focus follows the play for a keyboard player: a redraw that removes the focused card
  // or call puts it back on the same one, the next playable card when it is their turn
  // again, "Next hand" or "New game" when they show, and the hand itself while others play
  // (never elsewhere: a player who moved on to the score sheet or a link stays there).
  var followFocus = false, roveAt = null;
  var PLAY_ZONE = "#play-hand-box, #play-call-buttons, #play-hand-result, #play-over";
  function inPlayZone(node) { return !!(node && node.closest && node.closest(PLAY_ZONE)); }
  function focusBefore() {
    var active = document.activeElement;
    return {
      card: active && active.getAttribute && active.getAttribute("data-card"),
      call: active && active.closest && active.closest("#play-call-buttons") && active.getAttribute("data-action")
    };
  }
  function enabledCards() {
    return Array.prototype.slice.call(root.querySelectorAll("#play-hand-box button[data-card]:not([disabled])"));
  }
  function rove() {
    // The hand is one Tab stop: its playable card (arrows move among them), else the hand.
    var box = $("play-hand-box");
    if (!box) return;
    var cards = enabledCards();
    box.tabIndex = cards.length ? -1 : 0;
    if (!cards.length) return;
    var current = cards.filter(function (c) { return c === document.activeElement; })[0] ||
      cards.filter(function (c) { return c.getAttribute("data-card") === roveAt; })[0] || cards[0];
    cards.forEach(function (c) { c.tabIndex = c === current ? 0 : -1; });
  }
  function placeFocus(before) {
    if (!followFocus) return;
    var active = document.activeElement, box = $("play-hand-box");
    var lost = !active || active === document.body || !document.documentElement.contains(active);
    if (!lost && active !== box) return;
    var target = null;
    if (before.card) target = root.querySelector("#play-hand-box button[data-card='" + before.card + "']:not([disabled])");
    if (!target && before.call) {
      target = Array.prototype.filter.call(root.querySelectorAll("#play-call-buttons button[data-action]:not([disabled])"),
        function (b) { return b.getAttribute("data-action") === before.call; })[0];
    }
    target = target || $("play-new-game") || $("play-next-hand") || root.querySelector("#play-hand-box button.legal") ||
      root.querySelector("#play-call-buttons button[data-action]:not([disabled])");
    if (!target && lost && box && !box.hidden) target = box;
    if (target && target !== active) target.focus();
  }
  function afterRender(before) {
    rove();
    placeFocus(before);
    if (notice && notice !== said.notice) say(notice);
    said.notice = notice;
  }
  function onFocusIn(e) {
    followFocus = inPlayZone(e.target);
    if (e.target.getAttribute && e.target.getAttribute("data-card") && !e.target.disabled) {
      roveAt = e.target.getAttribute("data-card");
      enabledCards().forEach(function (c) { c.tabIndex = c === e.target ? 0 : -1; });
    }
  }
  function onPointerDown(e) { if (!inPlayZone(e.target)) followFocus = false; }

  // What a screen reader hears, in #play-announce (a polite log): one line per card as the
  // table shows it ("East played queen of hearts"), each trick's winner, the hand's result,
  // the game's, each call ("North: 4 uptown"), and "Your turn" with what is asked.
  var said = {trick: "", hand: 0, over: false, turn: "", notice: "", calls: null};
  function say(text) {
    var box = $("play-announce");
    if (!box || !text) return;
    text = String(text);
    box.appendChild(el("p", "", text.charAt(0).toUpperCase() + text.slice(1)));
    while (box.childNodes.length > 40) box.removeChild(box.firstChild);
  }
  function seatFull(label) {
    if (label === "dummy") return words.dummy;
    return (words.seat_names && words.seat_names[label]) || seatName(label);
  }
  function announceFrame(frame) {
    var v = frame.view;
    announceCalls(v);
    if (frame.card && frame.played) {
      say(v.seat && frame.seat === v.seat ? fill(words.you_played, {card: cardLabel(frame.played)})
        : fill(words.played, {seat: seatFull(frame.seat), card: cardLabel(frame.played)}));
    }
    var last = v.last_trick;
    if (frame.done && last && last.winner) {
      var key = JSON.stringify(last.cards);
      if (key !== said.trick) { said.trick = key; say(fill(words.trick_won, {seat: seatFull(last.winner)})); }
    }
    if (frame.hand && frame.hand.n !== said.hand) {
      said.hand = frame.hand.n;
      say(fill(words.hand_over, {n: frame.hand.n}) + ". " + words.tricks + ": " + sideCounts(frame.hand.tricks) + ". " +
          words.score_change + ": " + sideCounts(frame.hand.change, true) + ".");
    }
    if (v.phase === "over" && !said.over) {
      said.over = true;
      var score = v.score || {}, winner = score.winner, text;
      if (winner && v.seat) text = wonBy(winner, v.seat) ? words.you_won : words.you_lost;
      else text = winner ? fill(words.side_won, {side: sideName(winner)}) : words.no_winner;
      say(words.phases.over + ". " + text + ". " + words.final_score + ": " + sideCounts(finalScore(score)) + ".");
    }
    announceTurn(v);
  }
  function announceCalls(v) {
    var calls = v.auction || [], hand = v.hands_played || 0, before = said.calls;
    said.calls = {hand: hand, n: calls.length};
    if (!before) return;  // the page's first view: the calls before it are on the page
    var from = before.hand === hand && before.n <= calls.length ? before.n : 0;
    calls.slice(from).forEach(function (c) { say(seatFull(c.seat) + ": " + callText(c.call)); });
  }
  function announceTurn(v) {
    var legal = v.legal || [];
    if (!legal.length) return;
    var key = [v.hands_played, total(v.tricks), (v.trick || []).length, (v.auction || []).length,
               (v.exchange || []).length, v.phase].join(":");
    if (key === said.turn) return;
    said.turn = key;
    var cards = legal.filter(function (a) { return CARD.test(a); });
    if (cards.length) {
      if (cards.some(function (c) { return (v.hand || []).indexOf(c) !== -1; })) { say(words.turn_card); return; }
      var from = Object.keys(v.open_hands || {}).filter(function (k) { return (v.open_hands[k] || []).indexOf(cards[0]) !== -1; })[0];
      say(from === "dummy" ? words.turn_dummy : from ? fill(words.turn_from, {seat: seatFull(from)}) : words.turn_card);
    } else if (legal.some(function (a) { return a.indexOf("discard ") === 0; })) say(words.turn_discard);
    else if (legal.some(function (a) { return a.indexOf("trump ") === 0; })) say(words.turn_trump);
    else if (v.phase === "auction" && legal.some(function (a) { return /^(pass|\d+ .+)$/.test(a); })) say(words.turn_call);
    else say(fill(words.turn_choose, {choices: legal.map(callText).join(", ")}));  // a ranking, keep or swap...
  }

  // ---- a hand's end and the game's end --------------------------------------------------
  function sideCounts(values, signed) {
    return Object.keys(values || {}).map(function (k) {
      var n = values[k];
      return sideName(k) + " " + (signed && n > 0 ? "+" : "") + n;
    }).join(" · ");
  }
  function renderHandResult() {
    var box = $("play-hand-result");
    if (!box) return;
    var result = shown.hand && view && view.phase !== "over" ? shown.hand : null;
    box.hidden = !result;
    clear(box);
    if (!result) return;
    box.appendChild(el("h2", "", fill(words.hand_over, {n: result.n})));
    box.appendChild(el("p", "hand-tricks", words.tricks + ": " + sideCounts(result.tricks)));
    box.appendChild(el("p", "hand-change", words.score_change + ": " + sideCounts(result.change, true)));
    var next = el("button", "", words.next_hand);
    next.type = "button";
    next.id = "play-next-hand";
    box.appendChild(next);
  }
  function wonBy(winner, seat) {
    return winner === seat || String(winner).split("+").indexOf(seat) !== -1 ||
      (/^[NESW]{2}$/.test(winner) && winner.indexOf(seat) !== -1);
  }
  function renderOver() {
    var box = $("play-over");
    if (!box) return;
    var over = view && view.phase === "over";
    box.hidden = !over;
    clear(box);
    if (!over) return;
    var score = view.score || {}, winner = score.winner, text;
    if (winner && view.seat) text = wonBy(winner, view.seat) ? words.you_won : words.you_lost;
    else if (winner) text = fill(words.side_won, {side: sideName(winner)});
    else text = words.no_winner;
    var head = el("p", "result big", text);
    head.setAttribute("data-result", winner && view.seat ? (wonBy(winner, view.seat) ? "won" : "lost") : "watched");
    box.appendChild(head);
    box.appendChild(el("p", "final-score", words.final_score + ": " + sideCounts(finalScore(score))));
    if (shown.hand) {
      box.appendChild(el("p", "hand-tricks", fill(words.hand_over, {n: shown.hand.n}) + " · " +
        words.tricks + ": " + sideCounts(shown.hand.tricks)));
      box.appendChild(el("p", "hand-change", words.score_change + ": " + sideCounts(shown.hand.change, true)));
    }
    if (view.seat && view.rules && typeof view.rules === "string") box.appendChild(newGameForm());
  }
  function newGameForm() {
    // The lobby's form (templates/play/lobby.html): the same game, the same robots (a seat
    // a person played is opened for an invitation).
    var form = el("form", "new-game");
    form.method = "post";
    form.action = root.getAttribute("data-lobby") || "/play/";
    function hidden(name, value) {
      var input = el("input");
      input.type = "hidden"; input.name = name; input.value = value;
      form.appendChild(input);
    }
    hidden("csrfmiddlewaretoken", csrf);
    hidden("rules", view.rules);
    var all = view.players || [];
    (Array.isArray(all) ? all : []).forEach(function (p) {
      if (p.seat === view.seat) return;
      hidden("robot_" + p.seat, p.robot && !p.standin ? p.robot : "");
    });
    var go = el("button", "", words.new_game);
    go.type = "submit";
    go.id = "play-new-game";
    form.appendChild(go);
    return form;
  }
  function fetchView() {
    return fetch(api, {credentials: "same-origin", headers: {"Accept": "application/json"}, cache: "no-store"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (v) { if (v) { take(v); if (refused) reconnectSoon(); } })
      .catch(function () { /* offline: the next poll tries again */ });
  }
  function send(action) {
    if (busy || !view) return;
    busy = true;
    notice = "";
    root.classList.add("sending");
    render();
    window.whistApi.send("POST", api + "actions/", {action: action, version: (latest || view).version}, csrf)
      .then(function (answer) {
        busy = false;
        root.classList.remove("sending");
        if (answer.status === 200) { take(answer.body, true); followUp(followFirst()); return; }
        if (answer.status === 409) notice = words.stale;
        else notice = fill(words.refused, {detail: answer.body.detail || answer.status});
        render();
        fetchView();
      }).catch(function () {
        busy = false;
        root.classList.remove("sending");
        notice = words.offline;
        render();
      });
  }

  // Without a socket the answer to the player's own move holds that move only: the robots'
  // and the others' replies would wait for the next poll, up to POLL_MS (3 s) a move. So
  // after a move the page asks again soon, then half as often each time up to POLL_MS,
  // and soon again whenever a reply has come while the player is still not to act: a
  // hand played without a socket (Redis down, a proxy without websockets) moves at the
  // robots' pace, not the poll's. Never more than the moves themselves bring about.
  var followTimer = null;
  function followFirst() { return Math.min(500, Math.round(POLL_MS / 4)); }
  function followUp(delay) {
    clearTimeout(followTimer);
    followTimer = null;
    var v = latest;
    if (!pollTimer || !v || v.phase === "over" || (v.legal && v.legal.length) || delay >= POLL_MS) return;
    followTimer = setTimeout(function () {
      var before = latest ? latest.version : v.version;
      fetchView().then(function () {
        followUp(latest && latest.version > before ? followFirst() : delay * 2);
      });
    }, delay);
  }

  function mode(name) { document.documentElement.setAttribute("data-live", name); }
  function startPolling() {
    mode("polling");
    if (!pollTimer) pollTimer = setInterval(fetchView, POLL_MS);
  }
  function stopPolling() { mode("socket"); clearInterval(pollTimer); pollTimer = null; }
  // The socket's close codes (drive/games/consumers.py). Not allowed (4403) or no such table
  // (4404): the page polls, and tries the socket again only once the table's REST view
  // answers it; too many sockets of this user (1008): it tries again at the slowest pace;
  // anything else ("try again", 4013: the server's channel layer is down; a restart; the
  // network): it polls the REST view, on which the player still acts, and reconnects with
  // a backoff.
  var NOT_ALLOWED = [4403, 4404], CROWDED = 1008, RETRY_MAX_MS = 10000;
  var refused = false;  // closed as not allowed: wait for the REST view before trying again
  function reconnectSoon() {
    refused = false;
    setTimeout(connect, retryMs * (0.5 + Math.random()));
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  }
  function connect() {
    if (!("WebSocket" in window)) { startPolling(); return; }
    if (socket) return;
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    try { socket = new WebSocket(scheme + location.host + wsPath); } catch (e) { startPolling(); return; }
    socket.onopen = function () { retryMs = 1000; stopPolling(); };
    socket.onmessage = function (m) {
      try { take(JSON.parse(m.data)); } catch (e) { fetchView(); }
    };
    socket.onclose = function (e) {
      socket = null;
      root.setAttribute("data-socket-closed", String(e.code));
      startPolling();
      if (NOT_ALLOWED.indexOf(e.code) !== -1) refused = true;
      else {
        if (e.code === CROWDED) retryMs = RETRY_MAX_MS;
        reconnectSoon();
      }
      fetchView();
    };
  }

  // ---- click, tap and keyboard -----------------------------------------------------------
  function onClick(e) {
    var target = e.target.closest ? e.target.closest("button[data-action]") : null;
    if (target && !target.disabled && root.contains(target)) { send(target.getAttribute("data-action")); return; }
    if (e.target.id === "play-last-toggle") { showLast = !showLast; renderLastTrick(); }
    if (e.target.id === "play-next-hand") { nextHand(); return; }
    var robot = e.target.closest ? e.target.closest("button[data-manage-robot]") : null;
    if (robot && root.contains(robot)) fillSeat({seat: robot.getAttribute("data-seat"), robot: robot.getAttribute("data-manage-robot")});
  }
  function onSubmit(e) {
    var form = e.target;
    if (!form.classList || !form.classList.contains("manage-substitute")) return;
    e.preventDefault();
    var name = form.querySelector("input[name=username]").value.trim();
    if (name) fillSeat({seat: form.getAttribute("data-seat"), username: name});
  }
  // The calls by keyboard: arrows move along a row and between rows (Tab and Enter as ever).
  function onCallKey(e) {
    var target = e.target;
    var moves = {ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0]};
    if (!moves[e.key]) return false;
    var rows = Array.prototype.slice.call(root.querySelectorAll("#play-call-buttons .call-group"));
    var grid = rows.map(function (r) { return Array.prototype.slice.call(r.querySelectorAll("button[data-action]")); });
    var r = -1, c = -1;
    grid.forEach(function (buttons, i) { var j = buttons.indexOf(target); if (j !== -1) { r = i; c = j; } });
    if (r === -1) return false;
    var dr = moves[e.key][0], dc = moves[e.key][1];
    if (dc) {
      var flat = [].concat.apply([], grid), k = flat.indexOf(target);
      flat[(k + dc + flat.length) % flat.length].focus();
    } else {
      var row = grid[(r + dr + grid.length) % grid.length];
      row[Math.min(c, row.length - 1)].focus();
    }
    e.preventDefault();
    return true;
  }
  function onKey(e) {
    var target = e.target;
    if (target && target.closest && target.closest("#play-call-buttons") && onCallKey(e)) return;
    if (!target || !target.getAttribute || !target.getAttribute("data-card")) return;
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    var cards = Array.prototype.slice.call(root.querySelectorAll("#play-hand-box button[data-card]:not([disabled])"));
    var i = cards.indexOf(target);
    if (i === -1 || !cards.length) return;
    var next = cards[(i + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length];
    next.focus();
    e.preventDefault();
  }

  // The lobby: only the chosen game's seats get a robot (the first seat is the creator's).
  function lobbySeats() {
    var select = $("rules");
    if (!select) return;
    function show() {
      var seats = select.options[select.selectedIndex].getAttribute("data-seats") || "NESW";
      document.querySelectorAll(".robot-seat").forEach(function (row) {
        var code = row.getAttribute("data-seat");
        row.hidden = seats.indexOf(code) <= 0;
      });
    }
    select.addEventListener("change", show);
    show();
  }

  document.addEventListener("DOMContentLoaded", function () {
    lobbySeats();
    root = $("play");
    if (!root) return;
    words = JSON.parse($("play-words").textContent);
    players = JSON.parse($("play-players").textContent || "{}");
    seatOrder = JSON.parse(root.getAttribute("data-seats") || '["N","E","S","W"]');
    api = root.getAttribute("data-api");
    wsPath = root.getAttribute("data-ws");
    csrf = root.getAttribute("data-csrf");
    manage = root.getAttribute("data-manage") === "1";
    manageAll = root.getAttribute("data-manage-all") === "1";
    var pollMs = parseInt(root.getAttribute("data-poll-ms"), 10);
    if (pollMs > 0) POLL_MS = pollMs;
    // Tests of other things may play faster (window.PLAY_PACE_SCALE set before the page loads).
    if (typeof window.PLAY_PACE_SCALE === "number" && window.PLAY_PACE_SCALE >= 0) paceScale = window.PLAY_PACE_SCALE;
    if ($("play-hand-box")) $("play-hand-box").setAttribute("aria-label", words.your_hand);  // a Tab stop while others play
    var first = $("play-view");
    if (first && first.textContent && first.textContent !== "null") take(JSON.parse(first.textContent));
    root.addEventListener("click", onClick);
    root.addEventListener("keydown", onKey);
    root.addEventListener("submit", onSubmit);
    document.addEventListener("focusin", onFocusIn);
    document.addEventListener("pointerdown", onPointerDown);
    fetchView();
    connect();
  });
})();
