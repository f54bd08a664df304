/**
 * The embedded database runs each statement on this process's thread: statements queued at once
 * must leave the event loop turns between them, or the server reads no request until the last.
 */
import { createDatabase, type Database } from '../../../server/store/database';
import { createSessionLock } from '../../../server/store/embedded/session-lock';
import { migratedTemplate } from '../../helpers/database';

describe('the embedded database under a queue of statements', () => {
  let db: Database;

  beforeAll(async () => {
    db = createDatabase({ databaseUrl: null, dataDir: null, initialData: await migratedTemplate() });
    await db.raw('SELECT 1');
  });
  afterAll(() => db.destroy());

  it('lets the event loop turn between statements queued at once', async () => {
    let turns = 0;
    let counting = true;
    const count = () => {
      if (!counting) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => db.raw('SELECT ?::int AS n', [i])));
    counting = false;
    expect(results.map((result) => (result as { rows: Array<{ n: number }> }).rows[0]?.n)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    // Each statement after the first waits for a turn: back to back, they left none.
    expect(turns).toBeGreaterThanOrEqual(150);
  });
});

describe('the session lock', () => {
  it('serves its waiters in order, and skips one that has timed out', async () => {
    const lock = createSessionLock();
    const first = await lock.acquire(1000);
    const order: string[] = [];
    const late = lock.acquire(1).then(
      () => order.push('late (must not be granted)'),
      () => order.push('late timed out'),
    );
    const second = lock.acquire(5000).then((release) => {
      order.push('second');
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    first();
    (await second)();
    await late;
    expect(order).toEqual(['late timed out', 'second']);
    expect(lock.held).toBe(false);
  });

  it('is free again when its holder releases it with nobody waiting', async () => {
    const lock = createSessionLock();
    (await lock.acquire(1000))();
    expect(lock.held).toBe(false);
    const again = await lock.acquire(1000);
    expect(lock.held).toBe(true);
    again();
  });
});
