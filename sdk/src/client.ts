import type {
  Analytics,
  BankingRates,
  BestRate,
  Chart,
  Conversion,
  CurrencyInfo,
  ErrorCode,
  ExchangeRate,
  Health,
  Insights,
  MonexSession,
  MonexProvenance,
  MonexRevision,
  CalendarDay,
  MonthClose,
  PeriodStats,
  Provenance,
  PurposeInfo,
  Revision,
  Usage,
} from './types';
// Code from shared/ is inlined by the bundler (dependency-free, shared with the Sheets add-on).
import { readEnvelope } from '../../shared/envelope';
import { ERROR_CODES, ERROR_STATUS } from '../../shared/errors';
import { retryAfterSeconds } from '../../shared/retry-after';
import { PUBLIC_API_BASE_URL } from '../../shared/service';
import { Cancellation, signalOption, type AbortSignalLike, type FetchSignal, type RequestOptions } from './abort';
import { apiBaseUrl } from './base-url';
import { toApiDate, type DateInput } from './dates';
import { ExchangeRateError } from './errors';
import type { CreatedWebhook, NewWebhook, Webhook, WebhookDelivery } from './webhooks';
import { QUERY_NAMES, type RouteParams, type RoutePath } from './params.generated';
import type {
  AnalyticsParams,
  BankingRatesParams,
  ByDateParams,
  CloseParams,
  LatestParams,
  SingleRecord,
  BestRateParams,
  ChartParams,
  ConvertParams,
  HistoryParams,
  InsightsParams,
  MonexHistoryParams,
  MonexRangeParams,
  CalendarParams,
  RangeParams,
  StatsParams,
} from './params';

/** The public service. Self-hosted installations pass their own `baseUrl` (`http://HOST:PORT`, to which /api/v1 is added). */
export const DEFAULT_BASE_URL: string = PUBLIC_API_BASE_URL;

/** The parts of a fetch `Response` the client reads. */
export interface FetchResponseLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** What the client passes to `fetch`. */
export interface FetchInit {
  /** GET for every read; the webhook methods also POST and DELETE. */
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  /** The JSON body of a POST that takes one (webhooks). */
  body?: string;
  /** An `AbortSignal`, aborted when the attempt times out or the call is cancelled. */
  signal: FetchSignal;
}

/** A `fetch` function: the global one, or any compatible one (undici, node-fetch, a test stub). */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponseLike>;

export interface ClientOptions {
  /** Your key, sent as `x-api-key` (not needed for `health()` alone: pass `''`). */
  apiKey: string;
  /**
   * The API base, ending in `/api/v1` (`http://localhost:3000/api/v1`), or a bare origin
   * (`http://localhost:3000`), to which `/api/v1` is added; any other path throws a TypeError
   * here. Default {@link DEFAULT_BASE_URL}.
   */
  baseUrl?: string;
  /** Time allowed for each attempt, answer body included (default 10000 ms). */
  timeoutMs?: number;
  /**
   * Further attempts after a failure worth retrying (default 2): 429 `RATE_LIMITED` (after
   * `Retry-After`), network errors, timeouts, 502/503/504 (with exponential backoff). Never other
   * 4xx, never 429 `QUOTA_EXCEEDED`. 0 disables retries.
   */
  retries?: number;
  /** First backoff delay; doubles on every retry (default 500 ms). */
  retryDelayMs?: number;
  /**
   * The longest the client waits before a retry (default 10000 ms; `Infinity` for no ceiling).
   * A `Retry-After` longer than this is not waited out: the call rejects at once with that
   * answer's error, its `retryAfter` saying how many seconds the server asked for. Backoff delays
   * stop growing at it.
   */
  maxRetryWaitMs?: number;
  /**
   * Cancels every call of this client, in flight or later: each rejects with `signal.reason` (an
   * `AbortError` for a plain `abort()`), as `fetch` does. Each method also takes a signal of its own.
   */
  signal?: FetchSignal;
  /** The `fetch` to use (default: the global `fetch`, looked up at each request). */
  fetch?: FetchLike;
  /** How the client waits before a retry (default: a timer). Tests inject a fake; a cancelled call stops waiting for it. */
  sleep?: (ms: number) => Promise<void>;
}

