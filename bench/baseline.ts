/**
 * The baselines, in one process of their own: servers that answer every request with the same
 * constant JSON, the size of `/exchange-rate/latest`'s answer.
 *
 * - bare Koa (one middleware setting the body): the framework the service is built on, with
 *   nothing of ours. Every route's `ratio` is against this.
 * - bare node:http (one writeHead and end): the physical limit of this machine, this Node and
 *   this load generator; no server written in Node answers faster.
 * - floors, what parts of the production path cost before any work of a route's own:
 *   - Koa behind the service's edge middlewares (server/http/edge.ts: request id, metrics and the
 *     access line at info, compression, CORS, security headers, the error envelope), which every
 *     answer goes through;
 *   - Koa writing only what the edge writes for every answer, with none of its logic: the same
 *     headers set at once, one metrics observation and one access line. The edge cannot cost less
 *     than this without writing less;
 *   - Koa asking the service's rate limiter on Redis once per request (server/access/rate-limit.ts,
 *     the client options of runtime.ts), the round trip every keyed answer waits for;
 *   - beneath it, one Redis round trip (a PING), and one atomic counting script with the limit's
 *     three headers and nothing of the service's: what any exact shared limit costs;
 *   - both in one server, the edge then the limiter: what a keyed answer pays before its key, its
 *     quota and its route (the two costs need not add up: waiting for Redis changes how requests
 *     share the event loop's turns and the system calls).
 *
 * Says `{"event":"ready","koa":port,"node":port,"edge":port,"outputs":port,"redis":port,"ping":port,"script":port,"edgeRedis":port,"pid":…}` on stdout;
 * stops when stdin closes. BENCH_REDIS_URL names the Redis.
 */
import {
  bareKoa,
  bareNode,
  koaAskingRedis,
  koaBehindTheEdge,
  koaBehindTheEdgeAskingRedis,
  koaPingingRedis,
  koaScriptingRedis,
  koaWritingTheEdgeOutputs,
  listen,
} from './floors';

async function main(): Promise<void> {
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const [koa, node, edge, outputs, redis, ping, script, edgeRedis] = await Promise.all([
    listen(bareKoa().callback()),
    listen(bareNode),
    listen(koaBehindTheEdge().callback()),
    listen(koaWritingTheEdgeOutputs().callback()),
    listen(koaAskingRedis(redisUrl).callback()),
    listen(koaPingingRedis(redisUrl).callback()),
    listen(koaScriptingRedis(redisUrl).callback()),
    listen(koaBehindTheEdgeAskingRedis(redisUrl).callback()),
  ]);
  process.stdout.write(`${JSON.stringify({ event: 'ready', koa, node, edge, outputs, redis, ping, script, edgeRedis, pid: process.pid })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
