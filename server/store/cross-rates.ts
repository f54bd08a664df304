/**
 * The cross rates against the dollar (migration 011): what was published per currency and day,
 * the log of what each sync read, and the values days had before they were revised.
 */
import type { Knex } from 'knex';
import type { RateSource } from '../../shared/currencies';

export interface CrossInput {
  /** ISO 4217 code from the catalog. */
  currency: string;
  date: string;
  /** As published, in the catalog's `quote` direction. */
  value: number;
  source: RateSource;
  fetchedAt: Date;
}

export interface CrossRow {
  date: string;
  value: number;
  source: RateSource;
  fetchedAt: Date;
}

export interface CrossObservation {
  source: RateSource;
  upstream: string;
  value: number;
  firstSeenAt: string;
  lastConfirmedAt: string;
  count: number;
}

export interface CrossRevision {
  date: string;
  value: number;
  source: RateSource;
  observedAt: string;
  newValue: number;
  newSource: RateSource;
  replacedAt: string;
}

/** What one sync run read of one currency. */
export interface CrossReading {
  currency: string;
  route: string;
  source: RateSource;
  /** The indicator in words (`BCCR SDDE indicator 333`). */
  upstream: string;
  observedAt: Date;
  values: ReadonlyArray<{ date: string; value: number }>;
}

export interface CurrencySpan {
  currency: string;
  since: string;
  latestDate: string | null;
}

interface Row {
  date: string;
  value: number;
  source: RateSource;
  fetched_at: Date;
}

const toRow = (r: Row): CrossRow => ({ date: r.date, value: r.value, source: r.source, fetchedAt: r.fetched_at });

