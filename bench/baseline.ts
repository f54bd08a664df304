/** The baseline: a bare Koa server answering a constant JSON body of about the same size. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

const body = JSON.stringify({
  success: true,
  data: { date: '2025-01-15', currencyFrom: 'USD', currencyTo: 'CRC', buy: 506.47, sell: 512.82, source: 'BCCR', fetchedAt: '2025-01-14T18:05:12.000Z' },
});
const app = new Koa();
app.use((ctx) => {
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = body;
});
const server = http.createServer(app.callback());
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
