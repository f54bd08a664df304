/**
 * `npm run bench`: the real server as production runs it (logging on, keys rotating through the
 * key, limit and quota path), on PostgreSQL + Redis and on the embedded database, against bare
 * Koa and bare node:http answering a constant, all in the same run on the same machine, so the
 * ratios mean something anywhere. Every measurement is bounded in time; see README.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { calendarDay } from '../shared/dates';
import { BACKFILL_PAIRS, type Backfill, benchBackfill, type Timing } from './backfill';
import { type LogSummary, summariseLog } from './logs';
import { fakeKeys, KEY_BUDGET, KEY_QUOTA, KeyRing } from './keys';
import { measure, type Sample, type Target } from './measure';
import { bundle, type Child, MALLOC_ARENA_MAX, memoryMb, startChild } from './processes';
import { type Tables, verdictLines, verdicts } from './verdicts';
import { COLUMNS, type Column, extraColumn, markdownTable, type Summary, summarise, median } from './report';
import {
  createPrivateDatabase,
  openEmbeddedDatabase,
  type HeapReading,
  type Setup,
  type SetupId,
  startEmbedded,
  startPostgres,
  timedGet,
  REDIS_URL,
} from './setups';
import { ACCEPT_ENCODING, API, createWorkloads, type Workload } from './workloads';

const ROOT = path.resolve(__dirname, '..');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const CONNECTIONS = [10, 50] as const;
/**
 * The offered load of the open-loop rows (`…-1000`): requests per second over 50 connections,
 * whatever the server's speed, for the latency a realistic load sees rather than saturation's.
 */
const OPEN_LOOP_RATE = 1000;
const OPEN_LOOP_CONNECTIONS = [50] as const;
const OPEN_LOOP_SUFFIX = `-${OPEN_LOOP_RATE}`;
const README = path.join(ROOT, 'bench/README.md');
/** The README's section that each run rewrites, between these two lines. */
const GENERATED_BEGIN = '<!-- written by npm run bench: begin -->';
const GENERATED_END = '<!-- written by npm run bench: end -->';

/**
 * The rows of each setup. The embedded table keeps the routes whose cost depends on the database:
 * the others answer from memory on either, and differ only by the key and quota path, which
 * /exchange-rate/latest shows (see README).
 */
const FLOOR_IN_SERVER = 'floor-in-server';
const ROWS: Record<SetupId, string[]> = {
  postgres: [
    'latest',
    'latest-eur',
    'date',
    'date-eur',
    'date-uncached',
    'date-uncached-eur',
    'convert',
    'banking',
    'range',
    'stats',
    'close',
    'chart-uncached',
    'range-uncached',
    'stats-uncached',
    'close-uncached',
    'mixed',
    `mixed${OPEN_LOOP_SUFFIX}`,
    'mcp',
    'health',
    'livez',
    FLOOR_IN_SERVER,
  ],
  embedded: ['latest', 'stats-uncached', 'mixed', 'mcp', 'health'],
};
/** The rows whose load warms each server up before anything is measured. */
const WARM_UP = ['mixed', 'date-uncached-eur'];
/**
 * BENCH_ROUTES=latest,mixed measures only those (while developing), with the baselines (which
 * BENCH_BASELINES=koa,edge narrows the same way); BENCH_BACKFILL=0 leaves the backfill out.
 */
const ONLY = process.env.BENCH_ROUTES?.split(',');
const ONLY_BASELINES = process.env.BENCH_BASELINES?.split(',');
const rowsOf = (setup: SetupId) => ROWS[setup].filter((id) => !ONLY || ONLY.includes(id));
/** `mixed-1000` is the mixed workload at 1,000 requests/s. */
const workloadIdOf = (id: string) => (id.endsWith(OPEN_LOOP_SUFFIX) ? id.slice(0, -OPEN_LOOP_SUFFIX.length) : id);
const rateOf = (id: string) => (id.endsWith(OPEN_LOOP_SUFFIX) ? OPEN_LOOP_RATE : undefined);

type TableId = 'baseline' | SetupId;

