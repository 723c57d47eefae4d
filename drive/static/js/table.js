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

  // The panel refreshes on "table-update", fired here for the live updates it wants (a
  // filter in hx-trigger would need eval, which the Content-Security-Policy forbids).
  document.addEventListener("DOMContentLoaded", function () {
    document.body.addEventListener("live-update", function (event) {
      if (window.tableWantsUpdate(event)) document.body.dispatchEvent(new CustomEvent("table-update"));
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
