/**
 * A Postman Collection v2.1 of every route, generated from the route lists: one request per
 * endpoint with example parameters, `{{baseUrl}}` and `{{apiKey}}` variables, and a test that
 * the answer succeeded. The webhook routes (routes/webhook-operations.ts) come last, in an order a
 * run can follow: subscribe `{{webhookUrl}}`, list, ping, read the deliveries, retry one, delete,
 * each answer leaving the ids the next requests need in `{{webhookId}}` and `{{deliveryId}}`.
 * Newman runs it as is against a running server.
 */
import type { Route } from './route';
import { WEBHOOK_OPERATIONS, type WebhookOperation, type WebhookOperationId } from './routes/webhook-operations';

const SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

function testScript(route: Route): string[] {
  if (route.raw) {
    return [
      "pm.test('answers 200 with a JSON document', function () {",
      '  pm.response.to.have.status(200);',
      "  pm.expect(pm.response.json()).to.be.an('object');",
      '});',
    ];
  }
  return ["pm.test('success is true', function () {", '  pm.response.to.have.status(200);', '  pm.expect(pm.response.json().success).to.eql(true);', '});'];
}

function request(route: Route) {
  const query = Object.entries(route.example ?? {}).map(([key, value]) => ({ key, value }));
  const search = query.length ? `?${query.map((q) => `${q.key}=${encodeURIComponent(q.value)}`).join('&')}` : '';
  return {
    name: route.summary,
    event: [{ listen: 'test', script: { type: 'text/javascript', exec: testScript(route) } }],
    request: {
      method: 'GET',
      header: [],
      ...(route.access === 'public' ? { auth: { type: 'noauth' } } : {}),
      description: route.description ?? route.summary,
      url: {
        raw: `{{baseUrl}}${route.path}${search}`,
        host: ['{{baseUrl}}'],
        path: route.path.split('/').filter(Boolean),
        ...(query.length ? { query } : {}),
      },
    },
  };
}

/** The webhook routes' path parameters, as the collection variables that hold them. */
const PATH_VARIABLES: Record<string, string> = { id: 'webhookId', deliveryId: 'deliveryId' };

export const PLACEHOLDER_IDS = { webhookId: 'wh_set_by_subscribing', deliveryId: '1' } as const;

/** What an answer leaves for the requests after it: the new subscription's id, the newest delivery's. */
const CAPTURES: Partial<Record<WebhookOperationId, string>> = {
  create: "pm.collectionVariables.set('webhookId', pm.response.json().data.id);",
  deliveries: "pm.collectionVariables.set('deliveryId', String(pm.response.json().data[0].id));",
};

function webhookTestScript(op: WebhookOperation): string[] {
  const capture = CAPTURES[op.id];
  return [
    `pm.test('answers ${op.status}${op.response ? ' and success is true' : ''}', function () {`,
    `  pm.response.to.have.status(${op.status});`,
    ...(op.response ? ['  pm.expect(pm.response.json().success).to.eql(true);'] : []),
    '});',
    ...(capture ? [`if (pm.response.code === ${op.status}) ${capture}`] : []),
  ];
}

function webhookRequest(op: WebhookOperation) {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => `{{${PATH_VARIABLES[name] ?? name}}}`);
  // The example's URL is the collection's {{webhookUrl}}, so a run subscribes the receiver it names.
  const body = op.example ? { ...op.example, ...('url' in op.example ? { url: '{{webhookUrl}}' } : {}) } : null;
  return {
    name: op.summary,
    event: [{ listen: 'test', script: { type: 'text/javascript', exec: webhookTestScript(op) } }],
    request: {
      method: op.method.toUpperCase(),
      header: body ? [{ key: 'Content-Type', value: 'application/json' }] : [],
      description: op.description,
      ...(body ? { body: { mode: 'raw', raw: JSON.stringify(body, null, 2), options: { raw: { language: 'json' } } } } : {}),
      url: { raw: `{{baseUrl}}${path}`, host: ['{{baseUrl}}'], path: path.split('/').filter(Boolean) },
    },
  };
}

/** The example URL of the subscribing route: the default of {{webhookUrl}}. */
function exampleWebhookUrl(): string {
  const url = WEBHOOK_OPERATIONS.find((op) => typeof op.example?.url === 'string')?.example?.url;
  return typeof url === 'string' ? url : '';
}

export function createPostmanCollection(routes: readonly Route[], publicUrl: string) {
  const tags = [...new Set(routes.map((r) => r.tag))];
  return {
    info: {
      name: 'crc-rates API',
      description:
        'The official USD/CRC exchange rate of Costa Rica’s central bank. Set {{apiKey}} to your key, and {{webhookUrl}} to a receiver of yours before running the Webhooks folder.',
      schema: SCHEMA,
    },
    auth: {
      type: 'apikey',
      apikey: [
        { key: 'key', value: 'x-api-key', type: 'string' },
        { key: 'value', value: '{{apiKey}}', type: 'string' },
        { key: 'in', value: 'header', type: 'string' },
      ],
    },
    variable: [
      { key: 'baseUrl', value: `${publicUrl}/api/v1`, type: 'string' },
      { key: 'apiKey', value: '', type: 'string' },
      { key: 'webhookUrl', value: exampleWebhookUrl(), type: 'string' },
      // Filled in by a run; until then well-formed ids of nothing, so that a request sent alone gets a clear 404.
      { key: 'webhookId', value: PLACEHOLDER_IDS.webhookId, type: 'string' },
      { key: 'deliveryId', value: PLACEHOLDER_IDS.deliveryId, type: 'string' },
    ],
    item: [
      ...tags.map((tag) => ({ name: tag, item: routes.filter((r) => r.tag === tag).map(request) })),
      // Deleting last, so that the requests before it have a subscription to work on.
      {
        name: 'Webhooks',
        item: [...WEBHOOK_OPERATIONS.filter((op) => op.method !== 'delete'), ...WEBHOOK_OPERATIONS.filter((op) => op.method === 'delete')].map(webhookRequest),
      },
    ],
  };
}
