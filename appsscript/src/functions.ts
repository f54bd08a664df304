/**
 * The seven custom functions. Each is a thin call into `service.ts` with an Env built from the Apps
 * Script services. The JSDoc blocks are what Sheets shows as help while typing a formula: the
 * build copies them onto the top-level stubs it generates (esbuild drops comments), so keep
 * them here, with `@customfunction`, one `@param` per parameter and an example in each.
 */
import { exchangeClose } from './close';
import { exchangeMonex } from './monex';
import { gasEnv } from './env';
import { exchangeAnalytics, exchangeBest, exchangeConvert, exchangeHistory, exchangeRate } from './service';

/**
 * The exchange rate of the Banco Central de Costa Rica: colones (CRC) for 1 unit of a currency, the US dollar (USD) unless another is named.
 *
 * @param {Date|string} date Optional. The day: a date cell, "YYYY-MM-DD" text, or a whole range of them (answered with one request, in the same shape). Leave it empty for the latest rate. Examples: A2, A2:A366, "2025-01-15".
 * @param {string} type Optional. "sell" (default) or "buy"; "venta" and "compra" work too. Or a purpose, which takes the side its rule names: "invoice" ("factura"), "income-tax" ("renta"), "customs" ("aduana"), "consumer-pay-colones", "consumer-pay-dollars". Example: "buy".
 * @param {string} currency Optional. The currency's ISO code, in any case: "USD" (default: the official rate), "EUR", "GBP", "JPY", "MXN"… Extensions → CRC Rates → Settings lists all 43. Every currency but USD is derived from the central bank's cross rate against the dollar, published on business days: a weekend or a holiday abroad gives the last rate published before it (up to 10 days back), as it is booked. Example: "EUR".
 * @return {number} CRC per 1 unit of the currency, or one rate per cell of the range.
 * @customfunction
 */
export function EXCHANGERATE(date?: unknown, type?: unknown, currency?: unknown) {
  return exchangeRate(gasEnv(), date, type, currency);
}

/**
 * Converts an amount between colones (CRC) and another currency at the central bank's rate, rounded to 2 decimals.
 *
 * @param {number} amount The amount, or a range of amounts (one rate lookup for all of them). Examples: 100, B2:B50.
 * @param {string} from The currency of the amount: "CRC" or a currency code such as "USD", "EUR" or "JPY" (all 43 in Extensions → CRC Rates → Settings). One of from and to must be "CRC". Example: "EUR".
 * @param {string} to The currency wanted: "CRC" or a currency code. Example: "CRC".
 * @param {string} type Optional. Which rate: "sell" (default) or "buy". "venta" and "compra" work too. Or a purpose, which takes the side its rule names: "invoice" ("factura"), "income-tax" ("renta"), "customs" ("aduana"), "consumer-pay-colones", "consumer-pay-dollars". Example: "factura".
 * @param {Date|string} date Optional. The day whose rate applies; the latest when empty. For a currency other than USD, a weekend or a holiday abroad takes the last rate published before it. Example: "2025-01-15".
 * @return {number} The converted amount, or one per cell of the range.
 * @customfunction
 */
export function EXCHANGECONVERT(amount?: unknown, from?: unknown, to?: unknown, type?: unknown, date?: unknown) {
  return exchangeConvert(gasEnv(), amount, from, to, type, date);
}

/**
 * The rate a month closes with: the rate of its last calendar day (default), or the average of the month. For closing the books.
 *
 * @param {Date|string} month The month: a date cell (any day of it), "YYYY-MM" text, or a whole range of them (answered with one request, in the same shape). Not after the current month. Examples: A2, A2:A13, "2025-01".
 * @param {string} type Optional. "sell" (default) or "buy"; "venta" and "compra" work too. Or a purpose, which takes the side its rule names: "invoice" ("factura"), "income-tax" ("renta"), "customs" ("aduana"), "consumer-pay-colones", "consumer-pay-dollars". For "income-tax" the closing rate is the one of December 31 of the month's year, the fiscal close. Example: "renta".
 * @param {string} measure Optional. "closing" (default): the rate of the month's last calendar day, #N/A while that day has none (the month is not complete); for a currency other than USD, the rate in force that day (a weekend or a holiday abroad takes the last rate before it). "average": the average of the month's daily rates. "cierre" and "promedio" work too. Example: "average".
 * @param {string} currency Optional. The currency's ISO code: "USD" (default), "EUR", "JPY"… (all 43 in Extensions → CRC Rates → Settings). Example: "EUR".
 * @return {number} CRC per 1 unit of the currency, or one figure per cell of the range.
 * @customfunction
 */
export function EXCHANGECLOSE(month?: unknown, type?: unknown, measure?: unknown, currency?: unknown) {
  return exchangeClose(gasEnv(), month, type, measure, currency);
}

/**
 * The official buy and sell rates of the last days, as a table with a header row: Date, Buy, Sell.
 *
 * @param {number} days Optional. How many calendar days, ending at the latest rate: 1 to 365 (default 30). Example: 90.
 * @return {Array<Array<Date|number|string>>} One row per day, oldest first.
 * @customfunction
 */
export function EXCHANGEHISTORY(days?: unknown) {
  return exchangeHistory(gasEnv(), days);
}

/**
 * Where to buy or sell dollars today: the banks' and exchange houses' window rates, best first.
 *
 * @param {string} operation "sell" ranks who sells you dollars for the fewest colones; "buy" ranks who pays the most colones for your dollars. Example: "sell".
 * @return {Array<Array<number|string>>} Rank, Institution, Type, Buy, Sell, and the difference from the official rate.
 * @customfunction
 */
export function EXCHANGEBEST(operation?: unknown) {
  return exchangeBest(gasEnv(), operation);
}

/**
 * Statistics of the official rate over the last days: average, extremes, change, volatility and trend, for buy and sell.
 *
 * @param {number} days Optional. How many calendar days, ending at the latest rate: 1 to 20000 (default 30). Example: 365.
 * @return {Array<Array<Date|number|string>>} A two-column table: metric and value.
 * @customfunction
 */
export function EXCHANGEANALYTICS(days?: unknown) {
  return exchangeAnalytics(gasEnv(), days);
}

/**
 * A figure of MONEX, the central bank's wholesale foreign exchange market, whose midday sessions set the next day's reference rate.
 *
 * @param {Date|string} date Optional. The day: a date cell, "YYYY-MM-DD" text, or a whole range of them (answered with one request, in the same shape). Leave it empty for the latest session. Examples: A2, A2:A31, "2025-01-15".
 * @param {string} measure Optional. "average" (default): the session's weighted average, CRC per USD; "min" and "max": the lowest and highest price traded; "volume": the amount traded, as the central bank publishes it (millions of US dollars); "session": TRUE or FALSE. "promedio", "minimo", "maximo", "volumen" and "sesion" work too. A day without a session (a weekend, a holiday) gives #N/A, never 0. Example: "max".
 * @return {number} The figure, #N/A without a session, or one per cell of the range.
 * @customfunction
 */
export function EXCHANGEMONEX(date?: unknown, measure?: unknown) {
  return exchangeMonex(gasEnv(), date, measure);
}
