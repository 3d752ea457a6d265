{% autoescape off %}// Survey mode's service worker (docs/subsystems/survey-mode.md "Offline"), served by
// planning.web.views.survey_mode.survey_worker. It answers only for survey pages (network first,
// the kept copy without a connection) and the assets they load (kept copy first); every other
// request of the site goes to the network untouched.
"use strict";
var VERSION = {{ version_json }};
var CACHE = "maintplan-survey-" + VERSION;
var ASSETS = {{ assets_json }};
var SURVEY = new RegExp("^" + {{ scope_json }} + "\\d+/survey/");

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) { return cache.addAll(ASSETS); }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(
        names
          .filter(function (name) { return name.indexOf("maintplan-survey-") === 0 && name !== CACHE; })
          .map(function (name) { return caches.delete(name); })
      );
    }).then(function () { return self.clients.claim(); })
  );
});

async function networkFirst(request) {
  var cache = await caches.open(CACHE);
  try {
    var response = await fetch(request);
    // Only a page as it was asked for: never a login page a redirect brought instead.
    if (response.ok && !response.redirected && response.type === "basic") {
      await cache.put(request, response.clone());
    }
    return response;
  } catch (error) {
    var kept = await cache.match(request, { ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
}

async function keptFirst(request) {
  var kept = await caches.match(request, { ignoreVary: true });
  return kept || fetch(request);
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (ASSETS.indexOf(url.pathname) >= 0) {
    event.respondWith(keptFirst(request));
  } else if (SURVEY.test(url.pathname)) {
    event.respondWith(networkFirst(request));
  }
});
{% endautoescape %}
