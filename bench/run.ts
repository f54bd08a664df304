/**
 * `npm run bench`: the real server with a full history against a bare Koa baseline, in the same
 * run and on the same machine, so the numbers are ratios that mean something anywhere. Every
 * measurement is bounded in time; the whole run stops by itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { benchBackfill } from './backfill';
import type { RecordedAnswer } from './baseline';

const ROOT = path.resolve(__dirname, '..');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const CONNECTIONS = [10, 50];

interface Target {
  name: string;
  path: string;
  /** Heavy routes also get a cold (first, uncached) latency. */
  heavy?: boolean;
}

const TARGETS: Target[] = [
  { name: '/exchange-rate/latest', path: '/api/v1/exchange-rate/latest' },
  { name: '/exchange-rate?date=', path: '/api/v1/exchange-rate?date=2025-01-15' },
  { name: '/range (366 days)', path: '/api/v1/exchange-rate/range?from=2024-01-01&to=2025-01-01', heavy: true },
  { name: '/analytics?days=365', path: '/api/v1/exchange-rate/analytics?days=365', heavy: true },
  { name: '/stats monthly, whole history', path: '/api/v1/exchange-rate/stats?period=monthly&from=1983-01-01&to=2100-12-31', heavy: true },
  { name: '/chart?days=20000&points=500', path: '/api/v1/exchange-rate/chart?days=20000&points=500', heavy: true },
  { name: '/convert', path: '/api/v1/convert?amount=1234.56&from=USD&to=CRC&rate=sell' },
  { name: '/banking/best', path: '/api/v1/banking/best?operation=sell' },
];

interface Row {
  name: string;
  server: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Against the same answer replayed by the bare server: what our work costs. */
  ratio?: number;
  /** Against the constant JSON: what our work and the answer's size cost together. */
  vsConstant?: number;
}

/** Headers Node writes itself on every answer. */
const NODE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The answer as sent, to be replayed byte for byte by the baseline. */
async function record(url: string, headers: Record<string, string>): Promise<RecordedAnswer> {
  const response = await fetch(url, { headers });
  const body = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const flat: string[] = [];
  response.headers.forEach((value, name) => {
    if (!NODE_HEADERS.has(name)) flat.push(name, value);
  });
  return { status: response.status, headers: flat, body };
}

function start(script: string, input = ''): Promise<{ child: ChildProcess; info: Record<string, unknown> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, env: process.env, stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin?.end(input);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, info: JSON.parse(line) as Record<string, unknown> });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

async function measure(url: string, connections: number, headers: Record<string, string>, duration = DURATION_S): Promise<Omit<Row, 'name' | 'server'>> {
  const result = await autocannon({ url, connections, duration, headers, pipelining: 1 });
  return {
    connections,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + (result.non2xx ?? 0),
  };
}

async function latencyMs(url: string, headers: Record<string, string>): Promise<number> {
  const started = process.hrtime.bigint();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const started = Date.now();
  const database = process.env.DATABASE_URL ? 'postgresql' : 'embedded';
  console.log(`crc-rates bench · ${database} database · ${DURATION_S} s per measurement · ${new Date().toISOString()}`);

  const backfill = await benchBackfill();
  console.log(`backfill of the full history from a local fake upstream: ${backfill.days} days in ${(backfill.ms / 1000).toFixed(2)} s`);

  const servers = await start('bench/server.ts');
  const { full, open, key, pid } = servers.info as { full: number; open: number; key: string; pid: number };
  const auth = { 'x-api-key': key };
  const base = (port: number) => `http://127.0.0.1:${port}`;
  let baseline: Awaited<ReturnType<typeof start>> | null = null;

  try {
    // One request first, so "cold" below measures each route's own work, not the server's
    // first request ever (key lookup, quota lease, code paths compiled on first use).
    await latencyMs(`${base(full)}/api/v1/exchange-rate/latest`, auth);
    // Cold: the first answer of each heavy route, before its answer is cached.
    const cold: Array<{ name: string; coldMs: number; warmMs: number }> = [];
    for (const target of TARGETS.filter((t) => t.heavy)) {
      const coldMs = await latencyMs(base(full) + target.path, auth);
      const warm: number[] = [];
      for (let i = 0; i < 20; i++) warm.push(await latencyMs(base(full) + target.path, auth));
      cold.push({ name: target.name, coldMs: Math.round(coldMs * 100) / 100, warmMs: Math.round(median(warm) * 100) / 100 });
    }

    // Each route's answer as sent, for the baseline to replay; the last one is the open server's.
    const recorded = await Promise.all([
      ...TARGETS.map((target) => record(base(full) + target.path, auth)),
      record(`${base(open)}/api/v1/exchange-rate/latest`, {}),
    ]);
    baseline = await start('bench/baseline.ts', JSON.stringify(recorded));
    const bare = `${base(baseline.info.port as number)}`;

    const rows: Row[] = [];
    const ratio = (rps: number, of: number) => Math.round((rps / of) * 100) / 100;
    const compare = async (name: string, server: string, url: string, headers: Record<string, string>, replay: number, constant: Row) => {
      const same = await measure(`${bare}/replay/${replay}`, constant.connections, {});
      const row = { name, server, ...(await measure(url, constant.connections, headers)) };
      rows.push({ ...row, ratio: ratio(row.rps, same.rps), vsConstant: ratio(row.rps, constant.rps) });
    };
    // Unmeasured load first, so the first route measured is not also paying for the code paths
    // compiling (cold latency is measured above, on its own).
    await measure(`${base(full)}${TARGETS[0]?.path}`, CONNECTIONS[0] ?? 10, auth, 1);
    await measure(`${bare}/replay/0`, CONNECTIONS[0] ?? 10, {}, 1);
    for (const connections of CONNECTIONS) {
      const constant: Row = { name: 'baseline (bare Koa, constant JSON)', server: 'baseline', ...(await measure(`${bare}/`, connections, {})) };
      rows.push({ ...constant, ratio: 1, vsConstant: 1 });
      for (const [i, target] of TARGETS.entries()) await compare(target.name, 'full', base(full) + target.path, auth, i, constant);
      await compare('/exchange-rate/latest, access control off', 'open', `${base(open)}/api/v1/exchange-rate/latest`, {}, TARGETS.length, constant);
    }

    // The pid the server printed itself: its memory, whatever process launched it.
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssMb = Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);

    console.log(
      '\nthroughput and latency at the same connections; ratio = requests/s against the bare server replaying the same answer, vs constant = against its constant JSON',
    );
    console.table(
      rows.map((r) => ({
        route: r.name,
        conns: r.connections,
        'req/s': r.rps,
        ratio: r.ratio,
        'vs constant': r.vsConstant,
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        errors: r.errors,
      })),
    );
    console.log('cold (first, uncached) vs warm (median of 20, cached) latency of the heavy routes, ms');
    console.table(cold);
    console.log(`server memory (RSS) at the end: ${rssMb} MB · bench took ${Math.round((Date.now() - started) / 1000)} s`);

    const results = { at: new Date().toISOString(), database, durationSeconds: DURATION_S, backfill, rows, cold, rssMb };
    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
    console.log('written to bench/results/latest.json');
  } finally {
    baseline?.child.kill('SIGTERM');
    servers.child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
