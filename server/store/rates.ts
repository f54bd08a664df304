/** Queries of the official series. Aggregates run in SQL; rows come back in API shape. */
import type { Knex } from 'knex';
import type { ExchangeRate, PeriodStats } from '../../shared/types';
import { wholeMonths } from '../../shared/dates';
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

export type PeriodKind = 'monthly' | 'yearly';

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
     * Per month or year: the values' average, extremes, first, last and change, computed by the
     * database from monthly summaries (a year is the sum of its months).
     */
    async periodStats(kind: PeriodKind, from: string, to: string): Promise<PeriodStats[]> {
      const whole = wholeMonths(from, to);
      const monthly = kind === 'monthly';
      const side = (column: 'buy' | 'sell') =>
        monthly
          ? // sum/count rounded is what round(avg(), 4) gives: both divide the exact NUMERIC sum.
            `round(${column}_sum / count, 4) AS ${column}_average, ${column}_min, ${column}_max, ${column}_first, ${column}_last`
          : `round(sum(${column}_sum) / sum(count), 4) AS ${column}_average, min(${column}_min) AS ${column}_min, max(${column}_max) AS ${column}_max,
             (array_agg(${column}_first ORDER BY month))[1] AS ${column}_first, (array_agg(${column}_last ORDER BY month DESC))[1] AS ${column}_last`;
      const periods = monthly
        ? `SELECT to_char(month, 'YYYY-MM') AS period, first_date AS "from", last_date AS "to", count, ${side('buy')}, ${side('sell')} FROM months`
        : `SELECT to_char(date_trunc('year', month), 'YYYY') AS period, min(first_date) AS "from", max(last_date) AS "to", sum(count)::integer AS count,
             ${side('buy')}, ${side('sell')} FROM months GROUP BY 1`;
      // Months the range covers whole come from their summaries (rate_months, kept by triggers);
      // the months it cuts into are summed up from their rows within the range, the same way.
      // One JSON value instead of ~500 rows of 14 columns: decoding those field by field took a
      // fifth of the time on the embedded database. JSON writes dates as 'YYYY-MM-DD' text.
      const { rows } = (await db.raw(
        `WITH months AS (
           SELECT * FROM rate_months WHERE month >= :wholeStart AND month < :wholeEnd
           UNION ALL SELECT * FROM rate_month_summaries(:from, CAST(:wholeStart AS date) - 1)
           UNION ALL SELECT * FROM rate_month_summaries(:wholeEnd, :to)
         )
         SELECT json_agg(p ORDER BY p."from") AS periods FROM (${periods}) p`,
        { from, to, wholeStart: whole.start, wholeEnd: whole.end },
      )) as { rows: Array<{ periods: Array<Record<string, number> & { period: string; from: string; to: string }> | null }> };
      const pick = (r: Record<string, number>, column: 'buy' | 'sell') => ({
        average: r[`${column}_average`],
        min: r[`${column}_min`],
        max: r[`${column}_max`],
        first: r[`${column}_first`],
        last: r[`${column}_last`],
        // Two-decimal values: the difference is exact once rounded back to the source precision.
        change: Math.round((r[`${column}_last`] - r[`${column}_first`]) * 1e4) / 1e4,
      });
      return (rows[0]?.periods ?? []).map((r) => ({
        period: r.period,
        from: r.from,
        to: r.to,
        count: r.count,
        buy: pick(r, 'buy'),
        sell: pick(r, 'sell'),
      }));
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
