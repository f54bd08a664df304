/**
 * What a published MONEX day is: a session with four plausible figures, a day without a session
 * (the central bank publishes 0 in every indicator), or a reading refused before it is stored (a
 * figure missing, a partial zero, prices out of order or outside the band). Pure, so the sync and
 * the tests share it.
 */
import { daysBetween, isIsoDate } from '../../shared/dates';
import { MONEX_BOUNDS, MONEX_FIGURES, type MonexFigure } from '../../shared/monex';

export interface MonexFigures {
  average: number;
  min: number;
  max: number;
  volume: number;
}

export type MonexDay = { kind: 'session'; figures: MonexFigures } | { kind: 'none' } | { kind: 'refused'; reason: string };

/** Reads one published day; `today` is Costa Rica's day. */
export function classifyMonexDay(date: string, figures: Partial<Record<MonexFigure, number>>, today: string): MonexDay {
  const b = MONEX_BOUNDS;
  if (!isIsoDate(date)) return { kind: 'refused', reason: `date ${JSON.stringify(date)} is not a YYYY-MM-DD calendar day` };
  if (date < b.firstDate) return { kind: 'refused', reason: `date ${date} is before MONEX began (${b.firstDate})` };
  if (daysBetween(today, date) > b.maxDaysAhead) return { kind: 'refused', reason: `date ${date} is after today (${today})` };
  const missing = MONEX_FIGURES.filter((f) => figures[f] === undefined);
  if (missing.length > 0) return { kind: 'refused', reason: `${missing.join(', ')} not published` };
  const f = figures as Record<MonexFigure, number>;
  if (MONEX_FIGURES.some((name) => !Number.isFinite(f[name]))) return { kind: 'refused', reason: 'a figure is not a finite number' };
  const zeros = MONEX_FIGURES.filter((name) => f[name] === 0);
  if (zeros.length === MONEX_FIGURES.length) return { kind: 'none' };
  if (zeros.length > 0) return { kind: 'refused', reason: `${zeros.join(', ')} published as 0 beside non-zero figures` };
  if (MONEX_FIGURES.some((name) => f[name] < 0)) return { kind: 'refused', reason: 'a figure is negative' };
  if (!(f.min <= f.average && f.average <= f.max)) return { kind: 'refused', reason: `min ${f.min} ≤ average ${f.average} ≤ max ${f.max} does not hold` };
  for (const name of ['min', 'max', 'average'] as const) {
    if (f[name] < b.minRate || f[name] > b.maxRate) return { kind: 'refused', reason: `${name} ${f[name]} is outside ${b.minRate}..${b.maxRate} CRC` };
  }
  return { kind: 'session', figures: { average: f.average, min: f.min, max: f.max, volume: f.volume } };
}
