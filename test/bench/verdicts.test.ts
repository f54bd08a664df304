/**
 * The bench's verdicts read each target against floors of the same run, and a target that a floor
 * of that run misses by itself says so: out of reach in this run, whatever the service did.
 */
import type { Summary } from '../../bench/report';
import { type Tables, verdictLines, verdicts } from '../../bench/verdicts';

function summary(cpuUsPerRequest: number, p99 = 1): Summary {
  const sample = { rps: 1000, p50: p99 / 2, p99, p999: p99, cpuUsPerRequest, rssMb: 100 };
  return {
    rps: { min: 1000, median: 1000, max: 1000 },
    ratio: 1,
    p50: p99 / 2,
    p99,
    p999: p99,
    cpuUsPerRequest,
    rssMb: 100,
    errors: 0,
    non2xx: 0,
    statusCodes: { 200: 3 },
    extras: {},
    samples: [sample, sample, sample],
  };
}

/**
 * A run's tables: bare Koa at 30 µs (p99 4 ms at 50 connections), the edge and Redis floors as
 * given, each keyed row at `keyed` µs (p99 `keyedP99` ms, 5 unless given; the floor in the server's
 * process `inServerP99`, 6 unless given).
 */
function run(figures: { edge: number; outputs: number; inServer: number; keyed: number; koaAtRate?: number; keyedP99?: number; inServerP99?: number }): Tables {
  const keyedRows = Object.fromEntries(
    ['latest', 'latest-eur', 'date', 'date-eur', 'convert', 'banking', 'range', 'close'].map((id) => [
      id,
      { 10: summary(figures.keyed), 50: summary(figures.keyed, figures.keyedP99 ?? 5) },
    ]),
  );
  return {
    baseline: {
      koa: { 10: summary(30), 50: summary(30, 4) },
      edge: { 10: summary(figures.edge) },
      outputs: { 10: summary(figures.outputs) },
      redis: { 10: summary(60), 50: summary(55) },
      script: { 50: summary(50) },
      'koa-1000': { 50: summary(40, figures.koaAtRate ?? 2) },
    },
    postgres: {
      ...keyedRows,
      'floor-in-server': { 10: summary(figures.inServer), 50: summary(figures.inServer, figures.inServerP99 ?? 6) },
      'mixed-1000': { 50: summary(200, 8) },
    },
  };
}

const line = (lines: string[], target: string) => lines.find((l) => l.includes(`: ${target}`)) ?? '';

it('says a target is out of reach in the run when a floor of that run is over the line by itself', () => {
  // Bound for the keyed rows: 60 + 60 − 30 + 15 = 105 µs; the floor in the server's process at 110 is over it.
  // p99s: 3 × bare Koa's 4 ms is 12; the floor in the server's process at 13 is over it.
  const lines = verdictLines(verdicts(run({ edge: 60, outputs: 50, inServer: 110, keyed: 120, koaAtRate: 6, keyedP99: 20, inServerP99: 13 }), {}));
  expect(line(lines, 'edge floor')).toMatch(
    /^- ✘ not met, out of reach in this run \(what the edge writes, alone, is over 1\.6 ×\): edge floor ≤ 1\.6 × bare Koa/,
  );
  // The script alone at 50 µs against bare Koa's 30 at 50 connections: 1.67 ×.
  expect(line(lines, 'Redis floor')).toMatch(/^- ✘ not met, out of reach in this run \(one counting script and its headers, alone, is over 1\.5 ×\)/);
  expect(line(lines, 'latest: ≤ edge floor')).toMatch(
    /^- ✘ not met, out of reach in this run \(the edge and Redis floor in the API server's process, with no key, quota or route, is over the bound\)/,
  );
  expect(line(lines, 'mixed at 1,000 req/s: p99 ≤ 5 ms')).toMatch(/^- ✘ not met, out of reach in this run \(bare Koa's own p99 at that rate is over 5 ms\)/);
  expect(line(lines, 'latest: p99')).toMatch(/^- ✘ not met, out of reach in this run \(the edge and Redis floor in the API server's process is over 3 ×\)/);
});

it('says only "not met" where the floors leave room, and "met" where the target is met', () => {
  const lines = verdictLines(verdicts(run({ edge: 60, outputs: 40, inServer: 90, keyed: 120, keyedP99: 20 }), {}));
  expect(line(lines, 'edge floor')).toMatch(/^- ✘ not met: edge floor/);
  expect(line(lines, 'latest: ≤ edge floor')).toMatch(/^- ✘ not met: latest/);
  expect(line(lines, 'mixed at 1,000 req/s: p99 ≤ 5 ms')).toMatch(/^- ✘ not met: mixed/);
  expect(line(lines, 'latest: p99')).toMatch(/^- ✘ not met: latest: p99/);
  const met = verdictLines(verdicts(run({ edge: 45, outputs: 40, inServer: 80, keyed: 85 }), {}));
  expect(line(met, 'edge floor')).toMatch(/^- ✔ met: edge floor/);
  expect(line(met, 'latest: ≤ edge floor')).toMatch(/^- ✔ met: latest/);
  expect(line(met, 'latest: p99')).toMatch(/^- ✔ met: latest: p99/);
});

it('says a target whose rows were not measured is not judged', () => {
  const lines = verdictLines(verdicts({ baseline: {}, postgres: {} }, {}));
  expect(line(lines, 'edge floor')).toBe('- –: edge floor ≤ 1.6 × bare Koa (CPU, 10 connections): not measured in this run');
  expect(lines.every((l) => l.startsWith('- –'))).toBe(true);
});