/** One line of a table: what is asked, of which server, with which keys. */
interface Row {
  table: TableId;
  workload: Workload;
  target: Target;
  keys: KeyRing;
  setup: Setup | null;
  connections: readonly number[];
  /** Offered requests per second (open loop); absent: as fast as the server answers. */
  rate?: number;
}

/** A workload measured at a fixed offered rate, under the id its row goes by. */
function atRate(workload: Workload, rate: number | undefined): Workload {
  if (!rate) return workload;
  return { ...workload, id: `${workload.id}-${rate}`, name: `${workload.name}, ${rate.toLocaleString('en-US')} req/s offered` };
}

/** Everything printed after the run's first two lines, which the README's generated section repeats. */
const printed: string[] = [];
const log = (line = '') => {
  process.stdout.write(`${line}\n`);
  printed.push(line);
};
/** One line rewritten in place on a terminal; nothing in a log file. */
const progress = (line: string) => {
  if (process.stderr.isTTY) process.stderr.write(`\r${line.padEnd(100)}`);
};

/** Things to undo however the run ends (Ctrl-C included): servers to stop, a database to drop. */
const cleanups: Array<() => Promise<void>> = [];
async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error: unknown) => console.error(error));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanUp().finally(() => process.exit(130)));

interface BaselinePorts {
  koa: number;
  node: number;
  edge: number;
  outputs: number;
  redis: number;
  ping: number;
  script: number;
  edgeRedis: number;
  pid: number;
}

/** A keyed `/exchange-rate/latest`: what the constant servers are asked (their keys never looked up), and what touches a server's keys. */
const latestAs = (id: string, name: string): Workload => ({ id, name, keyed: true, path: () => `${API}/exchange-rate/latest` });
function fakeKeyRing(): KeyRing {
  const keys = new KeyRing();
  keys.add(fakeKeys(500));
  return keys;
}

/** The baselines answer the same constant to everything. */
function baselineRows(ready: BaselinePorts): Row[] {
  const keys = fakeKeyRing();
  const servers: Array<[id: string, name: string, port: number, rate?: number]> = [
    ['node', 'bare node:http, constant JSON (the limit)', ready.node],
    ['koa', 'bare Koa, constant JSON (ratio 1)', ready.koa],
    ['edge', 'floor: Koa + the edge middlewares, logging', ready.edge],
    ['outputs', 'floor: Koa + only what the edge writes (headers, metrics, log line)', ready.outputs],
    ['redis', 'floor: Koa + one rate-limit call on Redis', ready.redis],
    ['ping', 'floor: Koa + one Redis round trip (PING)', ready.ping],
    ['script', 'floor: Koa + one counting script on Redis and its three headers, no library', ready.script],
    ['edge-redis', 'floor: Koa + the edge + one rate-limit call on Redis', ready.edgeRedis],
    ['koa', 'bare Koa, constant JSON', ready.koa, OPEN_LOOP_RATE],
  ];
  return servers
    .map(([id, name, port, rate]) => ({
      table: 'baseline' as const,
      workload: atRate(latestAs(id, name), rate),
      target: { origin: `http://127.0.0.1:${port}`, pid: ready.pid },
      keys,
      setup: null,
      connections: rate ? OPEN_LOOP_CONNECTIONS : CONNECTIONS,
      rate,
    }))
    .filter((row) => !ONLY_BASELINES || ONLY_BASELINES.includes(row.workload.id));
}

/**
 * The edge and Redis floor again, served by the API server's own process (bench/server.ts): the
 * same constant, in a process that holds what the API holds and has served what it has served.
 */
function floorInServerRow(setup: Setup): Row {
  return {
    table: setup.id,
    workload: latestAs(FLOOR_IN_SERVER, "floor: Koa + the edge + one rate-limit call on Redis, in this server's process"),
    target: { origin: `http://127.0.0.1:${setup.ready.floorPort}`, pid: setup.pid, counters: setup.counters },
    keys: fakeKeyRing(),
    setup,
    connections: CONNECTIONS,
  };
}

