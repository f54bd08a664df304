/**
 * `npm run bench:pairs`: what asking for the euro costs against the dollar, measured in pairs. The
 * main run's rows are three samples minutes apart, and on a shared machine whose speed drifts by
 * tens of percent in that time they cannot tell 10 % apart. Here each round measures the dollar's
 * row and the euro's back to back (in alternating order, so neither always goes first), and the
 * figure is the median over rounds of the euro's CPU µs per request divided by the dollar's of the
 * same round: drift slower than a round cancels out.
 *
 * The same server as `npm run bench` (the production bundle on a private PostgreSQL database and
 * the shared Redis, bench/setups.ts), the same data and keys.
 *
 *   BENCH_PAIR_ROUNDS   rounds (default 15)
 *   BENCH_PAIR_SECONDS  seconds per measurement (default 1)
 *   BENCH_PROFILE       a folder: the server writes postgres.cpuprofile there
 */
import fs from 'node:fs';
import { calendarDay } from '../shared/dates';
import { measure, type Sample } from './measure';
import { bundle } from './processes';
import { median } from './report';
import { startPostgres } from './setups';
import { createWorkloads, type Workload } from './workloads';

const ROUNDS = Number(process.env.BENCH_PAIR_ROUNDS ?? 15);
const SECONDS = Number(process.env.BENCH_PAIR_SECONDS ?? 1);
const CONNECTIONS = 10;
/** The dollar's rows and the euro's beside them. */
const PAIRS = [
  ['latest', 'latest-eur'],
  ['date', 'date-eur'],
  ['date-uncached', 'date-uncached-eur'],
] as const;

const log = (line = '') => process.stdout.write(`${line}\n`);

interface PairResult {
  dollar: Sample[];
  euro: Sample[];
  /** The euro's CPU µs per request over the dollar's, one per round. */
  cpuRatios: number[];
}

const spread = (values: readonly number[], places: number) =>
  `${median(values).toFixed(places)} (${Math.min(...values).toFixed(places)}–${Math.max(...values).toFixed(places)})`;

async function main(): Promise<void> {
  const today = calendarDay(new Date());
  if (process.env.BENCH_PROFILE) fs.mkdirSync(process.env.BENCH_PROFILE, { recursive: true });
  const bundleDir = await bundle({ server: 'bench/server.ts' });
  const setup = await startPostgres(bundleDir, 300, today);
  try {
    const workloads = createWorkloads(today);
    const row = (id: string) => workloads[id] as Workload;
    const target = { origin: setup.origin, pid: setup.pid };
    // Unmeasured: every row once, so no round pays for code still being compiled or a series loading.
    for (const id of PAIRS.flat()) await measure(target, row(id), setup.keys, CONNECTIONS, 1);

    const results: PairResult[] = PAIRS.map(() => ({ dollar: [], euro: [], cpuRatios: [] }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [dollarId, euroId]] of PAIRS.entries()) {
        const result = results[i] as PairResult;
        const order = round % 2 === 0 ? ([dollarId, euroId] as const) : ([euroId, dollarId] as const);
        const samples: Record<string, Sample> = {};
        for (const id of order) samples[id] = await measure(target, row(id), setup.keys, CONNECTIONS, SECONDS);
        const dollar = samples[dollarId] as Sample;
        const euro = samples[euroId] as Sample;
        result.dollar.push(dollar);
        result.euro.push(euro);
        result.cpuRatios.push(euro.cpuUsPerRequest / dollar.cpuUsPerRequest);
        if (process.stderr.isTTY)
          process.stderr.write(`\rround ${round + 1}/${ROUNDS} ${dollarId}: ${(euro.cpuUsPerRequest / dollar.cpuUsPerRequest).toFixed(2)}   `);
      }
    }
    if (process.stderr.isTTY) process.stderr.write('\n');

    log(`# The euro against the dollar, in pairs · ${new Date().toISOString()}`);
    log(`${ROUNDS} rounds of ${SECONDS} s per row at ${CONNECTIONS} connections, PostgreSQL + Redis; median (min–max) over the rounds\n`);
    log('| dollar’s row | euro’s row | dollar CPU µs/req | euro CPU µs/req | euro / dollar, CPU per request | dollar req/s | euro req/s | errors |');
    log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const [i, [dollarId, euroId]] of PAIRS.entries()) {
      const { dollar, euro, cpuRatios } = results[i] as PairResult;
      const errors = [...dollar, ...euro].reduce((sum, s) => sum + s.errors + s.non2xx, 0);
      log(
        `| ${row(dollarId).name} | ${row(euroId).name} | ${spread(
          dollar.map((s) => s.cpuUsPerRequest),
          0,
        )} | ${spread(
          euro.map((s) => s.cpuUsPerRequest),
          0,
        )} | ${spread(cpuRatios, 3)} | ${spread(
          dollar.map((s) => s.rps),
          0,
        )} | ${spread(
          euro.map((s) => s.rps),
          0,
        )} | ${errors} |`,
      );
    }
  } finally {
    await setup.close();
    fs.rmSync(bundleDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
