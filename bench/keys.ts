/**
 * The keys a setup's load rotates through, one per request, with every request counted against
 * the key that sent it: no key is handed out beyond KEY_BUDGET, so the monthly quota never runs out
 * and the run never measures 429s. The runner tops the ring up (`room`) before each measurement.
 */
import { PLANS } from '../shared/plans';

/**
 * Requests a key may send in the whole run: four fifths of the Pro quota. A lease is a hundredth
 * of what is left of the month (server/access/quota-ledger.ts), so a key near its end would go to
 * the database every few requests; at four fifths its leases are still ten requests or more.
 */
export const KEY_QUOTA = PLANS.pro.monthlyQuota;
export const KEY_BUDGET = Math.floor(KEY_QUOTA * 0.8);

interface Held {
  key: string;
  sent: number;
}

export class KeyRing {
  private readonly all: Held[] = [];
  /** Keys still under budget; a key is dropped from it (swapped out) when it reaches the budget. */
  private readonly active: Held[] = [];
  private at = 0;
  /** Requests sent with every key already at its budget (there should be none: see `room`). */
  overBudget = 0;

  add(keys: readonly string[]): void {
    for (const key of keys) {
      const held = { key, sent: 0 };
      this.all.push(held);
      this.active.push(held);
    }
  }

  /** The key of the next request, in rotation. */
  next(): string {
    if (this.active.length === 0) {
      this.overBudget++;
      const held = this.all[this.overBudget % this.all.length] as Held;
      held.sent++;
      return held.key;
    }
    if (this.at >= this.active.length) this.at = 0;
    const held = this.active[this.at] as Held;
    held.sent++;
    if (held.sent >= KEY_BUDGET) {
      // Swap the last key in; it is served next, so the rotation stays even.
      this.active[this.at] = this.active[this.active.length - 1] as Held;
      this.active.pop();
    } else this.at++;
    return held.key;
  }

  /** Requests that can still be sent within every key's budget. */
  get room(): number {
    return this.active.reduce((sum, held) => sum + (KEY_BUDGET - held.sent), 0);
  }

  get size(): number {
    return this.all.length;
  }

  get sent(): number {
    return this.all.reduce((sum, held) => sum + held.sent, 0);
  }

  /** The most requests any one key sent. */
  get mostSent(): number {
    return this.all.reduce((most, held) => Math.max(most, held.sent), 0);
  }
}

/** Keys of the right shape for the baselines, which check nothing: the load generator's work per request stays the same. */
export function fakeKeys(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `crc_live_${String(i).padStart(43, 'x')}`);
}
