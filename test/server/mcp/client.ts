/** The SDK's own MCP client, connected over Streamable HTTP with a key, as an assistant connects. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function connect(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'crc-rates-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'x-api-key': key } } }));
  return client;
}
