/**
 * The targets, each read against floors measured in the same run, so a verdict means the same on
 * any machine: met or not met, with the figures it was decided on. A target whose rows were not
 * measured (BENCH_ROUTES) says so instead of guessing.
 */
import { median, type Summary } from './report';

/** Summaries by table, route and connection count, as run.ts collects them. */
export type Tables = Record<string, Record<string, Record<number, Summary>>>;

export interface Verdict {
  target: string;
  /** null: a row it needs was not measured in this run. */
  met: boolean | null;
  /** The figures, as the verdict line shows them. */
  figures: string;
  /**
   * A floor of the same run that is over the line by itself, when the target is not met: what no
   * work of the service's own could have changed in that run.
   */
  outOfReach?: string;
}

export interface MemoryFigures {
  /**
   * Embedded server's RSS after the warm-up, read as the floor is (settled-rss.ts), and read at
   * once (the warm-up's garbage still in it); the bare PGlite's, holding the same data.
   */
  embeddedAfterWarmUpMb?: number;
  embeddedAfterWarmUpAtOnceMb?: number;
  pgliteFloorMb?: number;
  /** The PostgreSQL server's RSS at the end of the run. */
  postgresAtEndMb?: number;
}

/** The small answers every keyed client asks for, served from the response cache. */
export const SMALL_CACHED = ['latest', 'latest-eur', 'date', 'date-eur', 'convert', 'banking', 'range', 'close'];

const CPU_CONNECTIONS = 10;
const LATENCY_CONNECTIONS = 50;
const µs = (value: number) => `${Math.round(value)} µs`;
const ms = (value: number) => `${value} ms`;

