// The TypeScript/JavaScript client of Maintplan's integrator API (clients/typescript/README.md):
// a small fetch wrapper over the types openapi-typescript generates from the schema
// (schema.d.ts): retries with backoff, typed walks of every list, conditional polls, the acts
// with idempotency keys, event replay and webhook verification. Plain ES module JavaScript typed with JSDoc (checked by
// `tsc --strict --checkJs`); maintplan.d.ts is emitted from it by `make clients`. Web APIs only
// (fetch, Web Crypto): Node.js 20 and later, Deno, browsers, workers.

/** @typedef {import("./schema.js").components["schemas"]} Schemas */
/** @typedef {Schemas["Suggestion"]} Suggestion */
/** @typedef {Schemas["SuggestionWithStatus"]} SuggestionWithStatus */
/** @typedef {Schemas["Event"]} Event */
/** @typedef {Schemas["PlanItem"]} PlanItem */
/** @typedef {Schemas["Node"]} Node */
/** @typedef {Schemas["Action"]} Action */
/** @typedef {Schemas["Project"]} Project */
/** @typedef {Schemas["HistoryEntry"]} HistoryEntry */
/** @typedef {Schemas["Version"]} Version */
/** @typedef {Schemas["VersionAction"]} VersionAction */
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

/**
 * What is sent again and how long to wait first: 429, 503 and network errors, at most
 * `maxAttempts` sends in all (1: never again). The wait is the answer's Retry-After when it has
 * one (past `maxRetryAfter` seconds the error is thrown at once, with its `retryAfter`), else
 * `base` x 2^(attempt-1) seconds capped at `cap`, with jitter (half to all of it).
 * @typedef {object} RetryPolicy
 * @property {number} [maxAttempts] 4
 * @property {number} [base] 0.5 (seconds)
 * @property {number} [cap] 20 (seconds)
 * @property {number} [maxRetryAfter] 60 (seconds)
 */

/**
 * Per-request options: a timeout (seconds, each send) and extra headers.
 * @typedef {object} RequestOptions
 * @property {number} [timeout]
 * @property {Record<string, string>} [headers]
 */

/**
 * One list of the API: its path (with `{plan}`, `{version}`), the page's list `key` and the
 * field that identifies a row (what a restarted walk skips). `T` is the row's type.
 * @template T
 * @typedef {object} ListSpec
 * @property {string} path
 * @property {string} key
 * @property {string} idField
 * @property {T} [row] never set: carries the row type
 */

export const VERSION = "1.1.0";
export const USER_AGENT = `maintplan-typescript/${VERSION}`;
const API_PREFIX = "/api/v1";
const SECRET_PREFIX = "whsec_";
const DEFAULT_TOLERANCE = 300;
const CURSOR_EXPIRED = "pagination.cursor_expired";
const MAX_RESTARTS = 3;
/** @type {Required<RetryPolicy>} */
const DEFAULT_RETRY = { maxAttempts: 4, base: 0.5, cap: 20, maxRetryAfter: 60 };
/** @type {RetryPolicy} */
export const NO_RETRY = { maxAttempts: 1 };

/**
 * @template T
 * @param {string} path
 * @param {string} key
 * @param {string} [idField]
 * @returns {ListSpec<T>}
 */
function list(path, key, idField = "id") {
  return { path, key, idField };
}

// Every list of the schema; a new list is one line here (and a one-line method of Client).
/** @type {ListSpec<PlanItem>} */
export const PLANS = list("/platform/plans", "plans");
/** @type {ListSpec<Node>} */
export const NODES = list("/platform/plans/{plan}/nodes", "nodes");
/** @type {ListSpec<Action>} */
export const ACTIONS = list("/platform/plans/{plan}/actions", "actions");
/** @type {ListSpec<Project>} */
export const PROJECTS = list("/platform/plans/{plan}/projects", "projects");
/** @type {ListSpec<HistoryEntry>} */
export const HISTORY = list("/platform/plans/{plan}/history", "entries");
/** @type {ListSpec<Version>} */
export const VERSIONS = list("/platform/plans/{plan}/versions", "versions");
/** @type {ListSpec<VersionAction>} */
export const VERSION_ACTIONS = list("/platform/plans/{plan}/versions/{version}/actions", "actions", "action_id");
/** @type {ListSpec<Suggestion>} */
export const SUGGESTIONS = list("/platform/plans/{plan}/suggestions", "suggestions");
/** @type {ListSpec<Event>} */
export const EVENTS = list("/platform/events", "events");
// An organisation's portfolio (a personal key names the organisation): plans by number.
/** @type {ListSpec<PortfolioPlan>} */
export const PORTFOLIO = list("/platform/portfolio", "plans", "number");

