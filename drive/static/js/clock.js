// The round clock: the server renders the deadline (ISO) and the seconds left at that
// moment; the deadline is moved onto this device's clock by that difference, so a wrong
// clock on the organiser's laptop does not shift the countdown. A paused clock stands still.
(function () {
  "use strict";
  var text = window.whist.clockText;
  function tick() {
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      var left = parseInt(el.getAttribute("data-seconds-left"), 10);
      if (isNaN(left)) return;
      var shown = el.querySelector(".clock-time"), note = el.querySelector(".clock-note");
      if (el.getAttribute("data-paused") === "1") { shown.textContent = text(left); return; }
      if (!el.dataset.localDeadline) {
        var deadline = Date.parse(el.getAttribute("data-deadline"));
        var serverNow = deadline - left * 1000;           // the server's clock when it rendered
        el.dataset.localDeadline = deadline + (Date.now() - serverNow);
      }
      var remaining = Math.max(0, Math.ceil((Number(el.dataset.localDeadline) - Date.now()) / 1000));
      shown.textContent = text(remaining);
      el.classList.toggle("low", remaining > 0 && remaining <= window.whist.warnSeconds);
      if (remaining === 0 && !el.classList.contains("over")) {
        el.classList.add("over");
        note.textContent = el.getAttribute("data-over-text");
      }
    });
  }
  document.addEventListener("DOMContentLoaded", function () { tick(); setInterval(tick, 500); });
  document.addEventListener("htmx:afterSettle", tick);
})();
