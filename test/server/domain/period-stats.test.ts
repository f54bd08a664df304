import { periodOf } from '../../../server/domain/period-stats';

describe('periods', () => {
  it('names the month or the year of a day', () => {
    expect([periodOf('2024-02-29', 'monthly'), periodOf('2024-02-29', 'yearly')]).toEqual(['2024-02', '2024']);
  });
});
