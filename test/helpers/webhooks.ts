/** A real HTTP receiver on 127.0.0.1 that records what it is sent and answers as told, and calls of the webhook routes. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiBody } from './app';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The statuses of the next answers, in order; 200 once they run out. */
  answers: number[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = answers.shift() ?? 200;
      res.end('x'.repeat(3000));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    answers,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A call of the API with a method and a JSON body. */
export async function call(api: string, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: ApiBody }> {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  // A 204 has no body: an empty success stands for it.
  return { status: response.status, body: text ? (JSON.parse(text) as ApiBody) : { success: response.ok } };
}
