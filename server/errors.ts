/**
 * Typed errors thrown by any layer (a bad parameter, a missing key, a refused request) and written
 * once into the API's envelope by the edge (http/middleware/error-envelope.ts). Here, below every
 * layer, so that access/ and mcp/ throw them without importing the HTTP layer.
 */
import { ERROR_STATUS, type ErrorCode } from '../shared/errors';

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
