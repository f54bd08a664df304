/** The pair the official series quotes: colones (CRC) per one US dollar (USD). */
export const CURRENCIES = ['USD', 'CRC'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Which side of the official quote: the central bank's buy (317) or sell (318) reference rate. */
export const RATE_SIDES = ['buy', 'sell'] as const;
export type RateSide = (typeof RATE_SIDES)[number];

/**
 * Who provided a stored row: the central bank, Hacienda (its fallback for today), or the simulated
 * central bank of `npm run demo`, so that demo data can never pass for the real series.
 */
export const RATE_SOURCES = ['BCCR', 'Hacienda', 'DEMO'] as const;
export type RateSource = (typeof RATE_SOURCES)[number];
