// The plan page's structure tree: a closed node loads its children from the server the first
// time it is opened (one small request per node), then toggles them.
(function () {
  "use strict";

  async function open(toggle, item) {
    let list = item.querySelector(":scope > ul");
    if (!list) {
      toggle.disabled = true;
      try {
        const response = await fetch(toggle.dataset.childrenUrl, { credentials: "same-origin" });
        if (!response.ok) return;
        item.insertAdjacentHTML("beforeend", await response.text());
        list = item.querySelector(":scope > ul");
      } finally {
        toggle.disabled = false;
      }
    }
    if (list) {
      list.hidden = false;
      toggle.setAttribute("aria-expanded", "true");
      toggle.setAttribute("aria-label", toggle.getAttribute("aria-label").replace(/^Show/, "Hide"));
    }
  }

  function close(toggle, item) {
    const list = item.querySelector(":scope > ul");
    if (list) list.hidden = true;
    toggle.setAttribute("aria-expanded", "false");
    toggle.setAttribute("aria-label", toggle.getAttribute("aria-label").replace(/^Hide/, "Show"));
  }

  document.addEventListener("click", function (event) {
    const toggle = event.target.closest("button.tree-toggle");
    if (!toggle) return;
    const item = toggle.closest("li");
    if (toggle.getAttribute("aria-expanded") === "true") close(toggle, item);
    else open(toggle, item);
  });
})();
