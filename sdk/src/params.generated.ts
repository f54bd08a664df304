// Generated from the server's route list (server/http/routes) by sdk/scripts/generate-params.ts.
// Do not edit: run `node --import tsx sdk/scripts/generate-params.ts` from the repository root.
// test/sdk/params.test.ts fails whenever this file and the routes disagree.

import type { DateInput } from './dates';

/** The query parameters of each route, by path. */
export interface RouteParams {
  /**
   * The latest official rate (`GET /exchange-rate/latest`).
   *
   * The record with the greatest date that is not after today (Costa Rica time). With fill=previous, a derived currency whose latest rate is older than today answers it for today, its own date in carriedFrom. EUR before the central bank publishes today’s cross rate: Hacienda’s provisional sell for today (source Hacienda, buy null), unless purpose names the buy side.
   */
  '/exchange-rate/latest': {
    /**
     * The currency quoted in colones: USD (the official rate, the default) or another code from /currencies (derived from the central bank’s cross rate).
     * Default `USD`.
     */
    currency?: 'USD' | 'AED' | 'ARS' | 'AUD' | 'BDT' | 'BOB' | 'BRL' | 'CAD' | 'CHF' | 'CLP' | 'CNY' | 'COP' | 'DKK' | 'DOP' | 'EGP' | 'EUR' | 'GBP' | 'GTQ' | 'HKD' | 'HNL' | 'IDR' | 'ILS' | 'INR' | 'JOD' | 'JPY' | 'KRW' | 'LKR' | 'MAD' | 'MXN' | 'MYR' | 'NIO' | 'NOK' | 'NZD' | 'PEN' | 'PLN' | 'RUB' | 'SEK' | 'SGD' | 'THB' | 'TWD' | 'UYU' | 'VND' | 'ZAR';
    /** previous: a day without a rate (a derived currency’s weekend or foreign holiday) answers with the nearest earlier rate, its date in carriedFrom. */
    fill?: 'previous';
    /** The rule the rate is for (invoice, income-tax, consumer-pay-colones, consumer-pay-dollars, customs): the answer adds `purpose`, citing the rule and the side it names; ask for the day the rule names. GET /api/v1/purposes lists each rule, its basis and the day it names. */
    purpose?: 'invoice' | 'income-tax' | 'consumer-pay-colones' | 'consumer-pay-dollars' | 'customs';
    /**
     * true: each record adds buyInverse and sellInverse, units of the currency per 1 CRC (1 / buy, 1 / sell) to 10 significant digits, for ledgers whose currency is the colón.
     * Default `false`.
     */
    inverse?: boolean;
  };
  /**
   * The official rate of one day (`GET /exchange-rate`).
   *
   * Every calendar day has a value, weekends and holidays included; 404 when the day has none. EUR today, before the central bank publishes its cross rate: Hacienda’s provisional sell (source Hacienda, buy null); a purpose naming the buy side is then a 404 that says so.
   */
  '/exchange-rate': {
    /**
     * The day, YYYY-MM-DD.
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    date: DateInput;
    /**
     * The currency quoted in colones: USD (the official rate, the default) or another code from /currencies (derived from the central bank’s cross rate).
     * Default `USD`.
     */
    currency?: 'USD' | 'AED' | 'ARS' | 'AUD' | 'BDT' | 'BOB' | 'BRL' | 'CAD' | 'CHF' | 'CLP' | 'CNY' | 'COP' | 'DKK' | 'DOP' | 'EGP' | 'EUR' | 'GBP' | 'GTQ' | 'HKD' | 'HNL' | 'IDR' | 'ILS' | 'INR' | 'JOD' | 'JPY' | 'KRW' | 'LKR' | 'MAD' | 'MXN' | 'MYR' | 'NIO' | 'NOK' | 'NZD' | 'PEN' | 'PLN' | 'RUB' | 'SEK' | 'SGD' | 'THB' | 'TWD' | 'UYU' | 'VND' | 'ZAR';
    /** previous: a day without a rate (a derived currency’s weekend or foreign holiday) answers with the nearest earlier rate, its date in carriedFrom. */
    fill?: 'previous';
    /** The rule the rate is for (invoice, income-tax, consumer-pay-colones, consumer-pay-dollars, customs): the answer adds `purpose`, citing the rule and the side it names; ask for the day the rule names. GET /api/v1/purposes lists each rule, its basis and the day it names. */
    purpose?: 'invoice' | 'income-tax' | 'consumer-pay-colones' | 'consumer-pay-dollars' | 'customs';
    /**
     * true: each record adds buyInverse and sellInverse, units of the currency per 1 CRC (1 / buy, 1 / sell) to 10 significant digits, for ledgers whose currency is the colón.
     * Default `false`.
     */
    inverse?: boolean;
  };
  /**
   * The last days of the series (`GET /exchange-rate/history`).
   *
   * Records of the `days` calendar days ending at the latest date (inclusive), ascending by date.
   */
  '/exchange-rate/history': {
    /**
     * How many calendar days.
     * An integer from 1 to 365; default 30.
     */
    days?: number;
    /**
     * The currency quoted in colones: USD (the official rate, the default) or another code from /currencies (derived from the central bank’s cross rate).
     * Default `USD`.
     */
    currency?: 'USD' | 'AED' | 'ARS' | 'AUD' | 'BDT' | 'BOB' | 'BRL' | 'CAD' | 'CHF' | 'CLP' | 'CNY' | 'COP' | 'DKK' | 'DOP' | 'EGP' | 'EUR' | 'GBP' | 'GTQ' | 'HKD' | 'HNL' | 'IDR' | 'ILS' | 'INR' | 'JOD' | 'JPY' | 'KRW' | 'LKR' | 'MAD' | 'MXN' | 'MYR' | 'NIO' | 'NOK' | 'NZD' | 'PEN' | 'PLN' | 'RUB' | 'SEK' | 'SGD' | 'THB' | 'TWD' | 'UYU' | 'VND' | 'ZAR';
    /**
     * true: each record adds buyInverse and sellInverse, units of the currency per 1 CRC (1 / buy, 1 / sell) to 10 significant digits, for ledgers whose currency is the colón.
     * Default `false`.
     */
    inverse?: boolean;
  };
  /**
   * The records between two dates (`GET /exchange-rate/range`).
   *
   * Records with from <= date <= to, ascending; at most 366 days apart; [] when none.
   */
  '/exchange-rate/range': {
    /**
     * First day, inclusive.
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    from: DateInput;
    /**
     * Last day, inclusive.
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    to: DateInput;
    /**
     * The currency quoted in colones: USD (the official rate, the default) or another code from /currencies (derived from the central bank’s cross rate).
     * Default `USD`.
     */
    currency?: 'USD' | 'AED' | 'ARS' | 'AUD' | 'BDT' | 'BOB' | 'BRL' | 'CAD' | 'CHF' | 'CLP' | 'CNY' | 'COP' | 'DKK' | 'DOP' | 'EGP' | 'EUR' | 'GBP' | 'GTQ' | 'HKD' | 'HNL' | 'IDR' | 'ILS' | 'INR' | 'JOD' | 'JPY' | 'KRW' | 'LKR' | 'MAD' | 'MXN' | 'MYR' | 'NIO' | 'NOK' | 'NZD' | 'PEN' | 'PLN' | 'RUB' | 'SEK' | 'SGD' | 'THB' | 'TWD' | 'UYU' | 'VND' | 'ZAR';
    /**
     * true: each record adds buyInverse and sellInverse, units of the currency per 1 CRC (1 / buy, 1 / sell) to 10 significant digits, for ledgers whose currency is the colón.
     * Default `false`.
     */
    inverse?: boolean;
  };
  /**
   * Statistics of a window, per side (`GET /exchange-rate/analytics`).
   *
   * Average, extremes, change, volatility (sample standard deviation of daily % changes), least-squares slope and trend over the last `days` days, or over from/to (not both forms).
   */
  '/exchange-rate/analytics': {
    /**
     * How many calendar days, ending at the latest date.
     * An integer from 1 to 20000; default 30.
     */
    days?: number;
    /**
     * First day (with "to" instead of "days").
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    from?: DateInput;
    /**
     * Last day (with "from" instead of "days").
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    to?: DateInput;
    /**
     * The currency quoted in colones: USD (the official rate, the default) or another code from /currencies (derived from the central bank’s cross rate).
     * Default `USD`.
     */
    currency?: 'USD' | 'AED' | 'ARS' | 'AUD' | 'BDT' | 'BOB' | 'BRL' | 'CAD' | 'CHF' | 'CLP' | 'CNY' | 'COP' | 'DKK' | 'DOP' | 'EGP' | 'EUR' | 'GBP' | 'GTQ' | 'HKD' | 'HNL' | 'IDR' | 'ILS' | 'INR' | 'JOD' | 'JPY' | 'KRW' | 'LKR' | 'MAD' | 'MXN' | 'MYR' | 'NIO' | 'NOK' | 'NZD' | 'PEN' | 'PLN' | 'RUB' | 'SEK' | 'SGD' | 'THB' | 'TWD' | 'UYU' | 'VND' | 'ZAR';
  };
  /**
   * Monthly or yearly statistics (`GET /exchange-rate/stats`).
   *
   * Per period: average, min, max, first, last and change of each side; periods with no record are left out.
   */
  '/exchange-rate/stats': {
    /**
     * Length of each period.
     * Default `monthly`.
     */
    period?: 'monthly' | 'yearly';
    /**
     * First day, inclusive.
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    from: DateInput;
    /**
     * Last day, inclusive.
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    to: DateInput;
    /**
     * The currency quoted in colones: USD (the official rate, the default) or another code from /currencies (derived from the central bank’s cross rate).
     * Default `USD`.
     */
    currency?: 'USD' | 'AED' | 'ARS' | 'AUD' | 'BDT' | 'BOB' | 'BRL' | 'CAD' | 'CHF' | 'CLP' | 'CNY' | 'COP' | 'DKK' | 'DOP' | 'EGP' | 'EUR' | 'GBP' | 'GTQ' | 'HKD' | 'HNL' | 'IDR' | 'ILS' | 'INR' | 'JOD' | 'JPY' | 'KRW' | 'LKR' | 'MAD' | 'MXN' | 'MYR' | 'NIO' | 'NOK' | 'NZD' | 'PEN' | 'PLN' | 'RUB' | 'SEK' | 'SGD' | 'THB' | 'TWD' | 'UYU' | 'VND' | 'ZAR';
  };
  /**
   * A series ready to plot, with its trend line (`GET /exchange-rate/chart`).
   *
   * At most `points` entries, first and last always kept, downsampled with Largest-Triangle-Three-Buckets on sell; the trend is the least-squares line over every record of the window.
   */
  '/exchange-rate/chart': {
    /**
     * How many calendar days, ending at the latest date.
     * An integer from 1 to 20000; default 30.
     */
    days?: number;
    /**
     * At most this many points in the series.
     * An integer from 2 to 500; default 90.
     */
    points?: number;
    /**
     * The currency quoted in colones: USD (the official rate, the default) or another code from /currencies (derived from the central bank’s cross rate).
     * Default `USD`.
     */
    currency?: 'USD' | 'AED' | 'ARS' | 'AUD' | 'BDT' | 'BOB' | 'BRL' | 'CAD' | 'CHF' | 'CLP' | 'CNY' | 'COP' | 'DKK' | 'DOP' | 'EGP' | 'EUR' | 'GBP' | 'GTQ' | 'HKD' | 'HNL' | 'IDR' | 'ILS' | 'INR' | 'JOD' | 'JPY' | 'KRW' | 'LKR' | 'MAD' | 'MXN' | 'MYR' | 'NIO' | 'NOK' | 'NZD' | 'PEN' | 'PLN' | 'RUB' | 'SEK' | 'SGD' | 'THB' | 'TWD' | 'UYU' | 'VND' | 'ZAR';
  };
  /**
   * The currencies a rate can be asked in (`GET /currencies`).
   *
   * USD first (the official rate), then every currency derived from the central bank’s cross rate against the dollar, by code: its names, its SDDE indicator and the direction it is published in, and the first and latest days with a rate (null without data: other currencies need the central bank’s token).
   */
  '/currencies': Record<string, never>;
  /**
   * Which official rate Costa Rican rules name for what (`GET /purposes`).
   *
   * Each value of `purpose` (on /exchange-rate, /exchange-rate/latest, /convert and /exchange-rate/close): the side of the central bank’s reference rate its rule names, whose date applies, the day a month close uses, the rule in Spanish and English, its legal basis and Spanish aliases. Cited for information, not legal advice.
   */
  '/purposes': Record<string, never>;
  /**
   * The figures to close a month with (`GET /exchange-rate/close`).
   *
   * The first and last dates present, the calendar days of the month and how many have a record, the days up to the latest date with none, whether every day has one (a month still running never is), the record of the last calendar day (null when that day has none, never another day) and, per side, average, min, max, first, last and change over the month’s records. The month may not be after the current one (Costa Rica time).
   */
  '/exchange-rate/close': {
    /** The month, YYYY-MM; not after the current month. */
    month: string;
    /**
     * The currency quoted in colones: USD (the official rate, the default) or another code from /currencies (derived from the central bank’s cross rate).
     * Default `USD`.
     */
    currency?: 'USD' | 'AED' | 'ARS' | 'AUD' | 'BDT' | 'BOB' | 'BRL' | 'CAD' | 'CHF' | 'CLP' | 'CNY' | 'COP' | 'DKK' | 'DOP' | 'EGP' | 'EUR' | 'GBP' | 'GTQ' | 'HKD' | 'HNL' | 'IDR' | 'ILS' | 'INR' | 'JOD' | 'JPY' | 'KRW' | 'LKR' | 'MAD' | 'MXN' | 'MYR' | 'NIO' | 'NOK' | 'NZD' | 'PEN' | 'PLN' | 'RUB' | 'SEK' | 'SGD' | 'THB' | 'TWD' | 'UYU' | 'VND' | 'ZAR';
    /** The rule the close is for: the answer adds `purpose`, citing the rule, and `purposeRate`, the side it names on the day it names at a close (the month’s last day; December 31 of the month’s year for income-tax). GET /api/v1/purposes lists each rule, its basis and the day it names. */
    purpose?: 'invoice' | 'income-tax' | 'consumer-pay-colones' | 'consumer-pay-dollars' | 'customs';
  };
  /**
   * Where a day's rate came from (`GET /exchange-rate/provenance`).
   *
   * The record with the upstream of each side (in words) (for EUR today before the central bank publishes: Hacienda’s provisional record and the address read), when its values were first seen and last confirmed, how many observations the day has, the values it had before (oldest first) and a digest anyone can recompute. For a currency other than the dollar, `inputs` gives both inputs (the dollar’s rate and the cross rate) with their own readings, and a revision of either is a revision of the derived day. format=html gives the same facts as a printable page.
   */
  '/exchange-rate/provenance': {
    /**
     * The day, YYYY-MM-DD.
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    date: DateInput;
    /**
     * Language of the page with format=html.
     * Default `es`.
     */
    locale?: 'es' | 'en';
    /**
     * The currency quoted in colones: USD (the official rate, the default) or another code from /currencies (derived from the central bank’s cross rate).
     * Default `USD`.
     */
    currency?: 'USD' | 'AED' | 'ARS' | 'AUD' | 'BDT' | 'BOB' | 'BRL' | 'CAD' | 'CHF' | 'CLP' | 'CNY' | 'COP' | 'DKK' | 'DOP' | 'EGP' | 'EUR' | 'GBP' | 'GTQ' | 'HKD' | 'HNL' | 'IDR' | 'ILS' | 'INR' | 'JOD' | 'JPY' | 'KRW' | 'LKR' | 'MAD' | 'MXN' | 'MYR' | 'NIO' | 'NOK' | 'NZD' | 'PEN' | 'PLN' | 'RUB' | 'SEK' | 'SGD' | 'THB' | 'TWD' | 'UYU' | 'VND' | 'ZAR';
  };
  /**
   * The revisions of the days of a span (`GET /exchange-rate/revisions`).
   *
   * Every revision of a day between from and to (at most 366 days apart), ascending by day, then by time: the values before, the values after and when; [] when none.
   */
  '/exchange-rate/revisions': {
    /**
     * First day, inclusive.
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    from: DateInput;
    /**
     * Last day, inclusive.
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    to: DateInput;
    /**
     * The currency quoted in colones: USD (the official rate, the default) or another code from /currencies (derived from the central bank’s cross rate).
     * Default `USD`.
     */
    currency?: 'USD' | 'AED' | 'ARS' | 'AUD' | 'BDT' | 'BOB' | 'BRL' | 'CAD' | 'CHF' | 'CLP' | 'CNY' | 'COP' | 'DKK' | 'DOP' | 'EGP' | 'EUR' | 'GBP' | 'GTQ' | 'HKD' | 'HNL' | 'IDR' | 'ILS' | 'INR' | 'JOD' | 'JPY' | 'KRW' | 'LKR' | 'MAD' | 'MXN' | 'MYR' | 'NIO' | 'NOK' | 'NZD' | 'PEN' | 'PLN' | 'RUB' | 'SEK' | 'SGD' | 'THB' | 'TWD' | 'UYU' | 'VND' | 'ZAR';
  };
  /**
   * Convert an amount between CRC and another currency (`GET /convert`).
   *
   * One side is CRC, the other USD (the official rate) or any code from /currencies (its derived rate). To CRC multiplies by the rate, from CRC divides; the result is rounded to 2 decimals, half away from zero, in exact decimal arithmetic. The same currency on both sides returns the amount itself.
   */
  '/convert': {
    /**
     * The amount to convert: a number greater than 0 and at most 1e+12; exponent notation is allowed.
     * A number, or a numeral string sent exactly as written.
     */
    amount: number | string;
    /** Currency of the amount: CRC or a code from /currencies (default USD, or CRC when "to" is another currency). */
    from?: 'CRC' | 'USD' | 'AED' | 'ARS' | 'AUD' | 'BDT' | 'BOB' | 'BRL' | 'CAD' | 'CHF' | 'CLP' | 'CNY' | 'COP' | 'DKK' | 'DOP' | 'EGP' | 'EUR' | 'GBP' | 'GTQ' | 'HKD' | 'HNL' | 'IDR' | 'ILS' | 'INR' | 'JOD' | 'JPY' | 'KRW' | 'LKR' | 'MAD' | 'MXN' | 'MYR' | 'NIO' | 'NOK' | 'NZD' | 'PEN' | 'PLN' | 'RUB' | 'SEK' | 'SGD' | 'THB' | 'TWD' | 'UYU' | 'VND' | 'ZAR';
    /** Currency wanted (default: CRC, or USD when "from" is CRC). */
    to?: 'CRC' | 'USD' | 'AED' | 'ARS' | 'AUD' | 'BDT' | 'BOB' | 'BRL' | 'CAD' | 'CHF' | 'CLP' | 'CNY' | 'COP' | 'DKK' | 'DOP' | 'EGP' | 'EUR' | 'GBP' | 'GTQ' | 'HKD' | 'HNL' | 'IDR' | 'ILS' | 'INR' | 'JOD' | 'JPY' | 'KRW' | 'LKR' | 'MAD' | 'MXN' | 'MYR' | 'NIO' | 'NOK' | 'NZD' | 'PEN' | 'PLN' | 'RUB' | 'SEK' | 'SGD' | 'THB' | 'TWD' | 'UYU' | 'VND' | 'ZAR';
    /**
     * Which rate to apply (not with "purpose", which names it).
     * Default `sell`.
     */
    rate?: 'buy' | 'sell';
    /**
     * The day whose rate applies (default: the latest).
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    date?: DateInput;
    /** previous: a day without a rate (a derived currency’s weekend or foreign holiday) answers with the nearest earlier rate, its date in carriedFrom. */
    fill?: 'previous';
    /** The rule the conversion is for, instead of "rate": the side it names applies, and the answer cites the rule in `purpose`; give the day the rule names as "date". GET /api/v1/purposes lists each rule, its basis and the day it names. */
    purpose?: 'invoice' | 'income-tax' | 'consumer-pay-colones' | 'consumer-pay-dollars' | 'customs';
  };
  /**
   * Buy and sell rates of every institution at the window (`GET /banking/rates`).
   *
   * Each institution's own quote for the day, ordered by name; `stale` when its last update is older than the day.
   */
  '/banking/rates': {
    /**
     * The day of the snapshot (default: the latest).
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    date?: DateInput;
    /** Only institutions of this group. */
    type?: 'public_bank' | 'private_bank' | 'financial' | 'cooperative' | 'mutual' | 'exchange_house' | 'brokerage';
  };
  /**
   * Where to buy or sell dollars at the best price (`GET /banking/best`).
   *
   * `operation` is the institution’s side: `buy` ranks who pays the most colones for your dollars (highest buy first); `sell` ranks who charges the fewest colones for a dollar (lowest sell first). Fresh quotes rank before stale ones; ties share a rank. `vsOfficial` compares with the official rate of the same side and day.
   */
  '/banking/best': {
    /** The institution’s side: buy or sell. */
    operation: 'buy' | 'sell';
    /**
     * The day of the snapshot (default: the latest).
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    date?: DateInput;
    /** Only institutions of this group. */
    type?: 'public_bank' | 'private_bank' | 'financial' | 'cooperative' | 'mutual' | 'exchange_house' | 'brokerage';
  };
  /**
   * The latest MONEX session (`GET /monex/latest`).
   *
   * The latest day, not after today (Costa Rica time), on which MONEX held a session.
   */
  '/monex/latest': Record<string, never>;
  /**
   * One day of MONEX (`GET /monex`).
   *
   * The day’s session, or `session: false` with null figures when MONEX did not sit (a weekend, a holiday): never another day’s figures. 404 for a day not known yet.
   */
  '/monex': {
    /**
     * The day, YYYY-MM-DD.
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    date: DateInput;
  };
  /**
   * The last days of MONEX (`GET /monex/history`).
   *
   * Every calendar day of the `days` ending at the latest day known, sessions and days without one, ascending.
   */
  '/monex/history': {
    /**
     * How many calendar days.
     * An integer from 1 to 365; default 30.
     */
    days?: number;
  };
  /**
   * MONEX between two dates (`GET /monex/range`).
   *
   * Every known day with from <= date <= to, sessions and days without one, ascending; at most 366 days apart; [] when none is known.
   */
  '/monex/range': {
    /**
     * First day, inclusive.
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    from: DateInput;
    /**
     * Last day, inclusive.
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    to: DateInput;
  };
  /**
   * The market calendar (`GET /calendar`).
   *
   * Every calendar day of from..to (at most 366 days apart) or of a year: its ISO weekday, whether MONEX held a session (null for a day not known yet, e.g. the future), and whether the official USD rate of that date is stored.
   */
  '/calendar': {
    /**
     * First day (with "to" instead of "year").
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    from?: DateInput;
    /**
     * Last day (with "from" instead of "year").
     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).
     */
    to?: DateInput;
    /**
     * A whole year instead of from/to.
     * An integer from 1983 to 2100.
     */
    year?: number;
  };
  /**
   * A market summary with a verdict, in Spanish or English (`GET /insights`).
   *
   * The window's Analytics, a verdict about the colón (from the sell rate's changePercent: appreciation when ≤ −L, depreciation when ≥ L, stable otherwise, where the line L is 0.25 for windows of up to 30 days and 0.25 × √(d / 30) beyond, d being the calendar days from `from` to `to`: 0.433 for 90 days, 0.872 for 365), a summary quoting the real figures and 2 to 4 probable causes tied to them. The text is written by the configured language model from the computed metrics only, or by the built-in statistical text (`generatedBy: statistical`); it is kept for the day.
   */
  '/insights': {
    /**
     * How many calendar days, ending at the latest date.
     * An integer from 7 to 365; default 30.
     */
    days?: number;
    /**
     * Language of summary and causes.
     * Default `es`.
     */
    locale?: 'es' | 'en';
  };
  /**
   * This month's usage and limits of your key (`GET /usage`).
   *
   * Requests served (`used`) and remaining this month, when the count resets, and the per-minute rate. `used` counts the requests served by every instance, not quota an instance has set aside. Not counted against the quota.
   */
  '/usage': Record<string, never>;
  /**
   * Service health (`GET /health`).
   *
   * "degraded" when the latest official date is more than 3 days before today, or nothing is stored yet; `reasons` then says why in words (the data's age, a sync running or failed); without BCCR_TOKEN it also notes that other currencies and MONEX need one, and it notes webhook deliveries waiting more than 5 minutes past their time (no worker delivering); neither note changes the status. `sync` is the last run of the official sync (its state, its error in one line, when it ended) and when this instance tries next.
   */
  '/health': Record<string, never>;
}

/** Paths of the routes the SDK can call. */
export type RoutePath = keyof RouteParams;

/** The parameter names of each route, in the server's order: the client sends these and no others. */
export const QUERY_NAMES = {
  '/exchange-rate/latest': ['currency', 'fill', 'purpose', 'inverse'],
  '/exchange-rate': ['date', 'currency', 'fill', 'purpose', 'inverse'],
  '/exchange-rate/history': ['days', 'currency', 'inverse'],
  '/exchange-rate/range': ['from', 'to', 'currency', 'inverse'],
  '/exchange-rate/analytics': ['days', 'from', 'to', 'currency'],
  '/exchange-rate/stats': ['period', 'from', 'to', 'currency'],
  '/exchange-rate/chart': ['days', 'points', 'currency'],
  '/currencies': [],
  '/purposes': [],
  '/exchange-rate/close': ['month', 'currency', 'purpose'],
  '/exchange-rate/provenance': ['date', 'locale', 'currency'],
  '/exchange-rate/revisions': ['from', 'to', 'currency'],
  '/convert': ['amount', 'from', 'to', 'rate', 'date', 'fill', 'purpose'],
  '/banking/rates': ['date', 'type'],
  '/banking/best': ['operation', 'date', 'type'],
  '/monex/latest': [],
  '/monex': ['date'],
  '/monex/history': ['days'],
  '/monex/range': ['from', 'to'],
  '/calendar': ['from', 'to', 'year'],
  '/insights': ['days', 'locale'],
  '/usage': [],
  '/health': [],
} as const satisfies { readonly [P in RoutePath]: readonly (keyof RouteParams[P])[] };
