/**
 * Computed answers, already serialised with their ETag, keyed by route and normalised
 * parameters. Dropped whole whenever rates are written, and a route's own answers when something
 * else it reads changes; the time limit only bounds how stale an instance can be if it ever
 * misses a change notice.
 */
import zlib from 'node:zlib';
import { strongEtag } from './etag';
import type { Representation } from './route';

/**
 * Answers longer than this are kept encoded: kept as text, a 150 KB answer would be encoded again
 * on every request. Shorter ones stay text, which Node sends in one write with the headers.
 */
export const ENCODED_ABOVE_CHARS = 8 * 1024;

/** Shorter answers go out as they are: compressing them saves less than a network packet. */
export const COMPRESS_FROM_BYTES = 1024;

/** The content codings answers are kept in besides their own bytes, by preference. */
export const CONTENT_CODINGS = ['br', 'gzip'] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

/**
 * How hard a copy is compressed. An answer's first serving may be its only one (a window nobody
 * asks for again): it gets a quick copy, made for that request and not kept. Asked again, the
 * answer has shown it is worth a smaller copy, made once and kept for every later serving.
 * Measured on a 53 KB range of the bench's data (CPU per copy, size): brotli 1, 95 µs, 4.2 KB;
 * brotli 2, 205 µs, 3.7 KB; brotli 5, 516 µs, 3.4 KB; gzip 1, 121 µs, 4.7 KB; gzip 6, 431 µs, 4.0 KB.
 */
export type Effort = 'quick' | 'kept';
const LEVELS: Record<ContentCoding, Record<Effort, number>> = {
  br: { quick: 1, kept: 5 },
  gzip: { quick: 1, kept: zlib.constants.Z_DEFAULT_COMPRESSION },
};

/**
 * Brotli's window fitted to the body: the default 4 MB window costs more to set up than a 25 KB
 * answer costs to compress (900 µs of CPU per chart, against 350 µs with a 64 KB window). A window
 * that covers the whole body loses nothing: brotli never looks further back than the body's start.
 */
const brotliWindowBits = (bytes: number) =>
  Math.min(zlib.constants.BROTLI_MAX_WINDOW_BITS, Math.max(zlib.constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(bytes + 16))));

/**
 * On the event loop, not libuv's thread pool: handing a body to the pool and back cost more CPU
 * than compressing it (a 53 KB range at brotli 2: 341 µs of CPU through the pool, 180 µs here),
 * and the event loop waits about as long as the compression takes, well under a millisecond for
 * the answers we keep.
 */
