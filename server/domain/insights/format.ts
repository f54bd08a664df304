/**
 * Numbers, money, percentages and dates as a person reads them in each language: Spanish with a
 * decimal comma (`₡512,82`, `−1,4 %`, `15 de enero de 2025`), English with a decimal point
 * (`₡512.82`, `−1.4%`, `January 15, 2025`).
 *
 * Written by hand rather than with `Intl.NumberFormat`: ICU's `es-CR` groups thousands with a
 * narrow no-break space and its data changes between Node releases, and the text must read the
 * same on every install (tests compare it). Rounding is the project's own, half away from zero.
 */
import Decimal from 'decimal.js';
import type { InsightLocale } from '../../../shared/types';
import { roundHalfAway } from '../rounding';

/** U+2212: a real minus sign, as typeset text uses, not the hyphen. */
const MINUS = '\u2212';
/** Spanish groups thousands with a (no-break) space, and not at all in four-digit numbers (RAE). */
const NBSP = '\u00a0';

export interface NumberOptions {
  decimals: number;
  /** Show `+` before positive values (changes); negative values always get `−`. */
  signed?: boolean;
}

function group(integer: string, separator: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

function sign(rounded: number, signed: boolean | undefined): string {
  if (rounded < 0) return MINUS;
  return signed && rounded > 0 ? '+' : '';
}

/** The digits of |value| rounded to `decimals`, grouped and with the locale's decimal mark. */
function digits(rounded: number, decimals: number, locale: InsightLocale): string {
  const [integer, fraction] = new Decimal(rounded).abs().toFixed(decimals).split('.');
  const grouped = locale === 'es' ? (integer.length > 4 ? group(integer, NBSP) : integer) : group(integer, ',');
  const mark = locale === 'es' ? ',' : '.';
  return fraction === undefined ? grouped : `${grouped}${mark}${fraction}`;
}

export function formatNumber(value: number, locale: InsightLocale, { decimals, signed }: NumberOptions): string {
  const rounded = roundHalfAway(value, decimals);
  return `${sign(rounded, signed)}${digits(rounded, decimals, locale)}`;
}

/** Colones: `₡512,82`, `−₡7,28`. The sign goes before the currency symbol in both languages. */
export function formatMoney(value: number, locale: InsightLocale, options: Partial<NumberOptions> = {}): string {
  const decimals = options.decimals ?? 2;
  const rounded = roundHalfAway(value, decimals);
  return `${sign(rounded, options.signed)}₡${digits(rounded, decimals, locale)}`;
}

/** `−1,4 %` (Spanish writes a space before the sign) and `−1.4%`. */
export function formatPercent(value: number, locale: InsightLocale, options: Partial<NumberOptions> = {}): string {
  const decimals = options.decimals ?? peopleDecimals(value);
  const number = formatNumber(value, locale, { decimals, signed: options.signed });
  return locale === 'es' ? `${number} %` : `${number}%`;
}

/**
 * One decimal is what people quote for a change ("−1.4 %"), but a small change would then read
 * as "0.0 %": below 0.1 in magnitude, two decimals keep it visible.
 */
export function peopleDecimals(value: number): number {
  const magnitude = Math.abs(value);
  return magnitude !== 0 && magnitude < 0.095 ? 2 : 1;
}

/** Enough decimals (2 to 4) to show at least two significant digits of a small amount per day. */
export function smallAmountDecimals(value: number): number {
  const magnitude = Math.abs(value);
  if (magnitude === 0 || magnitude >= 0.1) return 2;
  return magnitude >= 0.01 ? 3 : 4;
}

const MONTHS: Record<InsightLocale, readonly string[]> = {
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
};

function parts(date: string): { year: number; monthIndex: number; day: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new RangeError(`expected a YYYY-MM-DD date, got "${date}"`);
  return { year: Number(m[1]), monthIndex: Number(m[2]) - 1, day: Number(m[3]) };
}

/** `15 de enero de 2025` / `January 15, 2025`. */
export function formatDate(date: string, locale: InsightLocale): string {
  const { year, monthIndex, day } = parts(date);
  const month = MONTHS[locale][monthIndex];
  return locale === 'es' ? `${day} de ${month} de ${year}` : `${month} ${day}, ${year}`;
}

/**
 * A span without repeating what both ends share: `del 1 al 30 de enero de 2025`,
 * `del 15 de diciembre de 2024 al 13 de enero de 2025`; `January 1 to 30, 2025`,
 * `December 15, 2024 to January 13, 2025`.
 */
export function formatDateRange(from: string, to: string, locale: InsightLocale): string {
  const a = parts(from);
  const b = parts(to);
  const months = MONTHS[locale];
  if (from === to) return locale === 'es' ? `el ${formatDate(from, locale)}` : formatDate(from, locale);
  if (a.year !== b.year) {
    return locale === 'es' ? `del ${formatDate(from, locale)} al ${formatDate(to, locale)}` : `${formatDate(from, locale)} to ${formatDate(to, locale)}`;
  }
  if (a.monthIndex === b.monthIndex) {
    return locale === 'es' ? `del ${a.day} al ${b.day} de ${months[b.monthIndex]} de ${b.year}` : `${months[a.monthIndex]} ${a.day} to ${b.day}, ${b.year}`;
  }
  return locale === 'es'
    ? `del ${a.day} de ${months[a.monthIndex]} al ${b.day} de ${months[b.monthIndex]} de ${b.year}`
    : `${months[a.monthIndex]} ${a.day} to ${months[b.monthIndex]} ${b.day}, ${b.year}`;
}

/** `30 días` / `30 days`, `1 día` / `1 day`. */
export function formatDays(count: number, locale: InsightLocale): string {
  if (locale === 'es') return count === 1 ? '1 día' : `${count} días`;
  return count === 1 ? '1 day' : `${count} days`;
}
