/**
 * The embedded server's memory floor: PGlite alone, opened as the embedded server opens it
 * (createTestDatabase), holding the same data (the full history and as many keys), with no app,
 * no cache, no requests. The embedded server's RSS reads against this one's: what is above it is
 * the service's own, what is below it PGlite's and Node's.
 *
 * Says `{"event":"ready","pid":…,"rssMb":…,"keys":n}` once seeded and collected; stops on SIGTERM
 * or when stdin closes.
 */
import { createTestDatabase } from '../test/helpers/database';
import { createBenchKeys, seedFullHistory } from './seed';

async function main(): Promise<void> {
  const keyCount = Number(process.env.BENCH_KEYS ?? 0);
  const database = await createTestDatabase();
  await seedFullHistory(database.db);
  const keys = await createBenchKeys(database.db, keyCount);
  // As the embedded server does before it listens: seeding's garbage is gone.
  globalThis.gc?.();
  process.stdout.write(`${JSON.stringify({ event: 'ready', pid: process.pid, rssMb: Math.round(process.memoryUsage().rss / 2 ** 20), keys: keys.length })}\n`);
  const stop = () => void database.drop().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.stdin.resume();
  process.stdin.on('end', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
