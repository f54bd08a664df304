import { nextPeriodStart, periodOf } from '../../../server/domain/period-stats';

describe('periods', () => {
  it('names the month or the year of a day', () => {
    expect([periodOf('2024-02-29', 'monthly'), periodOf('2024-02-29', 'yearly')]).toEqual(['2024-02', '2024']);
  });

  it('starts the next period on its first day, across a year, and after every day past 9999', () => {
    expect(['2024-01', '2024-09', '2024-12', '0999-12', '2024', '0999'].map(nextPeriodStart)).toEqual([
      '2024-02-01',
      '2024-10-01',
      '2025-01-01',
      '1000-01-01',
      '2025-01-01',
      '1000-01-01',
    ]);
    // Compared as text, the bound after 9999 comes after its last day, not before 1000's first.
    for (const period of ['9999-12', '9999']) expect(nextPeriodStart(period) > '9999-12-31').toBe(true);
  });
});
