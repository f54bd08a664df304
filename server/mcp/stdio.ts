/**
 * `npm run mcp`: the MCP server on stdio, for desktop assistants. It lists the same tools as
 * `POST /api/v1/mcp` and runs each call against the REST API:
 *
 *   CRC_RATES_API_KEY    the key (without it, every tool call answers that it is missing)
 *   CRC_RATES_BASE_URL   the server's root or its /api/v1 URL (default: http://localhost:3000)
 *
 * stdout carries the protocol and nothing else: the one line of log goes to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { routeList } from '../route-list';
import { DEFAULT_PUBLIC_URL } from '../http/urls';
import { describeTools } from './definitions';
import { apiUrlOf, BASE_URL_VARIABLE, KEY_VARIABLE, restExecutor } from './rest';
import { createToolServer } from './server';

async function main(): Promise<void> {
  const apiUrl = apiUrlOf(process.env[BASE_URL_VARIABLE] || DEFAULT_PUBLIC_URL);
  const apiKey = process.env[KEY_VARIABLE]?.trim() || null;
  const server = createToolServer(describeTools(routeList()), restExecutor({ apiUrl, apiKey }));
  await server.connect(new StdioServerTransport());
  process.stderr.write(
    apiKey
      ? `crc-rates MCP server on stdio, calling ${apiUrl}\n`
      : `crc-rates MCP server on stdio, calling ${apiUrl}: ${KEY_VARIABLE} is not set, every tool call will say so\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
