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
 * @returns {Promise<Event>} the event, typed as the events list's
 */
export function verify(secret: string, body: Uint8Array | string, headers: Headers | Record<string, string | string[] | undefined>, options?: {
    tolerance?: number;
    now?: number;
}): Promise<Event>;
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
export const VERSION: "1.1.0";
export const USER_AGENT: "maintplan-typescript/1.1.0";
/** @type {RetryPolicy} */
export const NO_RETRY: RetryPolicy;
/** @type {ListSpec<PlanItem>} */
export const PLANS: ListSpec<PlanItem>;
/** @type {ListSpec<Node>} */
export const NODES: ListSpec<Node>;
/** @type {ListSpec<Action>} */
export const ACTIONS: ListSpec<Action>;
/** @type {ListSpec<Project>} */
export const PROJECTS: ListSpec<Project>;
/** @type {ListSpec<HistoryEntry>} */
export const HISTORY: ListSpec<HistoryEntry>;
/** @type {ListSpec<Version>} */
export const VERSIONS: ListSpec<Version>;
/** @type {ListSpec<VersionAction>} */
export const VERSION_ACTIONS: ListSpec<VersionAction>;
/** @type {ListSpec<Suggestion>} */
export const SUGGESTIONS: ListSpec<Suggestion>;
/** @type {ListSpec<Event>} */
export const EVENTS: ListSpec<Event>;
/** @type {ListSpec<PortfolioPlan>} */
export const PORTFOLIO: ListSpec<PortfolioPlan>;
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
    constructor(status: number, messageKey: string, message: string, data: unknown, traceId: string | null, headers?: Headers);
    status: number;
    messageKey: string;
    data: unknown;
    traceId: string | null;
    headers: Headers;
    retryAfter: number | null;
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
     * @param {{ fetch?: typeof fetch, retry?: RetryPolicy, timeout?: number, headers?: Record<string, string>, sleep?: (seconds: number) => Promise<unknown> }} [options]
     *   another fetch (a test double, a proxy agent), the retry policy, each request's default
     *   timeout (seconds, 30) and headers, and the wait between retries (a test may count them)
     */
    constructor(baseUrl: string, apiKey: string, options?: {
        fetch?: typeof fetch;
        retry?: RetryPolicy;
        timeout?: number;
        headers?: Record<string, string>;
        sleep?: (seconds: number) => Promise<unknown>;
    });
    baseUrl: string;
    apiKey: string;
    fetch: typeof fetch;
    retry: {
        /**
         * 4
         */
        maxAttempts: number;
        /**
         * 0.5 (seconds)
         */
        base: number;
        /**
         * 20 (seconds)
         */
        cap: number;
        /**
         * 60 (seconds)
         */
        maxRetryAfter: number;
    };
    timeout: number;
    headers: Record<string, string>;
    sleep: (seconds: number) => Promise<any>;
    /** @type {Map<string, {etag: string, data: PageData}>} the last ETag and data of each polled URL */
    etags: Map<string, {
        etag: string;
        data: PageData;
    }>;
    /**
     * Seconds to wait before send `attempt + 1`, or null for no further send (`response` null: a
     * network error).
     * @param {number} attempt
     * @param {Response | null} response
     * @returns {number | null}
     */
    wait(attempt: number, response: Response | null): number | null;
    /**
     * One request, sent again as the retry policy says; the last answer.
     * @param {string} method
     * @param {string} url a path under /api/v1, with its query
     * @param {Record<string, string>} [headers]
     * @param {unknown} [body]
     * @param {RequestOptions} [options]
     * @returns {Promise<Response>}
     */
    request(method: string, url: string, headers?: Record<string, string>, body?: unknown, options?: RequestOptions): Promise<Response>;
    /**
     * The `data` of a GET of `path` (under /api/v1, e.g. "/platform/plans/1").
     * @param {string} path
     * @param {Params} [params]
     * @param {RequestOptions} [options]
     * @returns {Promise<PageData>}
     */
    get(path: string, params?: Params, options?: RequestOptions): Promise<PageData>;
    /**
     * Every page (its `data`, untyped) of a list, following `next_cursor` with the same filters
     * until it is null. `params` may hold `limit` (the page size) and the list's filters.
     * @param {string} path
     * @param {Params} [params]
     * @param {RequestOptions} [options]
     * @returns {AsyncGenerator<PageData, void, undefined>}
     */
    pages(path: string, params?: Params, options?: RequestOptions): AsyncGenerator<PageData, void, undefined>;
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
    walk<T>(spec: ListSpec<T>, params?: Params, pathArgs?: Record<string, string | number>, options?: RequestOptions): AsyncGenerator<T, void, undefined>;
    /**
     * Every item of a list over all its pages (untyped): the page's list `key` (by default its
     * only list).
     * @param {string} path
     * @param {Params} [params]
     * @param {string} [key]
     * @returns {AsyncGenerator<any, void, undefined>}
     */
    items(path: string, params?: Params, key?: string): AsyncGenerator<any, void, undefined>;
    /** @param {Params} [params] */
    plans(params?: Params): AsyncGenerator<{
        id: string;
        number: number;
        name: string;
        organisation: import("./schema.js").components["schemas"]["Organisation"];
        currency: string;
        open_count: number;
        updated_at: string;
    }, void, undefined>;
    /** @param {number} plan @param {Params} [filters] kind, parent_id, under, updated_since, limit */
    nodes(plan: number, filters?: Params): AsyncGenerator<{
        id: string;
        parent_id: string | null;
        name: string;
        kind: string;
        code: string | null;
        quantity: string | null;
        unit: string;
        install_year: number | null;
        building_id: string | null;
        path: string;
        ref: string | null;
        address: string;
        gross_floor_area_m2: string | null;
        year_built: number | null;
        condition_grade: number | null;
        condition_assessed_on: string | null;
        condition_consequence: number | null;
        condition_risk: number | null;
    }, void, undefined>;
    /** @param {number} plan @param {Params} [filters] kind, status, project_id, structure_node_id, year_from, year_to, updated_since, limit */
    actions(plan: number, filters?: Params): AsyncGenerator<{
        id: string;
        node_id: string;
        title: string;
        kind: string;
        planned_year: number;
        interval_years: number | null;
        estimated_cost: string;
        nominal_cost: string;
        status: string;
        project_id: string | null;
    }, void, undefined>;
    /** @param {number} plan @param {Params} [params] updated_since, limit */
    projects(plan: number, params?: Params): AsyncGenerator<{
        id: string;
        name: string;
        year: number;
    }, void, undefined>;
    /** @param {number} plan @param {Params} [filters] entity, since, limit */
    history(plan: number, filters?: Params): AsyncGenerator<{
        id: number;
        at: string;
        actor: import("./schema.js").components["schemas"]["HistoryActor"];
        entity: string;
        entity_id: string;
        entity_label: string;
        operation: string;
        changes: {
            [key: string]: unknown[];
        };
        summary: string;
    }, void, undefined>;
    /** @param {number} plan @param {Params} [params] */
    versions(plan: number, params?: Params): AsyncGenerator<{
        id: string;
        number: number;
        name: string;
        decided_on: string;
        note: string;
        adopted_at: string;
        currency: string;
        node_count: number;
        action_count: number;
        project_count: number;
        total_cost: string;
    }, void, undefined>;
    /** @param {number} plan @param {string} version @param {Params} [params] */
    versionActions(plan: number, version: string, params?: Params): AsyncGenerator<{
        action_id: string;
        node_id: string;
        building_id: string | null;
        title: string;
        kind: string;
        planned_year: number;
        estimated_cost: string;
        interval_years: number | null;
        status: string;
        project_id: string | null;
    }, void, undefined>;
    /**
     * A plan's open suggestions (filters: severity, suggestion_type, structure_node_id, limit).
     * @param {number} plan
     * @param {Params} [filters]
     */
    suggestions(plan: number, filters?: Params): AsyncGenerator<{
        id: string;
        suggestion_type: import("./schema.js").components["schemas"]["SuggestionTypeEnum"] | string;
        severity: import("./schema.js").components["schemas"]["SeverityEnum"] | string;
        title: string;
        body: string;
        structure_node_id: string;
        recommended_action_json: import("./schema.js").components["schemas"]["RecommendedAction"];
        created_at: string;
    }, void, undefined>;
    /**
     * The events of the last 30 days the key may read, oldest first; with `after` (the id of the
     * last event processed) exactly the ones after it.
     * @param {{ after?: string, plan?: number, type?: string, limit?: number }} [options]
     */
    events(options?: {
        after?: string;
        plan?: number;
        type?: string;
        limit?: number;
    }): AsyncGenerator<{
        id: string;
        type: import("./schema.js").components["schemas"]["EventTypeEnum"] | string;
        created_at: string;
        data: import("./schema.js").components["schemas"]["EventData"] | Record<string, never>;
    }, void, undefined>;
    /**
     * Every plan of an organisation's portfolio (its ten-year planned cost, maintenance debt,
     * FCI, open critical suggestions, years over budget), by number, every page. `organisation`
     * (a slug) is required with a personal key; `q` keeps the plans whose name contains it.
     * Its totals: `portfolioPage`.
     * @param {{ organisation?: string, q?: string, limit?: number }} [options]
     */
    portfolio(options?: {
        organisation?: string;
        q?: string;
        limit?: number;
    }): AsyncGenerator<{
        fci_percent: string | null;
        fci_band: (import("./schema.js").components["schemas"]["FciBandEnum"] | import("./schema.js").components["schemas"]["NullEnum"]) | null;
        number: number;
        name: string;
        currency: string;
        ten_year_cost: string;
        maintenance_debt: string;
        critical_open: number;
        years_over_budget: number | null;
        percent_funded: string | null;
    }, void, undefined>;
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
     * path and parameters (the first poll always); on 304 Not Modified null, or with
     * `keepLast: true` the data of the last poll. The ETag is kept per URL, in memory.
     * @param {string} path
     * @param {Params} [params]
     * @param {RequestOptions & { keepLast?: boolean }} [options]
     * @returns {Promise<PageData | null>}
     */
    poll(path: string, params?: Params, options?: RequestOptions & {
        keepLast?: boolean;
    }): Promise<PageData | null>;
    /**
     * A POST with an Idempotency-Key, the same on every retry: done at most once.
     * @param {string} path
     * @param {unknown} body
     * @param {string} idempotencyKey
     * @param {RequestOptions} [options]
     * @returns {Promise<ActResult>}
     */
    act(path: string, body: unknown, idempotencyKey: string, options?: RequestOptions): Promise<ActResult>;
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
    dismiss(plan: number, suggestionId: string, reason: DismissReason, comment?: string, idempotencyKey?: string, options?: RequestOptions): Promise<ActResult>;
    /**
     * Puts a dismissed suggestion back to open; idempotent like `dismiss`.
     * @param {number} plan
     * @param {string} suggestionId
     * @param {string} [idempotencyKey]
     * @param {RequestOptions} [options]
     * @returns {Promise<ActResult>}
     */
    restore(plan: number, suggestionId: string, idempotencyKey?: string, options?: RequestOptions): Promise<ActResult>;
}
export type Schemas = import("./schema.js").components["schemas"];
export type Suggestion = Schemas["Suggestion"];
export type SuggestionWithStatus = Schemas["SuggestionWithStatus"];
export type Event = Schemas["Event"];
export type PlanItem = Schemas["PlanItem"];
export type Node = Schemas["Node"];
export type Action = Schemas["Action"];
export type Project = Schemas["Project"];
export type HistoryEntry = Schemas["HistoryEntry"];
export type Version = Schemas["Version"];
export type VersionAction = Schemas["VersionAction"];
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
/**
 * What is sent again and how long to wait first: 429, 503 and network errors, at most
 * `maxAttempts` sends in all (1: never again). The wait is the answer's Retry-After when it has
 * one (past `maxRetryAfter` seconds the error is thrown at once, with its `retryAfter`), else
 * `base` x 2^(attempt-1) seconds capped at `cap`, with jitter (half to all of it).
 */
export type RetryPolicy = {
    /**
     * 4
     */
    maxAttempts?: number | undefined;
    /**
     * 0.5 (seconds)
     */
    base?: number | undefined;
    /**
     * 20 (seconds)
     */
    cap?: number | undefined;
    /**
     * 60 (seconds)
     */
    maxRetryAfter?: number | undefined;
};
/**
 * Per-request options: a timeout (seconds, each send) and extra headers.
 */
export type RequestOptions = {
    timeout?: number | undefined;
    headers?: Record<string, string> | undefined;
};
/**
 * One list of the API: its path (with `{plan}`, `{version}`), the page's list `key` and the
 * field that identifies a row (what a restarted walk skips). `T` is the row's type.
 */
export type ListSpec<T> = {
    path: string;
    key: string;
    idField: string;
    /**
     * never set: carries the row type
     */
    row?: T | undefined;
};
