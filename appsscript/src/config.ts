/**
 * The add-on's fixed settings. The document property names are stored in users' sheets: renaming
 * one would lose every saved key and API address. The cache lifetimes follow CacheService's limits.
 */

/**
 * The public service, used when the document has no `CRC_RATES_BASE_URL`. The build may replace
 * it (`CRC_RATES_PUBLIC_URL=… npm run addon:build`), and puts its origin in `urlFetchWhitelist`.
 */
import { PUBLIC_API_BASE_URL } from '../../shared/service';

declare const __CRC_RATES_PUBLIC_URL__: string | undefined;
export const DEFAULT_BASE_URL: string =
  typeof __CRC_RATES_PUBLIC_URL__ === 'string' && __CRC_RATES_PUBLIC_URL__ ? __CRC_RATES_PUBLIC_URL__ : PUBLIC_API_BASE_URL;

/** Document properties: shared by the sheet's editors, readable by custom functions. */
export const PROPERTY = {
  apiKey: 'CRC_RATES_API_KEY',
  baseUrl: 'CRC_RATES_BASE_URL',
  /** The last known good answers: `CRC_RATES_LKG.<id>.<part>.<parts>` (lastgood.ts). */
  lastGoodPrefix: 'CRC_RATES_LKG.',
  /** Which answers were last served from that copy, and why (the sidebar shows it). */
  stale: 'CRC_RATES_STALE',
} as const;

/**
 * The last known good copy in document properties. Apps Script allows 9 KB per value and 500 KB
 * per document's store (the key and the address share it), and every custom function reads the
 * whole store once: a tenth of a megabyte keeps about a hundred months of daily rates and the
 * tables next to them without making each call slow.
 */
export const LAST_GOOD = {
  /** Characters of all kept answers together; the oldest go first beyond it. */
  maxChars: 100_000,
  /** Answers kept at most. */
  maxEntries: 150,
  /** Characters per property value (ASCII only, so characters are bytes), under the 9 KB limit. */
  partChars: 8_000,
} as const;

export const CACHE_TTL = {
  /** A past day's rate never changes: keep it as long as CacheService allows (6 h). */
  final: 21_600,
  /** Today's rate, "latest" and windows that end at the latest date move: a few minutes. */
  moving: 300,
  /**
   * An answer recalled from the last known good copy after a failure: cached a minute, so that a
   * recalculation of many cells asks a failing API once, not once per cell, and asks again soon.
   */
  recalled: 60,
} as const;

/** The name Sheets shows for the add-on menu and the sidebar. */
export const PRODUCT_NAME = 'CRC Rates';
