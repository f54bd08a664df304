/// <reference types="google-apps-script" />
/**
 * The sidebar's server functions (called with google.script.run). They return only what the
 * sidebar may show: the key comes back masked, never whole. Errors are thrown with a message in
 * the sheet's language; the sidebar shows it as it is.
 */
import { PLANS, type PlanId } from '../../shared/plans';
import type { Usage } from '../../shared/types';
import { buildUrl, readAnswer } from './api';
import { fetchAll, readDocument, sheet, writeSettings } from './env';
import { staleView } from './lastgood';
import { formatUtc, type Messages } from './messages';
import { addressChanged, effectiveBaseUrl, resolveSettings, settingsView, type SettingsForm, type SettingsView, type StoredSettings } from './settings';

export interface ConnectionView extends Usage {
  baseUrl: string;
  planLabel: string;
  /** `resetsAt` as "2026-12-01 00:00 UTC". */
  resetsOn: string;
}

/** `/usage` with these settings: the plan, this month's count and limits (never counted against the quota). */
function usageWith(settings: StoredSettings, t: Messages): ConnectionView {
  if (!settings.apiKey) throw new Error(t.noKey());
  const baseUrl = effectiveBaseUrl(settings.baseUrl);
  const [reply] = fetchAll([buildUrl(baseUrl, '/usage')], settings.apiKey, baseUrl, t);
  const usage = readAnswer<Usage>(reply, baseUrl, t);
  return { ...usage, baseUrl, planLabel: PLANS[usage.plan as PlanId]?.label ?? usage.plan, resetsOn: formatUtc(usage.resetsAt) };
}

/**
 * The settings the sidebar shows: whether a key is saved (masked), the API address, and whether
 * some cells show the last known good copy.
 *
 * @return {Object} The settings view.
 */
export function getSettings(): SettingsView {
  const { settings, lastGood } = readDocument();
  return settingsView(settings, sheet().locale, staleView(lastGood.stale()));
}

/**
 * Saves the pasted key and the API address in the document's properties.
 *
 * @param {Object} form The sidebar form: key (blank keeps the saved one) and baseUrl (blank for the public service).
 * @return {Object} The settings view after saving.
 */
export function saveSettings(form: SettingsForm): SettingsView {
  const { locale, t } = sheet();
  const { settings, lastGood } = readDocument();
  const next = resolveSettings(settings, form ?? {}, t);
  // The stale notice is about the old server's answers: another server starts without one.
  if (addressChanged(settings.baseUrl, next.baseUrl, t)) lastGood.clearStale();
  writeSettings(next);
  return settingsView(next, locale, staleView(lastGood.stale()));
}

/**
 * Calls /usage with the pasted key (or the saved one) to show the plan and this month's quota.
 *
 * @param {Object} form The sidebar form: key and baseUrl, as for saving.
 * @return {Object} Plan, quota used and remaining, and when it resets.
 */
export function testConnection(form: SettingsForm): ConnectionView {
  const { t } = sheet();
  return usageWith(resolveSettings(readDocument().settings, form ?? {}, t), t);
}

/**
 * This month's usage of the saved key, for the sidebar's meter: used, remaining, the quota and
 * when it resets, as /usage gives them.
 *
 * @return {Object} Plan, quota used and remaining, and when it resets.
 */
export function getUsage(): ConnectionView {
  return usageWith(readDocument().settings, sheet().t);
}

/**
 * Removes the saved key from this document.
 *
 * @return {Object} The settings view after removing it.
 */
export function removeKey(): SettingsView {
  const { locale } = sheet();
  const { settings, lastGood } = readDocument();
  const next = { apiKey: null, baseUrl: settings.baseUrl };
  writeSettings(next);
  return settingsView(next, locale, staleView(lastGood.stale()));
}
