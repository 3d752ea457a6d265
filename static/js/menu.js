// The compact menu of narrow screens: the Menu button shows and hides the top bar's links.
// Without JavaScript the button stays hidden and the links are always shown.
(function () {
  "use strict";
  var button = document.querySelector(".menu-toggle");
  var nav = document.getElementById("site-nav");
  if (!button || !nav) {
    return;
  }
  document.documentElement.classList.add("has-menu");
  button.hidden = false;
  button.addEventListener("click", function () {
    var open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("open", open);
  });
})();
