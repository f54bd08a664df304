/** A full synthetic history (1983 → today, every day) and one window snapshot, written through the store. */
import { addDays, calendarDay } from '../shared/dates';
import type { Database } from '../server/store/database';
import { createBankingStore } from '../server/store/banking';
import { createRatesStore, type RateInput } from '../server/store/rates';
import { SYNTHETIC_FIRST_DATE, syntheticRate } from '../test/fakes/synthetic-history';

export async function seedFullHistory(db: Database, today = calendarDay(new Date())): Promise<number> {
  const rows: RateInput[] = [];
  const fetchedAt = new Date();
  for (let d = SYNTHETIC_FIRST_DATE; d <= today; d = addDays(d, 1)) rows.push({ date: d, ...syntheticRate(d), source: 'BCCR', fetchedAt });
  await createRatesStore(db).upsert(rows);
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
