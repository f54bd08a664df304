/**
 * The contract between the upstream adapters and the sync job: every official source answers
 * `fetchRange` with plain calendar-day rows, and every failure is an `UpstreamError` that says
 * whether trying again can help.
 */
import type { RateSource } from '../../shared/currencies';
import type { UpstreamNames } from '../domain/provenance';

/**
 * One calendar day of the official series as an upstream gave it. A side is null when the
 * upstream has no value for it; a day with no value on either side is left out entirely.
 */
export interface SourceRate {
  date: string;
  buy: number | null;
  sell: number | null;
}

export type SourceName = 'bccr-sdde' | 'bccr-site' | 'hacienda';

export interface OfficialSource {
  readonly name: SourceName;
  /**
   * The `source` stored with each row (docs/api.md: both routes of the central bank are `BCCR`;
   * `npm run demo` relabels its sources `DEMO`).
   */
  readonly provider: RateSource;
  /** Where each side is read, in words, as the provenance log keeps it (`BCCR SDDE indicator 317`). */
  readonly upstream: Readonly<UpstreamNames>;
  /** The longest span (in calendar days, inclusive) one `fetchRange` call accepts. */
  readonly maxChunkDays: number;
  /**
   * Rows with `from <= date <= to` (`YYYY-MM-DD`, inclusive), ascending by date. `signal` aborts
   * the requests (a shutdown), failing with an `aborted` UpstreamError.
   */
  fetchRange(from: string, to: string, signal?: AbortSignal): Promise<SourceRate[]>;
}

/** The central bank's route that gives the series, and Hacienda for the day it could not give. */
export interface OfficialSources {
  primary: OfficialSource;
  fallback: OfficialSource;
}

/** Where the cross rates against the dollar are read: the SDDE API, one indicator at a time. */
export interface CrossSource {
  readonly name: SourceName;
  /** The `source` stored with each value (`DEMO` for the simulated central bank). */
  readonly provider: RateSource;
  readonly maxChunkDays: number;
  /** One indicator's values over `from..to` (at most `maxChunkDays`), date → value. */
  read(code: string, from: string, to: string, signal?: AbortSignal): Promise<Map<string, number>>;
}

/** What went wrong, so that logs and the sync summary can tell the cases apart. */
export type UpstreamErrorKind = 'http' | 'timeout' | 'network' | 'parse' | 'aborted';

export interface UpstreamErrorInit {
  source: string;
  kind: UpstreamErrorKind;
  retryable: boolean;
  status?: number;
  /** From a 429's `Retry-After` header: how long the upstream asked us to wait. */
  retryAfterMs?: number;
  cause?: unknown;
}

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly source: string;
  readonly kind: UpstreamErrorKind;
  readonly status?: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;

  constructor(message: string, init: UpstreamErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.source = init.source;
    this.kind = init.kind;
    this.retryable = init.retryable;
    if (init.status !== undefined) this.status = init.status;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * An answer that arrived but cannot be read. Not retryable by default: the same request gets the
 * same body, so the sync fails, leaves the stored data as it was, and the job retries it later.
 */
export function parseError(source: string, message: string, retryable = false, status?: number): UpstreamError {
  return new UpstreamError(`${source}: ${message}`, {
    source,
    kind: 'parse',
    retryable,
    ...(status === undefined ? {} : { status }),
  });
}
