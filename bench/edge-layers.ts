/**
 * What each middleware of the edge (server/http/edge.ts) costs the server's CPU per request, in
 * process and without HTTP (bench/in-process.ts): Koa's context for a request like the bench's
 * `/exchange-rate/latest` (the same path and headers), run through one middleware and then the
 * constant answer of the floors (bench/floors.ts). Beside them: the constant alone, what the edge
 * writes with none of its logic (the `only what the edge writes` floor's middleware), and the
 * whole edge.
 *
 *   npm run bench:edge
 *
 * 100,000 requests a layer and round; medians over the rounds (BENCH_ROUNDS, 9 unless given).
 */
import Koa from 'koa';
import { edgeMiddlewares } from '../server/http/edge';
import { constant, edgeDeps, writeTheEdgeOutputs } from './floors';
import { chain, type Layer, measureLayers, requestContext } from './in-process';

const app = new Koa();
const PATH = '/api/v1/exchange-rate/latest';

async function main(): Promise<void> {
  const deps = edgeDeps();
  const edge = edgeMiddlewares({ ...deps, corsOrigins: ['*'] });
  const answer: Koa.Middleware = async (ctx) => constant(ctx);
  const layer = (name: string, middlewares: Koa.Middleware[]): Layer => {
    const run = chain(middlewares);
    return [name, () => run(requestContext(app, PATH, 'crc_live_bench'))];
  };
  await measureLayers(
    [
      layer('the constant answer alone', [answer]),
      // Each middleware by its own function's name (requestId, recordRequest, compressLarge, cors, …).
      ...edge.map((middleware) => layer(`${middleware.name}, alone`, [middleware, answer])),
      layer('only what the edge writes (headers, metrics, log line)', [writeTheEdgeOutputs(deps), answer]),
      layer('the whole edge', [...edge, answer]),
    ],
    { rounds: Number(process.env.BENCH_ROUNDS ?? 9), requests: 100_000 },
  );
  deps.logger.flush();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
