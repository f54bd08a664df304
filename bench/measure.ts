/**
 * One measurement: autocannon for a fixed time against one server, every request built afresh
 * (its path from the workload, its key from the ring), and the CPU time the server process spent
 * meanwhile, read from /proc.
 */
import autocannon from 'autocannon';
import type { KeyRing } from './keys';
import { openLoop } from './open-loop';
import { cpuMicros, memoryMb } from './processes';
import { ACCEPT_ENCODING, type Workload } from './workloads';

export interface Sample {
  rps: number;
  requests: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  p999: number;
  /** The server process's resident memory right after the measurement, MB. */
  rssMb: number;
  /** The server process's user + system CPU time over the measurement, per answered request. */
  cpuUsPerRequest: number;
  /** Connection errors (timeouts included). */
  errors: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** What the `extras` counted over the measurement, per answered request. */
  extras: Record<string, number>;
}

/** Something else to count over a measurement (CPU of other processes, Redis commands). */
export interface Counter {
  name: string;
  /** A snapshot; `delta(before, after)` makes a count of two of them. */
  read(): Promise<Map<string, number>>;
}

/**
 * Counts present in both snapshots count by their difference, new ones whole; one that is gone by
 * the end (a process that exited) is lost rather than subtracted.
 */
function delta(before: Map<string, number>, after: Map<string, number>): number {
  let total = 0;
  for (const [id, value] of after) total += value - (before.get(id) ?? 0);
  return total;
}

/** The value below which `fraction` of them fall, to a hundredth of a millisecond. */
function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0) * 100) / 100;
}

export interface Target {
  /** http://host:port */
  origin: string;
  pid: number;
  counters?: readonly Counter[];
}

/**
 * `rate`, requests per second over all connections: an offered load, open loop (`openLoop`), for
 * latency at a realistic rate rather than at saturation; absent: as fast as the server answers
 * (autocannon, closed loop: each connection sends its next request when the last is answered).
 */
export async function measure(
  target: Target,
  workload: Workload,
  keys: KeyRing | null,
  connections: number,
  durationS: number,
  rate?: number,
): Promise<Sample> {
  const counters = target.counters ?? [];
  const before = await Promise.all(counters.map((c) => c.read()));
  const cpuBefore = cpuMicros(target.pid);
  const load = rate ? await offered(target, workload, keys, connections, durationS, rate) : await saturating(target, workload, keys, connections, durationS);
  const cpu = cpuMicros(target.pid) - cpuBefore;
  const after = await Promise.all(counters.map((c) => c.read()));

  const { requests, latencies } = load;
  const perRequest = (value: number) => (requests > 0 ? value / requests : 0);
  return {
    rps: requests / load.durationS,
    requests,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    p999: percentile(latencies, 0.999),
    rssMb: memoryMb(target.pid).rssMb,
    cpuUsPerRequest: perRequest(cpu),
    errors: load.errors,
    non2xx: load.non2xx,
    statusCodes: load.statusCodes,
    extras: Object.fromEntries(counters.map((c, i) => [c.name, perRequest(delta(before[i] as Map<string, number>, after[i] as Map<string, number>))])),
  };
}

/** What either load generator reports of a measurement. */
interface Load {
  requests: number;
  durationS: number;
  /** Milliseconds, with decimals. */
  latencies: number[];
  errors: number;
  non2xx: number;
  statusCodes: Record<string, number>;
}

/** The headers every request carries: the clients' encodings, the workload's, the next key. */
function headersOf(workload: Workload, keys: KeyRing | null): Record<string, string> {
  return { 'accept-encoding': ACCEPT_ENCODING, ...workload.headers, ...(keys ? { 'x-api-key': keys.next() } : {}) };
}

/** As fast as the server answers: autocannon, each connection sending its next request on an answer. */
async function saturating(target: Target, workload: Workload, keys: KeyRing | null, connections: number, durationS: number): Promise<Load> {
  const options: autocannon.Options = {
    url: target.origin,
    connections,
    duration: durationS,
    pipelining: 1,
    requests: [
      {
        method: workload.method ?? 'GET',
        ...(workload.body ? { body: workload.body } : {}),
        // Called for every request: a new path (uncached windows) and the next key in rotation.
        setupRequest: (request) => ({ ...request, path: workload.path(), headers: headersOf(workload, keys) }),
      },
    ],
  };
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error: unknown, done: autocannon.Result) => (error ? reject(error) : resolve(done)));
    // autocannon's own percentiles are whole milliseconds; each response's time comes with
    // decimals as the 4th argument (after the client, which @types/autocannon leaves out).
    instance.on('response', (...args: unknown[]) => {
      if (typeof args[3] === 'number') latencies.push(args[3]);
    });
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stats.count ?? 0;
  return { requests: result.requests.total, durationS: result.duration, latencies, errors: result.errors, non2xx: result.non2xx, statusCodes };
}

/** `rate` requests per second, open loop (`openLoop`). */
async function offered(target: Target, workload: Workload, keys: KeyRing | null, connections: number, durationS: number, rate: number): Promise<Load> {
  const method = workload.method ?? 'GET';
  const result = await openLoop(target.origin, rate, durationS, connections, () => ({
    method,
    path: workload.path(),
    headers: headersOf(workload, keys),
    ...(workload.body ? { body: workload.body } : {}),
  }));
  const non2xx = Object.entries(result.statusCodes).reduce((sum, [code, count]) => (code.startsWith('2') ? sum : sum + count), 0);
  return {
    requests: result.latencies.length - result.errors,
    durationS: result.durationS,
    latencies: result.latencies,
    errors: result.errors,
    non2xx,
    statusCodes: result.statusCodes,
  };
}
