/**
 * Computed answers, already serialised with their ETag, keyed by route and normalised
 * parameters. Dropped whole whenever rates are written; the time limit only bounds how stale an
 * instance can be if it ever misses a change notice.
 */
import { createHash } from 'node:crypto';

export interface CachedResponse {
  readonly body: string;
  readonly etag: string;
  readonly expiresAt: number;
}

export function strongEtag(body: string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  /** Bumped by every clear, so an answer computed across a data change is not stored. */
  generation = 0;

  constructor(
    private readonly maxEntries = 5000,
    private readonly ttlMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): CachedResponse | undefined {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) return hit;
    if (hit) this.entries.delete(key);
    return undefined;
  }

  set(key: string, body: string): CachedResponse {
    const entry = this.wrap(body);
    this.put(key, entry);
    return entry;
  }

  /** Files an entry under one more key (the same answer asked for in other words). */
  put(key: string, entry: CachedResponse): void {
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, entry);
  }

  /** An entry for a body that is not kept. */
  wrap(body: string): CachedResponse {
    return { body, etag: strongEtag(body), expiresAt: this.now() + this.ttlMs };
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
