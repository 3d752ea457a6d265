// Progress bar of a job's page (an import, a board report): polls the progress URL once a
// second and, when the job has ended, reloads the page (which then shows the outcome).
(function () {
  "use strict";
  var section = document.querySelector("[data-progress-url]");
  if (!section) {
    return;
  }
  var url = section.getAttribute("data-progress-url");
  var bar = section.querySelector("progress");
  var label = section.querySelector("[aria-live]");
  function show(state) {
    bar.value = state.percent;
    bar.textContent = state.percent + "%";
    label.textContent = state.label + "…";
    section.querySelectorAll("[data-count]").forEach(function (element) {
      element.textContent = String(state[element.getAttribute("data-count")]);
    });
  }
  function poll() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (state) {
        if (state && state.finished) {
          window.location.reload();
          return;
        }
        if (state) {
          show(state);
        }
        window.setTimeout(poll, 1000);
      })
      .catch(function () {
        window.setTimeout(poll, 3000);
      });
  }
  window.setTimeout(poll, 500);
})();
