/**
 * The parameters of the client's methods, named after the methods. Each is the generated type of
 * its route (params.generated.ts, written from the server's own route list), so names, optional
 * parameters, allowed values, bounds and defaults are the server's and cannot drift from it.
 */
import type { RouteParams } from './params.generated';
import type { ExchangeRate, RateAnswer } from './types';

export type HistoryParams = RouteParams['/exchange-rate/history'];

export type RangeParams = RouteParams['/exchange-rate/range'];

type AnalyticsQuery = RouteParams['/exchange-rate/analytics'];

/**
 * Either the last `days` days or a from/to pair, not both. The server enforces that rule in code,
 * which no type can be generated from, so it is stated here over the generated parameters.
 */
export type AnalyticsParams =
  | (Omit<AnalyticsQuery, 'from' | 'to'> & { from?: never; to?: never })
  | (Required<Pick<AnalyticsQuery, 'from' | 'to'>> & Pick<AnalyticsQuery, 'currency'> & { days?: never });

export type StatsParams = RouteParams['/exchange-rate/stats'];

/** The length of each period of `getStats`. */
export type StatsPeriod = NonNullable<StatsParams['period']>;

export type ChartParams = RouteParams['/exchange-rate/chart'];

type ConvertQuery = RouteParams['/convert'];

/**
 * Either the side (`rate`) or the rule that names it (`purpose`), not both: the server refuses the
 * pair in code, stated here over the generated parameters.
 */
export type ConvertParams = (Omit<ConvertQuery, 'purpose'> & { purpose?: never }) | (Omit<ConvertQuery, 'rate'> & { rate?: never });

export type BankingRatesParams = RouteParams['/banking/rates'];

export type BestRateParams = RouteParams['/banking/best'];

export type InsightsParams = RouteParams['/insights'];

export type MonexHistoryParams = RouteParams['/monex/history'];

export type MonexRangeParams = RouteParams['/monex/range'];

type CalendarQuery = RouteParams['/calendar'];

/** Either a from/to pair or a `year`, not both: the server enforces it in code, stated here over the generated parameters. */
export type CalendarParams =
  | (Required<Pick<CalendarQuery, 'from' | 'to'>> & { year?: never })
  | (Required<Pick<CalendarQuery, 'year'>> & { from?: never; to?: never });

/** The currency of the latest record (USD by default), whether an older one is carried to today, its purpose and its inverses. */
export type LatestParams = RouteParams['/exchange-rate/latest'];

/** The currency of a day's record, whether a day without a rate carries the previous one, its purpose and its inverses. */
export type ByDateParams = Omit<RouteParams['/exchange-rate'], 'date'>;

/** The currency of a month close, and the purpose it is for. */
export type CloseParams = Omit<RouteParams['/exchange-rate/close'], 'month'>;

/** The values `purpose` takes (GET /purposes describes each). */
export type Purpose = NonNullable<ConvertQuery['purpose']>;

/**
 * What `getLatest` and `getByDate` answer for a `currency`: a record, whose `buy` is a number,
 * except for the euro, the one currency whose today Hacienda fills before the central bank
 * publishes its cross rate (`source: 'Hacienda'`, `buy: null`; the server's catalog,
 * PROVISIONAL_CURRENCIES, names it). A currency only known at run time may be the euro.
 */
export type SingleRecord<C> = C extends 'EUR' ? RateAnswer : ExchangeRate;
