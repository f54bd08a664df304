/**
 * Middlewares run in process, without HTTP (bench/edge-layers.ts, bench/keyed-layers.ts): Koa's
 * context for a request like the bench's load generator sends, the CPU a run of them costs per
 * request, and the table both print. No socket is read or written: the figures are the
 * middlewares' own work, which the HTTP rows of `npm run bench` carry together with the server's
 * reads, writes and event-loop turns.
 */
import http from 'node:http';
import net from 'node:net';
import type Koa from 'koa';
import compose from 'koa-compose';
import { median } from './report';

/** Requests between two turns of the event loop, so that the log writer and timers run as in a server. */
const PER_TURN = 50;
const socket = new net.Socket();

/** Koa's context for a GET as the bench's load generator sends it: nothing is sent back. */
export function requestContext(app: Koa, url: string, key: string): Koa.Context {
  const request = new http.IncomingMessage(socket);
  request.method = 'GET';
  request.url = url;
  request.headers = { host: '127.0.0.1', connection: 'keep-alive', 'accept-encoding': 'br, gzip, deflate', 'x-api-key': key };
  return app.createContext(request, new http.ServerResponse(request));
}

/** One request through a layer; `i` counts the requests of a round (for a rotation of keys). */
export type Layer = [name: string, run: (i: number) => Promise<unknown>];

/** The middlewares run as Koa runs an app's, with nothing after the last. */
export function chain(middlewares: Koa.Middleware[]): (ctx: Koa.Context) => Promise<unknown> {
  const run = compose(middlewares);
  return (ctx) => run(ctx, () => Promise.resolve());
}

async function cpuPerRequest(run: Layer[1], requests: number): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < requests; i++) {
    await run(i);
    if (i % PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / requests;
}

/**
 * Each round runs every layer in turn over `requests` requests, one after another, after a first
 * pass unmeasured (so every layer's code is compiled before its first round counts); CPU time is
 * process.cpuUsage's, user and system. Prints the medians over the rounds, each against the first
 * layer's.
 */
export async function measureLayers(layers: readonly Layer[], { rounds, requests }: { rounds: number; requests: number }): Promise<void> {
  const figures = layers.map((): number[] => []);
  for (const [, run] of layers) await cpuPerRequest(run, requests);
  for (let round = 0; round < rounds; round++) {
    for (const [i, [, run]] of layers.entries()) figures[i]?.push(await cpuPerRequest(run, requests));
  }

  const medians = figures.map(median);
  const first = medians[0] ?? Number.NaN;
  console.log(`CPU µs per request, in process, medians of ${rounds} rounds of ${requests.toLocaleString('en')} requests\n`);
  console.log(`| layer | µs/request | min–max | over ${layers[0]?.[0]} |`);
  console.log('| --- | ---: | ---: | ---: |');
  for (const [i, [name]] of layers.entries()) {
    const values = figures[i] ?? [];
    const m = medians[i] ?? Number.NaN;
    const over = m - first;
    console.log(
      `| ${name} | ${m.toFixed(2)} | ${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)} | ${over < 0 ? '−' : '+'}${Math.abs(over).toFixed(2)} |`,
    );
  }
}
