/**
 * Writes the SDK's request parameter types from the server's routes: per path, each query
 * parameter with its TypeScript type (literal unions for enumerations, `DateInput` for days),
 * whether it may be left out, and its description, bounds and default as JSDoc. Everything is
 * read from the route's query shape (the data's parameters: the SDK reads JSON, so `format` and
 * what other formats add are left out), through the JSON Schema zod derives from it (the same one the
 * OpenAPI document shows), so the SDK cannot say something the server does not check.
 */
import { z } from 'zod';
import { FLAG_VALUES, isRequired } from '../../../server/http/params';
import type { Route } from '../../../server/http/route';

/** The generated file's path, from the repository root. */
export const PARAMS_FILE = 'sdk/src/params.generated.ts';

/** How to regenerate it, quoted in its header and in the drift test's name. */
export const GENERATE_COMMAND = 'node --import tsx sdk/scripts/generate-params.ts';

interface JsonSchema {
  type?: string;
  format?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  description?: string;
}

interface Param {
  name: string;
  type: string;
  optional: boolean;
  doc: string[];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function key(name: string): string {
  return IDENTIFIER.test(name) ? name : quote(name);
}

function jsonSchema(schema: z.ZodType): JsonSchema {
  // `output`, as the OpenAPI document does: that is where defaults appear.
  return z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
}

/**
 * A string parameter that takes only numerals (the amount to convert) also takes a number:
 * `String(n)` is a numeral the server reads back exactly. Decided by asking the schema itself.
 */
function takesNumerals(schema: z.ZodType): boolean {
  return ['1', '0.5', '1e3'].every((n) => schema.safeParse(n).success) && !schema.safeParse('one').success;
}

function bounds({ minimum, maximum }: JsonSchema): string | null {
  if (minimum !== undefined && maximum !== undefined) return `from ${minimum} to ${maximum}`;
  if (minimum !== undefined) return `at least ${minimum}`;
  if (maximum !== undefined) return `at most ${maximum}`;
  return null;
}

/** The parameter's TypeScript type and the sentence that says what values it takes. */
function typeOf(where: string, schema: z.ZodType, json: JsonSchema): { type: string; rule: string | null } {
  // A yes-or-no parameter (`inverse`): `String(true)` is the `true` the server reads.
  if (json.enum && json.enum.length === FLAG_VALUES.length && FLAG_VALUES.every((v) => json.enum?.includes(v))) {
    return { type: 'boolean', rule: null };
  }
  if (json.enum) {
    const values = json.enum.map((v) => {
      if (typeof v !== 'string') throw new Error(`${where}: only string enumerations are supported (got ${JSON.stringify(v)})`);
      return v;
    });
    return { type: values.map(quote).join(' | '), rule: null };
  }
  if (json.type === 'integer' || json.type === 'number') {
    const range = bounds(json);
    const kind = json.type === 'integer' ? 'An integer' : 'A number';
    return { type: 'number', rule: range ? `${kind} ${range}.` : null };
  }
  if (json.type === 'string' && json.format === 'date') {
    return { type: 'DateInput', rule: 'A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).' };
  }
  if (json.type === 'string' && takesNumerals(schema)) {
    return { type: 'number | string', rule: 'A number, or a numeral string sent exactly as written.' };
  }
  if (json.type === 'string') return { type: 'string', rule: null };
  // Typing it `unknown` would hide a parameter the SDK cannot describe: teach this file instead.
  throw new Error(`${where}: no TypeScript type for the JSON Schema ${JSON.stringify(json)}`);
}

function describeDefault(value: unknown): string {
  return typeof value === 'string' ? `\`${value}\`` : JSON.stringify(value);
}

/** "An integer from 1 to 365; default 30.", "Default `sell`." or the rule alone (rules end with a period). */
function valuesSentence(rule: string | null, json: JsonSchema): string | null {
  if (json.default === undefined) return rule;
  const byDefault = describeDefault(json.default);
  return rule ? `${rule.slice(0, -1)}; default ${byDefault}.` : `Default ${byDefault}.`;
}

function paramOf(route: Route, name: string, schema: z.ZodType): Param {
  const json = jsonSchema(schema);
  const { type, rule } = typeOf(`${route.path} "${name}"`, schema, json);
  const doc = [json.description, valuesSentence(rule, json)].filter((line): line is string => Boolean(line));
  return { name, type, optional: !isRequired(schema), doc };
}

/** A JSDoc block; `*\/` inside the text would end the comment early. */
function comment(lines: readonly string[], indent: string): string {
  const safe = lines.flatMap((line) => line.split('\n')).map((line) => line.replace(/\*\//g, '*\\/'));
  if (safe.length === 0) return '';
  if (safe.length === 1) return `${indent}/** ${safe[0]} */\n`;
  return `${indent}/**\n${safe.map((line) => `${indent} * ${line}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

function routeType(route: Route): string {
  const params = Object.entries(route.dataQuery).map(([name, schema]) => paramOf(route, name, schema));
  const doc = comment([`${route.summary} (\`GET ${route.path}\`).`, ...(route.description ? ['', route.description] : [])], '  ');
  if (params.length === 0) return `${doc}  ${quote(route.path)}: Record<string, never>;`;
  const members = params.map((p) => `${comment(p.doc, '    ')}    ${key(p.name)}${p.optional ? '?' : ''}: ${p.type};`);
  return `${doc}  ${quote(route.path)}: {\n${members.join('\n')}\n  };`;
}

function namesEntry(route: Route): string {
  return `  ${quote(route.path)}: [${Object.keys(route.dataQuery).map(quote).join(', ')}],`;
}

/** The whole file, for these routes in their order. */
export function renderParams(routes: readonly Route[]): string {
  const seen = new Set<string>();
  for (const route of routes) {
    if (seen.has(route.path)) throw new Error(`Two routes share the path ${route.path}`);
    seen.add(route.path);
  }
  return [
    `// Generated from the server's route list (server/http/routes) by sdk/scripts/generate-params.ts.`,
    `// Do not edit: run \`${GENERATE_COMMAND}\` from the repository root.`,
    '// test/sdk/params.test.ts fails whenever this file and the routes disagree.',
    '',
    "import type { DateInput } from './dates';",
    '',
    '/** The query parameters of each route, by path. */',
    'export interface RouteParams {',
    routes.map(routeType).join('\n'),
    '}',
    '',
    '/** Paths of the routes the SDK can call. */',
    'export type RoutePath = keyof RouteParams;',
    '',
    "/** The parameter names of each route, in the server's order: the client sends these and no others. */",
    'export const QUERY_NAMES = {',
    routes.map(namesEntry).join('\n'),
    '} as const satisfies { readonly [P in RoutePath]: readonly (keyof RouteParams[P])[] };',
    '',
  ].join('\n');
}
