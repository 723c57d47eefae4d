// Live updates: any element with data-live-event (and data-live-ticket, its pass) listens
// to its event's websocket and fires "live-update" on <body>, which htmx fragments
// re-fetch on. When the socket is
// down the page polls instead and keeps trying to reconnect, so nobody has to reload.
// The event's detail is the socket's message ({kind, event, data}), or null for a poll.
// data-live-poll-ms on the same element sets the polling interval (tests shorten it).
(function () {
  "use strict";
  var POLL_MS = 10000;
  var socket = null, pollTimer = null, retryMs = 1000;

  // htmx drops a fragment's request while its last one is in flight, so a change that
  // came meanwhile would stay off the page: while any request of the live part of the
  // page (the [data-live-event] element and what is inside it) is out, hold the updates,
  // and fire once more (as a poll, which every fragment takes) when the answer is in.
  var STUCK_MS = 10000, busySince = 0, held = false;

  // Nor does an update land under a finger: the swap replaces what the finger is on (or
  // takes a hand being entered out of the page and puts it back), and a tap whose press and
  // release straddle it is lost: "Send" did nothing. While a pointer is down, and a moment
  // after it lifts (the tap's click and request follow), updates are held, and a refresh of
  // the live part on its way when the finger comes down is called off; then one poll goes
  // out. <html data-live-held> says so (tests wait on it).
  var GRACE_MS = 300, pressed = false, releasedAt = 0, touchTimer = null;
  function touching() { return pressed || Date.now() - releasedAt < GRACE_MS; }
  function holdForTouch() {
    held = true;
    document.documentElement.setAttribute("data-live-held", "");
    if (!touchTimer) touchTimer = setTimeout(afterTouch, GRACE_MS);
  }
  function afterTouch() {
    touchTimer = null;
    if (touching()) { touchTimer = setTimeout(afterTouch, GRACE_MS); return; }
    document.documentElement.removeAttribute("data-live-held");
    if (held && !busySince) { held = false; fire(null); }
  }
  document.addEventListener("pointerdown", function () {
    pressed = true;
    document.querySelectorAll("[data-live-event][hx-get].htmx-request, [data-live-event] [hx-get].htmx-request")
      .forEach(function (refresh) {  // a fragment's own refresh, not a tap's request
        window.htmx.trigger(refresh, "htmx:abort");
        busySince = 0;
        holdForTouch();
      });
  }, true);
  function released() { pressed = false; releasedAt = Date.now(); }
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);

  function fire(detail) { document.body.dispatchEvent(new CustomEvent("live-update", {detail: detail || null})); }
  // Capturing on the document runs before htmx's listener on <body>.
  document.addEventListener("live-update", function (e) {
    var busy = busySince && Date.now() - busySince < STUCK_MS;
    if (!busy && !touching()) return;
    if (busy) held = true; else holdForTouch();
    e.stopImmediatePropagation();
  }, true);
  function ours(e) {
    var elt = e.detail && e.detail.elt;
    return !!elt && !!elt.closest && elt.closest("[data-live-event]") !== null;
  }
  function answered(e) {
    if (!ours(e)) return;
    busySince = 0;
    if (held) { held = false; fire(null); }
  }
  document.addEventListener("htmx:beforeRequest", function (e) { if (ours(e)) busySince = Date.now(); });
  document.addEventListener("htmx:afterSettle", answered);
  document.addEventListener("htmx:responseError", answered);
  document.addEventListener("htmx:sendError", answered);

  function message(m) {
    var detail = null;
    try { detail = JSON.parse(m.data); } catch (e) { /* not JSON: still a change */ }
    fire(detail);
  }

  // <html data-live="socket|polling">: pages may show that they are reconnecting; tests wait on it.
  function mode(name) { document.documentElement.setAttribute("data-live", name); }
  function startPolling() { mode("polling"); if (!pollTimer) pollTimer = setInterval(function () { fire(null); }, POLL_MS); }
  function stopPolling() { mode("socket"); clearInterval(pollTimer); pollTimer = null; }

  // The socket needs the page's ticket to its event (drive/core/tickets.py); read it at every
  // connect, since a refreshed fragment brings a fresh one.
  function ticket() {
    var el = document.querySelector("[data-live-event]");
    return (el && el.getAttribute("data-live-ticket")) || "";
  }

  function connect(eventId) {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/events/" + eventId + "/?ticket=" +
                           encodeURIComponent(ticket()));
    socket.onopen = function () { retryMs = 1000; stopPolling(); fire(null); };
    socket.onmessage = message;
    socket.onclose = function () {
      startPolling();
      // a little randomness: a room of pages must not all knock at the same instant
      setTimeout(function () { connect(eventId); }, retryMs * (0.5 + Math.random()));
      retryMs = Math.min(retryMs * 2, 5000);  // a restarted server is found again within seconds
    };
  }

  document.addEventListener("DOMContentLoaded", function () {
    var el = document.querySelector("[data-live-event]");
    var pollMs = el && parseInt(el.getAttribute("data-live-poll-ms"), 10);
    if (pollMs > 0) POLL_MS = pollMs;
    if (el && "WebSocket" in window) connect(el.getAttribute("data-live-event"));
  });
})();

// The console's "find a player" box: hide rows whose name does not match.
function filterPlayers(text) {
  var needle = text.trim().toLowerCase();
  document.querySelectorAll("tr[data-player]").forEach(function (row) {
    row.hidden = needle !== "" && row.getAttribute("data-player").toLowerCase().indexOf(needle) === -1;
  });
}
