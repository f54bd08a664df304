/**
 * Computed answers, already serialised with their ETag, keyed by route and normalised
 * parameters. Dropped whole whenever rates are written; the time limit only bounds how stale an
 * instance can be if it ever misses a change notice.
 */
import { strongEtag } from './etag';

/**
 * Answers longer than this are kept encoded: kept as text, a 150 KB answer would be encoded again
 * on every request. Shorter ones stay text, which Node sends in one write with the headers.
 */
export const ENCODED_ABOVE_CHARS = 8 * 1024;

export interface CachedResponse {
  readonly body: string | Buffer;
  readonly etag: string;
  readonly expiresAt: number;
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

  set(key: string, text: string): CachedResponse {
    const entry = this.wrap(text);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, entry);
    return entry;
  }

  /** An entry for a body that is not kept. */
  wrap(text: string): CachedResponse {
    const body = text.length > ENCODED_ABOVE_CHARS ? Buffer.from(text) : text;
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
