// The TypeScript SDK against a live server, run by tests/contract/test_sdk_typescript.py with
// MAINTPLAN_URL, MAINTPLAN_API_KEY (a key that may act on plan 1), MAINTPLAN_WEBHOOK_SECRET and
// MAINTPLAN_DELIVERY (a JSON file: one real webhook delivery's body and headers), and for the
// round-two tests MAINTPLAN_VERSION_ID and MAINTPLAN_CONTROL. Skipped without them: `node --test test/` alone runs nothing against a server.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { ApiError, Client, NO_RETRY, USER_AGENT, verify, WebhookVerificationError } from "../maintplan.js";

const { MAINTPLAN_URL, MAINTPLAN_API_KEY, MAINTPLAN_WEBHOOK_SECRET, MAINTPLAN_DELIVERY } = process.env;
// Set by the round-two run: the adopted version of plan 1, and the control server of the test
// process (POST /expire expires every walk, POST /throttle?rate=... sets the key's rate).
const { MAINTPLAN_VERSION_ID, MAINTPLAN_CONTROL } = process.env;
const skip = MAINTPLAN_URL && MAINTPLAN_API_KEY ? false : "no MAINTPLAN_URL and MAINTPLAN_API_KEY";
const SUGGESTIONS = "/platform/plans/1/suggestions";
const roundTwo = MAINTPLAN_VERSION_ID && MAINTPLAN_CONTROL ? skip : "no MAINTPLAN_VERSION_ID and MAINTPLAN_CONTROL";

test("every page, a 304 poll, one dismissal sent twice, event replay", { skip }, async () => {
  const client = new Client(String(MAINTPLAN_URL), String(MAINTPLAN_API_KEY));

  const pages = [];
  for await (const page of client.pages(SUGGESTIONS, { limit: 2 })) pages.push(page);
  const listed = pages.flatMap((page) => page.suggestions.map((/** @type {{id: string}} */ s) => s.id));
  assert.ok(pages.length > 1, `${pages.length} page(s)`);
  assert.equal(new Set(listed).size, listed.length);
  assert.equal(listed.length, pages[0].open_count);
  const typed = [];
  for await (const suggestion of client.suggestions(1, { limit: 3 })) typed.push(suggestion.id);
  assert.deepEqual(typed, listed);

  const polled = await client.poll(SUGGESTIONS, { limit: 2 });
  assert.deepEqual(polled?.suggestions, pages[0].suggestions);
  assert.equal(await client.poll(SUGGESTIONS, { limit: 2 }), null); // 304

  const target = listed[listed.length - 1];
  const first = await client.dismiss(1, target, "accepted", "Budgeted in the 2027 roof project");
  const again = await client.dismiss(1, target, "accepted", "Budgeted in the 2027 roof project", first.idempotencyKey);
  assert.deepEqual([first.replayed, again.replayed], [false, true]);
  assert.equal(first.suggestion.status, "dismissed");
  assert.deepEqual(again.suggestion, first.suggestion);
  const open = [];
  for await (const suggestion of client.suggestions(1)) open.push(suggestion.id);
  assert.ok(!open.includes(target));
  assert.notEqual(await client.poll(SUGGESTIONS, { limit: 2 }), null); // changed
  await assert.rejects(client.dismiss(1, target, "accepted"), (error) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.messageKey, "suggestions.state_conflict");
    return true;
  });

  const events = [];
  for await (const event of client.events({ plan: 1, limit: 1 })) events.push(event);
  const dismissed = events.flatMap((event) =>
    "changes" in event.data ? event.data.changes.filter((c) => c.change === "dismissed") : [],
  );
  assert.deepEqual(dismissed.map((c) => c.suggestion.id), [target]); // one act
  const later = [];
  for await (const event of client.events({ after: events[events.length - 2].id })) later.push(event.id);
  assert.deepEqual(later, [events[events.length - 1].id]);
});

test("a real delivery verifies by either scheme; a forgery does not", { skip: MAINTPLAN_DELIVERY ? false : "no MAINTPLAN_DELIVERY" }, async () => {
  const delivery = JSON.parse(readFileSync(String(MAINTPLAN_DELIVERY), "utf8"));
  const secret = String(MAINTPLAN_WEBHOOK_SECRET);
  const body = new TextEncoder().encode(delivery.body);
  /** @type {Record<string, string>} */
  const headers = delivery.headers;
  const standard = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase().startsWith("webhook-")));
  const own = { "Maintplan-Signature": headers["Maintplan-Signature"] };

  const event = await verify(secret, body, new Headers(headers));
  assert.equal(event.id, headers["webhook-id"]);
  assert.equal(typeof event.type, "string"); // typed as the events list's Event
  for (const signed of [standard, own]) {
    assert.deepEqual(await verify(secret, delivery.body, signed), event);
    await assert.rejects(verify(secret, delivery.body + " ", signed), WebhookVerificationError);
    await assert.rejects(verify("whsec_" + "A".repeat(32), body, signed), WebhookVerificationError);
    await assert.rejects(verify(secret, body, signed, { now: Date.now() / 1000 + 301 }), WebhookVerificationError);
  }
});

