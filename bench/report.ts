/** The repeats of each measurement summed up, the tables printed on stdout, and the JSON written. */
import type { Sample } from './measure';

export interface Summary {
  rps: { min: number; median: number; max: number };
  /** Median req/s against the median of bare Koa's constant JSON at the same connections. */
  ratio: number;
  /** Medians over the repeats, ms. */
  p50: number;
  p99: number;
  p999: number;
  cpuUsPerRequest: number;
  /** The server's RSS after the measurement, the highest of the repeats, MB. */
  rssMb: number;
  /** Summed over the repeats. */
  errors: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Medians over the repeats. */
  extras: Record<string, number>;
  samples: Array<Pick<Sample, 'rps' | 'p50' | 'p99' | 'p999' | 'cpuUsPerRequest' | 'rssMb'>>;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

const round = (value: number, places = 0) => Math.round(value * 10 ** places) / 10 ** places;

export function summarise(samples: readonly Sample[], constantRps: number): Summary {
  const rps = samples.map((s) => s.rps);
  const statusCodes: Record<string, number> = {};
  for (const sample of samples) for (const [code, count] of Object.entries(sample.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  const extraNames = [...new Set(samples.flatMap((s) => Object.keys(s.extras)))];
  return {
    rps: { min: round(Math.min(...rps)), median: round(median(rps)), max: round(Math.max(...rps)) },
    ratio: constantRps > 0 ? round(median(rps) / constantRps, 2) : 0,
    p50: round(median(samples.map((s) => s.p50)), 2),
    p99: round(median(samples.map((s) => s.p99)), 2),
    p999: round(median(samples.map((s) => s.p999)), 2),
    cpuUsPerRequest: round(median(samples.map((s) => s.cpuUsPerRequest)), 1),
    rssMb: Math.max(...samples.map((s) => s.rssMb)),
    errors: samples.reduce((sum, s) => sum + s.errors, 0),
    non2xx: samples.reduce((sum, s) => sum + s.non2xx, 0),
    statusCodes,
    extras: Object.fromEntries(extraNames.map((name) => [name, round(median(samples.map((s) => s.extras[name] ?? 0)), 2)])),
    samples: samples.map((s) => ({ rps: round(s.rps), p50: s.p50, p99: s.p99, p999: s.p999, cpuUsPerRequest: round(s.cpuUsPerRequest, 1), rssMb: s.rssMb })),
  };
}

export interface TableRow {
  name: string;
  connections: number;
  summary: Summary;
}

/** A column of a printed table: its heading and how a row shows in it. */
export interface Column<R = TableRow> {
  heading: string;
  show(row: R): string;
}

const thousands = (value: number) => Math.round(value).toLocaleString('en-US');

export const COLUMNS: Column[] = [
  { heading: 'route', show: (r) => r.name },
  { heading: 'conns', show: (r) => String(r.connections) },
  { heading: 'req/s (median)', show: (r) => thousands(r.summary.rps.median) },
  { heading: 'min–max', show: (r) => `${thousands(r.summary.rps.min)}–${thousands(r.summary.rps.max)}` },
  { heading: 'ratio', show: (r) => r.summary.ratio.toFixed(2) },
  { heading: 'p50 ms', show: (r) => String(r.summary.p50) },
  { heading: 'p99 ms', show: (r) => String(r.summary.p99) },
  { heading: 'p99.9 ms', show: (r) => String(r.summary.p999) },
  { heading: 'CPU µs/req', show: (r) => r.summary.cpuUsPerRequest.toFixed(0) },
  { heading: 'RSS MB', show: (r) => String(r.summary.rssMb) },
  { heading: 'errors', show: (r) => String(r.summary.errors + r.summary.non2xx) },
];

/** Columns of the counters a setup adds (PostgreSQL's CPU, Redis's commands). */
export function extraColumn(heading: string, name: string, places: number): Column {
  return { heading, show: (r) => (r.summary.extras[name] ?? 0).toFixed(places) };
}

/** A Markdown table, padded so that it also reads as plain text. */
export function markdownTable<R>(rows: readonly R[], columns: readonly Column<R>[]): string {
  const cells = [columns.map((c) => c.heading), ...rows.map((row) => columns.map((c) => c.show(row)))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => (line[i] ?? '').length)));
  const line = (values: readonly string[]) => `| ${values.map((v, i) => (i === 0 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
  return [line(cells[0] ?? []), rule, ...cells.slice(1).map(line)].join('\n');
}
