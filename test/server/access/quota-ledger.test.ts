/**
 * The ledger behind the monthly quota: leases from the database spent in memory, exact at the
 * end of a quota, and handed back on release.
 */
import { createQuotaLedger, leaseSize, MAX_LEASE } from '../../../server/access/quota-ledger';
import { createApiKeysStore, type ApiKey } from '../../../server/store/api-keys';
import { createUsageStore } from '../../../server/store/usage';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

describe('quota ledger', () => {
  let database: TestDatabase;
  const clock = () => new Date('2026-03-15T12:00:00Z');
  const count = async (key: ApiKey) => createUsageStore(database.db).used(key.id, '2026-03-01');
  const newKey = async (monthlyQuota: number) =>
    (await createApiKeysStore(database.db).create({ name: 'ledger', plan: 'custom', monthlyQuota, ratePerMinute: 1000 })).record;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('leases a thousandth of what is left, between 1 and MAX_LEASE units', () => {
    expect(leaseSize(5000, 0)).toBe(5);
    expect(leaseSize(5000, 4000)).toBe(1);
    expect(leaseSize(1_000_000_000, 0)).toBe(MAX_LEASE);
    expect(leaseSize(1_000 * MAX_LEASE, 0)).toBe(MAX_LEASE);
    expect(leaseSize(1_000 * MAX_LEASE - 1_000, 0)).toBe(MAX_LEASE - 1);
    expect(leaseSize(10, 9)).toBe(1);
  });

  it('spends leases in memory, counts exactly, and hands the rest back', async () => {
    const key = await newKey(100_000);
    const usage = createUsageStore(database.db);
    const reserve = jest.spyOn(usage, 'reserve');
    const ledger = createQuotaLedger({ usage, clock });
    for (let i = 1; i <= 250; i++) expect(await ledger.spend(key)).toMatchObject({ ok: true, used: i });
    // Leases of 100, then 99 and 99 (a thousandth of what was left): three round trips, not 250.
    expect(reserve.mock.calls.map((call) => call[3])).toEqual([100, 99, 99]);
    expect(await count(key)).toBe(298);
    expect((await ledger.used(key)).used).toBe(250);
    await ledger.release();
    expect(await count(key)).toBe(250);
  });

  it('never passes the quota and refuses nothing under it, across instances spending at once', async () => {
    const key = await newKey(3000);
    const usage = createUsageStore(database.db);
    const instances = [createQuotaLedger({ usage, clock }), createQuotaLedger({ usage, clock })];
    const outcomes = await Promise.all(Array.from({ length: 3600 }, (_, i) => (instances[i % 2] as ReturnType<typeof createQuotaLedger>).spend(key)));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(3000);
    expect(await count(key)).toBe(3000);
    for (const ledger of instances) await ledger.release();
    expect(await count(key)).toBe(3000);
  });
});
