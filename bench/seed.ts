/**
 * What the servers under test serve: a full history, the euro's cross rates, a window snapshot and
 * the keys that ask for them.
 */
import { addDays, calendarDay } from '../shared/dates';
import type { Database } from '../server/store/database';
import { type DerivedCurrency, derivedCurrency } from '../shared/currency-catalog';
import { PLANS } from '../shared/plans';
import { createApiKeysStore } from '../server/store/api-keys';
import { createBankingStore } from '../server/store/banking';
import { createCrossRatesStore, type CrossInput } from '../server/store/cross-rates';
import { createRatesStore, type RateInput } from '../server/store/rates';
import { SYNTHETIC_FIRST_DATE, syntheticCross, syntheticRate } from '../server/demo/synthetic-history';

/** Where the cross rates start: the central bank's series of most currencies go back to 2000. */
export const CROSS_FIRST_DATE = '2000-01-01';

/** The currencies the bench derives: the euro, asked beside the dollar. */
export const BENCH_CURRENCIES = ['EUR'] as const;

const catalogued = (code: string): DerivedCurrency => {
  const currency = derivedCurrency(code);
  if (!currency) throw new Error(`${code} is not in the currency catalog`);
  return currency;
};

/** The days a currency's cross series has, as the real one: business days since 2000, none at the weekend. */
export function crossDates(today: string, code = 'EUR'): string[] {
  const currency = catalogued(code);
  const dates: string[] = [];
  for (let d = CROSS_FIRST_DATE; d <= today; d = addDays(d, 1)) if (syntheticCross(currency, d) !== null) dates.push(d);
  return dates;
}

/** `codes`' synthetic cross rates on their business days since 2000, written through the store as a sync does. */
export async function seedCrossRates(db: Database, codes: readonly string[], today: string, fetchedAt = new Date()): Promise<number> {
  const rows: CrossInput[] = codes.flatMap((code) => {
    const currency = catalogued(code);
    return crossDates(today, code).map((date) => ({
      currency: code,
      date,
      value: syntheticCross(currency, date) as number,
      source: 'BCCR' as const,
      fetchedAt,
    }));
  });
  await createCrossRatesStore(db).upsert(rows);
  return rows.length;
}

/** A full synthetic history (1983 → today, every day), the euro's cross rates and one window snapshot, written through the stores. */
export async function seedFullHistory(db: Database, today = calendarDay(new Date())): Promise<number> {
  const rows: RateInput[] = [];
  const fetchedAt = new Date();
  for (let d = SYNTHETIC_FIRST_DATE; d <= today; d = addDays(d, 1)) rows.push({ date: d, ...syntheticRate(d), source: 'BCCR', fetchedAt });
  await createRatesStore(db).upsert(rows);
  await seedCrossRates(db, BENCH_CURRENCIES, today, fetchedAt);
  const { buy, sell } = syntheticRate(today);
  const names = [
    'Banco Nacional de Costa Rica',
    'Banco de Costa Rica',
    'Banco BAC San José',
    'Banco Popular',
    'Teledolar',
    'Coopenae',
    'Financiera Desyfin',
    'Grupo Mutual',
  ];
  const types = ['public_bank', 'public_bank', 'private_bank', 'public_bank', 'exchange_house', 'cooperative', 'financial', 'mutual'] as const;
  await createBankingStore(db).saveDay({
    date: today,
    source: 'bench',
    fetchedAt,
    institutions: names.map((name, i) => ({ id: `inst-${i}`, name, type: types[i] ?? 'financial', known: true })),
    quotes: names.map((_, i) => ({ institutionId: `inst-${i}`, buy: buy - 2 + (i % 4), sell: sell + 1 + (i % 3), updatedAt: fetchedAt })),
  });
  return rows.length;
}

/**
 * Keys with the Pro plan's monthly quota, made as 'custom' so their per-minute rate can be the
 * whole month's quota: a key can then never be refused by the per-minute limit (it cannot make
 * more requests in a minute than in its month), while the quota, and the leases sized from it, are
 * exactly a Pro key's (see README, "Keys").
 */
export async function createBenchKeys(db: Database, count: number): Promise<string[]> {
  const store = createApiKeysStore(db);
  const make = (i: number) => store.create({ name: `bench ${i}`, plan: 'custom', monthlyQuota: PLANS.pro.monthlyQuota, ratePerMinute: PLANS.pro.monthlyQuota });
  const keys: string[] = [];
  // Ten at a time: a PostgreSQL pool's worth (the embedded database takes them one by one anyway).
  for (let i = 0; i < count; i += 10) {
    const made = await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, j) => make(i + j)));
    keys.push(...made.map((m) => m.key));
  }
  return keys;
}

/**
 * Key ids start at 1 in every database, and the rate limiter names a key by its id (`key:<id>`) in
 * the Redis shared with the test suites: start ours where nobody else is (as the tests'
 * `uniqueKeyIds` does), so nothing shared has to be flushed.
 */
export async function uniqueKeyIds(db: Database): Promise<void> {
  const start = 2_000_000_000 + Math.floor(Math.random() * 100_000_000);
  await db.raw(`ALTER SEQUENCE api_keys_id_seq RESTART WITH ${start}`);
}
