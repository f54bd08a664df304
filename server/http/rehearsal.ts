/**
 * The first answers of a fresh process run code that V8 has not compiled yet: the first client
 * after a restart waited some 20 ms, the next ones 3 to 5. Before the app listens, a few requests
 * go through it on a private loopback port (closed again at once), so that nobody pays for that.
 * Their log lines carry the request id `warm-up`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger';
import { KEY_PREFIX } from '../store/api-keys';

export const WARM_UP_REQUEST_ID = 'warm-up';

/**
 * A well-formed key that no one holds: the keyed path as far as the key lookup (a 401). Like any
 * request without a valid key, it counts once against the loopback address's per-minute limit.
 */
const NOBODYS_KEY = `${KEY_PREFIX}${'0'.repeat(43)}`;

/** GETs each path once, in turn; a failure is logged, never thrown: the rehearsal only warms up. */
export async function rehearse(callback: http.RequestListener, paths: readonly string[], logger: Logger): Promise<void> {
  const server = http.createServer(callback);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    for (const path of paths) {
      try {
        const response = await fetch(`${origin}${path}`, { headers: { 'x-request-id': WARM_UP_REQUEST_ID, 'x-api-key': NOBODYS_KEY } });
        await response.arrayBuffer();
      } catch (error) {
        logger.debug({ err: error, path }, 'warm-up request failed');
      }
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
