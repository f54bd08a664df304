/**
 * /api/v1/postman.json: a Postman Collection v2.1 with one request per route, `{{baseUrl}}` and
 * `{{apiKey}}`, that Newman runs as is against a running server, every assertion green.
 */
import { run as runNewman, type NewmanRunOptions, type NewmanRunSummary } from 'newman';
import { startTestApp, type TestApp } from '../../helpers/app';
import { exampleDates, fetchJson, seedExamples } from './support';

interface PostmanVariable {
  key: string;
  value: string;
}

interface PostmanRequest {
  method: string;
  header?: PostmanVariable[];
  auth?: { type: string };
  url: { raw: string; host: string[]; path: string[]; query?: PostmanVariable[] };
}

interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: PostmanRequest;
  event?: Array<{ listen: string; script: { exec: string[] } }>;
}

interface PostmanCollection {
  info: { name: string; schema: string };
  auth?: { type: string; apikey?: PostmanVariable[] };
  variable: PostmanVariable[];
  item: PostmanItem[];
}

const requestsOf = (items: readonly PostmanItem[]): PostmanItem[] => items.flatMap((i) => (i.item ? requestsOf(i.item) : [i]));

function newman(options: NewmanRunOptions): Promise<NewmanRunSummary> {
  return new Promise((resolve, reject) => {
    runNewman(options, (error, summary) => (error ? reject(error) : resolve(summary)));
  });
}

describe('Postman collection', () => {
  let t: TestApp;
  let collection: PostmanCollection;

  beforeAll(async () => {
    t = await startTestApp();
    const rows = await seedExamples(t);
    // Every example date of the routes is in the data, and so is a latest date (today).
    const seeded = new Set(rows.map((r) => r.date));
    for (const date of exampleDates(t.app.routes)) expect(seeded.has(date)).toBe(true);
    collection = await fetchJson<PostmanCollection>(`${t.api}/postman.json`);
  });
  afterAll(() => t.close());

  it('is a v2.1 collection with {{baseUrl}} and {{apiKey}}', () => {
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(collection.info.name).toEqual(expect.any(String));
    const variables = Object.fromEntries(collection.variable.map((v) => [v.key, v.value]));
    expect(variables).toEqual({ baseUrl: t.api, apiKey: '' });
    // The key goes in the x-api-key header, from {{apiKey}}.
    expect(collection.auth?.type).toBe('apikey');
    expect(Object.fromEntries((collection.auth?.apikey ?? []).map((v) => [v.key, v.value]))).toEqual({ key: 'x-api-key', value: '{{apiKey}}', in: 'header' });
  });

  it('has one GET per route, with its example parameters', () => {
    const requests = requestsOf(collection.item);
    expect(requests).toHaveLength(t.app.routes.length);
    const byPath = new Map(requests.map((item) => [`/${item.request?.url.path.join('/')}`, item]));
    expect([...byPath.keys()].sort()).toEqual(t.app.routes.map((r) => r.path).sort());
    for (const route of t.app.routes) {
      const item = byPath.get(route.path);
      const request = item?.request;
      expect(request?.method).toBe('GET');
      expect(request?.url.host).toEqual(['{{baseUrl}}']);
      expect(request?.url.raw.split('?')[0]).toBe(`{{baseUrl}}${route.path}`);
      expect([route.path, Object.fromEntries((request?.url.query ?? []).map((q) => [q.key, q.value]))]).toEqual([route.path, route.example ?? {}]);
      // Public routes send no key; keyed ones inherit the collection's.
      expect([route.path, request?.auth?.type ?? 'inherit']).toEqual([route.path, route.access === 'public' ? 'noauth' : 'inherit']);
      expect(item?.event?.some((e) => e.listen === 'test' && e.script.exec.join('\n').includes('pm.test('))).toBe(true);
    }
  });

  it('runs green with Newman against the server, one execution per route', async () => {
    const summary = await newman({
      collection: collection as unknown as NewmanRunOptions['collection'],
      envVar: [{ key: 'apiKey', value: t.key }],
      timeoutRequest: 10_000,
    });
    const failures = summary.run.failures.map((f) => `${f.source?.name ?? '?'}: ${f.error.message}`);
    expect(failures).toEqual([]);
    expect(summary.run.executions).toHaveLength(t.app.routes.length);
    expect(summary.run.stats.requests.failed ?? 0).toBe(0);
    expect(summary.run.stats.assertions.failed ?? 0).toBe(0);
    // Each request asserted something, and every assertion passed.
    expect(summary.run.stats.assertions.total ?? 0).toBeGreaterThanOrEqual(t.app.routes.length);
    for (const execution of summary.run.executions) {
      expect(execution.assertions.length).toBeGreaterThan(0);
      expect(execution.assertions.filter((a) => a.error)).toEqual([]);
      expect([execution.request.url.getPath(), execution.response.code]).toEqual([execution.request.url.getPath(), 200]);
    }
    // The requests went to this server, under /api/v1, and covered every route.
    const paths = summary.run.executions.map((e) => {
      const url = new URL(e.request.url.toString());
      expect(url.origin).toBe(t.url);
      return url.pathname.replace(/^\/api\/v1/, '');
    });
    expect(paths.sort()).toEqual(t.app.routes.map((r) => r.path).sort());
  });

  it('is refused by the server when {{apiKey}} is left empty (the key really is sent)', async () => {
    const summary = await newman({ collection: collection as unknown as NewmanRunOptions['collection'], timeoutRequest: 10_000 });
    const keyed = t.app.routes.filter((r) => r.access === 'key').length;
    expect(summary.run.failures.length).toBeGreaterThanOrEqual(keyed);
    const codes = summary.run.executions.map((e) => e.response.code);
    expect(codes.filter((c) => c === 401)).toHaveLength(keyed);
  });
});
