/**
 * Each instance's count of requests served, written for many keys in one statement: it only
 * raises a count (a write landing late changes nothing), keeps each instance and month apart, and
 * `served` adds the instances up.
 */
import { createApiKeysStore } from '../../../server/store/api-keys';
import { createUsageStore } from '../../../server/store/usage';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

describe('served counts', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('writes many keys at once, only ever raising each instance’s count', async () => {
    const keysStore = createApiKeysStore(database.db);
    const keys = await Promise.all(Array.from({ length: 300 }, (_, i) => keysStore.create({ name: `served ${i}`, plan: 'pro' })));
    const ids = keys.map(({ record }) => record.id);
    const usage = createUsageStore(database.db);
    const [march, april] = ['2026-03-01', '2026-04-01'];

    await usage.recordServedMany(
      'a',
      ids.map((keyId, i) => ({ keyId, month: march, served: i + 1 })),
    );
    await usage.recordServedMany('b', [{ keyId: ids[0] as number, month: march, served: 7 }]);
    // Late, lower figures for some keys and higher ones for others, and another month.
    await usage.recordServedMany('a', [
      { keyId: ids[0] as number, month: march, served: 0 },
      { keyId: ids[299] as number, month: march, served: 1000 },
      { keyId: ids[1] as number, month: april, served: 5 },
    ]);

    expect(await usage.served(ids[0] as number, march, null)).toBe(1 + 7);
    expect(await usage.served(ids[0] as number, march, 'b')).toBe(1);
    expect(await usage.served(ids[150] as number, march, null)).toBe(151);
    expect(await usage.served(ids[299] as number, march, null)).toBe(1000);
    expect(await usage.served(ids[1] as number, march, null)).toBe(2);
    expect(await usage.served(ids[1] as number, april, null)).toBe(5);
    const rows = await database.db('api_usage_served').where({ instance: 'a', month: march }).count<Array<{ n: string | number }>>('* as n');
    expect(Number(rows[0]?.n)).toBe(300);
  });
});
