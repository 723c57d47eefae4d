// The console's Online tables page: "Tables played online" counts only when the evening is
// mixed, so it is shown only then, and as soon as "mixed" is picked. Without this script the
// field stays in sight (the server drops a list left in it when the tables play all on paper
// or all online).
(function () {
  "use strict";
  function sync(form) {
    var mixed = form.querySelector("input[name=mode][value=mixed]");
    var field = form.querySelector("[data-mixed-only]");
    if (mixed && field) field.hidden = !mixed.checked;
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-online-setting]").forEach(function (form) {
      sync(form);
      form.addEventListener("change", function (e) {
        if (e.target && e.target.name === "mode") sync(form);
      });
    });
  });
})();
