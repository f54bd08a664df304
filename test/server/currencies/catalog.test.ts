/** The currency catalog as data, the derivation rule at its edges, and the simulated cross rates within every band. */
import Decimal from 'decimal.js';
import { DERIVED_CURRENCIES, derivedCurrency } from '../../../shared/currency-catalog';
import { addDays } from '../../../shared/dates';
import { colonesPerUnit, roundDerived } from '../../../server/domain/derive';
import { syntheticCross } from '../../../server/demo/synthetic-history';

describe('the currency catalog', () => {
  it('has 42 currencies by code, each with its own indicator, quoted as the central bank publishes them', () => {
    const codes = DERIVED_CURRENCIES.map((c) => c.code);
    expect(codes).toHaveLength(42);
    expect(codes).toEqual([...codes].sort());
    expect(new Set(DERIVED_CURRENCIES.map((c) => c.indicator)).size).toBe(42);
    expect(DERIVED_CURRENCIES.filter((c) => c.quote === 'usdPerUnit').map((c) => c.code)).toEqual(['AUD', 'EUR', 'GBP']);
    expect(derivedCurrency('EUR')).toMatchObject({ indicator: '333', name: { es: 'Euro', en: 'Euro' } });
    expect(derivedCurrency('JPY')).toMatchObject({ indicator: '325', quote: 'unitsPerUsd' });
    expect(derivedCurrency('USD')).toBeUndefined();
    for (const c of DERIVED_CURRENCIES) expect([c.code, c.bounds[0] < c.bounds[1] && c.bounds[0] > 0]).toEqual([c.code, true]);
  });
});

describe('the derivation rule', () => {
  it('rounds to 2 decimals from 10 colones up, to 6 significant digits below, half away from zero', () => {
    expect(roundDerived(new Decimal('10'))).toBe(10);
    expect(roundDerived(new Decimal('10.005'))).toBe(10.01);
    expect(roundDerived(new Decimal('9.999995'))).toBe(10);
    expect(roundDerived(new Decimal('3.2378945'))).toBe(3.23789);
    expect(roundDerived(new Decimal('3.2378950'))).toBe(3.2379);
    expect(roundDerived(new Decimal('0.0000123456789'))).toBe(0.0000123457);
  });

  it('multiplies by dollars per unit and divides by units per dollar, exactly', () => {
    // 512.82 × 1.0301 = 528.255882; 0.1 × 3 is not 0.30000000000000004 here.
    expect(colonesPerUnit(512.82, 1.0301, 'usdPerUnit')).toBe(528.26);
    expect(colonesPerUnit(0.1, 3, 'usdPerUnit')).toBe(0.3);
    // 506.47 ÷ 25365.5 = 0.019966884…
    expect(colonesPerUnit(506.47, 25365.5, 'unitsPerUsd')).toBe(0.0199669);
  });
});

describe('the simulated cross rates', () => {
  it('stay inside every currency’s band and leave weekends out', () => {
    for (const currency of DERIVED_CURRENCIES) {
      for (let day = '2000-01-03'; day < '2026-12-31'; day = addDays(day, 97)) {
        const value = syntheticCross(currency, day);
        if (value === null) continue;
        expect([currency.code, day, value >= currency.bounds[0] && value <= currency.bounds[1]]).toEqual([currency.code, day, true]);
      }
      // 2026-11-21 is a Saturday, 2026-11-22 a Sunday, 2026-11-23 a Monday.
      expect([syntheticCross(currency, '2026-11-21'), syntheticCross(currency, '2026-11-22')]).toEqual([null, null]);
      expect(syntheticCross(currency, '2026-11-23')).not.toBeNull();
    }
  });
});
