/**
 * The ledger behind the monthly quota: leases from the database spent in memory, exact at the
 * end of a quota, and handed back on release.
 */
import pino from 'pino';
import { AHEAD_FRACTION, createQuotaLedger, leaseSize, MAX_LEASE, RECORD_EVERY_MS } from '../../../server/access/quota-ledger';
import { createApiKeysStore, type ApiKey } from '../../../server/store/api-keys';
import { createUsageStore } from '../../../server/store/usage';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

describe('quota ledger', () => {
  let database: TestDatabase;
  const clock = () => new Date('2026-03-15T12:00:00Z');
  const logger = pino({ level: 'silent' });
  const count = async (key: ApiKey) => createUsageStore(database.db).used(key.id, '2026-03-01');
  const newKey = async (monthlyQuota: number) =>
    (await createApiKeysStore(database.db).create({ name: 'ledger', plan: 'custom', monthlyQuota, ratePerMinute: 1000 })).record;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it("leases a minute of the key's rate, at most a hundredth of what is left, between 1 and MAX_LEASE units", () => {
    // Pro: 60 a minute, 5,000 a month.
    expect(leaseSize(5000, 0, 60)).toBe(50);
    expect(leaseSize(5000, 4000, 60)).toBe(10);
    expect(leaseSize(5000, 4950, 60)).toBe(1);
    expect(leaseSize(10_000_000, 0, 60)).toBe(60);
    expect(leaseSize(1_000_000_000, 0, 1_000_000)).toBe(MAX_LEASE);
    expect(leaseSize(100 * MAX_LEASE - 100, 0, 1_000_000)).toBe(MAX_LEASE - 1);
    expect(leaseSize(10, 9, 60)).toBe(1);
  });

  it('spends leases in memory, counts exactly, and hands the rest back', async () => {
    const key = await newKey(100_000);
    const usage = createUsageStore(database.db);
    const reserve = jest.spyOn(usage, 'reserve');
    const ledger = createQuotaLedger({ usage, clock, logger });
    for (let i = 1; i <= 2500; i++) expect(await ledger.spend(key)).toMatchObject({ ok: true, used: i });
    // Leases of a minute of the key's rate (1,000), then a hundredth of what is left: 3 round trips, not 2,500.
    expect(reserve.mock.calls.map((call) => call[3])).toEqual([1000, 990, 980]);
    expect(await count(key)).toBe(2970);
    expect((await ledger.used(key)).used).toBe(2500);
    await ledger.release();
    expect(await count(key)).toBe(2500);
  });

  /** The usage store, with its reserve statements held back from the `from`th on until `open` is called. */
  const heldReserves = (from: number) => {
    const usage = createUsageStore(database.db);
    const reserve = usage.reserve.bind(usage);
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let calls = 0;
    const spy = jest.spyOn(usage, 'reserve').mockImplementation(async (...args) => {
      if (++calls >= from) await gate;
      return reserve(...args);
    });
    return { usage, spy, open: () => open() };
  };
  /** Whether `promise` settles before the event loop has turned `turns` times. */
  const settlesSoon = async (promise: Promise<unknown>, turns = 20) => {
    let settled = false;
    void promise.then(() => (settled = true));
    for (let i = 0; i < turns && !settled; i++) await new Promise((resolve) => setImmediate(resolve));
    return settled;
  };

  it('reserves the next lease while a quarter of the last is left (at the latest), so that no request waits for it', async () => {
    const key = await newKey(100_000);
    const { usage, spy, open } = heldReserves(2);
    // The latest point the draw can give: a quarter of the lease left.
    const ledger = createQuotaLedger({ usage, clock, logger, random: () => 0 });
    const ahead = 1000 * (1 - AHEAD_FRACTION);
    for (let i = 1; i <= ahead - 1; i++) await ledger.spend(key);
    expect(spy).toHaveBeenCalledTimes(1);
    // A quarter of the lease left: the next one leaves, and is held back by the database.
    expect(await ledger.spend(key)).toMatchObject({ ok: true, used: ahead });
    expect(spy).toHaveBeenCalledTimes(2);
    // The rest of the first lease is served meanwhile, each request at once.
    for (let i = ahead + 1; i <= 1000; i++) expect(await settlesSoon(ledger.spend(key))).toBe(true);
    expect(spy).toHaveBeenCalledTimes(2);
    // Past the first lease, a request waits for the one on its way, and is served from it.
    const waiting = ledger.spend(key);
    expect(await settlesSoon(waiting)).toBe(false);
    open();
    expect(await waiting).toMatchObject({ ok: true, used: 1001 });
    expect(spy.mock.calls.map((call) => call[3])).toEqual([1000, 990]);
    expect(await count(key)).toBe(1990);
    await ledger.release();
    expect(await count(key)).toBe(1001);
  });

  /**
   * Keys spent in step, a request of each in turn (as clients polling on one schedule): the
   * rotation in which each of them reserved its next lease ahead.
   */
  const leasesAheadInStep = async (random: () => number) => {
    // 100 units a lease (a hundredth of 10,000), so the next leaves with 12–25 left.
    const keys = await Promise.all(Array.from({ length: 20 }, () => newKey(10_000)));
    const usage = createUsageStore(database.db);
    let rotation = 0;
    const rotations: number[] = [];
    const reserve = usage.reserve.bind(usage);
    jest.spyOn(usage, 'reserve').mockImplementation((...args) => {
      rotations.push(rotation);
      return reserve(...args);
    });
    const ledger = createQuotaLedger({ usage, clock, logger, random });
    for (; rotation < 95; rotation++) for (const key of keys) await ledger.spend(key);
    await ledger.release();
    // The first leases, all in the first rotation, are not ahead.
    const ahead = rotations.filter((r) => r > 0);
    expect(ahead).toHaveLength(keys.length);
    return ahead;
  };
  /** The most leases ahead reserved in one rotation. */
  const mostInOne = (rotations: number[]) => Math.max(...rotations.map((r) => rotations.filter((other) => other === r).length));

  it('draws how much is left when each next lease leaves, so that keys spent in step do not all ask in one rotation', async () => {
    // Without the draw (always a quarter left): all twenty in the same rotation, the one of their 75th requests.
    expect(new Set(await leasesAheadInStep(() => 0))).toEqual(new Set([74]));
    // Drawn (a small fixed generator, so the test is the same every run): spread over the band.
    let seed = 7;
    const drawn = await leasesAheadInStep(() => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    });
    expect(Math.min(...drawn)).toBeGreaterThanOrEqual(74);
    expect(Math.max(...drawn)).toBeLessThanOrEqual(87);
    expect(mostInOne(drawn)).toBeLessThanOrEqual(5);
  });

  it('gives back a lease that was on its way when it stops', async () => {
    const key = await newKey(100_000);
    const { usage, open } = heldReserves(2);
    const ledger = createQuotaLedger({ usage, clock, logger });
    // Past the earliest point the draw can give (an eighth of the lease of 1,000 left): the next lease has left.
    for (let i = 0; i < 900; i++) await ledger.spend(key);
    const released = ledger.release();
    expect(await settlesSoon(released)).toBe(false);
    open();
    await released;
    expect(await count(key)).toBe(900);
  });

  /**
   * The usage store, with its `nth` reserve statement failing: through a rejected promise, or
   * (`atOnce`) thrown before the store returns one.
   */
  const failingReserve = (nth: number, message: string, atOnce = false) => {
    const usage = createUsageStore(database.db);
    const reserve = usage.reserve.bind(usage);
    let calls = 0;
    const spy = jest.spyOn(usage, 'reserve').mockImplementation((...args) => {
      if (++calls !== nth) return reserve(...args);
      if (atOnce) throw new Error(message);
      return Promise.reject(new Error(message));
    });
    return { usage, spy };
  };

  it('says when a lease ahead fails, and the request that runs out leases again itself', async () => {
    const key = await newKey(100_000);
    const { usage, spy } = failingReserve(2, 'the database is away');
    const lines: Array<{ level: number; msg: string }> = [];
    const warnings = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const ledger = createQuotaLedger({ usage, clock, logger: warnings });
    for (let i = 1; i <= 1000; i++) expect(await ledger.spend(key)).toMatchObject({ ok: true, used: i });
    expect(lines.map((line) => line.msg)).toEqual(['quota: could not reserve the next lease ahead; the next request will']);
    // No second try ahead while the first lease lasts: one failure is not a statement per request.
    expect(spy).toHaveBeenCalledTimes(2);
    expect(await ledger.spend(key)).toMatchObject({ ok: true, used: 1001 });
    expect(spy).toHaveBeenCalledTimes(3);
    await ledger.release();
    expect(await count(key)).toBe(1001);
  });

  it('leases again after a store that failed before its first await, rather than keep the failed lease', async () => {
    const key = await newKey(100_000);
    const { usage } = failingReserve(1, 'no connection', true);
    const ledger = createQuotaLedger({ usage, clock, logger });
    await expect(ledger.spend(key)).rejects.toThrow('no connection');
    expect(await ledger.spend(key)).toMatchObject({ ok: true, used: 1 });
    await ledger.release();
    expect(await count(key)).toBe(1);
  });

  it('writes what it served of many keys together, one statement at a time, and all of it', async () => {
    const keys = await Promise.all(Array.from({ length: 40 }, () => newKey(100_000)));
    const usage = createUsageStore(database.db);
    const recordServedMany = jest.spyOn(usage, 'recordServedMany');
    const ledger = createQuotaLedger({ usage, clock, logger });
    // 40 keys taking turns, 10 requests each, all at once: one write per key and request before.
    await Promise.all(Array.from({ length: 400 }, (_, i) => ledger.spend(keys[i % keys.length] as ApiKey)));
    const settled = async () => (await Promise.all(keys.map((key) => usage.served(key.id, '2026-03-01', null)))).every((n) => n === 10);
    for (let i = 0; i < 100 && !(await settled()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await settled()).toBe(true);
    // The first request's write leaves at once, alone; everything served meanwhile goes in the next few.
    expect(recordServedMany.mock.calls[0]?.[1]).toHaveLength(1);
    expect(recordServedMany.mock.calls.length).toBeLessThanOrEqual(5);
    await ledger.release();
  });

  it('writes at most once per RECORD_EVERY_MS under steady traffic, and all of it in the end', async () => {
    const keys = await Promise.all(Array.from({ length: 5 }, () => newKey(100_000)));
    const usage = createUsageStore(database.db);
    const recordServedMany = jest.spyOn(usage, 'recordServedMany');
    const ledger = createQuotaLedger({ usage, clock, logger });
    // A request every few milliseconds for a second: a write per request would be a few hundred.
    const started = performance.now();
    let served = 0;
    while (performance.now() - started < 1000) {
      await ledger.spend(keys[served++ % keys.length] as ApiKey);
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    const elapsed = performance.now() - started;
    const settled = async () => (await Promise.all(keys.map((key) => usage.served(key.id, '2026-03-01', null)))).reduce((a, b) => a + b, 0) === served;
    for (let i = 0; i < 100 && !(await settled()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await settled()).toBe(true);
    expect(served).toBeGreaterThan(50);
    // The first write leaves at once, then one per interval (and the last one after the traffic stopped).
    expect(recordServedMany.mock.calls.length).toBeLessThanOrEqual(Math.ceil(elapsed / RECORD_EVERY_MS) + 2);
    await ledger.release();
  });

  it('knows the count it last learned without asking the database, once it has leased', async () => {
    const key = await newKey(100_000);
    const ledger = createQuotaLedger({ usage: createUsageStore(database.db), clock, logger });
    expect(ledger.known(key)).toBeNull();
    for (let i = 0; i < 3; i++) await ledger.spend(key);
    expect(ledger.known(key)).toEqual({ used: 3, resetsAt: new Date('2026-04-01T00:00:00Z') });
    expect((await ledger.used(key)).used).toBe(3);
    await ledger.release();
  });

  it('never passes the quota and refuses nothing under it, across instances spending at once', async () => {
    const key = await newKey(3000);
    const usage = createUsageStore(database.db);
    const instances = [createQuotaLedger({ usage, clock, logger }), createQuotaLedger({ usage, clock, logger })];
    const outcomes = await Promise.all(Array.from({ length: 3600 }, (_, i) => (instances[i % 2] as ReturnType<typeof createQuotaLedger>).spend(key)));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(3000);
    expect(await count(key)).toBe(3000);
    for (const ledger of instances) await ledger.release();
    expect(await count(key)).toBe(3000);
  });
});