/** The rate-limit and quota headers of the last answer; each null when that answer had none. */
export interface RateLimitInfo {
  /** `X-RateLimit-Limit`: requests allowed per window. */
  limit: number | null;
  /** `X-RateLimit-Remaining`: requests left in this window, after the last one. */
  remaining: number | null;
  /** `X-RateLimit-Reset`: whole seconds until the window starts again. */
  reset: number | null;
  /** `X-Quota-Limit`: the key's monthly quota. */
  quotaLimit: number | null;
  /** `X-Quota-Remaining`: requests left this month. */
  quotaRemaining: number | null;
  /** `X-Quota-Reset`: when the monthly count starts again (ISO timestamp). */
  quotaReset: string | null;
}

/** The code an error status stands for when the answer carries no envelope to say it (429: RATE_LIMITED). */
const CODE_BY_STATUS = new Map<number, ErrorCode>();
for (const code of ERROR_CODES) if (!CODE_BY_STATUS.has(ERROR_STATUS[code])) CODE_BY_STATUS.set(ERROR_STATUS[code], code);

/** Gateway errors and an unavailable service are passing troubles: worth another attempt. */
const RETRIED_STATUSES = new Set([502, 503, 504]);

function headerInteger(headers: FetchResponseLike['headers'], name: string): number | null {
  const value = headers.get(name)?.trim();
  if (!value || !/^\d+$/.test(value)) return null;
  return Number(value);
}

function nonNegative(name: string, value: number, infinite = false): number {
  if (typeof value !== 'number' || !(Number.isFinite(value) || (infinite && value === Number.POSITIVE_INFINITY)) || value < 0) {
    throw new TypeError(`ExchangeRateClient: "${name}" must be a non-negative number (got ${String(value)})`);
  }
  return value;
}

/**
 * A client of the crc-rates API: one method per endpoint, each resolving to the answer's `data`
 * (typed as the server types it) or rejecting with an {@link ExchangeRateError}.
 */
export class ExchangeRateClient {
  /** The rate-limit and quota headers of the last answer received (null before the first). */
  lastRateLimit: RateLimitInfo | null = null;

  /** The base every request goes to, ending in /api/v1. */
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryDelayMs: number;
  readonly maxRetryWaitMs: number;
  readonly #apiKey: string;
  readonly #fetch: FetchLike | undefined;
  readonly #sleep: ((ms: number) => Promise<void>) | undefined;
  readonly #signal: AbortSignalLike | undefined;

