/**
 * The provisional euro of today (domain/provisional.ts): Hacienda's dollars per euro × the
 * dollar's sell of the same day, rounded as derived rates are; Hacienda's colones without that
 * dollar; nothing when neither. Inputs inline, results worked out by hand.
 */
import { derivedCurrency, type DerivedCurrency } from '../../../shared/currency-catalog';
import type { ExchangeRate } from '../../../shared/types';
import { provisionalRecord } from '../../../server/domain/provisional';

const EUR = derivedCurrency('EUR') as DerivedCurrency;
const FETCHED = new Date('2026-11-20T16:00:00.000Z');
const dollar = (date: string, fetchedAt = '2026-11-19T20:05:00.000Z'): ExchangeRate => ({
  date,
  currencyFrom: 'USD',
  currencyTo: 'CRC',
  buy: 506.47,
  sell: 512.82,
  source: 'BCCR',
  fetchedAt,
});

describe('provisionalRecord', () => {
  it('multiplies by the dollar’s sell of the same day, half away from zero to 2 decimals', () => {
    // 512.82 × 1.1653 = 597.589146 → 597.59
    expect(provisionalRecord(EUR, { date: '2026-11-20', published: 1.1653, colones: 597.6, fetchedAt: FETCHED }, dollar('2026-11-20'))).toEqual({
      date: '2026-11-20',
      currencyFrom: 'EUR',
      currencyTo: 'CRC',
      buy: null,
      sell: 597.59,
      source: 'Hacienda',
      fetchedAt: FETCHED.toISOString(),
      derived: { indicator: '333', quote: 'usdPerUnit', published: 1.1653, usdDate: '2026-11-20' },
    });
    // 512.82 × 1.165 = 597.4353 → 597.44
    expect(provisionalRecord(EUR, { date: '2026-11-20', published: 1.165, colones: null, fetchedAt: FETCHED }, dollar('2026-11-20'))?.sell).toBe(597.44);
  });

  it('takes the later reading as fetchedAt', () => {
    const later = '2026-11-20T17:00:00.000Z';
    expect(provisionalRecord(EUR, { date: '2026-11-20', published: 1.1653, colones: null, fetchedAt: FETCHED }, dollar('2026-11-20', later))?.fetchedAt).toBe(
      later,
    );
  });

  it('without the dollar of that day: Hacienda’s colones, or no record after hours', () => {
    const value = { date: '2026-11-20', published: 1.1653, colones: 597.6, fetchedAt: FETCHED };
    expect(provisionalRecord(EUR, value, null)?.sell).toBe(597.6);
    // Another day's dollar is not today's.
    expect(provisionalRecord(EUR, value, dollar('2026-11-19'))?.sell).toBe(597.6);
    expect(provisionalRecord(EUR, { ...value, colones: null }, null)).toBeNull();
  });
});
