/**
 * Errors Koa meets after the answer has started (a compressed stream cut short because the client
 * went away) reach the app's `error` event, which Koa's default prints raw on stderr, outside the
 * JSON log. A client that leaves mid-answer is ordinary traffic: a debug line; anything else is
 * an error worth reading.
 */
import type { Logger } from '../logger';

const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'EPIPE', 'ECONNRESET', 'ECONNABORTED']);

export function logStreamErrors(logger: Logger) {
  return function logStreamError(error: Error & { code?: string }): void {
    if (error.code !== undefined && CLIENT_GONE.has(error.code)) logger.debug({ err: error.message }, 'client left before the answer was sent');
    else logger.error({ err: error }, 'error after the answer started');
  };
}
