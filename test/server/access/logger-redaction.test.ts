/**
 * The service's logger redacts credentials wherever a line might carry them: the key in
 * `x-api-key` or as `Authorization: Bearer`, in a request's headers or in headers logged alone.
 */
import { Writable } from 'node:stream';
import { createLogger } from '../../../server/logger';

it('writes [redacted] for the key and the Authorization header', () => {
  const lines: string[] = [];
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    }),
  );
  const secret = 'crc_live_secretsecretsecret';
  const headers = { 'x-api-key': secret, authorization: `Bearer ${secret}`, accept: 'application/json' };
  logger.info({ req: { headers } }, 'a request');
  logger.info({ headers }, 'headers alone');
  logger.info({ apiKey: secret, key: secret, token: secret }, 'named fields');
  logger.flush();

  const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(logged.map(({ req, headers: alone, apiKey, key, token }) => ({ req, headers: alone, apiKey, key, token }))).toEqual([
    { req: { headers: { 'x-api-key': '[redacted]', authorization: '[redacted]', accept: 'application/json' } } },
    { headers: { 'x-api-key': '[redacted]', authorization: '[redacted]', accept: 'application/json' } },
    { apiKey: '[redacted]', key: '[redacted]', token: '[redacted]' },
  ]);
  expect(lines.join('')).not.toContain('secret');
});