const compressors: Record<ContentCoding, (body: Buffer, effort: Effort) => Buffer> = {
  br: (body, effort) =>
    zlib.brotliCompressSync(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: LEVELS.br[effort],
        [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(body.length),
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body, effort) => zlib.gzipSync(body, { level: LEVELS.gzip[effort] }),
};

/**
 * The bytes alone: a brotli result is a slice of zlib's 16 KB output buffer, which a kept copy of
 * a few KB would otherwise hold whole (a full cache of charts held 21 MB more than its copies).
 */
const exactly = (bytes: Buffer) => (bytes.byteLength === bytes.buffer.byteLength ? bytes : Buffer.from(bytes));

/**
 * What a kept answer costs besides its body and its key, in bytes of heap: the entry, its ETag,
 * its slot in the map (measured: 50,000 answers of 260 bytes under 56-character keys held 777
 * bytes each, 461 more than body and key). Counted in the budget, so that 16 MB of short answers
 * holds about 16 MB, not the 60 MB that counting their bodies alone let them hold.
 */
export const ENTRY_OVERHEAD_BYTES = 512;

/** What an answer is counted at against the budget: its body, its key and the entry around them. */
export const entryCost = (key: string, bodyBytes: number) => bodyBytes + key.length + ENTRY_OVERHEAD_BYTES;

/**
 * What the kept answers may hold, counted in the bytes of their bodies and keys plus each entry's
 * overhead (their compressed copies add a fifth or so of the long ones' bodies). Bounded in bytes, not in answers: a few thousand 60 KB windows would
 * otherwise hold hundreds of megabytes. 16 MB keeps some 650 of the longest charts, far more than
 * the windows clients keep asking for; the other answers are small. With 32 MB the server ended a
 * run of uncached windows at 257 MB of RSS, with 16 MB at 240.
 */
export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * How many keys asked for once are remembered. Past that the memory starts again (as TinyLFU's
 * doorkeeper does): a key must then be asked twice among the next ones to be kept.
 */
export const REMEMBERED_KEYS = 10_000;

export interface CachedResponse {
  readonly body: string | Buffer;
  readonly etag: string;
  readonly expiresAt: number;
  /** The content type, and the headers it needs (a page's own content policy). */
  readonly type: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body's length in bytes. */
  readonly bytes: number;
  /**
   * The body in a content coding: a `quick` copy made for the request (the answer's first
   * serving), or the `kept` one, compressed harder on first use and kept with the answer, so a
   * cached answer is compressed once, not on every request.
   */
  compressed(coding: ContentCoding, effort: Effort): Buffer;
}

function cachedResponse({ text, type, headers }: Representation, expiresAt: number): CachedResponse {
  const body = text.length > ENCODED_ABOVE_CHARS ? Buffer.from(text) : text;
  // Made on first use: most kept answers are short and never compressed.
  let codings: Map<ContentCoding, Buffer> | undefined;
  return {
    body,
    etag: strongEtag(body),
    expiresAt,
    type,
    headers,
    bytes: typeof body === 'string' ? Buffer.byteLength(body) : body.length,
    compressed(coding, effort) {
      const compress = () => compressors[coding](typeof body === 'string' ? Buffer.from(body) : body, effort);
      if (effort === 'quick') return compress();
      codings ??= new Map();
      let done = codings.get(coding);
      if (!done) {
        done = exactly(compress());
        codings.set(coding, done);
      }
      return done;
    },
  };
}

/**
 * A kept answer and whether it was served since the budget last passed it: such an answer gets a
 * second chance (CLOCK), so the answers let go are those asked for least lately. A flag per hit:
 * moving the entry to the end of the map on every hit (delete and set) cost 0.6 µs per get.
 */
interface Slot {
  readonly response: CachedResponse;
  served: boolean;
}

export class ResponseCache {
  private readonly entries = new Map<string, Slot>();
  /** Keys asked for once and not kept (admit). */
  private readonly askedOnce = new Set<string>();
  private bytes = 0;
  /** Bumped by every clear, so an answer computed across a data change is not stored. */
  generation = 0;

  constructor(
    private readonly maxBytes = DEFAULT_MAX_BYTES,
    private readonly ttlMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): CachedResponse | undefined {
    const slot = this.entries.get(key);
    if (slot && slot.response.expiresAt > this.now()) {
      slot.served = true;
      return slot.response;
    }
    if (slot) this.remove(key, slot);
    return undefined;
  }

  /**
   * Whether an answer just computed for `key` is worth keeping: from its second asking on. A
   * window nobody asks for again (most of a client's walk through history) is sent and let go
   * young, instead of pushing answers that are asked for out of the budget and leaving the
   * collector old garbage (the bench's uncached 366-day ranges: 636–826 µs of CPU per request
   * kept, 518–611 let go).
   */
  admit(key: string): boolean {
    if (this.askedOnce.delete(key)) return true;
    if (this.askedOnce.size >= REMEMBERED_KEYS) this.askedOnce.clear();
    this.askedOnce.add(key);
    return false;
  }

  set(key: string, answer: Representation): CachedResponse {
    const entry = this.wrap(answer);
    const cost = entryCost(key, entry.bytes);
    // Larger than the whole budget: sent, never kept.
    if (cost > this.maxBytes) return entry;
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    // Maps iterate in insertion order: the first entries are the oldest. One served since it was
    // last passed goes to the end instead, once; the loop meets it again only after every other.
    for (const [oldest, old] of this.entries) {
      if (this.bytes + cost <= this.maxBytes) break;
      if (old.served) {
        old.served = false;
        this.entries.delete(oldest);
        this.entries.set(oldest, old);
      } else this.remove(oldest, old);
    }
    this.entries.set(key, { response: entry, served: false });
    this.bytes += cost;
    return entry;
  }

  /** An entry for a body that is not kept. */
  wrap(answer: Representation): CachedResponse {
    return cachedResponse(answer, this.now() + this.ttlMs);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }

  /** Drops the entries whose keys `matches` picks (one route's answers), as `clear` drops them all. */
  drop(matches: (key: string) => boolean): void {
    this.generation++;
    for (const [key, slot] of this.entries) if (matches(key)) this.remove(key, slot);
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the kept answers are counted at: their bodies, keys and entries (entryCost). */
  get heldBytes(): number {
    return this.bytes;
  }

  private remove(key: string, { response }: Slot): void {
    this.entries.delete(key);
    this.bytes -= entryCost(key, response.bytes);
  }
}
