/**
 * MONEX, the central bank's wholesale foreign exchange market, as SDDE cuadro 219 publishes it:
 * which indicator carries which figure of a session, and the bounds a session must meet before it
 * is stored. Data, so that a renumbered indicator is corrected here and nowhere else.
 */

/** The cuadro that groups the indicators (its metadata also states the amount's unit). */
export const MONEX_CUADRO = '219';

/** SDDE indicator of each figure of a session (a day without a session publishes 0 in all four). */
export const MONEX_INDICATORS = {
  min: '3436',
  max: '3437',
  /** The weighted average ("promedio ponderado"). */
  average: '3439',
  /** The total amount traded, in the unit the indicator's metadata states. */
  volume: '3446',
} as const;

/** Where a session is read, in words, as provenance names it: `BCCR SDDE indicators 3439 3436 3437 3446`. */
export const MONEX_UPSTREAM = `BCCR SDDE indicators ${MONEX_INDICATORS.average} ${MONEX_INDICATORS.min} ${MONEX_INDICATORS.max} ${MONEX_INDICATORS.volume}`;

export type MonexFigure = keyof typeof MONEX_INDICATORS;
export const MONEX_FIGURES = Object.keys(MONEX_INDICATORS) as MonexFigure[];

export const MONEX_BOUNDS = {
  /** MONEX opened in 2006: nothing before is a session. */
  firstDate: '2006-01-01',
  /** CRC per USD: the colón has stayed far inside this band since MONEX began. */
  minRate: 100,
  maxRate: 2000,
  /** Sessions run around midday: a date after today is not one. */
  maxDaysAhead: 0,
} as const;

/** What `EXCHANGEMONEX` and the routes call each figure, besides `session`. */
export const MONEX_MEASURES = ['average', 'min', 'max', 'volume', 'session'] as const;
export type MonexMeasure = (typeof MONEX_MEASURES)[number];
