import type { ErrorCode } from './types';

/**
 * What went wrong: one of the API's own error codes (the `error` of its error answers), or one of
 * the client's:
 * - `NETWORK_ERROR`: no answer at all (connection refused or reset, DNS failure, …);
 * - `TIMEOUT`: no complete answer within `timeoutMs`;
 * - `INVALID_RESPONSE`: an answer that is not the API's JSON envelope;
 * - `HTTP_ERROR`: an error status without the API's envelope (a proxy's 502 page, say).
 */
export type ExchangeRateErrorCode = ErrorCode | 'NETWORK_ERROR' | 'TIMEOUT' | 'INVALID_RESPONSE' | 'HTTP_ERROR';

export interface ExchangeRateErrorInit {
  code: ExchangeRateErrorCode;
  message: string;
  status?: number | null;
  retryAfter?: number | null;
  requestId?: string | null;
  cause?: unknown;
}

/**
 * Every failure of the client, API error or transport failure alike, is one of these; only a
 * cancelled call is not: it rejects with its signal's reason, as `fetch` does.
 */
export class ExchangeRateError extends Error {
  /** The HTTP status, or null when no answer came (or the call was refused before sending). */
  readonly status: number | null;
  readonly code: ExchangeRateErrorCode;
  /** Seconds to wait before asking again (`Retry-After`), on 429 (and 503 when sent); else null. */
  readonly retryAfter: number | null;
  /** The server's `X-Request-Id`, to quote when reporting a problem. */
  readonly requestId: string | null;

  constructor(init: ExchangeRateErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ExchangeRateError';
    this.code = init.code;
    this.status = init.status ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.requestId = init.requestId ?? null;
  }
}
