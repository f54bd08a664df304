import { createBankingStore, type InstitutionInput, type QuoteInput } from '../../../server/store/banking';
import type { BankingRates, BestRate } from '../../../shared/types';
import { rate, startTestApp, type TestApp } from '../../helpers/app';

const institutions: InstitutionInput[] = [
  { id: 'banco-nacional', name: 'Banco Nacional de Costa Rica', type: 'public_bank', known: true },
  { id: 'banco-de-costa-rica', name: 'Banco de Costa Rica', type: 'public_bank', known: true },
  { id: 'bac', name: 'Banco BAC San José', type: 'private_bank', known: true },
  { id: 'teledolar', name: 'Teledolar', type: 'exchange_house', known: true },
  { id: 'ecologica', name: 'Énfasis Cambiario', type: 'exchange_house', known: false },
];

// Costa Rica is UTC-6: 14:30 UTC is 08:30 there.
const at = (day: string) => new Date(`${day}T14:30:00Z`);
const quotes = (day: string, stale: string | null = null): QuoteInput[] => [
  { institutionId: 'banco-nacional', buy: 505, sell: 515, updatedAt: at(day) },
  { institutionId: 'banco-de-costa-rica', buy: 506, sell: 514, updatedAt: at(day) },
  { institutionId: 'bac', buy: 506, sell: 513.5, updatedAt: at(day) },
  { institutionId: 'teledolar', buy: 508, sell: 512, updatedAt: at(stale ?? day) },
  { institutionId: 'ecologica', buy: 504, sell: 513.5, updatedAt: null },
];

describe('banking routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock: () => new Date('2025-01-16T18:00:00Z') });
    await t.seed([rate('2025-01-15', 503.5, 511.25), rate('2025-01-16', 504, 512)]);
    const banking = createBankingStore(t.database.db);
    await banking.saveDay({ date: '2025-01-15', source: 'bccr-site', fetchedAt: new Date(), institutions, quotes: quotes('2025-01-15') });
    // On the 16th Teledolar still shows its quote of the day before: stale.
    await banking.saveDay({ date: '2025-01-16', source: 'bccr-site', fetchedAt: new Date(), institutions, quotes: quotes('2025-01-16', '2025-01-15') });
    // A snapshot after today is not "the latest" yet.
    await banking.saveDay({ date: '2025-01-17', source: 'bccr-site', fetchedAt: new Date(), institutions, quotes: quotes('2025-01-17') });
    await t.changes.ratesChanged();
  });
  afterAll(() => t.close());

  describe('/banking/rates', () => {
    it('returns the latest snapshot ordered by name, accents and case ignored', async () => {
      const { status, body } = await t.get('/banking/rates');
      expect(status).toBe(200);
      const data = body.data as BankingRates;
      expect(data.date).toBe('2025-01-16');
      expect(data.institutions.map((i) => i.name)).toEqual([
        'Banco BAC San José',
        'Banco de Costa Rica',
        'Banco Nacional de Costa Rica',
        'Énfasis Cambiario',
        'Teledolar',
      ]);
      expect(data.institutions[2]).toEqual({
        id: 'banco-nacional',
        name: 'Banco Nacional de Costa Rica',
        type: 'public_bank',
        buy: 505,
        sell: 515,
        spread: 10,
        updatedAt: '2025-01-16T14:30:00.000Z',
        stale: false,
      });
      expect(data.institutions.find((i) => i.id === 'teledolar')?.stale).toBe(true);
      expect(data.institutions.find((i) => i.id === 'ecologica')).toMatchObject({ updatedAt: null, stale: false });
    });

    it('takes a date and a type filter; [] when the type matches none', async () => {
      const { body } = await t.get('/banking/rates?date=2025-01-15&type=PUBLIC_BANK');
      const data = body.data as BankingRates;
      expect(data.date).toBe('2025-01-15');
      expect(data.institutions.map((i) => i.id)).toEqual(['banco-de-costa-rica', 'banco-nacional']);
      const none = await t.get('/banking/rates?type=brokerage');
      expect(none.status).toBe(200);
      expect((none.body.data as BankingRates).institutions).toEqual([]);
    });

    it('answers 404 for a day without a snapshot and 400 naming the allowed types', async () => {
      expect((await t.get('/banking/rates?date=2024-12-31')).status).toBe(404);
      const bad = await t.get('/banking/rates?type=bank');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('"type"');
      expect(bad.body.message).toContain('public_bank, private_bank, financial, cooperative, mutual, exchange_house, brokerage');
    });
  });

  describe('/banking/best', () => {
    it('ranks sell by the lowest sell, fresh before stale, ties sharing a rank, against the official sell', async () => {
      const { status, body } = await t.get('/banking/best?operation=sell');
      expect(status).toBe(200);
      const data = body.data as BestRate;
      expect(data.operation).toBe('sell');
      expect(data.date).toBe('2025-01-16');
      expect(data.ranking.map((r) => [r.id, r.rank, r.vsOfficial])).toEqual([
        ['bac', 1, 1.5],
        ['ecologica', 1, 1.5],
        ['banco-de-costa-rica', 3, 2],
        ['banco-nacional', 4, 3],
        ['teledolar', 5, 0],
      ]);
      expect(data.best).toEqual({
        id: 'bac',
        name: 'Banco BAC San José',
        type: 'private_bank',
        buy: 506,
        sell: 513.5,
        spread: 7.5,
        updatedAt: '2025-01-16T14:30:00.000Z',
        stale: false,
      });
    });

    it('ranks buy by the highest buy on a given day and type', async () => {
      const { body } = await t.get('/banking/best?operation=BUY&date=2025-01-15&type=exchange_house');
      const data = body.data as BestRate;
      expect(data.operation).toBe('buy');
      expect(data.ranking.map((r) => [r.id, r.rank, r.vsOfficial])).toEqual([
        ['teledolar', 1, 4.5],
        ['ecologica', 2, 0.5],
      ]);
    });

    it('gives vsOfficial null when that day has no official rate', async () => {
      const banking = createBankingStore(t.database.db);
      await banking.saveDay({ date: '2025-01-10', source: 'bccr-site', fetchedAt: new Date(), institutions, quotes: quotes('2025-01-10') });
      await t.changes.ratesChanged();
      const { body } = await t.get('/banking/best?operation=buy&date=2025-01-10');
      expect((body.data as BestRate).ranking.every((r) => r.vsOfficial === null)).toBe(true);
    });

    it('refuses a missing or bad operation, and 404s when nothing can be ranked', async () => {
      const missing = await t.get('/banking/best');
      expect(missing.status).toBe(400);
      expect(missing.body.message).toContain('"operation"');
      const bad = await t.get('/banking/best?operation=swap');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('buy, sell');
      expect((await t.get('/banking/best?operation=buy&type=mutual')).status).toBe(404);
      expect((await t.get('/banking/best?operation=buy&date=2020-01-01')).status).toBe(404);
    });
  });
});
