// The top bar on narrow screens: the Menu button shows and hides its links. Without JavaScript
// the button stays hidden and the links are always shown.
// The organisation in view (a <details>) closes on Escape or a click elsewhere, as a menu does;
// without JavaScript its summary opens and closes it.
(function () {
  "use strict";
  var organisation = document.getElementById("organisation-in-view");
  if (organisation) {
    document.addEventListener("click", function (event) {
      if (organisation.open && !organisation.contains(event.target)) {
        organisation.open = false;
      }
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && organisation.open) {
        organisation.open = false;
        organisation.querySelector("summary").focus();
      }
    });
  }
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
