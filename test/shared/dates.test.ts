/**
 * Calendar-day arithmetic: day numbers as the ISO text's own instant, the same roll-over past a
 * month's end as `Date.parse`, NaN for malformed texts, and whole months of a span.
 */
import { addDays, dayNumber, daysBetween, isIsoDate, missingDays } from '../../shared/dates';

const DAY_MS = 86_400_000;
const byParsing = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

describe('isIsoDate', () => {
  it('takes every real day of the years 0001 to 9999, the first century too, and nothing else', () => {
    expect(['0001-01-01', '0099-12-31', '0100-02-28', '2024-02-29', '9999-12-31'].filter(isIsoDate)).toHaveLength(5);
    expect(['0000-12-31', '0099-02-29', '2023-02-29', '2024-13-01', '2024-1-01', '10000-01-01'].filter(isIsoDate)).toEqual([]);
  });
});

describe('dayNumber', () => {
  it('agrees with Date.parse on every day from 1899 to 2101', () => {
    for (let ms = Date.UTC(1899, 0, 1); ms <= Date.UTC(2101, 11, 31); ms += DAY_MS) {
      const date = new Date(ms).toISOString().slice(0, 10);
      if (dayNumber(date) !== byParsing(date)) throw new Error(`${date}: ${dayNumber(date)} ≠ ${byParsing(date)}`);
    }
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('1983-01-01')).toBe(4748);
    expect(dayNumber('1969-12-31')).toBe(-1);
  });

  it('agrees with Date.parse on years before 100 and at the edges of four digits', () => {
    for (const date of ['0000-01-01', '0001-03-01', '0099-12-31', '0100-01-01', '9999-12-31']) expect([date, dayNumber(date)]).toEqual([date, byParsing(date)]);
  });

  it('rolls a day past the end of its month over, as Date.parse does', () => {
    for (const date of ['2024-02-30', '2023-02-29', '2024-04-31', '2024-02-31']) expect([date, dayNumber(date)]).toEqual([date, byParsing(date)]);
    expect(daysBetween('2024-02-28', '2024-02-30')).toBe(2);
  });

  it('is NaN for whatever Date.parse refuses', () => {
    const malformed = [
      '',
      '2024-1-01',
      '2024-01-1',
      '24-01-01',
      '2024/01/01',
      '2024-13-01',
      '2024-00-10',
      '2024-01-00',
      '2024-01-32',
      '+02024-01-01',
      '2024-01-01T00',
      ' 2024-01-01',
      '2024-0a-01',
      '２０２４-01-01',
      '2024--1-01',
    ];
    for (const date of malformed) {
      expect([date, Number.isNaN(byParsing(date))]).toEqual([date, true]);
      expect([date, dayNumber(date)]).toEqual([date, Number.NaN]);
    }
  });
});

describe('daysBetween and addDays', () => {
  it('count whole calendar days across years, leap days and the epoch', () => {
    expect(daysBetween('1983-01-01', '2025-01-15')).toBe(15355);
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2025-01-15', '2024-01-15')).toBe(-366);
    expect(daysBetween('1969-12-31', '1970-01-01')).toBe(1);
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-01-15', -366)).toBe('2024-01-15');
  });
});

describe('missingDays', () => {
  const WEEK = { from: '2024-02-26', to: '2024-03-03' };
  const week = ['2024-02-26', '2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01', '2024-03-02', '2024-03-03'];

  it('is every day of the span, in order, when nothing is present (a leap day and a month end included)', () => {
    expect(missingDays(WEEK.from, WEEK.to, new Set())).toEqual(week);
  });

  it('is nothing when every day is present, and ignores days outside the span', () => {
    expect(missingDays(WEEK.from, WEEK.to, new Set([...week, '2024-02-25', '2024-03-04']))).toEqual([]);
  });

  it('finds a gap at either end and in the middle', () => {
    expect(missingDays(WEEK.from, WEEK.to, new Set(week.slice(1)))).toEqual(['2024-02-26']);
    expect(missingDays(WEEK.from, WEEK.to, new Set(week.slice(0, -1)))).toEqual(['2024-03-03']);
    expect(missingDays(WEEK.from, WEEK.to, new Set(week.filter((d) => d !== '2024-02-29')))).toEqual(['2024-02-29']);
  });

  it('is one day for a span of one day, and nothing for an empty span (from after to)', () => {
    expect(missingDays('2024-03-01', '2024-03-01', new Set())).toEqual(['2024-03-01']);
    expect(missingDays('2024-03-02', '2024-03-01', new Set())).toEqual([]);
  });

  it('refuses an end that is not a calendar day instead of looping on it', () => {
    expect(() => missingDays('2024-03-01', 'tomorrow', new Set())).toThrow(RangeError);
    expect(() => missingDays('2024-02-30', '2024-03-01', new Set())).toThrow(RangeError);
  });
});
