import { createLocalChangeFeed } from '../../../server/changes';
import { createRatesInMemory, SERIES_TTL_MS } from '../../../server/store/rates-in-memory';
import { createRatesStore } from '../../../server/store/rates';
import { rate } from '../../helpers/app';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

describe('the official series in memory', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await createRatesStore(database.db).upsert([rate('2025-01-10', 500, 510), rate('2025-01-11', 501, 511), rate('2025-01-13', 503, 513)]);
  });
  afterAll(() => database.drop());

  it('answers like the database: latest not after today, a day, a window', async () => {
    const store = createRatesStore(database.db);
    const memory = createRatesInMemory(store, createLocalChangeFeed().onRatesChanged);
    for (const today of ['2025-01-09', '2025-01-10', '2025-01-12', '2025-01-13', '2030-01-01']) {
      expect(await memory.latest(today)).toEqual(await store.latest(today));
    }
    for (const day of ['2025-01-09', '2025-01-11', '2025-01-12', '2025-01-13']) expect(await memory.byDate(day)).toEqual(await store.byDate(day));
    for (const [from, to] of [
      ['2025-01-01', '2025-01-31'],
      ['2025-01-11', '2025-01-11'],
      ['2025-01-12', '2025-01-12'],
      ['2025-01-11', '2025-01-13'],
      ['2026-01-01', '2026-02-01'],
    ]) {
      expect(await memory.range(from, to)).toEqual(await store.range(from, to));
      expect((await memory.points(from, to)).map((p) => [p.date, p.buy, p.sell])).toEqual((await store.points(from, to)).map((p) => [p.date, p.buy, p.sell]));
      const columns = await memory.columns(from, to);
      const stored = await store.columns(from, to);
      for (const column of ['days', 'buys', 'sells'] as const) expect(Array.from(columns[column])).toEqual(Array.from(stored[column]));
      expect(columns.days.length).toBe(stored.days.length);
      for (let i = 0; i < columns.days.length; i++) {
        expect(columns.date(i)).toBe(stored.date(i));
        expect(columns.point(i)).toEqual(stored.point(i));
      }
    }
  });

  it('hands every chart the same frozen point of a day, whichever window it reads it through', async () => {
    const memory = createRatesInMemory(createRatesStore(database.db), createLocalChangeFeed().onRatesChanged);
    const wide = await memory.columns('2025-01-01', '2025-01-31');
    const narrow = await memory.columns('2025-01-11', '2025-01-13');
    expect(wide.point(1)).toEqual({ date: '2025-01-11', buy: 501, sell: 511 });
    expect(narrow.point(0)).toBe(wide.point(1));
    expect(narrow.point(1)).toBe(wide.point(2));
    expect(Object.isFrozen(narrow.point(1))).toBe(true);
  });

  it('reads the database once, again after a change notice, and again after its time limit', async () => {
    const store = createRatesStore(database.db);
    const range = jest.spyOn(store, 'range');
    const feed = createLocalChangeFeed();
    let now = 1_000_000;
    const memory = createRatesInMemory(store, feed.onRatesChanged, () => now);
    await Promise.all([memory.latest('2025-01-13'), memory.byDate('2025-01-10'), memory.range('2025-01-01', '2025-01-31')]);
    expect(range).toHaveBeenCalledTimes(1);

    await store.upsert([rate('2025-01-14', 504, 514)]);
    expect((await memory.latest('2025-01-20'))?.date).toBe('2025-01-13');
    await feed.ratesChanged();
    expect((await memory.latest('2025-01-20'))?.date).toBe('2025-01-14');
    expect(range).toHaveBeenCalledTimes(2);

    await store.upsert([rate('2025-01-15', 505, 515)]);
    now += SERIES_TTL_MS;
    // Many requests at the moment it expires still cause one read.
    const latest = await Promise.all([memory.latest('2025-01-20'), memory.latest('2025-01-20'), memory.byDate('2025-01-15')]);
    expect(latest.map((r) => r?.date)).toEqual(['2025-01-15', '2025-01-15', '2025-01-15']);
    expect(range).toHaveBeenCalledTimes(3);
  });
});
