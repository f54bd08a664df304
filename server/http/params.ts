/**
 * Query parameter schemas. Each one converts the raw string strictly (so "1.5", "" or "0x10"
 * are not integers) and records, in words, what it expects: that sentence is the 400 message, and
 * the schema itself becomes the parameter's documentation in the OpenAPI document.
 */
import { z } from 'zod';
import { isIsoDate } from '../../shared/dates';
import { CURRENCIES } from '../../shared/currencies';
import { CURRENCY_CODES, DOLLAR } from '../../shared/currency-catalog';
import { PURPOSE_IDS } from '../../shared/purposes';
import { isYearMonth, YEAR_MONTH_PATTERN } from '../domain/month-close';
import { badRequest } from '../errors';

const expectations = new WeakMap<z.ZodType, string>();

function expecting<T extends z.ZodType>(schema: T, expectation: string): T {
  expectations.set(schema, expectation);
  return schema;
}

/** What `notes` records of a schema, also when a route wrapped it afterwards (`date(…).optional()`). */
function noteOf<T>(notes: WeakMap<z.ZodType, T>, schema: z.ZodType): T | undefined {
  let current: z.ZodType = schema;
  while (!notes.has(current) && (current instanceof z.ZodOptional || current instanceof z.ZodDefault)) {
    current = current.unwrap() as z.ZodType;
  }
  return notes.get(current);
}

/** The expectation of a schema, in words. */
export const expectationOf = (schema: z.ZodType): string | undefined => noteOf(expectations, schema);

/** The range of a decimal parameter, as JSON Schema says it of a number. */
export interface NumberRange {
  exclusiveMinimum?: number;
  minimum?: number;
  maximum?: number;
}

const numberForms = new WeakMap<z.ZodType, NumberRange>();

/**
 * The JSON number a decimal parameter may also be given as, where arguments are JSON (an MCP tool
 * call: `"amount": 250` means `amount=250`); a query string only ever carries its text.
 */
export const numberFormOf = (schema: z.ZodType): NumberRange | undefined => noteOf(numberForms, schema);

const strictInteger = (value: unknown) => (typeof value === 'string' && /^[+-]?\d{1,15}$/.test(value) ? Number(value) : value);
const lowerCase = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);
const upperCase = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);

export function integer(min: number, max: number, description: string, defaultValue?: number) {
  const base = z.preprocess(strictInteger, z.int().min(min).max(max)).meta({ description });
  const schema = defaultValue === undefined ? base : base.default(defaultValue);
  return expecting(schema, `an integer from ${min} to ${max}`);
}

export function date(description: string) {
  return expecting(z.string().refine(isIsoDate).meta({ description, format: 'date', example: '2025-01-15' }), 'a real calendar date as YYYY-MM-DD');
}

/** A calendar month, `YYYY-MM`: the pattern documents it, the refinement also refuses year 0000 (as dates do). */
export function yearMonth(description: string, expectation = 'a calendar month as YYYY-MM') {
  return expecting(z.string().regex(new RegExp(YEAR_MONTH_PATTERN)).refine(isYearMonth).meta({ description, example: '2025-01' }), expectation);
}

export function oneOf<const T extends readonly [string, ...string[]]>(values: T, description: string, defaultValue?: T[number]) {
  const base = z.preprocess(lowerCase, z.enum(values)).meta({ description });
  const schema = defaultValue === undefined ? base : base.default(defaultValue as never);
  return expecting(schema, `one of ${values.join(', ')}`);
}

export function currency(description: string) {
  return expecting(z.preprocess(upperCase, z.enum(CURRENCIES)).meta({ description }), `one of ${CURRENCIES.join(', ')}`);
}

const CURRENCY_EXPECTATION = 'a supported ISO 4217 code such as USD, EUR or JPY (GET /api/v1/currencies lists them)';

/** The currency of a series: the dollar by default, or any code of the catalog (shared/currency-catalog.ts). */
export function currencyCode(
  description = 'The currency quoted in colones: USD (the official rate, the default) or another code from /currencies (derived from the central bank’s cross rate).',
) {
  return expecting(
    z
      .preprocess(upperCase, z.enum(CURRENCY_CODES as [string, ...string[]]))
      .default(DOLLAR.code)
      .meta({ description, example: 'EUR' }),
    CURRENCY_EXPECTATION,
  );
}

/** One side of a conversion: colones, or any currency of the catalog. */
export function convertibleCurrency(description: string) {
  return expecting(
    z.preprocess(upperCase, z.enum(['CRC', ...CURRENCY_CODES] as [string, ...string[]])).meta({ description }),
    `CRC or ${CURRENCY_EXPECTATION}`,
  );
}

/** `fill=previous`: a day without a rate of its own answers with the latest earlier one (`carriedFrom` says which). */
export function fill() {
  return oneOf(
    ['previous'] as const,
    'previous: a day without a rate (a derived currency’s weekend or foreign holiday) answers with the nearest earlier rate, its date in carriedFrom.',
  ).optional();
}

/** The values of a yes-or-no parameter (`inverse=true`), case-insensitive like every enumeration. */
export const FLAG_VALUES = ['true', 'false'] as const;

/** A yes-or-no parameter, `false` when left out; the handler reads `=== 'true'`. */
export function flag(description: string) {
  return oneOf(FLAG_VALUES, description, 'false');
}

/**
 * `purpose=`: the rule whose side (and day) the answer applies (shared/purposes.ts); an unknown one
 * is a 400 that lists them.
 */
export function purpose(description: string) {
  return oneOf(PURPOSE_IDS, `${description} GET /api/v1/purposes lists each rule, its basis and the day it names.`).optional();
}

/** A decimal as text; `range` is the route's own check of it, said again for JSON clients (`numberFormOf`). */
export function decimalString(description: string, expectation: string, range: NumberRange = {}) {
  const schema = expecting(
    z
      .string()
      .regex(/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/)
      .meta({ description, example: '100' }),
    expectation,
  );
  numberForms.set(schema, range);
  return schema;
}

export type QueryShape = Record<string, z.ZodType>;
export type ParsedQuery<S extends QueryShape> = { [K in keyof S]: z.output<S[K]> };

export function isRequired(schema: z.ZodType): boolean {
  return !schema.safeParse(undefined).success;
}

/**
 * Validates the known parameters of a query string. Unknown ones are ignored, as docs/api.md says;
 * a known one given twice is ambiguous and refused.
 */
export function parseQuery<S extends QueryShape>(shape: S, raw: Record<string, string | string[] | undefined>): ParsedQuery<S> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(shape)) {
    const value = raw[name];
    if (Array.isArray(value)) throw badRequest(`Parameter "${name}" must be given only once`);
    const result = schema.safeParse(value);
    if (result.success) {
      out[name] = result.data;
      continue;
    }
    if (value === undefined) throw badRequest(`Parameter "${name}" is required: ${expectationOf(schema) ?? 'see the documentation'}`);
    throw badRequest(`Parameter "${name}" must be ${expectationOf(schema) ?? 'valid'} (got "${value}")`);
  }
  return out as ParsedQuery<S>;
}
