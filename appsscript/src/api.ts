/**
 * Requests to the API and what its answers mean for a sheet. The envelope and `Retry-After` are
 * read as every client reads them (shared/envelope.ts, shared/retry-after.ts); UrlFetchApp runs
 * with `muteHttpExceptions`, so a 4xx arrives here as an answer and is turned into a message that
 * tells the user what to do. Pure: the fetching itself is the caller's.
 */
import { readEnvelope } from '../../shared/envelope';
import type { ErrorCode } from '../../shared/errors';
import { retryAfterSeconds } from '../../shared/retry-after';
import { formatUtc, type Messages } from './messages';

export interface HttpAnswer {
  status: number;
  /** As UrlFetchApp's `getHeaders()` gives them: names in whatever case the server sent. */
  headers: Record<string, unknown>;
  body: string;
}

/** A whole-call failure: the message is ready to show. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: ErrorCode | 'UNEXPECTED' | 'UNREACHABLE',
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function buildUrl(baseUrl: string, path: string, query: Record<string, string | number> = {}): string {
  const params = Object.keys(query)
    .map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(String(query[name]))}`)
    .join('&');
  return `${baseUrl}${path}${params ? `?${params}` : ''}`;
}

/** "https://api.example.com/api/v1" → "https://api.example.com" (for messages). */
export function originOf(baseUrl: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]+)/i.exec(baseUrl);
  return m?.[1] ?? baseUrl;
}

export function header(headers: Record<string, unknown>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = headers[key];
    return Array.isArray(value) ? String(value[0]) : value == null ? undefined : String(value);
  }
  return undefined;
}

/** At least a second: "try again in 0 s" would only invite a retry the server refuses. */
function secondsToWait(headers: Record<string, unknown>, now: number): number | null {
  const seconds = retryAfterSeconds(header(headers, 'Retry-After'), now);
  return seconds === null ? null : Math.max(1, seconds);
}

/**
 * The `data` of a successful answer, or an `ApiError` that says what to do. No answer at all (a
 * fetch that gave fewer answers than it was given requests) is an unexpected one, with no status.
 */
export function readAnswer<T>(answer: HttpAnswer | undefined, baseUrl: string, t: Messages, now: number = Date.now()): T {
  if (!answer) throw new ApiError(t.unexpectedAnswer(originOf(baseUrl), 0), 0, 'UNEXPECTED');
  const reading = readEnvelope(answer.status, answer.body);
  if (reading.kind === 'data') return reading.data as T;
  if (reading.kind === 'foreign') {
    if (answer.status >= 500) throw new ApiError(t.unavailable(answer.status), answer.status, 'UNEXPECTED');
    throw new ApiError(t.unexpectedAnswer(originOf(baseUrl), answer.status), answer.status, 'UNEXPECTED');
  }

  const code = reading.error;
  const detail = reading.message ?? `HTTP ${answer.status}`;
  switch (code) {
    case 'UNAUTHORIZED':
      throw new ApiError(/revoked/i.test(detail) ? t.keyRevoked() : t.keyRejected(), answer.status, code);
    case 'QUOTA_EXCEEDED': {
      const retry = secondsToWait(answer.headers, now);
      const reset = header(answer.headers, 'X-Quota-Reset') ?? (retry !== null ? new Date(now + retry * 1000).toISOString() : '');
      throw new ApiError(t.quotaExceeded(formatUtc(reset)), answer.status, code);
    }
    case 'RATE_LIMITED':
      throw new ApiError(t.rateLimited(secondsToWait(answer.headers, now) ?? 60), answer.status, code);
    case 'BAD_REQUEST':
      throw new ApiError(t.badRequest(detail), answer.status, code);
    case 'NOT_FOUND':
      throw new ApiError(t.notFound(detail), answer.status, code);
    default:
      if (answer.status >= 500) throw new ApiError(t.unavailable(answer.status), answer.status, code ?? 'UNEXPECTED');
      throw new ApiError(t.unexpectedAnswer(originOf(baseUrl), answer.status), answer.status, 'UNEXPECTED');
  }
}
