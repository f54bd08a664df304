/**
 * Rate-limit windows kept in this process: the counting of koa-ratelimit's memory driver (a window
 * opens at a client's first request and lets `max` requests through until it ends), done without
 * the library's limiter object, option copies, debug call and promise per request. The limit is
 * asked on every API request, so that cost was paid on every answer.
 */

export interface WindowDecision {
  allowed: boolean;
  /** Requests left in the window after this one. */
  remaining: number;
  /** When the window ends, in milliseconds since the epoch. */
  resetsAt: number;
}

interface Window {
  resetsAt: number;
  used: number;
}

export class MemoryWindows {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts one request of `id` against `max` per window; a refused request is not counted. */
  take(id: string, max: number): WindowDecision {
    const now = this.now();
    let window = this.windows.get(id);
    if (!window || window.resetsAt < now) {
      window = { resetsAt: now + this.windowMs, used: 0 };
      this.windows.set(id, window);
    }
    const allowed = window.used < max;
    if (allowed) window.used++;
    return { allowed, remaining: Math.max(0, max - window.used), resetsAt: window.resetsAt };
  }

  /** How many clients are being counted. */
  get size(): number {
    return this.windows.size;
  }

  /** Forgets windows that have ended: a client that never returns would otherwise stay forever. */
  sweep(): void {
    const now = this.now();
    for (const [id, window] of this.windows) if (window.resetsAt < now) this.windows.delete(id);
  }
}
