/**
 * Monthly quotas, exact and fast. Each instance reserves units from PostgreSQL in leases and
 * spends them in memory, so most requests need no round trip, and one key never has more than
 * one reservation in flight per instance (requests arriving meanwhile wait for it and are counted
 * in its size). No request over the quota ever succeeds: every unit served was reserved under the
 * limit by one locked statement.
 *
 * A lease is what the key may spend in a minute (its per-minute rate), but never more than a
 * hundredth of what is left of its month, nor more than MAX_LEASE; at least one unit, or the
 * number of requests waiting, whichever is more. So a Pro key (60 a minute, 5,000 a month) goes to
 * the database about once a minute per instance, not every few requests; and the units that can
 * sit unspent on an idle instance while another is refused are at most a hundredth of what was
 * left, and go back to the database when it stops.
 */
import type { ApiKey } from '../store/api-keys';
import { perSecond } from '../domain/per-second';
import { quotaMonth, type UsageStore } from '../store/usage';

export const LEASE_FRACTION = 1 / 100;
// At ten thousand requests a second a lease lasts a second: one locked statement per second per
// key and instance. A crash loses at most one lease, counted as used.
export const MAX_LEASE = 10_000;

interface Account {
  keyId: number;
  month: string;
  /** Units reserved in the database and not spent yet. */
  unspent: number;
  /** The database's count after the last lease (it includes leases held here and elsewhere). */
  reserved: number;
  /** Units spent by this instance this month, for the headers' running count. */
  spent: number;
  /** Requests of this key waiting to be counted right now. */
  demand: number;
  lease: Promise<number> | null;
}

export type Spend = { ok: true; used: number; resetsAt: Date } | { ok: false; resetsAt: Date };

export function leaseSize(quota: number, reserved: number, ratePerMinute: number): number {
  return Math.max(1, Math.min(MAX_LEASE, ratePerMinute, Math.floor((quota - reserved) * LEASE_FRACTION)));
}

export function createQuotaLedger(deps: { usage: UsageStore; clock: () => Date }) {
  const accounts = new Map<string, Account>();
  const currentMonth = perSecond(deps.clock, quotaMonth);

  const lease = (account: Account, key: ApiKey): Promise<number> =>
    (async () => {
      try {
        const want = Math.max(leaseSize(key.monthlyQuota, account.reserved, key.ratePerMinute), account.demand);
        const granted = await deps.usage.reserve(account.keyId, account.month, key.monthlyQuota, want);
        account.unspent += granted.granted;
        account.reserved = Math.max(account.reserved, granted.count);
        return granted.granted;
      } finally {
        account.lease = null;
      }
    })();

  const take = (account: Account, resetsAt: Date): Spend => {
    account.unspent--;
    account.spent++;
    // What the database has counted, less what is reserved here and not spent yet.
    return { ok: true, used: Math.max(account.spent, account.reserved - account.unspent), resetsAt };
  };

  const spendAfterLease = async (account: Account, key: ApiKey, resetsAt: Date): Promise<Spend> => {
    account.demand++;
    try {
      for (;;) {
        if (account.unspent > 0) return take(account, resetsAt);
        account.lease ??= lease(account, key);
        const granted = await account.lease;
        if (granted === 0 && account.unspent === 0) return { ok: false, resetsAt };
      }
    } finally {
      account.demand--;
    }
  };

  return {
    /**
     * Counts one served request of `key`, or says the month's quota is used up. Needs no round
     * trip while this instance holds reserved units, which is nearly always.
     */
    async spend(key: ApiKey): Promise<Spend> {
      const { month, resetsAt } = currentMonth();
      const id = `${key.id}:${month}`;
      let account = accounts.get(id);
      if (!account) {
        account = { keyId: key.id, month, unspent: 0, reserved: 0, spent: 0, demand: 0, lease: null };
        accounts.set(id, account);
      }
      return account.unspent > 0 ? take(account, resetsAt) : spendAfterLease(account, key, resetsAt);
    },

    /** This month's count for `key`, less what this instance has reserved and not spent. */
    async used(key: ApiKey): Promise<{ used: number; resetsAt: Date }> {
      const { month, resetsAt } = currentMonth();
      const unspent = accounts.get(`${key.id}:${month}`)?.unspent ?? 0;
      return { used: Math.max(0, (await deps.usage.used(key.id, month)) - unspent), resetsAt };
    },

    /**
     * What this instance last learned of the count, without a round trip: the same figure its
     * served answers carry. Null when it has not leased for the key this month.
     */
    known(key: ApiKey): { used: number; resetsAt: Date } | null {
      const { month, resetsAt } = currentMonth();
      const account = accounts.get(`${key.id}:${month}`);
      if (!account || account.reserved === 0) return null;
      return { used: Math.max(account.spent, account.reserved - account.unspent), resetsAt };
    },

    /** Gives unspent units back (on shutdown), so a restart loses nothing. */
    async release(): Promise<void> {
      for (const account of accounts.values()) {
        if (account.unspent > 0) await deps.usage.release(account.keyId, account.month, account.unspent);
        account.unspent = 0;
      }
      accounts.clear();
    },
  };
}

export type QuotaLedger = ReturnType<typeof createQuotaLedger>;
