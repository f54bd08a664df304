/**
 * /api/v1/openapi.json: a valid OpenAPI 3.1 document that says what docs/api.md says and what the
 * server does: every route and only the routes, parameters with their limits, defaults and
 * enumerations, the key scheme, every error code; and real answers, successes and errors, match
 * the schemas it gives for them.
 */
import { WEBHOOK_OPERATIONS } from '../../../server/http/routes/webhook-operations';
import { CURRENCY_CODES } from '../../../shared/currency-catalog';
import { createApiKeysStore } from '../../../server/store/api-keys';
import type { Route } from '../../../server/http/route';
import { isRequired } from '../../../server/http/params';
import { startTestApp, type TestApp } from '../../helpers/app';
import {
  createResponseValidator,
  exampleQuery,
  fetchJson,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
  type ResponseValidator,
  seedExamples,
  validateWithSwaggerParser,
} from './support';

/** docs/api.md: every code and its status. */
const API_ERRORS: Record<string, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

const PUBLIC_PATHS = ['/health', '/openapi.json', '/postman.json'];

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let validator: ResponseValidator;

  const operation = (path: string): OpenApiOperation => {
    const op = doc.paths[path]?.get;
    if (!op) throw new Error(`${path} is not documented`);
    return op;
  };
  const parameter = (path: string, name: string): OpenApiParameter => {
    const found = operation(path).parameters?.find((p) => p.name === name);
    if (!found) throw new Error(`${path} documents no parameter ${name}`);
    return found;
  };
  const route = (path: string): Route => {
    const found = t.app.routes.find((r) => r.path === path);
    if (!found) throw new Error(`no route ${path}`);
    return found;
  };
  /** Readable failure: the path, status, ajv's errors and the body. */
  const expectValid = (path: string, status: number, body: unknown) => {
    const errors = validator.validate(path, status, body);
    expect({ path, status, errors, body }).toEqual({ path, status, errors: [], body });
  };

  beforeAll(async () => {
    t = await startTestApp();
    await seedExamples(t);
    doc = await fetchJson<OpenApiDocument>(`${t.api}/openapi.json`);
    validator = createResponseValidator(doc);
  });
  afterAll(() => t.close());

  describe('the document', () => {
    it('is valid OpenAPI 3.1', async () => {
      expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
      expect(await validateWithSwaggerParser(doc)).toEqual({ valid: true });
      // The check is not vacuous: a broken document is refused.
      const broken = { ...doc, paths: { '/x': { get: { responses: { 200: { content: {} } } } } } };
      expect(await validateWithSwaggerParser(broken)).toEqual(expect.objectContaining({ valid: false }));
    });

    it('points its server at this API, whatever Origin the caller sends', async () => {
      expect(doc.servers).toEqual([{ url: t.api }]);
      const res = await fetch(`${t.api}/openapi.json`, { headers: { origin: 'https://elsewhere.example' } });
      expect(((await res.json()) as OpenApiDocument).servers).toEqual([{ url: t.api }]);
    });

    it('documents exactly the routes the router has: the data routes with GET only, the webhook routes with their methods', () => {
      const routed = t.app.routes.map((r) => r.path);
      expect(new Set(routed).size).toBe(routed.length);
      const webhookPaths = [...new Set(WEBHOOK_OPERATIONS.map((op) => op.path))];
      expect(Object.keys(doc.paths).sort()).toEqual([...routed, ...webhookPaths].sort());
      for (const path of routed) expect([path, Object.keys(doc.paths[path] ?? {})]).toEqual([path, ['get']]);
      for (const path of webhookPaths) {
        expect([path, Object.keys(doc.paths[path] ?? {}).sort()]).toEqual([
          path,
          WEBHOOK_OPERATIONS.filter((op) => op.path === path)
            .map((op) => op.method)
            .sort(),
        ]);
      }
      const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((operation) => (operation as { operationId?: string }).operationId));
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('shows each webhook body example, one its own schema accepts', () => {
      const withExample = WEBHOOK_OPERATIONS.filter((op) => op.example);
      expect(withExample.map((op) => op.id)).toEqual(['create']);
      for (const op of withExample) {
        const operation = doc.paths[op.path]?.[op.method] as { requestBody?: { content: Record<string, { example?: unknown }> } } | undefined;
        expect(operation?.requestBody?.content['application/json']?.example).toEqual(op.example);
        expect(op.body?.safeParse(op.example).success).toBe(true);
      }
    });

    it('documents no path the server does not answer', async () => {
      for (const path of Object.keys(doc.paths)) {
        const res = await fetch(`${t.api}${path}`, { headers: { 'x-api-key': t.key } });
        const body = (await res.json()) as { message?: string };
        // A 404 is fine only when it is the route's own "no data" answer, never "No route for …".
        expect([path, res.status === 404 && /no route/i.test(body.message ?? '')]).toEqual([path, false]);
      }
      const unknown = await fetch(`${t.api}/exchange-rate/nope`, { headers: { 'x-api-key': t.key } });
      expect(unknown.status).toBe(404);
    });

    it('gives every parameter a schema, in the query, required as the route requires it', () => {
      for (const r of t.app.routes) {
        const documented = operation(r.path).parameters ?? [];
        expect([r.path, documented.map((p) => p.name).sort()]).toEqual([r.path, Object.keys(r.query).sort()]);
        for (const p of documented) {
          expect(p.in).toBe('query');
          expect(typeof p.description).toBe('string');
          expect(p.schema).toEqual(expect.objectContaining({ type: expect.stringMatching(/^(string|integer|number)$/) }));
          expect([r.path, p.name, p.required]).toEqual([r.path, p.name, isRequired(r.query[p.name]!)]);
          // A required parameter has nothing to default to.
          if (p.required) expect(p.schema).not.toHaveProperty('default');
        }
      }
    });

    it('gives the limits, defaults and enumerations of docs/api.md', () => {
      const integer = (path: string, name: string) => parameter(path, name).schema;
      expect(integer('/exchange-rate/history', 'days')).toEqual(expect.objectContaining({ type: 'integer', minimum: 1, maximum: 365, default: 30 }));
      expect(integer('/exchange-rate/analytics', 'days')).toEqual(expect.objectContaining({ type: 'integer', minimum: 1, maximum: 20000, default: 30 }));
      expect(integer('/exchange-rate/chart', 'days')).toEqual(expect.objectContaining({ type: 'integer', minimum: 1, maximum: 20000, default: 30 }));
      expect(integer('/exchange-rate/chart', 'points')).toEqual(expect.objectContaining({ type: 'integer', minimum: 2, maximum: 500, default: 90 }));
      expect(parameter('/exchange-rate/stats', 'period').schema).toEqual(
        expect.objectContaining({ type: 'string', enum: ['monthly', 'yearly'], default: 'monthly' }),
      );
      expect(parameter('/convert', 'rate').schema).toEqual(expect.objectContaining({ type: 'string', enum: ['buy', 'sell'], default: 'sell' }));
      for (const side of ['from', 'to']) {
        expect(parameter('/convert', side).schema).toEqual(expect.objectContaining({ enum: ['CRC', ...CURRENCY_CODES] }));
        expect(parameter('/convert', side).required).toBe(false);
      }
      expect(parameter('/convert', 'amount').required).toBe(true);
      expect(parameter('/exchange-rate', 'date')).toEqual(expect.objectContaining({ required: true, schema: expect.objectContaining({ format: 'date' }) }));
      for (const path of ['/exchange-rate/range', '/exchange-rate/stats']) {
        for (const name of ['from', 'to']) {
          expect(parameter(path, name)).toEqual(
            expect.objectContaining({ required: true, schema: expect.objectContaining({ type: 'string', format: 'date' }) }),
          );
        }
      }
      for (const name of ['from', 'to']) expect(parameter('/exchange-rate/analytics', name).required).toBe(false);
      const purposes = ['invoice', 'income-tax', 'consumer-pay-colones', 'consumer-pay-dollars', 'customs'];
      for (const path of ['/exchange-rate', '/exchange-rate/latest', '/convert', '/exchange-rate/close']) {
        expect([path, parameter(path, 'purpose').required, parameter(path, 'purpose').schema]).toEqual([
          path,
          false,
          expect.objectContaining({ type: 'string', enum: purposes }),
        ]);
        expect(parameter(path, 'purpose').schema).not.toHaveProperty('default');
      }
      for (const path of ['/exchange-rate', '/exchange-rate/latest', '/exchange-rate/history', '/exchange-rate/range']) {
        expect([path, parameter(path, 'inverse').schema]).toEqual([
          path,
          expect.objectContaining({ type: 'string', enum: ['true', 'false'], default: 'false' }),
        ]);
      }
    });

    it('states limits and enumerations that the server enforces', async () => {
      for (const r of t.app.routes) {
        for (const p of operation(r.path).parameters ?? []) {
          const schema = p.schema ?? {};
          const probes: Array<[string, boolean]> = [];
          if (schema.type === 'integer') {
            // Every integer parameter of the API is bounded and documented so.
            expect([r.path, p.name, typeof schema.minimum, typeof schema.maximum]).toEqual([r.path, p.name, 'number', 'number']);
            const min = schema.minimum as number;
            const max = schema.maximum as number;
            probes.push([String(min - 1), false], [String(max + 1), false], [String(min), true], [String(max), true]);
            if (schema.default !== undefined) expect(schema.default).toEqual(expect.any(Number));
            if (typeof schema.default === 'number') expect(schema.default >= min && schema.default <= max).toBe(true);
          }
          if (Array.isArray(schema.enum)) {
            probes.push(['nope', false], ...schema.enum.map((value): [string, boolean] => [String(value), true]));
            if (schema.default !== undefined) expect(schema.enum).toContain(schema.default);
          }
          for (const [value, accepted] of probes) {
            const res = await t.get(`${r.path}${exampleQuery(r, { [p.name]: value })}`);
            expect([r.path, p.name, value, res.status === 400]).toEqual([r.path, p.name, value, !accepted]);
          }
        }
      }
    });

    it('has the x-api-key and bearer schemes, either required everywhere but the public routes (CSV answers also take key= in the query)', () => {
      expect(doc.components.securitySchemes).toEqual({
        apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
        bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
        apiKeyInQuery: expect.objectContaining({ type: 'apiKey', in: 'query', name: 'key' }),
      });
      expect(doc.security).toEqual([{ apiKey: [] }, { bearer: [] }]);
      for (const r of t.app.routes) {
        const op = operation(r.path);
        if (PUBLIC_PATHS.includes(r.path)) {
          expect([r.path, op.security]).toEqual([r.path, []]);
          expect(op.responses).not.toHaveProperty('401');
        } else if (r.formats.csv) {
          // Either header or, for the CSV answer, `key=` in the query string.
          expect([r.path, op.security]).toEqual([r.path, [{ apiKey: [] }, { bearer: [] }, { apiKeyInQuery: [] }]]);
          expect(op.responses).toHaveProperty('401');
        } else {
          // No override: the document-wide requirement (the key, in either header) applies.
          expect([r.path, op.security ?? doc.security]).toEqual([r.path, [{ apiKey: [] }, { bearer: [] }]]);
          expect(op.responses).toHaveProperty('401');
          expect(op.responses['401']?.headers).toHaveProperty('WWW-Authenticate');
        }
      }
      expect(
        t.app.routes
          .filter((r) => r.access === 'public')
          .map((r) => r.path)
          .sort(),
      ).toEqual([...PUBLIC_PATHS].sort());
    });

    it('names every error code of docs/api.md, each under its status, in the Error schema', () => {
      const seen = new Map<string, Set<string>>();
      for (const item of Object.values(doc.paths)) {
        for (const [status, response] of Object.entries(item.get?.responses ?? {})) {
          for (const example of Object.values(response.content?.['application/json']?.examples ?? {})) {
            const code = (example.value as { error?: string }).error ?? '';
            seen.set(code, (seen.get(code) ?? new Set()).add(status));
          }
        }
      }
      expect([...seen.keys()].sort()).toEqual(Object.keys(API_ERRORS).sort());
      for (const [code, statuses] of seen) expect([code, [...statuses]]).toEqual([code, [String(API_ERRORS[code])]]);
      expect(doc.components.schemas.Error).toBeDefined();
      expect(validator.validateComponent('Error', { success: false, message: 'x', error: 'SERVICE_UNAVAILABLE' })).toEqual([]);
      expect(validator.validateComponent('Error', { success: false, message: 'x', error: 'TEAPOT' })).not.toEqual([]);
    });

    it('documents the 503 of health and a 404 wherever a route answers one', () => {
      expect(operation('/health').responses).toHaveProperty('503');
      for (const path of [
        '/exchange-rate/latest',
        '/exchange-rate',
        '/exchange-rate/history',
        '/exchange-rate/analytics',
        '/exchange-rate/chart',
        '/exchange-rate/close',
        '/convert',
      ]) {
        expect([path, Object.keys(operation(path).responses)]).toEqual([path, expect.arrayContaining(['200', '401', '404', '405', '429', '500'])]);
      }
    });

    it('has examples that validate against their own schemas', () => {
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [status, response] of Object.entries(item.get?.responses ?? {})) {
          for (const example of Object.values(response.content?.['application/json']?.examples ?? {})) {
            expectValid(path, Number(status), example.value);
          }
        }
      }
    });
  });

  describe('real answers match the documented schemas', () => {
    it('every route with its example parameters answers 200 with a documented body', async () => {
      for (const r of t.app.routes) {
        const { status, body } = await t.get(`${r.path}${exampleQuery(r)}`);
        expect([r.path, status]).toEqual([r.path, 200]);
        expectValid(r.path, status, body);
      }
    });

    it('a 304 is documented wherever If-None-Match gets one', async () => {
      for (const r of t.app.routes) {
        const first = await fetch(`${t.api}${r.path}${exampleQuery(r)}`, { headers: { 'x-api-key': t.key } });
        await first.text();
        // Every success carries a strong ETag (docs/api.md).
        const etag = first.headers.get('etag') ?? '';
        expect([r.path, etag]).toEqual([r.path, expect.stringMatching(/^"[^"]+"$/)]);
        const again = await fetch(`${t.api}${r.path}${exampleQuery(r)}`, { headers: { 'x-api-key': t.key, 'if-none-match': etag } });
        expect(await again.text()).toEqual(again.status === 304 ? '' : expect.stringContaining('{'));
        if (r.cache) expect([r.path, again.status]).toEqual([r.path, 304]);
        if (again.status === 304) expect([r.path, Object.keys(operation(r.path).responses)]).toEqual([r.path, expect.arrayContaining(['304'])]);
      }
    });

    it('400s', async () => {
      const cases: Array<[string, string]> = [
        ['/exchange-rate/history', '?days=0'],
        ['/exchange-rate/history', '?days=1&days=2'],
        ['/exchange-rate', ''],
        ['/exchange-rate', '?date=2024-02-30'],
        ['/exchange-rate/range', '?from=2025-01-31&to=2025-01-01'],
        ['/exchange-rate/analytics', '?days=30&from=2025-01-01&to=2025-01-31'],
        ['/exchange-rate/stats', '?period=weekly&from=2024-01-01&to=2024-12-31'],
        ['/exchange-rate/chart', '?points=1'],
        ['/exchange-rate/close', '?month=2025-13'],
        ['/exchange-rate/close', '?month=9999-12'],
        ['/convert', '?amount=0'],
        ['/convert', '?amount=100&rate=mid'],
      ];
      for (const [path, query] of cases) {
        const { status, body } = await t.get(`${path}${query}`);
        expect([path, query, status, body.error]).toEqual([path, query, 400, 'BAD_REQUEST']);
        expectValid(path, status, body);
      }
    });

    it('401s, without a key and with an unknown one', async () => {
      for (const r of t.app.routes.filter((x) => x.access === 'key')) {
        for (const key of ['', 'crc_live_unknown']) {
          const { status, body } = await t.get(`${r.path}${exampleQuery(r)}`, { 'x-api-key': key });
          expect([r.path, key, status, body.error]).toEqual([r.path, key, 401, 'UNAUTHORIZED']);
          expectValid(r.path, status, body);
        }
      }
    });

    it('404s: a day without a rate, and an unknown route (an Error body)', async () => {
      for (const [path, query] of [
        ['/exchange-rate', '?date=1999-01-01'],
        ['/convert', '?amount=1&date=1999-01-01'],
        ['/exchange-rate/analytics', '?from=1999-01-01&to=1999-01-31'],
        ['/exchange-rate/close', '?month=1999-01'],
      ] as const) {
        const { status, body } = await t.get(`${path}${query}`);
        expect([path, status, body.error]).toEqual([path, 404, 'NOT_FOUND']);
        expectValid(path, status, body);
      }
      const { status, body } = await t.get('/exchange-rate/nope');
      expect([status, body.error]).toEqual([404, 'NOT_FOUND']);
      expect(validator.validateComponent('Error', body)).toEqual([]);
    });

    it('405s on every route, with or without a key', async () => {
      for (const r of t.app.routes) {
        for (const method of ['POST', 'DELETE']) {
          const res = await fetch(`${t.api}${r.path}`, { method, headers: { 'x-api-key': t.key } });
          const body: unknown = await res.json();
          expect([r.path, method, res.status]).toEqual([r.path, method, 405]);
          expectValid(r.path, res.status, body);
        }
      }
      const res = await fetch(`${t.api}/exchange-rate/latest`, { method: 'PUT' });
      expect(res.status).toBe(405);
      expectValid('/exchange-rate/latest', 405, await res.json());
    });

    it('429 RATE_LIMITED, with a key allowed one request a minute', async () => {
      const keys = createApiKeysStore(t.database.db);
      for (const path of ['/exchange-rate/latest', '/convert']) {
        const { key } = await keys.create({ name: `rate-1 ${path}`, plan: 'custom', monthlyQuota: 1000, ratePerMinute: 1 });
        const query = exampleQuery(route(path));
        const first = await t.get(`${path}${query}`, { 'x-api-key': key });
        expect([path, first.status]).toEqual([path, 200]);
        const second = await t.get(`${path}${query}`, { 'x-api-key': key });
        expect([path, second.status, second.body.error]).toEqual([path, 429, 'RATE_LIMITED']);
        expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expectValid(path, second.status, second.body);
      }
    });

    it('429 QUOTA_EXCEEDED, with a key whose month allows one request', async () => {
      const { key } = await createApiKeysStore(t.database.db).create({ name: 'quota-1', plan: 'custom', monthlyQuota: 1, ratePerMinute: 1000 });
      const path = '/exchange-rate/history';
      const query = exampleQuery(route(path));
      expect((await t.get(`${path}${query}`, { 'x-api-key': key })).status).toBe(200);
      const over = await t.get(`${path}${query}`, { 'x-api-key': key });
      expect([over.status, over.body.error]).toEqual([429, 'QUOTA_EXCEEDED']);
      expectValid(path, over.status, over.body);
    });

    it('a provisional record (buy null) is documented on latest and by-date only', () => {
      const provisional = {
        date: '2025-01-15',
        currencyFrom: 'EUR',
        currencyTo: 'CRC',
        buy: null,
        sell: 597.59,
        source: 'Hacienda',
        fetchedAt: '2025-01-15T16:00:00.000Z',
        derived: { indicator: '333', quote: 'usdPerUnit', published: 1.1653, usdDate: '2025-01-15' },
      };
      expect(validator.validate('/exchange-rate/latest', 200, { success: true, data: provisional })).toEqual([]);
      expect(validator.validate('/exchange-rate', 200, { success: true, data: provisional })).toEqual([]);
      expect(validator.validate('/exchange-rate/history', 200, { success: true, data: [provisional] })).not.toEqual([]);
      expect(validator.validate('/exchange-rate/range', 200, { success: true, data: [provisional] })).not.toEqual([]);
      // A null buy from the central bank is not a provisional record.
      expect(validator.validate('/exchange-rate/latest', 200, { success: true, data: { ...provisional, source: 'BCCR' } })).not.toEqual([]);
    });

    it('a body that breaks the schema is caught (the validator is not vacuous)', () => {
      expect(validator.validate('/exchange-rate/latest', 200, { success: true, data: { date: '2025-01-15' } })).not.toEqual([]);
      expect(validator.validate('/exchange-rate/history', 200, { success: true, data: [{ date: '2025-02-30' }] })).not.toEqual([]);
      expect(validator.validate('/exchange-rate/latest', 404, { success: false, message: 'x', error: 'NOPE' })).not.toEqual([]);
    });
  });
});
