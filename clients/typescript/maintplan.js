// The TypeScript/JavaScript client of Maintplan's integrator API (clients/typescript/README.md):
// a small fetch wrapper over the types openapi-typescript generates from the schema
// (schema.d.ts): pages, conditional polls, the acts with idempotency keys, event replay and
// webhook verification. Plain ES module JavaScript typed with JSDoc (checked by
// `tsc --strict --checkJs`); maintplan.d.ts is emitted from it by `make clients`. Web APIs only
// (fetch, Web Crypto): Node.js 20 and later, Deno, browsers, workers.

/** @typedef {import("./schema.js").components["schemas"]} Schemas */
/** @typedef {Schemas["Suggestion"]} Suggestion */
/** @typedef {Schemas["SuggestionWithStatus"]} SuggestionWithStatus */
/** @typedef {Schemas["Event"]} Event */
/** @typedef {Schemas["PortfolioPlan"]} PortfolioPlan */
/** @typedef {Schemas["PortfolioPage"]} PortfolioPage */
/** @typedef {Schemas["ReasonEnum"]} DismissReason */
/** @typedef {Record<string, string | number | null | undefined>} Params */
/** @typedef {Record<string, any>} PageData the `data` of one page of a list */

/**
 * @typedef {object} ActResult
 * @property {SuggestionWithStatus} suggestion the suggestion as the act left it
 * @property {string} idempotencyKey the key the act was sent with
 * @property {boolean} replayed the answer repeats an earlier request's with that key
 */

const API_PREFIX = "/api/v1";
const SECRET_PREFIX = "whsec_";
const DEFAULT_TOLERANCE = 300;

/** An error answer: `status`, the envelope's `messageKey`, `data` and `traceId`. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} messageKey
   * @param {string} message
   * @param {unknown} data
   * @param {string | null} traceId
   */
  constructor(status, messageKey, message, data, traceId) {
    super(`${status} ${messageKey}: ${message}`);
    this.name = "ApiError";
    this.status = status;
    this.messageKey = messageKey;
    this.data = data;
    this.traceId = traceId;
  }
}

/** An act whose answer never came: send it again with `idempotencyKey`, it is done once. */
export class ActFailed extends Error {
  /**
   * @param {string} idempotencyKey
   * @param {unknown} cause
   */
  constructor(idempotencyKey, cause) {
    super(`no answer; retry with idempotencyKey ${idempotencyKey}`, { cause });
    this.name = "ActFailed";
    this.idempotencyKey = idempotencyKey;
  }
}

/** The delivery is not signed with this secret, or its timestamp is out of tolerance. */
export class WebhookVerificationError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

/** @returns {string} a fresh idempotency key (a UUID) */
export function newIdempotencyKey() {
  return globalThis.crypto.randomUUID();
}

/**
 * The parameters that are set, as a query string in a stable order ("" for none).
 * @param {Params | undefined} params
 * @returns {string}
 */
