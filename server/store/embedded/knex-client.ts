/**
 * knex's PGlite client, taking the session lock for as long as knex holds its one connection: a
 * single statement, or a whole transaction. knex already keeps this process's own units of work
 * apart (its pool has one connection); the lock also keeps out the clients of the shared socket.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import type { Release, SessionLock } from './session-lock';

/** How long this process waits for a socket client's transaction before failing a query (knex's own default). */
const DEFAULT_LOCK_TIMEOUT_MS = 60_000;

export function sessionLockedClient(lock: SessionLock, pglite: PGlite): typeof Knex.Client {
  const releases = new WeakMap<object, Release>();
  return class SessionLockedPgLite extends ClientPgLite {
    override async acquireConnection(): Promise<object> {
      const config = this.config as Knex.Config;
      const release = await lock.acquire(config.acquireConnectionTimeout ?? DEFAULT_LOCK_TIMEOUT_MS);
      try {
        const connection = (await super.acquireConnection()) as object;
        releases.set(connection, release);
        return connection;
      } catch (error) {
        release();
        throw error;
      }
    }

    /**
     * knex closes PGlite with the one connection it made; a database destroyed before its first
     * query made none, and would keep PGlite running and its folder claimed until the process ends.
     */
    override async destroy(callback?: (error?: unknown) => void): Promise<void> {
      await super.destroy(callback);
      if (!pglite.closed) await pglite.close();
    }

    override async releaseConnection(connection: object): Promise<void> {
      try {
        await super.releaseConnection(connection);
      } finally {
        releases.get(connection)?.();
        releases.delete(connection);
      }
    }
  };
}
