/**
 * The currencies served against the colón. The dollar is the official series (indicators 317 buy
 * and 318 sell, colones per dollar). Every other one is derived from the central bank's cross rate
 * against the dollar, published as one SDDE indicator per currency, in one of two directions:
 * dollars per unit (EUR, GBP, AUD) or units per dollar (the rest). Colones per unit are then the
 * dollar's buy and sell times dollars per unit, both of the same day: exactly how Hacienda derives
 * its euro.
 *
 * `bounds` is the plausible band of the published value, in its own direction: a value outside it
 * is rejected before it is stored (a misread indicator, a unit slip upstream). Each band holds
 * every value since 2000 with room to spare; the peso argentino's is wide because it was 1 per
 * dollar in 2001.
 */

/** How the central bank quotes a cross rate. */
export const QUOTES = ['usdPerUnit', 'unitsPerUsd'] as const;
export type Quote = (typeof QUOTES)[number];

export interface LocalizedName {
  es: string;
  en: string;
}

export interface DerivedCurrency {
  code: string;
  name: LocalizedName;
  /** The SDDE indicator of the cross rate against the dollar. */
  indicator: string;
  quote: Quote;
  bounds: readonly [min: number, max: number];
}

/** An entry maker per quote direction, so that each line below reads as a row of a table. */
const entry =
  (quote: Quote) =>
  (code: string, es: string, en: string, indicator: string, bounds: readonly [number, number]): DerivedCurrency => ({
    code,
    name: { es, en },
    indicator,
    quote,
    bounds,
  });
const usdPerUnit = entry('usdPerUnit');
const unitsPerUsd = entry('unitsPerUsd');

/** The official series' own currency. */
export const DOLLAR = { code: 'USD', name: { es: 'Dólar estadounidense', en: 'US dollar' } } as const;

