// A live page for the whole room: redraw on the changes that matter to it, at most once
// every two seconds however fast results come in; the last change is always shown (live.js
// holds a change that comes while the last redraw is in flight, and fires it after).
(function () {
  var KIND = window.whist.kinds;
  var IGNORE = [KIND.REGISTRATIONS, KIND.ARRIVALS, KIND.MOVEMENT, KIND.EVENT];
  var GAP_MS = 2000, JITTER_MS = 1500, last = 0, timer = null;
  function refresh() { last = Date.now(); timer = null; document.body.dispatchEvent(new CustomEvent("results-refresh")); }
  document.body.addEventListener("live-update", function (e) {
    var d = e.detail;
    // a table's entry is followed by the standings it changes: wait for those
    if (d && (IGNORE.indexOf(d.kind) >= 0 || (d.kind === KIND.RESULTS && d.data && d.data.table))) return;
    if (timer) return;
    // Hundreds of phones hear the same update: each waits a moment of its own, so they
    // do not all ask the server at the same instant.
    var wait = Math.max(0, last + GAP_MS - Date.now()) + Math.random() * JITTER_MS;
    timer = setTimeout(refresh, wait);
  });
})();
