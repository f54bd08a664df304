/**
 * The baselines, in one process of their own: servers that do no work and answer every request
 * with the same constant JSON, the size of `/exchange-rate/latest`'s answer.
 *
 * - bare Koa (one middleware setting the body): the framework the service is built on, with
 *   nothing of ours. Every route's `ratio` is against this.
 * - bare node:http (one writeHead and end): the physical limit of this machine, this Node and
 *   this load generator; no server written in Node answers faster.
 *
 * Says `{"event":"ready","koa":port,"node":port,"pid":…}` on stdout; stops when stdin closes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

const CONSTANT_BODY = JSON.stringify({
  success: true,
  data: { date: '2025-01-15', currencyFrom: 'USD', currencyTo: 'CRC', buy: 506.47, sell: 512.82, source: 'BCCR', fetchedAt: '2025-01-14T18:05:12.000Z' },
});

function listen(handler: http.RequestListener): Promise<number> {
  return new Promise((resolve) => {
    const server = http.createServer(handler);
    server.keepAliveTimeout = 65_000;
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function bareKoa(): Koa {
  const app = new Koa();
  app.use((ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = CONSTANT_BODY;
  });
  return app;
}

const NODE_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(CONSTANT_BODY)) };

function bareNode(_request: http.IncomingMessage, response: http.ServerResponse): void {
  response.writeHead(200, NODE_HEADERS);
  response.end(CONSTANT_BODY);
}

async function main(): Promise<void> {
  const [koa, node] = await Promise.all([listen(bareKoa().callback()), listen(bareNode)]);
  process.stdout.write(`${JSON.stringify({ event: 'ready', koa, node, pid: process.pid })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