export function verdicts(tables: Tables, memory: MemoryFigures): Verdict[] {
  const row = (table: string, id: string, connections: number) => tables[table]?.[id]?.[connections];
  const cpu = (table: string, id: string, connections = CPU_CONNECTIONS) => row(table, id, connections)?.cpuUsPerRequest;
  const out: Verdict[] = [];
  /** `decide` gives the verdict, its figures and, if a floor of this run is over the line by itself, which one. */
  const judge = (target: string, figures: Array<number | undefined>, decide: (values: number[]) => [boolean, string, string?]) => {
    if (figures.some((f) => f === undefined)) out.push({ target, met: null, figures: 'not measured in this run' });
    else {
      const [met, text, floorOver] = decide(figures as number[]);
      out.push({ target, met, figures: text, ...(!met && floorOver ? { outOfReach: floorOver } : {}) });
    }
  };

  /**
   * A row's CPU over bare Koa's, repeat by repeat, the median of those ratios. Each pair was
   * measured seconds apart, so a change of the shared machine's speed between repeats (bare Koa
   * at 30–60 µs within an hour on some days) cancels out; the verdict itself stays on the medians.
   */
  const pairedRatio = (id: string, connections: number): string => {
    const samples = row('baseline', id, connections)?.samples;
    const koaSamples = row('baseline', 'koa', connections)?.samples;
    if (!samples || !koaSamples || samples.length !== koaSamples.length || samples.length < 2) return '';
    const ratios = samples.map((s, i) => s.cpuUsPerRequest / (koaSamples[i]?.cpuUsPerRequest ?? Number.NaN));
    return `; repeat by repeat, a median of ${median(ratios).toFixed(2)} ×`;
  };

  const koa = cpu('baseline', 'koa');
  const edge = cpu('baseline', 'edge');
  const koa50 = cpu('baseline', 'koa', 50);
  const redis50 = cpu('baseline', 'redis', 50);
  // Context for the verdicts, shown when the run measured it: what the edge writes alone, and both floors in one server.
  const outputs = cpu('baseline', 'outputs');
  const edgeRedis = cpu('baseline', 'edge-redis');
  judge('edge floor ≤ 1.6 × bare Koa (CPU, 10 connections)', [edge, koa], ([e, k]) => [
    e <= 1.6 * k,
    `${µs(e)} against ${µs(k)}: ${(e / k).toFixed(2)} ×${pairedRatio('edge', CPU_CONNECTIONS)}${outputs === undefined ? '' : ` (what the edge writes, alone: ${µs(outputs)}, ${(outputs / k).toFixed(2)} ×${pairedRatio('outputs', CPU_CONNECTIONS)})`}`,
    outputs !== undefined && outputs > 1.6 * k ? 'what the edge writes, alone, is over 1.6 ×' : undefined,
  ]);
  const ping50 = cpu('baseline', 'ping', 50);
  const script50 = cpu('baseline', 'script', 50);
  judge('Redis floor ≤ 1.5 × bare Koa (CPU, 50 connections)', [redis50, koa50], ([r, k]) => {
    const beneath = [
      ping50 === undefined ? '' : `one round trip alone, a PING: ${µs(ping50)}, ${(ping50 / k).toFixed(2)} ×${pairedRatio('ping', 50)}`,
      script50 === undefined
        ? ''
        : `one counting script and its headers, no library: ${µs(script50)}, ${(script50 / k).toFixed(2)} ×${pairedRatio('script', 50)}`,
    ].filter(Boolean);
    return [
      r <= 1.5 * k,
      `${µs(r)} against ${µs(k)}: ${(r / k).toFixed(2)} ×${pairedRatio('redis', 50)}${beneath.length ? ` (${beneath.join('; ')})` : ''}`,
      script50 !== undefined && script50 > 1.5 * k ? 'one counting script and its headers, alone, is over 1.5 ×' : undefined,
    ];
  });
  const redis10 = cpu('baseline', 'redis');
  const inServer = cpu('postgres', 'floor-in-server');
  const together =
    (edgeRedis === undefined ? '' : `; the edge and Redis in one server, before any key or route: ${µs(edgeRedis)}`) +
    (inServer === undefined ? '' : `; the same in the API server's process: ${µs(inServer)}`);
  for (const id of SMALL_CACHED) {
    judge(`${id}: ≤ edge floor + Redis floor − bare Koa + 15 µs (CPU, 10 connections)`, [cpu('postgres', id), edge, redis10, koa], ([c, e, r, k]) => {
      const bound = e + r - k + 15;
      return [
        c <= bound,
        `${µs(c)} against ${µs(bound)} (${Math.round(e)} + ${Math.round(r)} − ${Math.round(k)} + 15${together})`,
        inServer !== undefined && inServer > bound
          ? "the edge and Redis floor in the API server's process, with no key, quota or route, is over the bound"
          : undefined,
      ];
    });
  }
  const uncached: Array<[id: string, name: string, limit: number]> = [
    ['range-uncached', 'uncached 366-day range', 500],
    ['chart-uncached', 'uncached long chart', 800],
    ['close-uncached', 'uncached month close', 250],
    ['mixed', 'mixed workload', 250],
  ];
  for (const [id, name, limit] of uncached) {
    judge(`${name} ≤ ${limit} µs (CPU, 10 connections)`, [cpu('postgres', id)], ([c]) => [c <= limit, µs(c)]);
  }
  const koaP99 = row('baseline', 'koa', LATENCY_CONNECTIONS)?.p99;
  // The edge and Redis floor in the server's process waits for what every keyed answer waits for, and does none of its own work.
  const inServerP99 = row('postgres', 'floor-in-server', LATENCY_CONNECTIONS)?.p99;
  for (const id of SMALL_CACHED) {
    const p99 = row('postgres', id, LATENCY_CONNECTIONS)?.p99;
    judge(`${id}: p99 ≤ 3 × bare Koa's (50 connections)`, [p99, koaP99], ([p, k]) => [
      p <= 3 * k,
      `${ms(p)} against ${ms(k)}: ${(p / k).toFixed(1)} ×${inServerP99 === undefined ? '' : ` (the edge and Redis floor in the API server's process: ${ms(inServerP99)}, ${(inServerP99 / k).toFixed(1)} ×)`}`,
      inServerP99 !== undefined && inServerP99 > 3 * k ? "the edge and Redis floor in the API server's process is over 3 ×" : undefined,
    ]);
  }
  const openKoa = row('baseline', 'koa-1000', LATENCY_CONNECTIONS)?.p99;
  const openMixed = row('postgres', 'mixed-1000', LATENCY_CONNECTIONS)?.p99;
  judge('mixed at 1,000 req/s: p99 ≤ 5 ms', [openMixed], ([p]) => [
    p <= 5,
    `${ms(p)}${openKoa === undefined ? '' : ` (bare Koa's at the same rate: ${ms(openKoa)})`}`,
    openKoa !== undefined && openKoa > 5 ? "bare Koa's own p99 at that rate is over 5 ms" : undefined,
  ]);
  judge("mixed at 1,000 req/s: p99 ≤ 3 × bare Koa's at the same rate", [openMixed, openKoa], ([p, k]) => [
    p <= 3 * k,
    `${ms(p)} against ${ms(k)}: ${(p / k).toFixed(1)} ×`,
  ]);
  judge('embedded server RSS after the warm-up ≤ bare PGlite + 60 MB', [memory.embeddedAfterWarmUpMb, memory.pgliteFloorMb], ([e, f]) => [
    e <= f + 60,
    `${e} MB against ${f} + 60 MB, both collected, the lowest of 5 s${memory.embeddedAfterWarmUpAtOnceMb === undefined ? '' : ` (read at once: ${memory.embeddedAfterWarmUpAtOnceMb} MB)`}`,
  ]);
  judge('PostgreSQL server RSS at the end ≤ 200 MB', [memory.postgresAtEndMb], ([m]) => [m <= 200, `${m} MB`]);
  return out;
}

/** One line a verdict: ✔ met, ✘ not met (and why, where a floor of the run is over the line by itself), – not measured. */
export function verdictLines(all: readonly Verdict[]): string[] {
  return all.map((v) => {
    const said = v.met === null ? '–' : v.met ? '✔ met' : v.outOfReach ? `✘ not met, out of reach in this run (${v.outOfReach})` : '✘ not met';
    return `- ${said}: ${v.target}: ${v.figures}`;
  });
}
