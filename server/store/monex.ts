/**
 * MONEX days (migration 012): what the central bank published per day, session or not, the log of
 * what each sync read, and the figures days had before they were revised. `writeSessions` is the
 * one write of new or changed days, and says which dates those were, so that whatever must happen
 * in the same transaction as a stored session (an event to deliver) hooks in there.
 */
import type { Knex } from 'knex';
import type { RateSource } from '../../shared/currencies';
import type { MonexSession } from '../../shared/types';
import type { MonexObservation } from '../domain/monex-provenance';

export interface MonexInput {
  date: string;
  session: boolean;
  /** Null on a day without a session, as are the other figures. */
  average: number | null;
  min: number | null;
  max: number | null;
  volume: number | null;
  volumeUnit: string | null;
  source: RateSource;
  fetchedAt: Date;
}

export type MonexRow = MonexInput;

/** A stored day as the API serves it (and as `monex.session` carries it). */
export function sessionOf(row: MonexRow): MonexSession {
  return {
    date: row.date,
    session: row.session,
    average: row.average,
    min: row.min,
    max: row.max,
    volume: row.volume,
    volumeUnit: row.volumeUnit,
    source: row.source,
    fetchedAt: row.fetchedAt.toISOString(),
  };
}

export interface MonexReading {
  route: string;
  source: RateSource;
  /** Where it was read, in words (`BCCR SDDE indicators 3439 3436 3437 3446`). */
  upstream: string;
  observedAt: Date;
  /** Each day's four numbers as published, `average/min/max/volume` (0s included; no commas nor spaces). */
  values: ReadonlyArray<{ date: string; reading: string }>;
}

export interface MonexRevision {
  date: string;
  before: Pick<MonexRow, 'session' | 'average' | 'min' | 'max' | 'volume' | 'source'>;
  after: Pick<MonexRow, 'session' | 'average' | 'min' | 'max' | 'volume' | 'source'>;
  observedAt: string;
  replacedAt: string;
}

/** A stored day with its readings (oldest first) and its revisions (oldest first). */
export interface MonexDayLog {
  row: MonexRow;
  observations: MonexObservation[];
  revisions: MonexRevision[];
}

export interface WrittenSessions {
  inserted: number;
  updated: number;
  /** The dates stored for the first time or with other figures, ascending. */
  changed: string[];
}

interface Row {
  date: string;
  session: boolean;
  average: number | null;
  min: number | null;
  max: number | null;
  volume: number | null;
  volume_unit: string | null;
  source: RateSource;
  fetched_at: Date;
}

const COLUMNS = ['date', 'session', 'average', 'min', 'max', 'volume', 'volume_unit', 'source', 'fetched_at'];

const toRow = (r: Row): MonexRow => ({
  date: r.date,
  session: r.session,
  average: r.average,
  min: r.min,
  max: r.max,
  volume: r.volume,
  volumeUnit: r.volume_unit,
  source: r.source,
  fetchedAt: r.fetched_at,
});

