import { closeMonth, daysInMonth, isAfterMonthOf, isYearMonth, monthBounds, monthOf } from '../../../server/domain/month-close';
import type { ExchangeRate } from '../../../shared/types';

const record = (date: string, buy: number, sell: number): ExchangeRate => ({
  date,
  currencyFrom: 'USD',
  currencyTo: 'CRC',
  buy,
  sell,
  source: 'BCCR',
  fetchedAt: '2025-01-14T18:05:12.000Z',
});

describe('month arithmetic', () => {
  it('accepts YYYY-MM months and nothing else', () => {
    for (const month of ['2025-01', '2025-12', '1983-01', '0001-01', '9999-12']) expect([month, isYearMonth(month)]).toEqual([month, true]);
    for (const month of ['2025-13', '2025-00', '2025-1', '2025-01-01', '', '0000-01', '12025-01', ' 2025-01', '2025-01 ', '2025/01']) {
      expect([month, isYearMonth(month)]).toEqual([month, false]);
    }
  });

  it('knows the length of every month, leap years by the Gregorian rule', () => {
    expect(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'].map((m) => daysInMonth(`2025-${m}`))).toEqual([
      31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
    ]);
    expect([daysInMonth('2024-02'), daysInMonth('2000-02'), daysInMonth('1900-02'), daysInMonth('2100-02')]).toEqual([29, 29, 28, 28]);
    expect(monthBounds('2024-12')).toEqual({ first: '2024-12-01', last: '2024-12-31' });
    expect(monthBounds('9999-12')).toEqual({ first: '9999-12-01', last: '9999-12-31' });
    expect(monthBounds('0004-02')).toEqual({ first: '0004-02-01', last: '0004-02-29' });
    expect(() => monthBounds('2024-13')).toThrow(RangeError);
  });

  it('compares a month with the month of a day', () => {
    expect(monthOf('2025-03-31')).toBe('2025-03');
    expect(isAfterMonthOf('2025-04', '2025-03-31')).toBe(true);
    expect(isAfterMonthOf('2025-03', '2025-03-01')).toBe(false);
    expect(isAfterMonthOf('2024-12', '2025-01-01')).toBe(false);
  });
});

describe('closeMonth', () => {
  it('refuses records that are not ascending days of the month, or none', () => {
    const base = { month: '2025-01', latestDate: '2025-01-31', today: '2025-02-10' };
    expect(() => closeMonth({ ...base, records: [] })).toThrow(RangeError);
    expect(() => closeMonth({ ...base, records: [record('2025-02-01', 1, 2)] })).toThrow(RangeError);
    expect(() => closeMonth({ ...base, records: [record('2025-01-03', 1, 2), record('2025-01-02', 1, 2)] })).toThrow(RangeError);
    expect(() => closeMonth({ ...base, records: [record('2025-01-02', 1, 2), record('2025-01-02', 1, 2)] })).toThrow(RangeError);
  });

  it('lists no missing day after the latest date, and every one when there is no latest date before the month', () => {
    const records = [record('2025-01-02', 500, 510)];
    expect(closeMonth({ month: '2025-01', records, latestDate: '2025-01-03', today: '2025-01-03' }).missing).toEqual(['2025-01-01', '2025-01-03']);
    // Only a record published ahead of today: the latest date is still before the month.
    expect(closeMonth({ month: '2025-01', records, latestDate: '2024-12-31', today: '2025-01-01' }).missing).toEqual([]);
    expect(closeMonth({ month: '2025-01', records, latestDate: null, today: '2025-01-01' }).missing).toEqual([]);
  });

  it('gives 0 for change and the value itself for the other figures of a single record', () => {
    const one = closeMonth({ month: '2025-01', records: [record('2025-01-15', 506.47, 512.82)], latestDate: '2025-02-01', today: '2025-02-01' });
    expect(one.buy).toEqual({ average: 506.47, min: 506.47, max: 506.47, first: 506.47, last: 506.47, change: 0 });
    expect(one).toMatchObject({ from: '2025-01-15', to: '2025-01-15', daysPresent: 1, complete: false, closing: null });
  });
});
