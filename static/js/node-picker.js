// Node pickers (planning.forms.NodePicker): type part of a node's name or code, pick one of the
// matches the server sends (at most 20), and its id goes into the hidden input the form submits.
// Clearing the text clears the choice. A form is not sent while a picker holds text that names
// no picked node: the picker says so instead of the text being dropped silently.
(function () {
  "use strict";

  function setup(picker) {
    const hidden = picker.querySelector("input[type=hidden]");
    const input = picker.querySelector("input.node-picker-input");
    const list = picker.querySelector("ul.node-picker-list");
    let timer = null;
    let active = -1;
    let asked = 0;

    function options() {
      return Array.from(list.querySelectorAll("li[role=option]"));
    }

    function hide() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      active = -1;
    }

    function choose(option) {
      hidden.value = option.dataset.id;
      input.value = option.dataset.name;
      hide();
      const found = picker.querySelector(".node-picker-warning");
      if (found) found.remove();
    }

    function highlight(index) {
      const all = options();
      if (!all.length) return;
      active = (index + all.length) % all.length;
      all.forEach(function (option, i) {
        option.setAttribute("aria-selected", i === active ? "true" : "false");
      });
      input.setAttribute("aria-activedescendant", all[active].id);
    }

    async function search() {
      const query = input.value.trim();
      if (!query) {
        hide();
        return;
      }
      const url = new URL(picker.dataset.searchUrl, window.location.href);
      url.searchParams.set("q", query);
      if (picker.dataset.kind) url.searchParams.set("kind", picker.dataset.kind);
      const ticket = ++asked;
      const response = await fetch(url, { credentials: "same-origin" });
      if (!response.ok || ticket !== asked) return;
      const body = await response.json();
      list.replaceChildren();
      body.results.forEach(function (node, index) {
        const option = document.createElement("li");
        option.setAttribute("role", "option");
        option.id = hidden.id + "_option_" + index;
        option.dataset.id = node.id;
        option.dataset.name = node.name;
        option.textContent = node.name + (node.code ? " · " + node.code : "");
        if (node.path) {
          const path = document.createElement("small");
          path.textContent = " " + node.path;
          option.appendChild(path);
        }
        list.appendChild(option);
      });
      if (!body.results.length) {
        const none = document.createElement("li");
        none.className = "help";
        none.textContent = "No node matches.";
        list.appendChild(none);
      } else if (body.more) {
        const more = document.createElement("li");
        more.className = "help";
        more.textContent = "More match: type more of the name.";
        list.appendChild(more);
      }
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
      active = -1;
    }

    function warning() {
      let found = picker.querySelector(".node-picker-warning");
      if (!found) {
        found = document.createElement("p");
        found.className = "error node-picker-warning";
        found.setAttribute("role", "alert");
        picker.appendChild(found);
      }
      return found;
    }

    function unwarn() {
      const found = picker.querySelector(".node-picker-warning");
      if (found) found.remove();
    }

    const form = picker.closest("form");
    if (form) {
      form.addEventListener("submit", function (event) {
        const typed = input.value.trim();
        if (!typed || hidden.value) return;
        const same = options().find(function (option) {
          return option.dataset.name.toLowerCase() === typed.toLowerCase();
        });
        if (same) {  // typed exactly a listed name: that is the choice
          choose(same);
          return;
        }
        event.preventDefault();
        warning().textContent =
          "“" + typed + "” is no node you picked: choose one from the list, or clear the text.";
        input.focus();
      });
    }

    input.addEventListener("input", function () {
      hidden.value = "";
      unwarn();
      clearTimeout(timer);
      timer = setTimeout(search, 200);
    });
    input.addEventListener("keydown", function (event) {
      if (list.hidden) return;
      if (event.key === "ArrowDown") {
        event.preventDefault();
        highlight(active + 1);
      } else if (event.key === "ArrowUp") {
        event.preventDefault();
        highlight(active - 1);
      } else if (event.key === "Enter" && active >= 0) {
        event.preventDefault();
        choose(options()[active]);
      } else if (event.key === "Escape") {
        hide();
      }
    });
    list.addEventListener("mousedown", function (event) {
      const option = event.target.closest("li[role=option]");
      if (option) {
        event.preventDefault();
        choose(option);
      }
    });
    input.addEventListener("blur", function () {
      setTimeout(hide, 150);
    });
  }

  document.querySelectorAll("[data-node-picker]").forEach(setup);
})();
