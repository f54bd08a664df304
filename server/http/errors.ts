/** Typed errors thrown anywhere and rendered once, by `errorEnvelope`, into the API's envelope. */
import { ERROR_STATUS, type ErrorCode } from '../../shared/errors';

export class HttpError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = ERROR_STATUS[code];
  }
}

export const badRequest = (message: string) => new HttpError('BAD_REQUEST', message);
export const notFound = (message: string) => new HttpError('NOT_FOUND', message);
