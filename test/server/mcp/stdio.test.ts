/**
 * The MCP server on stdio (`npm run mcp`), spawned as a desktop assistant would spawn it, with the
 * SDK's own client, pointed at the app listening on a port: it must list what the HTTP transport
 * lists and answer what the REST API answers.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Usage } from '../../../shared/types';
import { startTestApp, type TestApp } from '../../helpers/app';
import { commandLine } from '../../helpers/commands';
import { CALLS, NOW, REFUSALS, seed } from './fixture';

const ROOT = path.resolve(__dirname, '../../..');
const COMMAND = commandLine('mcp');

interface Spawned {
  client: Client;
  /** What the server wrote to stderr; complete once the client is closed. */
  stderr(): string;
  /** Errors the client met reading the server (a stdout line that is not a protocol message). */
  errors: Error[];
}

async function spawnServer(env: Record<string, string>): Promise<Spawned> {
  const [command, ...args] = COMMAND;
  const transport = new StdioClientTransport({ command, args, cwd: ROOT, env: { ...getDefaultEnvironment(), ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'crc-rates-test', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, stderr: () => stderr, errors };
}

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const call = (client: Client, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const texts = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : `<${c.type}>`));

describe('npm run mcp (stdio)', () => {
  let t: TestApp;
  let server: Spawned;
  let keyless: Spawned;
  let wrongKey: Spawned;
  let unreachable: Spawned;
  let unreachableUrl: string;
  beforeAll(async () => {
    t = await startTestApp({ clock: () => NOW });
    await seed(t);
    unreachableUrl = `http://127.0.0.1:${await closedPort()}`;
    // Started together: each costs a second or two of compiling.
    [server, keyless, wrongKey, unreachable] = await Promise.all([
      // The server's root…
      spawnServer({ CRC_RATES_API_KEY: t.key, CRC_RATES_BASE_URL: t.url }),
      spawnServer({ CRC_RATES_BASE_URL: t.url }),
      // …or the API's own URL, with a trailing slash.
      spawnServer({ CRC_RATES_API_KEY: 'crc_live_not-a-real-key', CRC_RATES_BASE_URL: `${t.api}/` }),
      spawnServer({ CRC_RATES_API_KEY: t.key, CRC_RATES_BASE_URL: unreachableUrl }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server, keyless, wrongKey, unreachable].map((s) => s?.client.close()));
    await t.close();
  });

  it('initializes like the HTTP transport', () => {
    expect(server.client.getServerVersion()).toEqual({ name: 'crc-rates', version: '1.0.0' });
    expect(server.client.getServerCapabilities()).toEqual({ tools: {} });
  });

  it('lists exactly the tools and schemas POST /api/v1/mcp lists', async () => {
    const overHttp = new Client({ name: 'crc-rates-test', version: '1.0.0' });
    await overHttp.connect(new StreamableHTTPClientTransport(new URL(`${t.api}/mcp`), { requestInit: { headers: { 'x-api-key': t.key } } }));
    const [stdio, remote] = await Promise.all([server.client.listTools(), overHttp.listTools()]);
    await overHttp.close();
    expect(stdio.tools).toHaveLength(10);
    expect(stdio).toEqual(remote);
  });

  it.each(CALLS)('$tool $args answers the REST data of $rest, after a one-line summary', async ({ tool, args, rest, summary }) => {
    await server.client.listTools();
    const [result, answer] = await Promise.all([call(server.client, tool, args), t.get(rest)]);
    expect(answer.status).toBe(200);
    expect(result.isError).toBeUndefined();
    expect(texts(result)).toEqual([summary, JSON.stringify(answer.body.data)]);
    expect(result.structuredContent).toEqual({ data: answer.body.data });
  });

  it.each(REFUSALS)('$tool $args is a tool error with the code and message of $rest', async ({ tool, args, error }) => {
    const result = await call(server.client, tool, args);
    expect(result.isError).toBe(true);
    expect(texts(result)).toEqual([error]);
  });

  it('counts each call against the key, as the REST request it is', async () => {
    const used = async () => ((await t.get('/usage')).body.data as Usage).used;
    const before = await used();
    await call(server.client, 'get_latest_rate', {});
    expect(await used()).toBe(before + 1);
  });

  it('without a key, still lists the tools but answers every call with a clear error, and says so on stderr', async () => {
    expect((await keyless.client.listTools()).tools).toHaveLength(10);
    const result = await call(keyless.client, 'get_latest_rate', {});
    expect(result.isError).toBe(true);
    expect(texts(result)).toEqual(['UNAUTHORIZED: No API key: set CRC_RATES_API_KEY in the environment of this MCP server (a key starts with crc_live_)']);
    await keyless.client.close();
    expect(keyless.stderr()).toBe(`crc-rates MCP server on stdio, calling ${t.api}: CRC_RATES_API_KEY is not set, every tool call will say so\n`);
  });

  it('passes on the API’s refusal of a wrong key', async () => {
    const result = await call(wrongKey.client, 'get_rate', { date: '2025-01-15' });
    expect(result.isError).toBe(true);
    expect(texts(result)).toEqual(['UNAUTHORIZED: The API key is not valid: check that it was copied whole (it starts with crc_live_)']);
  });

  it('says which API it could not reach', async () => {
    const result = await call(unreachable.client, 'get_latest_rate', {});
    expect(result.isError).toBe(true);
    expect(texts(result)).toEqual([`Could not reach the API at ${unreachableUrl}/api/v1: ECONNREFUSED`]);
  });

  it('wrote nothing but protocol messages to stdout, and its one line of log to stderr', async () => {
    await server.client.close();
    expect(server.errors).toEqual([]);
    expect(server.stderr()).toBe(`crc-rates MCP server on stdio, calling ${t.api}\n`);
  });

  it('exits by itself when its input ends', async () => {
    const [command, ...args] = COMMAND;
    const child = spawn(command, args, { cwd: ROOT, env: { ...getDefaultEnvironment(), CRC_RATES_API_KEY: t.key, CRC_RATES_BASE_URL: t.url } });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
    child.stdin.end(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize })}\n`);
    expect(await exited).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'crc-rates' } } });
  });
});
