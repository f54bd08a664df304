/**
 * The OpenAPI 3.1 document, generated from the route list: the same schemas that validate the
 * parameters describe them here, and the response shapes come from shared/schemas. A route added
 * to the list is documented by construction.
 */
import { z } from 'zod';
import type { ErrorCode } from '../../shared/errors';
import { API_KEY_CHALLENGE } from '../access/access';
import { LIMITS } from '../../shared/limits';
import * as sharedSchemas from '../../shared/schemas';
import { isRequired } from './params';
import type { Route } from './route';
import { WEBHOOK_OPERATIONS } from './routes/webhook-operations';

type Json = Record<string, unknown>;

/** Which routes offer `format=csv`, read from the route list (each one's 200 also lists `text/csv`). */
function csvRoutesSentence(routes: readonly Route[]): string {
  const paths = routes.filter((route) => route.formats.csv).map((route) => `\`${route.path}\``);
  if (paths.length === 0) return 'No route offers `format=csv`.';
  return `\`format=csv\` is offered on ${paths.join(', ')}; every other route answers JSON alone, and \`format\` other than \`json\` there is a 400 that lists the accepted values.`;
}

/** The document's description, with the routes that offer CSV read from the route list. */
function description(routes: readonly Route[]): string {
  return `The official USD/CRC exchange rate of the Banco Central de Costa Rica (BCCR): every calendar day since 1983, buy (indicator 317) and sell (318), in colones per US dollar.

**Envelope.** Every answer is \`{ "success": true, "data": … }\` or \`{ "success": false, "message": "…", "error": "CODE" }\`; the message names the parameter at fault.

**Dates** are \`YYYY-MM-DD\` calendar days; "today" is the day in America/Costa_Rica. A window of \`days\` is the \`days\` calendar days ending at the latest date, inclusive.

**Rounding.** Money results are rounded to 2 decimals and derived statistics to 4, half away from zero, computed in decimal arithmetic.

**Definitions.** Volatility is the sample standard deviation (n − 1) of the percentage changes between consecutive records. \`slopePerDay\` is the ordinary least squares slope against calendar days. The trend is up or down by the slope's sign when |slope × days spanned| ≥ 0.1 % of the average, else stable. Charts are downsampled with Largest-Triangle-Three-Buckets on the sell rate, keeping the first and last records.

**CSV.** ${csvRoutesSentence(routes)} The routes that offer \`format=csv\` also answer CSV to \`Accept: text/csv\` when \`format\` is left out (an explicit \`format\` wins), and then say \`Vary: Accept\`; \`locale=es\` writes \`;\` between fields and a decimal comma. Errors stay JSON envelopes. A CSV request may carry its key as \`key=\` in the query string, for spreadsheet functions such as IMPORTDATA that cannot send headers; a JSON request with \`key=\` is a 400.

**Key.** Send it in the \`x-api-key\` header or as \`Authorization: Bearer crc_live_…\`; when both are sent, \`x-api-key\` wins and Authorization is not read. An Authorization header that is not \`Bearer <key>\` is a 401, and every 401 carries \`WWW-Authenticate: ${API_KEY_CHALLENGE}\`.

**Limits.** ${LIMITS.rateLimit.perMinute} requests per minute per key (per IP without one), and a monthly quota per key (Pro: 5,000), reset at 00:00 UTC on the first day of each month. Answers carry \`X-RateLimit-*\` and, with a key, \`X-Quota-*\`. Answers carry a strong \`ETag\`; send it in \`If-None-Match\` for a 304, which is not counted against the quota.

**MCP.** \`POST /mcp\` is the Model Context Protocol server (JSON-RPC over Streamable HTTP, so not among the paths below). Every tool call is one request, alone or in a batch: one of the per-minute limit, and one unit of the quota when answered with data; a call refused by either is a tool error carrying \`RATE_LIMITED\` or \`QUOTA_EXCEEDED\`. A POST without a tool call is one request. A batch holds at most ${LIMITS.mcp.batch} messages (else 400), and at most ${LIMITS.mcp.inFlightPerKey} POSTs of one key are handled at a time (else 429 with \`Retry-After: 1\`), so an answer is at most ${LIMITS.mcp.answerMb} MB.`;
}

