/**
 * The key as `Authorization: Bearer <key>` as well as in `x-api-key` (x-api-key wins, and the
 * Authorization header is then not read), a malformed Authorization refused with a 401 that says
 * what is expected, and `WWW-Authenticate` on every 401 naming both ways (RFC 9110 11.6.1).
 */
import { createApiKeysStore } from '../../../server/store/api-keys';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { createKey, send, unknownKey } from './support';

const CHALLENGE = 'ApiKey realm="crc-rates", header="x-api-key", Bearer realm="crc-rates"';
const MISSING = 'An API key is required: send it in the x-api-key header';
const BAD_AUTHORIZATION = 'The Authorization header must be "Bearer <key>" (the key starts with crc_live_); or send the key in the x-api-key header';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock: () => new Date('2025-01-16T05:30:00Z') });
  await t.seed([rate('2025-01-15', 506.47, 512.82)]);
});
afterAll(() => t.close());

/** Only the Authorization header (no x-api-key). */
const bearer = (authorization: string) => ({ 'x-api-key': '', Authorization: authorization });

describe('Authorization: Bearer', () => {
  it('serves a valid key sent as a bearer token, the scheme in any case, and counts it like the header', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const { status, body, headers } = await t.get('/exchange-rate/latest', bearer(`${scheme} ${t.key}`));
      expect([scheme, status, body.success]).toEqual([scheme, 200, true]);
      expect(headers.get('x-quota-limit')).toBe('1000000000');
    }
    const usage = await t.get('/usage', bearer(`Bearer ${t.key}`));
    expect(usage.status).toBe(200);
  });

  it('refuses an Authorization header that is not "Bearer <key>" with a 401 saying what is expected', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', `Bearer ${t.key} extra`, `Token ${t.key}`, t.key]) {
      const { status, body, headers } = await t.get('/exchange-rate/latest', bearer(authorization));
      expect([authorization, status, body]).toEqual([authorization, 401, { success: false, error: 'UNAUTHORIZED', message: BAD_AUTHORIZATION }]);
      expect(headers.get('www-authenticate')).toBe(CHALLENGE);
    }
  });

  it('says what is wrong with a bearer key as it does for the header', async () => {
    const cases: Array<[string, string]> = [
      [`Bearer ${unknownKey()}`, 'The API key is not valid'],
      ['Bearer hello', 'The API key is not valid: check that it was copied whole (it starts with crc_live_)'],
    ];
    const { key, record } = await createKey(t.database.db);
    await createApiKeysStore(t.database.db).revoke(record.id, new Date());
    await t.changes.keysChanged();
    cases.push([`Bearer ${key}`, 'The API key has been revoked']);
    for (const [authorization, message] of cases) {
      const { status, body } = await t.get('/exchange-rate/latest', bearer(authorization));
      expect([authorization, status, body.message]).toEqual([authorization, 401, message]);
    }
  });

  it('lets x-api-key win when both are sent: Authorization is not read at all', async () => {
    // A proxy in front may use Authorization for its own login.
    expect((await t.get('/exchange-rate/latest', { Authorization: 'Basic dXNlcjpwYXNz' })).status).toBe(200);
    expect((await t.get('/exchange-rate/latest', { Authorization: `Bearer ${unknownKey()}` })).status).toBe(200);
    const wrongHeader = await t.get('/exchange-rate/latest', { 'x-api-key': unknownKey(), Authorization: `Bearer ${t.key}` });
    expect([wrongHeader.status, wrongHeader.body.message]).toEqual([401, 'The API key is not valid']);
  });

  it('wins over key= in the query string of a CSV request', async () => {
    const { status, headers } = await t.get(`/exchange-rate/history?days=1&format=csv&key=${unknownKey()}`, bearer(`Bearer ${t.key}`));
    expect([status, headers.get('content-type')]).toEqual([200, 'text/csv; charset=utf-8']);
  });

  it('leaves public routes open whatever Authorization says', async () => {
    expect((await t.get('/health', bearer('Basic dXNlcjpwYXNz'))).status).toBe(200);
    expect((await t.get('/openapi.json', bearer('Bearer nonsense'))).status).toBe(200);
  });
});

describe('WWW-Authenticate', () => {
  it('comes with every 401 of the API, MCP included, and with no other answer', async () => {
    const refusals: Array<[string, Record<string, string>]> = [
      ['missing', { 'x-api-key': '' }],
      ['unknown', { 'x-api-key': unknownKey() }],
      ['malformed', { 'x-api-key': 'hello' }],
      ['bad Authorization', bearer('Basic dXNlcjpwYXNz')],
    ];
    for (const [what, headers] of refusals) {
      for (const path of ['/exchange-rate/latest', '/usage', '/exchange-rate/history?format=csv']) {
        const answer = await t.get(path, headers);
        expect([what, path, answer.status, answer.headers.get('www-authenticate')]).toEqual([what, path, 401, CHALLENGE]);
      }
    }
    const mcp = await send(`${t.api}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect([mcp.status, mcp.body?.message, mcp.headers.get('www-authenticate')]).toEqual([401, MISSING, CHALLENGE]);

    for (const path of ['/exchange-rate/latest', '/health', '/exchange-rate?date=1999-01-01', '/exchange-rate/history?days=0']) {
      const answer = await t.get(path);
      expect([path, answer.status === 401, answer.headers.get('www-authenticate')]).toEqual([path, false, null]);
    }
  });
});

describe('CORS', () => {
  it('lets a browser send Authorization', async () => {
    const answer = await send(`${t.api}/exchange-rate/latest`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    expect(answer.status).toBe(204);
    expect((answer.headers.get('access-control-allow-headers') ?? '').split(',')).toEqual([
      'x-api-key',
      'authorization',
      'content-type',
      'if-none-match',
      'mcp-protocol-version',
    ]);
  });
});
