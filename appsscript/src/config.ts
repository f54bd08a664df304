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
} as const;

export const CACHE_TTL = {
  /** A past day's rate never changes: keep it as long as CacheService allows (6 h). */
  final: 21_600,
  /** Today's rate, "latest" and windows that end at the latest date move: a few minutes. */
  moving: 300,
} as const;

/** The name Sheets shows for the add-on menu and the sidebar. */
export const PRODUCT_NAME = 'CRC Rates';
