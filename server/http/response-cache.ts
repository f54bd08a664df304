/**
 * Computed answers, already serialised with their ETag, keyed by route and normalised
 * parameters. Dropped whole whenever rates are written, and a route's own answers when something
 * else it reads changes; the time limit only bounds how stale an instance can be if it ever
 * misses a change notice.
 */
import { strongEtag } from './etag';
import type { Representation } from './route';

/**
 * Answers longer than this are kept encoded: kept as text, a 150 KB answer would be encoded again
 * on every request. Shorter ones stay text, which Node sends in one write with the headers.
 */
export const ENCODED_ABOVE_CHARS = 8 * 1024;

export interface CachedResponse {
  readonly body: string | Buffer;
  readonly etag: string;
  readonly expiresAt: number;
  /** The content type, and the headers it needs (a page's own content policy). */
  readonly type: string;
  readonly headers: Readonly<Record<string, string>>;
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

  set(key: string, answer: Representation): CachedResponse {
    const entry = this.wrap(answer);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, entry);
    return entry;
  }

  /** An entry for a body that is not kept. */
  wrap({ text, type, headers }: Representation): CachedResponse {
    const body = text.length > ENCODED_ABOVE_CHARS ? Buffer.from(text) : text;
    return { body, etag: strongEtag(body), expiresAt: this.now() + this.ttlMs, type, headers };
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Drops the entries whose keys `matches` picks (one route's answers), as `clear` drops them all. */
  drop(matches: (key: string) => boolean): void {
    this.generation++;
    for (const key of this.entries.keys()) if (matches(key)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
