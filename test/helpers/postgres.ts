/**
 * A private database on a real PostgreSQL server, whatever DATABASE_URL says: for the tests that
 * are about several instances (advisory locks, LISTEN/NOTIFY), which the embedded database cannot
 * show. Created next to the database the URL names and dropped afterwards, as in ./database.ts.
 */
import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { createDatabase, type Database } from '../../server/store/database';
import { migrate } from '../../server/store/migrations';
import type { TestDatabase } from './database';

export const POSTGRES_SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface PostgresTestDatabase extends TestDatabase {
  url: string;
  /** Another pool on the same database, as a second instance of the service would open. */
  connect(): Database;
}

export async function createPostgresTestDatabase(): Promise<PostgresTestDatabase> {
  const name = `crc_test_${randomBytes(6).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: POSTGRES_SERVER_URL, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_SERVER_URL);
  url.pathname = `/${name}`;
  const pools: Database[] = [];
  const connect = () => {
    const db = createDatabase({ databaseUrl: url.toString(), dataDir: null });
    pools.push(db);
    return db;
  };
  const db = connect();
  await migrate(db);
  return {
    db,
    url: url.toString(),
    connect,
    async drop() {
      await Promise.all(pools.map((pool) => pool.destroy()));
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    },
  };
}
