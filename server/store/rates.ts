/** Queries of the official series. Aggregates run in SQL; rows come back in API shape. */
import type { Knex } from 'knex';
import type { ExchangeRate } from '../../shared/types';
import type { RateSource } from '../../shared/currencies';
import { columnsOf } from '../domain/series';
import type { RateColumns, RatePoint } from '../domain/types';

export interface RateRow {
  date: string;
  buy: number;
  sell: number;
  source: RateSource;
  fetched_at: Date;
}

export interface RateInput {
  date: string;
  buy: number;
  sell: number;
  source: RateSource;
  fetchedAt: Date;
}

const RECORD_COLUMNS = ['date', 'buy', 'sell', 'source', 'fetched_at'] as const;

export function toRecord(row: RateRow): ExchangeRate {
  return {
    date: row.date,
    currencyFrom: 'USD',
    currencyTo: 'CRC',
    buy: row.buy,
    sell: row.sell,
    source: row.source,
    fetchedAt: row.fetched_at.toISOString(),
  };
}

export function createRatesStore(db: Knex) {
  const table = () => db<RateRow>('exchange_rates');
  /** Just the values, for calculations over long windows. */
  const points = (from: string, to: string): Promise<RatePoint[]> => table().select('date', 'buy', 'sell').whereBetween('date', [from, to]).orderBy('date');

  return {
    /** The record with the greatest date not after `today`. */
    async latest(today: string): Promise<ExchangeRate | null> {
      const row = await table()
        .select(...RECORD_COLUMNS)
        .where('date', '<=', today)
        .orderBy('date', 'desc')
        .first();
      return row ? toRecord(row) : null;
    },

    async byDate(date: string): Promise<ExchangeRate | null> {
      const row = await table()
        .select(...RECORD_COLUMNS)
        .where({ date })
        .first();
      return row ? toRecord(row) : null;
    },

    async range(from: string, to: string): Promise<ExchangeRate[]> {
      const rows = await table()
        .select(...RECORD_COLUMNS)
        .whereBetween('date', [from, to])
        .orderBy('date');
      return rows.map(toRecord);
    },

    points,

    /** A window as columns (the series in memory cuts them from what it holds). */
    async columns(from: string, to: string): Promise<RateColumns> {
      return columnsOf(await points(from, to));
    },

    async earliestDate(): Promise<string | null> {
      const row = await table().min<{ min: string | null }>('date as min').first();
      return row?.min ?? null;
    },

    /** The greatest stored date, tomorrow's included once it is published. */
    async lastStoredDate(): Promise<string | null> {
      const row = await table().max<{ max: string | null }>('date as max').first();
      return row?.max ?? null;
    },

    /** The greatest date stored from `source`, or null when it gave none. */
    async lastDateFrom(source: RateSource): Promise<string | null> {
      const row = await table().where({ source }).max<{ max: string | null }>('date as max').first();
      return row?.max ?? null;
    },

    /**
     * Inserts or replaces rows. Returns what changed so callers can log corrections; a row equal
     * to the stored one is left untouched (the upsert is idempotent).
     */
    async upsert(rows: readonly RateInput[], trx: Knex = db): Promise<{ inserted: number; updated: number }> {
      let inserted = 0;
      let updated = 0;
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500).map((r) => ({
          date: r.date,
          buy: r.buy,
          sell: r.sell,
          source: r.source,
          fetched_at: r.fetchedAt,
          updated_at: trx.fn.now(),
        }));
        const result = (await trx.raw(
          `? ON CONFLICT (date) DO UPDATE SET buy = excluded.buy, sell = excluded.sell, source = excluded.source,
             fetched_at = excluded.fetched_at, updated_at = excluded.updated_at
           WHERE (exchange_rates.buy, exchange_rates.sell, exchange_rates.source)
               IS DISTINCT FROM (excluded.buy, excluded.sell, excluded.source)
             -- The central bank's own value is never replaced by the fallback's.
             AND NOT (exchange_rates.source = 'BCCR' AND excluded.source = 'Hacienda')
           RETURNING (xmax = 0) AS inserted`,
          [trx('exchange_rates').insert(chunk)],
        )) as { rows: Array<{ inserted: boolean }> };
        for (const row of result.rows) row.inserted ? inserted++ : updated++;
      }
      return { inserted, updated };
    },
  };
}

export type RatesStore = ReturnType<typeof createRatesStore>;
