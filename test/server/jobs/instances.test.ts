/**
 * Several instances on one PostgreSQL database (always a real server here: the embedded database
 * has a single session and no other process): one syncs while the others skip, and a sync in one
 * drops the cached answers of all of them, over LISTEN/NOTIFY or Redis pub/sub.
 */
import { addDays } from '../../../shared/dates';
import type { ExchangeRate } from '../../../shared/types';
import type { ChangeFeed } from '../../../server/changes';
import { createPostgresChangeFeed, createRedisChangeFeed } from '../../../server/changes-remote';
import { catchUpOfficial, type CatchUpResult } from '../../../server/jobs/catch-up';
import { createSyncRunsStore } from '../../../server/store/sync-runs';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { startTestApp, type TestApp } from '../../helpers/app';
import { createPostgresTestDatabase, type PostgresTestDatabase } from '../../helpers/postgres';
import { clearTables, createTestKey, fakeSources, noonInCostaRica, silentLogger, syncDeps, waitFor } from '../../helpers/sync';

const TODAY = '2026-11-20';
const clock = () => noonInCostaRica(TODAY);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const HANG_TIMEOUT_MS = 1500;

let fake: FakeUpstream;
let database: PostgresTestDatabase;

beforeAll(async () => {
  fake = await startFakeUpstream({ today: TODAY });
  database = await createPostgresTestDatabase();
});
afterAll(async () => {
  await fake.close();
  await database.drop();
});
beforeEach(async () => {
  await clearTables(database.db);
  fake.setFault('sdde', null);
  fake.setRates(null);
  fake.requests.length = 0;
});

it('lets exactly one instance sync at a time; the other returns ran:false at once', async () => {
  const span = { from: '2026-01-01', to: '2026-03-31' };
  const instances = {
    A: syncDeps(database.db, clock),
    B: syncDeps(database.connect(), clock),
  };
  // The first request hangs until the timeout, so whoever wins holds the lock for a while.
  fake.setFault('sdde', { kind: 'hang', times: 1 });
  const settled: string[] = [];
  const sync = async (name: keyof typeof instances): Promise<[string, CatchUpResult]> => {
    const { sources } = fakeSources(fake, 'sdde', { timeoutMs: HANG_TIMEOUT_MS, retries: 1 });
    const result = await catchUpOfficial(instances[name], sources, span);
    settled.push(name);
    return [name, result];
  };

  const results = await Promise.all([sync('A'), sync('B')]);

  const winners = results.filter(([, r]) => r.ran);
  const losers = results.filter(([, r]) => !r.ran);
  expect(winners).toHaveLength(1);
  expect(losers).toHaveLength(1);
  const [[winner, won], [loser, lost]] = [winners[0]!, losers[0]!];
  // The loser did not wait for the winner's hung request: it was back first, having done nothing.
  expect(settled).toEqual([loser, winner]);
  expect(lost).toEqual({ ran: false, ok: true, runs: [], unfilled: [] });
  expect(won).toMatchObject({ ran: true, ok: true });
  expect(won.runs).toEqual([expect.objectContaining({ status: 'succeeded', inserted: 90, updated: 0 })]);
  expect(await createSyncRunsStore(database.db).recent()).toHaveLength(1);
  // One hung request, its retry, then the sell side: nobody else asked.
  expect(fake.requests.filter((r) => r.route === 'sdde')).toHaveLength(3);

  // The lock is released afterwards: the other instance can sync now.
  const { sources } = fakeSources(fake, 'sdde');
  const later = await catchUpOfficial(instances[loser as keyof typeof instances], sources, span);
  expect(later).toMatchObject({ ran: true, ok: true });
  expect(later.runs[0]).toMatchObject({ inserted: 0, updated: 0 });
});

describe.each<[string, () => Promise<ChangeFeed>]>([
  ['PostgreSQL LISTEN/NOTIFY', () => createPostgresChangeFeed(database.url, silentLogger)],
  ['Redis pub/sub', () => createRedisChangeFeed(REDIS_URL, silentLogger)],
])('cache invalidation across instances over %s', (_name, openFeed) => {
  const opened: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const thing of opened.splice(0).reverse()) await thing.close();
  });

  async function startInstance(): Promise<{ app: TestApp; changes: ChangeFeed; deps: ReturnType<typeof syncDeps> }> {
    const changes = await openFeed();
    opened.push(changes);
    const db = database.connect();
    const app = await startTestApp({ database: { ...database, db }, changes, clock });
    opened.push(app);
    return { app, changes, deps: syncDeps(db, clock, changes) };
  }

  it('B’s cached /exchange-rate/latest changes shortly after A syncs a changed value', async () => {
    const a = await startInstance();
    const b = await startInstance();
    const { sources } = fakeSources(fake, 'sdde');
    expect(await catchUpOfficial(a.deps, sources, { from: addDays(TODAY, -10), to: TODAY })).toMatchObject({ ran: true, ok: true });
    const key = await createTestKey(database.db);
    const latestFromB = async () => (await b.app.get('/exchange-rate/latest', key)).body.data as ExchangeRate;

    const first = await latestFromB();
    expect(first).toMatchObject({ date: TODAY, ...fake.rateFor(TODAY) });
    // B really serves from its cache: a write nobody announces does not show.
    await database
      .db('exchange_rates')
      .where({ date: TODAY })
      .update({ buy: first.buy - 0.01 });
    expect(await latestFromB()).toEqual(first);

    const changed = { buy: first.buy + 2, sell: first.sell + 2 };
    fake.setRates((date) => (date === TODAY ? changed : undefined));
    const sync = await catchUpOfficial(a.deps, sources);
    expect(sync).toMatchObject({ ran: true, ok: true });
    expect(sync.runs[0]).toMatchObject({ updated: 1 });

    const seen = await waitFor(
      async () => {
        const latest = await latestFromB();
        return latest.buy === first.buy ? undefined : latest;
      },
      'instance B to drop its cached answer',
      5000,
    );
    expect(seen).toMatchObject({ date: TODAY, ...changed, source: 'BCCR' });
    expect((await a.app.get('/exchange-rate/latest', key)).body.data).toMatchObject(changed);
  });
});
