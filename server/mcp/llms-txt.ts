/**
 * /llms.txt: the API described for language models, in the llms.txt convention (a title, a
 * one-paragraph summary, then sections of markdown lists). Generated from the route list, like the
 * OpenAPI document and the Postman collection: each route with its summary, its parameters (in the
 * words of the 400 message) and an example address; the limits come from shared/. It lives with
 * the MCP server, the other way language models reach the API, which it describes too.
 */
import { WEBHOOK_OPERATIONS } from '../http/routes/webhook-operations';
import { z } from 'zod';
import { LIMITS } from '../../shared/limits';
import { PLAN_IDS, PLANS } from '../../shared/plans';
import { expectationOf, isRequired } from '../http/params';
import type { Route } from '../http/route';
import { SANITY_BOUNDS } from '../sources/sanity';
import { MCP_PATH } from './http';
import { BASE_URL_VARIABLE, KEY_VARIABLE } from './rest';
import { TOOLS } from './tools';

export interface LlmsTxtOptions {
  /** Where clients reach the service, without a trailing slash. */
  publicUrl: string;
  /** Where the API lives under it (`/api/v1`). */
  apiPrefix: string;
}

/** The address of a route with its example parameters, as a client would send it. */
function exampleUrl(route: Route, base: string): string {
  const query = Object.entries(route.example ?? {}).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return `${base}${route.path}${query.length ? `?${query.join('&')}` : ''}`;
}

/** The description a parameter's schema carries (set on the inner schema, read through `.optional()`). */
function descriptionOf(schema: z.ZodType): string | undefined {
  const { description } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' });
  return typeof description === 'string' ? description : undefined;
}

/** `required`, `optional` or `optional, default x`: what leaving the parameter out does. */
function presence(schema: z.ZodType): string {
  if (isRequired(schema)) return 'required';
  const { data } = schema.safeParse(undefined);
  return data === undefined ? 'optional' : `optional, default \`${String(data)}\``;
}

function parameterLine(name: string, schema: z.ZodType): string {
  const expectation = expectationOf(schema);
  const description = descriptionOf(schema);
  return `  - \`${name}\` (${presence(schema)})${expectation ? `: must be ${expectation}.` : ':'}${description ? ` ${description}` : ''}`;
}

function routeLines(route: Route, base: string): string[] {
  const notes = [
    route.access === 'public' ? 'Public, no key.' : 'Needs a key.',
    route.description,
    route.notFound ? `404: ${route.notFound}` : undefined,
  ].filter((note): note is string => Boolean(note));
  const parameters = Object.entries(route.query);
  return [
    `- \`GET ${route.path}\`: ${route.summary}. ${notes.join(' ')}`,
    ...(parameters.length ? parameters.map(([name, schema]) => parameterLine(name, schema)) : ['  - No parameters.']),
    `  - Example: ${exampleUrl(route, base)}`,
  ];
}

/** `/a`, `/b` and `/c`. */
function paths(routes: readonly Route[]): string {
  const quoted = routes.map((r) => `\`${r.path}\``);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}` : (quoted[0] ?? '');
}
const count = (n: number) => n.toLocaleString('en-US');

function planLine(id: (typeof PLAN_IDS)[number], siteUrl: string): string {
  const plan = PLANS[id];
  const request = `request it at ${siteUrl}/en?plan=${id}#request`;
  if (plan.priceUsdPerMonth === null) {
    return `- ${plan.label}: limits of your own, monthly and per minute (from ${count(plan.monthlyQuota)} requests per month and ${count(plan.ratePerMinute)} per minute), priced to them; ${request}.`;
  }
  return `- ${plan.label}: ${count(plan.monthlyQuota)} requests per month and ${count(plan.ratePerMinute)} per minute, US$${plan.priceUsdPerMonth.toFixed(2)} per month; ${request}.`;
}

/** One line per representation besides JSON (`format=html`, `format=csv` …): which routes have it. */
function formatLines(routes: readonly Route[]): string[] {
  const names = [...new Set(routes.flatMap((r) => Object.keys(r.formats)))].sort();
  return names.map((name) => {
    const having = routes.filter((r) => r.formats[name]);
    const formats = having.flatMap((r) => r.formats[name] ?? []);
    const types = [...new Set(formats.map((f) => `\`${f.type.split(';')[0]}\``))].join(' or ');
    // Each route words its own; one shared wording is worth repeating here, several are in the parameters above.
    const descriptions = [...new Set(formats.map((f) => f.description))];
    const what = descriptions.length === 1 ? `: ${descriptions[0]}` : '';
    return `- \`format=${name}\` (${types}) on ${paths(having)}${what}; the same parameters, key, limits and ETag as the JSON answer.`;
  });
}

