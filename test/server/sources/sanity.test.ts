import { addDays } from '../../../shared/dates';
import { checkRate, SANITY_BOUNDS } from '../../../server/sources/sanity';
import { SYNTHETIC_FIRST_DATE, syntheticRate } from '../../../server/demo/synthetic-history';

const TODAY = '2026-11-21';
const ok = { date: '2026-11-20', buy: 494.34, sell: 500.49 };

describe('checkRate', () => {
  it('accepts a normal row, today and tomorrow', () => {
    expect(checkRate(ok, TODAY)).toBeNull();
    expect(checkRate({ ...ok, date: TODAY }, TODAY)).toBeNull();
    expect(checkRate({ ...ok, date: '2026-11-22' }, TODAY)).toBeNull();
  });

  it('refuses the day after tomorrow and impossible dates', () => {
    expect(checkRate({ ...ok, date: '2026-11-23' }, TODAY)).toMatch(/after today/);
    expect(checkRate({ ...ok, date: '2026-02-30' }, TODAY)).toMatch(/calendar day/);
    expect(checkRate({ ...ok, date: '1982-12-31' }, TODAY)).toMatch(/before the official history/);
  });

  it('refuses non-finite and non-positive values', () => {
    expect(checkRate({ ...ok, buy: Number.NaN }, TODAY)).toMatch(/finite/);
    expect(checkRate({ ...ok, sell: Number.POSITIVE_INFINITY }, TODAY)).toMatch(/finite/);
    expect(checkRate({ ...ok, buy: 0 }, TODAY)).toMatch(/positive/);
    expect(checkRate({ ...ok, buy: -5 }, TODAY)).toMatch(/positive/);
  });

  it('refuses buy above sell but accepts them equal', () => {
    expect(checkRate({ ...ok, buy: 501, sell: 500 }, TODAY)).toMatch(/above sell/);
    expect(checkRate({ ...ok, buy: 500, sell: 500 }, TODAY)).toBeNull();
  });

  it('keeps both sides inside the band, bounds included', () => {
    expect(checkRate({ ...ok, buy: 5, sell: 6 }, TODAY)).toMatch(/buy 5 is outside/);
    expect(checkRate({ ...ok, buy: 1990, sell: 99999 }, TODAY)).toMatch(/sell 99999 is outside/);
    expect(checkRate({ ...ok, buy: SANITY_BOUNDS.minRate, sell: SANITY_BOUNDS.minRate + 1 }, TODAY)).toBeNull();
    expect(checkRate({ ...ok, buy: SANITY_BOUNDS.maxRate - 1, sell: SANITY_BOUNDS.maxRate }, TODAY)).toBeNull();
  });

  it('keeps the spread strictly under 50', () => {
    expect(checkRate({ ...ok, buy: 500, sell: 549.99 }, TODAY)).toBeNull();
    expect(checkRate({ ...ok, buy: 500, sell: 550 }, TODAY)).toMatch(/spread 50.00/);
  });

  it('throws on a malformed today: that is a bug in the caller', () => {
    expect(() => checkRate(ok, '21/11/2026')).toThrow(RangeError);
  });

  it('passes every day of the fake upstream’s synthetic history', () => {
    const failures: string[] = [];
    for (let d = SYNTHETIC_FIRST_DATE; d <= TODAY; d = addDays(d, 1)) {
      const r = syntheticRate(d);
      const reason = checkRate({ date: d, ...r }, TODAY);
      if (reason !== null || r.sell - r.buy < 1 || r.sell - r.buy > 15) failures.push(`${d}: ${reason ?? 'spread'}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('checkRate on the early history', () => {
  it('accepts the colón near 40 per dollar in 1983 but not garbage', () => {
    expect(checkRate({ date: '1983-03-01', buy: 40.25, sell: 40.9 }, TODAY)).toBeNull();
    expect(checkRate({ date: '1983-03-01', buy: 5, sell: 6 }, TODAY)).toMatch(/outside 20\.\.400/);
    expect(checkRate({ date: '2026-03-01', buy: 40.25, sell: 40.9 }, TODAY)).toMatch(/outside 100\.\.2000/);
  });
});
