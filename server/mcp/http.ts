/**
 * `POST /api/v1/mcp`: the MCP server over Streamable HTTP, stateless. Each POST gets a server and
 * a transport of its own, answers in JSON (no event stream) and is done; there are no sessions,
 * so GET and DELETE (a stream to resume, a session to end) are 405 like any other method a path
 * does not take.
 *
 * A POST is a keyed request (guard.ts): the key in `x-api-key`, a 401 without it. What it costs
 * depends on what it carries, read before anything runs (batch.ts: at most 10 messages, a 400
 * beyond, which costs nothing):
 *
 * - tool calls: each one is one request of the key (metered.ts), and the POST itself costs nothing
 *   more; a call refused by the limit or the quota is a tool error, the other calls are answered;
 * - no tool call (initialize, tools/list, notifications): the POST is one request, as a REST one
 *   is: one of the per-minute limit (a 429 over it), and one unit of the quota when answered
 *   (200; a notification's 202 costs none).
 *
 * The limit and quota headers say where the key stands once the whole POST is done. At most two
 * POSTs of one key are handled at a time (in-flight.ts): with at most 10 calls each, the answers
 * the instance holds for one key stay within a few MB.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AccessControl } from '../access/access';
import { guard } from '../access/guard';
import { parseBody } from '../http/middleware/body';
import type { Route } from '../http/route';
import type { Logger } from '../logger';
import { countToolCalls } from './batch';
import { describeTools } from './definitions';
import { createInFlightLimit } from './in-flight';
import { inProcess } from './in-process';
import { metered } from './metered';

export const MCP_PATH = '/mcp';

export interface McpDeps {
  routes: readonly Route[];
  access: AccessControl;
  /** The calendar day in Costa Rica now. */
  today: () => string;
  logger: Logger;
  /** The instance serves simulated data: each summary says so. */
  demo?: boolean;
}

/**
 * The MCP SDK (its server, transport and schemas, about 0.2 s of CPU to load) is not loaded with
 * the app: most processes that build one never take a POST (each command, each test file). A
 * server loads it while warming up (app.ts), so that the first POST does not wait for it.
 */
let sdk: Promise<typeof import('./exchange')> | undefined;
export const loadMcpSdk = () => {
  sdk ??= import('./exchange');
  return sdk;
};

/** The headers the transport reads; the rest (the key above all) stay out of the MCP handlers' reach. */
const FORWARDED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version'];

/** The request as the transport takes it (a web Request); the body is passed already parsed. */
function webRequest(ctx: Context): Request {
  const headers = new Headers();
  for (const name of FORWARDED_HEADERS) {
    const value = ctx.get(name);
    if (value) headers.set(name, value);
  }
  return new Request(new URL(ctx.originalUrl, 'http://localhost'), { method: ctx.method, headers });
}

export function mountMcp(router: Router, deps: McpDeps): void {
  const tools = describeTools(deps.routes);
  const { access, logger } = deps;
  const keyed = guard(access, { access: 'key', quota: true, rateLimit: true, selfMetered: true });
  const inFlight = createInFlightLimit();
  // Counted from before the body is read: a request still sending its body holds its place too.
  const boundedPerKey = async (ctx: Context, next: () => Promise<unknown>) => {
    const end = inFlight.enter(access.requireKey(ctx).id);
    try {
      await next();
    } finally {
      end();
    }
  };
  const body = parseBody(['json'], 'The body is not valid JSON');
  // A POST refused before anything runs (a body that is not JSON or is too large, a batch over the
  // bound) is still one request of the key for the per-minute limit, as a refused REST request is;
  // it costs no quota.
  const readMessages = async (ctx: Context, next: () => Promise<unknown>) => {
    try {
      await body(ctx, async () => undefined);
      countToolCalls((ctx.request as { body?: unknown }).body);
    } catch (error) {
      await access.check(ctx);
      throw error;
    }
    await next();
  };

  router.post(MCP_PATH, keyed, boundedPerKey, readMessages, async (ctx: Context) => {
    const key = access.requireKey(ctx);
    const toolCalls = countToolCalls((ctx.request as { body?: unknown }).body);
    // A POST without a tool call is one request; with some, each call is (metered.ts).
    if (toolCalls === 0) await access.check(ctx);
    const run = inProcess(() => ({ today: deps.today(), apiKey: key }), logger);
    const execute = toolCalls === 0 ? run : metered(run, { access, ctx, key, logger });
    const { exchange } = await loadMcpSdk();
    const answer = await exchange(tools, execute, { demo: deps.demo }, webRequest(ctx), (ctx.request as { body?: unknown }).body);
    ctx.status = answer.status;
    answer.headers.forEach((value, name) => {
      ctx.set(name, value);
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = answer.body;
    if (toolCalls === 0 && ctx.status === 200) await access.consume(ctx, key);
    // The calls of a batch set the headers as each was counted, in whatever order they finished.
    else if (toolCalls > 0) await access.check(ctx, false);
  });
}