const ERROR_TEXT: Record<ErrorCode, string> = {
  BAD_REQUEST: 'A parameter is missing, malformed or out of range; the message names it.',
  UNAUTHORIZED: 'The key (x-api-key, or Authorization: Bearer) is missing, malformed, unknown or revoked; WWW-Authenticate names both ways to send it.',
  NOT_FOUND: 'No data for the request.',
  METHOD_NOT_ALLOWED: 'The data routes take GET, HEAD and OPTIONS; the MCP endpoint takes POST; the webhook routes take the methods listed for them.',
  PAYLOAD_TOO_LARGE: 'The request body is over the limit (only the MCP endpoint, POST /webhooks and the site form take a body).',
  RATE_LIMITED: 'Over the per-minute limit; Retry-After says when to try again.',
  QUOTA_EXCEEDED: 'The monthly quota of the key is used up; Retry-After says when it resets.',
  INTERNAL_ERROR: 'Something unexpected; the message never carries details.',
  SERVICE_UNAVAILABLE: 'The database does not answer (within about a second); try again shortly.',
};

const ERROR_EXAMPLES: Record<ErrorCode, string> = {
  BAD_REQUEST: 'Parameter "days" must be an integer from 1 to 365 (got "abc")',
  UNAUTHORIZED: 'An API key is required: send it in the x-api-key header',
  NOT_FOUND: 'No exchange rate for 1982-12-31: the series starts on 1983-01-01',
  METHOD_NOT_ALLOWED: 'Method POST is not allowed on /api/v1/exchange-rate/latest; allowed: HEAD, GET',
  PAYLOAD_TOO_LARGE: 'The body must be at most 16 KB',
  RATE_LIMITED: 'Rate limit of 60 requests per minute exceeded; retry in 12 s',
  QUOTA_EXCEEDED: 'Monthly quota of 5000 requests used up; it resets at 2025-02-01T00:00:00.000Z',
  INTERNAL_ERROR: 'Internal server error',
  SERVICE_UNAVAILABLE: 'Database unreachable',
};

const header = (description: string, schema: Json = { type: 'integer' }) => ({ description, schema });

const RATE_HEADERS = {
  'X-RateLimit-Limit': header('Requests allowed per minute.'),
  'X-RateLimit-Remaining': header('Requests left in this minute, after this one.'),
  'X-RateLimit-Reset': header('Whole seconds until the minute resets.'),
};
const QUOTA_HEADERS = {
  'X-Quota-Limit': header('Requests allowed this month.'),
  'X-Quota-Remaining': header('Requests left this month.'),
  'X-Quota-Reset': header('When the monthly count resets.', { type: 'string', format: 'date-time' }),
};

/** The key in the query string (`key=`): only for the representations that take it (CSV), see `security`. */
const KEY_IN_QUERY_SCHEME = {
  type: 'apiKey',
  in: 'query',
  name: 'key',
  description:
    'Your key as `key=` in the query string, taken only on CSV answers (format=csv, or Accept: text/csv) for spreadsheets that cannot send headers; a JSON request with key= is a 400. A key in a URL can end up in a sheet’s version history, shared copies and proxy logs: use a separate key for spreadsheets.',
};

/** The key as a bearer token, the alternative to the header on every keyed route. */
const BEARER_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  description: 'The same key as `Authorization: Bearer crc_live_…`. When `x-api-key` is sent too, it wins and Authorization is not read.',
};

/** The header or the bearer token: either one (the document-wide requirement). */
const KEY_SECURITY = [{ apiKey: [] }, { bearer: [] }];

/** What every 401 says (RFC 9110 11.6.1): both ways to send the key. */
const WWW_AUTHENTICATE = {
  'WWW-Authenticate': header(`The ways to send the key: \`${API_KEY_CHALLENGE}\`.`, { type: 'string' }),
};

/** Who may call the route: nobody needs a key on a public one; CSV answers also take it in the query string. */
function security(route: Route): Json {
  if (route.access === 'public') return { security: [] };
  if (Object.values(route.formats).some((f) => f.keyInQuery)) return { security: [...KEY_SECURITY, { apiKeyInQuery: [] }] };
  // No override: the document-wide requirement (either header) applies.
  return {};
}

