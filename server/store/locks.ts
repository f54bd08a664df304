/**
 * PostgreSQL advisory locks, so that one instance syncs while the others skip. The lock belongs
 * to a database session, so the work runs while one pooled connection is held for it.
 */
import type { Knex } from 'knex';
import { isEmbedded } from './database';

export const LOCKS = {
  /** Any fixed 64-bit number; it only has to be the same in every instance. */
  officialSync: 72_830_001,
  bankingSync: 72_830_002,
  currenciesSync: 72_830_003,
  monexSync: 72_830_004,
} as const;

interface RawConnection {
  query(sql: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** The keys this process holds on each embedded database. */
const heldOnEmbedded = new WeakMap<Knex, Set<number>>();

/** Runs `work` holding the lock, or returns `{ acquired: false }` at once if another session has it. */
export async function withAdvisoryLock<T>(db: Knex, key: number, work: () => Promise<T>): Promise<{ acquired: true; value: T } | { acquired: false }> {
  if (isEmbedded(db)) {
    // The embedded database has a single session shared by the whole process, and a session is
    // granted an advisory lock it already holds again: so the process keeps its own runs apart
    // here (checked and taken synchronously). No other process can open the same files.
    const held = heldOnEmbedded.get(db) ?? new Set<number>();
    heldOnEmbedded.set(db, held);
    if (held.has(key)) return { acquired: false };
    held.add(key);
    try {
      return { acquired: true, value: await work() };
    } finally {
      held.delete(key);
    }
  }
  const connection = (await db.client.acquireConnection()) as RawConnection;
  try {
    const { rows } = await connection.query('SELECT pg_try_advisory_lock($1) AS ok', [key]);
    if (!rows[0]?.ok) return { acquired: false };
    try {
      return { acquired: true, value: await work() };
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } finally {
    await db.client.releaseConnection(connection);
  }
}
