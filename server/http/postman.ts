/**
 * A Postman Collection v2.1 of every route, generated from the route list: one request per
 * endpoint with example parameters, `{{baseUrl}}` and `{{apiKey}}` variables, and a test that
 * the answer succeeded. Newman runs it as is against a running server.
 */
import type { Route } from './route';

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

export function createPostmanCollection(routes: readonly Route[], publicUrl: string) {
  const tags = [...new Set(routes.map((r) => r.tag))];
  return {
    info: {
      name: 'crc-rates API',
      description: 'The official USD/CRC exchange rate of Costa Rica’s central bank. Set {{apiKey}} to your key.',
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
    ],
    item: tags.map((tag) => ({ name: tag, item: routes.filter((r) => r.tag === tag).map(request) })),
  };
}
