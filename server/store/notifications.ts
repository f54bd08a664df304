/**
 * The SQL of the change feeds: PostgreSQL's LISTEN and pg_notify on the one channel every process
 * of a database shares, for a pg client of its own (PostgreSQL) or the knex session (the embedded
 * database's shared session). The feeds themselves (who listens, what a message says) live in
 * server/changes*.ts.
 */
import type { Client } from 'pg';
import type { Database } from './database';

/** The channel of every change notice; an identifier, so LISTEN can name it. */
export const CHANGES_CHANNEL = 'crc_rates_changes';

/** Starts hearing the channel's notices on this connection. */
export async function listenForChanges(connection: Client | Database): Promise<void> {
  if ('raw' in connection) await connection.raw(`LISTEN ${CHANGES_CHANNEL}`);
  else await connection.query(`LISTEN ${CHANGES_CHANNEL}`);
}

/** Sends a notice to every connection listening on the channel. */
export async function notifyChange(connection: Client | Database, message: string): Promise<void> {
  if ('raw' in connection) await connection.raw('SELECT pg_notify(?, ?)', [CHANGES_CHANNEL, message]);
  else await connection.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, message]);
}
