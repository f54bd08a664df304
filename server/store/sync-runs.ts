/** The record of sync runs: started, finished, what they stored and why they failed. */
import type { Knex } from 'knex';

export type SyncKind = 'official' | 'banking' | 'currencies' | 'monex' | 'provisional';

export interface SyncCounts {
  inserted: number;
  updated: number;
  rejected: number;
  missing: number;
}

export interface SyncRun extends SyncCounts {
  id: number;
  kind: SyncKind;
  source: string;
  spanFrom: string | null;
  spanTo: string | null;
  status: 'running' | 'succeeded' | 'failed';
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
}

interface SyncRunRow {
  id: number;
  kind: SyncKind;
  source: string;
  span_from: string | null;
  span_to: string | null;
  status: SyncRun['status'];
  started_at: Date;
  finished_at: Date | null;
  inserted: number;
  updated: number;
  rejected: number;
  missing: number;
  error: string | null;
}

const toRun = (r: SyncRunRow): SyncRun => ({
  id: r.id,
  kind: r.kind,
  source: r.source,
  spanFrom: r.span_from,
  spanTo: r.span_to,
  status: r.status,
  startedAt: r.started_at.toISOString(),
  finishedAt: r.finished_at?.toISOString() ?? null,
  inserted: r.inserted,
  updated: r.updated,
  rejected: r.rejected,
  missing: r.missing,
  error: r.error,
});

export function createSyncRunsStore(db: Knex) {
  const table = () => db<SyncRunRow>('sync_runs');
  return {
    async start(run: { kind: SyncKind; source: string; spanFrom: string; spanTo: string; startedAt: Date }): Promise<number> {
      const [row] = await table()
        .insert({ kind: run.kind, source: run.source, span_from: run.spanFrom, span_to: run.spanTo, status: 'running', started_at: run.startedAt })
        .returning('id');
      return (row as { id: number }).id;
    },

    async finish(id: number, outcome: { status: 'succeeded' | 'failed'; counts: SyncCounts; error?: string; finishedAt: Date }, trx: Knex = db): Promise<void> {
      await trx<SyncRunRow>('sync_runs')
        .where({ id })
        .update({ status: outcome.status, finished_at: outcome.finishedAt, error: outcome.error ?? null, ...outcome.counts });
    },

    /** When the last successful run of this kind ended, or null. */
    async lastSucceededAt(kind: SyncKind): Promise<string | null> {
      const row = await table().where({ kind, status: 'succeeded' }).max<{ max: Date | null }>('finished_at as max').first();
      return row?.max ? row.max.toISOString() : null;
    },

    /** The last `limit` runs of this kind, newest first (what health and the empty-series 404 explain). */
    async latest(kind: SyncKind, limit: number): Promise<SyncRun[]> {
      const rows = await table().where({ kind }).orderBy('id', 'desc').limit(limit);
      return rows.map(toRun);
    },

    /** How many runs there are of each kind and outcome (the metrics' sync counter). */
    async countsByOutcome(): Promise<Array<{ kind: string; status: string; count: number }>> {
      const rows = await table()
        .select('kind', 'status')
        .count<Array<{ kind: string; status: string; count: number | string }>>('* as count')
        .groupBy('kind', 'status');
      return rows.map((row) => ({ kind: row.kind, status: row.status, count: Number(row.count) }));
    },

    async recent(limit = 20): Promise<SyncRun[]> {
      const rows = await table().orderBy('id', 'desc').limit(limit);
      return rows.map(toRun);
    },
  };
}

export type SyncRunsStore = ReturnType<typeof createSyncRunsStore>;
