/**
 * `npm run bench:compute`: the work in which asking for the euro differs from asking for the
 * dollar, alone and in this process: a read route's computation of an uncached answer (the query
 * parsed, the series picked and searched, the record written in its envelope with its ETag), for
 * the dollar and for the euro, on the same days. Everything else a request costs (HTTP, the edge
 * middlewares, the key, the limit, the quota, the log line) is the same for both, so the euro's
 * extra cost per request is the difference measured here, to be set against what a whole request
 * costs (`npm run bench`).
 *
 * CPU time (process.cpuUsage) of blocks of requests, the dollar's and the euro's alternately
 * (ABBA), so that a machine whose speed drifts weighs on both alike; medians over the blocks.
 *
 *   BENCH_COMPUTE_BLOCKS    pairs of blocks (default 200)
 *   BENCH_COMPUTE_REQUESTS  requests per block (default 1000)
 */
import pino from 'pino';
import { calendarDay } from '../shared/dates';
import { createApp } from '../server/app';
import { createLocalChangeFeed } from '../server/changes';
import type { Route } from '../server/http/route';
import { median } from './report';
import { crossDates, seedFullHistory } from './seed';
import { openEmbeddedDatabase } from './setups';

const BLOCKS = Number(process.env.BENCH_COMPUTE_BLOCKS ?? 200);
const REQUESTS = Number(process.env.BENCH_COMPUTE_REQUESTS ?? 1000);

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

interface Case {
  name: string;
  path: string;
  /** The raw query of the i-th request: the dollar's, then the euro's. */
  queries: [(i: number) => Record<string, string>, (i: number) => Record<string, string>];
}

async function main(): Promise<void> {
  const today = calendarDay(new Date());
  const database = await openEmbeddedDatabase();
  try {
    await seedFullHistory(database.db, today);
    const app = createApp({ db: database.db, logger: pino({ level: 'silent' }), changes: createLocalChangeFeed() });
    const dates = crossDates(today);
    const cases: Case[] = [
      { name: '/exchange-rate/latest', path: '/exchange-rate/latest', queries: [() => ({}), () => ({ currency: 'EUR' })] },
      {
        name: '/exchange-rate?date= (a business day since 2000)',
        path: '/exchange-rate',
        queries: [(i) => ({ date: dates[i % dates.length] as string }), (i) => ({ date: dates[i % dates.length] as string, currency: 'EUR' })],
      },
    ];
    const scope = { today, apiKey: null };
    process.stdout.write(
      `| computation of an uncached answer | dollar µs | euro µs | euro − dollar, µs | euro / dollar |\n| --- | ---: | ---: | ---: | ---: |\n`,
    );
    for (const c of cases) {
      const route = app.routes.find((r: Route) => r.path === c.path);
      if (!route) throw new Error(`no route ${c.path}`);
      // What mount.ts does with an answer the response cache does not hold.
      const block = async (query: (i: number) => Record<string, string>): Promise<number> => {
        const started = cpuMicros();
        for (let i = 0; i < REQUESTS; i++) {
          const parsed = route.parse(query(i));
          app.responseCache.wrap(route.represent(await route.handle(parsed, scope), parsed));
        }
        return (cpuMicros() - started) / REQUESTS;
      };
      const [dollarQuery, euroQuery] = c.queries;
      // Unmeasured: compiled, and both series loaded.
      for (let i = 0; i < 10; i++) {
        await block(dollarQuery);
        await block(euroQuery);
      }
      const dollar: number[] = [];
      const euro: number[] = [];
      for (let pair = 0; pair < BLOCKS; pair++) {
        if (pair % 2 === 0) {
          dollar.push(await block(dollarQuery));
          euro.push(await block(euroQuery));
        } else {
          euro.push(await block(euroQuery));
          dollar.push(await block(dollarQuery));
        }
      }
      const differences = euro.map((e, i) => e - (dollar[i] as number));
      const ratios = euro.map((e, i) => e / (dollar[i] as number));
      process.stdout.write(
        `| ${c.name} | ${median(dollar).toFixed(1)} | ${median(euro).toFixed(1)} | ${median(differences).toFixed(1)} | ${median(ratios).toFixed(2)} |\n`,
      );
    }
    process.stdout.write(`\n${BLOCKS} pairs of blocks of ${REQUESTS} requests; medians over the pairs\n`);
  } finally {
    await database.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
