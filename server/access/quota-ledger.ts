/**
 * Monthly quotas, exact and fast. Each instance reserves units from PostgreSQL in leases and
 * spends them in memory, so most requests need no round trip, and one key never has more than
 * one reservation in flight per instance (requests arriving meanwhile wait for it and are counted
 * in its size). No request over the quota ever succeeds: every unit served was reserved under the
 * limit by one locked statement.
 *
 * A lease is what the key may spend in a minute (its per-minute rate), but never more than a
 * hundredth of what is left of its month, nor more than MAX_LEASE; at least one unit, or the
 * number of requests waiting beyond the units in hand, whichever is more. So a Pro key (60 a minute, 5,000 a month) goes to
 * the database about once a minute per instance, not every few requests.
 *
 * The next lease is asked for when at most a quarter of the last one is left (AHEAD_FRACTION), so
 * that a request seldom waits for the database: when each ran out first, one request in every
 * lease waited for the round trip, and under load for the turns of the event loop after it (the
 * slowest hundredth of keyed answers). The units that can sit unspent on an idle instance while
 * another is refused are then at most a hundredth of what was left and a quarter of that again,
 * and go back to the database when it stops.
 *
 * How much is left when the next lease leaves is drawn for each lease, between a quarter and an
 * eighth: keys spent in step (clients polling on one schedule, every key after a restart) would
 * otherwise all ask for their next lease within the same few requests, a burst of locked
 * statements that the requests of every key wait behind (the embedded database runs them one at a
 * time). With the point drawn, they fall out of step after a lease or two.
 *
 * Reserved is not served: the count of a key includes the leases every instance holds. So each
 * instance also writes how many requests it has served, in a row of its own, in the background,
 * one statement for all its keys at most every RECORD_EVERY_MS: a quiet instance writes a request
 * at once, a busy one every key it served meanwhile together. (One write in flight per key cost an
 * UPDATE per keyed request under load, the keys of a busy instance taking turns: a fifth of the
 * server's CPU on the bench's uncached close, and most of PostgreSQL's.)
 * `/usage` adds its own figure, exact, to what the others last wrote, which at rest is what they
 * served.
 */
import { randomUUID } from 'node:crypto';
import type { ApiKey } from '../store/api-keys';
import { perSecond } from '../domain/per-second';
import type { Logger } from '../logger';
import { quotaMonth, type UsageStore } from '../store/usage';

export const LEASE_FRACTION = 1 / 100;
// At ten thousand requests a second a lease lasts a second: one locked statement per second per
// key and instance. A crash loses at most one lease, counted as used.
export const MAX_LEASE = 10_000;
/** The next lease leaves when this much of the last one is left unspent. */
export const AHEAD_FRACTION = 1 / 4;
/**
 * At most one write of served counts per this many milliseconds per instance. A write per request
 * (one in flight at a time) was one every two or three requests under load: 10–15 µs of the
 * server's CPU and 30–50 µs of PostgreSQL's per keyed request.
 */
export const RECORD_EVERY_MS = 250;
/** How long recording served requests rests after a failed write (the database is away). */
export const RECORD_RETRY_MS = 1000;

interface Account {
  keyId: number;
  month: string;
  /** Units reserved in the database and not spent yet. */
  unspent: number;
  /** The database's count after the last lease (it includes leases held here and elsewhere). */
  reserved: number;
  /** Units spent by this instance this month: the requests it served (the headers' running count, `/usage`). */
  spent: number;
  /** Requests of this key waiting to be counted right now. */
  demand: number;
  lease: Promise<number> | null;
  /**
   * The next lease leaves in the background once `unspent` is down to this; -1 while one is on
   * its way ahead, and after one found nothing left or failed: the next then waits until it is needed.
   */
  aheadAt: number;
  /** `spent` as last written to this instance's row of served requests. */
  recorded: number;
}

export type Spend = { ok: true; used: number; resetsAt: Date } | { ok: false; resetsAt: Date };

export function leaseSize(quota: number, reserved: number, ratePerMinute: number): number {
  return Math.max(1, Math.min(MAX_LEASE, ratePerMinute, Math.floor((quota - reserved) * LEASE_FRACTION)));
}

export interface QuotaLedgerDeps {
  usage: UsageStore;
  clock: () => Date;
  logger: Logger;
  /** Draws where each next lease leaves (in [0, 1), as Math.random, the default). */
  random?: () => number;
}

