/**
 * /api/v1/postman.json: a Postman Collection v2.1 with one request per route, the webhook routes
 * included (subscribe, list, ping, deliveries, retry, delete), `{{baseUrl}}` and `{{apiKey}}`,
 * that Newman runs as is against a running server, every assertion green.
 */
import { randomBytes } from 'node:crypto';
import { run as runNewman, type NewmanRunOptions, type NewmanRunSummary } from 'newman';
import { PLACEHOLDER_IDS } from '../../../server/http/postman';
import { WEBHOOK_OPERATIONS } from '../../../server/http/routes/webhook-operations';
import { startTestApp, type TestApp } from '../../helpers/app';
import { call, type Receiver, startReceiver } from '../../helpers/webhooks';
import { exampleDates, fetchJson, seedExamples } from './support';

interface PostmanVariable {
  key: string;
  value: string;
}

interface PostmanRequest {
  method: string;
  header?: PostmanVariable[];
  auth?: { type: string };
  body?: { mode: string; raw: string };
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

/** The webhook requests in the order a run sends them: deleting last. */
const WEBHOOK_ORDER = ['create', 'list', 'test', 'deliveries', 'retry', 'remove'];
const opOf = (id: string) => WEBHOOK_OPERATIONS.find((op) => op.id === id);

describe('Postman collection', () => {
  let t: TestApp;
  let receiver: Receiver;
  let collection: PostmanCollection;
  /** The requests of the read routes, and those of the Webhooks folder. */
  let reads: PostmanItem[];
  let webhooks: PostmanItem[];

  beforeAll(async () => {
    // A server that lets a test subscribe a receiver on 127.0.0.1 over http.
    t = await startTestApp({ webhooks: { sealKey: randomBytes(32), policy: { allowHttp: true, allowPrivate: true } } });
    receiver = await startReceiver();
    const rows = await seedExamples(t);
    // Every example date of the routes is in the data, and so is a latest date (today).
    const seeded = new Set(rows.map((r) => r.date));
    for (const date of exampleDates(t.app.routes)) expect(seeded.has(date)).toBe(true);
    collection = await fetchJson<PostmanCollection>(`${t.api}/postman.json`);
    reads = requestsOf(collection.item.filter((folder) => folder.name !== 'Webhooks'));
    webhooks = requestsOf(collection.item.filter((folder) => folder.name === 'Webhooks'));
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('is a v2.1 collection with {{baseUrl}} and {{apiKey}}', () => {
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(collection.info.name).toEqual(expect.any(String));
    const variables = Object.fromEntries(collection.variable.map((v) => [v.key, v.value]));
    // The webhook requests subscribe {{webhookUrl}} (the example's until set) and fill in the ids as a run goes.
    expect(variables).toEqual({ baseUrl: t.api, apiKey: '', webhookUrl: opOf('create')?.example?.url, ...PLACEHOLDER_IDS });
    // The key goes in the x-api-key header, from {{apiKey}}.
    expect(collection.auth?.type).toBe('apikey');
    expect(Object.fromEntries((collection.auth?.apikey ?? []).map((v) => [v.key, v.value]))).toEqual({ key: 'x-api-key', value: '{{apiKey}}', in: 'header' });
  });

  it('has one GET per route, with its example parameters', () => {
    const requests = reads;
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

  it('has one request per webhook route, from their list: its method, its path with the ids as variables, the example body', () => {
    expect(webhooks.map((item) => item.name)).toEqual(WEBHOOK_ORDER.map((id) => opOf(id)?.summary));
    expect(WEBHOOK_OPERATIONS.map((op) => op.id).sort()).toEqual([...WEBHOOK_ORDER].sort());
    for (const [index, id] of WEBHOOK_ORDER.entries()) {
      const op = opOf(id);
      const request = webhooks[index]?.request;
      const path = op?.path.replace('{id}', '{{webhookId}}').replace('{deliveryId}', '{{deliveryId}}');
      expect([id, request?.method, request?.url.raw, request?.auth?.type ?? 'inherit']).toEqual([
        id,
        op?.method.toUpperCase(),
        `{{baseUrl}}${path}`,
        'inherit',
      ]);
      expect([id, request?.body !== undefined]).toEqual([id, op?.body !== undefined]);
      expect(webhooks[index]?.event?.some((e) => e.listen === 'test' && e.script.exec.join('\n').includes(`to.have.status(${op?.status})`))).toBe(true);
    }
    // The subscribing request sends the route's example, with the receiver of {{webhookUrl}}.
    const create = webhooks[0]?.request;
    expect(create?.header).toEqual([{ key: 'Content-Type', value: 'application/json' }]);
    expect(JSON.parse(create?.body?.raw ?? '{}')).toEqual({ ...opOf('create')?.example, url: '{{webhookUrl}}' });
  });

  it('runs green with Newman against the server, one execution per route', async () => {
    const summary = await newman({
      collection: collection as unknown as NewmanRunOptions['collection'],
      envVar: [
        { key: 'apiKey', value: t.key },
        { key: 'webhookUrl', value: receiver.url },
      ],
      timeoutRequest: 10_000,
    });
    const failures = summary.run.failures.map((f) => `${f.source?.name ?? '?'}: ${f.error.message}`);
    expect(failures).toEqual([]);
    const total = t.app.routes.length + WEBHOOK_OPERATIONS.length;
    expect(summary.run.executions).toHaveLength(total);
    expect(summary.run.stats.requests.failed ?? 0).toBe(0);
    expect(summary.run.stats.assertions.failed ?? 0).toBe(0);
    // Each request asserted something, and every assertion passed.
    expect(summary.run.stats.assertions.total ?? 0).toBeGreaterThanOrEqual(total);
    const readRuns = summary.run.executions.slice(0, t.app.routes.length);
    const webhookRuns = summary.run.executions.slice(t.app.routes.length);
    for (const execution of summary.run.executions) {
      expect(execution.assertions.length).toBeGreaterThan(0);
      expect(execution.assertions.filter((a) => a.error)).toEqual([]);
    }
    for (const execution of readRuns) expect([execution.request.url.getPath(), execution.response.code]).toEqual([execution.request.url.getPath(), 200]);
    // The webhook requests, in order, each with its route's status, on the subscription the first made.
    expect(webhookRuns.map((e) => [e.request.method, e.response.code])).toEqual(WEBHOOK_ORDER.map((id) => [opOf(id)?.method.toUpperCase(), opOf(id)?.status]));
    const created = JSON.parse(webhookRuns[0]?.response.text() ?? '{}') as { data: { id: string; url: string } };
    expect(created.data.url).toBe(receiver.url);
    const delivery = JSON.parse(webhookRuns[2]?.response.text() ?? '{}') as { data: { id: number; type: string } };
    expect(delivery.data.type).toBe('ping');
    expect(webhookRuns.slice(1).map((e) => new URL(e.request.url.toString()).pathname.replace(/^\/api\/v1/, ''))).toEqual([
      '/webhooks',
      `/webhooks/${created.data.id}/test`,
      `/webhooks/${created.data.id}/deliveries`,
      `/webhooks/${created.data.id}/deliveries/${delivery.data.id}/retry`,
      `/webhooks/${created.data.id}`,
    ]);
    // The run deleted what it made.
    expect((await call(t.api, t.key, 'GET', '/webhooks')).body.data).toEqual([]);
    // The requests went to this server, under /api/v1, and covered every route.
    const paths = summary.run.executions.map((e) => {
      const url = new URL(e.request.url.toString());
      expect(url.origin).toBe(t.url);
      return url.pathname.replace(/^\/api\/v1/, '');
    });
    expect(paths.slice(0, t.app.routes.length).sort()).toEqual(t.app.routes.map((r) => r.path).sort());
  });

  it('is refused by the server when {{apiKey}} is left empty (the key really is sent)', async () => {
    const summary = await newman({ collection: collection as unknown as NewmanRunOptions['collection'], timeoutRequest: 10_000 });
    const keyed = t.app.routes.filter((r) => r.access === 'key').length;
    expect(summary.run.failures.length).toBeGreaterThanOrEqual(keyed + WEBHOOK_OPERATIONS.length);
    const codes = summary.run.executions.map((e) => e.response.code);
    expect(codes.slice(0, t.app.routes.length).filter((c) => c === 401)).toHaveLength(keyed);
    // Every webhook request too, those after the failed subscribing on the placeholder ids.
    expect(codes.slice(t.app.routes.length)).toEqual(WEBHOOK_OPERATIONS.map(() => 401));
  });
});
