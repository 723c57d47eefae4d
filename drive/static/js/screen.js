// The room's screen: turns live updates into fragment refreshes (at once, then at most four
// a second, the last change always shown: a table's entry is followed within a moment by
// the standings it changes, and both must reach the room within a second), counts the
// round clock down, and turns long lists page by page. Every timer is global and made
// once; each tick reads the current #screen, so swapping the fragment (outerHTML) leaves
// nothing behind to leak.
(function () {
  "use strict";
  var GAP_MS = 250, PAGE_MS = 8000, WARN_SECONDS = window.whist.warnSeconds;
  var lastRefresh = 0, pending = null;
  var deadline = null, paused = false;
  var page = 0;

  function refresh() {
    pending = null;
    lastRefresh = Date.now();
    document.body.dispatchEvent(new CustomEvent("screen-refresh"));
  }

  // live.js fires "live-update" on <body> (it does not bubble; it holds them while this
  // page's last refresh is in flight); this script is deferred, so <body> is there.
  document.body.addEventListener("live-update", function () {
    if (pending) return;
    var wait = lastRefresh + GAP_MS - Date.now();
    if (wait <= 0) refresh(); else pending = setTimeout(refresh, wait);
  });

  var clockText = window.whist.clockText;

  // Read the clock the server sent (seconds left, not a time of day: the venue laptop's
  // clock may be wrong).
  function readClock() {
    var clock = document.getElementById("clock");
    deadline = null;
    if (!clock) return;
    var left = parseInt(clock.getAttribute("data-seconds-left"), 10);
    paused = clock.hasAttribute("data-paused");
    if (!isNaN(left)) deadline = Date.now() + left * 1000;
  }

  // The chime at zero (the organiser's option): three notes made with Web Audio, no sound
  // file. Browsers start audio only after a click on the page, so until then a hint asks
  // for one. Once a round, and only when this screen saw the clock run out (a screen
  // opened after the deadline stays quiet).
  var audio = null, chimedRound = null, lastLeft = null, clockRound = null;
  window.screenChimes = 0;  // how many chimes this page sounded (tests read it)

  function chimeWanted() {
    var screen = document.getElementById("screen");
    return !!screen && screen.hasAttribute("data-chime");
  }

  function audioContext() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) {
      audio = new Context();
      audio.addEventListener("statechange", showChimeHint);  // muted, allowed, or muted again
    }
    return audio;
  }

  function showChimeHint() {
    var hint = document.getElementById("chime-hint");
    if (hint) hint.hidden = !chimeWanted() || (audio !== null && audio.state === "running");
  }

  function chime() {
    var ctx = audioContext();
    if (!ctx || ctx.state !== "running") return;  // muted until the click: the hint says so
    [659.25, 830.61, 987.77].forEach(function (freq, i) {
      var start = ctx.currentTime + i * 0.45, tone = ctx.createOscillator(), gain = ctx.createGain();
      tone.type = "sine";
      tone.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.5, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 1.4);
      tone.connect(gain).connect(ctx.destination);
      tone.start(start);
      tone.stop(start + 1.5);
    });
    window.screenChimes += 1;
  }

  function chimeAtZero(left) {
    var screen = document.getElementById("screen"), round = screen && screen.getAttribute("data-round");
    if (round !== clockRound) { clockRound = round; lastLeft = null; }
    if (lastLeft !== null && lastLeft > 0 && left === 0 && chimeWanted() && chimedRound !== round) {
      chimedRound = round;
      chime();
    }
    lastLeft = left;
  }

  document.addEventListener("click", function () {
    var ctx = chimeWanted() && audioContext();
    if (ctx && ctx.state !== "running") ctx.resume().then(showChimeHint, showChimeHint);
  });

  function tick() {
    var clock = document.getElementById("clock");
    if (!clock || deadline === null || paused) return;
    var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    chimeAtZero(left);
    var time = clock.querySelector("[data-clock-time]"), warn = clock.querySelector("[data-clock-warn]");
    var over = clock.querySelector("[data-clock-over]");
    var text = clockText(left);
    if (time && time.textContent !== text) time.textContent = text;
    var warning = left > 0 && left <= WARN_SECONDS;  // at zero the clock says time is up instead
    clock.classList.toggle("warn", warning);
    clock.classList.toggle("over", left === 0);
    if (warn) warn.hidden = !warning;
    if (over) over.hidden = left !== 0;
  }

  function showPage() {
    var box = document.querySelector("#screen [data-pages]");
    if (!box) return;
    var pages = box.querySelectorAll(".page");
    if (!pages.length) return;
    var shown = page % pages.length;
    for (var i = 0; i < pages.length; i++) pages[i].hidden = i !== shown;
    fitNames(pages[shown]);
  }

  // A name too long for its line steps down a size or two (screen.css: fit-1, fit-2) before
  // the ellipsis cuts it: measured on the page shown (a hidden page has no width).
  var FITS = ["fit-1", "fit-2"];
  function fitNames(root) {
    var names = root.querySelectorAll(".name");
    for (var i = 0; i < names.length; i++) {
      var name = names[i], step = 0;
      name.classList.remove.apply(name.classList, FITS);
      while (step < FITS.length && name.scrollWidth > name.clientWidth + 1) {
        if (step) name.classList.remove(FITS[step - 1]);
        name.classList.add(FITS[step]);
        step += 1;
      }
    }
  }

  function turnPage() { page += 1; showPage(); }

  function swapped(e) {
    if (!e.detail || !e.detail.elt || e.detail.elt.id !== "screen") return;
    readClock(); tick(); showPage();
    if (chimeWanted()) audioContext();
    showChimeHint();
  }

  // A revoked screen link: the next refresh gets a 404, show it instead of stale data.
  document.addEventListener("htmx:responseError", function (e) {
    if (e.detail && e.detail.xhr && e.detail.xhr.status === 404) location.reload();
  });
  document.addEventListener("htmx:afterSettle", swapped);
  document.addEventListener("DOMContentLoaded", function () {
    var main = document.querySelector("[data-page-ms]");
    var pageMs = main && parseInt(main.getAttribute("data-page-ms"), 10);
    if (pageMs > 0) PAGE_MS = pageMs;  // tests turn the pages faster
    readClock(); tick(); showPage();
    if (chimeWanted()) audioContext();
    showChimeHint();
    setInterval(tick, 250);
    setInterval(turnPage, PAGE_MS);
    window.addEventListener("resize", showPage);
  });
})();