function setupRows(setup: Setup, today: string): Row[] {
  const workloads = createWorkloads(today);
  return rowsOf(setup.id).flatMap((id): Row[] => {
    // Only the PostgreSQL server, which has Redis, serves the floor beside the API.
    if (id === FLOOR_IN_SERVER) return setup.ready.floorPort ? [floorInServerRow(setup)] : [];
    return [
      {
        table: setup.id,
        workload: atRate(workloads[workloadIdOf(id)] as Workload, rateOf(id)),
        target: { origin: setup.origin, pid: setup.pid, counters: setup.counters },
        keys: setup.keys,
        setup,
        connections: rateOf(id) ? OPEN_LOOP_CONNECTIONS : CONNECTIONS,
        rate: rateOf(id),
      },
    ];
  });
}

/**
 * Keys for a whole setup's run, from the fastest the machine answered (bare node:http): no keyed
 * route is faster, so its keys will not run out. `ensureRoom` still tops up should it be wrong.
 */
function initialKeyCount(setup: SetupId, maxRps: number): number {
  const keyedSeconds = rowsOf(setup).filter((id) => !['health', 'livez', FLOOR_IN_SERVER].includes(id)).length * CONNECTIONS.length * REPEATS * DURATION_S + 2;
  return Math.max(300, Math.ceil((maxRps * keyedSeconds) / KEY_BUDGET));
}

/** Before a measurement: keys enough for it at 1.5 times the fastest rate seen so far. */
async function ensureRoom(row: Row, maxRps: number): Promise<void> {
  if (!row.setup || !row.workload.keyed) return;
  const needed = maxRps * 1.5 * (DURATION_S + 1);
  const room = row.keys.room;
  if (room < needed) await row.setup.addKeys(Math.max(100, Math.ceil((needed - room) / KEY_BUDGET)));
}

interface Measured {
  row: Row;
  connections: number;
  samples: Sample[];
}

async function measureAll(rows: readonly Row[], maxRpsAtStart: number): Promise<Measured[]> {
  const results: Measured[] = rows.flatMap((row) => row.connections.map((connections) => ({ row, connections, samples: [] })));
  let maxRps = maxRpsAtStart;
  const total = results.length * REPEATS;
  let done = 0;
  // Repeats outermost: the three samples of a row are minutes apart, so a passing disturbance of
  // the shared machine hits one of them, not all three.
  for (let repeat = 1; repeat <= REPEATS; repeat++) {
    let previous: Setup | null = null;
    for (const result of results) {
      await ensureRoom(result.row, maxRps);
      if (result.row.setup && result.row.setup !== previous) await touchKeys(result.row);
      previous = result.row.setup;
      const sample = await measure(result.row.target, result.row.workload, result.row.keys, result.connections, DURATION_S, result.row.rate);
      result.samples.push(sample);
      if (!result.row.rate) maxRps = Math.max(maxRps, sample.rps);
      done++;
      progress(`[${done}/${total}] ${result.row.table} ${result.row.workload.id} @${result.connections}: ${Math.round(sample.rps)} req/s`);
    }
  }
  if (process.stderr.isTTY) process.stderr.write('\n');
  return results;
}

/** The longest a server's keys are touched before its rows. */
const MAX_TOUCH_SECONDS = 10;

/**
 * Unmeasured `/exchange-rate/latest`, every key of the rotation asked twice at least (in seconds of
 * load), on a setup before its rows of each repeat. The server keeps a key's lookup 30 s, then
 * refreshes it (in the background, one query per key) on the key's next request; between one repeat's keyed rows on a server and the next's, the other
 * server's rows and the baselines run for more than that, so without this the first row of each
 * repeat paid for refreshing every key of the rotation (hundreds of queries in its 3 s: the
 * PostgreSQL µs/req only that row showed, and the dearer `/latest`), and the rows after it for none.
 */
async function touchKeys(row: Row): Promise<void> {
  const touch = latestAs('touch-keys', 'keys touched');
  // A key's first request waits for its lookup and its first lease: on a fast machine, with
  // thousands of keys, one second did not reach them all, and the first row paid for the rest.
  // Bounded, so a server that stopped answering fails the next row instead of holding the run here.
  let sent = 0;
  for (let second = 0; second < MAX_TOUCH_SECONDS && sent < 2 * row.keys.size; second++)
    sent += (await measure(row.target, touch, row.keys, CONNECTIONS[1], 1)).rps;
}

