/**
 * One delivery attempt against real HTTP servers on 127.0.0.1: a redirect is a failed attempt and
 * is not followed, an answer that does not come within the timeout is a failed attempt, and a 2xx
 * is delivered.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWebhook } from '../../../server/jobs/webhook-send';

const OPEN = { allowHttp: true, allowPrivate: true };
const servers: Server[] = [];

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits += 1;
    handler?.(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits: () => hits };
}

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

it('a 2xx is delivered', async () => {
  const target = await serve((_req, res) => res.writeHead(204).end());
  expect(await sendWebhook(target.url, {}, '{}', OPEN)).toMatchObject({ status: 204, error: null });
});

it('a redirect is a failed attempt, and its Location is never asked', async () => {
  const elsewhere = await serve((_req, res) => res.writeHead(200).end());
  const target = await serve((_req, res) => res.writeHead(307, { location: elsewhere.url }).end());
  expect(await sendWebhook(target.url, {}, '{}', OPEN)).toMatchObject({ status: 307, error: 'answered HTTP 307' });
  expect([target.hits(), elsewhere.hits()]).toEqual([1, 0]);
});

it('no answer within the timeout is a failed attempt', async () => {
  const target = await serve(() => {}); // never answers
  const outcome = await sendWebhook(target.url, {}, '{}', OPEN, 200);
  expect(outcome).toMatchObject({ status: null, error: 'no answer within 0.2 s' });
});
