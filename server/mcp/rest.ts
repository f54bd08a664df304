/**
 * The stdio transport's executor: each tool call is a GET to the REST API with the key, and its
 * envelope becomes the outcome (the API validates, counts and answers; nothing is decided here).
 */
import { readEnvelope } from '../../shared/envelope';
import { API_PREFIX } from '../http/urls';
import { toSearchParams } from './arguments';
import { errorText, type Execute } from './outcome';

export const KEY_VARIABLE = 'CRC_RATES_API_KEY';
export const BASE_URL_VARIABLE = 'CRC_RATES_BASE_URL';

/** The API's URL from the server's root or from the API's own URL: `https://h` and `https://h/api/v1/` alike. */
export function apiUrlOf(baseUrl: string): string {
  const trimmed = baseUrl.trim().replace(/\/+$/, '');
  return trimmed.endsWith(API_PREFIX) ? trimmed : `${trimmed}${API_PREFIX}`;
}

export const MISSING_KEY = errorText('UNAUTHORIZED', `No API key: set ${KEY_VARIABLE} in the environment of this MCP server (a key starts with crc_live_)`);

/** Why a request did not get an answer: node's fetch hides the reason (ECONNREFUSED, …) in `cause`. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (typeof cause?.code === 'string') return cause.code;
  return typeof cause?.message === 'string' ? cause.message : error.message;
}

export interface RestOptions {
  apiUrl: string;
  /** Null when none is configured: every call then says so instead of asking the API. */
  apiKey: string | null;
  fetch?: typeof fetch;
}

export function restExecutor({ apiUrl, apiKey, fetch: fetchImpl = fetch }: RestOptions): Execute {
  return async (route, raw) => {
    if (!apiKey) return { ok: false, error: MISSING_KEY };
    const query = toSearchParams(raw).toString();
    const url = `${apiUrl}${route.path}${query ? `?${query}` : ''}`;
    let status: number;
    let body: string;
    try {
      const response = await fetchImpl(url, { headers: { 'x-api-key': apiKey, accept: 'application/json' } });
      status = response.status;
      body = await response.text();
    } catch (error) {
      return { ok: false, error: `Could not reach the API at ${apiUrl}: ${reasonOf(error)}` };
    }
    const reading = readEnvelope(status, body);
    if (reading.kind === 'data') return { ok: true, data: reading.data };
    if (reading.kind === 'error') return { ok: false, error: errorText(reading.error ?? `HTTP ${status}`, reading.message ?? 'no message') };
    return { ok: false, error: `HTTP ${status}: the answer of ${apiUrl} is not the API's (check ${BASE_URL_VARIABLE})` };
  };
}
