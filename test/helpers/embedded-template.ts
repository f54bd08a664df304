/**
 * Writes an embedded database with every migration applied, as PGlite dumps its files, to the
 * path given: test/global-setup.mjs runs it once (in a process of its own, which gives PGlite's
 * memory back when it ends), and each test's database starts from that copy
 * (test/helpers/database.ts) instead of creating and migrating one of its own, a few seconds each.
 *
 *   node --import tsx test/helpers/embedded-template.ts FILE
 */
import { writeFile } from 'node:fs/promises';
import { createDatabase, embeddedHandle } from '../../server/store/database';
import { migrate } from '../../server/store/migrations';

async function main(file: string): Promise<void> {
  const db = createDatabase({ databaseUrl: null, dataDir: null });
  try {
    await migrate(db);
    const handle = embeddedHandle(db);
    if (!handle) throw new Error('not an embedded database');
    const dump = await handle.pglite.dumpDataDir('none');
    await writeFile(file, new Uint8Array(await dump.arrayBuffer()));
  } finally {
    await db.destroy();
  }
}

const [file] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node --import tsx test/helpers/embedded-template.ts FILE\n');
  process.exit(2);
}
main(file).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
