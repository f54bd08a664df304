/**
 * Key lookups kept in memory for a short while, so a keyed request costs no database round trip
 * just to learn who is calling. Entries are dropped at once when keys change anywhere (a revoke
 * announces it through the change feed); the time limit bounds the wait if a notice is missed.
 */
import { hash } from 'node:crypto';
import type { ApiKeysStore, KeyLookup } from '../store/api-keys';

export const KEY_CACHE_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

export function createKeyCache(keys: ApiKeysStore, now: () => number = Date.now) {
  // Keyed by a hash of the key, so no raw key is kept around longer than its request.
  const entries = new Map<string, { found: KeyLookup; expiresAt: number }>();
  const fresh = (id: string) => {
    const hit = entries.get(id);
    return hit && hit.expiresAt > now() ? hit.found : undefined;
  };
  const fetchAndKeep = async (key: string, id: string) => {
    const found = await keys.lookup(key);
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value ?? '');
    entries.set(id, { found, expiresAt: now() + KEY_CACHE_TTL_MS });
    return found;
  };
  return {
    /** What is known of the key: at once when it was looked up lately, else from the database. */
    async lookup(key: string): Promise<KeyLookup> {
      const id = hash('sha256', key, 'base64url');
      return fresh(id) ?? fetchAndKeep(key, id);
    },
    clear(): void {
      entries.clear();
    },
  };
}
