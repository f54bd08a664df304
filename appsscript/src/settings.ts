/**
 * The settings rules, apart from where they are stored. The key stays in document properties
 * and never goes back to the sidebar whole: the sidebar sees `crc_live_AbCd…wxyz`. A saved key is
 * only ever sent to the address it was saved with: changing the address needs the key pasted
 * again, so an editor cannot point the sheet at another server and collect the key from there.
 */
import { ArgumentError } from './args';
import { DEFAULT_BASE_URL } from './config';
import type { StaleView } from './lastgood';
import type { Locale, Messages } from './messages';

/** What the sidebar may know. */
export interface SettingsView {
  locale: Locale;
  hasKey: boolean;
  maskedKey: string | null;
  /** The saved address, or "" for the public service. */
  baseUrl: string;
  defaultBaseUrl: string;
  /** Answers last served from the last known good copy instead of the API, or null. */
  stale: StaleView | null;
}

/** What the sidebar sends: a blank key keeps the saved one; a blank address means the public service. */
export interface SettingsForm {
  key?: string;
  baseUrl?: string;
}

export interface StoredSettings {
  apiKey: string | null;
  /** null: the public service. */
  baseUrl: string | null;
}

const KEY_LIKE = /^crc_live_[A-Za-z0-9_-]{20,200}$/;
const URL_PARTS = /^(https?):\/\/([a-z0-9.-]+(?::\d{1,5})?|\[[0-9a-f:.]+\](?::\d{1,5})?)(\/[^\s?#]*)?$/i;

export function isKeyLike(key: string): boolean {
  return KEY_LIKE.test(key);
}

/** `crc_live_AbCd…wxyz`: enough to recognise a key, not enough to use it. */
export function maskKey(key: string): string {
  if (key.length < 24) return `…${key.slice(-4)}`;
  const head = key.startsWith('crc_live_') ? 'crc_live_'.length + 4 : 4;
  return `${key.slice(0, head)}…${key.slice(-4)}`;
}

/**
 * A typed API address in the form the add-on uses (`https://host/api/v1`, no trailing slash),
 * or null for blank (the public service). A bare server address gets `/api/v1`.
 */
export function normalizeBaseUrl(input: string | null | undefined, t: Messages): string | null {
  const text = String(input ?? '').trim();
  if (text === '') return null;
  const m = URL_PARTS.exec(text);
  const [, scheme, host, rest] = m ?? [];
  if (!scheme || !host) throw new ArgumentError(t.badBaseUrl(text));
  const path = (rest ?? '').replace(/\/+$/, '');
  return `${scheme.toLowerCase()}://${host.toLowerCase()}${path === '' ? '/api/v1' : path}`;
}

/** The address requests go to. */
export function effectiveBaseUrl(stored: string | null): string {
  return stored ?? DEFAULT_BASE_URL;
}

/** A stored address in normal form (as typed if it cannot be read: then it will not match). */
function sameOrRaw(stored: string | null, t: Messages): string | null {
  try {
    return normalizeBaseUrl(stored, t);
  } catch {
    // A stored address that no longer passes the checks is compared as it was saved.
    return stored;
  }
}

/** The settings a save (or a connection test) would use, or why not. */
export function resolveSettings(stored: StoredSettings, form: SettingsForm, t: Messages): StoredSettings {
  const baseUrl = normalizeBaseUrl(form.baseUrl, t);
  const typed = String(form.key ?? '').trim();
  if (typed) {
    if (!isKeyLike(typed)) throw new ArgumentError(t.badKeyFormat);
    return { apiKey: typed, baseUrl };
  }
  if (stored.apiKey && effectiveBaseUrl(baseUrl) !== effectiveBaseUrl(sameOrRaw(stored.baseUrl, t))) {
    throw new ArgumentError(t.keyNeededForNewAddress);
  }
  return { apiKey: stored.apiKey, baseUrl };
}

export function settingsView(stored: StoredSettings, locale: Locale, stale: StaleView | null = null): SettingsView {
  return {
    locale,
    hasKey: !!stored.apiKey,
    maskedKey: stored.apiKey ? maskKey(stored.apiKey) : null,
    baseUrl: stored.baseUrl ?? '',
    defaultBaseUrl: DEFAULT_BASE_URL,
    stale,
  };
}

/** Whether two stored addresses send requests to different servers. */
export function addressChanged(before: string | null, after: string | null, t: Messages): boolean {
  return effectiveBaseUrl(after) !== effectiveBaseUrl(sameOrRaw(before, t));
}

/** JSON that is safe inside a <script> element (no `</script>`, no line separators). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
