/**
 * Keys never reach the logs: not whole, not hashed, not as more than the few characters a person
 * needs to tell keys apart. The logger here has no redaction of its own, so this is about what the
 * service chooses to log, at the most verbose level, on answers, refusals and failures alike.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { hashKey, KEY_PREFIX } from '../../../server/store/api-keys';
import { createKey, send } from './support';

const lines: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    lines.push(chunk.toString());
    callback();
  },
});

/** What of a key must never be written down. */
function secretsOf(key: string): string[] {
  const hash = hashKey(key);
  return [
    key,
    hash,
    hash.toUpperCase(),
    Buffer.from(hash, 'hex').toString('base64'),
    Buffer.from(hash, 'hex').toString('base64url'),
    key.slice(0, KEY_PREFIX.length + 5),
  ];
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ logger: pino({ level: 'debug' }, stream), clock: () => new Date('2025-01-16T05:30:00Z') });
  await t.seed([rate('2025-01-15', 506.47, 512.82)]);
});
afterAll(() => t.close());

it('logs requests and failures without any part of a key beyond its shown prefix', async () => {
  const quotaOne = await createKey(t.database.db, { monthlyQuota: 1 });
  const rateOne = await createKey(t.database.db, { ratePerMinute: 1 });
  const near = `${t.key.slice(0, -1)}${t.key.endsWith('A') ? 'B' : 'A'}`;
  const sent = [t.key, quotaOne.key, rateOne.key, near];

  // Answers, refusals and a 304 with a real key (one also in the query string, where it does not belong).
  const served = await t.get('/exchange-rate/latest');
  expect(served.status).toBe(200);
  expect((await t.get(`/exchange-rate/latest?x-api-key=${t.key}&apiKey=${t.key}`)).status).toBe(200);
  expect((await send(`${t.api}/exchange-rate/latest`, { headers: { 'x-api-key': t.key, 'If-None-Match': served.headers.get('etag') ?? '' } })).status).toBe(
    304,
  );
  expect((await t.get('/exchange-rate/history?days=0')).status).toBe(400);
  expect((await t.get('/exchange-rate?date=2001-01-01')).status).toBe(404);
  expect((await t.get('/usage')).status).toBe(200);
  expect((await t.get('/no-such-route')).status).toBe(404);
  expect((await send(`${t.api}/exchange-rate/latest`, { method: 'POST', headers: { 'x-api-key': t.key } })).status).toBe(405);
  // Wrong keys: one character off, and the real key with something stuck to it.
  expect((await t.get('/exchange-rate/latest', { 'x-api-key': near })).status).toBe(401);
  expect((await t.get('/exchange-rate/latest', { 'x-api-key': `${t.key}zz` })).status).toBe(401);
  // The key as a bearer token: served, refused, and in a malformed Authorization header.
  expect((await t.get('/exchange-rate/latest', { 'x-api-key': '', Authorization: `Bearer ${t.key}` })).status).toBe(200);
  expect((await t.get('/exchange-rate/latest', { 'x-api-key': '', Authorization: `Bearer ${near}` })).status).toBe(401);
  expect((await t.get('/exchange-rate/latest', { 'x-api-key': '', Authorization: `Token ${t.key}` })).status).toBe(401);
  // Over the quota, over the rate.
  expect((await t.get('/exchange-rate/latest', { 'x-api-key': quotaOne.key })).status).toBe(200);
  expect((await t.get('/exchange-rate/latest', { 'x-api-key': quotaOne.key })).body.error).toBe('QUOTA_EXCEEDED');
  expect((await t.get('/exchange-rate/latest', { 'x-api-key': rateOne.key })).status).toBe(200);
  expect((await t.get('/exchange-rate/latest', { 'x-api-key': rateOne.key })).body.error).toBe('RATE_LIMITED');

  // Failures that are logged in full: the quota cannot be counted, then the key cannot be looked up.
  await t.database.db.raw('ALTER TABLE api_usage RENAME TO api_usage_away');
  // A key with no quota reserved yet, so counting it has to reach the (missing) table.
  const uncounted = await createKey(t.database.db);
  sent.push(uncounted.key);
  const noUsage = await t.get('/exchange-rate/latest', { 'x-api-key': uncounted.key });
  await t.database.db.raw('ALTER TABLE api_usage_away RENAME TO api_usage');
  // A key never looked up before, so the lookup has to reach the (missing) table.
  const fresh = await createKey(t.database.db);
  sent.push(fresh.key);
  await t.database.db.raw('ALTER TABLE api_keys RENAME TO api_keys_away');
  const noKeys = await t.get('/exchange-rate/latest', { 'x-api-key': fresh.key });
  await t.database.db.raw('ALTER TABLE api_keys_away RENAME TO api_keys');
  for (const failed of [noUsage, noKeys]) {
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ success: false, error: 'INTERNAL_ERROR', message: 'Internal server error' });
  }

  await new Promise<void>((resolve) => setImmediate(resolve));
  const log = lines.join('');
  // The logs did see all of that: a line per request, and the failures with their errors.
  expect(lines.length).toBeGreaterThanOrEqual(17);
  const failures = lines.filter((line) => line.includes('request failed'));
  expect(failures).toHaveLength(2);
  expect(failures[0]).toContain('relation \\"api_usage\\" does not exist');
  expect(failures[1]).toContain('relation \\"api_keys\\" does not exist');
  for (const key of sent) {
    for (const secret of secretsOf(key)) {
      expect([secret, log.includes(secret)]).toEqual([secret, false]);
    }
  }
});
