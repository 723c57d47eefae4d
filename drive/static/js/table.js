// The table entry page: which live updates concern this table, and the chosen number of
// tricks shown as N-S and E-W (13 minus) while a player picks it.
(function () {
  "use strict";

  // hx-trigger's filter: results of other tables are not ours; anything else (a poll, a
  // reconnect, the round ending, the seating) may change what this table shows.
  window.tableWantsUpdate = function (event) {
    var message = event && event.detail;
    if (!message || message.kind !== window.whist.kinds.RESULTS || !message.data) return true;
    var page = document.getElementById("table-live");
    return !page || String(message.data.table) === page.getAttribute("data-table");
  };

  // A refresh never lands under a finger. The swap takes the hand being entered out of the
  // page and puts it back (hx-preserve), and a tap whose press and release straddle that is
  // lost: the phone shows the choice made and "Send" did nothing. So while a pointer is
  // down, and a moment after it lifts (the tap's click and request follow), a refresh waits;
  // one on its way when the finger comes down is called off and asked for again after. The
  // panel says so with data-refresh-held (tests wait on it).
  var GRACE_MS = 300, pressed = false, releasedAt = 0, heldTimer = null;
  document.addEventListener("pointerdown", function () {
    pressed = true;
    var page = document.getElementById("table-live");
    if (page && page.classList.contains("htmx-request")) {  // the panel's own refresh, not a tap's
      window.htmx.trigger(page, "htmx:abort");
      refreshWhenFree();
    }
  }, true);
  function released() { pressed = false; releasedAt = Date.now(); }
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
  function busyFor() { return pressed ? GRACE_MS : releasedAt + GRACE_MS - Date.now(); }
  function refreshWhenFree() {
    var page = document.getElementById("table-live"), wait = busyFor();
    if (wait > 0) {
      if (page) page.setAttribute("data-refresh-held", "");
      if (!heldTimer) heldTimer = setTimeout(function () { heldTimer = null; refreshWhenFree(); }, wait);
      return;
    }
    if (page) page.removeAttribute("data-refresh-held");
    document.body.dispatchEvent(new CustomEvent("table-update"));
  }

  // The panel refreshes on "table-update", fired here for the live updates it wants (a
  // filter in hx-trigger would need eval, which the Content-Security-Policy forbids).
  document.addEventListener("DOMContentLoaded", function () {
    document.body.addEventListener("live-update", function (event) {
      if (window.tableWantsUpdate(event)) refreshWhenFree();
    });
  });

  // The card stopped working (the results are published, or the organiser changed the
  // tables): show the page that says so, instead of polling a 404 for the rest of the night.
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (xhr && xhr.status === 404 && document.getElementById("table-live")) location.reload();
  });

  // A refresh of the panel (a live update, every poll) keeps the answer to this phone's
  // last tap on "Who are you?" (the seat is taken): it stays until the phone taps again,
  // instead of vanishing a moment after it was shown.
  var whoAnswer = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var refresh = event.detail.elt === document.getElementById("table-live");
    whoAnswer = refresh ? document.querySelector("#who .error") : null;  // a tap's answer says anew
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var who = document.getElementById("who");
    if (whoAnswer && who && !who.querySelector(".error")) who.appendChild(whoAnswer);
    whoAnswer = null;
  });

  // A hand's form on its way: its button says so and takes no second tap (one tap, one
  // entry) until the answer, which replaces the hand; an answer that never comes (the
  // Wi-Fi dropped it) gives the button back to try again.
  function sending(form) {  // a form's own request, not the panel's refresh around it
    return form && form.tagName === "FORM" ? form.querySelectorAll("button[data-sending]") : [];
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    sending(event.detail && event.detail.elt).forEach(function (button) {
      button.setAttribute("data-label", button.textContent);
      button.textContent = button.getAttribute("data-sending");
      button.disabled = true;
    });
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    sending(event.detail && event.detail.elt).forEach(function (button) {
      if (!button.hasAttribute("data-label")) return;
      button.textContent = button.getAttribute("data-label");
      button.removeAttribute("data-label");
      button.disabled = false;
    });
  });

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input || input.name !== "ns_tricks" || !input.form) return;
    var ns = parseInt(input.value, 10);
    var nsOut = input.form.querySelector("[data-ns]"), ewOut = input.form.querySelector("[data-ew]");
    if (nsOut) nsOut.textContent = String(ns);
    if (ewOut) ewOut.textContent = String(13 - ns);
  });
})();
