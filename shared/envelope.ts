/**
 * Reading an answer of the API as its clients receive it (a status and a body text), for the SDK
 * and the Sheets add-on alike. The API wraps every answer in `{ "success": true, "data": … }` or
 * `{ "success": false, "message": "…", "error": "CODE" }` (the server's zod schemas of that shape
 * live in shared/schemas.ts; this reader cannot use them, since client bundles carry no zod).
 */
import { ERROR_CODES, type ErrorCode } from './errors';

/** What an answer turned out to be. */
export type EnvelopeReading =
  /** A success status with `{ success: true, data }`. */
  | { kind: 'data'; data: unknown }
  /**
   * An error status with `{ success: false, … }`. `error` is null when the code is not one this
   * build knows (a newer server), `message` when the envelope has none.
   */
  | { kind: 'error'; error: ErrorCode | null; message: string | null }
  /**
   * Not the API's envelope: a proxy's error page, a captive portal's HTML, or an envelope that
   * contradicts its status (success with an error status, failure with a success status).
   */
  | { kind: 'foreign' };

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // A body that is not JSON did not come from the API: the caller reports it by its status.
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

function isKnownCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && KNOWN_CODES.has(value);
}

export function readEnvelope(status: number, body: string): EnvelopeReading {
  const parsed = parseJson(body);
  if (!isObject(parsed)) return { kind: 'foreign' };
  const succeeded = status >= 200 && status < 300;
  if (succeeded) return parsed.success === true && 'data' in parsed ? { kind: 'data', data: parsed.data } : { kind: 'foreign' };
  if (parsed.success !== false) return { kind: 'foreign' };
  return {
    kind: 'error',
    error: isKnownCode(parsed.error) ? parsed.error : null,
    message: typeof parsed.message === 'string' ? parsed.message : null,
  };
}
