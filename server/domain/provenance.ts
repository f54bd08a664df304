/**
 * The provenance of one day's rate: what its observation log says about the record as it stands,
 * and the digest anyone can recompute from the record alone to show it was not altered.
 */
import { createHash } from 'node:crypto';
import type { RateSource } from '../../shared/currencies';

/** The indicator or route each side was read from, in words. */
export interface UpstreamNames {
  buy: string;
  sell: string;
}

/** One distinct reading of a day in the log: the same values read again only raise `count`. */
export interface Observation {
  source: RateSource;
  upstream: UpstreamNames;
  buy: number;
  sell: number;
  firstSeenAt: string;
  lastConfirmedAt: string;
  count: number;
}

/** The fields of a record the digest covers. */
export interface DigestedRecord {
  date: string;
  currencyFrom: string;
  currencyTo: string;
  /** Null on a provisional record (Hacienda's euro has no buy side): an empty field in the text. */
  buy: number | null;
  sell: number;
  source: string;
}

/**
 * A number in plain decimal notation with at least `minDecimals` decimals: `468.2` → `468.20`,
 * `40.1234` stays, `1e21` and `1.5e-7` are written out. The digits are JavaScript's shortest
 * round-trip ones, so the text is what the number is, with nothing made up or lost.
 */
export function plainDecimal(value: number, minDecimals = 2): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const sign = value < 0 ? '-' : '';
  const [mantissa = '0', exponent = '0'] = Math.abs(value).toString().split('e');
  const [int = '0', frac = ''] = mantissa.split('.');
  let digits = int + frac;
  let point = int.length + Number(exponent);
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  }
  digits = digits.padEnd(point, '0');
  const whole = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  return `${sign}${whole}.${digits.slice(point).padEnd(minDecimals, '0')}`;
}

/** `2026-03-24|USD|CRC|462.69|468.29|BCCR`: the text the digest is the SHA-256 of. */
export function digestText(record: DigestedRecord): string {
  return [
    record.date,
    record.currencyFrom,
    record.currencyTo,
    record.buy === null ? '' : plainDecimal(record.buy),
    plainDecimal(record.sell),
    record.source,
  ].join('|');
}

/** `sha256:` and the lowercase hex SHA-256 of the UTF-8 digest text. */
export function recordDigest(record: DigestedRecord): string {
  return `sha256:${createHash('sha256').update(digestText(record), 'utf8').digest('hex')}`;
}

/**
 * What a row can still say of its origin when no observation of its values was logged (it was
 * written by hand, or seeded outside a sync): the indicators, without the route that read them.
 */
export const UPSTREAM_BY_SOURCE: Readonly<Record<RateSource, UpstreamNames>> = {
  BCCR: { buy: 'BCCR indicator 317', sell: 'BCCR indicator 318' },
  Hacienda: { buy: 'Hacienda /indicadores/tc/dolar (compra)', sell: 'Hacienda /indicadores/tc/dolar (venta)' },
  DEMO: { buy: 'Simulated BCCR indicator 317 (npm run demo)', sell: 'Simulated BCCR indicator 318 (npm run demo)' },
};

export interface ObservationSummary {
  upstream: UpstreamNames;
  firstSeenAt: string;
  lastConfirmedAt: string;
  observations: number;
}

/**
 * The record's provenance from its day's observations. `firstSeenAt` is the first reading of the
 * record as it stands (its values from its source), `upstream` where the latest such reading came
 * from; `lastConfirmedAt` is the last time any source gave the same values; `observations` counts
 * every reading of the day, revised values included. Timestamps are ISO strings (UTC, `Z`), which
 * compare as text.
 */
export function summarizeObservations(
  record: { buy: number; sell: number; source: RateSource; fetchedAt: string },
  observations: readonly Observation[],
): ObservationSummary {
  const sameValues = observations.filter((o) => o.buy === record.buy && o.sell === record.sell);
  const current = sameValues.filter((o) => o.source === record.source);
  const latest = current.reduce<Observation | null>((best, o) => (best === null || o.lastConfirmedAt > best.lastConfirmedAt ? o : best), null);
  // Without an observation of its own, the row's fetch time is the one reading of it known.
  const firstSeenAt = current.length > 0 ? current.map((o) => o.firstSeenAt).reduce((a, b) => (b < a ? b : a)) : record.fetchedAt;
  const lastConfirmedAt = sameValues.map((o) => o.lastConfirmedAt).reduce((a, b) => (b > a ? b : a), firstSeenAt);
  return {
    upstream: latest?.upstream ?? UPSTREAM_BY_SOURCE[record.source],
    firstSeenAt,
    lastConfirmedAt,
    observations: observations.reduce((n, o) => n + o.count, 0),
  };
}
