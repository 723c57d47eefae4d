// The room's screen: turns live updates into fragment refreshes (at once, then at most one
// a second, the last change always shown), counts the round clock down, and turns long
// lists page by page. Every timer is global and made once; each tick reads the current
// #screen, so swapping the fragment (outerHTML) leaves nothing behind to leak.
(function () {
  "use strict";
  var GAP_MS = 1000, PAGE_MS = 8000, WARN_SECONDS = 120;
  var lastRefresh = 0, pending = null;
  var deadline = null, paused = false;
  var page = 0;

  function refresh() {
    pending = null;
    lastRefresh = Date.now();
    document.body.dispatchEvent(new CustomEvent("screen-refresh"));
  }

  // live.js fires "live-update" on <body> (it does not bubble); this script is deferred,
  // so <body> is there.
  document.body.addEventListener("live-update", function () {
    if (pending) return;
    var wait = lastRefresh + GAP_MS - Date.now();
    if (wait <= 0) refresh(); else pending = setTimeout(refresh, wait);
  });

  function two(n) { return (n < 10 ? "0" : "") + n; }
  function clockText(seconds) {
    var m = Math.floor(seconds / 60), s = seconds % 60, h = Math.floor(m / 60);
    return h ? h + ":" + two(m % 60) + ":" + two(s) : m + ":" + two(s);
  }

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

  function tick() {
    var clock = document.getElementById("clock");
    if (!clock || deadline === null || paused) return;
    var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    var time = clock.querySelector("[data-clock-time]"), warn = clock.querySelector("[data-clock-warn]");
    var text = clockText(left);
    if (time && time.textContent !== text) time.textContent = text;
    var warning = left <= WARN_SECONDS;
    clock.classList.toggle("warn", warning);
    if (warn) warn.hidden = !warning;
  }

  function showPage() {
    var box = document.querySelector("#screen [data-pages]");
    if (!box) return;
    var pages = box.querySelectorAll(".page");
    if (!pages.length) return;
    var shown = page % pages.length;
    for (var i = 0; i < pages.length; i++) pages[i].hidden = i !== shown;
  }

  function turnPage() { page += 1; showPage(); }

  function swapped(e) {
    if (!e.detail || !e.detail.elt || e.detail.elt.id !== "screen") return;
    readClock(); tick(); showPage();
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
    setInterval(tick, 250);
    setInterval(turnPage, PAGE_MS);
  });
})();
