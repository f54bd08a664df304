/**
 * Shared by the system tests: the OpenAPI document's types (as far as the tests read it), a
 * validator of real answers against the schemas the document gives, and a seed that makes every
 * documented example answer 200.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { addDays, calendarDay } from '../../../shared/dates';
import type { Route } from '../../../server/http/route';
import { isYearMonth, monthBounds } from '../../../server/domain/month-close';
import { INSTITUTION_TYPES } from '../../../shared/institutions';
import { createBankingStore } from '../../../server/store/banking';
import { createMonexStore } from '../../../server/store/monex';
import type { RateInput } from '../../../server/store/rates';
import { rate, type TestApp } from '../../helpers/app';

export type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
  example?: string;
}

export interface OpenApiMediaType {
  schema?: JsonSchema;
  examples?: Record<string, { value: unknown }>;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, OpenApiMediaType>;
}

export interface OpenApiOperation {
  operationId: string;
  summary?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: OpenApiParameter[];
  responses: Record<string, OpenApiResponse>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers?: Array<{ url: string }>;
  security?: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string }>;
  };
}

export async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return (await response.json()) as T;
}

const SWAGGER_PARSER = `
const SwaggerParser = require('@apidevtools/swagger-parser');
let text = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { text += chunk; });
process.stdin.on('end', () => {
  SwaggerParser.validate(JSON.parse(text)).then(
    () => process.stdout.write(JSON.stringify({ valid: true })),
    (error) => process.stdout.write(JSON.stringify({ valid: false, message: String(error && error.message), details: error && error.details })),
  );
});`;

/**
 * swagger-parser's verdict on a document. It needs require(esm), which Node has but Jest's
 * module loader does not, so it runs in a child Node process.
 */
export function validateWithSwaggerParser(doc: unknown): Promise<{ valid: boolean; message?: string; details?: unknown }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['-e', SWAGGER_PARSER],
      { cwd: path.resolve(__dirname, '../../..'), timeout: 20_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`swagger-parser failed to run: ${error.message}\n${stderr}`));
        try {
          resolve(JSON.parse(stdout) as { valid: boolean; message?: string; details?: unknown });
        } catch {
          reject(new Error(`swagger-parser said: ${stdout}\n${stderr}`));
        }
      },
    );
    child.stdin?.end(JSON.stringify(doc));
  });
}

/** Where the document is registered in ajv, so `#/components/schemas/…` resolves inside it. */
const BASE = 'https://crc-rates.test/openapi.json';

/** RFC 6901 pointer segment, then made safe for a URI fragment. */
const segment = (part: string) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'));

export interface ResponseValidator {
  /** The schema of `path` answering `status` (application/json), or a failure saying it is not documented. */
  schemaOf(path: string, status: number): JsonSchema;
  /** Validates a body against that schema; returns ajv's errors ([] when valid). */
  validate(path: string, status: number, body: unknown): ErrorObject[];
  /** Validates a body against one component, e.g. `Error`. */
  validateComponent(name: string, body: unknown): ErrorObject[];
}

/**
 * JSON Schema 2020-12 (OpenAPI 3.1's dialect) with formats. The document itself is added under
 * one `$id`: every schema is compiled as a `$ref` into it, so the `$ref`s to
 * `#/components/schemas/…` inside resolve against the same document, as they do in OpenAPI.
 */
