// The pages' one way to write through the REST API: JSON in and out with the session's
// CSRF token. Resolves to {status, ok, body} (body {} when the answer is not JSON) and
// rejects only when the network fails, so each caller words its own refusals.
(function () {
  "use strict";
  window.whistApi = {
    send: function (method, url, body, csrf) {
      return fetch(url, {
        method: method, credentials: "same-origin",
        headers: {"Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf},
        body: JSON.stringify(body)
      }).then(function (r) {
        return r.json().catch(function () { return {}; })
          .then(function (b) { return {status: r.status, ok: r.ok, body: b}; });
      });
    }
  };
})();
