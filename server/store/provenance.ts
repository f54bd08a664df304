/**
 * The provenance log (migration 008): what each sync read, and the values days had before they
 * were revised. Revisions are written by a trigger on exchange_rates; observations here.
 */
import type { Knex } from 'knex';
import type { RateSource } from '../../shared/currencies';
import type { ExchangeRate, ProvenanceRevision, Revision } from '../../shared/types';
import type { Observation, UpstreamNames } from '../domain/provenance';
import { type RateRow, toRecord } from './rates';

/** A timestamp as JSON carries it from SQL: the text `Date.prototype.toISOString()` writes. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

interface ProvenanceRow extends RateRow {
  observations: Array<Omit<Observation, 'upstream'> & { upstreamBuy: string; upstreamSell: string }>;
  revisions: ProvenanceRevision[];
}

interface RevisionRow {
  date: string;
  buy: number;
  sell: number;
  source: RateSource;
  new_buy: number;
  new_sell: number;
  new_source: RateSource;
  replaced_at: Date;
}

/** What one sync run read from one upstream, at one time. */
export interface Reading {
  /** The adapter that read it (`bccr-sdde`, `bccr-site`, `hacienda`). */
  route: string;
  source: RateSource;
  upstream: UpstreamNames;
  observedAt: Date;
  rates: ReadonlyArray<{ date: string; buy: number; sell: number }>;
}

export interface DayProvenance {
  record: ExchangeRate;
  observations: Observation[];
  /** Oldest first. */
  revisions: ProvenanceRevision[];
}

export function createProvenanceStore(db: Knex) {
  return {
    /**
     * Logs what one sync run read from one upstream, in one statement however many days: a
     * reading the log already has (same day, route and values) is only counted again and
     * confirmed. Arrays rather than JSON: parsing 16,000 JSON records cost the backfill more than
     * writing them.
     */
    async observe(reading: Reading, trx: Knex = db): Promise<void> {
      if (reading.rates.length === 0) return;
      // Dates and plain numbers need no quoting inside an array literal.
      const array = (values: ReadonlyArray<string | number>) => `{${values.join(',')}}`;
      await trx.raw(
        `INSERT INTO rate_observations AS o (date, route, source, upstream_buy, upstream_sell, buy, sell, first_seen_at, last_confirmed_at)
         SELECT r.date, CAST(? AS text), CAST(? AS text), CAST(? AS text), CAST(? AS text), r.buy, r.sell, CAST(? AS timestamptz), CAST(? AS timestamptz)
         FROM unnest(CAST(? AS date[]), CAST(? AS numeric[]), CAST(? AS numeric[])) AS r(date, buy, sell)
         ON CONFLICT (date, route, buy, sell)
         DO UPDATE SET count = o.count + 1, last_confirmed_at = greatest(o.last_confirmed_at, excluded.last_confirmed_at)`,
        [
          reading.route,
          reading.source,
          reading.upstream.buy,
          reading.upstream.sell,
          reading.observedAt,
          reading.observedAt,
          array(reading.rates.map((r) => r.date)),
          array(reading.rates.map((r) => r.buy)),
          array(reading.rates.map((r) => r.sell)),
        ],
      );
    },

    /** A day's record with its observations and revisions, read in one statement (one snapshot); null without a record. */
    async ofDay(date: string): Promise<DayProvenance | null> {
      const { rows } = (await db.raw(
        `SELECT e.date, e.buy, e.sell, e.source, e.fetched_at,
           (SELECT coalesce(json_agg(json_build_object('source', source, 'upstreamBuy', upstream_buy, 'upstreamSell', upstream_sell, 'buy', buy, 'sell', sell,
                     'firstSeenAt', ${iso('first_seen_at')}, 'lastConfirmedAt', ${iso('last_confirmed_at')}, 'count', count) ORDER BY first_seen_at), '[]')
            FROM rate_observations WHERE date = e.date) AS observations,
           (SELECT coalesce(json_agg(json_build_object('buy', buy, 'sell', sell, 'source', source,
                     'observedAt', ${iso('observed_at')}, 'replacedAt', ${iso('replaced_at')}) ORDER BY replaced_at, id), '[]')
            FROM rate_revisions WHERE date = e.date) AS revisions
         FROM exchange_rates e WHERE e.date = ?`,
        [date],
      )) as { rows: ProvenanceRow[] };
      const row = rows[0];
      if (!row) return null;
      return {
        record: toRecord(row),
        observations: row.observations.map(({ upstreamBuy, upstreamSell, ...o }) => ({ ...o, upstream: { buy: upstreamBuy, sell: upstreamSell } })),
        revisions: row.revisions,
      };
    },

    /** Every revision of a day in `from..to`, ascending by day, then by when it happened. */
    async revisions(from: string, to: string): Promise<Revision[]> {
      const rows = await db<RevisionRow>('rate_revisions')
        .select('date', 'buy', 'sell', 'source', 'new_buy', 'new_sell', 'new_source', 'replaced_at')
        .whereBetween('date', [from, to])
        .orderBy([{ column: 'date' }, { column: 'replaced_at' }, { column: 'id' }]);
      return rows.map((r) => ({
        date: r.date,
        before: { buy: r.buy, sell: r.sell, source: r.source },
        after: { buy: r.new_buy, sell: r.new_sell, source: r.new_source },
        revisedAt: r.replaced_at.toISOString(),
      }));
    },
  };
}

export type ProvenanceStore = ReturnType<typeof createProvenanceStore>;