/**
 * @template T
 * @param {AsyncIterable<T>} rows
 * @returns {Promise<T[]>}
 */
async function all(rows) {
  const found = [];
  for await (const row of rows) found.push(row);
  return found;
}

/** @param {string} path */
async function control(path) {
  const response = await fetch(String(MAINTPLAN_CONTROL) + path, { method: "POST" });
  assert.equal(response.status, 204);
}

test("a typed walk of every list, each row once", { skip: roundTwo }, async () => {
  const client = new Client(String(MAINTPLAN_URL), String(MAINTPLAN_API_KEY));
  const version = String(MAINTPLAN_VERSION_ID);
  const rows = {
    plans: (await all(client.plans({ limit: 1 }))).map((p) => p.id),
    nodes: (await all(client.nodes(1, { limit: 3 }))).map((n) => n.id),
    actions: (await all(client.actions(1, { limit: 2 }))).map((a) => a.id),
    projects: (await all(client.projects(1, { limit: 1 }))).map((p) => p.name),
    history: (await all(client.history(1, { limit: 5 }))).map((h) => h.id),
    versions: (await all(client.versions(1, { limit: 1 }))).map((v) => v.name),
    versionActions: (await all(client.versionActions(1, version, { limit: 2 }))).map((a) => a.action_id),
    suggestions: (await all(client.suggestions(1, { limit: 2 }))).map((s) => s.id),
    events: (await all(client.events({ plan: 1, limit: 1 }))).map((e) => e.id),
  };
  for (const [name, ids] of Object.entries(rows)) {
    assert.ok(ids.length > 0, `${name} is empty`);
    assert.equal(new Set(ids).size, ids.length, `${name} has a row twice`);
  }
  assert.equal(rows.plans.length, 1);
  assert.equal(rows.nodes.length, 12);
  assert.deepEqual([rows.actions.length, rows.versionActions.length], [5, 5]);
  assert.deepEqual(rows.projects, ["Roof 2030"]);
  assert.deepEqual(rows.versions, ["Adopted by the board"]);
  assert.equal(rows.suggestions.length, (await client.get(SUGGESTIONS)).suggestions.length);
  const polled = await client.poll("/platform/plans/1/nodes", { limit: 2 }, { keepLast: true });
  assert.deepEqual(await client.poll("/platform/plans/1/nodes", { limit: 2 }, { keepLast: true }), polled);
  assert.equal(await client.poll("/platform/plans/1/nodes", { limit: 2 }), null);
});

test("a walk whose cursor expired starts again, no row twice", { skip: roundTwo }, async () => {
  /** @type {number[]} */
  const statuses = [];
  const client = new Client(String(MAINTPLAN_URL), String(MAINTPLAN_API_KEY), {
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      statuses.push(response.status);
      return response;
    },
  });
  const every = (await all(client.suggestions(1))).map((s) => s.id);
  const walked = [];
  for await (const suggestion of client.suggestions(1, { limit: 2 })) {
    walked.push(suggestion.id);
    if (walked.length === 1) await control("/expire"); // page 2's cursor now answers 410
  }
  assert.deepEqual(walked, every);
  assert.ok(statuses.includes(410), String(statuses));
});

test("a 429 is retried after its Retry-After; ApiError keeps the headers", { skip: roundTwo }, async () => {
  /** @type {number[]} */
  const waits = [];
  const client = new Client(String(MAINTPLAN_URL), String(MAINTPLAN_API_KEY), {
    sleep: (seconds) => {
      waits.push(seconds);
      return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    },
  });
  const once = new Client(String(MAINTPLAN_URL), String(MAINTPLAN_API_KEY), { retry: NO_RETRY });
  await control("/throttle?rate=2/s");
  try {
    await client.get("/platform/plans/1");
    await client.get("/platform/plans/1");
    const error = await once.get("/platform/plans/1").then(
      () => assert.fail("not refused"),
      (/** @type {unknown} */ refused) => refused,
    );
    assert.ok(error instanceof ApiError);
    assert.deepEqual([error.status, error.messageKey], [429, "throttle.rate_limited"]);
    assert.ok(error.retryAfter !== null && error.retryAfter >= 1 && error.retryAfter <= 2, String(error.retryAfter));
    assert.equal(error.headers.get("Retry-After"), String(error.retryAfter));
    assert.ok(error.traceId);
    assert.equal((await client.get("/platform/plans/1")).number, 1); // waited, then 200
    assert.equal(waits.length, 1);
    assert.ok(waits[0] >= 1);
  } finally {
    await control("/throttle?rate=600/minute");
  }
  assert.equal(USER_AGENT, "maintplan-typescript/1.1.0");
});
