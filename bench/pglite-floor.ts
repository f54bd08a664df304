/**
 * The embedded server's memory floor: PGlite alone, opened as the embedded server opens it
 * (createTestDatabase), holding the same data (the full history and as many keys), with no app,
 * no cache, no requests. The embedded server's RSS reads against this one's: what is above it is
 * the service's own, what is below it PGlite's and Node's.
 *
 * Says `{"event":"ready","pid":…,"rssMb":…,"keys":n}` once seeded and its RSS settled; stops on SIGTERM
 * or when stdin closes.
 */
import { createTestDatabase } from '../test/helpers/database';
import { createBenchKeys, seedFullHistory } from './seed';
import { settledRssMb } from './settled-rss';

async function main(): Promise<void> {
  const keyCount = Number(process.env.BENCH_KEYS ?? 0);
  const database = await createTestDatabase();
  await seedFullHistory(database.db);
  const keys = await createBenchKeys(database.db, keyCount);
  const rssMb = await settledRssMb();
  process.stdout.write(`${JSON.stringify({ event: 'ready', pid: process.pid, rssMb, keys: keys.length })}\n`);
  const stop = () => void database.drop().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.stdin.resume();
  process.stdin.on('end', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
