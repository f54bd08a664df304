/**
 * The site's request-access form (docs/api.md): JSON or form bodies are stored for
 * the operators, invalid input is a 400 naming the field, a browser gets a thank-you page, and one
 * address can send only so many.
 */
import pino from 'pino';
import { startTestApp, type TestApp } from '../../helpers/app';
import { createAccessRequestsStore } from '../../../server/store/access-requests';
import { headerNumber, send } from './support';

let t: TestApp;
beforeAll(async () => {
  // Behind a trusted proxy, so that each test can be a different address with its own limit.
  t = await startTestApp({ trustProxy: true });
});
afterAll(() => t.close());

let addresses = 0;
/** A client address of its own for each test. */
const newAddress = () => {
  addresses += 1;
  return `198.51.100.${addresses}`;
};

function postJson(ip: string, body: unknown, headers: Record<string, string> = {}) {
  return send(`${t.url}/request-access`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Forwarded-For': ip, ...headers },
    body: JSON.stringify(body),
  });
}

function postForm(ip: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return send(`${t.url}/request-access`, { method: 'POST', headers: { 'X-Forwarded-For': ip, ...headers }, body: new URLSearchParams(fields) });
}

const stored = () => createAccessRequestsStore(t.database.db).list();

it('stores a JSON request', async () => {
  const answer = await postJson(newAddress(), {
    name: ' Ana Mora ',
    email: 'ana@example.com',
    company: 'Finca Sol',
    plan: 'Pro',
    message: 'For our invoices.',
  });
  expect(answer.status).toBe(201);
  expect(answer.body).toEqual({ success: true, data: { id: expect.any(Number), received: true } });
  const id = (answer.body?.data as { id: number } | undefined)?.id;
  expect((await stored()).find((r) => r.id === id)).toEqual({
    id,
    name: 'Ana Mora',
    email: 'ana@example.com',
    company: 'Finca Sol',
    plan: 'pro',
    message: 'For our invoices.',
    createdAt: expect.any(String),
  });
});

it('stores a form request, optional fields left out', async () => {
  const answer = await postForm(newAddress(), { name: 'Luis', email: 'luis@example.org', plan: 'custom' });
  expect(answer.status).toBe(201);
  const id = (answer.body?.data as { id: number } | undefined)?.id;
  expect((await stored()).find((r) => r.id === id)).toMatchObject({ name: 'Luis', email: 'luis@example.org', company: null, plan: 'custom', message: null });
});

it.each([
  ['a bad email', { name: 'Ana', email: 'ana-at-example.com', plan: 'pro' }, 'email'],
  ['a missing name', { email: 'ana@example.com', plan: 'pro' }, 'name'],
  ['a blank name', { name: '   ', email: 'ana@example.com', plan: 'pro' }, 'name'],
  ['an unknown plan', { name: 'Ana', email: 'ana@example.com', plan: 'enterprise' }, 'plan'],
])('answers %s with a 400 naming the field, and stores nothing', async (_, body, field) => {
  const before = (await stored()).length;
  for (const answer of [await postJson(newAddress(), body), await postForm(newAddress(), body as Record<string, string>)]) {
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, error: 'BAD_REQUEST', message: expect.stringContaining(`"${field}"`) });
  }
  expect(await stored()).toHaveLength(before);
});

it('stores the fields without control characters, a message with its line breaks', async () => {
  const answer = await postJson(newAddress(), {
    name: '\u001b[2J\u001b[31mMallory\u001b]0;pwned\u0007',
    email: 'mallory@example.com\u0000',
    company: 'Evil\u202e Corp\r\n',
    plan: 'pro',
    message: 'first line\r\nsecond\u001b[A line\r\n',
  });
  expect(answer.status).toBe(201);
  expect((await stored()).find((r) => r.email === 'mallory@example.com')).toEqual(
    expect.objectContaining({ name: '[2J [31mMallory ]0;pwned', company: 'Evil Corp', message: 'first line\nsecond [A line' }),
  );
});

it('takes ten requests from one address in ten minutes, and refuses the eleventh', async () => {
  const ip = newAddress();
  for (let i = 0; i < 10; i += 1) {
    const answer = await postJson(ip, { name: `Visitor ${i}`, email: `v${i}@example.com`, plan: 'pro' });
    expect(answer.status).toBe(201);
    expect(headerNumber(answer, 'X-RateLimit-Remaining')).toBe(9 - i);
  }
  const refused = await postJson(ip, { name: 'Visitor 11', email: 'v11@example.com', plan: 'pro' });
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual({ success: false, error: 'RATE_LIMITED', message: expect.any(String) });
  const retryAfter = headerNumber(refused, 'Retry-After');
  // The message states the form's own window, not the API's minute.
  expect(refused.body?.message).toBe(`Rate limit of 10 requests per 10 minutes exceeded; retry in ${retryAfter} s`);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(600);
  expect((await stored()).filter((r) => r.name === 'Visitor 11')).toEqual([]);
  // Another address is not affected.
  expect((await postJson(newAddress(), { name: 'Next door', email: 'n@example.com', plan: 'pro' })).status).toBe(201);
});

it('counts the address the trusted proxy saw, whatever a client writes to the left of X-Forwarded-For', async () => {
  const ip = newAddress();
  const statuses: number[] = [];
  for (let i = 0; i < 12; i += 1) {
    const spoofed = await postJson(`10.66.0.${i}, ${ip}`, { name: `Spoofer ${i}`, email: `s${i}@example.com`, plan: 'pro' });
    statuses.push(spoofed.status);
  }
  expect(statuses).toEqual([...Array(10).fill(201), 429, 429]);
});

it('answers malformed JSON with a 400 and a body over the limit with a 413, logging no error', async () => {
  const logged: string[] = [];
  const quiet = await startTestApp({
    database: t.database,
    trustProxy: true,
    logger: pino({ level: 'warn' }, { write: (line: string) => logged.push(line) }),
  });
  try {
    const post = (body: string) =>
      send(`${quiet.url}/request-access`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Forwarded-For': newAddress() }, body });
    const malformed = await post('{"name": "Ana", ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ success: false, error: 'BAD_REQUEST', message: 'The body is not valid JSON or form data' });
    const oversized = await post(JSON.stringify({ name: 'Ana', email: 'ana@example.com', plan: 'pro', message: 'x'.repeat(20_000) }));
    expect(oversized.status).toBe(413);
    expect(oversized.body).toEqual({ success: false, error: 'PAYLOAD_TOO_LARGE', message: 'The body must be at most 16 KB' });
    expect(logged).toEqual([]);
  } finally {
    await quiet.close();
  }
});
