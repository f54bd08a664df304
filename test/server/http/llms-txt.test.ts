/**
 * /llms.txt: public plain text at the site's root that lists every route under /api/v1 with each
 * of its parameters (in the words of the real 400 message), an example address that answers 200,
 * and the limits the server actually applies.
 */
import { LIMITS } from '../../../shared/limits';
import { PLANS } from '../../../shared/plans';
import { isRequired } from '../../../server/http/params';
import type { Route } from '../../../server/http/route';
import { TOOLS } from '../../../server/mcp/tools';
import { createApiKeysStore } from '../../../server/store/api-keys';
import { startTestApp, type TestApp } from '../../helpers/app';
import { seedExamples } from '../system/support';

/** Not the address the test server listens at: every absolute address must come from here. */
const PUBLIC_URL = 'https://rates.example.test';
const API = `${PUBLIC_URL}/api/v1`;

describe('GET /llms.txt', () => {
  let t: TestApp;
  let text: string;

  /** The lines of a route's entry: its own line, then its indented items. */
  const entryOf = (route: Route): string[] => {
    const lines = text.split('\n');
    const start = lines.findIndex((line) => line.startsWith(`- \`GET ${route.path}\`: `));
    if (start < 0) throw new Error(`${route.path} is not listed`);
    const end = lines.findIndex((line, i) => i > start && !line.startsWith('  - '));
    return lines.slice(start, end < 0 ? undefined : end);
  };
  const parameterLines = (route: Route) => entryOf(route).filter((line) => /^ {2}- `/.test(line));
  const exampleOf = (route: Route): string => {
    const line = entryOf(route).find((l) => l.startsWith('  - Example: '));
    if (!line) throw new Error(`${route.path} has no example`);
    return line.slice('  - Example: '.length);
  };
  /** The route's example address, sent to the test server instead of the public one. */
  const local = (url: string) => `${t.url}${url.slice(PUBLIC_URL.length)}`;

  beforeAll(async () => {
    // A trailing slash, as an operator may write it: the addresses must not get a double one.
    t = await startTestApp({ publicUrl: `${PUBLIC_URL}/` });
    await seedExamples(t);
    text = await (await fetch(`${t.url}/llms.txt`)).text();
  });
  afterAll(() => t.close());

  it('is public plain text, cached for an hour, with a strong ETag that answers 304', async () => {
    const response = await fetch(`${t.url}/llms.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(await response.text()).toBe(text);

    const again = await fetch(`${t.url}/llms.txt`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('is served at the root only, not under /api/v1', async () => {
    expect((await fetch(`${t.api}/llms.txt`)).status).toBe(404);
  });

  it('follows the llms.txt layout: a title, a one-paragraph summary, then sections', () => {
    const lines = text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['# crc-rates API', '']);
    expect(lines[2]).toMatch(/^> The official USD\/CRC exchange rate of the Banco Central de Costa Rica \(BCCR\).* buy and sell .* since 1983,/);
    expect(lines[3]).toBe('');
    expect(lines.filter((line) => line.startsWith('# '))).toHaveLength(1);
    const sections = lines.filter((line) => line.startsWith('## '));
    for (const tag of new Set(t.app.routes.map((r) => r.tag))) expect(sections).toContain(`## ${tag}`);
    expect(sections).toEqual(expect.arrayContaining(['## Base URL and authentication', '## Limits', '## Documents, formats and AI clients']));
  });

  it('gives the base URL from the public address, and how to send and get a key', () => {
    expect(text).toContain(`- Base URL: ${API} (every path below is relative to it).`);
    expect(text).toContain('send your key in the `x-api-key` header');
    expect(text).toContain(`request-access form at ${PUBLIC_URL}/en#request`);
    expect(text).toContain(`\`POST ${PUBLIC_URL}/request-access\``);
    expect(text).toContain('`npm run keys -- create --name NAME --plan pro`');
    expect(text).toContain('Public routes need no key: `/health`, `/openapi.json` and `/postman.json`.');
    // Never the address the request came to.
    expect(text).not.toContain(t.url);
  });

  it('lists every route under /api/v1 with its summary and exactly its parameters', () => {
    expect(t.app.routes.length).toBeGreaterThan(15);
    for (const route of t.app.routes) {
      const [own] = entryOf(route);
      const heading = `- \`GET ${route.path}\`: ${route.summary}. ${route.access === 'public' ? 'Public, no key.' : 'Needs a key.'}`;
      expect([route.path, own?.startsWith(heading)]).toEqual([route.path, true]);
      const names = parameterLines(route).map((line) => /^ {2}- `(\w+)`/.exec(line)?.[1]);
      expect([route.path, names]).toEqual([route.path, Object.keys(route.query)]);
      for (const [name, schema] of Object.entries(route.query)) {
        const line = parameterLines(route).find((l) => l.startsWith(`  - \`${name}\` (`)) ?? '';
        expect([route.path, name, line.includes('(required)')]).toEqual([route.path, name, isRequired(schema)]);
      }
      if (Object.keys(route.query).length === 0) expect(entryOf(route)).toContain('  - No parameters.');
    }
  });

  it('says what each parameter expects in the very words of its 400 message', async () => {
    let checked = 0;
    for (const route of t.app.routes) {
      for (const name of Object.keys(route.query)) {
        const query = new URLSearchParams({ ...route.example, [name]: '~' });
        const { status, body } = await t.get(`${route.path}?${query}`);
        expect([route.path, name, status]).toEqual([route.path, name, 400]);
        const expectation = /^Parameter "\w+" must be (.+) \(got "~"\)$/.exec(body.message ?? '')?.[1];
        expect([route.path, name, expectation]).toEqual([route.path, name, expect.any(String)]);
        const line = parameterLines(route).find((l) => l.startsWith(`  - \`${name}\` (`)) ?? '';
        expect([route.path, line]).toEqual([route.path, expect.stringContaining(`: must be ${expectation}.`)]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(25);
  });

  it('writes the defaults the server applies', () => {
    const history = t.app.routes.find((r) => r.path === '/exchange-rate/history');
    if (!history) throw new Error('no /exchange-rate/history');
    const { minDays, maxDays, defaultDays } = LIMITS.history;
    expect(parameterLines(history).find((line) => line.startsWith('  - `days` ('))).toBe(
      `  - \`days\` (optional, default \`${defaultDays}\`): must be an integer from ${minDays} to ${maxDays}. How many calendar days.`,
    );
  });

  it('gives each route an absolute example address on the public URL that answers 200', async () => {
    for (const route of t.app.routes) {
      const example = new URL(exampleOf(route));
      expect([route.path, example.origin, example.pathname]).toEqual([route.path, PUBLIC_URL, `/api/v1${route.path}`]);
      expect([route.path, Object.fromEntries(example.searchParams)]).toEqual([route.path, route.example ?? {}]);
      const response = await fetch(local(example.href), { headers: { 'x-api-key': t.key } });
      await response.text();
      expect([route.path, response.status]).toEqual([route.path, 200]);
    }
  });

  it('states the limits the server applies, from the shared constants', async () => {
    const { perMinute, windowSeconds } = LIMITS.rateLimit;
    expect(text).toContain(
      `- Per minute: ${perMinute} requests per ${windowSeconds} s per key (per client IP without a key) on every route under /api/v1, except \`/usage\` and \`/health\`.`,
    );
    const pro = PLANS.pro;
    expect(text).toContain(
      `- Pro: ${pro.monthlyQuota.toLocaleString('en-US')} requests per month and ${pro.ratePerMinute} per minute, US$${pro.priceUsdPerMonth.toFixed(2)} per month; request it at ${PUBLIC_URL}/en?plan=pro#request.`,
    );
    expect(text).toContain(`- ${PLANS.custom.label}: limits of your own, monthly and per minute`);
    expect(text).toContain('(`/usage` never does)');

    // And they are the server's own: what a Pro key is told in its headers.
    const { key } = await createApiKeysStore(t.database.db).create({ name: 'llms pro', plan: 'pro' });
    const { headers } = await t.get('/exchange-rate/latest', { 'x-api-key': key });
    expect(headers.get('x-ratelimit-limit')).toBe(String(perMinute));
    expect(headers.get('x-quota-limit')).toBe(String(pro.monthlyQuota));
  });

  it('links the documents and describes every other format and the MCP server', async () => {
    expect(text).toContain(`- [OpenAPI 3.1 document](${API}/openapi.json)`);
    expect(text).toContain(`- [Postman collection](${API}/postman.json)`);
    expect(text).toContain(`- [API reference](${PUBLIC_URL}/docs)`);
    for (const path of ['/api/v1/openapi.json', '/api/v1/postman.json', '/docs']) {
      const response = await fetch(`${t.url}${path}`);
      await response.text();
      expect([path, response.status]).toEqual([path, 200]);
    }

    const formats = new Set(t.app.routes.flatMap((r) => Object.keys(r.formats)));
    expect(formats.size).toBeGreaterThan(0);
    for (const name of formats) {
      const line = text.split('\n').find((l) => l.startsWith(`- \`format=${name}\` (`)) ?? '';
      for (const route of t.app.routes) {
        expect([name, route.path, line.includes(`\`${route.path}\``)]).toEqual([name, route.path, Boolean(route.formats[name])]);
      }
    }
    expect(text).toContain('- `format=html` (`text/html`) on `/exchange-rate/provenance`: ');

    expect(text).toContain(`\`POST ${API}/mcp\``);
    expect(text).toContain('`npm run mcp`');
    expect(text).toContain('reads `CRC_RATES_API_KEY` and `CRC_RATES_BASE_URL`');
    for (const tool of TOOLS) expect(text).toContain(`\`${tool.name}\` (\`${tool.path}\`)`);
    // The endpoint is there, and keyed like REST.
    const mcp = await fetch(`${t.api}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await mcp.text();
    expect(mcp.status).toBe(401);
  });
});
