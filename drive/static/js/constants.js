// What the server defines once (drive/core/broadcast.Change, drive/core/clock) and the
// page writes as JSON: the live feed's change kinds, the clock's warning and its format.
// Loaded in <head>, not deferred, so every later script can use window.whist.
window.whist = (function () {
  "use strict";
  var el = document.getElementById("page-constants");
  var constants = el ? JSON.parse(el.textContent) : {};
  function two(n) { return (n < 10 ? "0" : "") + n; }
  return {
    kinds: constants.kinds || {},
    warnSeconds: constants.warn_seconds || 120,
    // "m:ss", or "h:mm:ss" from an hour: as drive/core/clock.clock_text writes it
    clockText: function (seconds) {
      var m = Math.floor(seconds / 60), s = seconds % 60, h = Math.floor(m / 60);
      return h ? h + ":" + two(m % 60) + ":" + two(s) : m + ":" + two(s);
    }
  };
})();
