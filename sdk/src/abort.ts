/**
 * Cancelling a call the way `fetch` cancels a request: when its signal aborts, the call rejects
 * with the signal's `reason`, whatever it was doing (connecting, reading the body, waiting to
 * retry). A plain `controller.abort()` makes that reason a `DOMException` named `AbortError`; a
 * reason of the caller's own (`controller.abort(myError)`, `AbortSignal.timeout()`'s
 * `TimeoutError`) is rejected with as given, so code written for `fetch` works unchanged.
 */

/** The parts of an `AbortSignal` the client relies on, where the program declares no `AbortSignal` of its own. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  /** Why it aborted; runtimes older than `reason` leave it out, and the client then rejects with an `AbortError`. */
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * The `AbortSignal` of the program's own types (the DOM's or Node's, whichever it declares), so
 * that the global `fetch` takes it whatever the program's lib and types; {@link AbortSignalLike}
 * where neither is declared. (The same test `@types/node` makes to reuse the DOM's globals.)
 */
export type FetchSignal = typeof globalThis extends { AbortSignal: { prototype: infer S } } ? S : AbortSignalLike;

/** What every method takes after its parameters. */
export interface RequestOptions {
  /**
   * Cancels this call: it then rejects with `signal.reason` (an `AbortError` for a plain
   * `abort()`), at once, also while it waits to retry.
   */
  signal?: FetchSignal;
}

/** The error `fetch` rejects with when its signal aborted without a reason (older runtimes). */
function abortError(): unknown {
  const message = 'This operation was aborted';
  if (typeof DOMException === 'function') return new DOMException(message, 'AbortError');
  const error = new Error(message);
  error.name = 'AbortError';
  return error;
}

/** A signal as given by a caller, checked the way `fetch` checks its own (a TypeError for anything else). */
export function signalOption(value: unknown, where: string): AbortSignalLike | undefined {
  if (value === undefined || value === null) return undefined;
  const candidate = value as Partial<AbortSignalLike>;
  if (typeof value !== 'object' || typeof candidate.aborted !== 'boolean' || typeof candidate.addEventListener !== 'function') {
    throw new TypeError(`ExchangeRateClient: ${where} must be an AbortSignal (got ${String(value)})`);
  }
  return value as AbortSignalLike;
}

/**
 * The cancellation of one call: the first of its signals (the client's and the call's) to abort
 * ends it. Listeners are removed by `dispose()`, so a client-wide signal that lives as long as the
 * program does not gather one per call.
 */
export class Cancellation {
  #reason: { value: unknown } | null = null;
  readonly #signals: AbortSignalLike[];
  readonly #listeners = new Set<(reason: unknown) => void>();
  readonly #onAbort = (): void => {
    const signal = this.#signals.find((s) => s.aborted);
    if (signal) this.#abort(signal);
  };
  #promise: Promise<never> | null = null;

  constructor(signals: readonly (AbortSignalLike | undefined)[]) {
    this.#signals = signals.filter((s): s is AbortSignalLike => s !== undefined);
    const already = this.#signals.find((s) => s.aborted);
    if (already) this.#abort(already);
    else for (const signal of this.#signals) signal.addEventListener('abort', this.#onAbort);
  }

  get aborted(): boolean {
    return this.#reason !== null;
  }

  /** The reason to reject with; only meaningful once `aborted`. */
  get reason(): unknown {
    return this.#reason?.value;
  }

  throwIfAborted(): void {
    if (this.#reason) throw this.#reason.value;
  }

  /** Calls `listener` with the reason when the call is cancelled (at once if it already is); returns its removal. */
  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.#reason) {
      listener(this.#reason.value);
      return () => undefined;
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Rejects with the reason when cancelled: raced against work that may not watch a signal (a custom fetch, a custom sleep). */
  get promise(): Promise<never> {
    if (!this.#promise) {
      this.#promise = new Promise<never>((_, reject) => this.onAbort(reject));
      // Only ever raced; this keeps an unraced rejection from counting as unhandled.
      this.#promise.catch(() => undefined);
    }
    return this.#promise;
  }

  /** Waits `ms` on a timer that is cleared when the call is cancelled, so no timer outlives an aborted call. */
  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        resolve();
      }, ms);
      const stop = this.onAbort((reason) => {
        clearTimeout(timer);
        reject(reason);
      });
    });
  }

  dispose(): void {
    for (const signal of this.#signals) signal.removeEventListener('abort', this.#onAbort);
    this.#listeners.clear();
  }

  #abort(signal: AbortSignalLike): void {
    if (this.#reason) return;
    const reason = signal.reason !== undefined ? signal.reason : abortError();
    this.#reason = { value: reason };
    const listeners = [...this.#listeners];
    this.dispose();
    for (const listener of listeners) listener(reason);
  }
}
