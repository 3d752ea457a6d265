// The TypeScript SDK against a live server, run by tests/contract/test_sdk_typescript.py with
// MAINTPLAN_URL, MAINTPLAN_API_KEY (a key that may act on plan 1), MAINTPLAN_WEBHOOK_SECRET and
// MAINTPLAN_DELIVERY (a JSON file: one real webhook delivery's body and headers). Skipped
// without them: `node --test test/` alone runs nothing against a server.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { ApiError, Client, verify, WebhookVerificationError } from "../maintplan.js";

const { MAINTPLAN_URL, MAINTPLAN_API_KEY, MAINTPLAN_WEBHOOK_SECRET, MAINTPLAN_DELIVERY } = process.env;
const skip = MAINTPLAN_URL && MAINTPLAN_API_KEY ? false : "no MAINTPLAN_URL and MAINTPLAN_API_KEY";
const SUGGESTIONS = "/platform/plans/1/suggestions";

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
  for (const signed of [standard, own]) {
    assert.deepEqual(await verify(secret, delivery.body, signed), event);
    await assert.rejects(verify(secret, delivery.body + " ", signed), WebhookVerificationError);
    await assert.rejects(verify("whsec_" + "A".repeat(32), body, signed), WebhookVerificationError);
    await assert.rejects(verify(secret, body, signed, { now: Date.now() / 1000 + 301 }), WebhookVerificationError);
  }
});
