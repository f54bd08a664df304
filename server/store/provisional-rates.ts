/**
 * Provisional values (migration 014): what fills a currency's day before the central bank
 * publishes it (Hacienda's euro). One row per currency and day, replaced by each reading; only
 * today's is ever answered, so older rows are pruned when a new one is written.
 */
import type { Knex } from 'knex';
import type { RateSource } from '../../shared/currencies';

export interface ProvisionalRow {
  currency: string;
  date: string;
  /** As published: dollars per unit (Hacienda's `dolares`). */
  published: number;
  /** Colones per unit as the provider computed them; null when it gave none (after hours). */
  colones: number | null;
  source: RateSource;
  /** The address read. */
  upstream: string;
  fetchedAt: Date;
}

interface Row {
  currency: string;
  date: string;
  published: number;
  colones: number | null;
  source: RateSource;
  upstream: string;
  fetched_at: Date;
}

export function createProvisionalRatesStore(db: Knex) {
  return {
    /**
     * Stores a reading (the latest reading of a day wins) and drops the rows of days before
     * `keepFrom`, in the caller's transaction. Says whether the day was new.
     */
    async put(row: ProvisionalRow, keepFrom: string, trx: Knex = db): Promise<{ inserted: number; updated: number }> {
      const [result] = (await trx('provisional_rates')
        .insert({
          currency: row.currency,
          date: row.date,
          published: row.published,
          colones: row.colones,
          source: row.source,
          upstream: row.upstream,
          fetched_at: row.fetchedAt,
        })
        .onConflict(['currency', 'date'])
        // After business hours Hacienda gives no colones: an earlier reading's are kept.
        .merge({
          published: row.published,
          colones: trx.raw('coalesce(excluded.colones, provisional_rates.colones)'),
          source: row.source,
          upstream: row.upstream,
          fetched_at: row.fetchedAt,
        })
        .returning(trx.raw('(xmax = 0) AS inserted'))) as Array<{ inserted: boolean }>;
      await trx('provisional_rates').where('currency', row.currency).where('date', '<', keepFrom).delete();
      return result?.inserted ? { inserted: 1, updated: 0 } : { inserted: 0, updated: 1 };
    },

    /** The provisional value of a currency's day, or null. */
    async byDate(currency: string, date: string): Promise<ProvisionalRow | null> {
      const row = (await db('provisional_rates').where({ currency, date }).first()) as Row | undefined;
      if (!row) return null;
      return {
        currency: row.currency,
        date: row.date,
        published: row.published,
        colones: row.colones,
        source: row.source,
        upstream: row.upstream,
        fetchedAt: row.fetched_at,
      };
    },
  };
}

export type ProvisionalRatesStore = ReturnType<typeof createProvisionalRatesStore>;
