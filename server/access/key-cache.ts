/**
 * Key lookups kept in memory, so a keyed request costs no database round trip just to learn who is
 * calling. A lookup older than the time limit is answered at once and refreshed in the background;
 * if the refresh fails (the database is down or hung), the key stays what it was: a key known
 * before an outage is never taken for an unknown one because of it. Entries are dropped at once
 * when keys change anywhere (a revoke announces it through the change feed); the time limit
 * bounds the wait if a notice is missed.
 */
import { hash } from 'node:crypto';
import type { Logger } from '../logger';
import type { ApiKeysStore, KeyLookup } from '../store/api-keys';

export const KEY_CACHE_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  found: KeyLookup;
  expiresAt: number;
  /** The background refresh under way, if any: one per key at a time. */
  refreshing: Promise<void> | null;
}

export function createKeyCache(keys: ApiKeysStore, logger: Logger, now: () => number = Date.now) {
  // Keyed by a hash of the key, so no raw key is kept around longer than its request.
  const entries = new Map<string, Entry>();
  // First lookups of the same key share one query.
  const pending = new Map<string, Promise<KeyLookup>>();

  const keep = (id: string, found: KeyLookup) => {
    if (!entries.has(id) && entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value ?? '');
    entries.set(id, { found, expiresAt: now() + KEY_CACHE_TTL_MS, refreshing: null });
  };

  const firstLookup = (key: string, id: string): Promise<KeyLookup> => {
    let lookup = pending.get(id);
    if (!lookup) {
      lookup = keys
        .lookup(key)
        .then((found) => {
          keep(id, found);
          return found;
        })
        .finally(() => pending.delete(id));
      pending.set(id, lookup);
    }
    return lookup;
  };

  const refresh = (key: string, id: string, entry: Entry) => {
    entry.refreshing = keys.lookup(key).then(
      (found) => keep(id, found),
      (error: unknown) => {
        // Keep answering with what was known; the next request after the limit tries again.
        logger.warn({ err: error }, 'key lookup failed; answering with the last known state of the key');
        entry.expiresAt = now() + KEY_CACHE_TTL_MS / 10;
        entry.refreshing = null;
      },
    );
  };

  return {
    /** What is known of the key: from memory when it was ever looked up, else from the database. */
    async lookup(key: string): Promise<KeyLookup> {
      const id = hash('sha256', key, 'base64url');
      const entry = entries.get(id);
      if (!entry) return firstLookup(key, id);
      if (entry.expiresAt <= now() && !entry.refreshing) refresh(key, id, entry);
      return entry.found;
    },
    clear(): void {
      entries.clear();
    },
  };
}
