// Survey mode (docs/subsystems/survey-mode.md): walks one building's components one at a time.
// The component list comes as compact JSON pages, the first one small so the first component
// shows at once; entries go to the outbox (survey-queue.js) and from there to the server.
(function () {
  "use strict";

  var root = document.getElementById("survey");
  if (!root || !window.MaintplanSurveyQueue) return;
  var d = root.dataset;
  var canEdit = d.canEdit === "true";
  var NEXT_PAGES = 500;
  var LIST_SHOWN = 100;
  var atKey = "maintplan-survey:at:" + d.building;

  var form = document.getElementById("survey-form");
  var el = function (id) { return document.getElementById(id); };
  var components = [];
  var total = null;
  var at = -1;
  var files = [];
  var byNode = new Map(); // node id -> the device's latest entry of this round
  var waiting = 0;

  var queue = new window.MaintplanSurveyQueue({
    entryUrl: d.entryUrl,
    photoUrl: d.photoUrl,
    user: d.user,
    csrf: d.csrf,
    onChange: function () { refresh(); },
  });

  function words(set, value) {
    var input = form.querySelector("input[name=" + set + "][value='" + value + "']");
    return input ? input.dataset.word : "";
  }

  function describe(grade, consequence) {
    if (grade === null || grade === undefined) return "not graded yet";
    var text = "condition " + grade + " " + words("grade", grade);
    if (consequence !== null && consequence !== undefined) {
      text += ", consequence " + consequence + " " + words("consequence", consequence);
      text += ", risk " + grade * consequence;
    }
    return text;
  }

  function checked(name) {
    var input = form.querySelector("input[name=" + name + "]:checked");
    return input ? Number(input.value) : null;
  }

  function setChecked(name, value) {
    form.querySelectorAll("input[name=" + name + "]").forEach(function (input) {
      input.checked = value !== null && value !== undefined && Number(input.value) === value;
    });
  }

  function showRisk() {
    var grade = checked("grade");
    var consequence = checked("consequence");
    el("survey-risk").textContent =
      grade === null || consequence === null
        ? "choose a condition and a consequence"
        : grade * consequence + " of 9 (" + grade + " \u00d7 " + consequence + ")";
  }

  function megabytes(size) {
    return (size / 1048576).toFixed(1) + " MB";
  }

  function showFiles() {
    var list = el("survey-photos");
    list.textContent = "";
    var saved = at >= 0 && byNode.get(components[at].id);
    files.forEach(function (file, index) {
      var item = document.createElement("li");
      item.textContent = (file.name || "Photo") + " (" + megabytes(file.size) + ") ";
      var remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", "Remove " + (file.name || "photo " + (index + 1)));
      remove.addEventListener("click", function () {
        files.splice(index, 1);
        showFiles();
      });
      item.appendChild(remove);
      list.appendChild(item);
    });
    el("survey-photos-saved").textContent =
      saved && saved.photoTotal ? saved.photoTotal + " photo(s) already saved with this entry." : "";
  }

  function error(text) {
    el("survey-error").textContent = text;
  }

  function show(index, focus) {
    if (index < 0 || index >= components.length) return;
    at = index;
    var component = components[index];
    var entry = byNode.get(component.id);
    form.hidden = false;
    el("survey-place").textContent = component.place || "";
    el("survey-name").textContent = component.name;
    el("survey-code").textContent = component.code ? "Code " + component.code : "";
    el("survey-last").textContent =
      component.grade === null || component.grade === undefined
        ? "Not graded yet."
        : "Now: " + describe(component.grade, component.consequence) +
          (component.assessed_on ? " (assessed " + component.assessed_on + ")." : ".");
    setChecked("grade", entry ? entry.grade : null);
    setChecked("consequence", entry ? entry.consequence : null);
    el("survey-note").value = entry ? entry.note : "";
    files = [];
    showFiles();
    showRisk();
    error("");
    el("survey-position").textContent =
      "Component " + (index + 1) + " of " + (total === null ? components.length : total);
    el("survey-prev").disabled = index === 0;
    try { localStorage.setItem(atKey, component.id); } catch (e) { /* private mode */ }
    if (focus) el("survey-name").focus();
  }

  function today() {
    var now = new Date();
    var pad = function (n) { return String(n).padStart(2, "0"); };
    return now.getFullYear() + "-" + pad(now.getMonth() + 1) + "-" + pad(now.getDate());
  }

  async function save() {
    var component = components[at];
    var grade = checked("grade");
    var consequence = checked("consequence");
    var note = el("survey-note").value.trim();
    var prior = byNode.get(component.id);
    var touched = grade !== null || consequence !== null || note !== "" || files.length > 0;
    if (!canEdit || !touched) return true;
    if (prior && prior.grade === grade && prior.consequence === consequence && prior.note === note) {
      if (files.length) await queue.addPhotos(prior, files);
      return true;
    }
    if (grade === null || consequence === null) {
      error("Choose a condition and a consequence, or clear the note and photos to skip it.");
      return false;
    }
    await queue.add(
      {
        key: crypto.randomUUID(),
        plan: d.plan,
        building: d.building,
        user: d.user,
        node: component.id,
        grade: grade,
        consequence: consequence,
        note: note,
        assessedOn: today(),
        madeAt: new Date().toISOString(),
        state: "waiting",
      },
      files
    );
    return true;
  }

  var refreshes = 0;

  async function refresh() {
    var mine = ++refreshes;
    var entries = await queue.entries(d.building);
    var photos = await queue.photoCounts();
    if (mine !== refreshes) return; // a later refresh read newer state
    byNode = new Map();
    waiting = 0;
    var refused = [];
    entries
      .filter(function (entry) { return entry.user === d.user; })
      .sort(function (a, b) { return a.madeAt < b.madeAt ? -1 : 1; })
      .forEach(function (entry) {
        byNode.set(entry.node, entry);
        if (entry.state === "waiting") waiting += 1;
        waiting += photos.get(entry.key) || 0;
        if (entry.message) refused.push(entry);
      });
    var graded = 0;
    byNode.forEach(function (entry) { if (entry.state !== "refused") graded += 1; });
    if (total !== null) {
      el("survey-progress").textContent = graded + " of " + total + " graded in this survey";
      var bar = el("survey-bar");
      bar.max = Math.max(total, 1);
      bar.value = graded;
    }
    var status = el("survey-status");
    if (waiting === 0) {
      status.textContent = "All saved";
      status.className = "survey-status saved";
    } else {
      status.textContent =
        (navigator.onLine ? "" : "Offline: ") + "waiting to send (" + waiting + ")" +
        (queue.problem ? ". " + queue.problem : "");
      status.className = "survey-status waiting";
    }
    var problems = el("survey-refused");
    problems.textContent = "";
    refused.forEach(function (entry) {
      var item = document.createElement("li");
      var component = components.find(function (c) { return c.id === entry.node; });
      item.textContent = (component ? component.name : "A component") + ": " + entry.message;
      problems.appendChild(item);
    });
    problems.hidden = refused.length === 0;
    if (!el("survey-jump").hidden && el("survey-jump").open) showList();
  }

  function showList() {
    var list = el("survey-list");
    var typed = el("survey-find").value.toLowerCase().split(/\s+/).filter(Boolean);
    list.textContent = "";
    var shown = 0;
    var matched = 0;
    components.forEach(function (component, index) {
      var text = (component.name + " " + component.place + " " + component.code).toLowerCase();
      if (!typed.every(function (word) { return text.indexOf(word) >= 0; })) return;
      matched += 1;
      if (shown >= LIST_SHOWN) return;
      shown += 1;
      var entry = byNode.get(component.id);
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "survey-jump-to";
      button.textContent = component.name;
      var note = document.createElement("small");
      note.textContent =
        (component.place ? component.place + " \u00b7 " : "") +
        (entry ? (entry.state === "waiting" ? "waiting to send" : entry.state === "sent" ? "graded" : "refused") : "to do");
      button.appendChild(document.createElement("br"));
      button.appendChild(note);
      if (index === at) button.setAttribute("aria-current", "true");
      button.addEventListener("click", function () {
        el("survey-jump").open = false;
        show(index, true);
      });
      item.appendChild(button);
      list.appendChild(item);
    });
    el("survey-list-more").textContent =
      matched > shown ? "And " + (matched - shown) + " more: type a word of the name to find one." : matched ? "" : "No component matches.";
  }

  async function fetchPage(offset) {
    var response = await fetch(d.componentsUrl + "?offset=" + offset + "&limit=" + NEXT_PAGES, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    if (!response.ok) throw new Error("components " + response.status);
    return response.json();
  }

  function take(page, wanted) {
    page.rows.forEach(function (row) {
      var component = {};
      page.fields.forEach(function (name, i) { component[name] = row[i]; });
      components.push(component);
    });
    total = page.total;
    if (at < 0) {
      var found = wanted ? components.findIndex(function (c) { return c.id === wanted; }) : -1;
      if (found >= 0) show(found, false);
      else if (page.next === null || !wanted) show(0, false);
    }
    el("survey-jump").hidden = components.length === 0;
    refresh();
  }

  // The first page comes with the page itself; the others are asked for all at once, so the
  // whole list takes one round trip more, not one per page.
  async function loadComponents() {
    var wanted = null;
    try { wanted = localStorage.getItem(atKey); } catch (e) { /* private mode */ }
    var embedded = document.getElementById("survey-first-page");
    var first = embedded ? JSON.parse(embedded.textContent) : await fetchPage(0);
    take(first, wanted);
    var requests = [];
    for (var offset = first.next; offset !== null && offset < first.total; offset += NEXT_PAGES) {
      var request = fetchPage(offset);
      request.catch(function () { /* reported when its turn comes */ });
      requests.push(request);
    }
    for (var i = 0; i < requests.length; i++) {
      var page = await requests[i];
      take(page, wanted);
    }
    if (components.length === 0) {
      el("survey-progress").textContent = "This building has no components to survey.";
    }
  }

  form.addEventListener("change", function (event) {
    if (event.target.name === "grade" || event.target.name === "consequence") showRisk();
    if (event.target.id === "survey-photo") {
      files = files.concat(Array.prototype.slice.call(event.target.files));
      event.target.value = "";
      showFiles();
    }
  });

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    if (at < 0) return;
    var button = el("survey-next");
    button.disabled = true;
    try {
      try {
        if (!(await save())) return;
      } catch (failure) {
        error("This browser could not keep the entry on the device (" + failure + "): nothing was saved.");
        return;
      }
      queue.flush();
      if (at + 1 < components.length) show(at + 1, true);
      else {
        files = [];
        showFiles();
        error("");
        el("survey-position").textContent = "That was the last component of this building.";
      }
    } finally {
      button.disabled = false;
    }
  });

  el("survey-prev").addEventListener("click", function () { show(at - 1, true); });
  el("survey-jump").addEventListener("toggle", function () { if (el("survey-jump").open) showList(); });
  el("survey-find").addEventListener("input", showList);
  var restart = el("survey-restart");
  if (restart) {
    restart.addEventListener("click", async function () {
      if (!window.confirm("Start a new survey of this building? What waits to be sent stays.")) return;
      await queue.forgetSent(d.building);
      if (at >= 0) show(at, true);
    });
  }

  if (!canEdit) {
    form.querySelectorAll("input, textarea").forEach(function (input) { input.disabled = true; });
  }
  window.addEventListener("online", function () { queue.flush(); });
  window.addEventListener("offline", function () { refresh(); });
  window.setInterval(function () { if (waiting > 0 && navigator.onLine) queue.flush(); }, 15000);

  if ("serviceWorker" in navigator && d.workerUrl) {
    navigator.serviceWorker.register(d.workerUrl, { scope: d.workerScope }).catch(function () {
      /* no offline copy of the page: the outbox still works while the page stays open */
    });
  }

  refresh();
  queue.flush();
  loadComponents().catch(function () {
    el("survey-progress").textContent =
      "The components could not be loaded. Check the connection and reload the page.";
  });
})();
