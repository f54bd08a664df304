/** Typed errors thrown anywhere and rendered once, by the `errorEnvelope` middleware, into the API's envelope. */
import { ERROR_STATUS, type ErrorCode } from '../../shared/errors';

export class HttpError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** What caused it, for the log (never shown to the client). */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'HttpError';
    this.status = ERROR_STATUS[code];
  }
}

export const badRequest = (message: string) => new HttpError('BAD_REQUEST', message);
export const notFound = (message: string) => new HttpError('NOT_FOUND', message);
