/**
 * One stateless MCP exchange over Streamable HTTP: a server and a transport for one POST, the
 * answer in JSON (no event stream), then both closed. Apart from http.ts so that the SDK is loaded
 * when the first POST comes (see there).
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ToolDefinition } from './definitions';
import type { Execute } from './outcome';
import { createToolServer, type ToolServerOptions } from './server';

export interface McpAnswer {
  status: number;
  headers: Headers;
  /** Empty for a notification's 202. */
  body: string;
}

export async function exchange(
  tools: readonly ToolDefinition[],
  execute: Execute,
  options: ToolServerOptions,
  request: Request,
  parsedBody: unknown,
): Promise<McpAnswer> {
  const server = createToolServer(tools, execute, options);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request, { parsedBody });
    return { status: response.status, headers: response.headers, body: await response.text() };
  } finally {
    await server.close();
  }
}
