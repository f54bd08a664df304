/**
 * Monthly usage per key, counted in PostgreSQL so that a restart loses nothing and every instance
 * shares it. One statement both checks and counts, so concurrent requests can never push a key
 * past its quota, and none under it is refused.
 */
import type { Knex } from 'knex';

export function createUsageStore(db: Knex) {
  return {
    /** Counts one request if the key is under `limit` this month; returns the new count, or null when over. */
    async consume(keyId: number, month: string, limit: number): Promise<number | null> {
      const { rows } = (await db.raw(
        `INSERT INTO api_usage (key_id, month, count) SELECT ?, ?, 1 WHERE ? >= 1
         ON CONFLICT (key_id, month) DO UPDATE SET count = api_usage.count + 1 WHERE api_usage.count < ?
         RETURNING count`,
        [keyId, month, limit, limit],
      )) as { rows: Array<{ count: number }> };
      return rows[0]?.count ?? null;
    },

    async used(keyId: number, month: string): Promise<number> {
      const row = await db('api_usage').where({ key_id: keyId, month }).first<{ count: number } | undefined>('count');
      return row?.count ?? 0;
    },

    async usedByKey(month: string): Promise<Map<number, number>> {
      const rows = await db('api_usage').where({ month }).select<Array<{ key_id: number; count: number }>>('key_id', 'count');
      return new Map(rows.map((r) => [r.key_id, r.count]));
    },
  };
}

export type UsageStore = ReturnType<typeof createUsageStore>;

/** The first day of the UTC month of `now`, and the instant the next month starts. */
export function quotaMonth(now: Date): { month: string; resetsAt: Date } {
  const month = `${now.toISOString().slice(0, 7)}-01`;
  const resetsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { month, resetsAt };
}
