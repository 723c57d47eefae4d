// Small behaviours of the pages, by data attributes instead of inline handlers (the
// Content-Security-Policy runs no inline script):
//   data-print             a button that prints the page
//   form[data-confirm]     asks before submitting (the attribute is the question)
//   data-autosubmit        a select that submits its form when changed (the language)
//   data-select-on-click   an input whose text is selected on a click (a link to copy)
//   data-set-field/-value  a button that fills a field of its form (the console's "Take")
//   data-filter-players    the console's "find a player" box
(function () {
  "use strict";
  // htmx copies the old element's style attribute while it settles a swap: a blocked inline
  // style under the policy (an element may carry style="" after a tap). The pages set none.
  if (window.htmx) htmx.config.attributesToSettle = htmx.config.attributesToSettle.filter(function (name) {
    return name !== "style";
  });
  document.addEventListener("click", function (e) {
    var target = e.target;
    if (!target || !target.closest) return;
    if (target.closest("[data-print]")) window.print();
    var select = target.closest("[data-select-on-click]");
    if (select) select.select();
    var set = target.closest("[data-set-field]");
    if (set && set.form) set.form.elements[set.getAttribute("data-set-field")].value = set.getAttribute("data-set-value");
  });
  // Capturing: runs before htmx or the browser send the form.
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form && form.matches && form.matches("form[data-confirm]") && !window.confirm(form.getAttribute("data-confirm"))) {
      e.preventDefault();
      e.stopPropagation();
    }
  }, true);
  document.addEventListener("input", function (e) {
    var el = e.target;  // data-filter-players: the console's "find a player" box (live.js)
    if (el && el.matches && el.matches("[data-filter-players]") && window.filterPlayers) window.filterPlayers(el.value);
  });
  document.addEventListener("change", function (e) {
    var el = e.target;
    if (el && el.matches && el.matches("[data-autosubmit]") && el.form) el.form.submit();
  });
})();