/** A short unmeasured load, so the first measurement does not pay for code still being compiled. */
async function warmUp(rows: readonly Row[]): Promise<number> {
  let maxRps = 0;
  for (const row of rows) if (!row.rate) maxRps = Math.max(maxRps, (await measure(row.target, row.workload, row.keys, CONNECTIONS[1], 1)).rps);
  return maxRps;
}

/** One after the other, so that each first request is timed while nothing else of ours runs. */
async function startSetups(bundleDir: string, fastest: number, today: string): Promise<{ setups: Setup[]; floor: Child | null }> {
  const setups: Setup[] = [];
  let floor: Child | null = null;
  if (rowsOf('postgres').length > 0) {
    const postgres = await startPostgres(bundleDir, initialKeyCount('postgres', fastest), today);
    cleanups.push(() => postgres.close());
    setups.push(postgres);
  }
  if (rowsOf('embedded').length > 0) {
    const embedded = await startEmbedded(bundleDir, initialKeyCount('embedded', fastest));
    cleanups.push(() => embedded.close());
    setups.push(embedded);
    // The embedded server's memory floor: PGlite alone, holding the same data and as many keys.
    floor = startChild(path.join(bundleDir, 'pglite-floor.js'), { ...process.env, BENCH_KEYS: String(embedded.keys.size) });
    const started = floor;
    cleanups.push(() => started.stop());
    await floor.next('ready');
  }
  return { setups, floor };
}

async function backfills(): Promise<Record<SetupId, Backfill>> {
  const each = (setup: SetupId) => (line: string) => progress(`backfill on ${setup}, ${line}`);
  return {
    postgres: await benchBackfill(() => createPrivateDatabase(), each('postgres')),
    embedded: await benchBackfill(openEmbeddedDatabase, each('embedded')),
  };
}

const inSeconds = (ms: number) => (ms / 1000).toFixed(2);
/** A median in seconds, with the min–max of its samples. */
const secondsColumn = (heading: string, pick: (backfill: Backfill) => { ms: number; samples: number[] }): Column<[SetupId, Backfill]> => ({
  heading,
  show: ([, backfill]) => {
    const { ms, samples } = pick(backfill);
    return `${inSeconds(ms)} (${inSeconds(Math.min(...samples))}–${inSeconds(Math.max(...samples))})`;
  },
});
const wall = (timing: Timing) => ({ ms: timing.ms, samples: timing.samples });
const cpu = (timing: Timing) => ({ ms: timing.cpuMs, samples: timing.cpuSamples });

/** The backfill on each database, with the observation log and without, and what the log adds. */
function printBackfills(backfill: Record<SetupId, Backfill>): void {
  const { days, runs } = backfill.postgres;
  log(
    `\n### Backfill, ${days.toLocaleString('en-US')} days in ${runs} sync runs, with the observation log and without (${BACKFILL_PAIRS} of each, alternately)\n`,
  );
  const rows = Object.entries(backfill) as Array<[SetupId, Backfill]>;
  log(
    markdownTable(rows, [
      { heading: 'database', show: ([id]) => (id === 'postgres' ? 'PostgreSQL' : 'embedded') },
      secondsColumn('with the log, s (median, min–max)', (b) => wall(b.withLog)),
      secondsColumn('without, s', (b) => wall(b.withoutLog)),
      { heading: 'with / without', show: ([, b]) => b.ratio.toFixed(2) },
      secondsColumn('CPU with the log, s', (b) => cpu(b.withLog)),
      secondsColumn('CPU without, s', (b) => cpu(b.withoutLog)),
      { heading: 'CPU with / without', show: ([, b]) => b.cpuRatio.toFixed(2) },
    ]),
  );
}

type Summaries = Record<TableId, Record<string, Record<number, Summary>>>;

const TITLES: Record<TableId, string> = {
  baseline: 'Baselines (no work: a constant JSON answer)',
  postgres: 'PostgreSQL + Redis (the headline: a private database, the shared Redis)',
  embedded: 'Embedded database (PGlite in the server process), no Redis',
};

