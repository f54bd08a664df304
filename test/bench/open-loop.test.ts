/**
 * The bench's offered-rate load is open loop: requests leave on their schedule whether or not the
 * earlier ones were answered, and each latency counts from the request's due time, so a server
 * that falls behind is charged for the queue it makes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openLoop } from '../../bench/open-loop';

async function serverAnsweringAfter(ms: number): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_request, response) => setTimeout(() => response.end('{}'), ms));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const request = () => ({ method: 'GET' as const, path: '/', headers: {} });

it('sends the offered rate, spread over the time, and answers every request', async () => {
  const server = await serverAnsweringAfter(0);
  try {
    const result = await openLoop(server.origin, 200, 0.5, 4, request);
    expect(result.latencies).toHaveLength(100);
    expect(result.statusCodes).toEqual({ 200: 100 });
    expect(result.errors).toBe(0);
    // Spread over the half second, not sent in one burst at its start. (How fast they are answered
    // depends on the machine: the next test holds what the latencies count.)
    expect(result.durationS).toBeGreaterThan(0.45);
  } finally {
    await server.close();
  }
});

it('counts the queue a slow server makes: latency from the due time, not from the send', async () => {
  // One connection, 50 ms per answer, a request due every 10 ms: each waits longer than the last.
  const server = await serverAnsweringAfter(50);
  try {
    const result = await openLoop(server.origin, 100, 0.2, 1, request);
    expect(result.latencies).toHaveLength(20);
    // The 20th request was due at 190 ms and answered after 20 × 50 ms: some 800 ms late. A closed
    // loop, or a clock started at the send, would see about 50 ms for each.
    expect(Math.max(...result.latencies)).toBeGreaterThan(600);
    // Answered in order on the one connection: each later than the first by the queue before it.
    expect((result.latencies.at(-1) as number) - (result.latencies[0] as number)).toBeGreaterThan(400);
  } finally {
    await server.close();
  }
});
