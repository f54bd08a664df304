/**
 * The `baseUrl` option: a base ending in /api/v1 is taken as given, a bare origin gets /api/v1
 * added, and any other path is refused when the client is made, with a message naming both forms
 * (rather than every request failing later with "No route for GET …").
 */
import { ExchangeRateClient } from '../../sdk/src';
import { ok, startStub } from './stub';

const FORMS =
  'ExchangeRateClient: "baseUrl" must be the API base, ending in /api/v1 (http://localhost:3000/api/v1, or https://example.com/rates/api/v1 ' +
  'behind a path prefix), or a bare origin (http://localhost:3000), to which /api/v1 is added';

/** What making a client with `baseUrl` throws. */
function refusal(baseUrl: unknown): unknown {
  try {
    new ExchangeRateClient({ apiKey: 'k', baseUrl: baseUrl as string });
  } catch (error) {
    return error;
  }
  throw new Error(`${String(baseUrl)} was accepted`);
}

describe('accepted', () => {
  it.each([
    ['http://localhost:3000', 'http://localhost:3000/api/v1'],
    ['http://localhost:3000/', 'http://localhost:3000/api/v1'],
    ['  https://rates.example.com  ', 'https://rates.example.com/api/v1'],
    ['http://localhost:3000/api/v1', 'http://localhost:3000/api/v1'],
    ['http://localhost:3000/api/v1//', 'http://localhost:3000/api/v1'],
    ['https://example.com/rates/api/v1', 'https://example.com/rates/api/v1'],
    ['/api/v1', '/api/v1'],
  ])('%p is sent to as %p', (given, used) => {
    expect(new ExchangeRateClient({ apiKey: 'k', baseUrl: given }).baseUrl).toBe(used);
  });

  it('a bare origin reaches the routes under /api/v1', async () => {
    const s = await startStub([ok({ status: 'ok' })]);
    try {
      const origin = s.api.replace(/\/api\/v1$/, '');
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await new ExchangeRateClient({ apiKey: 'k', baseUrl: origin }).health();
      await new ExchangeRateClient({ apiKey: 'k', baseUrl: `${origin}/` }).getHistory({ days: 2 });
      expect(s.requests.map((r) => r.url)).toEqual(['/api/v1/health', '/api/v1/exchange-rate/history?days=2']);
    } finally {
      await s.close();
    }
  });
});

describe('refused at construction, with a TypeError naming both forms', () => {
  it.each([
    ['http://localhost:3000/api', 'its path /api is neither'],
    ['http://localhost:3000/v1', 'its path /v1 is neither'],
    ['http://localhost:3000/api/v2', 'its path /api/v2 is neither'],
    ['https://example.com/rates', 'its path /rates is neither'],
    ['http://localhost:3000/api/v1?key=abc', 'a query or fragment would end up in every request'],
    ['http://localhost:3000/#/api/v1', 'a query or fragment would end up in every request'],
    ['ftp://example.com/api/v1', 'ftp: is not http: or https:'],
    ['localhost:3000', 'localhost: is not http: or https:'],
    ['not a url', 'it is not a URL'],
    ['/exchange-rate', 'a path alone must end in /api/v1'],
    ['', 'it is empty or not a string'],
  ])('%p', (given, reason) => {
    const error = refusal(given);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toHaveProperty('message', `${FORMS}; ${reason} (got "${given}")`);
  });

  it('a base URL that is not a string', () => {
    const error = refusal(3000);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toHaveProperty('message', `${FORMS}; it is empty or not a string (got "3000")`);
  });
});