const TABLE_COLUMNS: Record<TableId, Column[]> = {
  baseline: COLUMNS,
  postgres: [
    ...COLUMNS,
    extraColumn('collector µs/req', 'collectorUsPerRequest', 1),
    extraColumn('PostgreSQL µs/req', 'postgresCpuUsPerRequest', 0),
    extraColumn('Redis cmds/req', 'redisCommandsPerRequest', 2),
  ],
  embedded: [...COLUMNS, extraColumn('collector µs/req', 'collectorUsPerRequest', 1)],
};

/** Prints a table per setup (10 connections first, then 50) and returns the same figures by setup, route and connections. */
function printTables(measured: readonly Measured[], constantRps: Map<number, number>): Summaries {
  const summaries: Summaries = { baseline: {}, postgres: {}, embedded: {} };
  for (const table of ['baseline', 'postgres', 'embedded'] as const) {
    const rows = measured
      .filter((m) => m.row.table === table)
      .sort((a, b) => a.connections - b.connections)
      .map((m) => {
        const summary = summarise(m.samples, constantRps.get(m.connections) ?? 0);
        const byConnections = summaries[table][m.row.workload.id] ?? {};
        byConnections[m.connections] = summary;
        summaries[table][m.row.workload.id] = byConnections;
        return { name: m.row.workload.name, connections: m.connections, summary };
      });
    if (rows.length === 0) continue;
    log(`\n### ${TITLES[table]}\n`);
    log(markdownTable(rows, TABLE_COLUMNS[table]));
  }
  return summaries;
}