/**
 * Retry-After in seconds (delta-seconds or an HTTP date), null when absent or unreadable.
 * @param {Headers} headers
 * @returns {number | null}
 */
function retryAfterSeconds(headers) {
  const value = headers.get("Retry-After")?.trim();
  if (value === undefined || value === "") return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, (at - Date.now()) / 1000);
}

/**
 * An error answer: `status`, the envelope's `messageKey`, `message`, `data` and `traceId`, the
 * answer's `headers` and `retryAfter` (seconds from its Retry-After header, or null).
 */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} messageKey
   * @param {string} message
   * @param {unknown} data
   * @param {string | null} traceId
   * @param {Headers} [headers]
   */
  constructor(status, messageKey, message, data, traceId, headers = new Headers()) {
    super(`${status} ${messageKey}: ${message}`);
    this.name = "ApiError";
    this.status = status;
    this.messageKey = messageKey;
    this.data = data;
    this.traceId = traceId;
    this.headers = headers;
    this.retryAfter = retryAfterSeconds(headers);
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
      response.headers,
    );
  } catch {
    return new ApiError(response.status, "http.error", text.slice(0, 200), null, null, response.headers);
  }
}

/** @param {number} seconds */
const delay = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

export class Client {
  /**
   * A client of one Maintplan server with one API key:
   * `new Client("https://maintplan.example", apiKey)`.
   * @param {string} baseUrl
   * @param {string} apiKey
   * @param {{ fetch?: typeof fetch, retry?: RetryPolicy, timeout?: number, headers?: Record<string, string>, sleep?: (seconds: number) => Promise<unknown> }} [options]
   *   another fetch (a test double, a proxy agent), the retry policy, each request's default
   *   timeout (seconds, 30) and headers, and the wait between retries (a test may count them)
   */
  constructor(baseUrl, apiKey, options = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "") + API_PREFIX;
    this.apiKey = apiKey;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.retry = { ...DEFAULT_RETRY, ...(options.retry ?? {}) };
    this.timeout = options.timeout ?? 30;
    this.headers = options.headers ?? {};
    this.sleep = options.sleep ?? delay;
    /** @type {Map<string, {etag: string, data: PageData}>} the last ETag and data of each polled URL */
    this.etags = new Map();
  }

  /**
   * Seconds to wait before send `attempt + 1`, or null for no further send (`response` null: a
   * network error).
   * @param {number} attempt
   * @param {Response | null} response
   * @returns {number | null}
   */
  wait(attempt, response) {
    const { maxAttempts, base, cap, maxRetryAfter } = this.retry;
    if (attempt >= maxAttempts) return null;
    if (response !== null && response.status !== 429 && response.status !== 503) return null;
    const retryAfter = response === null ? null : retryAfterSeconds(response.headers);
    if (retryAfter === null) {
      const ceiling = Math.min(cap, base * 2 ** (attempt - 1));
      return ceiling / 2 + Math.random() * (ceiling / 2);
    }
    if (retryAfter > maxRetryAfter) return null;
    return retryAfter + Math.random() * Math.min(1, retryAfter / 10);
  }

  /**
   * One request, sent again as the retry policy says; the last answer.
   * @param {string} method
   * @param {string} url a path under /api/v1, with its query
   * @param {Record<string, string>} [headers]
   * @param {unknown} [body]
   * @param {RequestOptions} [options]
   * @returns {Promise<Response>}
   */
  async request(method, url, headers = {}, body = undefined, options = {}) {
    /** @type {Record<string, string>} */
    const all = {
      Authorization: `Bearer ${this.apiKey}`,
      Accept: "application/json",
      "User-Agent": USER_AGENT,
      ...this.headers,
      ...(options.headers ?? {}),
      ...headers,
    };
    if (body !== undefined) all["Content-Type"] = "application/json";
    for (let attempt = 1; ; attempt++) {
      /** @type {Response} */
      let response;
      try {
        response = await this.fetch(this.baseUrl + url, {
          method,
          headers: all,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout((options.timeout ?? this.timeout) * 1000),
        });
      } catch (error) {
        const wait = this.wait(attempt, null);
        if (wait === null) throw error;
        await this.sleep(wait);
        continue;
      }
      const wait = this.wait(attempt, response);
      if (wait === null) return response;
      await response.body?.cancel();
      await this.sleep(wait);
    }
  }

  /**
   * The `data` of a GET of `path` (under /api/v1, e.g. "/platform/plans/1").
   * @param {string} path
   * @param {Params} [params]
   * @param {RequestOptions} [options]
   * @returns {Promise<PageData>}
   */
  async get(path, params, options = {}) {
    const response = await this.request("GET", path + queryString(params), {}, undefined, options);
    if (response.status !== 200) throw await apiError(response);
    return (await response.json()).data;
  }

  /**
   * Every page (its `data`, untyped) of a list, following `next_cursor` with the same filters
   * until it is null. `params` may hold `limit` (the page size) and the list's filters.
   * @param {string} path
   * @param {Params} [params]
   * @param {RequestOptions} [options]
   * @returns {AsyncGenerator<PageData, void, undefined>}
   */
  async *pages(path, params = {}, options = {}) {
    let query = { ...params };
    for (;;) {
      const page = await this.get(path, query, options);
      yield page;
      const cursor = page.next_cursor;
      if (cursor === null || cursor === undefined) return;
      // Replay (`after`) names the start; the cursor carries on from there.
      const { after: _after, ...rest } = query;
      query = { ...rest, cursor };
    }
  }

  /**
   * Every row of the list `spec` (PLANS, NODES, ...), typed, over all its pages (`limit` 100
   * unless `params` says): a cursor that expired (410) starts the walk again, and the rows
   * already yielded (by id) are not yielded twice. `pathArgs` fills `{plan}`, `{version}`.
   * @template T
   * @param {ListSpec<T>} spec
   * @param {Params} [params]
   * @param {Record<string, string | number>} [pathArgs]
   * @param {RequestOptions} [options]
   * @returns {AsyncGenerator<T, void, undefined>}
   */
  async *walk(spec, params = {}, pathArgs = {}, options = {}) {
    const path = spec.path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(String(pathArgs[name])));
    /** @type {Params} */
    const start = { limit: 100, ...params };
    let query = { ...start };
    const seen = new Set();
    let restarts = 0;
    for (;;) {
      /** @type {PageData} */
      let page;
      try {
        page = await this.get(path, query, options);
      } catch (error) {
        const expired = error instanceof ApiError && error.status === 410 && error.messageKey === CURSOR_EXPIRED;
        if (expired && "cursor" in query && restarts < MAX_RESTARTS) {
          restarts += 1;
          query = { ...start };
          continue;
        }
        throw error;
      }
      for (const row of page[spec.key]) {
        const id = String(row[spec.idField]);
        if (seen.has(id)) continue;
        seen.add(id);
        yield row;
      }
      const cursor = page.next_cursor;
      if (cursor === null || cursor === undefined) return;
      const { after: _after, ...rest } = query;
      query = { ...rest, cursor };
    }
  }

  /**
   * Every item of a list over all its pages (untyped): the page's list `key` (by default its
   * only list).
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

  /** @param {Params} [params] */
  plans(params = {}) {
    return this.walk(PLANS, params);
  }

  /** @param {number} plan @param {Params} [filters] kind, parent_id, under, updated_since, limit */
  nodes(plan, filters = {}) {
    return this.walk(NODES, filters, { plan });
  }

  /** @param {number} plan @param {Params} [filters] kind, status, project_id, structure_node_id, year_from, year_to, updated_since, limit */
  actions(plan, filters = {}) {
    return this.walk(ACTIONS, filters, { plan });
  }

  /** @param {number} plan @param {Params} [params] updated_since, limit */
  projects(plan, params = {}) {
    return this.walk(PROJECTS, params, { plan });
  }

  /** @param {number} plan @param {Params} [filters] entity, since, limit */
  history(plan, filters = {}) {
    return this.walk(HISTORY, filters, { plan });
  }

  /** @param {number} plan @param {Params} [params] */
  versions(plan, params = {}) {
    return this.walk(VERSIONS, params, { plan });
  }

  /** @param {number} plan @param {string} version @param {Params} [params] */
  versionActions(plan, version, params = {}) {
    return this.walk(VERSION_ACTIONS, params, { plan, version });
  }

  /**
   * A plan's open suggestions (filters: severity, suggestion_type, structure_node_id, limit).
   * @param {number} plan
   * @param {Params} [filters]
   */
  suggestions(plan, filters = {}) {
    return this.walk(SUGGESTIONS, filters, { plan });
  }

  /**
   * The events of the last 30 days the key may read, oldest first; with `after` (the id of the
   * last event processed) exactly the ones after it.
   * @param {{ after?: string, plan?: number, type?: string, limit?: number }} [options]
   */
  events(options = {}) {
    return this.walk(EVENTS, options);
  }

  /**
   * Every plan of an organisation's portfolio (its ten-year planned cost, maintenance debt,
   * FCI, open critical suggestions, years over budget), by number, every page. `organisation`
   * (a slug) is required with a personal key; `q` keeps the plans whose name contains it.
   * Its totals: `portfolioPage`.
   * @param {{ organisation?: string, q?: string, limit?: number }} [options]
   */
  portfolio(options = {}) {
    return this.walk(PORTFOLIO, options);
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
   * path and parameters (the first poll always); on 304 Not Modified null, or with
   * `keepLast: true` the data of the last poll. The ETag is kept per URL, in memory.
   * @param {string} path
   * @param {Params} [params]
   * @param {RequestOptions & { keepLast?: boolean }} [options]
   * @returns {Promise<PageData | null>}
   */
  async poll(path, params, options = {}) {
    const url = path + queryString(params);
    const known = this.etags.get(url);
    const response = await this.request("GET", url, known ? { "If-None-Match": known.etag } : {}, undefined, options);
    if (response.status === 304) return options.keepLast && known ? known.data : null;
    if (response.status !== 200) throw await apiError(response);
    const data = (await response.json()).data;
    const etag = response.headers.get("ETag");
    if (etag) this.etags.set(url, { etag, data });
    return data;
  }

  /**
   * A POST with an Idempotency-Key, the same on every retry: done at most once.
   * @param {string} path
   * @param {unknown} body
   * @param {string} idempotencyKey
   * @param {RequestOptions} [options]
   * @returns {Promise<ActResult>}
   */
  async act(path, body, idempotencyKey, options = {}) {
    let response;
    try {
      response = await this.request("POST", path, { "Idempotency-Key": idempotencyKey }, body, options);
    } catch (error) {
      throw new ActFailed(idempotencyKey, error);
    }
    if (response.status !== 200 && response.status !== 201) throw await apiError(response);
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
   * @param {RequestOptions} [options]
   * @returns {Promise<ActResult>}
   */
  dismiss(plan, suggestionId, reason, comment = "", idempotencyKey = newIdempotencyKey(), options = {}) {
    const path = `/platform/plans/${plan}/suggestions/${encodeURIComponent(suggestionId)}/dismiss`;
    return this.act(path, { reason, comment }, idempotencyKey, options);
  }

  /**
   * Puts a dismissed suggestion back to open; idempotent like `dismiss`.
   * @param {number} plan
   * @param {string} suggestionId
   * @param {string} [idempotencyKey]
   * @param {RequestOptions} [options]
   * @returns {Promise<ActResult>}
   */
  restore(plan, suggestionId, idempotencyKey = newIdempotencyKey(), options = {}) {
    const path = `/platform/plans/${plan}/suggestions/${encodeURIComponent(suggestionId)}/restore`;
    return this.act(path, {}, idempotencyKey, options);
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
 * @returns {Promise<Event>} the event, typed as the events list's
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
    const fields = own
      .split(",")
      .filter((part) => part.includes("="))
      .map((part) => /** @type {[string, string]} */ ([part.slice(0, part.indexOf("=")), part.slice(part.indexOf("=") + 1)]));
    const sent = fields.find(([name]) => name === "t")?.[1];
    if (sent === undefined) throw new WebhookVerificationError("no timestamp in Maintplan-Signature");
    const seconds = timestamp(sent, tolerance, now);
    const signed = concat(encoder.encode(`${seconds}.`), bytes);
    // One `v1=` per secret while a rolled secret still signs (24 hours): any one may match.
    let matched = false;
    for (const [name, value] of fields) {
      const digest = name === "v1" ? hexBytes(value) : null;
      if (digest !== null && (await hmacValid(encoder.encode(secret), signed, digest))) {
        matched = true;
        break;
      }
    }
    if (!matched) throw new WebhookVerificationError("no matching signature");
  } else {
    throw new WebhookVerificationError("no signature header");
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new WebhookVerificationError("the body is not JSON");
  }
}
