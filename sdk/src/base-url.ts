/** The path every route of the API lives under. */
export const API_PATH = '/api/v1';

const FORMS =
  'the API base, ending in /api/v1 (http://localhost:3000/api/v1, or https://example.com/rates/api/v1 behind a path prefix), ' +
  'or a bare origin (http://localhost:3000), to which /api/v1 is added';

function refuse(reason: string, input: string): never {
  throw new TypeError(`ExchangeRateClient: "baseUrl" must be ${FORMS}; ${reason} (got "${input}")`);
}

/**
 * The base the client sends to, from the `baseUrl` it was given (trailing slashes dropped):
 * - a path ending in /api/v1: as given;
 * - a bare origin (`http://localhost:3000`, what people copy from the address bar): /api/v1 added;
 * - any other path: refused here, with both forms named. Guessing would send every request to a
 *   wrong address and fail later as an unexplained 404 ("No route for GET /exchange-rate/latest").
 * A path alone (`/api/v1`) is kept for browsers calling their own origin.
 */
export function apiBaseUrl(input: unknown): string {
  if (typeof input !== 'string' || input.trim() === '') refuse('it is empty or not a string', String(input));
  const base = input.trim().replace(/\/+$/, '');
  if (base.startsWith('/') && !base.startsWith('//')) {
    if (base.endsWith(API_PATH)) return base;
    refuse('a path alone must end in /api/v1', input);
  }
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    refuse('it is not a URL', input);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') refuse(`${url.protocol} is not http: or https:`, input);
  if (url.search || url.hash) refuse('a query or fragment would end up in every request', input);
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '') return `${base}${API_PATH}`;
  if (path.endsWith(API_PATH)) return base;
  return refuse(`its path ${path} is neither`, input);
}
