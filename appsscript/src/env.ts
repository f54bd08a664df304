/// <reference types="google-apps-script" />
/**
 * The Apps Script side of an `Env`: document properties (the settings and the last known good
 * copy, read with one getProperties), the document cache, the spreadsheet's locale and zone, and
 * UrlFetchApp. Custom functions run without the user's authorisation, so only services open to
 * them are touched here: PropertiesService (document), CacheService, read-only SpreadsheetApp,
 * Utilities and UrlFetchApp.
 */
import { TIME_ZONE } from '../../shared/limits';
import type { Env } from './answers';
import { ApiError, originOf, type HttpAnswer } from './api';
import { createStore } from './cache';
import { PROPERTY } from './config';
import { memoFormat } from './dates';
import { createLastGood, type LastGood } from './lastgood';
import { localeOf, messages, type Locale, type Messages } from './messages';
import { effectiveBaseUrl, normalizeBaseUrl, type StoredSettings } from './settings';

export interface Sheet {
  locale: Locale;
  t: Messages;
  timeZone: string;
}

/** The spreadsheet's language and zone (Costa Rica's when there is no active spreadsheet). */
export function sheet(): Sheet {
  const active = SpreadsheetApp.getActive();
  const locale = localeOf(active ? active.getSpreadsheetLocale() : null);
  return { locale, t: messages(locale), timeZone: active?.getSpreadsheetTimeZone() || TIME_ZONE };
}

/** The document's properties, read once: the settings and the last known good copy come from the same snapshot. */
export interface DocumentState {
  settings: StoredSettings;
  lastGood: LastGood;
}

function settingsFrom(props: Record<string, string>): StoredSettings {
  const apiKey = (props[PROPERTY.apiKey] ?? '').trim();
  const baseUrl = (props[PROPERTY.baseUrl] ?? '').trim();
  return { apiKey: apiKey || null, baseUrl: baseUrl || null };
}

export function readDocument(): DocumentState {
  const store = PropertiesService.getDocumentProperties();
  const all = store.getProperties();
  return { settings: settingsFrom(all), lastGood: createLastGood(store, all, () => Date.now()) };
}

export function writeSettings(settings: StoredSettings): void {
  const props = PropertiesService.getDocumentProperties();
  if (settings.apiKey) props.setProperty(PROPERTY.apiKey, settings.apiKey);
  else props.deleteProperty(PROPERTY.apiKey);
  if (settings.baseUrl) props.setProperty(PROPERTY.baseUrl, settings.baseUrl);
  else props.deleteProperty(PROPERTY.baseUrl);
}

function cleanException(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^(?:Exception|Error):\s*/, '');
}

/** GETs with the key, all at once; a request that cannot be made at all is an ApiError. */
export function fetchAll(urls: readonly string[], apiKey: string, baseUrl: string, t: Messages): HttpAnswer[] {
  const params = {
    method: 'get' as const,
    headers: { 'x-api-key': apiKey, accept: 'application/json' },
    muteHttpExceptions: true,
    // A redirect could carry the key to another host: the API never redirects.
    followRedirects: false,
  };
  const [only] = urls;
  let responses: GoogleAppsScript.URL_Fetch.HTTPResponse[];
  try {
    responses = urls.length === 1 && only !== undefined ? [UrlFetchApp.fetch(only, params)] : UrlFetchApp.fetchAll(urls.map((url) => ({ url, ...params })));
  } catch (error) {
    throw new ApiError(t.unreachable(originOf(baseUrl), cleanException(error)), 0, 'UNREACHABLE');
  }
  return responses.map((r) => ({ status: r.getResponseCode(), headers: r.getHeaders() as Record<string, unknown>, body: r.getContentText() }));
}

export function gasEnv(): Env {
  const { locale, t, timeZone } = sheet();
  const { settings: stored, lastGood } = readDocument();
  const baseUrl = effectiveBaseUrl(normalizeBaseUrl(stored.baseUrl, t));
  const apiKey = stored.apiKey;
  const format = memoFormat((date, pattern) => Utilities.formatDate(date, timeZone, pattern));
  return {
    locale,
    t,
    format,
    today: Utilities.formatDate(new Date(), TIME_ZONE, 'yyyy-MM-dd'),
    baseUrl,
    apiKey,
    store: createStore(CacheService.getDocumentCache(), () => Date.now()),
    lastGood,
    fetch: (urls) => fetchAll(urls, apiKey ?? '', baseUrl, t),
    now: () => Date.now(),
  };
}