export function createResponseValidator(doc: OpenApiDocument): ResponseValidator {
  const ajv = new Ajv2020({ strict: true, strictTypes: true, allErrors: true });
  addFormats(ajv);
  // OpenAPI's own schema keywords, and the two containers the pointers walk through.
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs', 'paths', 'components']);
  ajv.addSchema({ $id: BASE, paths: doc.paths, components: doc.components });

  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const run = (pointer: string[], body: unknown): ErrorObject[] => {
    const ref = `${BASE}#/${pointer.map(segment).join('/')}`;
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      compiled.set(ref, validate);
    }
    return validate(body) ? [] : [...(validate.errors ?? [])];
  };

  const schemaOf = (path: string, status: number): JsonSchema => {
    const operation = doc.paths[path]?.get;
    if (!operation) throw new Error(`${path} is not documented`);
    const response = operation.responses[String(status)];
    if (!response) throw new Error(`${path} does not document a ${status} answer`);
    const schema = response.content?.['application/json']?.schema;
    if (!schema) throw new Error(`${path} documents no JSON body for ${status}`);
    return schema;
  };

  return {
    schemaOf,
    validate(path, status, body) {
      schemaOf(path, status);
      return run(['paths', path, 'get', 'responses', String(status), 'content', 'application/json', 'schema'], body);
    },
    validateComponent(name, body) {
      if (!doc.components.schemas[name]) throw new Error(`no component ${name}`);
      return run(['components', 'schemas', name], body);
    },
  };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The days an example value names: a date itself, or every day of a `YYYY-MM` month (the close). */
function daysNamed(value: string): string[] {
  if (ISO_DATE.test(value)) return [value];
  if (!isYearMonth(value)) return [];
  const { first, last } = monthBounds(value);
  const days: string[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}

/** Every date any route's example names (e.g. `/exchange-rate?date=2025-01-15`, each day of `month=2025-01`). */
export function exampleDates(routes: readonly Route[]): string[] {
  const dates = routes.flatMap((route) => Object.values(route.example ?? {}).flatMap(daysNamed));
  return [...new Set(dates)].sort();
}

/**
 * A small series that makes every example answer 200: each example date, and the 40 days up to
 * today (the latest date, so windows of `days` ending there hold records and health is `ok`).
 */
export function exampleSeries(routes: readonly Route[], today = calendarDay(new Date())): RateInput[] {
  const dates = new Set(exampleDates(routes));
  for (let i = 0; i < 40; i++) dates.add(addDays(today, -i));
  return [...dates].sort().map((date, i) => {
    const buy = 500 + (i % 7) * 1.25;
    return rate(date, buy, buy + 6 + (i % 5) * 0.5);
  });
}

/** `?a=1&b=2` from a route's example parameters, overridden by `extra` (undefined removes one). */
export function exampleQuery(route: Route, extra: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...route.example, ...extra })) {
    if (value !== undefined) params.set(name, value);
  }
  const search = params.toString();
  return search ? `?${search}` : '';
}

/**
 * Everything the examples read: the official series above and, for the window (banking) routes,
 * a snapshot of one institution of every type on each of those days.
 */
export async function seedExamples(t: TestApp, today = calendarDay(new Date())): Promise<RateInput[]> {
  const rows = exampleSeries(t.app.routes, today);
  await t.seed(rows);
  const banking = createBankingStore(t.database.db);
  const institutions = INSTITUTION_TYPES.map((type, i) => ({ id: `inst-${type}`, name: `Institución ${i + 1}`, type, known: true }));
  for (const row of rows) {
    await banking.saveDay({
      date: row.date,
      source: 'bccr-site',
      fetchedAt: new Date(`${row.date}T18:00:00Z`),
      institutions,
      quotes: institutions.map((inst, i) => ({ institutionId: inst.id, buy: row.buy - i, sell: row.sell + i, updatedAt: new Date(`${row.date}T14:30:00Z`) })),
    });
  }
  // A MONEX session on every day of the series, so that each MONEX route's example answers too.
  await createMonexStore(t.database.db).writeSessions(
    rows.map((row) => ({
      date: row.date,
      session: true,
      average: row.sell - 1,
      min: row.sell - 2,
      max: row.sell,
      volume: 12.5,
      volumeUnit: 'Millones de dólares',
      source: 'BCCR',
      fetchedAt: new Date(`${row.date}T19:00:00Z`),
    })),
  );
  await t.changes.ratesChanged();
  return rows;
}
