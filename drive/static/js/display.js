// The cards' display (issue 20): a four-colour deck (spades black, hearts red, diamonds
// blue, clubs green) and high contrast, as classes on the page's root (.play): the server
// draws them from a signed-in person's preference, so they hold from the first paint; a
// change is stored by PUT /api/play/display/ (the form's data-api, with its CSRF token),
// or, for someone not signed in, in this browser's localStorage.
(function () {
  "use strict";
  var KEY = "whist-display";
  var CLASSES = {four_colour: "deck-four", high_contrast: "high-contrast"};

  function roots() { return document.querySelectorAll(".play"); }
  function apply(choice) {
    Array.prototype.forEach.call(roots(), function (root) {
      Object.keys(CLASSES).forEach(function (k) { root.classList.toggle(CLASSES[k], !!choice[k]); });
    });
  }
  function stored() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "null"); } catch (e) { return null; }
  }
  function keep(choice) {
    try { window.localStorage.setItem(KEY, JSON.stringify(choice)); } catch (e) { /* private mode: this page only */ }
  }
  function chosen(form) {
    var out = {};
    Object.keys(CLASSES).forEach(function (k) {
      var box = form.querySelector("input[name=" + k + "]");
      out[k] = !!(box && box.checked);
    });
    return out;
  }
  function setBoxes(form, choice) {
    Object.keys(CLASSES).forEach(function (k) {
      var box = form.querySelector("input[name=" + k + "]");
      if (box && typeof choice[k] === "boolean") box.checked = choice[k];
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("play-display-form");
    if (!form) return;
    var api = form.getAttribute("data-api"), csrf = form.getAttribute("data-csrf");
    var note = form.querySelector(".display-note");
    var asked = 0;
    if (!api) {  // not signed in: this browser remembers
      var before = stored();
      if (before) { setBoxes(form, before); apply(before); }
    }
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    form.addEventListener("change", function () {
      var choice = chosen(form), mine = ++asked;
      apply(choice);
      if (note) note.textContent = "";
      if (!api) { keep(choice); return; }
      window.whistApi.send("PUT", api, choice, csrf).then(function (answer) {
        if (mine !== asked) return;
        if (answer.ok) {
          form.setAttribute("data-saved", JSON.stringify(answer.body));
          return;
        }
        var b = answer.body || {};
        if (note) note.textContent = b.detail || (b.four_colour && b.four_colour[0]) || (b.high_contrast && b.high_contrast[0]) || "";
      }).catch(function () {
        if (mine === asked && note) note.textContent = form.getAttribute("data-offline") || "";
      });
    });
  });
})();