/** Stable, readable operation ids: `/exchange-rate/history` → `getExchangeRateHistory`. */
export function operationId(route: Route): string {
  return `get${route.path
    .replace(/\.json$/, '')
    .split(/[/-]/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join('')}`;
}

/** `getExchangeRateHistory` → `ExchangeRateHistoryResponse`: the component of its 200 body. */
export function responseId(route: Route): string {
  return `${operationId(route).slice(3)}Response`;
}

function jsonSchema(schema: z.ZodType): Json {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Json;
  return rest;
}

/** The OpenAPI parameter objects of a route (the MCP tools take their input schemas from them too). */
export function parameters(route: Route): Json[] {
  return Object.entries(route.query).map(([name, schema]) => {
    const described = jsonSchema(schema);
    const { description, ...rest } = described;
    return {
      name,
      in: 'query',
      required: isRequired(schema),
      description,
      schema: rest,
      ...(route.example?.[name] !== undefined ? { example: route.example[name] } : {}),
    };
  });
}

function errorResponse(codes: ErrorCode[], extraHeaders: Json): Json {
  return {
    description: codes.map((c) => `${c}: ${ERROR_TEXT[c]}`).join(' '),
    headers: extraHeaders,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/Error' },
        examples: Object.fromEntries(codes.map((c) => [c, { value: { success: false, message: ERROR_EXAMPLES[c], error: c } }])),
      },
    },
  };
}

function responses(route: Route): Json {
  const keyed = route.access === 'key';
  // Every keyed answer, refusals included, says where the key stands once the key is known.
  const headers = { ...RATE_HEADERS, ...(keyed ? QUOTA_HEADERS : {}) };
  const out: Record<string, Json> = {
    200: {
      description: route.raw ? 'The document itself (no envelope).' : 'Success.',
      headers: { ...headers, ETag: header('Strong validator of the body.', { type: 'string' }), 'Cache-Control': header('Caching rules.', { type: 'string' }) },
      content: {
        'application/json': { schema: { $ref: `#/components/schemas/${responseId(route)}` } },
        // The other representations (`format`), by media type: the same facts, as text.
        ...Object.fromEntries(
          Object.entries(route.formats).map(([name, f]) => [
            f.type.split(';')[0],
            { schema: { type: 'string', description: `format=${name}: ${f.description}` } },
          ]),
        ),
      },
    },
  };
  // Every 200 carries an ETag and every route honours If-None-Match (cached or not).
  out[304] = { description: 'Not modified: the If-None-Match ETag still matches.', headers };
  if (Object.keys(route.query).length > 0) out[400] = errorResponse(['BAD_REQUEST'], headers);
  // Without a known key there is nothing to say about a quota.
  if (keyed) out[401] = errorResponse(['UNAUTHORIZED'], { ...RATE_HEADERS, ...WWW_AUTHENTICATE });
  if (route.notFound) out[404] = { ...errorResponse(['NOT_FOUND'], headers), description: `NOT_FOUND: ${route.notFound}` };
  out[405] = errorResponse(['METHOD_NOT_ALLOWED'], {});
  const retryAfter = { 'Retry-After': header('Whole seconds to wait (at least 1).') };
  if (route.rateLimit && keyed && route.quota) {
    // The per-minute limit is checked before the quota: its 429 carries no quota headers.
    out[429] = errorResponse(['RATE_LIMITED', 'QUOTA_EXCEEDED'], {
      ...RATE_HEADERS,
      ...retryAfter,
      ...Object.fromEntries(Object.entries(QUOTA_HEADERS).map(([name, h]) => [name, { ...h, description: `${h.description} Sent with QUOTA_EXCEEDED.` }])),
    });
  } else if (route.rateLimit) {
    out[429] = errorResponse(['RATE_LIMITED'], { ...RATE_HEADERS, ...retryAfter });
  }
  out[500] = errorResponse(['INTERNAL_ERROR'], {});
  // Only the documents are built without the database: a keyed route looks its key up, the rest read data.
  if (!route.raw) out[503] = errorResponse(['SERVICE_UNAVAILABLE'], {});
  return out;
}

/**
 * The webhook routes' path items, from their list (routes/webhook-operations.ts): keyed, counted
 * against the per-minute limit but not the quota, never cached, so no ETag, 304 or quota headers.
 */
