// Survey mode's outbox (docs/subsystems/survey-mode.md "Offline"): every entry and photo is
// written to IndexedDB first and sent from there, so nothing typed is lost when the connection
// drops or the page closes. Each entry carries a key made on the device (crypto.randomUUID);
// the server records an entry once per key and answers a replay with the same result, so an
// entry sent twice (a lost answer, two tabs) is still one survey.
(function () {
  "use strict";

  var DB_NAME = "maintplan-survey";
  var DB_VERSION = 1;

  function request(req) {
    return new Promise(function (resolve, reject) {
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }

  function openDatabase() {
    var req = indexedDB.open(DB_NAME, DB_VERSION);
    req.onupgradeneeded = function () {
      var db = req.result;
      var entries = db.createObjectStore("entries", { keyPath: "key" });
      entries.createIndex("building", "building");
      var photos = db.createObjectStore("photos", { keyPath: "key" });
      photos.createIndex("entry", "entry");
    };
    return request(req);
  }

  function csrfToken(fallback) {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : fallback;
  }

  // What an answer means for the item sent: "done", "refused" (the server said no and will
  // say no again: kept with its message, never retried) or "later" (no connection, a server
  // error, a login page: retried).
  async function outcome(response) {
    var type = response.headers.get("Content-Type") || "";
    if (response.redirected || type.indexOf("application/json") !== 0) {
      return { state: "later", message: "Sign in again to send what waits." };
    }
    var body = await response.json();
    if (response.ok) return { state: "done", body: body };
    if (response.status >= 500 || response.status === 429 || response.status === 401) {
      return { state: "later", message: body.message || "The server could not take it now." };
    }
    return { state: "refused", message: body.message || "Refused.", body: body };
  }

  function Queue(options) {
    this.options = options; // entryUrl, photoUrl, user, csrf, onChange
    this.sending = false;
    this.ready = openDatabase();
  }

  Queue.prototype.store = async function (names, mode) {
    var db = await this.ready;
    return db.transaction(names, mode);
  };

  Queue.prototype.entries = async function (building) {
    var tx = await this.store(["entries"], "readonly");
    return request(tx.objectStore("entries").index("building").getAll(building));
  };

  // How many photos wait per entry key, read from the photos themselves (never from a count
  // kept on the entry, which a send and a new photo could both be writing).
  Queue.prototype.photoCounts = async function () {
    var tx = await this.store(["photos"], "readonly");
    var cursor = tx.objectStore("photos").index("entry").openKeyCursor();
    var counts = new Map();
    return new Promise(function (resolve, reject) {
      cursor.onsuccess = function () {
        var at = cursor.result;
        if (!at) return resolve(counts);
        counts.set(at.key, (counts.get(at.key) || 0) + 1);
        at.continue();
      };
      cursor.onerror = function () { reject(cursor.error); };
    });
  };

  // Saves an entry and its photos in one transaction: both or neither.
  Queue.prototype.add = async function (entry, files) {
    entry.photoTotal = 0;
    return this.addPhotos(entry, files);
  };

  // Adds photos to an entry (waiting or sent: a sent entry's photos are sent on their own).
  Queue.prototype.addPhotos = async function (entry, files) {
    var tx = await this.store(["entries", "photos"], "readwrite");
    entry.photoTotal = (entry.photoTotal || 0) + files.length;
    tx.objectStore("entries").put(entry);
    files.forEach(function (file) {
      tx.objectStore("photos").put({
        key: crypto.randomUUID(),
        entry: entry.key,
        blob: file,
        name: file.name || "photo.jpg",
      });
    });
    await new Promise(function (resolve, reject) {
      tx.oncomplete = resolve;
      tx.onerror = function () { reject(tx.error); };
      tx.onabort = function () { reject(tx.error); };
    });
    this.changed();
  };

  Queue.prototype.put = async function (storeName, value) {
    var tx = await this.store([storeName], "readwrite");
    await request(tx.objectStore(storeName).put(value));
  };

  Queue.prototype.remove = async function (storeName, key) {
    var tx = await this.store([storeName], "readwrite");
    await request(tx.objectStore(storeName).delete(key));
  };

  // Forgets the sent entries of a building (a new round of the survey); waiting ones stay.
  Queue.prototype.forgetSent = async function (building) {
    var entries = await this.entries(building);
    for (var i = 0; i < entries.length; i++) {
      if (entries[i].state !== "waiting") await this.remove("entries", entries[i].key);
    }
    this.changed();
  };

  Queue.prototype.changed = function () {
    if (this.options.onChange) this.options.onChange();
  };

  Queue.prototype.post = function (url, body, headers) {
    return fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: Object.assign(
        { "X-CSRFToken": csrfToken(this.options.csrf), Accept: "application/json" },
        headers || {}
      ),
    });
  };

  Queue.prototype.sendEntry = async function (entry) {
    var payload = {
      key: entry.key,
      node: entry.node,
      grade: entry.grade,
      consequence: entry.consequence,
      note: entry.note,
      assessed_on: entry.assessedOn,
    };
    var result = await outcome(
      await this.post(this.options.entryUrl, JSON.stringify(payload), {
        "Content-Type": "application/json",
      })
    );
    if (result.state === "later") return result;
    entry.state = result.state === "done" ? "sent" : "refused";
    entry.message = result.state === "done" ? "" : result.message;
    if (result.state === "done") entry.survey = result.body.survey;
    await this.put("entries", entry);
    return result;
  };

  Queue.prototype.sendPhotos = async function (entry) {
    var tx = await this.store(["photos"], "readonly");
    var photos = await request(tx.objectStore("photos").index("entry").getAll(entry.key));
    for (var i = 0; i < photos.length; i++) {
      var form = new FormData();
      form.append("entry", entry.key);
      form.append("key", photos[i].key);
      form.append("file", photos[i].blob, photos[i].name);
      var result = await outcome(await this.post(this.options.photoUrl, form));
      if (result.state === "later") return result;
      if (result.state === "refused") {
        entry.message = "A photo was not taken: " + result.message;
        await this.put("entries", entry);
      }
      await this.remove("photos", photos[i].key);
    }
    return { state: "done" };
  };

  Queue.prototype.dropPhotos = async function (entry) {
    var tx = await this.store(["photos"], "readwrite");
    var keys = await request(tx.objectStore("photos").index("entry").getAllKeys(entry.key));
    keys.forEach(function (key) { tx.objectStore("photos").delete(key); });
  };

  // Sends every waiting entry (oldest first), then its photos; stops at the first failure
  // that may pass (no connection), to try again on the next `online` event or timer.
  Queue.prototype.flush = async function () {
    // Offline the browser would only log failed requests: the `online` event brings us back.
    if (!navigator.onLine) return;
    if (this.sending) {
      this.again = true; // saved while a send ran: one more round when it ends
      return;
    }
    this.sending = true;
    this.again = false;
    var problem = "";
    try {
      var tx = await this.store(["entries"], "readonly");
      var all = await request(tx.objectStore("entries").getAll());
      var photos = await this.photoCounts();
      var mine = all
        .filter(function (entry) { return entry.user === this.options.user; }, this)
        .sort(function (a, b) { return a.madeAt < b.madeAt ? -1 : 1; });
      for (var i = 0; i < mine.length; i++) {
        var entry = mine[i];
        var result = { state: "done" };
        if (entry.state === "waiting") result = await this.sendEntry(entry);
        if (result.state === "later") { problem = result.message; break; }
        if (entry.state === "refused" && photos.has(entry.key)) await this.dropPhotos(entry);
        if (entry.state === "sent" && photos.has(entry.key)) {
          result = await this.sendPhotos(entry);
          if (result.state === "later") { problem = result.message; break; }
        }
        this.changed();
      }
    } catch (error) {
      problem = ""; // no connection: fetch threw; the status line says "waiting"
    } finally {
      this.sending = false;
      this.problem = problem;
      this.changed();
    }
    if (this.again && !problem) this.flush();
  };

  window.MaintplanSurveyQueue = Queue;
})();
