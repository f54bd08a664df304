/**
 * `purpose=` on /exchange-rate, /exchange-rate/latest, /convert and /exchange-rate/close: the side
 * (and, at a close, the day) each rule names, the citation the answer adds, and the 400s. Expected
 * sides are the contract's, written out here; values are the seeded rows'.
 */
import { parse } from 'csv-parse/sync';
import { purposeOf } from '../../../shared/purposes';
import type { Conversion, ExchangeRate, MonthClose } from '../../../shared/types';
import { crossRate, rate, startTestApp, type TestApp } from '../../helpers/app';

/** 12:00 on 2025-03-10 in Costa Rica (UTC−6). */
const NOW = new Date('2025-03-10T18:00:00Z');

/** The contract: the side each purpose names. */
const SIDES = {
  invoice: 'sell',
  'income-tax': 'sell',
  'consumer-pay-colones': 'sell',
  'consumer-pay-dollars': 'buy',
  customs: 'sell',
} as const;
type Id = keyof typeof SIDES;
const IDS = Object.keys(SIDES) as Id[];

/** What an answer cites for a purpose: its id, side, rule, basis and note from the table. */
const citation = (id: Id) => {
  const { rule, basis, note } = purposeOf(id);
  return { id, side: SIDES[id], rule, basis, note };
};

const ALLOWED = 'one of invoice, income-tax, consumer-pay-colones, consumer-pay-dollars, customs';