function queryString(params) {
  const entries = Object.entries(params ?? {})
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([name, value]) => [name, String(value)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length ? "?" + new URLSearchParams(entries).toString() : "";
}

/**
 * @param {Response} response
 * @returns {Promise<ApiError>}
 */
async function apiError(response) {
  const text = await response.text();
  try {
    const envelope = JSON.parse(text);
    return new ApiError(
      response.status,
      String(envelope.messageKey ?? ""),
      String(envelope.message ?? ""),
      envelope.data ?? null,
      envelope.traceId ?? null,
    );
  } catch {
    return new ApiError(response.status, "http.error", text.slice(0, 200), null, null);
  }
}

export class Client {
  /**
   * A client of one Maintplan server with one API key:
   * `new Client("https://maintplan.example", apiKey)`.
   * @param {string} baseUrl
   * @param {string} apiKey
   * @param {{ fetch?: typeof fetch }} [options] another fetch (a test double, a proxy agent)
   */
  constructor(baseUrl, apiKey, options = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "") + API_PREFIX;
    this.apiKey = apiKey;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    /** @type {Map<string, string>} the last ETag of each polled URL */
    this.etags = new Map();
  }

  /**
   * @param {string} method
   * @param {string} url a path under /api/v1, with its query
   * @param {Record<string, string>} [headers]
   * @param {unknown} [body]
   * @returns {Promise<Response>}
   */
  request(method, url, headers = {}, body = undefined) {
    /** @type {Record<string, string>} */
    const all = { Authorization: `Bearer ${this.apiKey}`, Accept: "application/json", ...headers };
    if (body !== undefined) all["Content-Type"] = "application/json";
    return this.fetch(this.baseUrl + url, {
      method,
      headers: all,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /**
   * The `data` of a GET of `path` (under /api/v1, e.g. "/platform/plans/1").
   * @param {string} path
   * @param {Params} [params]
   * @returns {Promise<PageData>}
   */
  async get(path, params) {
    const response = await this.request("GET", path + queryString(params));
    if (response.status !== 200) throw await apiError(response);
    return (await response.json()).data;
  }

  /**
   * Every page (its `data`) of a list, following `next_cursor` with the same filters until it
   * is null. `params` may hold `limit` (the page size) and the list's filters.
   * @param {string} path
   * @param {Params} [params]
   * @returns {AsyncGenerator<PageData, void, undefined>}
   */
  async *pages(path, params = {}) {
    let query = { ...params };
    for (;;) {
      const page = await this.get(path, query);
      yield page;
      const cursor = page.next_cursor;
      if (cursor === null || cursor === undefined) return;
      // Replay (`after`) names the start; the cursor carries on from there.
      const { after: _after, ...rest } = query;
      query = { ...rest, cursor };
    }
  }

  /**
   * Every item of a list over all its pages: the page's list `key` (by default its only list,
   * e.g. "suggestions", "events", "entries").
   * @param {string} path
   * @param {Params} [params]
   * @param {string} [key]
   * @returns {AsyncGenerator<any, void, undefined>}
   */
  async *items(path, params = {}, key = undefined) {
    for await (const page of this.pages(path, params)) {
      const lists = key === undefined ? Object.values(page).filter(Array.isArray) : [page[key]];
      if (lists.length !== 1 || !Array.isArray(lists[0])) {
        throw new TypeError("this page has no single list: name it with key");
      }
      yield* lists[0];
    }
  }

  /**
   * A plan's open suggestions (filters: severity, suggestion_type, structure_node_id), every
   * page.
   * @param {number} plan
   * @param {Params} [filters]
   * @returns {AsyncGenerator<Suggestion, void, undefined>}
   */
  async *suggestions(plan, filters = {}) {
    yield* this.items(`/platform/plans/${plan}/suggestions`, { limit: 100, ...filters }, "suggestions");
  }

  /**
   * The events of the last 30 days the key may read, oldest first, every page; with `after`
   * (the id of the last event processed) exactly the ones after it.
   * @param {{ after?: string, plan?: number, type?: string, limit?: number }} [options]
   * @returns {AsyncGenerator<Event, void, undefined>}
   */
  async *events(options = {}) {
    yield* this.items("/platform/events", { limit: 100, ...options }, "events");
  }

  /**
   * Every plan of an organisation's portfolio (its ten-year planned cost, maintenance debt,
   * FCI, open critical suggestions, years over budget), by number, every page. `organisation`
   * (a slug) is required with a personal key; `q` keeps the plans whose name contains it.
   * Its totals: `portfolioPage`.
   * @param {{ organisation?: string, q?: string, limit?: number }} [options]
   * @returns {AsyncGenerator<PortfolioPlan, void, undefined>}
   */
  async *portfolio(options = {}) {
    yield* this.items("/platform/portfolio", { limit: 100, ...options }, "plans");
  }

  /**
   * The first page of the portfolio with its years, prices and the totals over every matching
   * plan (per currency).
   * @param {{ organisation?: string, q?: string, limit?: number }} [options]
   * @returns {Promise<PortfolioPage>}
   */
  async portfolioPage(options = {}) {
    return /** @type {PortfolioPage} */ (await this.get("/platform/portfolio", { limit: 100, ...options }));
  }

  /**
   * A conditional GET: the `data` when it changed since this client's last poll of the same
   * path and parameters (the first poll always), null when the server answered 304 Not
   * Modified. The ETag is kept per URL, in memory.
   * @param {string} path
   * @param {Params} [params]
   * @returns {Promise<PageData | null>}
   */
  async poll(path, params) {
    const url = path + queryString(params);
    const etag = this.etags.get(url);
    const response = await this.request("GET", url, etag ? { "If-None-Match": etag } : {});
    if (response.status === 304) return null;
    if (response.status !== 200) throw await apiError(response);
    const data = (await response.json()).data;
    const newEtag = response.headers.get("ETag");
    if (newEtag) this.etags.set(url, newEtag);
    return data;
  }

  /**
   * @param {string} path
   * @param {unknown} body
   * @param {string} idempotencyKey
   * @returns {Promise<ActResult>}
   */
  async act(path, body, idempotencyKey) {
    let response;
    try {
      response = await this.request("POST", path, { "Idempotency-Key": idempotencyKey }, body);
    } catch (error) {
      throw new ActFailed(idempotencyKey, error);
    }
    if (response.status !== 200) throw await apiError(response);
    /** @type {Schemas["SuggestionActEnvelope"]} */
    const envelope = await response.json();
    return {
      suggestion: envelope.data,
      idempotencyKey,
      replayed: (response.headers.get("Idempotent-Replayed") ?? "").toLowerCase() === "true",
    };
  }

  /**
   * Dismisses an open suggestion, sent with `idempotencyKey` (a new UUID when not given; the
   * result carries it): the same key again within 24 hours acts no second time.
   * @param {number} plan
   * @param {string} suggestionId
   * @param {DismissReason} reason
   * @param {string} [comment]
   * @param {string} [idempotencyKey]
   * @returns {Promise<ActResult>}
   */
  dismiss(plan, suggestionId, reason, comment = "", idempotencyKey = newIdempotencyKey()) {
    const path = `/platform/plans/${plan}/suggestions/${encodeURIComponent(suggestionId)}/dismiss`;
    return this.act(path, { reason, comment }, idempotencyKey);
  }

  /**
   * Puts a dismissed suggestion back to open; idempotent like `dismiss`.
   * @param {number} plan
   * @param {string} suggestionId
   * @param {string} [idempotencyKey]
   * @returns {Promise<ActResult>}
   */
  restore(plan, suggestionId, idempotencyKey = newIdempotencyKey()) {
    const path = `/platform/plans/${plan}/suggestions/${encodeURIComponent(suggestionId)}/restore`;
    return this.act(path, {}, idempotencyKey);
  }
}

const encoder = new TextEncoder();

/**
 * @param {Uint8Array<ArrayBuffer>} key
 * @param {Uint8Array<ArrayBuffer>} signed
 * @param {Uint8Array<ArrayBuffer>} signature
 * @returns {Promise<boolean>} whether `signature` is the HMAC-SHA256 of `signed` (in constant time)
 */
async function hmacValid(key, signed, signature) {
  const cryptoKey = await globalThis.crypto.subtle.importKey(
    "raw",
    key,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  return globalThis.crypto.subtle.verify("HMAC", cryptoKey, signature, signed);
}

/**
 * @param {string} value
 * @param {number} tolerance
 * @param {number} now
 * @returns {number}
 */
function timestamp(value, tolerance, now) {
  if (!/^\d+$/.test(value)) throw new WebhookVerificationError("the timestamp is not a number");
  const seconds = Number(value);
  if (Math.abs(now - seconds) > tolerance) {
    throw new WebhookVerificationError("the timestamp is too far from now");
  }
  return seconds;
}

/**
 * @param {string} text
 * @returns {Uint8Array<ArrayBuffer> | null}
 */
function base64Bytes(text) {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/**
 * @param {string} text
 * @returns {Uint8Array<ArrayBuffer> | null}
 */
function hexBytes(text) {
  if (!/^([0-9a-f]{2})+$/.test(text)) return null;
  return Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 * @returns {Uint8Array<ArrayBuffer>}
 */
function concat(a, b) {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/**
 * The event (parsed JSON) if `headers` sign `body` (the raw body exactly as received: bytes,
 * or the text decoded from them) with `secret` (`whsec_...`, as shown when the endpoint was
 * made): the Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) when
 * present, else Maintplan-Signature. Both refuse a timestamp more than `tolerance` seconds away
 * from now. Rejects with WebhookVerificationError otherwise.
 * @param {string} secret
 * @param {Uint8Array | string} body
 * @param {Headers | Record<string, string | string[] | undefined>} headers a fetch Headers, or
 *   an object such as node's `request.headers`
 * @param {{ tolerance?: number, now?: number }} [options] `now` in unix seconds
 * @returns {Promise<Record<string, any>>}
 */
export async function verify(secret, body, headers, options = {}) {
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  const now = options.now ?? Date.now() / 1000;
  /** @type {Map<string, string>} */
  const lowered = new Map();
  const entries =
    typeof Headers !== "undefined" && headers instanceof Headers
      ? [...headers.entries()]
      : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value !== undefined) lowered.set(name.toLowerCase(), Array.isArray(value) ? value.join(" ") : value);
  }
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  const standard = lowered.get("webhook-signature");
  const own = lowered.get("maintplan-signature");
  if (standard !== undefined) {
    const id = lowered.get("webhook-id");
    const sent = lowered.get("webhook-timestamp");
    if (id === undefined || sent === undefined) {
      throw new WebhookVerificationError("no webhook-id or webhook-timestamp header");
    }
    const seconds = timestamp(sent, tolerance, now);
    const key = base64Bytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
    if (key === null) throw new WebhookVerificationError("the secret is not a webhook secret");
    const signed = concat(encoder.encode(`${id}.${seconds}.`), bytes);
    // The header may list several signatures ("v1,<a> v1,<b>"), e.g. while a secret rolls.
    let valid = false;
    for (const candidate of standard.split(" ")) {
      const [version, signature] = candidate.split(",", 2);
      const digest = version === "v1" && signature ? base64Bytes(signature) : null;
      if (digest !== null && (await hmacValid(key, signed, digest))) valid = true;
    }
    if (!valid) throw new WebhookVerificationError("no matching signature");
  } else if (own !== undefined) {
    const fields = new Map(
      own
        .split(",")
        .filter((part) => part.includes("="))
        .map((part) => /** @type {[string, string]} */ ([part.slice(0, part.indexOf("=")), part.slice(part.indexOf("=") + 1)])),
    );
    const sent = fields.get("t");
    if (sent === undefined) throw new WebhookVerificationError("no timestamp in Maintplan-Signature");
    const seconds = timestamp(sent, tolerance, now);
    const digest = hexBytes(fields.get("v1") ?? "");
    const signed = concat(encoder.encode(`${seconds}.`), bytes);
    if (digest === null || !(await hmacValid(encoder.encode(secret), signed, digest))) {
      throw new WebhookVerificationError("no matching signature");
    }
  } else {
    throw new WebhookVerificationError("no signature header");
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new WebhookVerificationError("the body is not JSON");
  }
}
