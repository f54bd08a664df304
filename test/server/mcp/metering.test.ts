/**
 * What a POST to the MCP endpoint costs and holds: each tool call is one request of the key, alone
 * or in a batch; a batch holds at most 10 messages; a call that cannot be read costs nothing; and
 * one key has at most two POSTs in the works at a time.
 */
import http from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LIMITS } from '../../../shared/limits';
import { createApiKeysStore } from '../../../server/store/api-keys';
import type { Usage } from '../../../shared/types';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { series } from '../insights/series';

/** Noon of 2025-02-03 in Costa Rica: a stored year and a month before it. */
const NOW = new Date('2025-02-03T18:00:00Z');
const ACCEPT = 'application/json, text/event-stream';

type Reply = { id: number; result?: CallToolResult; error?: { code: number; message: string } };

const call = (id: number, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const getRate = (id: number) => call(id, 'get_rate', { date: '2025-01-15' });
const firstText = (reply: Reply | undefined) => (reply?.result?.content[0]?.type === 'text' ? reply.result.content[0].text : undefined);

describe('POST /api/v1/mcp: what it costs and holds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock: () => NOW });
    await t.seed(series((i) => 500 + i / 100, 400, '2024-01-01').map((p) => rate(p.date, p.buy, p.sell)));
  });
  afterAll(() => t.close());

  const newKey = async (limits: { monthlyQuota: number; ratePerMinute: number }) =>
    (await createApiKeysStore(t.database.db).create({ name: 'metered', plan: 'custom', ...limits })).key;
  const post = (body: unknown, key: string) =>
    fetch(`${t.api}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, 'x-api-key': key }, body: JSON.stringify(body) });
  const usage = async (key: string) => (await t.get('/usage', { 'x-api-key': key })).body.data as Usage;
  /** Where the key stands on the per-minute limit, read by a POST that is one request itself. */
  const rateRemainingAfterOneMore = async (key: string) =>
    Number((await post({ jsonrpc: '2.0', id: 99, method: 'tools/list' }, key)).headers.get('x-ratelimit-remaining'));

  describe('each tool call is one request', () => {
    it('counts a batch of N tool calls as N requests, for the limit and the quota, and the headers say so', async () => {
      const key = await newKey({ monthlyQuota: 100, ratePerMinute: 10 });
      const response = await post([getRate(1), getRate(2), getRate(3), getRate(4)], key);
      expect(response.status).toBe(200);
      const replies = (await response.json()) as Reply[];
      expect(replies.map(firstText)).toEqual(Array(4).fill('Official rate for 2025-01-15: buy ₡497.50, sell ₡503.80'));
      expect(response.headers.get('x-ratelimit-remaining')).toBe('6');
      expect(response.headers.get('x-quota-remaining')).toBe('96');
      expect(await usage(key)).toMatchObject({ used: 4, remaining: 96 });
      expect(await rateRemainingAfterOneMore(key)).toBe(5);
    });

    it('counts one tool call as one request, alone', async () => {
      const key = await newKey({ monthlyQuota: 100, ratePerMinute: 10 });
      const response = await post(getRate(1), key);
      expect(response.headers.get('x-ratelimit-remaining')).toBe('9');
      expect(response.headers.get('x-quota-remaining')).toBe('99');
      expect((await usage(key)).used).toBe(1);
    });

    it('charges a POST that carries tool calls for its calls only, not once more for itself', async () => {
      const key = await newKey({ monthlyQuota: 100, ratePerMinute: 10 });
      const response = await post([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, getRate(2)], key);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-remaining')).toBe('9');
      expect((await usage(key)).used).toBe(1);
    });

    it('charges a POST without a tool call as one request, as before', async () => {
      const key = await newKey({ monthlyQuota: 100, ratePerMinute: 10 });
      const list = await post(
        [
          { jsonrpc: '2.0', id: 1, method: 'tools/list' },
          { jsonrpc: '2.0', id: 2, method: 'ping' },
        ],
        key,
      );
      expect(list.status).toBe(200);
      expect(list.headers.get('x-ratelimit-remaining')).toBe('9');
      expect(list.headers.get('x-quota-remaining')).toBe('99');
      const notification = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, key);
      expect(notification.status).toBe(202);
      expect(notification.headers.get('x-ratelimit-remaining')).toBe('8');
      expect((await usage(key)).used).toBe(1);
    });

    it('answers the calls within the limit and refuses those past it as RATE_LIMITED tool errors', async () => {
      const key = await newKey({ monthlyQuota: 100, ratePerMinute: 3 });
      const response = await post([1, 2, 3, 4, 5].map(getRate), key);
      expect(response.status).toBe(200);
      const replies = (await response.json()) as Reply[];
      const answered = replies.filter((r) => r.result?.isError === undefined);
      const refused = replies.filter((r) => r.result?.isError === true);
      expect(answered).toHaveLength(3);
      expect(refused).toHaveLength(2);
      for (const reply of refused) expect(firstText(reply)).toMatch(/^RATE_LIMITED: Rate limit of 3 requests per minute exceeded; retry in \d+ s$/);
      expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(response.headers.get('x-quota-remaining')).toBe('97');
      expect((await usage(key)).used).toBe(3);
    });

    it('answers the calls within the quota and refuses the others as QUOTA_EXCEEDED tool errors', async () => {
      const key = await newKey({ monthlyQuota: 2, ratePerMinute: 100 });
      const response = await post([getRate(1), getRate(2), getRate(3)], key);
      expect(response.status).toBe(200);
      const replies = (await response.json()) as Reply[];
      expect(replies.filter((r) => r.result?.isError === undefined)).toHaveLength(2);
      const refused = replies.filter((r) => r.result?.isError === true);
      expect(refused.map(firstText)).toEqual(['QUOTA_EXCEEDED: Monthly quota of 2 requests used up; it resets at 2025-03-01T00:00:00.000Z']);
      expect(response.headers.get('x-quota-remaining')).toBe('0');
      expect(await usage(key)).toMatchObject({ used: 2, remaining: 0 });
    });

    it('spends no quota on a tool error, as REST spends none on a 400', async () => {
      const key = await newKey({ monthlyQuota: 100, ratePerMinute: 10 });
      const response = await post(call(1, 'get_history', { days: 0 }), key);
      expect(((await response.json()) as Reply).result?.isError).toBe(true);
      expect(response.headers.get('x-ratelimit-remaining')).toBe('9');
      expect((await usage(key)).used).toBe(0);
    });
  });

  describe('batches', () => {
    it('refuses a batch of 11 messages with a 400 that says the limit, before anything runs; it is one request, and costs no quota', async () => {
      const key = await newKey({ monthlyQuota: 100, ratePerMinute: 20 });
      const response = await post(
        Array.from({ length: 11 }, (_, i) => getRate(i + 1)),
        key,
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        success: false,
        error: 'BAD_REQUEST',
        message: 'A batch holds at most 10 messages (got 11): send the rest in another request',
      });
      expect((await usage(key)).used).toBe(0);
      expect(await rateRemainingAfterOneMore(key)).toBe(18);
    });

    it('counts a body that is not JSON as one request of the key, so a key cannot send them without limit', async () => {
      const key = await newKey({ monthlyQuota: 100, ratePerMinute: 3 });
      const broken = () =>
        fetch(`${t.api}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, 'x-api-key': key }, body: '{"jsonrpc":' });
      expect([(await broken()).status, (await broken()).status, (await broken()).status, (await broken()).status]).toEqual([400, 400, 400, 429]);
      expect((await usage(key)).used).toBe(0);
    });

    it('answers a batch of 10', async () => {
      const key = await newKey({ monthlyQuota: 100, ratePerMinute: 20 });
      const response = await post(
        Array.from({ length: 10 }, (_, i) => getRate(i + 1)),
        key,
      );
      expect(response.status).toBe(200);
      expect((await response.json()) as Reply[]).toHaveLength(10);
      expect((await usage(key)).used).toBe(10);
    });
  });

  describe('arguments of the wrong shape', () => {
    it.each([
      ['an array', [30], 'an array'],
      ['null', null, 'null'],
      ['a string', 'days=30', 'a string'],
      ['a number', 30, 'a number'],
      ['a boolean', true, 'a boolean'],
    ])('are -32602 Invalid params for %s, in one short sentence, and cost nothing', async (_, args, kind) => {
      const key = await newKey({ monthlyQuota: 100, ratePerMinute: 10 });
      const response = await post(call(1, 'get_history', args), key);
      expect(response.status).toBe(200);
      const reply = (await response.json()) as Reply;
      expect(reply.result).toBeUndefined();
      expect(reply.error).toEqual({
        code: -32602,
        message: `MCP error -32602: "arguments" must be an object of the tool's arguments by name (got ${kind})`,
      });
      expect((await usage(key)).used).toBe(0);
      expect(await rateRemainingAfterOneMore(key)).toBe(9);
    });

    it('are -32602 for a tool named by anything but a string, and for a call without params', async () => {
      const key = await newKey({ monthlyQuota: 100, ratePerMinute: 10 });
      const response = await post(
        [
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 5, arguments: {} } },
          { jsonrpc: '2.0', id: 2, method: 'tools/call' },
        ],
        key,
      );
      const replies = (await response.json()) as Reply[];
      expect(replies.map((r) => r.error)).toEqual([
        { code: -32602, message: 'MCP error -32602: "name" must be the name of a tool as tools/list gives it (got a number)' },
        { code: -32602, message: `MCP error -32602: tools/call takes an object with the tool's "name" and its "arguments" (got nothing)` },
      ]);
      expect((await usage(key)).used).toBe(0);
    });

    it('leave the other calls of the batch answered', async () => {
      const key = await newKey({ monthlyQuota: 100, ratePerMinute: 10 });
      const replies = (await (await post([call(1, 'get_history', [30]), getRate(2)], key)).json()) as Reply[];
      expect(replies.find((r) => r.id === 1)?.error?.code).toBe(-32602);
      expect(firstText(replies.find((r) => r.id === 2))).toBe('Official rate for 2025-01-15: buy ₡497.50, sell ₡503.80');
      expect((await usage(key)).used).toBe(1);
    });
  });

  describe('bounded memory', () => {
    it(`keeps the largest answer, a batch of 10 years of history, under the ${LIMITS.mcp.answerMb} MB it promises`, async () => {
      const key = await newKey({ monthlyQuota: 100, ratePerMinute: 20 });
      const response = await post(
        Array.from({ length: 10 }, (_, i) => call(i + 1, 'get_history', { days: 365 })),
        key,
      );
      const body = await response.text();
      const replies = JSON.parse(body) as Reply[];
      expect(replies.map((r) => firstText(r))).toEqual(Array(10).fill('365 official rates from 2024-02-05 to 2025-02-03: sell ₡500.35 → ₡503.99'));
      expect(Buffer.byteLength(body)).toBeLessThan(LIMITS.mcp.answerMb * 1024 * 1024);
    });

    it('handles at most two POSTs of one key at a time: a third is a 429 to retry in a second, others proceed', async () => {
      const key = await newKey({ monthlyQuota: 1000, ratePerMinute: 1000 });
      const other = await newKey({ monthlyQuota: 1000, ratePerMinute: 1000 });
      // Two POSTs that have sent only half their body: the server is in the middle of both, and a
      // third is refused. A probe that reaches the server while it still reads the keys of those two
      // may take a place first and have one of them refused instead: they are then sent again.
      const holdTwo = () => [getRate(1), getRate(2)].map((message) => postInTwoHalves(`${t.api}/mcp`, key, JSON.stringify(message)));
      let pending = holdTwo();
      let third: Response | null = null;
      for (let attempt = 0; attempt < 100; attempt++) {
        third = await post({ jsonrpc: '2.0', id: 3, method: 'ping' }, key);
        if (third.status === 429) break;
        if (pending.some((p) => p.answered())) {
          for (const p of pending) p.abandon();
          pending = holdTwo();
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(third?.status).toBe(429);
      expect(third?.headers.get('retry-after')).toBe('1');
      expect(await third?.json()).toEqual({
        success: false,
        error: 'RATE_LIMITED',
        message: 'At most 2 MCP requests of one key at a time: wait for an answer before sending more',
      });
      // Another key is not held back.
      expect((await post(getRate(4), other)).status).toBe(200);
      const used = (await usage(key)).used;

      const answers = await Promise.all(pending.map(async (p) => (await p.finish()) as { status: number; body: string }));
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(answers.map((a) => firstText(JSON.parse(a.body) as Reply))).toEqual(Array(2).fill('Official rate for 2025-01-15: buy ₡497.50, sell ₡503.80'));
      // The refused ones cost nothing; the two held ones one each.
      expect((await usage(key)).used).toBe(used + 2);
      // Done, they free their places.
      expect((await post(getRate(5), key)).status).toBe(200);
    });
  });
});

/**
 * A POST whose body is sent in two halves: the first now, the second when `finish` is called.
 * `answered` says whether the server has answered already (it refused the request early).
 */
function postInTwoHalves(url: string, key: string, body: string) {
  const bytes = Buffer.from(body);
  const half = Math.floor(bytes.length / 2);
  const request = http.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, 'x-api-key': key, 'content-length': String(bytes.length) },
  });
  let answered = false;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
  request.flushHeaders();
  request.write(bytes.subarray(0, half));
  return {
    answered: () => answered,
    finish: () => {
      request.end(bytes.subarray(half));
      return answer;
    },
    /** Drops the request; what it would have answered is of no interest. */
    abandon: () => {
      answer.catch(() => undefined);
      request.destroy();
    },
  };
}
