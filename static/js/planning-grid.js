// The budget grid of the action-planning view: opening a building loads the rows of its nodes
// from the server the first time (one small request), then toggles them.
(function () {
  "use strict";

  async function open(toggle, body) {
    let rows = body.querySelectorAll("tr.node-row");
    if (!rows.length) {
      toggle.disabled = true;
      try {
        const response = await fetch(toggle.dataset.rowsUrl, { credentials: "same-origin" });
        if (!response.ok) return;
        body.insertAdjacentHTML("beforeend", await response.text());
        rows = body.querySelectorAll("tr.node-row");
      } finally {
        toggle.disabled = false;
      }
    }
    rows.forEach(function (row) { row.hidden = false; });
    toggle.setAttribute("aria-expanded", "true");
    toggle.setAttribute("aria-label", toggle.getAttribute("aria-label").replace(/^Show/, "Hide"));
  }

  function close(toggle, body) {
    body.querySelectorAll("tr.node-row").forEach(function (row) { row.hidden = true; });
    toggle.setAttribute("aria-expanded", "false");
    toggle.setAttribute("aria-label", toggle.getAttribute("aria-label").replace(/^Hide/, "Show"));
  }

  document.addEventListener("click", function (event) {
    const toggle = event.target.closest("button.grid-toggle");
    if (!toggle) return;
    const body = toggle.closest("tbody");
    if (toggle.getAttribute("aria-expanded") === "true") close(toggle, body);
    else open(toggle, body);
  });
})();