async function main(): Promise<void> {
  const started = Date.now();
  const today = calendarDay(new Date());
  const loadAtStart = os.loadavg();
  log(`# crc-rates bench · ${new Date().toISOString()}`);
  const heading = `\`npm run bench\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${os.cpus().length} CPUs · Node ${process.version} · ${DURATION_S} s × ${REPEATS} repeats per measurement · Accept-Encoding: ${ACCEPT_ENCODING} · MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX} · load average ${loadAtStart.map((l) => l.toFixed(1)).join(' ')} at the start`;
  log(heading);
  printed.length = 0;

  if (process.env.BENCH_PROFILE) fs.mkdirSync(process.env.BENCH_PROFILE, { recursive: true });
  if (process.env.BENCH_HEAP_SNAPSHOT) fs.mkdirSync(process.env.BENCH_HEAP_SNAPSHOT, { recursive: true });
  const bundleDir = await bundle({ server: 'bench/server.ts', baseline: 'bench/baseline.ts', 'pglite-floor': 'bench/pglite-floor.ts' });
  cleanups.push(async () => fs.rmSync(bundleDir, { recursive: true, force: true }));

  const baseline: Child = startChild(path.join(bundleDir, 'baseline.js'), { ...process.env, BENCH_REDIS_URL: REDIS_URL });
  cleanups.push(() => baseline.stop());
  const baselines = baselineRows(await baseline.next<BaselinePorts>('ready'));
  // Warms this process's load generator too, and says how fast the machine answers at all.
  const fastest = await warmUp(baselines);
  // And its HTTP client, which times each server's first request.
  await timedGet(`${baselines[0]?.target.origin}/`, {});

  const backfill = process.env.BENCH_BACKFILL === '0' ? null : await backfills();

  const { setups, floor } = await startSetups(bundleDir, fastest, today);
  const rows = [...baselines, ...setups.flatMap((setup) => setupRows(setup, today))];
  // The euro's too: the mixed workload never asks for it, and its first rows would otherwise pay
  // for compiling its code and loading its series.
  await warmUp(setups.flatMap((setup) => rows.filter((r) => r.setup === setup && WARM_UP.includes(r.workload.id))));
  // Both servers now hold the same data and have served the same second of load (the embedded one
  // collected its seeding's garbage): the difference of their memory is the embedded database's.
  const memoryAfterWarmUp = Object.fromEntries(setups.map((setup) => [setup.id, memoryMb(setup.pid)]));
  // And read as the floor reads its own: the reading at once also holds the warm-up's garbage, which
  // the floor (collected, then the lowest of a few seconds) never has.
  const embeddedSettledMb = floor ? await setups.find((setup) => setup.id === 'embedded')?.settledRssMb() : undefined;
  const floorMemory = floor ? memoryMb(floor.pid) : null;
  await floor?.stop();

  const measured = await measureAll(rows, fastest);
  const memoryAtEnd = Object.fromEntries(setups.map((setup) => [setup.id, memoryMb(setup.pid)]));
  const heapAtEnd = Object.fromEntries(await Promise.all(setups.map(async (setup) => [setup.id, await setup.heap()] as const)));
  const loadAtEnd = os.loadavg();
  // Stopped now, so that their logs are whole when read.
  for (const setup of setups) await setup.close();
  const logs = Object.fromEntries(await Promise.all(setups.map(async (setup) => [setup.id, await summariseLog(setup.logFile, setup.stderrFile)] as const)));

  const tables = printTables(measured, constantRpsOf(measured));
  if (backfill) printBackfills(backfill);
  log('\n### Startup, memory, keys\n');
  const details = Object.fromEntries(
    setups.map((setup) => [
      setup.id,
      describeSetup(setup, { afterWarmUp: memoryAfterWarmUp[setup.id], atEnd: memoryAtEnd[setup.id], heapAtEnd: heapAtEnd[setup.id] }, logs[setup.id]),
    ]),
  );
  const embeddedDatabase = embeddedDatabaseMemory(
    memoryAfterWarmUp,
    setups.find((setup) => setup.id === 'embedded'),
  );
  if (floorMemory) {
    log(
      `bare PGlite holding the same data (no app): RSS ${floorMemory.rssMb} MB; the embedded server after the warm-up ${embeddedSettledMb ?? '?'} MB read as the floor is (collected, the lowest of 5 s), ${memoryAfterWarmUp.embedded?.rssMb ?? '?'} MB read at once`,
    );
  }
  const judged = verdicts(tables as Tables, {
    embeddedAfterWarmUpMb: embeddedSettledMb,
    embeddedAfterWarmUpAtOnceMb: memoryAfterWarmUp.embedded?.rssMb,
    pgliteFloorMb: floorMemory?.rssMb,
    postgresAtEndMb: memoryAtEnd.postgres?.rssMb,
  });
  log('\n### Targets, against the floors of this run\n');
  for (const line of verdictLines(judged)) log(line);
  const seconds = Math.round((Date.now() - started) / 1000);
  log(`\nbench took ${seconds} s · load average at the end ${loadAtEnd.map((l) => l.toFixed(1)).join(' ')}`);

  const results = {
    at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, loadAverage: { start: loadAtStart, end: loadAtEnd } },
    durationSeconds: DURATION_S,
    acceptEncoding: ACCEPT_ENCODING,
    repeats: REPEATS,
    connections: CONNECTIONS,
    seconds,
    embeddedDatabase,
    pgliteFloor: floorMemory,
    verdicts: judged,
    backfill,
    setups: Object.fromEntries(Object.entries(tables).map(([id, routes]) => [id, { routes, ...(details[id] ?? {}) }])),
  };
  fs.writeFileSync(path.join(ROOT, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  const whole = writeReadme(heading, printed);
  process.stdout.write(`written to bench/results/latest.json${whole ? ' and bench/README.md' : ' (some rows only: the README is left alone)'}\n`);
}

/**
 * Puts this run's tables, memory lines and verdicts into the README's generated section (between
 * GENERATED_BEGIN and GENERATED_END), headings one level down. A run of some rows only
 * (BENCH_ROUTES, BENCH_BASELINES) leaves the README alone: its section is a whole run's. Says
 * whether it wrote it.
 */
function writeReadme(heading: string, lines: readonly string[]): boolean {
  if (ONLY || ONLY_BASELINES) return false;
  const readme = fs.readFileSync(README, 'utf8');
  const begin = readme.indexOf(GENERATED_BEGIN);
  const end = readme.indexOf(GENERATED_END);
  if (begin < 0 || end < begin) throw new Error(`bench/README.md has no section between ${GENERATED_BEGIN} and ${GENERATED_END}`);
  const body = [heading, ...lines.map((line) => (line.startsWith('### ') ? `#${line}` : line))].join('\n').replace(/\n{3,}/g, '\n\n');
  fs.writeFileSync(README, `${readme.slice(0, begin + GENERATED_BEGIN.length)}\n\n${body.trim()}\n\n${readme.slice(end)}`);
  return true;
}

/** The ratios' denominator: bare Koa's median req/s at each connection count. */
function constantRpsOf(measured: readonly Measured[]): Map<number, number> {
  const koa = (connections: number) => measured.find((m) => m.row.workload.id === 'koa' && m.connections === connections)?.samples.map((s) => s.rps) ?? [];
  return new Map(CONNECTIONS.map((connections) => [connections, median(koa(connections))]));
}

type Memory = ReturnType<typeof memoryMb>;

/** Prints a setup's startup, memory and keys, and returns them for the JSON. */
function describeSetup(setup: Setup, memory: { afterWarmUp?: Memory; atEnd?: Memory; heapAtEnd?: HeapReading }, logSummary: LogSummary | undefined) {
  const { firstMs, secondMs } = setup.firstRequest;
  const { keys } = setup;
  log(
    `${setup.id}: first /exchange-rate/latest after a start ${firstMs.toFixed(1)} ms, the next ${secondMs.toFixed(1)} ms (warm-up before listening ${setup.ready.warmUpMs.toFixed(0)} ms; listening ${setup.ready.startupMs} ms after the process started)`,
  );
  log(`${setup.id}: server RSS ${memory.afterWarmUp?.rssMb} MB after the warm-up, ${memory.atEnd?.rssMb} MB at the end (peak ${memory.atEnd?.peakRssMb} MB)`);
  const heap = memory.heapAtEnd;
  if (heap) {
    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
    log(
      `${setup.id}: at the end, V8's heap ${mb(heap.heapTotal)} MB (${mb(heap.heapUsed)} MB of it in use, not collected first; ${mb(heap.liveHeapUsed)} MB live once collected), ${mb(heap.external)} MB outside it (${mb(heap.arrayBuffers)} MB of buffers), the rest of the RSS code, stacks and the allocator's`,
    );
  }
  log(
    `${setup.id}: ${keys.size} keys, ${keys.sent.toLocaleString('en-US')} keyed requests, at most ${keys.mostSent.toLocaleString('en-US')} on one key (quota ${KEY_QUOTA.toLocaleString('en-US')})${keys.overBudget ? ` · ${keys.overBudget} sent over budget!` : ''}`,
  );
  if (logSummary) {
    const others = Object.entries(logSummary.others).map(([level, count]) => `${count} ${level}`);
    log(`${setup.id}: ${logSummary.requests.toLocaleString('en-US')} access lines logged; other lines: ${others.join(', ') || 'none'}`);
    for (const line of logSummary.quoted) log(`    ${line}`);
    const stderr = Object.entries(logSummary.stderr).map(([message, count]) => `${count} × ${message}`);
    if (stderr.length > 0) log(`${setup.id}: printed on stderr, outside the log: ${stderr.join('; ')}`);
  }
  return {
    log: logSummary,
    firstRequest: setup.firstRequest,
    startup: { startupMs: setup.ready.startupMs, warmUpMs: setup.ready.warmUpMs },
    memory,
    keys: { count: keys.size, requests: keys.sent, mostOnOneKey: keys.mostSent, overBudget: keys.overBudget },
  };
}

/**
 * The embedded database's memory, two ways: the embedded server's RSS less the PostgreSQL one's,
 * both after the same start and warm-up (later their response caches hold different answers); and
 * what opening it, then filling it, added to the embedded server's own RSS.
 */
function embeddedDatabaseMemory(memory: Record<string, Memory>, embedded: Setup | undefined) {
  const opened = embedded?.ready.memory;
  if (!memory.embedded || !memory.postgres || !opened) return null;
  const againstPostgresMb = memory.embedded.rssMb - memory.postgres.rssMb;
  const emptyMb = opened.emptyMb - opened.beforeMb;
  const dataMb = opened.seededMb - opened.emptyMb;
  log(
    `embedded database: ${againstPostgresMb} MB (the embedded server's RSS less the PostgreSQL one's, after the same start and warm-up); in the server, opening it took ${emptyMb} MB and the full history ${dataMb} MB more`,
  );
  return { againstPostgresMb, emptyMb, dataMb };
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