function webhookPaths(): Record<string, Record<string, Json>> {
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of WEBHOOK_OPERATIONS) {
    const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
    const success: Json = op.response
      ? {
          description: 'Success.',
          headers: RATE_HEADERS,
          content: { 'application/json': { schema: jsonSchema(z.object({ success: z.literal(true), data: op.response })) } },
        }
      : { description: 'Done: no body.', headers: RATE_HEADERS };
    const responses: Record<string, Json> = { [op.status]: success };
    if (op.body || names.length > 0) responses[400] = errorResponse(['BAD_REQUEST'], RATE_HEADERS);
    responses[401] = errorResponse(['UNAUTHORIZED'], { ...RATE_HEADERS, ...WWW_AUTHENTICATE });
    if (op.notFound) responses[404] = { ...errorResponse(['NOT_FOUND'], RATE_HEADERS), description: `NOT_FOUND: ${op.notFound}` };
    responses[429] = errorResponse(['RATE_LIMITED'], { ...RATE_HEADERS, 'Retry-After': header('Whole seconds to wait (at least 1).') });
    responses[500] = errorResponse(['INTERNAL_ERROR'], {});
    responses[503] = errorResponse(['SERVICE_UNAVAILABLE'], {});
    const operationId = `${op.method}${op.path
      .split(/[/-]/)
      .filter((w) => w && !w.startsWith('{'))
      .map((w) => w[0]?.toUpperCase() + w.slice(1))
      .join('')}`;
    paths[op.path] = {
      ...paths[op.path],
      [op.method]: {
        operationId: op.id === 'remove' ? 'deleteWebhook' : op.id === 'create' ? 'createWebhook' : operationId,
        tags: ['Webhooks'],
        summary: op.summary,
        description: op.description,
        parameters: names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
        ...(op.body
          ? {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: jsonSchema(op.body), ...(op.example ? { example: op.example } : {}) } },
              },
            }
          : {}),
        responses,
      },
    };
  }
  return paths;
}

/** Builds the document once per origin: it depends on nothing else. */
export function createOpenApiDocument(routes: readonly Route[], version: string, publicUrl: string): Json {
  const responseSchemas = new Map<string, z.ZodType>();
  for (const route of routes) {
    responseSchemas.set(responseId(route), route.raw ? route.response : z.object({ success: z.literal(true), data: route.response }));
  }
  // One registry with the shared shapes (ExchangeRate, Error, …) and each route's envelope, so
  // that every nested shape becomes a $ref to its own component.
  const registry = z.registry<{ id: string }>();
  for (const schema of Object.values(sharedSchemas)) {
    const id = schema instanceof z.ZodType ? z.globalRegistry.get(schema)?.id : undefined;
    if (id) registry.add(schema as z.ZodType, { id });
  }
  for (const [id, schema] of responseSchemas) registry.add(schema, { id });
  const { schemas: components } = z.toJSONSchema(registry, { io: 'output', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` });
  const strip = (all: Record<string, Json>) => Object.fromEntries(Object.entries(all).map(([id, { $schema: _s, $id: _i, ...rest }]) => [id, rest]));

  return {
    openapi: '3.1.0',
    info: {
      title: 'crc-rates API',
      version,
      summary: 'The official USD/CRC exchange rate of Costa Rica’s central bank.',
      description: description(routes),
    },
    servers: [{ url: `${publicUrl}/api/v1` }],
    security: KEY_SECURITY,
    tags: [...new Set([...routes.map((r) => r.tag), 'Webhooks'])].map((name) => ({ name })),
    paths: {
      ...Object.fromEntries(
        routes.map((route) => {
          const id = operationId(route);
          return [
            route.path,
            {
              get: {
                operationId: id,
                tags: [route.tag],
                summary: route.summary,
                ...(route.description ? { description: route.description } : {}),
                ...security(route),
                parameters: parameters(route),
                responses: responses(route),
              },
            },
          ];
        }),
      ),
      ...webhookPaths(),
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Your key, crc_live_…' },
        bearer: BEARER_SCHEME,
        apiKeyInQuery: KEY_IN_QUERY_SCHEME,
      },
      schemas: strip(components as Record<string, Json>),
    },
  };
}
