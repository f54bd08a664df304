/**
 * `POST /api/v1/mcp`: the MCP server over Streamable HTTP, stateless. Each POST gets a server and
 * a transport of its own, answers in JSON (no event stream) and is done; there are no sessions,
 * so GET and DELETE (a stream to resume, a session to end) are 405 like any other method a path
 * does not take.
 *
 * A POST is a keyed request like a REST one (guard.ts): the key in `x-api-key` (401 without it),
 * the per-minute limit, and one unit of the monthly quota for every answered (200) POST, whatever
 * it carried (initialize, tools/list, a tool call, tool errors included); a notification (202)
 * counts only against the per-minute limit.
 */
import type Router from '@koa/router';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'koa';
import type { AccessControl, AccessState } from '../access/access';
import { guard } from '../access/guard';
import { parseBody } from '../http/middleware/body';
import type { Route } from '../http/route';
import type { Logger } from '../logger';
import { describeTools } from './definitions';
import { inProcess } from './in-process';
import { createToolServer } from './server';

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
  const keyed = guard(deps.access, { access: 'key', quota: true, rateLimit: true });
  const body = parseBody(['json'], 'The body is not valid JSON');

  router.post(MCP_PATH, keyed, body, async (ctx: Context) => {
    const { apiKey }: AccessState = ctx.state;
    const server = createToolServer(
      tools,
      inProcess(() => ({ today: deps.today(), apiKey: apiKey ?? null }), deps.logger),
      { demo: deps.demo },
    );
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(webRequest(ctx), { parsedBody: (ctx.request as { body?: unknown }).body });
      ctx.status = response.status;
      response.headers.forEach((value, name) => {
        ctx.set(name, value);
      });
      ctx.set('Cache-Control', 'no-store');
      // Empty for a notification's 202.
      ctx.body = await response.text();
    } finally {
      await server.close();
    }
  });
}