export function createLlmsTxt(routes: readonly Route[], { publicUrl, apiPrefix }: LlmsTxtOptions): string {
  const base = `${publicUrl}${apiPrefix}`;
  const publicRoutes = routes.filter((r) => r.access === 'public');
  const unlimited = routes.filter((r) => !r.rateLimit);
  const free = routes.filter((r) => r.access === 'key' && !r.quota);
  const tags = [...new Set(routes.map((r) => r.tag))];
  const since = SANITY_BOUNDS.firstDate.slice(0, 4);

  return [
    '# crc-rates API',
    '',
    `> The official USD/CRC exchange rate of the Banco Central de Costa Rica (BCCR) as a REST API: the central bank's buy and sell reference rates for every calendar day since ${since}, in colones (CRC) per US dollar, with history, ranges, conversion, analytics, period statistics, charts, the figures to close a month with, each day's provenance and revisions, the window (ventanilla) rates of banks and exchange houses with a best-rate ranking, and a plain-language market summary in Spanish or English.`,
    '',
    `Every route is \`GET\` under the base URL, with its parameters in the query string. Answers are JSON envelopes: \`{ "success": true, "data": … }\`, or \`{ "success": false, "message": "…", "error": "CODE" }\` where a 400's message names the parameter and what it must be. Dates are \`YYYY-MM-DD\`; "today" is the calendar day in Costa Rica (America/Costa_Rica); a window of \`days\` ends at the latest date, inclusive.`,
    '',
    '## Base URL and authentication',
    '',
    `- Base URL: ${base} (every path below is relative to it).`,
    `- Authentication: send your key in the \`x-api-key\` header (keys start with \`crc_live_\`), e.g. \`curl -H "x-api-key: crc_live_…" "${base}/exchange-rate/latest"\`. Public routes need no key: ${paths(publicRoutes)}.`,
    `- Getting a key: ask for one with the request-access form at ${publicUrl}/en#request (or \`POST ${publicUrl}/request-access\` with \`name\`, \`email\` and \`plan\`, one of ${PLAN_IDS.join(', ')}, plus optional \`company\` and \`message\`, as JSON or form data); the key is sent to you and shown only once. On a server of your own: \`npm run keys -- create --name NAME --plan pro\`.`,
    '',
    '## Limits',
    '',
    `- Per minute: ${count(LIMITS.rateLimit.perMinute)} requests per ${LIMITS.rateLimit.windowSeconds} s per key (per client IP without a key) on every route under ${apiPrefix}${unlimited.length ? `, except ${paths(unlimited)}` : ''}. Over it: 429 \`RATE_LIMITED\` with \`Retry-After\` (seconds).`,
    `- Monthly quota per key, by plan, reset at 00:00 UTC on the first day of each month: only 200 answers of keyed routes count${free.length ? ` (${paths(free)} never does)` : ''}. Used up: 429 \`QUOTA_EXCEEDED\` with \`Retry-After\`.`,
    ...PLAN_IDS.map((id) => planLine(id, publicUrl)),
    '- Headers: `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` on every answer; `X-Quota-Limit`, `X-Quota-Remaining` and `X-Quota-Reset` on keyed ones.',
    '- Caching: answers carry a strong `ETag`; send it back in `If-None-Match` to get a 304, which is not counted against the quota.',
    ...tags.flatMap((tag) => ['', `## ${tag}`, '', ...routes.filter((r) => r.tag === tag).flatMap((r) => routeLines(r, base))]),
    '',
    '## Webhooks',
    '',
    ...WEBHOOK_OPERATIONS.map((op) => `- \`${op.method.toUpperCase()} ${op.path}\`: ${op.summary}. ${op.description}`),
    '- Deliveries: a signed POST of `{ id, type, createdAt, data }` with `Webhook-Id`, `Webhook-Timestamp` and `Webhook-Signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` (Standard Webhooks; the key is the base64 after `whsec_`), retried for about a day; these routes count against the per-minute limit, not the quota.',
    '',
    '## Documents, formats and AI clients',
    '',
    `- [OpenAPI 3.1 document](${base}/openapi.json): every route, parameter, answer schema and error, machine-readable.`,
    `- [Postman collection](${base}/postman.json): one request per route, variables \`{{baseUrl}}\` and \`{{apiKey}}\` (and \`{{webhookUrl}}\`, your receiver, for the webhook requests); runs with Newman.`,
    `- [API reference](${publicUrl}/docs): the OpenAPI document in Swagger UI.`,
    ...formatLines(routes),
    `- MCP (Model Context Protocol): \`POST ${base}${MCP_PATH}\` (Streamable HTTP, the key in \`x-api-key\`; every tool call counts as one request, alone or in a batch of at most ${LIMITS.mcp.batch} messages), or \`npm run mcp\` in a checkout of the project (stdio; reads \`${KEY_VARIABLE}\` and \`${BASE_URL_VARIABLE}\` and calls this REST API). Tools: ${TOOLS.map((tool) => `\`${tool.name}\` (\`${tool.path}\`)`).join(', ')}.`,
    '',
  ].join('\n');
}
