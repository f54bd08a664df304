/**
 * Exact money arithmetic for EXCHANGECONVERT, matching the API's `/convert` so that a sheet and
 * the API never disagree by a cent: 2 decimals, half away from zero, computed on exact decimals.
 * Binary floats miss halves (0.15 × 493.5 is 74.02499999999999 in floats, so it would round to
 * 74.02, not 74.03), so a number is read as the decimal it prints as (`String(n)`, the shortest
 * text that round-trips) and the arithmetic runs on integers (BigInt) with a power-of-ten scale.
 */

/** The colón: every rate is colones per unit of the other side. */
const CRC = 'CRC';

/** value = int / 10^scale */
export interface Decimal {
  int: bigint;
  scale: number;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const TEN = BigInt(10);
const pow10 = (n: number): bigint => TEN ** BigInt(n);

/** "12", "-0.5", ".5", "1e-7", "1.5e+21" → exact decimal; null for anything else. */
export function parseDecimal(text: string): Decimal | null {
  const m = DECIMAL.exec(text.trim());
  if (!m) return null;
  const [, sign, whole = '', fraction = '', exponent = '0'] = m;
  if (whole === '' && fraction === '') return null;
  const exp = Number(exponent);
  if (!Number.isFinite(exp) || Math.abs(exp) > 400) return null;
  let int = BigInt(`${whole}${fraction}` || '0');
  let scale = fraction.length - exp;
  if (scale < 0) {
    int *= pow10(-scale);
    scale = 0;
  }
  return { int: sign === '-' ? -int : int, scale };
}

/** The decimal a finite number prints as: 0.1 is exactly 1/10 here, not 0.1000000000000000055…. */
export function decimalOf(n: number): Decimal {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  const parsed = parseDecimal(String(n));
  if (!parsed) throw new RangeError(`unreadable number: ${n}`);
  return parsed;
}

/** num / den rounded to an integer, half away from zero (den ≠ 0). */
export function divideRounded(num: bigint, den: bigint): bigint {
  const negative = num < BigInt(0) !== den < BigInt(0);
  const n = num < BigInt(0) ? -num : num;
  const d = den < BigInt(0) ? -den : den;
  let q = n / d;
  if ((n % d) * BigInt(2) >= d) q += BigInt(1);
  return negative ? -q : q;
}

/** An integer number of 10^-decimals units as text: (-5, 2) → "-0.05". */
export function formatScaled(units: bigint, decimals: number): string {
  const negative = units < BigInt(0);
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return negative ? `-${text}` : text;
}

/** Rounds a decimal to `decimals` places, half away from zero, as text. */
export function roundDecimal(value: Decimal, decimals = 2): string {
  const units = value.scale <= decimals ? value.int * pow10(decimals - value.scale) : divideRounded(value.int, pow10(value.scale - decimals));
  return formatScaled(units, decimals);
}

/** a × b, rounded. */
export function multiply(a: Decimal, b: Decimal, decimals = 2): string {
  return roundDecimal({ int: a.int * b.int, scale: a.scale + b.scale }, decimals);
}

/** a ÷ b, rounded (b ≠ 0): (a.int / 10^a.scale) / (b.int / 10^b.scale) in units of 10^-decimals. */
export function divide(a: Decimal, b: Decimal, decimals = 2): string {
  if (b.int === BigInt(0)) throw new RangeError('division by zero');
  // Bring both sides to one integer ratio: a.int · 10^(b.scale + decimals) / (b.int · 10^a.scale).
  const num = a.int * pow10(b.scale + decimals);
  const den = b.int * pow10(a.scale);
  return formatScaled(divideRounded(num, den), decimals);
}

/**
 * `amount` of `from` in `to` at `rate` colones per unit of the side that is not CRC: into CRC
 * multiplies, out of CRC divides, the same currency keeps the amount (rounded like every money
 * result).
 */
export function convertAmount(amount: number, from: string, to: string, rate: number): number {
  const a = decimalOf(amount);
  const text = from === to ? roundDecimal(a) : from === CRC ? divide(a, decimalOf(rate)) : multiply(a, decimalOf(rate));
  // "-0.00" would come back as -0; a cell has no negative zero.
  return Number(text) || 0;
}
