/**
 * Every call on PostgreSQL has a deadline: through a proxy in front of the real server that is
 * made to hang (paused) or vanish (killed), a query fails within about a second with an error
 * isDatabaseUnreachable() accepts (so the edge answers 503), and the same knex instance works
 * again once the server is back. Always on the PostgreSQL at 127.0.0.1:5432 (CI has it), whatever
 * driver the rest of the suite runs on.
 */
import { createDatabase, type Database, DEADLINES, type Deadlines, isDatabaseUnreachable } from '../../../server/store/database';
import { POSTGRES_SERVER_URL } from '../../helpers/postgres';
import { startTcpProxy, type TcpProxy } from '../../helpers/tcp-proxy';

const server = new URL(POSTGRES_SERVER_URL);
/** knex reports each failed connection on the console otherwise; here they are the point. */
const quiet = { warn: () => undefined, error: () => undefined, debug: () => undefined };

async function failure(work: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    await work;
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  throw new Error('expected the query to fail');
}

describe('database deadlines through a faulty network', () => {
  let proxy: TcpProxy;
  const pools: Database[] = [];
  const open = (deadlines: Deadlines = DEADLINES.request) => {
    const url = new URL(server);
    url.host = `127.0.0.1:${proxy.port}`;
    const db = createDatabase({ databaseUrl: url.toString(), dataDir: null, deadlines, logger: quiet });
    pools.push(db);
    return db;
  };

  beforeEach(async () => {
    proxy = await startTcpProxy(Number(server.port || 5432), server.hostname);
  });
  afterEach(async () => {
    await proxy.close();
    await Promise.all(pools.splice(0).map((db) => db.destroy()));
  });

  it('a hung server (paused) fails a query on an open connection within 1.5 s, and the same pool works once it is back', async () => {
    const db = open();
    expect((await db.raw('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    proxy.pause();

    const { error, ms } = await failure(db.raw('SELECT 1 AS one'));
    expect(ms).toBeLessThan(1500);
    expect(isDatabaseUnreachable(error)).toBe(true);
    // The next one too: the unanswered connection was thrown away, not queued behind.
    const again = await failure(db.raw('SELECT 2'));
    expect(again.ms).toBeLessThan(1500);
    expect(isDatabaseUnreachable(again.error)).toBe(true);

    await proxy.restore();
    expect((await db.raw('SELECT 3 AS three')).rows).toEqual([{ three: 3 }]);
  });

  it('a server that hangs before its first answer fails the connection within 1.5 s', async () => {
    const db = open();
    proxy.pause();
    const { error, ms } = await failure(db.raw('SELECT 1'));
    expect(ms).toBeLessThan(1500);
    expect(isDatabaseUnreachable(error)).toBe(true);
    await proxy.restore();
    expect((await db.raw('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('a server that went away (killed) fails at once; the same pool reconnects when it is back', async () => {
    const db = open();
    await db.raw('SELECT 1');
    await proxy.kill();

    for (let i = 0; i < 2; i++) {
      const { error, ms } = await failure(db.raw('SELECT 1'));
      expect(ms).toBeLessThan(1500);
      expect(isDatabaseUnreachable(error)).toBe(true);
    }

    await proxy.restore();
    expect((await db.raw('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('a request pool lets PostgreSQL cancel a slow statement (57014, still a 503) and keeps the connection', async () => {
    const db = open();
    const { error, ms } = await failure(db.raw('SELECT pg_sleep(5)'));
    expect(ms).toBeLessThan(1500);
    expect((error as { code?: string }).code).toBe('57014');
    expect(isDatabaseUnreachable(error)).toBe(true);
    expect((await db.raw('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('a work pool (migrations, syncs) is not cut short by the request deadlines', async () => {
    const db = open(DEADLINES.work);
    const started = performance.now();
    await db.raw('SELECT pg_sleep(1.5)');
    expect(performance.now() - started).toBeGreaterThan(1400);
  });

  it('a work pool still gives up on a hung server (at its own, longer deadline)', async () => {
    const db = open({ ...DEADLINES.work, readMs: 300 });
    await db.raw('SELECT 1');
    proxy.pause();
    const { error, ms } = await failure(db.raw('SELECT 1'));
    expect(ms).toBeLessThan(1000);
    expect(isDatabaseUnreachable(error)).toBe(true);
  });
});
