/**
 * Requests to the API and what its answers mean for a sheet. Every answer is the envelope of
 * API.md (`{ success, data }` or `{ success: false, message, error }`); UrlFetchApp runs with
 * `muteHttpExceptions`, so a 4xx arrives here as an answer and is turned into a message that
 * tells the user what to do. Pure: the fetching itself is the caller's.
 */
import type { ErrorCode } from '../../shared/errors';
import { formatReset, type Messages } from './messages';

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
  return m ? m[1]! : baseUrl;
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

function retryAfterSeconds(headers: Record<string, unknown>): number | null {
  const n = Number(header(headers, 'Retry-After'));
  return Number.isFinite(n) && n > 0 ? Math.ceil(n) : null;
}

interface Envelope {
  success?: unknown;
  data?: unknown;
  message?: unknown;
  error?: unknown;
}

/** The `data` of a successful answer, or an `ApiError` that says what to do. */
export function readAnswer<T>(answer: HttpAnswer, baseUrl: string, t: Messages, now: number = Date.now()): T {
  let envelope: Envelope | null = null;
  try {
    const parsed: unknown = JSON.parse(answer.body);
    if (parsed && typeof parsed === 'object' && typeof (parsed as Envelope).success === 'boolean') envelope = parsed as Envelope;
  } catch {
    envelope = null;
  }
  if (!envelope) {
    if (answer.status >= 500) throw new ApiError(t.unavailable(answer.status), answer.status, 'UNEXPECTED');
    throw new ApiError(t.unexpectedAnswer(originOf(baseUrl), answer.status), answer.status, 'UNEXPECTED');
  }
  if (envelope.success === true && answer.status >= 200 && answer.status < 300) return envelope.data as T;

  const code = String(envelope.error ?? '') as ErrorCode;
  const detail = typeof envelope.message === 'string' ? envelope.message : `HTTP ${answer.status}`;
  switch (code) {
    case 'UNAUTHORIZED':
      throw new ApiError(/revoked/i.test(detail) ? t.keyRevoked() : t.keyRejected(), answer.status, code);
    case 'QUOTA_EXCEEDED': {
      const retry = retryAfterSeconds(answer.headers);
      const reset = header(answer.headers, 'X-Quota-Reset') ?? (retry ? new Date(now + retry * 1000).toISOString() : '');
      throw new ApiError(t.quotaExceeded(formatReset(reset)), answer.status, code);
    }
    case 'RATE_LIMITED':
      throw new ApiError(t.rateLimited(retryAfterSeconds(answer.headers) ?? 60), answer.status, code);
    case 'BAD_REQUEST':
      throw new ApiError(t.badRequest(detail), answer.status, code);
    case 'NOT_FOUND':
      throw new ApiError(t.notFound(detail), answer.status, code);
    default:
      if (answer.status >= 500) throw new ApiError(t.unavailable(answer.status), answer.status, code || 'UNEXPECTED');
      throw new ApiError(t.unexpectedAnswer(originOf(baseUrl), answer.status), answer.status, 'UNEXPECTED');
  }
}