/** Ordered by code. */
export const DERIVED_CURRENCIES: readonly DerivedCurrency[] = [
  unitsPerUsd('AED', 'Dírham de los Emiratos Árabes Unidos', 'UAE dirham', '21264', [3.5, 3.8]),
  unitsPerUsd('ARS', 'Peso argentino', 'Argentine peso', '344', [0.5, 10000]),
  usdPerUnit('AUD', 'Dólar australiano', 'Australian dollar', '3433', [0.3, 1.3]),
  unitsPerUsd('BDT', 'Taka bangladesí', 'Bangladeshi taka', '21251', [40, 250]),
  unitsPerUsd('BOB', 'Boliviano', 'Boliviano', '3054', [4, 15]),
  unitsPerUsd('BRL', 'Real brasileño', 'Brazilian real', '346', [1, 10]),
  unitsPerUsd('CAD', 'Dólar canadiense', 'Canadian dollar', '328', [0.8, 2]),
  unitsPerUsd('CHF', 'Franco suizo', 'Swiss franc', '326', [0.4, 2.5]),
  unitsPerUsd('CLP', 'Peso chileno', 'Chilean peso', '3055', [300, 1500]),
  unitsPerUsd('CNY', 'Yuan chino', 'Chinese yuan', '3364', [5, 10]),
  unitsPerUsd('COP', 'Peso colombiano', 'Colombian peso', '345', [1000, 7000]),
  unitsPerUsd('DKK', 'Corona danesa', 'Danish krone', '342', [3.5, 12]),
  unitsPerUsd('DOP', 'Peso dominicano', 'Dominican peso', '3043', [10, 120]),
  unitsPerUsd('EGP', 'Libra egipcia', 'Egyptian pound', '21268', [2, 150]),
  usdPerUnit('EUR', 'Euro', 'Euro', '333', [0.6, 2]),
  usdPerUnit('GBP', 'Libra esterlina', 'Pound sterling', '330', [0.9, 2.5]),
  unitsPerUsd('GTQ', 'Quetzal guatemalteco', 'Guatemalan quetzal', '338', [5, 10]),
  unitsPerUsd('HKD', 'Dólar de Hong Kong', 'Hong Kong dollar', '3052', [7, 8.5]),
  unitsPerUsd('HNL', 'Lempira hondureño', 'Honduran lempira', '339', [10, 40]),
  unitsPerUsd('IDR', 'Rupia indonesia', 'Indonesian rupiah', '21263', [5000, 25000]),
  unitsPerUsd('ILS', 'Nuevo séquel israelí', 'Israeli new shekel', '21266', [2.5, 6]),
  unitsPerUsd('INR', 'Rupia india', 'Indian rupee', '21267', [30, 150]),
  unitsPerUsd('JOD', 'Dinar jordano', 'Jordanian dinar', '22204', [0.6, 0.8]),
  unitsPerUsd('JPY', 'Yen japonés', 'Japanese yen', '325', [50, 400]),
  unitsPerUsd('KRW', 'Won surcoreano', 'South Korean won', '337', [700, 2500]),
  unitsPerUsd('LKR', 'Rupia de Sri Lanka', 'Sri Lankan rupee', '20873', [80, 500]),
  unitsPerUsd('MAD', 'Dírham marroquí', 'Moroccan dirham', '21265', [6, 15]),
  unitsPerUsd('MXN', 'Peso mexicano', 'Mexican peso', '332', [8, 35]),
  unitsPerUsd('MYR', 'Ringgit malayo', 'Malaysian ringgit', '25067', [2.5, 6]),
  unitsPerUsd('NIO', 'Córdoba nicaragüense', 'Nicaraguan córdoba', '340', [10, 60]),
  unitsPerUsd('NOK', 'Corona noruega', 'Norwegian krone', '343', [4, 20]),
  unitsPerUsd('NZD', 'Dólar neozelandés', 'New Zealand dollar', '21269', [1, 3]),
  unitsPerUsd('PEN', 'Sol peruano', 'Peruvian sol', '3057', [2.5, 4.5]),
  unitsPerUsd('PLN', 'Esloti polaco', 'Polish zloty', '3430', [1.8, 7]),
  unitsPerUsd('RUB', 'Rublo ruso', 'Russian ruble', '3056', [20, 200]),
  unitsPerUsd('SEK', 'Corona sueca', 'Swedish krona', '335', [4, 20]),
  unitsPerUsd('SGD', 'Dólar de Singapur', 'Singapore dollar', '21270', [1, 2.2]),
  unitsPerUsd('THB', 'Baht tailandés', 'Thai baht', '21262', [20, 60]),
  unitsPerUsd('TWD', 'Nuevo dólar taiwanés', 'New Taiwan dollar', '3053', [25, 45]),
  unitsPerUsd('UYU', 'Peso uruguayo', 'Uruguayan peso', '84857', [10, 80]),
  unitsPerUsd('VND', 'Dong vietnamita', 'Vietnamese dong', '21766', [10000, 40000]),
  unitsPerUsd('ZAR', 'Rand sudafricano', 'South African rand', '21881', [5, 30]),
];

/**
 * The currencies whose today Hacienda fills, sell side only, before the central bank publishes the
 * day's cross rate: Hacienda publishes the euro alone (`/indicadores/tc/euro`).
 */
export const PROVISIONAL_CURRENCIES: readonly string[] = ['EUR'];

/** Every code a rate can be asked in: the dollar first, then the derived ones by code. */
export const CURRENCY_CODES: readonly string[] = [DOLLAR.code, ...DERIVED_CURRENCIES.map((c) => c.code)];

const byCode = new Map(DERIVED_CURRENCIES.map((c) => [c.code, c]));

/** The derived currency of a code (upper case), or undefined for the dollar and unknown codes. */
export function derivedCurrency(code: string): DerivedCurrency | undefined {
  return byCode.get(code);
}

/** What a 400 for an unknown currency says: where to find the supported ones. */
export function unknownCurrencyMessage(parameter: string, given: string): string {
  return `"${parameter}" must be a supported currency code (got "${given}"); GET /api/v1/currencies lists them`;
}
