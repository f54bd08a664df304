/**
 * The one way adapters talk to an upstream: a timeout on every attempt, retries with exponential
 * backoff and full jitter on failures that can pass (429, 5xx, timeouts, network), and one
 * `UpstreamError` at the end. The body is read as text so that each parser decides whether an
 * HTML page or a cut-off JSON document is an answer.
 */
import { UpstreamError } from './types';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;
/** Waits `ms`; a real sleep ends early when `signal` aborts, so a shutdown never sits out a backoff. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** How patient to be with one upstream. Adapters take these and pass them through. */
export interface RequestPolicy {
  timeoutMs?: number;
  /** Attempts after the first one. */
  retries?: number;
  baseDelayMs?: number;
  /** Caps both the backoff and a `Retry-After` the upstream asks for. */
  maxDelayMs?: number;
  fetchImpl?: FetchLike;
  /** Injectable so that tests can record the delays instead of waiting them out. */
  sleep?: Sleep;
  random?: () => number;
}

export const DEFAULT_POLICY = {
  timeoutMs: 15_000,
  retries: 3,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
} as const;

export interface FetchUpstreamOptions extends RequestPolicy {
  source: string;
  headers?: Record<string, string>;
  /** Throws an `UpstreamError` for a 200 that is an error in disguise (Hacienda's `{"code":503}`). */
  checkBody?: (text: string) => void;
  /** Aborts everything, for a shutdown: not retried. */
  signal?: AbortSignal;
}

export interface UpstreamResponse {
  status: number;
  text: string;
  headers: Headers;
}

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    // Cleared on abort: a pending 30 s timer would keep a stopping process alive until it fires.
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** `Retry-After` is either delay-seconds or an HTTP-date (RFC 9110 10.2.3). */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP-date always names a day or month; this keeps `-1` from parsing as the year -1.
  const at = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Full jitter (a uniform wait in [0, base·2^attempt)) keeps many instances from retrying in step. */
export function backoffDelayMs(attempt: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  return Math.floor(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** attempt));
}

function snippet(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function httpError(res: Response, text: string, url: string, source: string): UpstreamError {
  const { status } = res;
  // 408/429/5xx are the upstream's way of saying "not now"; any other 4xx repeats identically.
  const retryable = status === 408 || status === 429 || status >= 500;
  const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(res.headers.get('retry-after'), Date.now()) : undefined;
  const body = snippet(text);
  return new UpstreamError(`${source}: HTTP ${status} from ${url}${body ? `: ${body}` : ''}`, {
    source,
    kind: 'http',
    status,
    retryable,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/**
 * Reads name/message/cause without `instanceof`: fetch's errors (and the DOMException of a
 * timeout) can come from another realm than our `Error`, as under jest.
 */
function errorParts(err: unknown): { name: string; message: string; cause: unknown } {
  if (typeof err !== 'object' || err === null) return { name: '', message: String(err), cause: undefined };
  const e = err as { name?: unknown; message?: unknown; cause?: unknown };
  return { name: String(e.name ?? ''), message: String(e.message ?? err), cause: e.cause };
}

function transportError(err: unknown, url: string, opts: FetchUpstreamOptions, timeoutMs: number): UpstreamError {
  const { source } = opts;
  if (opts.signal?.aborted) {
    return new UpstreamError(`${source}: request to ${url} aborted`, { source, kind: 'aborted', retryable: false, cause: err });
  }
  const parts = errorParts(err);
  if (parts.name === 'TimeoutError') {
    return new UpstreamError(`${source}: no answer from ${url} within ${timeoutMs} ms`, { source, kind: 'timeout', retryable: true, cause: err });
  }
  // undici reports "fetch failed" and keeps the useful part (ECONNREFUSED, ECONNRESET…) in the cause.
  const detail = parts.cause === undefined ? parts.message : `${parts.message}: ${errorParts(parts.cause).message}`;
  return new UpstreamError(`${source}: network error on ${url}: ${detail}`, { source, kind: 'network', retryable: true, cause: err });
}

async function attemptOnce(url: string, opts: FetchUpstreamOptions, timeoutMs: number): Promise<UpstreamResponse> {
  const fetchImpl = opts.fetchImpl ?? fetch;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  let res: Response;
  let text: string;
  try {
    res = await fetchImpl(url, { headers: opts.headers ?? {}, signal });
    // The same signal covers the body: an upstream that sends headers and then stalls times out too.
    text = await res.text();
  } catch (err) {
    throw transportError(err, url, opts, timeoutMs);
  }
  if (!res.ok) throw httpError(res, text, url, opts.source);
  opts.checkBody?.(text);
  return { status: res.status, text, headers: res.headers };
}

/** The last failure, saying how many tries it took, so a log line tells retries did happen. */
function gaveUp(err: UpstreamError, attempts: number): UpstreamError {
  const { source, kind, status, retryable, retryAfterMs } = err;
  return new UpstreamError(`${err.message} (gave up after ${attempts} attempts)`, {
    source,
    kind,
    retryable,
    ...(status === undefined ? {} : { status }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    cause: err.cause,
  });
}

export async function fetchUpstream(url: string, opts: FetchUpstreamOptions): Promise<UpstreamResponse> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_POLICY.timeoutMs;
  const retries = opts.retries ?? DEFAULT_POLICY.retries;
  const baseDelayMs = opts.baseDelayMs ?? DEFAULT_POLICY.baseDelayMs;
  const maxDelayMs = opts.maxDelayMs ?? DEFAULT_POLICY.maxDelayMs;
  const sleep = opts.sleep ?? realSleep;
  const random = opts.random ?? Math.random;
  for (let attempt = 0; ; attempt++) {
    try {
      return await attemptOnce(url, opts, timeoutMs);
    } catch (err) {
      // Anything that is not ours (a bug in checkBody, say) is not an upstream failure: let it out.
      if (!(err instanceof UpstreamError) || !err.retryable) throw err;
      if (attempt >= retries) throw attempt === 0 ? err : gaveUp(err, attempt + 1);
      const delay = err.retryAfterMs === undefined ? backoffDelayMs(attempt, baseDelayMs, maxDelayMs, random) : Math.min(err.retryAfterMs, maxDelayMs);
      await sleep(delay, opts.signal);
      if (opts.signal?.aborted) throw transportError(opts.signal.reason, url, opts, timeoutMs);
    }
  }
}

/** Base addresses come from configuration with or without a trailing slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}
