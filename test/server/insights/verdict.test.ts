import { verdictOf } from '../../../server/domain/insights/verdict';

describe('verdictOf: about the colón, from the sell rate’s changePercent', () => {
  it.each([
    [-0.25, 'appreciation'],
    [-0.2501, 'appreciation'],
    [-3.5, 'appreciation'],
    [-0.2499, 'stable'],
    [0, 'stable'],
    [0.2499, 'stable'],
    [0.25, 'depreciation'],
    [0.2501, 'depreciation'],
    [4.1, 'depreciation'],
  ] as const)('%s %% → %s', (percent, verdict) => {
    expect(verdictOf(percent)).toBe(verdict);
  });

  it('refuses a value that is not a number', () => {
    expect(() => verdictOf(Number.NaN)).toThrow(RangeError);
  });
});
