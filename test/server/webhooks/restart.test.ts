/**
 * A restart loses no delivery: the real server, started as `npm start` starts it, is killed with
 * SIGKILL while a receiver holds the delivery's connection open; started again on the same data
 * (the embedded folder, or the private PostgreSQL database when DATABASE_URL is set), it sends the
 * same event once the dead process's lease has passed, signed as the SDK verifies.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { verifyWebhook } from '../../../sdk/src/webhooks';
import { MIN_WEBHOOK_LEASE_SECONDS } from '../../../server/config';
import { type CliFixture, createCliFixture, runCli } from '../../helpers/cli';
import { SERVER_START_MS, stopChild, waitForLine } from '../../helpers/process';
import { call, type Received } from '../../helpers/webhooks';

const ROOT = path.resolve(__dirname, '../../..');
// Two starts of the server, the lease to run out, and the delivery; the bound only catches a hang.
jest.setTimeout(2 * SERVER_START_MS + (MIN_WEBHOOK_LEASE_SECONDS + 30) * 1000);

/** Records every request; holds the first one's connection open, answers the others 200. */
async function startHoldingReceiver() {
  const received: Received[] = [];
  let arrived: () => void = () => undefined;
  const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (received.length === 1) arrived();
      else res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    firstArrived,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let cli: CliFixture;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  cli = await createCliFixture('webhook-restart');
  env = {
    ...cli.env,
    PORT: '0',
    SYNC_CRON: 'off',
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_SECRET_KEY: 'restart-test-sealing-key-0123456789abcdef',
    // The shortest lease there is: the restarted server may send what the dead one held this long after.
    WEBHOOK_LEASE_SECONDS: String(MIN_WEBHOOK_LEASE_SECONDS),
  };
});
afterAll(() => cli.close());

/** The server in a process of its own, as `npm start` runs it; resolves once it listens, with its API address. */
async function startServer(): Promise<{ child: ChildProcessWithoutNullStreams; api: string }> {
  const child = spawn(process.execPath, ['scripts/run.mjs', 'main'], { cwd: ROOT, env });
  child.stderr.resume();
  const listening = JSON.parse(await waitForLine(child, /"msg":"listening"/, SERVER_START_MS)) as { port: number };
  return { child, api: `http://127.0.0.1:${listening.port}/api/v1` };
}

it('a server killed with SIGKILL while a delivery is in flight delivers the same event after a restart, signed', async () => {
  const created = await runCli('keys', ['create', '--name', 'restart', '--plan', 'pro', '--json'], env);
  expect([created.code, created.stderr]).toEqual([0, '']);
  const { key } = JSON.parse(created.stdout) as { key: string };
  const receiver = await startHoldingReceiver();
  let server = await startServer();
  try {
    // monex.session never fires here (no BCCR_TOKEN): the ping is the only event the receiver gets.
    const subscribed = await call(server.api, key, 'POST', '/webhooks', { url: receiver.url, events: ['monex.session'] });
    expect(subscribed.status).toBe(201);
    const { id, secret } = subscribed.body.data as { id: string; secret: string };
    expect((await call(server.api, key, 'POST', `/webhooks/${id}/test`)).status).toBe(202);

    await receiver.firstArrived;
    const killedAt = Date.now();
    expect(await stopChild(server.child, 'SIGKILL')).toBeNull();

    server = await startServer();
    // Delivered once the lease passes (plus a poll), or at once if the restart took longer than
    // the lease; the bound only tells "delivered" from "lost".
    const deadline = Math.max(killedAt + MIN_WEBHOOK_LEASE_SECONDS * 1000, Date.now()) + 30_000;
    while (receiver.received.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.received).toHaveLength(2);
    const [first, again] = receiver.received as [Received, Received];
    // Not before the dead process's lease ran out (it began just before the first attempt): a live one's attempt is never doubled.
    const sentAt = (r: Received) => Number(r.headers['webhook-timestamp']);
    expect(sentAt(again) - sentAt(first)).toBeGreaterThanOrEqual(MIN_WEBHOOK_LEASE_SECONDS - 1);

    const event = await verifyWebhook<{ subscriptionId: string }>(again.body, again.headers, secret);
    expect(event).toMatchObject({ type: 'ping', data: { subscriptionId: id } });
    // The same event, not a new one: the receiver can tell it has seen it.
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(again.body).toBe(first.body);
    await expect(verifyWebhook(again.body, again.headers, `whsec_${Buffer.alloc(32, 7).toString('base64')}`)).rejects.toThrow(/matches/);

    // The restarted server recorded it delivered.
    let deliveries: Array<{ eventId: string; status: string; lastStatus: number | null }> = [];
    for (let i = 0; i < 50; i++) {
      deliveries = (await call(server.api, key, 'GET', `/webhooks/${id}/deliveries`)).body.data as typeof deliveries;
      if (deliveries[0]?.status === 'delivered') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(deliveries).toEqual([expect.objectContaining({ eventId: event.id, status: 'delivered', lastStatus: 200 })]);
    expect(await stopChild(server.child, 'SIGTERM')).toBe(0);
  } finally {
    await stopChild(server.child, 'SIGKILL');
    await receiver.close();
  }
});
