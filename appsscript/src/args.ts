/**
 * Arguments as Sheets passes them: an omitted argument is `undefined`, an empty cell is `""`, a
 * range is a 2-D array, text may carry stray spaces and any case. Each reader returns the clean
 * value or throws an `ArgumentError` whose message is already in the sheet's language.
 */
import { DECIMAL_NUMBER, isAmountWithinLimits } from '../../shared/arguments';
import type { RateSide } from '../../shared/currencies';
import { CURRENCY_CODES, DOLLAR } from '../../shared/currency-catalog';
import { PURPOSES, type Purpose } from '../../shared/purposes';
import { isBlank } from './dates';
import type { Messages } from './messages';

/** A problem with what the user typed: the whole call fails with this message. */
export class ArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArgumentError';
  }
}

const SIDES: Record<string, RateSide> = { buy: 'buy', sell: 'sell', compra: 'buy', venta: 'sell' };
const MEASURES: Record<string, Measure> = { closing: 'closing', close: 'closing', cierre: 'closing', average: 'average', promedio: 'average' };

/** What EXCHANGECLOSE gives of a month: the rate of its last calendar day, or the month's average. */
export type Measure = 'closing' | 'average';

/** The colón: the currency every rate is quoted in, and one side of every conversion. */
const COLON = 'CRC';
/** The symbols the add-on took before it spoke other currencies: `$` is the US dollar, as in Costa Rica. */
const SYMBOLS: Record<string, string> = { $: DOLLAR.code, '₡': COLON };
const QUOTED = new Set(CURRENCY_CODES);

/** A code as typed, upper case, with the symbols read as their codes. */
function codeOf(value: unknown): string {
  const text = String(value ?? '')
    .trim()
    .toUpperCase();
  return SYMBOLS[text] ?? text;
}

/** A range where one value is expected: a 1×1 range is that value, anything larger is refused. */
export function single(value: unknown, name: string, t: Messages): unknown {
  if (!Array.isArray(value)) return value;
  const flat = (value as unknown[]).flat();
  if (flat.length === 1) return flat[0];
  throw new ArgumentError(t.oneCell(name));
}

/** A purpose by its id or one of its Spanish names: `renta`, `factura`, `aduana`… */
const PURPOSE_WORDS = new Map<string, Purpose>(PURPOSES.flatMap((p) => [p.id, ...p.aliases].map((word): [string, Purpose] => [word, p])));

/** What `type` names: a side, or a purpose whose rule names the side (and, for a month close, the day). */
export interface RateType {
  side: RateSide;
  purpose: Purpose | null;
}

/** A word as people type it: any case, accents or not, spaces or underscores for hyphens. */
function wordOf(value: unknown): string {
  return String(value)
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\s_]+/g, '-');
}

/**
 * `type`: `buy`/`sell` (or `compra`/`venta`), or a purpose (`invoice`, `income-tax`, … or their
 * Spanish names `factura`, `renta`, `aduana`, …), which takes the side its rule names; any case;
 * blank → `sell`, the usual quote.
 */
export function readRateType(value: unknown, t: Messages): RateType {
  const v = single(value, 'type', t);
  if (isBlank(v)) return { side: 'sell', purpose: null };
  const word = wordOf(v);
  const side = SIDES[word];
  if (side) return { side, purpose: null };
  const purpose = PURPOSE_WORDS.get(word);
  if (purpose) return { side: purpose.side, purpose };
  throw new ArgumentError(t.badSide(String(v)));
}

/** The side `type` names, directly or through a purpose. */
export function readSide(value: unknown, t: Messages): RateSide {
  return readRateType(value, t).side;
}

/** `measure` of EXCHANGECLOSE: `closing` (or `cierre`) and `average` (or `promedio`), any case; blank → `closing`. */
export function readMeasure(value: unknown, t: Messages): Measure {
  const v = single(value, 'measure', t);
  if (isBlank(v)) return 'closing';
  const measure = MEASURES[String(v).trim().toLowerCase()];
  if (!measure) throw new ArgumentError(t.badMeasure(String(v)));
  return measure;
}

/** `operation` of EXCHANGEBEST: the same words as `type`, but required. */
export function readOperation(value: unknown, t: Messages): RateSide {
  const v = single(value, 'operation', t);
  const side = isBlank(v) ? undefined : SIDES[String(v).trim().toLowerCase()];
  if (!side) throw new ArgumentError(t.badOperation(isBlank(v) ? '' : String(v)));
  return side;
}

/**
 * `currency` of EXCHANGERATE and EXCHANGECLOSE: a code the API quotes in colones (the shared
 * catalog's), any case; blank → USD, the official series. CRC is refused with the others: a
 * colón costs one colón.
 */
export function readRateCurrency(value: unknown, t: Messages): string {
  const v = single(value, 'currency', t);
  if (isBlank(v)) return DOLLAR.code;
  const code = codeOf(v);
  if (!QUOTED.has(code)) throw new ArgumentError(t.badRateCurrency(String(v)));
  return code;
}

/** `from` or `to` of EXCHANGECONVERT: CRC or a code the API quotes in colones, any case; required. */
export function readCurrency(value: unknown, name: 'from' | 'to', t: Messages): string {
  const v = single(value, name, t);
  const code = codeOf(v);
  if (code !== COLON && !QUOTED.has(code)) throw new ArgumentError(t.badCurrency(name, isBlank(v) ? '' : String(v)));
  return code;
}

/** A conversion's two sides, and the currency whose rate it takes (null: the same currency on both sides, no rate). */
export interface Pair {
  from: string;
  to: string;
  quoted: string | null;
}

/**
 * `from` and `to` of EXCHANGECONVERT. Every rate is colones per unit, so one side must be CRC, as
 * `/convert` requires; the same currency on both sides keeps the amount.
 */
export function readPair(from: unknown, to: unknown, t: Messages): Pair {
  const a = readCurrency(from, 'from', t);
  const b = readCurrency(to, 'to', t);
  if (a === b) return { from: a, to: b, quoted: null };
  if (a !== COLON && b !== COLON) throw new ArgumentError(t.colonSideNeeded(a, b));
  return { from: a, to: b, quoted: a === COLON ? b : a };
}

/** A whole number of days in [min, max]; blank → `fallback`. */
export function readDays(value: unknown, limits: { min: number; max: number; fallback: number }, t: Messages): number {
  const v = single(value, 'days', t);
  if (isBlank(v)) return limits.fallback;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isInteger(n) || n < limits.min || n > limits.max) throw new ArgumentError(t.badDays(limits.min, limits.max, String(v)));
  return n;
}

export type AmountCell = { kind: 'blank' } | { kind: 'amount'; amount: number } | { kind: 'invalid' } | { kind: 'outOfRange' };

/**
 * One cell of `amount`: a number, or text that is a plain decimal number ("100", "0.5"), within
 * the API's limits (greater than 0, at most 1e12) — the converter refuses the rest, and so does
 * the add-on, rather than answer -0.01 for -5.
 */
export function readAmountCell(value: unknown): AmountCell {
  if (isBlank(value)) return { kind: 'blank' };
  // Decimal text is a number even when it overflows a double ("1e400"): out of range, not "not a number".
  const isNumber = (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && DECIMAL_NUMBER.test(value.trim()));
  if (!isNumber) return { kind: 'invalid' };
  const amount = typeof value === 'number' ? value : Number(String(value).trim());
  return isAmountWithinLimits(amount) ? { kind: 'amount', amount } : { kind: 'outOfRange' };
}
