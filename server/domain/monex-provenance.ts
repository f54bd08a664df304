/**
 * The provenance of one MONEX day, as the dollar's is summarised: what its observation log says
 * about the day as it stands. A reading is the four numbers as published (`average/min/max/volume`,
 * 0s on a day without a session), so the stored day's own reading is found by its figures.
 */
import type { RateSource } from '../../shared/currencies';

/** One distinct reading of a day in the log: the same numbers read again only raise `count`. */
export interface MonexObservation {
  source: RateSource;
  upstream: string;
  reading: string;
  firstSeenAt: string;
  lastConfirmedAt: string;
  count: number;
}

export interface MonexDayFigures {
  session: boolean;
  average: number | null;
  min: number | null;
  max: number | null;
  volume: number | null;
  source: RateSource;
  /** ISO (UTC, `Z`): the one reading known when the log has none of the day's figures. */
  fetchedAt: string;
}

export interface MonexObservationSummary {
  upstream: string;
  firstSeenAt: string;
  lastConfirmedAt: string;
  observations: number;
}

/** Whether a reading gives the day's figures (a day without a session was read as four 0s). */
export function readsAs(reading: string, day: MonexDayFigures): boolean {
  const numbers = reading.split('/').map(Number);
  const figures = day.session ? [day.average, day.min, day.max, day.volume] : [0, 0, 0, 0];
  return numbers.length === 4 && numbers.every((n, i) => n === figures[i]);
}

/**
 * As `summarizeObservations` for the dollar: `firstSeenAt` is the first reading of the day as it
 * stands from its source, `upstream` where the latest such reading came from (`fallback` without
 * one, e.g. a weekend, which is published as nothing); `lastConfirmedAt` the last time any source
 * gave the same figures; `observations` counts every reading of the day, revised ones included.
 */
export function summarizeMonexObservations(day: MonexDayFigures, observations: readonly MonexObservation[], fallback: string): MonexObservationSummary {
  const same = observations.filter((o) => readsAs(o.reading, day));
  const current = same.filter((o) => o.source === day.source);
  const latest = current.reduce<MonexObservation | null>((best, o) => (best === null || o.lastConfirmedAt > best.lastConfirmedAt ? o : best), null);
  const firstSeenAt = current.length > 0 ? current.map((o) => o.firstSeenAt).reduce((a, b) => (b < a ? b : a)) : day.fetchedAt;
  const lastConfirmedAt = same.map((o) => o.lastConfirmedAt).reduce((a, b) => (b > a ? b : a), firstSeenAt);
  return {
    upstream: latest?.upstream ?? fallback,
    firstSeenAt,
    lastConfirmedAt,
    observations: observations.reduce((n, o) => n + o.count, 0),
  };
}
