// Copy button of the "new API key" page: copies the text of the element named by
// data-copy-target. Falls back to selecting the text when the clipboard is unavailable.
(function () {
  "use strict";
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
    if (!target) {
      return;
    }
    function say(text) {
      if (status) {
        status.textContent = text;
      }
    }
    button.addEventListener("click", function () {
      var text = target.textContent.trim();
      var manual = function () {
        selectText(target);
        say("Selected: press Ctrl+C (⌘C on a Mac) to copy.");
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () {
          say("Copied.");
        }, manual);
      } else {
        manual();
      }
    });
  });
})();
