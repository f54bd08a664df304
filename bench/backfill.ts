/** Time of a full backfill (1983 → today) from a local fake of the central bank, on a fresh database. */
import pino from 'pino';
import { createLocalChangeFeed } from '../server/changes';
import { syncOfficial } from '../server/jobs/catch-up';
import { createOfficialSources } from '../server/sources';
import { createRatesStore } from '../server/store/rates';
import type { Database } from '../server/store/database';
import { startFakeUpstream } from '../test/fakes/bccr-upstream';

export interface Backfill {
  days: number;
  ms: number;
  runs: number;
}

/** `open` gives a fresh, migrated database and a way to drop it. */
export async function benchBackfill(open: () => Promise<{ db: Database; drop(): Promise<void> }>): Promise<Backfill> {
  const fake = await startFakeUpstream();
  const database = await open();
  try {
    // The token API answers a year per request, as the real one does.
    const sources = createOfficialSources({ bccrToken: fake.token, bccrApiUrl: fake.sddeUrl, bccrSiteApiUrl: fake.siteUrl, haciendaUrl: fake.haciendaUrl });
    const deps = { db: database.db, logger: pino({ level: 'silent' }), changes: createLocalChangeFeed(), clock: () => new Date() };
    const started = process.hrtime.bigint();
    const result = await syncOfficial(deps, sources);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (!result.ok) throw new Error(`backfill failed: ${result.runs.map((r) => r.error).join('; ')}`);
    const stored = await createRatesStore(database.db).range('1983-01-01', '2100-01-01');
    return { days: stored.length, ms: Math.round(ms), runs: result.runs.length };
  } finally {
    await database.drop();
    await fake.close();
  }
}
