/**
 * What each middleware of the edge (server/http/edge.ts) costs the server's CPU per request, in
 * process and without HTTP: Koa's context for a request like the bench's `/exchange-rate/latest`
 * (the same path and headers), run through one middleware and then the constant answer of the
 * floors (bench/floors.ts). Beside them: the constant alone, what the edge writes with none of its
 * logic (the `only what the edge writes` floor's middleware), and the whole edge.
 *
 *   npm run bench:edge
 *
 * No socket is read or written: the figures are the middlewares' own work, which the HTTP rows
 * of `npm run bench` carry together with the server's reads, writes and event-loop turns. Each
 * round runs every layer in turn over 100,000 requests, one after another; CPU time is
 * process.cpuUsage's, user and system. Medians over the rounds.
 */
import http from 'node:http';
import net from 'node:net';
import Koa from 'koa';
import compose from 'koa-compose';
import { edgeMiddlewares } from '../server/http/edge';
import { constant, edgeDeps, writeTheEdgeOutputs } from './floors';
import { median } from './report';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const REQUESTS = 100_000;
/** Requests between two turns of the event loop, so that the log writer and timers run as in a server. */
const PER_TURN = 50;

const app = new Koa();
const socket = new net.Socket();

/** Koa's context for a request as the bench's load generator sends it: no socket behind it, nothing is sent. */
function context(): Koa.Context {
  const request = new http.IncomingMessage(socket);
  request.method = 'GET';
  request.url = '/api/v1/exchange-rate/latest';
  request.headers = { host: '127.0.0.1', connection: 'keep-alive', 'accept-encoding': 'br, gzip, deflate', 'x-api-key': 'crc_live_bench' };
  return app.createContext(request, new http.ServerResponse(request));
}

type Chain = (ctx: Koa.Context) => Promise<unknown>;

async function cpuPerRequest(run: Chain): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) {
    await run(context());
    if (i % PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / REQUESTS;
}

/** The middlewares run as Koa runs an app's, with nothing after the last. */
function chain(middlewares: Koa.Middleware[]): Chain {
  const run = compose(middlewares);
  return (ctx) => run(ctx, () => Promise.resolve());
}

async function main(): Promise<void> {
  const deps = edgeDeps();
  const edge = edgeMiddlewares({ ...deps, corsOrigins: ['*'] });
  const answer: Koa.Middleware = async (ctx) => constant(ctx);
  const layers: Array<[name: string, run: Chain]> = [
    ['the constant answer alone', chain([answer])],
    // Each middleware by its own function's name (requestId, recordRequest, compressLarge, cors, …).
    ...edge.map((middleware): [string, Chain] => [`${middleware.name}, alone`, chain([middleware, answer])]),
    ['only what the edge writes (headers, metrics, log line)', chain([writeTheEdgeOutputs(deps), answer])],
    ['the whole edge', chain([...edge, answer])],
  ];

  const figures = layers.map((): number[] => []);
  // A first pass unmeasured, so every layer's code is compiled before its first round counts.
  for (const [, run] of layers) await cpuPerRequest(run);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, [, run]] of layers.entries()) figures[i]?.push(await cpuPerRequest(run));
  }

  const medians = figures.map(median);
  const bare = medians[0] ?? Number.NaN;
  console.log(`CPU µs per request, in process, medians of ${ROUNDS} rounds of ${REQUESTS.toLocaleString('en')} requests\n`);
  console.log('| layer | µs/request | min–max | over the constant alone |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [i, [name]] of layers.entries()) {
    const values = figures[i] ?? [];
    const m = medians[i] ?? Number.NaN;
    const over = m - bare;
    console.log(
      `| ${name} | ${m.toFixed(2)} | ${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)} | ${over < 0 ? '−' : '+'}${Math.abs(over).toFixed(2)} |`,
    );
  }
  deps.logger.flush();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
