/**
 * A private database for one test file: in-memory PGlite by default, or, when DATABASE_URL is
 * set, a fresh PostgreSQL database created next to the one the URL names and dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import knex from 'knex';
import { createDatabase, type Database, DEADLINES } from '../../server/store/database';
import { migrate, migrationSource } from '../../server/store/migrations';

export interface TestDatabase {
  db: Database;
  /** The URL of the private PostgreSQL database, or null on the embedded one. */
  url: string | null;
  drop(): Promise<void>;
}

/**
 * The embedded database with every migration applied that test/global-setup.mjs wrote, as PGlite
 * loads it (`initialData`): a database started from it is ready at once, where an empty one first
 * runs initdb, seconds of CPU. Undefined when the tests run without that set-up.
 */
export async function migratedTemplate(): Promise<Blob | undefined> {
  const template = process.env.CRC_TEST_DATABASE_TEMPLATE;
  return template ? new Blob([await readFile(template)]) : undefined;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    // migrate() finds nothing to do on the template, and makes a database without it.
    const db = createDatabase({ databaseUrl: null, dataDir: null, initialData: await migratedTemplate() });
    await migrate(db);
    return { db, url: null, drop: () => db.destroy() };
  }
  const name = `crc_test_${randomBytes(6).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // The long deadlines: one database serves each file's requests and whole syncs alike, on a busy
  // CI machine. The request deadlines are tested where they are the point (store/deadlines.test.ts).
  const db = createDatabase({ databaseUrl: url.toString(), dataDir: null, deadlines: DEADLINES.work });
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

/**
 * Undoes migrations, newest first, until `name` is the last one applied: the schema as it was
 * before the later ones, for tests of what a migration does to rows already stored.
 */
export async function migrateDownTo(db: Database, name: string): Promise<void> {
  for (;;) {
    const [done] = (await db.migrate.list({ migrationSource })) as [Array<{ name: string }>, unknown];
    const last = done.at(-1)?.name;
    if (last === undefined) throw new Error(`${name} is not among the applied migrations`);
    if (last === name) return;
    await db.migrate.down({ migrationSource });
  }
}
