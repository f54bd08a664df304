/** The MCP server over Streamable HTTP, `POST /api/v1/mcp`, with the SDK's own client against the app listening on a port. */
import { CURRENCY_CODES } from '../../../shared/currency-catalog';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { createApiKeysStore } from '../../../server/store/api-keys';
import type { Usage } from '../../../shared/types';
import { startTestApp, type TestApp } from '../../helpers/app';
import { connect } from './client';
import { CALLS, NOW, REFUSALS, seed, TOOL_PARAMS } from './fixture';

const ACCEPT = 'application/json, text/event-stream';

const texts = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : `<${c.type}>`));

describe('POST /api/v1/mcp', () => {
  let t: TestApp;
  let client: Client;
  let mcpUrl: string;
  beforeAll(async () => {
    t = await startTestApp({ clock: () => NOW });
    await seed(t);
    mcpUrl = `${t.api}/mcp`;
    client = await connect(mcpUrl, t.key);
  });
  afterAll(async () => {
    await client.close();
    await t.close();
  });

  /** One JSON-RPC message posted as a client would, with `key` (none when null). */
  const post = (body: unknown, key: string | null = t.key) =>
    fetch(`${t.api}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT, ...(key ? { 'x-api-key': key } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const used = async (key: string) => ((await t.get('/usage', { 'x-api-key': key })).body.data as Usage).used;

  it('initializes: the server names itself and offers tools', () => {
    expect(client.getServerVersion()).toEqual({ name: 'crc-rates', version: '1.0.0' });
    expect(client.getServerCapabilities()).toEqual({ tools: {} });
    expect(client.getInstructions()).toContain('USD/CRC');
  });

  describe('tools/list', () => {
    it('lists the 10 tools with the route’s summary and description and the parameters each takes', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(Object.keys(TOOL_PARAMS));
      for (const tool of tools) {
        const expected = TOOL_PARAMS[tool.name];
        expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(expected?.params);
        expect(tool.inputSchema.required ?? []).toEqual(expected?.required);
        expect(tool.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
      }
      const history = tools.find((tool) => tool.name === 'get_history');
      expect(history?.title).toBe('The last days of the series');
      expect(history?.description).toBe(
        'The last days of the series. Records of the `days` calendar days ending at the latest date (inclusive), ascending by date.',
      );
      expect(history?.inputSchema).toEqual({
        type: 'object',
        properties: {
          days: { type: 'integer', minimum: 1, maximum: 365, default: 30, description: 'How many calendar days.' },
          currency: {
            type: 'string',
            enum: [...CURRENCY_CODES],
            default: 'USD',
            examples: ['EUR'],
            description:
              'The currency quoted in colones: USD (the official rate, the default) or another code from /currencies (derived from the central bank’s cross rate).',
          },
        },
      });
    });

    it('gives each input schema as a valid JSON Schema that accepts and refuses what the route does', async () => {
      const { tools } = await client.listTools();
      const ajv = new Ajv2020({ strict: true });
      addFormats(ajv);
      for (const tool of tools) expect(ajv.validateSchema(tool.inputSchema)).toBe(true);
      const validate = (name: string) => ajv.compile(tools.find((tool) => tool.name === name)?.inputSchema ?? {});
      expect(validate('get_history')({ days: 30 })).toBe(true);
      expect(validate('get_history')({ days: 0 })).toBe(false);
      expect(validate('convert')({ amount: '100', from: 'USD', rate: 'buy' })).toBe(true);
      expect(validate('convert')({ from: 'USD' })).toBe(false);
      // The amount as the tool takes it: a decimal as text, or a JSON number in the route's range.
      expect(validate('convert')({ amount: 250 })).toBe(true);
      expect(validate('convert')({ amount: 0.5 })).toBe(true);
      expect(validate('convert')({ amount: '1e3' })).toBe(true);
      expect(validate('convert')({ amount: 1e12 })).toBe(true);
      expect(validate('convert')({ amount: 0 })).toBe(false);
      expect(validate('convert')({ amount: -5 })).toBe(false);
      expect(validate('convert')({ amount: 1e13 })).toBe(false);
      expect(validate('convert')({ amount: 'ten' })).toBe(false);
      expect(validate('convert')({ amount: true })).toBe(false);
      expect(validate('get_best_institution')({ operation: 'sell', type: 'bank' })).toBe(false);
      expect(validate('get_rate')({ date: '2025-02-30' })).toBe(false);
    });

    it('takes each parameter’s schema from the same route schemas as the OpenAPI document', async () => {
      const { tools } = await client.listTools();
      const openapi = (await t.get('/openapi.json')).body as unknown as {
        paths: Record<string, { get: { parameters: Array<{ name: string; description: string; schema: Record<string, unknown> }> } }>;
      };
      const paths = {
        get_latest_rate: '/exchange-rate/latest',
        get_rate: '/exchange-rate',
        convert: '/convert',
        get_history: '/exchange-rate/history',
        get_analytics: '/exchange-rate/analytics',
        get_month_close: '/exchange-rate/close',
        get_best_institution: '/banking/best',
        get_monex: '/monex',
        get_calendar: '/calendar',
        get_insights: '/insights',
      } as const;
      for (const tool of tools) {
        const parameters = openapi.paths[paths[tool.name as keyof typeof paths]]?.get.parameters ?? [];
        for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
          const parameter = parameters.find((p) => p.name === name);
          const { example, ...schema } = parameter?.schema ?? {};
          // A decimal also comes as a JSON number, with the route's own range.
          const accepted = name === 'amount' ? { anyOf: [schema, { type: 'number', exclusiveMinimum: 0, maximum: 1e12 }] } : schema;
          expect(property).toEqual({ ...accepted, description: parameter?.description, ...(example === undefined ? {} : { examples: [example] }) });
        }
      }
    });
  });

  describe('tools/call', () => {
    it.each(CALLS)('$tool $args answers the REST data of $rest, after a one-line summary', async ({ tool, args, rest, summary }) => {
      // Listed first, so the client checks the structured content against each output schema.
      await client.listTools();
      const [result, answer] = await Promise.all([client.callTool({ name: tool, arguments: args }) as Promise<CallToolResult>, t.get(rest)]);
      expect(answer.status).toBe(200);
      expect(result.isError).toBeUndefined();
      expect(texts(result)).toEqual([summary, JSON.stringify(answer.body.data)]);
      expect(result.structuredContent).toEqual({ data: answer.body.data });
    });

    it.each(REFUSALS)('$tool $args is a tool error with the code and message of $rest', async ({ tool, args, rest, error }) => {
      const [result, answer] = await Promise.all([client.callTool({ name: tool, arguments: args }) as Promise<CallToolResult>, t.get(rest)]);
      expect(result.isError).toBe(true);
      expect(texts(result)).toEqual([error]);
      expect(`${answer.body.error}: ${answer.body.message}`).toBe(error);
      expect(result.structuredContent).toBeUndefined();
    });

    it('ignores arguments the tool does not take, as REST ignores unknown parameters', async () => {
      // /banking/best takes a date, which the tool does not offer: it stays the latest snapshot's.
      const result = (await client.callTool({ name: 'get_best_institution', arguments: { operation: 'buy', date: '1999-01-01', extra: 1 } })) as CallToolResult;
      expect(result.isError).toBeUndefined();
      expect((result.structuredContent as { data: { date: string } }).data.date).toBe('2025-01-30');
    });

    it('answers a protocol error, not a tool error, for a tool that does not exist', async () => {
      await expect(client.callTool({ name: 'get_weather', arguments: {} })).rejects.toThrow('Unknown tool: get_weather');
    });
  });

  describe('access', () => {
    it('refuses a POST without a key or with an unknown one with the REST 401 envelope', async () => {
      const none = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, null);
      expect(none.status).toBe(401);
      expect(await none.json()).toEqual({ success: false, error: 'UNAUTHORIZED', message: 'An API key is required: send it in the x-api-key header' });
      const unknown = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'crc_live_0000000000000000000000000000000000000000000');
      expect(unknown.status).toBe(401);
      expect(((await unknown.json()) as { error: string }).error).toBe('UNAUTHORIZED');
    });

    it('lets the SDK client fail to connect without a key, saying why', async () => {
      const anonymous = new Client({ name: 'anonymous', version: '1.0.0' });
      await expect(anonymous.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)))).rejects.toThrow(
        'Error POSTing to endpoint: {"success":false,"message":"An API key is required: send it in the x-api-key header","error":"UNAUTHORIZED"}',
      );
    });

    it('counts an answered POST and a tool call answered with data against the monthly quota; a tool error and a notification against nothing', async () => {
      const before = await used(t.key);
      expect((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(200);
      const refused = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_history', arguments: { days: 0 } } });
      expect(refused.status).toBe(200);
      expect(refused.headers.get('x-quota-remaining')).toBe(String(1_000_000_000 - before - 1));
      const answered = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_history', arguments: { days: 2 } } });
      expect(answered.headers.get('x-quota-remaining')).toBe(String(1_000_000_000 - before - 2));
      expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
      expect(await used(t.key)).toBe(before + 2);
    });

    it('counts every POST against the key’s per-minute limit', async () => {
      const { key } = await createApiKeysStore(t.database.db).create({ name: 'tight', plan: 'custom', monthlyQuota: 100, ratePerMinute: 2 });
      const first = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, key);
      expect(first.status).toBe(202);
      expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
      expect((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, key)).status).toBe(200);
      const third = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, key);
      expect(third.status).toBe(429);
      expect(((await third.json()) as { error: string }).error).toBe('RATE_LIMITED');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    });

    it('refuses a call once the monthly quota is used up, like a REST request', async () => {
      const { key } = await createApiKeysStore(t.database.db).create({ name: 'small', plan: 'custom', monthlyQuota: 1, ratePerMinute: 100 });
      expect((await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, key)).status).toBe(200);
      const over = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, key);
      expect(over.status).toBe(429);
      expect(((await over.json()) as { error: string }).error).toBe('QUOTA_EXCEEDED');
    });
  });

  describe('the HTTP side', () => {
    it('compresses a long answer for a client that accepts it (fetch asks for br and gzip)', async () => {
      const response = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toMatch(/^(br|gzip)$/);
      expect(response.headers.get('vary')).toMatch(/Accept-Encoding/i);
      const message = (await response.json()) as { result: { tools: unknown[] } };
      expect(message.result.tools).toHaveLength(Object.keys(TOOL_PARAMS).length);
    });

    it('answers JSON, not an event stream, and is never cached', async () => {
      const response = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_rate', arguments: { date: '2025-01-15' } } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('mcp-session-id')).toBeNull();
      const message = (await response.json()) as { id: number; result: CallToolResult };
      expect(message.id).toBe(7);
      expect(message.result.content[0]).toEqual({ type: 'text', text: 'Official rate for 2025-01-15: buy ₡510.30, sell ₡516.60' });
    });

    it('leaves the protocol’s own checks of the headers to the transport: 406 without an Accept for both answers', async () => {
      const response = await fetch(mcpUrl, {
        method: 'POST',
        headers: { 'x-api-key': t.key, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(406);
      expect(await response.json()).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' },
        id: null,
      });
    });

    it.each(['GET', 'DELETE'])('answers %s with the 405 envelope: there are no sessions nor streams', async (method) => {
      const response = await fetch(mcpUrl, { method, headers: { 'x-api-key': t.key, accept: ACCEPT } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toEqual({
        success: false,
        error: 'METHOD_NOT_ALLOWED',
        message: `Method ${method} is not allowed on /api/v1/mcp; allowed: POST`,
      });
    });

    it('refuses a body over 16 KB with 413 and one that is not JSON with 400, in the envelope', async () => {
      const large = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { padding: 'x'.repeat(17 * 1024) } });
      expect(large.status).toBe(413);
      expect(await large.json()).toEqual({ success: false, error: 'PAYLOAD_TOO_LARGE', message: 'The body must be at most 16 KB' });
      const broken = await post('{"jsonrpc":');
      expect(broken.status).toBe(400);
      expect(await broken.json()).toEqual({ success: false, error: 'BAD_REQUEST', message: 'The body is not valid JSON' });
    });
  });
});
