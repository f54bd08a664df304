import { verdictOf, verdictThreshold } from '../../../server/domain/insights/verdict';

describe('verdictThreshold: ±0.25 % up to 30 days, ±0.25 × √(days / 30) % beyond', () => {
  it.each([
    [1, 0.25],
    [7, 0.25],
    [30, 0.25],
    // 0.25 × √(31/30) = 0.254132…
    [31, 0.2541],
    // 0.25 × √2 = 0.353553…
    [60, 0.3536],
    // 0.25 × √3 = 0.433012…
    [90, 0.433],
    // 0.25 × √6 = 0.612372…
    [180, 0.6124],
    // 0.25 × √(365/30) = 0.872020…
    [365, 0.872],
  ])('%s days → %s %%', (days, line) => {
    expect(verdictThreshold(days)).toBe(line);
  });

  it('refuses a span that is no whole number of days', () => {
    expect(() => verdictThreshold(0)).toThrow(RangeError);
    expect(() => verdictThreshold(2.5)).toThrow(RangeError);
  });
});

describe('verdictOf: about the colón, from the sell rate’s changePercent and the span', () => {
  it.each([
    [-0.25, 30, 'appreciation'],
    [-0.2501, 30, 'appreciation'],
    [-3.5, 30, 'appreciation'],
    [-0.2499, 30, 'stable'],
    [0, 30, 'stable'],
    [0.2499, 30, 'stable'],
    [0.25, 30, 'depreciation'],
    [0.2501, 30, 'depreciation'],
    [4.1, 30, 'depreciation'],
    [0.25, 7, 'depreciation'],
    [-0.25, 7, 'appreciation'],
    // A year: the issue's −0.4 % is no appreciation; the line is ±0.872.
    [-0.4, 365, 'stable'],
    [-0.8719, 365, 'stable'],
    [-0.872, 365, 'appreciation'],
    [0.872, 365, 'depreciation'],
    [0.8719, 365, 'stable'],
    [0.433, 90, 'depreciation'],
    [0.4329, 90, 'stable'],
  ] as const)('%s %% over %s days → %s', (percent, days, verdict) => {
    expect(verdictOf(percent, days)).toBe(verdict);
  });

  it('refuses a value that is not a number', () => {
    expect(() => verdictOf(Number.NaN, 30)).toThrow(RangeError);
  });
});
