/** @returns {string} a fresh idempotency key (a UUID) */
export function newIdempotencyKey(): string;
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
export function verify(secret: string, body: Uint8Array | string, headers: Headers | Record<string, string | string[] | undefined>, options?: {
    tolerance?: number;
    now?: number;
}): Promise<Record<string, any>>;
/** An error answer: `status`, the envelope's `messageKey`, `data` and `traceId`. */
export class ApiError extends Error {
    /**
     * @param {number} status
     * @param {string} messageKey
     * @param {string} message
     * @param {unknown} data
     * @param {string | null} traceId
     */
    constructor(status: number, messageKey: string, message: string, data: unknown, traceId: string | null);
    status: number;
    messageKey: string;
    data: unknown;
    traceId: string | null;
}
/** An act whose answer never came: send it again with `idempotencyKey`, it is done once. */
export class ActFailed extends Error {
    /**
     * @param {string} idempotencyKey
     * @param {unknown} cause
     */
    constructor(idempotencyKey: string, cause: unknown);
    idempotencyKey: string;
}
/** The delivery is not signed with this secret, or its timestamp is out of tolerance. */
export class WebhookVerificationError extends Error {
    /** @param {string} message */
    constructor(message: string);
}
export class Client {
    /**
     * A client of one Maintplan server with one API key:
     * `new Client("https://maintplan.example", apiKey)`.
     * @param {string} baseUrl
     * @param {string} apiKey
     * @param {{ fetch?: typeof fetch }} [options] another fetch (a test double, a proxy agent)
     */
    constructor(baseUrl: string, apiKey: string, options?: {
        fetch?: typeof fetch;
    });
    baseUrl: string;
    apiKey: string;
    fetch: typeof fetch;
    /** @type {Map<string, string>} the last ETag of each polled URL */
    etags: Map<string, string>;
    /**
     * @param {string} method
     * @param {string} url a path under /api/v1, with its query
     * @param {Record<string, string>} [headers]
     * @param {unknown} [body]
     * @returns {Promise<Response>}
     */
    request(method: string, url: string, headers?: Record<string, string>, body?: unknown): Promise<Response>;
    /**
     * The `data` of a GET of `path` (under /api/v1, e.g. "/platform/plans/1").
     * @param {string} path
     * @param {Params} [params]
     * @returns {Promise<PageData>}
     */
    get(path: string, params?: Params): Promise<PageData>;
    /**
     * Every page (its `data`) of a list, following `next_cursor` with the same filters until it
     * is null. `params` may hold `limit` (the page size) and the list's filters.
     * @param {string} path
     * @param {Params} [params]
     * @returns {AsyncGenerator<PageData, void, undefined>}
     */
    pages(path: string, params?: Params): AsyncGenerator<PageData, void, undefined>;
    /**
     * Every item of a list over all its pages: the page's list `key` (by default its only list,
     * e.g. "suggestions", "events", "entries").
     * @param {string} path
     * @param {Params} [params]
     * @param {string} [key]
     * @returns {AsyncGenerator<any, void, undefined>}
     */
    items(path: string, params?: Params, key?: string): AsyncGenerator<any, void, undefined>;
    /**
     * A plan's open suggestions (filters: severity, suggestion_type, structure_node_id), every
     * page.
     * @param {number} plan
     * @param {Params} [filters]
     * @returns {AsyncGenerator<Suggestion, void, undefined>}
     */
    suggestions(plan: number, filters?: Params): AsyncGenerator<Suggestion, void, undefined>;
    /**
     * The events of the last 30 days the key may read, oldest first, every page; with `after`
     * (the id of the last event processed) exactly the ones after it.
     * @param {{ after?: string, plan?: number, type?: string, limit?: number }} [options]
     * @returns {AsyncGenerator<Event, void, undefined>}
     */
    events(options?: {
        after?: string;
        plan?: number;
        type?: string;
        limit?: number;
    }): AsyncGenerator<Event, void, undefined>;
    /**
     * Every plan of an organisation's portfolio (its ten-year planned cost, maintenance debt,
     * FCI, open critical suggestions, years over budget), by number, every page. `organisation`
     * (a slug) is required with a personal key; `q` keeps the plans whose name contains it.
     * Its totals: `portfolioPage`.
     * @param {{ organisation?: string, q?: string, limit?: number }} [options]
     * @returns {AsyncGenerator<PortfolioPlan, void, undefined>}
     */
    portfolio(options?: {
        organisation?: string;
        q?: string;
        limit?: number;
    }): AsyncGenerator<PortfolioPlan, void, undefined>;
    /**
     * The first page of the portfolio with its years, prices and the totals over every matching
     * plan (per currency).
     * @param {{ organisation?: string, q?: string, limit?: number }} [options]
     * @returns {Promise<PortfolioPage>}
     */
    portfolioPage(options?: {
        organisation?: string;
        q?: string;
        limit?: number;
    }): Promise<PortfolioPage>;
    /**
     * A conditional GET: the `data` when it changed since this client's last poll of the same
     * path and parameters (the first poll always), null when the server answered 304 Not
     * Modified. The ETag is kept per URL, in memory.
     * @param {string} path
     * @param {Params} [params]
     * @returns {Promise<PageData | null>}
     */
    poll(path: string, params?: Params): Promise<PageData | null>;
    /**
     * @param {string} path
     * @param {unknown} body
     * @param {string} idempotencyKey
     * @returns {Promise<ActResult>}
     */
    act(path: string, body: unknown, idempotencyKey: string): Promise<ActResult>;
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
    dismiss(plan: number, suggestionId: string, reason: DismissReason, comment?: string, idempotencyKey?: string): Promise<ActResult>;
    /**
     * Puts a dismissed suggestion back to open; idempotent like `dismiss`.
     * @param {number} plan
     * @param {string} suggestionId
     * @param {string} [idempotencyKey]
     * @returns {Promise<ActResult>}
     */
    restore(plan: number, suggestionId: string, idempotencyKey?: string): Promise<ActResult>;
}
export type Schemas = import("./schema.js").components["schemas"];
export type Suggestion = Schemas["Suggestion"];
export type SuggestionWithStatus = Schemas["SuggestionWithStatus"];
export type Event = Schemas["Event"];
export type PortfolioPlan = Schemas["PortfolioPlan"];
export type PortfolioPage = Schemas["PortfolioPage"];
export type DismissReason = Schemas["ReasonEnum"];
export type Params = Record<string, string | number | null | undefined>;
/**
 * the `data` of one page of a list
 */
export type PageData = Record<string, any>;
export type ActResult = {
    /**
     * the suggestion as the act left it
     */
    suggestion: SuggestionWithStatus;
    /**
     * the key the act was sent with
     */
    idempotencyKey: string;
    /**
     * the answer repeats an earlier request's with that key
     */
    replayed: boolean;
};