describe('rates for a purpose', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock: () => NOW });
    await t.seed([
      rate('2024-03-30', 505.5, 511.25),
      rate('2024-03-31', 505.7, 511.4),
      rate('2024-12-30', 503.75, 510.3),
      rate('2024-12-31', 504.36, 510.61),
      rate('2025-03-05', 501.1, 507.9),
      rate('2025-03-06', 500.2, 506.47),
      // Published the afternoon before: not the latest yet on the 10th.
      rate('2025-03-10', 499.95, 506.02),
      rate('2025-03-11', 499.5, 505.8),
    ]);
    await t.seedCross([crossRate('EUR', '2025-03-06', 1.08)]);
  });
  afterAll(() => t.close());

  describe('/exchange-rate and /exchange-rate/latest', () => {
    it.each(IDS)('%s: the record of the day asked, with the rule and the side it names', async (id) => {
      const { status, body } = await t.get(`/exchange-rate?date=2025-03-06&purpose=${id}`);
      expect(status).toBe(200);
      const record = body.data as ExchangeRate;
      expect(record).toEqual({
        date: '2025-03-06',
        currencyFrom: 'USD',
        currencyTo: 'CRC',
        buy: 500.2,
        sell: 506.47,
        source: 'BCCR',
        fetchedAt: '2025-01-14T18:05:12.000Z',
        purpose: citation(id),
      });
    });

    it('the latest record with a purpose, case-insensitive', async () => {
      const { status, body } = await t.get('/exchange-rate/latest?purpose=Consumer-Pay-Dollars');
      expect(status).toBe(200);
      expect(body.data).toMatchObject({ date: '2025-03-10', buy: 499.95, purpose: citation('consumer-pay-dollars') });
    });

    it('without a purpose, the record is as it always was', async () => {
      const { body } = await t.get('/exchange-rate?date=2025-03-06');
      expect(body.data).not.toHaveProperty('purpose');
    });

    it('with fill=previous, the carried record cites the rule too', async () => {
      const { status, body } = await t.get('/exchange-rate?date=2025-03-08&purpose=invoice&fill=previous');
      expect(status).toBe(200);
      expect(body.data).toMatchObject({ date: '2025-03-08', carriedFrom: '2025-03-06', sell: 506.47, purpose: citation('invoice') });
    });

    it('another currency: its derived record, with the same rule (never labelled official)', async () => {
      const { status, body } = await t.get('/exchange-rate?date=2025-03-06&currency=EUR&purpose=customs');
      expect(status).toBe(200);
      // 500.2 × 1.08 = 540.216 → 540.22; 506.47 × 1.08 = 546.9876 → 546.99.
      expect(body.data).toMatchObject({ currencyFrom: 'EUR', buy: 540.22, sell: 546.99, derived: expect.any(Object), purpose: citation('customs') });
    });

    it('an unknown purpose is a 400 that names the parameter and lists the values', async () => {
      for (const path of ['/exchange-rate?date=2025-03-06&purpose=rent', '/exchange-rate/latest?purpose=factura']) {
        const { status, body } = await t.get(path);
        const got = new URL(path, 'http://x').searchParams.get('purpose');
        expect([path, status, body]).toEqual([
          path,
          400,
          { success: false, error: 'BAD_REQUEST', message: `Parameter "purpose" must be ${ALLOWED} (got "${got}")` },
        ]);
      }
    });

    it('as CSV: the rule in purpose_ columns after the usual ones', async () => {
      const { status, text } = await t.get('/exchange-rate?date=2025-03-06&purpose=income-tax&format=csv');
      expect(status).toBe(200);
      const [header, row] = parse(text) as string[][];
      expect(header).toEqual([
        'date',
        'currencyFrom',
        'currencyTo',
        'buy',
        'sell',
        'source',
        'fetchedAt',
        'purpose_id',
        'purpose_side',
        'purpose_rule_es',
        'purpose_rule_en',
        'purpose_basis',
        'purpose_note_es',
        'purpose_note_en',
      ]);
      const { rule, basis, note } = purposeOf('income-tax');
      expect(row).toEqual([
        '2025-03-06',
        'USD',
        'CRC',
        '500.2',
        '506.47',
        'BCCR',
        '2025-01-14T18:05:12.000Z',
        'income-tax',
        'sell',
        rule.es,
        rule.en,
        basis,
        note.es,
        note.en,
      ]);
    });
  });

  describe('/convert', () => {
    it.each(IDS)('%s: converts at the side the rule names, and cites it', async (id) => {
      const { status, body } = await t.get(`/convert?amount=100&date=2025-03-06&purpose=${id}`);
      expect(status).toBe(200);
      const side = SIDES[id];
      const rateValue = side === 'sell' ? 506.47 : 500.2;
      expect(body.data as Conversion).toEqual({
        amount: 100,
        from: 'USD',
        to: 'CRC',
        rate: side,
        rateValue,
        date: '2025-03-06',
        result: rateValue * 100,
        currency: 'USD',
        purpose: citation(id),
      });
    });

    it('from colones: consumer-pay-dollars divides by the buy rate (1000 / 500.2 = 1.99920… → 2)', async () => {
      const { body } = await t.get('/convert?amount=1000&from=CRC&date=2025-03-06&purpose=consumer-pay-dollars');
      expect(body.data).toMatchObject({ from: 'CRC', to: 'USD', rate: 'buy', rateValue: 500.2, result: 2 });
    });

    it('another currency converts at its derived rate of the side the rule names', async () => {
      const { body } = await t.get('/convert?amount=10&from=EUR&date=2025-03-06&purpose=consumer-pay-dollars');
      expect(body.data).toMatchObject({ currency: 'EUR', rate: 'buy', rateValue: 540.22, result: 5402.2, purpose: citation('consumer-pay-dollars') });
    });

    it('"rate" and "purpose" together are a 400 naming both, even when they agree', async () => {
      for (const [rate, id] of [
        ['buy', 'invoice'],
        ['sell', 'invoice'],
        ['SELL', 'consumer-pay-dollars'],
      ]) {
        const path = `/convert?amount=100&rate=${rate}&purpose=${id}`;
        const { status, body } = await t.get(path);
        expect([path, status, body]).toEqual([
          path,
          400,
          {
            success: false,
            error: 'BAD_REQUEST',
            message: `Give either "rate" or "purpose", not both: the purpose names the side (${id}: ${SIDES[id as Id]})`,
          },
        ]);
      }
    });

    it('an unknown purpose is the 400 that lists the values, before anything else is checked', async () => {
      const { status, body } = await t.get('/convert?amount=100&rate=buy&purpose=aduana');
      expect([status, body.message]).toEqual([400, `Parameter "purpose" must be ${ALLOWED} (got "aduana")`]);
    });

    it('without a purpose, the conversion is as it always was', async () => {
      const { body } = await t.get('/convert?amount=100&date=2025-03-06&rate=buy');
      expect(body.data).toEqual({ amount: 100, from: 'USD', to: 'CRC', rate: 'buy', rateValue: 500.2, date: '2025-03-06', result: 50020, currency: 'USD' });
    });
  });

  describe('/exchange-rate/close', () => {
    const closeOf = async (query: string) => {
      const { status, body } = await t.get(`/exchange-rate/close?${query}`);
      expect([query, status]).toEqual([query, 200]);
      return body.data as MonthClose;
    };

    it.each(IDS.filter((id) => id !== 'income-tax'))('%s: the side it names on the month’s last day', async (id) => {
      const close = await closeOf(`month=2024-03&purpose=${id}`);
      expect(close.purpose).toEqual(citation(id));
      expect(close.purposeRate).toEqual({ date: '2024-03-31', side: SIDES[id], value: SIDES[id] === 'sell' ? 511.4 : 505.7 });
      expect(close.closing?.date).toBe('2024-03-31');
    });

    it('income-tax: the sell rate of December 31 of the month’s year, the fiscal close, whatever the month', async () => {
      const march = await closeOf('month=2024-03&purpose=income-tax');
      expect(march.purposeRate).toEqual({ date: '2024-12-31', side: 'sell', value: 510.61 });
      // The rest of the close is the month's own.
      expect(march).toMatchObject({ month: '2024-03', to: '2024-03-31', closing: expect.objectContaining({ date: '2024-03-31' }) });
      const december = await closeOf('month=2024-12&purpose=INCOME-TAX');
      expect(december.purposeRate).toEqual({ date: '2024-12-31', side: 'sell', value: 510.61 });
      expect(december.closing?.sell).toBe(510.61);
      expect(december.purpose).toEqual(citation('income-tax'));
    });

    it('income-tax in a year still running: the day is named, its rate is null (not published yet)', async () => {
      const close = await closeOf('month=2025-03&purpose=income-tax');
      expect(close.purposeRate).toEqual({ date: '2025-12-31', side: 'sell', value: null });
    });

    it('a month whose last day has no rate: null, never another day’s rate', async () => {
      const close = await closeOf('month=2025-03&purpose=consumer-pay-dollars');
      expect(close.purposeRate).toEqual({ date: '2025-03-31', side: 'buy', value: null });
    });

    it('without a purpose, the close is as it always was', async () => {
      const close = await closeOf('month=2024-03');
      expect(close).not.toHaveProperty('purpose');
      expect(close).not.toHaveProperty('purposeRate');
    });

    it('as CSV: purpose_ and purposeRate_ columns, an empty value when the day has no rate', async () => {
      const { status, text } = await t.get('/exchange-rate/close?month=2025-03&purpose=income-tax&format=csv');
      expect(status).toBe(200);
      const [header, row] = parse(text) as string[][];
      const at = (name: string) => row?.[header?.indexOf(name) ?? -1];
      expect(header?.slice(-3)).toEqual(['purposeRate_date', 'purposeRate_side', 'purposeRate_value']);
      expect([at('purpose_id'), at('purposeRate_date'), at('purposeRate_side'), at('purposeRate_value')]).toEqual(['income-tax', '2025-12-31', 'sell', '']);
    });

    it('an unknown purpose is a 400', async () => {
      const { status, body } = await t.get('/exchange-rate/close?month=2024-03&purpose=fiscal');
      expect([status, body.message]).toEqual([400, `Parameter "purpose" must be ${ALLOWED} (got "fiscal")`]);
    });
  });
});
