/**
 * A private database for one test file: in-memory PGlite by default, or, when DATABASE_URL is
 * set, a fresh PostgreSQL database created next to the one the URL names and dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { createDatabase, type Database } from '../../server/store/database';
import { migrate } from '../../server/store/migrations';

export interface TestDatabase {
  db: Database;
  /** The URL of the private PostgreSQL database, or null on the embedded one. */
  url: string | null;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const db = createDatabase({ databaseUrl: null, dataDir: null });
    await migrate(db);
    return { db, url: null, drop: () => db.destroy() };
  }
  const name = `crc_test_${randomBytes(6).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDatabase({ databaseUrl: url.toString(), dataDir: null });
  await migrate(db);
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.destroy();
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    },
  };
}
