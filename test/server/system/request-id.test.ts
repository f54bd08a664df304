/**
 * Every answer carries an X-Request-Id, the same one its log line has: the caller's own when it
 * sent a sane one, a fresh and unique one otherwise, on answers and refusals alike.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { rate, startTestApp, type TestApp } from '../../helpers/app';

const logged: Array<{ requestId?: string; path?: string; status?: number }> = [];
const stream = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) logged.push(JSON.parse(line) as (typeof logged)[number]);
    callback();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ logger: pino({ level: 'info' }, stream), clock: () => new Date('2025-01-16T05:30:00Z') });
  await t.seed([rate('2025-01-15', 506.47, 512.82)]);
});
afterAll(() => t.close());

const idOf = (headers: Headers) => headers.get('x-request-id') ?? '';

it('gives every answer, refusals included, an id of its own, and logs the request under it', async () => {
  const answers = [
    await t.get('/exchange-rate/latest'),
    await t.get('/exchange-rate/history?days=0'),
    await t.get('/exchange-rate?date=2001-01-01'),
    await t.get('/exchange-rate/latest', { 'x-api-key': '' }),
    await t.get('/no-such-route'),
  ];
  expect(answers.map((a) => a.status)).toEqual([200, 400, 404, 401, 404]);
  const ids = answers.map((a) => idOf(a.headers));
  for (const id of ids) expect(id).toMatch(/^[\w.-]{8,64}$/);
  for (let i = 0; i < 200; i++) ids.push(idOf((await t.get('/exchange-rate/latest')).headers));
  expect(new Set(ids).size).toBe(ids.length);

  const line = logged.find((l) => l.requestId === ids[1]);
  expect(line).toMatchObject({ path: '/api/v1/exchange-rate/history', status: 400 });
});

it("keeps the caller's id when it is a sane one, and replaces any other", async () => {
  expect(idOf((await t.get('/exchange-rate/latest', { 'x-request-id': 'sheet-42.retry_1' })).headers)).toBe('sheet-42.retry_1');
  for (const insane of ['a'.repeat(65), 'has space', 'semi;colon', 'slash/path', 'quote"d', '%C3%B1']) {
    const id = idOf((await t.get('/exchange-rate/latest', { 'x-request-id': insane })).headers);
    expect(id).not.toBe(insane);
    expect(id).toMatch(/^[\w.-]{8,64}$/);
  }
});