export function createCrossRatesStore(db: Knex) {
  return {
    /** Inserts or replaces values; an equal value is left alone, and the central bank's is never replaced by the fallback's. */
    async upsert(rows: readonly CrossInput[], trx: Knex = db): Promise<{ inserted: number; updated: number }> {
      let inserted = 0;
      let updated = 0;
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500).map((r) => ({
          currency: r.currency,
          date: r.date,
          value: r.value,
          source: r.source,
          fetched_at: r.fetchedAt,
          updated_at: trx.fn.now(),
        }));
        const result = (await trx.raw(
          `? ON CONFLICT (currency, date) DO UPDATE SET value = excluded.value, source = excluded.source,
             fetched_at = excluded.fetched_at, updated_at = excluded.updated_at
           WHERE (cross_rates.value, cross_rates.source) IS DISTINCT FROM (excluded.value, excluded.source)
             AND NOT (cross_rates.source = 'BCCR' AND excluded.source = 'Hacienda')
           RETURNING (xmax = 0) AS inserted`,
          [trx('cross_rates').insert(chunk)],
        )) as { rows: Array<{ inserted: boolean }> };
        for (const row of result.rows) row.inserted ? inserted++ : updated++;
      }
      return { inserted, updated };
    },

    /** Logs what a run read, in one statement: a reading already logged is only counted and confirmed. */
    async observe(reading: CrossReading, trx: Knex = db): Promise<void> {
      if (reading.values.length === 0) return;
      const array = (values: ReadonlyArray<string | number>) => `{${values.join(',')}}`;
      await trx.raw(
        `INSERT INTO cross_observations AS o (currency, date, route, source, upstream, value, first_seen_at, last_confirmed_at)
         SELECT CAST(? AS text), r.date, CAST(? AS text), CAST(? AS text), CAST(? AS text), r.value, CAST(? AS timestamptz), CAST(? AS timestamptz)
         FROM unnest(CAST(? AS date[]), CAST(? AS numeric[])) AS r(date, value)
         ON CONFLICT (currency, date, route, value)
         DO UPDATE SET count = o.count + 1, last_confirmed_at = greatest(o.last_confirmed_at, excluded.last_confirmed_at)`,
        [
          reading.currency,
          reading.route,
          reading.source,
          reading.upstream,
          reading.observedAt,
          reading.observedAt,
          array(reading.values.map((v) => v.date)),
          array(reading.values.map((v) => v.value)),
        ],
      );
    },

    /** The values of one currency in `from..to`, ascending. */
    async range(currency: string, from: string, to: string): Promise<CrossRow[]> {
      const rows = (await db('cross_rates')
        .select('date', 'value', 'source', 'fetched_at')
        .where('currency', currency)
        .whereBetween('date', [from, to])
        .orderBy('date')) as Row[];
      return rows.map(toRow);
    },

    /** The greatest date stored for a currency, or null. */
    async lastDate(currency: string): Promise<string | null> {
      const row = await db('cross_rates').where({ currency }).max<{ max: string | null }>('date as max').first();
      return row?.max ?? null;
    },

    /** The greatest date stored from `source` for a currency, or null. */
    async lastDateFrom(currency: string, source: RateSource): Promise<string | null> {
      const row = await db('cross_rates').where({ currency, source }).max<{ max: string | null }>('date as max').first();
      return row?.max ?? null;
    },

    /**
     * The first stored day of each of `currencies`, and its latest day not after `today` (null
     * when it has none). Two lookups per currency on the primary key's index: a table of some
     * 400,000 rows is never scanned.
     */
    async spans(currencies: readonly string[], today: string): Promise<CurrencySpan[]> {
      const { rows } = (await db.raw(
        `SELECT c.currency,
           (SELECT min(date) FROM cross_rates r WHERE r.currency = c.currency) AS since,
           (SELECT max(date) FROM cross_rates r WHERE r.currency = c.currency AND r.date <= CAST(? AS date)) AS "latestDate"
         FROM unnest(CAST(? AS text[])) AS c(currency)`,
        [today, `{${currencies.join(',')}}`],
      )) as { rows: Array<{ currency: string; since: string | null; latestDate: string | null }> };
      return rows.flatMap((r) => (r.since === null ? [] : [{ currency: r.currency, since: r.since, latestDate: r.latestDate }]));
    },

    /** A day's readings and revisions, oldest first. */
    async history(currency: string, date: string): Promise<{ observations: CrossObservation[]; revisions: CrossRevision[] }> {
      const [observations, revisions] = await Promise.all([
        db('cross_observations')
          .select('source', 'upstream', 'value', 'first_seen_at', 'last_confirmed_at', 'count')
          .where({ currency, date })
          .orderBy('first_seen_at'),
        this.revisions(currency, date, date),
      ]);
      return {
        observations: (
          observations as Array<{ source: RateSource; upstream: string; value: number; first_seen_at: Date; last_confirmed_at: Date; count: number }>
        ).map((o) => ({
          source: o.source,
          upstream: o.upstream,
          value: o.value,
          firstSeenAt: o.first_seen_at.toISOString(),
          lastConfirmedAt: o.last_confirmed_at.toISOString(),
          count: o.count,
        })),
        revisions,
      };
    },

    /** Every revision of a currency's day in `from..to`, ascending by day, then by when it happened. */
    async revisions(currency: string, from: string, to: string): Promise<CrossRevision[]> {
      const rows = (await db('cross_revisions')
        .select('date', 'value', 'source', 'observed_at', 'new_value', 'new_source', 'replaced_at')
        .where({ currency })
        .whereBetween('date', [from, to])
        .orderBy([{ column: 'date' }, { column: 'replaced_at' }, { column: 'id' }])) as Array<{
        date: string;
        value: number;
        source: RateSource;
        observed_at: Date;
        new_value: number;
        new_source: RateSource;
        replaced_at: Date;
      }>;
      return rows.map((r) => ({
        date: r.date,
        value: r.value,
        source: r.source,
        observedAt: r.observed_at.toISOString(),
        newValue: r.new_value,
        newSource: r.new_source,
        replacedAt: r.replaced_at.toISOString(),
      }));
    },
  };
}

export type CrossRatesStore = ReturnType<typeof createCrossRatesStore>;