export function createQuotaLedger(deps: QuotaLedgerDeps) {
  const random = deps.random ?? Math.random;
  const accounts = new Map<string, Account>();
  const currentMonth = perSecond(deps.clock, quotaMonth);

  // This process's row of served requests: its own count is then exact, whoever else writes.
  const instance = randomUUID();

  /** Accounts served since their last write, waiting for the next one. */
  const unrecorded = new Set<Account>();
  /** The write in flight, if any: one at a time for the whole instance. */
  let recording: Promise<void> | null = null;
  /** The next write, when one waits for its turn. */
  let nextWrite: NodeJS.Timeout | null = null;
  /** When the last write left (performance.now()). */
  let lastWriteAt = Number.NEGATIVE_INFINITY;
  /** No new write before this (performance.now()), after one failed. */
  let restUntil = 0;
  /** While release() writes everything itself. */
  let stopped = false;

  /** Writes what this instance has served of every key waiting, in one statement. */
  const recordServed = (): Promise<void> => {
    lastWriteAt = performance.now();
    recording = (async () => {
      const batch = [...unrecorded].map((account) => ({ account, served: account.spent }));
      unrecorded.clear();
      try {
        await deps.usage.recordServedMany(
          instance,
          batch.map(({ account, served }) => ({ keyId: account.keyId, month: account.month, served })),
        );
        for (const { account, served } of batch) account.recorded = Math.max(account.recorded, served);
        restUntil = 0;
      } catch (error) {
        // Kept in memory and written after a rest, or at release: nothing is lost. Said once per
        // outage, not once a second.
        for (const { account } of batch) unrecorded.add(account);
        const level = restUntil === 0 ? 'warn' : 'debug';
        restUntil = performance.now() + RECORD_RETRY_MS;
        deps.logger[level]({ err: error }, 'quota: could not record served requests yet; will retry');
      } finally {
        recording = null;
        recordSoon();
      }
    })();
    return recording;
  };

  /**
   * A write now if none left in the last RECORD_EVERY_MS, else one then: a quiet instance writes
   * each request at once, a busy one a batch of every key it served per interval.
   */
  function recordSoon(): void {
    if (stopped || recording || nextWrite || unrecorded.size === 0) return;
    const wait = Math.max(restUntil, lastWriteAt + RECORD_EVERY_MS) - performance.now();
    if (wait <= 0) {
      void recordServed();
      return;
    }
    nextWrite = setTimeout(() => {
      nextWrite = null;
      void recordServed();
    }, wait);
    // Never what keeps a stopping process alive: release() writes what is left.
    nextWrite.unref();
  }

  const reserveLease = async (account: Account, key: ApiKey): Promise<number> => {
    // Enough for the requests waiting that the units in hand will not serve (a lease ahead leaves with some left).
    const want = Math.max(leaseSize(key.monthlyQuota, account.reserved, key.ratePerMinute), account.demand - account.unspent);
    const granted = await deps.usage.reserve(account.keyId, account.month, key.monthlyQuota, want);
    account.unspent += granted.granted;
    account.reserved = Math.max(account.reserved, granted.count);
    account.aheadAt = granted.granted > 0 ? Math.floor(granted.granted * AHEAD_FRACTION * (1 - random() / 2)) : -1;
    return granted.granted;
  };

  /** Starts a lease as the account's one in flight, cleared once it settles, even when it failed before its first await. */
  const lease = (account: Account, key: ApiKey): Promise<number> => {
    const leasing = reserveLease(account, key);
    account.lease = leasing;
    const settled = () => {
      if (account.lease === leasing) account.lease = null;
    };
    leasing.then(settled, settled);
    return leasing;
  };

  /** The next lease, reserved while this one still lasts; a request that needs it first waits for it as for any other. */
  const leaseAhead = (account: Account, key: ApiKey): void => {
    // One try ahead per lease: a failure is not retried by every request until the lease runs out.
    account.aheadAt = -1;
    lease(account, key).catch((error: unknown) => {
      // The request that needs units next leases again itself, and is refused if the database is away.
      deps.logger.warn({ err: error, keyId: account.keyId }, 'quota: could not reserve the next lease ahead; the next request will');
    });
  };

  const take = (account: Account, key: ApiKey, resetsAt: Date): Spend => {
    account.unspent--;
    account.spent++;
    unrecorded.add(account);
    recordSoon();
    if (account.unspent > 0 && account.unspent <= account.aheadAt && !account.lease) leaseAhead(account, key);
    // What the database has counted, less what is reserved here and not spent yet.
    return { ok: true, used: Math.max(account.spent, account.reserved - account.unspent), resetsAt };
  };

  const spendAfterLease = async (account: Account, key: ApiKey, resetsAt: Date): Promise<Spend> => {
    account.demand++;
    try {
      while (account.unspent === 0) {
        const granted = await (account.lease ?? lease(account, key));
        if (granted === 0 && account.unspent === 0) return { ok: false, resetsAt };
      }
    } finally {
      account.demand--;
    }
    // No longer waiting when it takes its unit: a lease ahead it starts is sized for the others.
    return take(account, key, resetsAt);
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
        account = { keyId: key.id, month, unspent: 0, reserved: 0, spent: 0, demand: 0, lease: null, aheadAt: -1, recorded: 0 };
        accounts.set(id, account);
      }
      return account.unspent > 0 ? take(account, key, resetsAt) : spendAfterLease(account, key, resetsAt);
    },

    /**
     * Requests served to `key` this month: this instance's own count, and what the others last
     * wrote of theirs. Quota reserved and not spent, here or elsewhere, is not in it.
     */
    async used(key: ApiKey): Promise<{ used: number; resetsAt: Date }> {
      const { month, resetsAt } = currentMonth();
      // While this instance keeps an account of the key its own count is in memory, exact; after
      // a release its row holds it.
      const account = accounts.get(`${key.id}:${month}`);
      const recorded = await deps.usage.served(key.id, month, account ? instance : null);
      return { used: recorded + (account?.spent ?? 0), resetsAt };
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

    /** Records what was served and gives unspent units back (on shutdown), so a restart loses nothing. */
    async release(): Promise<void> {
      stopped = true;
      if (nextWrite) clearTimeout(nextWrite);
      nextWrite = null;
      await recording;
      // A lease still on its way would be counted and never spent: wait for it, then give it back.
      await Promise.allSettled([...accounts.values()].map((account) => account.lease));
      stopped = false;
      unrecorded.clear();
      for (const account of accounts.values()) {
        if (account.recorded < account.spent) await deps.usage.recordServed(account.keyId, account.month, instance, account.spent);
        if (account.unspent > 0) await deps.usage.release(account.keyId, account.month, account.unspent);
        account.unspent = 0;
      }
      accounts.clear();
    },
  };
}

export type QuotaLedger = ReturnType<typeof createQuotaLedger>;