export function createMonexStore(db: Knex) {
  return {
    /** Inserts new days and replaces changed ones (an equal day is left alone); the trigger keeps what a replaced day had. */
    async writeSessions(rows: readonly MonexInput[], trx: Knex = db): Promise<WrittenSessions> {
      const written: WrittenSessions = { inserted: 0, updated: 0, changed: [] };
      for (let i = 0; i < rows.length; i += 500) {
        const chunk = rows.slice(i, i + 500).map((r) => ({
          date: r.date,
          session: r.session,
          average: r.average,
          min: r.min,
          max: r.max,
          volume: r.volume,
          volume_unit: r.volumeUnit,
          source: r.source,
          fetched_at: r.fetchedAt,
          updated_at: trx.fn.now(),
        }));
        const result = (await trx.raw(
          `? ON CONFLICT (date) DO UPDATE SET session = excluded.session, average = excluded.average, min = excluded.min,
             max = excluded.max, volume = excluded.volume, volume_unit = excluded.volume_unit, source = excluded.source,
             fetched_at = excluded.fetched_at, updated_at = excluded.updated_at
           WHERE (monex_sessions.session, monex_sessions.average, monex_sessions.min, monex_sessions.max, monex_sessions.volume,
                  monex_sessions.volume_unit, monex_sessions.source)
             IS DISTINCT FROM (excluded.session, excluded.average, excluded.min, excluded.max, excluded.volume, excluded.volume_unit, excluded.source)
           RETURNING date, (xmax = 0) AS inserted`,
          [trx('monex_sessions').insert(chunk)],
        )) as { rows: Array<{ date: string; inserted: boolean }> };
        for (const row of result.rows) {
          if (row.inserted) written.inserted++;
          else written.updated++;
          written.changed.push(row.date);
        }
      }
      written.changed.sort();
      return written;
    },

    /** Logs what a run read, in one statement: a reading already logged is only counted and confirmed. */
    async observe(reading: MonexReading, trx: Knex = db): Promise<void> {
      if (reading.values.length === 0) return;
      await trx.raw(
        `INSERT INTO monex_observations AS o (date, route, source, upstream, reading, first_seen_at, last_confirmed_at)
         SELECT r.date, CAST(? AS text), CAST(? AS text), CAST(? AS text), r.reading, CAST(? AS timestamptz), CAST(? AS timestamptz)
         FROM unnest(CAST(? AS date[]), CAST(? AS text[])) AS r(date, reading)
         ON CONFLICT (date, route, reading)
         DO UPDATE SET count = o.count + 1, last_confirmed_at = greatest(o.last_confirmed_at, excluded.last_confirmed_at)`,
        [
          reading.route,
          reading.source,
          reading.upstream,
          reading.observedAt,
          reading.observedAt,
          `{${reading.values.map((v) => v.date).join(',')}}`,
          `{${reading.values.map((v) => v.reading).join(',')}}`,
        ],
      );
    },

    /** The stored days of `from..to`, ascending (days the central bank published nothing for are absent). */
    async range(from: string, to: string): Promise<MonexRow[]> {
      const rows = (await db('monex_sessions').select(COLUMNS).whereBetween('date', [from, to]).orderBy('date')) as Row[];
      return rows.map(toRow);
    },

    /** A stored day with its readings and revisions, read in one transaction; null when the day is not stored. */
    async ofDay(date: string): Promise<MonexDayLog | null> {
      return db.transaction(async (trx) => {
        const row = (await trx('monex_sessions').select(COLUMNS).where({ date }).first()) as Row | undefined;
        if (!row) return null;
        const observations = (await trx('monex_observations')
          .select('source', 'upstream', 'reading', 'first_seen_at', 'last_confirmed_at', 'count')
          .where({ date })
          .orderBy([{ column: 'first_seen_at' }, { column: 'route' }])) as Array<{
          source: RateSource;
          upstream: string;
          reading: string;
          first_seen_at: Date;
          last_confirmed_at: Date;
          count: number;
        }>;
        return {
          row: toRow(row),
          observations: observations.map((o) => ({
            source: o.source,
            upstream: o.upstream,
            reading: o.reading,
            firstSeenAt: o.first_seen_at.toISOString(),
            lastConfirmedAt: o.last_confirmed_at.toISOString(),
            count: o.count,
          })),
          revisions: await createMonexStore(trx).revisions(date, date),
        };
      });
    },

    /** The latest day with a session, not after `today`. */
    async latestSession(today: string): Promise<MonexRow | null> {
      const row = (await db('monex_sessions').select(COLUMNS).where('session', true).where('date', '<=', today).orderBy('date', 'desc').first()) as
        | Row
        | undefined;
      return row ? toRow(row) : null;
    },

    /** The last day stored (session or not): every day up to it is known, null when nothing is. */
    async knownThrough(): Promise<string | null> {
      const row = await db('monex_sessions').max<{ max: string | null }>('date as max').first();
      return row?.max ?? null;
    },

    /** The greatest date stored from `source`, or null. */
    async lastDateFrom(source: RateSource): Promise<string | null> {
      const row = await db('monex_sessions').where({ source }).max<{ max: string | null }>('date as max').first();
      return row?.max ?? null;
    },

    /** Every revision of a day in `from..to`, ascending by day, then by when it happened. */
    async revisions(from: string, to: string): Promise<MonexRevision[]> {
      const rows = (await db('monex_revisions')
        .select('*')
        .whereBetween('date', [from, to])
        .orderBy([{ column: 'date' }, { column: 'replaced_at' }, { column: 'id' }])) as Array<
        Omit<Row, 'volume_unit' | 'fetched_at'> & {
          observed_at: Date;
          new_session: boolean;
          new_average: number | null;
          new_min: number | null;
          new_max: number | null;
          new_volume: number | null;
          new_source: RateSource;
          replaced_at: Date;
        }
      >;
      return rows.map((r) => ({
        date: r.date,
        before: { session: r.session, average: r.average, min: r.min, max: r.max, volume: r.volume, source: r.source },
        after: { session: r.new_session, average: r.new_average, min: r.new_min, max: r.new_max, volume: r.new_volume, source: r.new_source },
        observedAt: r.observed_at.toISOString(),
        replacedAt: r.replaced_at.toISOString(),
      }));
    },
  };
}

export type MonexStore = ReturnType<typeof createMonexStore>;
