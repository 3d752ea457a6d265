// The Copy button of a secret shown once (templates/_secret_once.html): copies the text of
// the element named by data-copy-target and always answers within a second. "Copied." when
// the clipboard takes the text; otherwise the text is selected with the hint to press Ctrl+C:
// when there is no clipboard, when it refuses, and when it neither succeeds nor fails within
// FALLBACK_MS (in a headless or unfocused page its promise can stay pending for ever).
(function () {
  "use strict";
  var FALLBACK_MS = 500;
  var HINT = "Selected: press Ctrl+C (⌘C on a Mac) to copy.";

  function selectText(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  document.querySelectorAll("[data-copy-target]").forEach(function (button) {
    var target = document.getElementById(button.getAttribute("data-copy-target"));
    var status = button.parentElement.querySelector("[data-copy-status]");
    if (!target || !status) {
      return;
    }
    button.addEventListener("click", function () {
      var text = target.textContent.trim();
      var answered = false;
      function manual() {
        if (!answered) {
          answered = true;
          selectText(target);
          status.textContent = HINT;
        }
      }
      status.textContent = "";
      if (!(navigator.clipboard && window.isSecureContext)) {
        manual();
        return;
      }
      var timer = window.setTimeout(manual, FALLBACK_MS);
      var write;
      try {
        write = Promise.resolve(navigator.clipboard.writeText(text));
      } catch (error) {
        write = Promise.reject(error);
      }
      write.then(
        function () {
          // Late or not, the clipboard now holds the text: say so.
          window.clearTimeout(timer);
          answered = true;
          status.textContent = "Copied.";
        },
        function () {
          window.clearTimeout(timer);
          manual();
        }
      );
    });
    // The button is hidden until it works: a click before this script ran would do nothing.
    button.hidden = false;
  });
})();
