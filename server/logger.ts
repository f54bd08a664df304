/** Structured JSON logs on stdout. Credentials are redacted wherever they might appear. */
import pino, { type Logger } from 'pino';
import type { LogLevel } from './config';

export type { Logger };

export function createLogger(level: LogLevel = 'info', destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'crc-rates' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'headers["x-api-key"]', 'apiKey', 'key', 'token'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