  constructor(options: ClientOptions) {
    if (!options || typeof options.apiKey !== 'string') {
      throw new TypeError('ExchangeRateClient: "apiKey" is required (a string; "" for health() alone)');
    }
    this.#apiKey = options.apiKey;
    this.baseUrl = apiBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL);
    this.timeoutMs = nonNegative('timeoutMs', options.timeoutMs ?? 10_000);
    this.retries = Math.floor(nonNegative('retries', options.retries ?? 2));
    this.retryDelayMs = nonNegative('retryDelayMs', options.retryDelayMs ?? 500);
    this.maxRetryWaitMs = nonNegative('maxRetryWaitMs', options.maxRetryWaitMs ?? 10_000, true);
    this.#fetch = options.fetch;
    this.#sleep = options.sleep;
    this.#signal = signalOption(options.signal, 'the "signal" option');
  }

  /**
   * `/exchange-rate/latest`: the record with the greatest date not after today (Costa Rica), of the
   * dollar or of `currency` (`{ currency: 'EUR' }`; `fill: 'previous'` carries an older one to today;
   * `purpose: 'invoice'` cites the rule and its side; `inverse: true` adds units per colón). For
   * EUR before the central bank publishes today's cross rate: Hacienda's provisional record of
   * today (`source: 'Hacienda'`, `buy: null`): check `buy` before using it.
   */
  async getLatest<C extends LatestParams['currency'] = undefined>(options: RequestOptions & LatestParams & { currency?: C } = {}): Promise<SingleRecord<C>> {
    const { signal, ...params } = options;
    return this.request('/exchange-rate/latest', params, { signal });
  }

  /**
   * `/exchange-rate?date=`: the record of that day (`NOT_FOUND` when the day has none), of the
   * dollar or of `currency`; `fill: 'previous'` answers a day without a rate with the earlier one.
   * EUR today, before the central bank publishes: Hacienda's provisional record (`buy: null`).
   */
  async getByDate<C extends ByDateParams['currency'] = undefined>(
    date: DateInput,
    options: RequestOptions & ByDateParams & { currency?: C } = {},
  ): Promise<SingleRecord<C>> {
    const { signal, ...params } = options;
    return this.request('/exchange-rate', { date, ...params }, { signal });
  }

  /** `/exchange-rate/history`: the records of the last `days` days, ascending. */
  async getHistory(params: HistoryParams = {}, options?: RequestOptions): Promise<ExchangeRate[]> {
    return this.request('/exchange-rate/history', params, options);
  }

  /** `/exchange-rate/range`: the records with from <= date <= to, ascending (`[]` when none). */
  async getRange(params: RangeParams, options?: RequestOptions): Promise<ExchangeRate[]> {
    return this.request('/exchange-rate/range', params, options);
  }

  /** `/exchange-rate/analytics`: statistics of each side over the last `days` days or from/to. */
  async getAnalytics(params: AnalyticsParams = {}, options?: RequestOptions): Promise<Analytics> {
    return this.request('/exchange-rate/analytics', params, options);
  }

  /** `/exchange-rate/stats`: monthly or yearly statistics between two days, ascending. */
  async getStats(params: StatsParams, options?: RequestOptions): Promise<PeriodStats[]> {
    return this.request('/exchange-rate/stats', params, options);
  }

  /**
   * `/exchange-rate/close?month=`: the figures to close a month (`YYYY-MM`, not after the current
   * one) with: days present and missing, the closing record, per-side statistics (`NOT_FOUND` when
   * the month has no record).
   */
  async getClose(month: string, options: RequestOptions & CloseParams = {}): Promise<MonthClose> {
    const { signal, ...params } = options;
    return this.request('/exchange-rate/close', { month, ...params }, { signal });
  }

  /** `/currencies`: the codes `currency` takes, USD first, with the days each has a rate for. */
  async getCurrencies(options?: RequestOptions): Promise<CurrencyInfo[]> {
    return this.request('/currencies', {}, options);
  }

  /**
   * `/purposes`: the values `purpose` takes, each with the side of the reference rate its rule
   * names, whose date applies, the day a month close uses, the rule, its basis and Spanish aliases.
   */
  async getPurposes(options?: RequestOptions): Promise<PurposeInfo[]> {
    return this.request('/purposes', {}, options);
  }

  /**
   * `/exchange-rate/provenance?date=`: where the day's record came from (the upstream of each side),
   * when its values were first seen and last confirmed, how many observations the day has, the
   * values it had before (oldest first) and its digest (`NOT_FOUND` when the day has no rate).
   */
  async getProvenance(date: DateInput, options?: RequestOptions): Promise<Provenance> {
    return this.request('/exchange-rate/provenance', { date }, options);
  }

  /** `/exchange-rate/revisions`: every revision of a day between `from` and `to` (at most 366 days apart), ascending; `[]` when none. */
  async getRevisions(from: DateInput, to: DateInput, options?: RequestOptions): Promise<Revision[]> {
    return this.request('/exchange-rate/revisions', { from, to }, options);
  }

  /** `/exchange-rate/chart`: a downsampled series of the last `days` days with its trend line. */
  async getChart(params: ChartParams = {}, options?: RequestOptions): Promise<Chart> {
    return this.request('/exchange-rate/chart', params, options);
  }

  /** `/convert`: an amount between CRC and USD (the official rate) or any other currency of `/currencies` (its derived rate). */
  async convert(params: ConvertParams, options?: RequestOptions): Promise<Conversion> {
    return this.request('/convert', params, options);
  }

  /** `/banking/rates`: every institution's window quote of a day, ordered by name. */
  async getBankingRates(params: BankingRatesParams = {}, options?: RequestOptions): Promise<BankingRates> {
    return this.request('/banking/rates', params, options);
  }

  /**
   * `/banking/best`: the institutions ranked for buying or selling dollars, best first. `buy`
   * ranks who pays the most colones for your dollars, `sell` who charges the fewest for a dollar.
   */
  async getBestRate(params: BestRateParams, options?: RequestOptions): Promise<BestRate> {
    return this.request('/banking/best', params, options);
  }

  /** `/insights`: what the colón did over the last `days` days, in words and numbers. */
  async getInsights(params: InsightsParams = {}, options?: RequestOptions): Promise<Insights> {
    return this.request('/insights', params, options);
  }

  /** `/monex/latest`: the latest day on which MONEX, the central bank's wholesale market, held a session. */
  async getMonexLatest(options?: RequestOptions): Promise<MonexSession> {
    return this.request('/monex/latest', {}, options);
  }

  /**
   * `/monex?date=`: that day of MONEX; a day without a session is `session: false` with null
   * figures (`NOT_FOUND` for a day not known yet).
   */
  async getMonex(date: DateInput, options?: RequestOptions): Promise<MonexSession> {
    return this.request('/monex', { date }, options);
  }

  /** `/monex/history`: every calendar day of the last `days` days of MONEX, sessions and days without one, ascending. */
  async getMonexHistory(params: MonexHistoryParams = {}, options?: RequestOptions): Promise<MonexSession[]> {
    return this.request('/monex/history', params, options);
  }

  /**
   * `/monex/provenance?date=`: the stored MONEX day, where it was read, when its figures were first
   * read and last confirmed, how many readings it has and its revisions (`NOT_FOUND` when the day is not stored).
   */
  async getMonexProvenance(date: DateInput, options?: RequestOptions): Promise<MonexProvenance> {
    return this.request('/monex/provenance', { date }, options);
  }

  /** `/monex/revisions`: every revision of a MONEX day between `from` and `to` (at most 366 days apart), ascending; `[]` when none. */
  async getMonexRevisions(from: DateInput, to: DateInput, options?: RequestOptions): Promise<MonexRevision[]> {
    return this.request('/monex/revisions', { from, to }, options);
  }

  /** `/monex/range`: every known day of MONEX with from <= date <= to (at most 366 days apart), ascending. */
  async getMonexRange(params: MonexRangeParams, options?: RequestOptions): Promise<MonexSession[]> {
    return this.request('/monex/range', params, options);
  }

  /**
   * `/calendar`: per calendar day of from..to or of a `year`, its ISO weekday, whether MONEX held a
   * session (null for a day not known yet) and whether the official rate of that date is stored.
   */
  async getCalendar(params: CalendarParams, options?: RequestOptions): Promise<CalendarDay[]> {
    return this.request('/calendar', params, options);
  }

  /** `/usage`: this month's usage and the limits of your key (never counted against the quota). */
  async getUsage(options?: RequestOptions): Promise<Usage> {
    return this.request('/usage', {}, options);
  }

  /** `/health`: whether the service and its database answer and how fresh the data is (no key needed). */
  async health(options?: RequestOptions): Promise<Health> {
    return this.request('/health', {}, options);
  }

  /**
   * Sends one GET, retrying what is worth retrying, and unwraps the envelope. A cancelled call
   * (the client's signal or the call's) rejects with the signal's reason, whatever it was doing.
   */
  private async request<T, P extends RoutePath>(path: P, params: RouteParams[P], options: RequestOptions = {}): Promise<T> {
    return this.call<T>(this.url(path, params), { method: 'GET' }, options);
  }

  /** Subscribes `url` to events (the answer's `secret` is shown this once: keep it). */
  async createWebhook(subscription: NewWebhook, options?: RequestOptions): Promise<CreatedWebhook> {
    return this.call(`${this.baseUrl}/webhooks`, { method: 'POST', body: JSON.stringify(subscription) }, options);
  }

  /** The key's subscriptions, without secrets. */
  async listWebhooks(options?: RequestOptions): Promise<Webhook[]> {
    return this.call(`${this.baseUrl}/webhooks`, { method: 'GET' }, options);
  }

  async deleteWebhook(id: string, options?: RequestOptions): Promise<void> {
    await this.call(`${this.baseUrl}/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' }, options);
  }

  /** Queues a `ping` to the subscription. */
  async testWebhook(id: string, options?: RequestOptions): Promise<WebhookDelivery> {
    return this.call(`${this.baseUrl}/webhooks/${encodeURIComponent(id)}/test`, { method: 'POST' }, options);
  }

  /** The subscription's last 100 deliveries, newest first. */
  async getWebhookDeliveries(id: string, options?: RequestOptions): Promise<WebhookDelivery[]> {
    return this.call(`${this.baseUrl}/webhooks/${encodeURIComponent(id)}/deliveries`, { method: 'GET' }, options);
  }

  /** Queues one delivery to be sent again. */
  async retryWebhookDelivery(id: string, deliveryId: number, options?: RequestOptions): Promise<WebhookDelivery> {
    return this.call(`${this.baseUrl}/webhooks/${encodeURIComponent(id)}/deliveries/${deliveryId}/retry`, { method: 'POST' }, options);
  }

  /** One call: a POST (which changes something) is sent once, never retried; GET and DELETE are retried as any read. */
  private async call<T>(url: string, init: { method: FetchInit['method']; body?: string }, options: RequestOptions = {}): Promise<T> {
    const cancel = new Cancellation([this.#signal, signalOption(options?.signal, 'the "signal" option of a call')]);
    try {
      for (let attempt = 0; ; attempt += 1) {
        cancel.throwIfAborted();
        try {
          return (await this.attempt(url, cancel, init)) as T;
        } catch (error) {
          if (cancel.aborted) throw cancel.reason;
          const delay = init.method === 'POST' ? null : this.retryDelay(error as ExchangeRateError, attempt);
          if (delay === null) throw error;
          await (this.#sleep ? Promise.race([this.#sleep(delay), cancel.promise]) : cancel.sleep(delay));
        }
      }
    } finally {
      cancel.dispose();
    }
  }

  /**
   * The route's own parameters, in the server's order, and nothing else the object may hold; a
   * `Date` becomes its Costa Rica day (an invalid one is refused here, before anything is sent).
   */
  private url<P extends RoutePath>(path: P, params: RouteParams[P]): string {
    const names: readonly string[] = QUERY_NAMES[path];
    const values: Readonly<Record<string, unknown>> = params;
    const search = new URLSearchParams();
    for (const name of names) {
      const value = values[name];
      if (value !== undefined) search.append(name, value instanceof Date ? toApiDate(value, name) : String(value));
    }
    const qs = search.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  /** How long to wait before attempt `attempt + 1`, or null when the error is final. */
  private retryDelay(error: ExchangeRateError, attempt: number): number | null {
    if (!(error instanceof ExchangeRateError) || attempt >= this.retries) return null;
    const backoff = Math.min(this.retryDelayMs * 2 ** attempt, this.maxRetryWaitMs);
    const asked = error.retryAfter !== null ? error.retryAfter * 1000 : null;
    let wait: number;
    switch (error.code) {
      case 'RATE_LIMITED':
        wait = asked ?? backoff;
        break;
      case 'NETWORK_ERROR':
      case 'TIMEOUT':
        return backoff;
      default:
        if (error.status === null || !RETRIED_STATUSES.has(error.status)) return null;
        wait = asked !== null ? Math.max(asked, backoff) : backoff;
    }
    // Asking sooner than the server said would only be refused again: a wait over the ceiling
    // ends the call now, and the error's retryAfter tells the caller when to come back.
    return wait > this.maxRetryWaitMs ? null : wait;
  }

  /** One attempt: the data of a success envelope, or an ExchangeRateError (or the cancellation's reason). */
  private async attempt(url: string, cancel: Cancellation, init: { method: FetchInit['method']; body?: string } = { method: 'GET' }): Promise<unknown> {
    const fetchImpl = this.#fetch ?? (globalThis as { fetch?: FetchLike }).fetch;
    if (typeof fetchImpl !== 'function') {
      throw new ExchangeRateError({ code: 'NETWORK_ERROR', message: 'No fetch available: pass one as the "fetch" option' });
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#apiKey) headers['x-api-key'] = this.#apiKey;
    if (init.body !== undefined) headers['content-type'] = 'application/json';

    const controller = new AbortController();
    const timeout = new ExchangeRateError({ code: 'TIMEOUT', message: `No answer from ${url} within ${this.timeoutMs} ms` });
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Rejects when the attempt runs out of time, also if a custom fetch ignores the signal.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(timeout);
        controller.abort();
      }, this.timeoutMs);
    });
    // Raced below; this only keeps an unraced deadline from counting as an unhandled rejection.
    deadline.catch(() => undefined);
    // The connection is torn down on cancellation; the race below also ends a fetch that ignores it.
    const stopListening = cancel.onAbort((reason) => controller.abort(reason));

    let response: FetchResponseLike;
    let text: string;
    try {
      try {
        response = await Promise.race([
          fetchImpl(url, { method: init.method, headers, ...(init.body === undefined ? {} : { body: init.body }), signal: controller.signal }),
          deadline,
          cancel.promise,
        ]);
      } catch (error) {
        if (cancel.aborted) throw cancel.reason;
        if (timedOut) throw timeout;
        throw new ExchangeRateError({ code: 'NETWORK_ERROR', message: `Request to ${url} failed: ${describe(error)}`, cause: error });
      }
      this.lastRateLimit = {
        limit: headerInteger(response.headers, 'x-ratelimit-limit'),
        remaining: headerInteger(response.headers, 'x-ratelimit-remaining'),
        reset: headerInteger(response.headers, 'x-ratelimit-reset'),
        quotaLimit: headerInteger(response.headers, 'x-quota-limit'),
        quotaRemaining: headerInteger(response.headers, 'x-quota-remaining'),
        quotaReset: response.headers.get('x-quota-reset') || null,
      };
      try {
        text = await Promise.race([response.text(), deadline, cancel.promise]);
      } catch (error) {
        if (cancel.aborted) throw cancel.reason;
        if (timedOut) throw timeout;
        throw new ExchangeRateError({
          code: 'NETWORK_ERROR',
          status: response.status,
          message: `Reading the answer of ${url} failed: ${describe(error)}`,
          cause: error,
        });
      }
    } finally {
      clearTimeout(timer);
      stopListening();
    }

    const { status, headers: responseHeaders } = response;
    // A DELETE answers 204 with no body.
    if (status === 204) return undefined;
    const reading = readEnvelope(status, text);
    if (reading.kind === 'data') return reading.data;
    if (status >= 200 && status < 300) {
      throw new ExchangeRateError({ code: 'INVALID_RESPONSE', status, message: `The answer of ${url} is not the API's JSON envelope` });
    }
    const envelope = reading.kind === 'error' ? reading : null;
    throw new ExchangeRateError({
      code: envelope?.error ?? CODE_BY_STATUS.get(status) ?? 'HTTP_ERROR',
      status,
      message: envelope?.message ?? `HTTP ${status} from ${url}`,
      retryAfter: retryAfterSeconds(responseHeaders.get('retry-after')),
      requestId: responseHeaders.get('x-request-id'),
    });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The message of an error, also one from another realm (where `instanceof Error` fails). */
function messageOf(value: unknown): string | null {
  return isObject(value) && typeof value.message === 'string' ? value.message : null;
}

function describe(error: unknown): string {
  const message = messageOf(error);
  if (message === null) return String(error);
  // Node's fetch says only "fetch failed"; the reason (connect ECONNREFUSED …) is its cause.
  const cause = isObject(error) ? error.cause : undefined;
  const reason = messageOf(cause) || (isObject(cause) && typeof cause.code === 'string' ? cause.code : null);
  return reason ? `${message} (${reason})` : message;
}
