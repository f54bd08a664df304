/** Structured JSON logs on stdout. Credentials are redacted wherever they might appear. */
import pino, { type Logger } from 'pino';
import type { LogLevel } from './config';

export type { Logger };

/**
 * By default stdout is written asynchronously: one access line per request must not cost a write
 * system call on the request's path. Lines still leave at once when the process is idle; call
 * `flush()` before exiting.
 */
export function createLogger(level: LogLevel = 'info', destination: pino.DestinationStream = pino.destination({ dest: 1, sync: false })): Logger {
  return pino(
    {
      level,
      base: { service: 'crc-rates' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'headers["x-api-key"]', 'headers.authorization', 'apiKey', 'key', 'token'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
